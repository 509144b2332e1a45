"""`lexicon bundle` on one LEXICON_HOME, `lexicon install` on another: the round trip, and
corrupted or unsafe bundles refused with nothing changed."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from conftest import POLISH_RECORDS, publish, rec
from test_export import run

from build import shipping
from lexicon import releases
from lexicon.integrity import sha256_file


@pytest.fixture()
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A builder's home with two osps releases, and an empty server home."""
    builder, server = tmp_path / "builder", tmp_path / "server"
    builder.mkdir()
    server.mkdir()
    publish(builder, "osps", [rec("kot"), rec("ul")])
    publish(builder, "osps", POLISH_RECORDS)
    return builder, server


def test_round_trip_between_two_homes(built: tuple[Path, Path], tmp_path: Path) -> None:
    builder, server = built
    rid = releases.current_id("osps", builder)
    out = tmp_path / "osps.lexbundle.tar"
    p = run(builder, "bundle", "osps", "-o", str(out))
    assert p.exit_code == 0, p.output
    made = json.loads(p.output)
    assert made["release"] == rid
    assert (tmp_path / "osps.lexbundle.tar.sha256").read_text().split() == [made["sha256"],
                                                                          out.name]
    p = run(server, "install", str(out))
    assert p.exit_code == 0, p.output
    assert json.loads(p.output)["installed"] is True
    assert releases.current_id("osps", server) == rid
    # the installed release answers exactly as the built one
    assert run(server, "export", "osps").output == run(builder, "export", "osps").output
    p = run(server, "check", "osps", "zażółć", "--json")
    assert p.exit_code == 0 and json.loads(p.output)["release"] == rid
    assert run(server, "verify", "osps").exit_code == 0
    # installing again is harmless; bundling again gives the same bytes
    assert json.loads(run(server, "install", str(out)).output)["installed"] is False
    again = shipping.bundle("osps", rid, tmp_path / "again.tar", root=builder)
    assert again["sha256"] == made["sha256"]


def test_an_older_release_ships_without_becoming_current(built: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    builder, server = built
    old = [r["release"] for r in releases.list_releases("osps", builder)][-1]
    info = shipping.bundle("osps", old, tmp_path / "old.tar", root=builder)
    got = shipping.install(Path(info["bundle"]), make_current=False, root=server)
    assert got["release"] == old and releases.current_id("osps", server) is None


def test_a_corrupted_bundle_is_refused(built: tuple[Path, Path], tmp_path: Path) -> None:
    builder, server = built
    out = tmp_path / "b.tar"
    shipping.bundle("osps", None, out, root=builder)
    data = bytearray(out.read_bytes())
    data[len(data) // 2] ^= 0xFF
    out.write_bytes(bytes(data))
    p = run(server, "install", str(out))
    assert p.exit_code == 3 and "bad_bundle" in p.output and "does not match" in p.output
    assert releases.current_id("osps", server) is None
    assert not list((server / "releases").rglob(".staging-*"))


def test_a_bundle_whose_files_do_not_match_the_manifest_is_refused(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """Even with a matching sha256 (a tampered bundle re-hashed), the file table decides."""
    builder, server = built
    good = tmp_path / "good.tar"
    shipping.bundle("osps", None, good, root=builder)
    bad = tmp_path / "bad.tar"
    with tarfile.open(good) as src, tarfile.open(bad, "w") as dst:
        for m in src.getmembers():
            f = src.extractfile(m) if m.isfile() else None
            if m.name.endswith("words.marisa"):
                body = bytearray(f.read())       # same size, one byte changed
                body[len(body) // 2] ^= 0xFF
                dst.addfile(m, io.BytesIO(bytes(body)))
            else:
                dst.addfile(m, f)
    with pytest.raises(shipping.BadBundle) as err:
        shipping.install(bad, sha256=sha256_file(bad), root=server)
    assert "fails its checks" in err.value.message
    assert releases.current_id("osps", server) is None
    assert not (server / "releases" / "osps").exists() or not [
        p for p in (server / "releases" / "osps").iterdir() if p.name.startswith("osps-")]


def test_unsafe_members_and_missing_checksums_are_refused(built: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    _, server = built
    evil = tmp_path / "evil.tar"
    with tarfile.open(evil, "w") as tar:
        top = tarfile.TarInfo("osps-x")
        top.type = tarfile.DIRTYPE
        tar.addfile(top)
        link = tarfile.TarInfo("osps-x/manifest.json")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        tar.addfile(link)
    with pytest.raises(shipping.BadBundle, match="no checksum"):
        shipping.install(evil, root=server)
    with pytest.raises(shipping.BadBundle, match="unsafe"):
        shipping.install(evil, sha256=sha256_file(evil), root=server)
    not_tar = tmp_path / "x.tar"
    not_tar.write_bytes(b"hello")
    with pytest.raises(shipping.BadBundle, match="not a readable bundle"):
        shipping.install(not_tar, sha256=sha256_file(not_tar), root=server)
