"""Fetching pinned sources: verified checksums, caching, clear failures."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from lexicon.sources import fetch as fetching
from lexicon.sources.apt import AptConfig
from lexicon.sources.fetch import SourceSpec

from lexicon.errors import SourceError


def make_deb(tmp: Path) -> Path:
    """A real, tiny Debian package built with dpkg-deb."""
    root = tmp / "pkg"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "usr/share/dict").mkdir(parents=True)
    (root / "usr/share/dict/words").write_text("kot\npies\n", encoding="utf-8")
    (root / "DEBIAN/control").write_text(
        "Package: tinywords\nVersion: 1.0-1\nArchitecture: all\n"
        "Maintainer: test <t@example.invalid>\nDescription: tiny\n")
    deb = tmp / "tinywords_1.0-1_all.deb"
    subprocess.run(["dpkg-deb", "--build", str(root), str(deb)], check=True,
                   capture_output=True)
    return deb


def fake_apt(deb: Path | None, log: list[list[str]]) -> fetching.Runner:
    """Stands in for apt (update, madison, download: the archive offers ``deb`` or nothing;
    the log holds only downloads); every other command runs for real. Real apt against a
    local repository is tested in tests/sources/test_sources.py."""
    def run(cmd: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
        if cmd[0] in ("apt-get", "apt-cache"):
            if "download" not in cmd:
                return subprocess.CompletedProcess(cmd, 0, "", "")
            log.append(["apt-get", "download", cmd[-1]])
            if deb is None:
                return subprocess.CompletedProcess(cmd, 100, "", "E: Unable to locate package")
            shutil.copy(deb, cwd / deb.name)
            return subprocess.CompletedProcess(cmd, 0, "", "")
        log.append(list(cmd))
        return fetching._run(cmd, cwd)
    return run


@pytest.fixture(autouse=True)
def _no_archive(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every fetch here goes to a private apt tree with no archive behind it."""
    def local(cache: Path | None = None, path: Path = fetching.MANIFEST_PATH) -> AptConfig:
        return AptConfig(tmp_path / "apt", ("sid",), ())
    monkeypatch.setattr(fetching, "apt_config", local)


needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")


@needs_dpkg
def test_fetch_verifies_unpacks_and_caches(tmp_path: Path) -> None:
    deb = make_deb(tmp_path)
    spec = SourceSpec("tiny", "deb", "tinywords", "1.0-1", fetching.sha256_of(deb), "MIT",
                      "test words")
    log: list[list[str]] = []
    got = fetching.fetch(spec, tmp_path / "cache", fake_apt(deb, log))
    assert got.root is not None
    assert (got.root / "usr/share/dict/words").read_text().split() == ["kot", "pies"]
    assert got.manifest_entry()["sha256"] == spec.sha256
    assert log[0] == ["apt-get", "download", "tinywords=1.0-1"]
    n = len(log)
    again = fetching.fetch(spec, tmp_path / "cache", fake_apt(None, log))  # from the cache
    assert again.sha256 == got.sha256 and len(log) == n


@needs_dpkg
def test_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    deb = make_deb(tmp_path)
    spec = SourceSpec("tiny", "deb", "tinywords", "1.0-1", "0" * 64, "MIT", "test words")
    with pytest.raises(SourceError, match="checksum mismatch"):
        fetching.fetch(spec, tmp_path / "cache", fake_apt(deb, []))
    assert not (tmp_path / "cache/deb/tinywords_1.0-1").exists()


def test_download_failure_is_a_clear_message(tmp_path: Path) -> None:
    spec = SourceSpec("tiny", "deb", "tinywords", "1.0-1", "0" * 64, "MIT", "test words")
    with pytest.raises(SourceError) as err:
        fetching.fetch(spec, tmp_path / "cache", fake_apt(None, []))
    assert err.value.code == "source_unavailable"
    assert "tinywords 1.0-1 is in none of the configured suites (sid)" in err.value.message
    assert "lexicon sources update tiny" in err.value.message


def test_unpinned_wheel_name_is_refused(tmp_path: Path) -> None:
    spec = SourceSpec("w", "pypi", "w", "1", {"w-1-py3-none-any.whl": "0" * 64}, "-", "-")
    wheel = tmp_path / "w-1-cp311-cp311-linux_x86_64.whl"
    wheel.write_bytes(b"not really a wheel")
    with pytest.raises(SourceError, match="pins no checksum"):
        fetching._verify(spec, wheel)


def test_manifest_pins_every_source() -> None:
    specs = fetching.load_manifest()
    assert {"wpolish", "hunspell-pl", "morfeusz2", "apertium-hbs-slv", "hunspell-sr",
            "hunspell-sl"} <= set(specs)
    for spec in specs.values():
        shas = [spec.sha256] if isinstance(spec.sha256, str) else list(spec.sha256.values())
        assert shas and all(len(s) == 64 for s in shas), spec.id
        assert spec.license and spec.contributes and spec.games


