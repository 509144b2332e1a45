"""The maintainer's machinery for pins, against a real local Debian repository.

Each test builds tiny real packages with ``dpkg-deb --build``, indexes them per suite with
``dpkg-scanpackages`` into ``dists/SUITE/main/binary-amd64/Packages`` and serves the tree
as a ``file:`` URI (``[trusted=yes]``: a test repository has no signed Release file) in the
private apt configuration's sources list. Real ``apt-get update``, ``apt-cache madison``
and ``apt-get download`` run; nothing goes to the network or to ``/etc/apt``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from lexicon.sources import fetch as fetching
from lexicon.sources import pins
from lexicon.sources.apt import AptConfig, newest, system_mirror
from typer.testing import CliRunner

from lexicon.errors import InputError, SourceError

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("apt-get", "dpkg-deb", "dpkg-scanpackages")),
    reason="needs apt-get, dpkg-deb and dpkg-scanpackages (dpkg-dev)")

SUITES = ("bookworm", "trixie", "sid")


def build_deb(tmp: Path, package: str, version: str, words: list[str]) -> Path:
    root = tmp / f"build-{package}-{version}"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "usr/share/dict").mkdir(parents=True)
    (root / "usr/share/dict/words").write_text("".join(w + "\n" for w in words),
                                               encoding="utf-8")
    (root / "DEBIAN/control").write_text(
        f"Package: {package}\nVersion: {version}\nArchitecture: all\n"
        "Maintainer: test <t@example.invalid>\nDescription: tiny test words\n")
    deb = tmp / f"{package}_{version.replace(':', '%3a')}_all.deb"
    subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(root), str(deb)],
                   check=True, capture_output=True)
    return deb


def publish(repo: Path, suites: dict[str, list[Path]]) -> None:
    """(Re)write the repository: each suite's pool and its Packages index."""
    shutil.rmtree(repo, ignore_errors=True)
    for suite, debs in suites.items():
        pool = repo / "pool" / suite
        pool.mkdir(parents=True)
        for deb in debs:
            shutil.copy(deb, pool / deb.name)
        index = repo / "dists" / suite / "main" / "binary-amd64"
        index.mkdir(parents=True)
        out = subprocess.run(["dpkg-scanpackages", "--multiversion", f"pool/{suite}",
                              "/dev/null"], cwd=repo, check=True, capture_output=True,
                             text=True).stdout
        (index / "Packages").write_text(out, encoding="utf-8")


def local_apt(tmp: Path, repo: Path) -> AptConfig:
    return AptConfig(tmp / "cache" / "apt", SUITES,
                     tuple(f"deb [trusted=yes] file:{repo} {s} main" for s in SUITES))


MANIFEST = '''\
# A test manifest: these comments and this layout must survive a re-pin.

[archive]
suites = ["bookworm", "trixie", "sid"]   # stable, testing, unstable

[[source]]
id = "tiny"
kind = "deb"
package = "tinywords"
version = "1.0-1"      # the pin
suite = "bookworm"
sha256 = "{sha}"
license = "MIT"
contributes = "test words"
games = ["osps"]

# a second source, untouched by re-pinning the first
[[source]]
id = "other"
kind = "deb"
package = "otherwords"
version = "3.0-1"
sha256 = "{other}"
license = "MIT"
contributes = "more test words"
games = ["osps"]
'''


@pytest.fixture
def world(tmp_path: Path) -> dict:
    """A repository whose stable suite has tinywords 1.0-1, testing 2.0-1, unstable 3.0-1
    (and otherwords in stable), and a manifest pinning 1.0-1."""
    v1 = build_deb(tmp_path, "tinywords", "1.0-1", ["kot", "pies", "moskwianin",
                                                    "bełchatowskość", "wołżańskościami"])
    v2 = build_deb(tmp_path, "tinywords", "2.0-1", ["kot", "pies", "Moskwianin"])
    v3 = build_deb(tmp_path, "tinywords", "3.0-1", ["kot", "Moskwianin", "żółw"])
    other = build_deb(tmp_path, "otherwords", "3.0-1", ["mysz"])
    repo = tmp_path / "repo"
    publish(repo, {"bookworm": [v1, other], "trixie": [v2], "sid": [v3]})
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(MANIFEST.format(sha=fetching.sha256_of(v1),
                                        other=fetching.sha256_of(other)), encoding="utf-8")
    return {"tmp": tmp_path, "repo": repo, "apt": local_apt(tmp_path, repo),
            "manifest": manifest, "debs": {"1.0-1": v1, "2.0-1": v2, "3.0-1": v3},
            "other": other, "cache": tmp_path / "cache"}


