"""Damaged releases: file tables, size checks on open, hashes on verify, one game's fault
staying in that game (library, CLI, and a real server on loopback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from lexicon.catalog import Catalog
from lexicon.errors import NoRelease, ReleaseDamaged
from lexicon.filetable import file_table
from lexicon.store import published
from lexicon.store.integrity import NOT_CONTENT, verify_release
from tests.conftest import KVIZOVKA_RECORDS, POLISH_RECORDS, publish
from tests.query_data import running_server

DATA = "records.lmdb/data.mdb"   # the record store (every check reads it)


def _manifest(path: Path) -> dict:
    return json.loads((path / "manifest.json").read_text())


def test_manifest_lists_size_and_sha256_of_every_file(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    table = _manifest(path)["files"]
    on_disk = {p.relative_to(path).as_posix() for p in path.rglob("*")
               if p.is_file() and p.name not in ("manifest.json", "lock.mdb")}
    assert set(table) == on_disk and DATA in table and "indexes/words.marisa" in table
    assert table == file_table(path, skip=NOT_CONTENT)
    report = verify_release(path)
    assert report["hashed"] and report["files"] == len(table)


def test_verify_finds_an_edited_byte_and_a_truncated_file(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    words = path / "indexes" / "words.marisa"
    raw = bytearray(words.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    words.write_bytes(bytes(raw))           # same size: only the hash can tell
    Catalog(home).release("osps")           # opening (sizes only) still works
    with pytest.raises(ReleaseDamaged, match=r"words\.marisa: sha256 differs"):
        verify_release(path)
    os.truncate(path / DATA, 12288)
    with pytest.raises(ReleaseDamaged) as err:
        verify_release(path)
    assert f"{DATA}: 12288 bytes, the manifest says" in err.value.message
    assert err.value.code == "release_damaged" and err.value.status == 503


@pytest.mark.parametrize("target", [DATA, "indexes/words.marisa", "indexes/forward.marisa",
                                    "indexes/alphagram-nodes.bin"])
def test_a_truncated_file_is_never_opened(home: Path, target: str) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    os.truncate(path / target, 8)
    with pytest.raises(ReleaseDamaged, match=target.replace(".", r"\.")):
        Catalog(home).release("osps")


def test_a_release_without_file_table_is_still_guarded_by_lmdb_meta_page(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    m = _manifest(path)
    del m["files"]
    (path / "manifest.json").write_text(json.dumps(m))
    assert verify_release(path)["files"] is None
    size = (path / DATA).stat().st_size
    os.truncate(path / DATA, size - 4)
    with pytest.raises(ReleaseDamaged, match="LMDB needs"):
        Catalog(home).release("osps")


def _damage(kind: str) -> Callable[[Path, Path], None]:
    def current(text: bytes | None) -> Callable[[Path, Path], None]:
        def run(rel: Path, _other: Path) -> None:
            cur = rel.parent / "CURRENT"
            cur.unlink()
            if text is None:
                cur.mkdir()
            else:
                cur.write_bytes(text)
        return run

    def write(name: str, data: bytes | None) -> Callable[[Path, Path], None]:
        def run(rel: Path, _other: Path) -> None:
            if data is None:
                (rel / name).unlink()
            else:
                (rel / name).write_bytes(data)
        return run

    def elsewhere(rel: Path, other: Path) -> None:
        (rel.parent / "CURRENT").write_text(f"../{other.parent.name}/{other.name}\n")

    def foreign(rel: Path, other: Path) -> None:  # a copy of kvizovka named like osps
        import shutil
        fake = rel.parent / ("osps-" + other.name)
        shutil.copytree(other, fake)
        (rel.parent / "CURRENT").write_text(fake.name)

    return {
        "manifest-corrupt": write("manifest.json", b'{"game": "osps", '),
        "manifest-empty-object": write("manifest.json", b"{}"),
        "data-missing": write(DATA, None),
        "data-garbage": write(DATA, b"\x00garbage" * 2000),
        "current-not-utf8": current(b"\xff\xfe osps"),
        "current-directory": current(None),
        "current-other-game": elsewhere,
        "current-foreign-manifest": foreign,
        "current-missing-release": current(b"osps-20200101T000000Z-deadbeef\n"),
    }[kind]


DAMAGES = ["manifest-corrupt", "manifest-empty-object", "data-missing", "data-garbage",
           "current-not-utf8", "current-directory", "current-other-game",
           "current-foreign-manifest", "current-missing-release"]


@pytest.mark.parametrize("kind", DAMAGES)
def test_one_bad_release_stays_in_its_game(home: Path, kind: str) -> None:
    osps = publish(home, "osps", POLISH_RECORDS)
    kviz = publish(home, "kvizovka", KVIZOVKA_RECORDS)
    _damage(kind)(osps, kviz)
    cat = Catalog(home)
    with pytest.raises(ReleaseDamaged) as err:
        cat.release("osps")
    assert err.value.code == "release_damaged" and err.value.status == 503
    assert cat.release("kvizovka").is_valid("љубав")
    assert cat.state("osps")["state"] == "damaged"
    assert cat.state("kvizovka") == {"state": "serving", "release": kviz.name, "queries": "ok"}
    assert cat.state("remik")["state"] == "no_release"
    published.list_releases(None, home)       # still lists what it can


def test_rebuilding_replaces_a_damaged_release(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    os.truncate(first / DATA, 12288)
    second = publish(home, "osps", POLISH_RECORDS[:3])
    assert Catalog(home).release("osps").id == second.name
    assert _manifest(second)["previous"] is None


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lexicon.cli.main", *args], capture_output=True,
                          text=True, env={**os.environ, "LEXICON_HOME": str(home)},
                          timeout=60, check=False)


def test_cli_verify_and_check_exit_3_on_damage(home: Path) -> None:
    osps = publish(home, "osps", POLISH_RECORDS)
    ok = _cli(home, "verify", "--json")
    rows = [json.loads(line) for line in ok.stdout.splitlines()]
    assert ok.returncode == 0, ok.stderr
    assert {r["game"]: r["state"] for r in rows} == {
        "osps": "ok", "remik": "no_release", "kvizovka": "no_release",
        "krizemkrazem": "no_release"}
    os.truncate(osps / "indexes" / "words.marisa", 12288)
    bad = _cli(home, "verify", "osps")
    assert bad.returncode == 3 and "release_damaged" in bad.stdout
    assert "words.marisa: 12288 bytes" in bad.stdout
    check = _cli(home, "check", "osps", "kot")
    assert check.returncode == 3
    assert "error [release_damaged]" in check.stderr and "words.marisa" in check.stderr
    assert "Traceback" not in check.stderr


def test_live_server_survives_a_truncated_release(tmp_path: Path) -> None:
    """The reproducer: a server on loopback with two small games; truncating one game's
    files under it gives that game 503 release_damaged (not SIGBUS for the process), and
    the other game keeps answering."""
    home = tmp_path / "home"
    osps = publish(home, "osps", POLISH_RECORDS)
    publish(home, "kvizovka", KVIZOVKA_RECORDS)
    with running_server(home) as base, httpx.Client(base_url=base, timeout=10) as http:
        assert http.get("/v1/games/osps/words/kot").json()["valid"]
        assert http.post("/v1/games/osps/valid", json={"words": ["kot"]}).status_code == 200
        assert http.get("/v1/games/osps/pattern?pattern=k?t").status_code == 200
        os.truncate(osps / "indexes" / "words.marisa", 12288)   # read by batches, queries
        r = http.post("/v1/games/osps/valid", json={"words": ["kot"]})
        assert r.status_code == 503 and r.json()["code"] == "release_damaged", r.text
        assert "indexes/words.marisa: " in r.json()["message"]   # truncated (or resized)
        os.truncate(osps / DATA, 12288)                          # read by every check
        for path in ("/v1/games/osps/words/kot", "/v1/games/osps/pattern?pattern=k?t"):
            r = http.get(path)
            assert r.status_code == 503 and r.json()["code"] == "release_damaged", r.text
            assert "is damaged and is not served" in r.json()["message"]
        assert http.get("/v1/games/kvizovka/words/ljubav").json()["valid"]
        health = http.get("/healthz").json()
        assert health["status"] == "degraded"
        assert health["games"]["osps"]["state"] == "damaged"
        assert health["games"]["kvizovka"]["state"] == "serving"
        games = {g["id"]: g for g in http.get("/v1/games").json()}
        assert games["osps"]["state"] == "damaged" and games["kvizovka"]["release"]
        assert http.get("/v1/releases").status_code == 200


def test_server_starts_with_a_truncated_release_and_a_broken_current(tmp_path: Path) -> None:
    home = tmp_path / "home"
    osps = publish(home, "osps", POLISH_RECORDS)
    publish(home, "kvizovka", KVIZOVKA_RECORDS)
    os.truncate(osps / DATA, 12288)
    (home / "releases" / "krizemkrazem").mkdir()
    (home / "releases" / "krizemkrazem" / "CURRENT").write_bytes(b"\xff\xfe")
    with running_server(home) as base, httpx.Client(base_url=base, timeout=10) as http:
        assert http.get("/v1/games/osps/words/kot").status_code == 503
        assert http.get("/v1/games/krizemkrazem/words/kacin").json()["code"] == (
            "release_damaged")
        assert http.get("/v1/games/kvizovka/words/ljubav").status_code == 200
        assert http.get("/v1/games/remik/words/kot").json()["code"] == "no_release"
        states = {g: s["state"] for g, s in http.get("/healthz").json()["games"].items()}
        assert states == {"osps": "damaged", "remik": "no_release", "kvizovka": "serving",
                          "krizemkrazem": "damaged"}


def test_missing_index_is_no_index_not_500(tmp_path: Path) -> None:
    """A release without a file table whose index file vanished: queries 503 no_index."""
    home = tmp_path / "home"
    osps = publish(home, "osps", POLISH_RECORDS)
    m = _manifest(osps)
    del m["files"]
    (osps / "manifest.json").write_text(json.dumps(m))
    (osps / "indexes" / "forward.marisa").unlink()
    cat = Catalog(home)
    assert cat.state("osps")["queries"] == "no_index"
    with running_server(home) as base:
        r = httpx.get(base + "/v1/games/osps/pattern", params={"pattern": "k?t"})
        assert r.status_code == 503 and r.json()["code"] == "no_index"
        assert httpx.get(base + "/healthz").json()["status"] == "degraded"


def test_no_release_is_still_no_release(home: Path) -> None:
    with pytest.raises(NoRelease) as err:
        Catalog(home).release("osps")
    assert err.value.code == "no_release"