def _cached(tmp_path: Path) -> tuple[SourceSpec, Path, Path]:
    deb = make_deb(tmp_path)
    spec = SourceSpec("tiny", "deb", "tinywords", "1.0-1", fetching.sha256_of(deb), "MIT",
                      "test words")
    got = fetching.fetch(spec, tmp_path / "cache", fake_apt(deb, []))
    assert got.root is not None
    return spec, deb, got.root / "usr/share/dict/words"


@needs_dpkg
def test_an_edited_unpacked_file_is_named_removed_and_fetched_again(tmp_path: Path) -> None:
    spec, deb, words = _cached(tmp_path)
    words.write_text("kot\npiez\n", encoding="utf-8")        # same size, other bytes
    said: list[str] = []
    log: list[list[str]] = []
    got = fetching.fetch(spec, tmp_path / "cache", fake_apt(deb, log), log=said.append)
    assert "the cache entry" in said[0] and "is corrupt" in said[0]
    assert "usr/share/dict/words: sha256 differs from the cache record" in said[0]
    assert log[0][0] == "apt-get"                              # fetched again
    assert got.root is not None
    assert (got.root / "usr/share/dict/words").read_text().split() == ["kot", "pies"]


@needs_dpkg
def test_a_corrupt_entry_that_cannot_be_refetched_is_not_blamed_on_the_registry(
        tmp_path: Path) -> None:
    spec, _deb, _words = _cached(tmp_path)
    entry = tmp_path / "cache/deb/tinywords_1.0-1"
    (entry / "tinywords_1.0-1_all.deb").write_bytes(b"not a package")
    with pytest.raises(SourceError) as err:
        fetching.fetch(spec, tmp_path / "cache", fake_apt(None, []), log=lambda _m: None)
    assert "the cache entry was corrupt (tinywords_1.0-1_all.deb: sha256 differs" in (
        err.value.message)
    assert "registry serves" not in err.value.message and "in none of the configured suites" in (
        err.value.message)
    assert not entry.exists()


@needs_dpkg
def test_an_entry_from_before_file_tables_is_recorded_without_download(tmp_path: Path) -> None:
    spec, _deb, words = _cached(tmp_path)
    entry = tmp_path / "cache/deb/tinywords_1.0-1"
    (entry / ".verified").write_text("tinywords_1.0-1_all.deb")    # the old record
    words.write_text("edited before the upgrade\n")
    got = fetching.fetch(spec, tmp_path / "cache", fake_apt(None, []))  # no download
    assert got.root is not None
    assert (got.root / "usr/share/dict/words").read_text().split() == ["kot", "pies"]
    assert "usr/share/dict/words" in json.loads((entry / ".verified").read_text())["files"]


def test_installed_pypi_files_must_be_the_pinned_wheels(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A package installed on sys.path (module + dist-info, as pip leaves it) and the wheel
    it came from: equal bytes pass, an edited installed module is refused."""
    code = b"ANSWER = 42\n"
    digest = base64.urlsafe_b64encode(hashlib.sha256(code).digest()).rstrip(b"=").decode()
    record = f"tinypkg/__init__.py,sha256={digest},{len(code)}\ntinypkg-1.0.dist-info/RECORD,,\n"
    wheel = tmp_path / "tinypkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("tinypkg/__init__.py", code)
        zf.writestr("tinypkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tinypkg\n"
                    "Version: 1.0\n")
        zf.writestr("tinypkg-1.0.dist-info/RECORD", record)
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    monkeypatch.syspath_prepend(str(site))
    spec = SourceSpec("tiny", "pypi", "tinypkg", "1.0",
                      {wheel.name: fetching.sha256_of(wheel)}, "MIT", "test")
    got = fetching.Fetched(spec, wheel, fetching.sha256_of(wheel))
    assert fetching.verify_installed(got) == 1
    (site / "tinypkg/__init__.py").write_bytes(b"ANSWER = 43\n")
    with pytest.raises(SourceError, match=r"is not the pinned wheel .*tinypkg/__init__\.py"):
        fetching.verify_installed(got)


@needs_dpkg
def test_an_intact_old_entry_keeps_its_tree_in_place(tmp_path: Path) -> None:
    """Builds of other processes may be reading the tree: an old entry whose files are what
    the artifact unpacks to only gains a record; the tree is not replaced."""
    spec, _deb, words = _cached(tmp_path)
    entry = tmp_path / "cache/deb/tinywords_1.0-1"
    (entry / ".verified").write_text("tinywords_1.0-1_all.deb")
    inode = words.stat().st_ino
    fetching.fetch(spec, tmp_path / "cache", fake_apt(None, []))
    assert words.stat().st_ino == inode
    assert json.loads((entry / ".verified").read_text())["files"]["usr/share/dict/words"][
        "size"] == 9