def test_fetch_goes_through_the_private_configuration(world: dict) -> None:
    spec = fetching.load_manifest(world["manifest"])["tiny"]
    got = fetching.fetch(spec, world["cache"], apt=world["apt"])
    assert got.root is not None
    assert (got.root / "usr/share/dict/words").read_text().split()[:3] == [
        "kot", "pies", "moskwianin"]
    apt_root = world["cache"] / "apt"
    assert (apt_root / "etc/sources.list").read_text().count("[trusted=yes] file:") == 3
    assert any((apt_root / "state/lists").glob("*_dists_sid_main_binary-amd64_Packages*"))
    assert (apt_root / "state/status").read_text() == ""     # not the machine's status
    dump = subprocess.run(["apt-config", *world["apt"].options(), "dump"], check=True,
                          capture_output=True, text=True).stdout
    assert f'Dir::State::lists "{apt_root}/state/lists' in dump
    assert "Post-Invoke-Success::" not in dump             # the machine's hooks cleared


def test_a_version_is_found_in_whichever_suite_holds_it_now(world: dict) -> None:
    """Indexes fetched while 2.0-1 was in testing; it then migrates to stable (and testing
    gets 3.0-1): the first download fails on the stale indexes, one update finds it."""
    apt = world["apt"]
    apt.update()
    d = world["debs"]
    publish(world["repo"], {"bookworm": [d["2.0-1"]], "trixie": [d["3.0-1"]], "sid": []})
    spec = fetching.load_manifest(world["manifest"])["tiny"]
    moved = fetching.SourceSpec(**{**spec.__dict__, "version": "2.0-1",
                                   "sha256": fetching.sha256_of(d["2.0-1"])})
    got = fetching.fetch(moved, world["cache"], apt=apt)
    assert got.artifact.name == "tinywords_2.0-1_all.deb"


def test_a_vanished_version_fails_clearly_and_a_cached_copy_keeps_working(world: dict) -> None:
    spec = fetching.load_manifest(world["manifest"])["tiny"]
    cached = fetching.fetch(spec, world["cache"], apt=world["apt"])   # a verified copy
    d = world["debs"]
    publish(world["repo"], {"bookworm": [d["2.0-1"]], "trixie": [d["3.0-1"]], "sid": []})
    # this machine keeps building from its verified cache, without asking apt
    again = fetching.fetch(spec, world["cache"], apt=world["apt"])
    assert again.artifact == cached.artifact
    # a new machine (empty cache) is told what happened and how to go on
    with pytest.raises(SourceError) as err:
        fetching.fetch(spec, world["tmp"] / "fresh-cache", apt=world["apt"])
    e = err.value
    assert e.code == "source_unavailable"
    assert e.message.startswith("tiny: tinywords 1.0-1 is in none of the configured suites "
                                "(bookworm, trixie, sid), which offer ")
    assert "2.0-1 (bookworm)" in e.message and "3.0-1 (trixie)" in e.message
    assert "lexicon sources update tiny" in e.message and "lexicon sources unpack" in e.message
    assert e.detail["suites"] == list(SUITES) and e.detail["version"] == "1.0-1"


def test_status_lists_pins_and_what_each_suite_offers(world: dict) -> None:
    rows = {r["id"]: r for r in pins.status(world["manifest"], world["apt"])}
    tiny = rows["tiny"]
    assert tiny["version"] == "1.0-1" and tiny["suite"] == "bookworm"
    assert tiny["suites"] == {"bookworm": "1.0-1", "trixie": "2.0-1", "sid": "3.0-1"}
    assert tiny["newest"] == "3.0-1" and tiny["newer"] is True
    assert tiny["pinned_in"] == ["bookworm"]
    assert rows["other"]["newer"] is False and rows["other"]["suites"]["sid"] is None


