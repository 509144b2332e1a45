"""The release store in LMDB: shared handles, and the schema other programs read.

A release's records are one LMDB environment (``records.lmdb/``, see
:mod:`lexicon.store.recordfile` and the README's "Release store"). LMDB opens an environment
once per process, so a second Catalog on the same release must share the first one's
handle; and because it is plain LMDB, Debian's ``mdb_stat``/``mdb_dump`` read it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from lexicon.catalog import Catalog
from lexicon.store import integrity
from lexicon.store.recordfile import RECORDS_DIR, SHAPE_BLOCK, get_varint
from tests.conftest import POLISH_RECORDS, publish

TOOLS = pytest.mark.skipif(not (shutil.which("mdb_dump") and shutil.which("mdb_stat")),
                           reason="lmdb-utils not installed (make system-deps)")


def test_two_catalogs_and_a_second_process_read_one_release(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    one, two = Catalog(home), Catalog(home)
    first, second = one.release("osps"), two.release("osps")
    assert first is not second and first.path == second.path
    assert first.get("kot") == second.get("kot") == POLISH_RECORDS[5]
    one.close()                      # the other catalog's handle stays open
    assert second.get("zażółć") == POLISH_RECORDS[0] and not second.is_valid("np")
    probe = ("import sys; from pathlib import Path; from lexicon.catalog import Catalog; "
             "r = Catalog(Path(sys.argv[1])).release('osps'); "
             "print(r.get('gęślą').word, r.is_valid('kot'), r.is_valid('np'))")
    p = subprocess.run([sys.executable, "-c", probe, str(home)], capture_output=True,
                       text=True, check=False, cwd=Path(__file__).resolve().parents[2])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["gęślą", "True", "False"]
    assert second.get("ul") is not None
    two.close()
    integrity.verify_release(path)   # reading left nothing the file table would miss


def _dump(path: Path, db: str) -> dict[bytes, bytes]:
    """``mdb_dump -s DB`` of ``path``, parsed: its hex format, key and value lines."""
    out = subprocess.run(["mdb_dump", "-s", db, str(path)], capture_output=True,
                         text=True, check=True).stdout
    body = out.split("HEADER=END\n", 1)[1].split("DATA=END", 1)[0].split()
    return {bytes.fromhex(k): bytes.fromhex(v) for k, v in zip(body[::2], body[1::2],
                                                                 strict=True)}


@TOOLS
def test_mdb_stat_and_mdb_dump_read_a_release_by_the_readme_schema(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    store = path / RECORDS_DIR
    stat = subprocess.run(["mdb_stat", "-a", str(store)], capture_output=True, text=True,
                          check=True).stdout
    entries = dict(re.findall(r"Status of (\w+)\n(?:.*\n)*?\s+Entries: (\d+)", stat))
    assert entries["records"] == str(len(POLISH_RECORDS)) and entries["meta"] == "5"
    records, shapes, meta = (_dump(store, db) for db in ("records", "shapes", "meta"))
    assert meta[b"format"] == b"2" and int(meta[b"valid"]) == 5
    assert sorted(records) == sorted(r.key.encode() for r in POLISH_RECORDS)
    # a record by the schema alone: varint shape number, then the word's own bytes;
    # shape s is entry s % 32 of zlib block s // 32 (uint16 count, uint16 lengths)
    assert SHAPE_BLOCK == 32

    def shape(raw: bytes) -> tuple[bool, dict]:
        sid, _pos = get_varint(raw, 0)
        block = zlib.decompress(shapes[(sid // 32).to_bytes(4, "big")])
        n = int.from_bytes(block[:2], "little")
        sizes = [int.from_bytes(block[2 + 2 * i:4 + 2 * i], "little") for i in range(n)]
        at = 2 + 2 * n + sum(sizes[:sid % 32])
        return sid < int(meta[b"valid_shapes"]), json.loads(block[at:at + sizes[sid % 32]])

    valid, kot = shape(records[b"kot"])
    assert valid and kot["c"] == "noun" and kot["a"][0][2] == "subst:sg:nom:m2"
    valid, np = shape(records[b"np"])
    assert not valid and np["r"] == "abbreviation"
    integrity.verify_release(path)   # mdb_dump's lock.mdb is no part of the content


def test_a_release_dropped_unclosed_gives_its_handle_back(home: Path) -> None:
    import gc

    from lexicon.store import recordfile

    publish(home, "osps", POLISH_RECORDS)
    rel = Catalog(home).release("osps")
    # this release's handle, by the registry's key (other tests' releases may be collected
    # meanwhile, so the registry's size says nothing)
    data = (rel.path / recordfile.RECORDS_DIR / "data.mdb").stat()
    ident = (data.st_dev, data.st_ino)
    assert ident in recordfile._OPEN
    del rel
    gc.collect()
    assert ident not in recordfile._OPEN