def test_update_repins_by_rewriting_only_that_block(world: dict) -> None:
    before = world["manifest"].read_text()
    out = pins.update("tiny", suite="trixie", path=world["manifest"], apt=world["apt"],
                      cache=world["cache"])
    sha2 = fetching.sha256_of(world["debs"]["2.0-1"])
    assert out["new"] == {"version": "2.0-1", "suite": "trixie", "sha256": sha2}
    after = world["manifest"].read_text()
    expected = (before.replace('version = "1.0-1"      # the pin', 'version = "2.0-1"')
                .replace('suite = "bookworm"', 'suite = "trixie"')
                .replace(fetching.sha256_of(world["debs"]["1.0-1"]), sha2))
    assert after == expected            # comments, order and the other block as they were
    spec = fetching.load_manifest(world["manifest"])["tiny"]
    assert (spec.version, spec.suite, spec.sha256) == ("2.0-1", "trixie", sha2)
    # the new pin is already in the verified cache: no download needed to build from it
    got = fetching.fetch(spec, world["cache"], run=_no_apt, apt=world["apt"])
    assert got.sha256 == sha2
    # the newest of all suites by default, and a suite line added where there was none
    pins.update("other", path=world["manifest"], apt=world["apt"], cache=world["cache"])
    assert 'version = "3.0-1"\nsuite = "bookworm"\n' in world["manifest"].read_text()
    pins.update("tiny", path=world["manifest"], apt=world["apt"], cache=world["cache"])
    assert fetching.load_manifest(world["manifest"])["tiny"].version == "3.0-1"


def _no_apt(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    assert cmd[0] not in ("apt-get", "apt-cache"), cmd
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)


def test_update_refuses_what_it_cannot_pin(world: dict) -> None:
    with pytest.raises(SourceError, match=r"tinywords 9\.9 is not in any configured suite"):
        pins.update("tiny", version="9.9", path=world["manifest"], apt=world["apt"],
                    cache=world["cache"])
    with pytest.raises(InputError, match="unknown suite 'forky'"):
        pins.update("tiny", suite="forky", path=world["manifest"], apt=world["apt"],
                    cache=world["cache"])
    with pytest.raises(InputError) as err:
        pins.update("nope", path=world["manifest"], apt=world["apt"], cache=world["cache"])
    assert err.value.code == "unknown_source"
    assert world["manifest"].read_text().count('version = "1.0-1"') == 1   # unchanged


def test_the_cli_lists_and_repins(world: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    from lexicon.cli.main import app
    monkeypatch.setattr(fetching, "MANIFEST_PATH", world["manifest"])
    monkeypatch.setattr(fetching, "apt_config", lambda cache=None, path=None: world["apt"])
    monkeypatch.setenv("LEXICON_HOME", str(world["tmp"]))
    runner = CliRunner()
    res = runner.invoke(app, ["sources"])
    assert res.exit_code == 0, res.output
    line = next(ln for ln in res.output.splitlines() if ln.startswith("tiny "))
    assert "1.0-1" in line and "sid 3.0-1" in line and "newer" in line
    res = runner.invoke(app, ["sources", "update", "tiny", "--version", "2.0-1"])
    assert res.exit_code == 0, res.output
    assert "tiny: 1.0-1 (bookworm) -> 2.0-1 (trixie)" in res.output
    res = runner.invoke(app, ["sources", "update", "nope"])
    assert res.exit_code == 2 and "unknown_source" in res.output
    res = runner.invoke(app, ["sources", "diff", "tiny", "--version", "3.0-1", "--json"])
    assert res.exit_code == 0, res.output
    assert '"old": {"version": "2.0-1"' in res.output and '"żółw"' in res.output


def test_diff_counts_classes_and_samples_without_repinning(world: dict) -> None:
    before = world["manifest"].read_text()
    out = pins.diff("tiny", path=world["manifest"], apt=world["apt"], cache=world["cache"])
    assert out["old"]["version"] == "1.0-1" and out["new"]["version"] == "3.0-1"
    assert out["what"] == "plain word list (usr/share/dict)"
    assert (out["old_count"], out["new_count"]) == (5, 3)
    removed, added = out["removed"]["classes"], out["added"]["classes"]
    assert out["removed"]["count"] == 4 and out["added"]["count"] == 2
    assert removed["capitalised"]["samples"] == ["moskwianin"]
    assert removed["skosc_derivation"]["samples"] == ["bełchatowskość", "wołżańskościami"]
    assert removed["unclassified"]["samples"] == ["pies"]
    assert added["capitalised"]["samples"] == ["Moskwianin"]
    assert added["unclassified"]["samples"] == ["żółw"]
    assert world["manifest"].read_text() == before              # nothing re-pinned
    text = pins.editions.as_text(out)
    assert "capitalised: 1  (only the capitalisation changed" in text


def test_newest_uses_debian_version_order() -> None:
    assert newest(["1:7.5.0-1", "1:25.2.3-1", "1:26.8.0.3-1"]) == "1:26.8.0.3-1"
    assert newest(["1.0~rc1-1", "1.0-1"]) == "1.0-1"


def test_the_mirror_is_read_from_the_machines_apt_sources(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.delenv("LEXICON_APT_MIRROR", raising=False)
    d = tmp_path / "sources.list.d"
    d.mkdir()
    (d / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.example.invalid/debian-security\n"
        "Suites: bookworm-security\nComponents: main\n\n"
        "Types: deb\nURIs: http://mirror.example.invalid/debian/\nSuites: bookworm "
        "bookworm-updates\nComponents: main\n")
    assert system_mirror([d, tmp_path / "sources.list"]) == "http://mirror.example.invalid/debian"
    legacy = tmp_path / "legacy.list"
    legacy.write_text("# comment\ndeb [arch=amd64] http://m.example.invalid/debian bookworm "
                      "main\n")
    assert system_mirror([tmp_path / "empty.d", legacy]) == "http://m.example.invalid/debian"
    with pytest.raises(SourceError, match="LEXICON_APT_MIRROR"):
        system_mirror([tmp_path / "none.list"])


def test_the_verified_cache_carries_a_vanished_pin_to_a_new_machine(world: dict) -> None:
    from lexicon.build import source_pack
    from lexicon.build.shipping import BadBundle
    specs = fetching.load_manifest(world["manifest"])
    fetching.fetch(specs["tiny"], world["cache"], apt=world["apt"])     # "other" not cached
    packed = source_pack.pack(world["tmp"] / "src.sources.tar", cache=world["cache"],
                        path=world["manifest"])
    assert packed["packed"] == ["tiny"] and packed["not_in_cache"] == ["other"]
    publish(world["repo"], {"sid": [world["debs"]["3.0-1"]]})           # 1.0-1 has left
    fresh = world["tmp"] / "new-machine-cache"
    out = source_pack.unpack(Path(packed["file"]), cache=fresh, path=world["manifest"])
    assert out["filled"] == ["tiny"] and out["refused"] == []
    got = fetching.fetch(specs["tiny"], fresh, run=_no_apt, apt=world["apt"])
    assert got.root is not None and (got.root / "usr/share/dict/words").exists()
    # a pin moved on since packing: the old artifact is refused, nothing is filled
    pins.rewrite_pin(world["manifest"], "tiny", version="1.0-1", suite="bookworm",
                     sha256="0" * 64)
    again = source_pack.unpack(Path(packed["file"]), cache=world["tmp"] / "c3",
                         path=world["manifest"])
    assert again["filled"] == [] and "checksum mismatch" in again["refused"][0]["why"]
    # a damaged file, and one with a link in it, are refused as a whole
    bad = world["tmp"] / "bad.sources.tar"
    bad.write_bytes(Path(packed["file"]).read_bytes()[:-512] + b"x" * 512)
    shutil.copy(packed["sha256_file"], str(bad) + ".sha256")
    with pytest.raises(BadBundle, match="does not match"):
        source_pack.unpack(bad, cache=world["tmp"] / "c4", path=world["manifest"])
    import tarfile
    linked = world["tmp"] / "linked.sources.tar"
    with tarfile.open(linked, "w") as tar:
        top = tarfile.TarInfo(source_pack.TOP)
        top.type = tarfile.DIRTYPE
        tar.addfile(top)
        link = tarfile.TarInfo(f"{source_pack.TOP}/tiny")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc"
        tar.addfile(link)
    with pytest.raises(BadBundle, match="unsafe, repeated or foreign member"):
        source_pack.unpack(linked, sha256=fetching.sha256_of(linked), cache=world["tmp"] / "c5",
                     path=world["manifest"])
