"""Reading the older release layouts, for ``lexicon repack`` (and amend) only.

The runtime reads one layout, :mod:`lexicon.store.recordfile`'s ``records.lmdb/`` (format 2).
Releases written before it are migrated here, on the build side, by
:func:`build.amend.derive`, which reads them through :func:`open_parent`:

* format 1, ``records/``: marisa key tries (``valid.marisa``, ``rejected.marisa``; a key's
  marisa id is its payload's place), payload blocks (``*.raw``, or zlib ``*.dat`` in the
  earliest of them) indexed by ``*.idx`` (uint32 offsets), zlib shape blocks
  (``shapes.dat``/``shapes.idx``). A payload is the same varint shape number plus own bytes
  as a ``records.lmdb/`` value; shapes are numbered over both verdicts.
* ``lexicon.lmdb/``: one LMDB database ``forms`` of status byte + compact JSON whose
  repeated strings are ids into a :class:`StringTable` (databases ``strings`` and
  ``texts``).
"""

from __future__ import annotations

import heapq
import json
import mmap
import zlib
from array import array
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import lmdb
import marisa_trie
from lexicon.build.record_writer import split_all

from lexicon.store import integrity
from lexicon.store.recordfile import RECORDS_DIR, Split, get_varint, join
from lexicon.store.records import REJECTED, VALID, Analysis, Record
from lexicon.store.release import Named, Release

OLD_RECORDS_DIR = "records"
LMDB_DIR = "lexicon.lmdb"
FORMS_DB = b"forms"
STRINGS_DB = b"strings"       # the release's StringTable, one value under STRINGS_KEY
STRINGS_KEY = b"table"
TEXTS_DB = b"texts"           # repeated messages/evidence, key = 4-byte big-endian id


class StringTable:
    """Interns the strings that repeat across millions of records (tags, sources, evidence).

    A record stores small integers instead of, say, ``"adj:sg:nom.voc:m1.m2.m3:pos"`` or
    ``"listed by the sjp.pl word list (packages hunspell-pl and wpolish); known to
    Morfeusz"``; the table is written once per release (LMDB database ``strings``) and read
    into memory when the release is opened. This
    cut the Polish release to about a third of its size.
    """

    SEP = "\x1f"

    def __init__(self, items: list[str] | None = None,
                 fetch_text: Callable[[int], str] | None = None) -> None:
        self.items: list[str] = list(items or [])
        # Messages and evidence repeated across records: kept in LMDB and read on demand
        # (``fetch_text``) because a release can have hundreds of thousands of them.
        self.lazy_items: list[str] = []
        self._fetch_text = fetch_text

    def lazy_text(self, value: int | str) -> str:
        """A message or evidence string: inline, or by id from the on-demand table."""
        if isinstance(value, str):
            return value
        if self._fetch_text is not None:
            return self._fetch_text(value)
        return self.lazy_items[value]

    def text(self, i: int) -> str:
        return self.items[i]

    def texts(self, i: int) -> list[str]:
        joined = self.items[i]
        return joined.split(self.SEP) if joined else []

    @classmethod
    def load(cls, raw: bytes | None,
             fetch_text: Callable[[int], str] | None = None) -> StringTable:
        return cls(json.loads(bytes(raw)) if raw else [], fetch_text)


def decode_record(key: str, raw: bytes, table: StringTable) -> Record:
    body = json.loads(bytes(raw[1:]))
    word = body.get("w", key)
    t = table.text
    return Record(
        key=key,
        word=word,
        valid=raw[:1] == VALID,
        reason_code=t(body["r"]) if "r" in body else None,
        reason_message=(table.lazy_text(body["M"]) if "M" in body
                        else body.get("m")),
        analyses=[Analysis(word if a[0] == 0 else a[0], t(a[1]), t(a[2]),
                           tuple(table.texts(a[3])) if len(a) > 3 else ())
                  for a in body.get("a", [])],
        sources=table.texts(body["s"]) if "s" in body else [],
        category=t(body["c"]) if "c" in body else None,
        evidence=(table.lazy_text(body["E"]).split(table.SEP) if "E" in body
                  else body["e"].split(table.SEP) if "e" in body else []),
    )


def _text_reader(env: lmdb.Environment, db: Any) -> Callable[[int], str]:
    """Reads one interned message by id (a closure, so the release holds no cycle)."""
    def fetch(i: int) -> str:
        with env.begin(db=db, buffers=True) as txn:
            raw = txn.get(i.to_bytes(4, "big"))
            if raw is None:
                raise KeyError(f"text {i} missing from the release")
            return bytes(raw).decode()
    return fetch


class _BlockFile:
    """Payload ``i`` of a format-1 block file (memory-mapped)."""

    def __init__(self, path: Path) -> None:
        self._maps: list[mmap.mmap] = []
        self.compressed = path.with_suffix(".dat").exists() or \
            not path.with_suffix(".raw").exists()
        self.data = self._map(path.with_suffix(".dat" if self.compressed else ".raw"))
        idx = self._map(path.with_suffix(".idx"))
        self.offsets = memoryview(idx).cast("I") if len(idx) else memoryview(b"").cast("I")
        self.block = lru_cache(maxsize=512)(self._block)
        self.per_block = len(self._block(0)[1]) if len(self) else 1

    def _map(self, path: Path) -> mmap.mmap | bytes:
        with open(path, "rb") as fh:
            if fh.seek(0, 2) == 0:
                return b""
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        self._maps.append(mapped)
        return mapped

    def __len__(self) -> int:
        return max(len(self.offsets) - 1, 0)

    def _block(self, b: int) -> tuple[bytes, array]:
        raw = self.data[self.offsets[b]:self.offsets[b + 1]]
        if not self.compressed:
            n, width = raw[0], raw[1]
            lengths = array("B" if width == 1 else "H")
            lengths.frombytes(raw[2:2 + n * width])
            return raw[2 + n * width:], lengths
        raw = zlib.decompress(raw)
        n = int.from_bytes(raw[:2], "little")
        lengths = array("H")
        lengths.frombytes(raw[2:2 + 2 * n])
        return raw[2 + 2 * n:], lengths

    def payload(self, i: int) -> bytes:
        data, lengths = self.block(i // self.per_block)
        j = i % self.per_block
        start = sum(lengths[:j])
        return data[start:start + lengths[j]]

    def payloads(self) -> Iterator[bytes]:
        for b in range(len(self)):
            data, lengths = self._block(b)
            at = 0
            for n in lengths:
                yield data[at:at + n]
                at += n

    def close(self) -> None:
        self.offsets.release()
        for m in self._maps:
            m.close()


class LegacyRelease(Named):
    """A release in an older layout, read for migration: the few methods of
    :class:`~lexicon.store.release.Release` that :func:`build.amend.derive` uses."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.manifest: dict[str, Any] = integrity.read_manifest(self.path)
        problems = integrity.size_problems(self.path, self.manifest)
        if problems:
            raise integrity.damaged(self.path, problems, self.manifest)
        self._tries: dict[bool, Any] = {}
        self._blocks: dict[bool, _BlockFile] = {}
        self.env: lmdb.Environment | None = None
        try:
            if (self.path / OLD_RECORDS_DIR).is_dir():
                base = self.path / OLD_RECORDS_DIR
                for valid, kind in ((True, "valid"), (False, "rejected")):
                    self._tries[valid] = marisa_trie.Trie().mmap(str(base / f"{kind}.marisa"))
                    self._blocks[valid] = _BlockFile(base / kind)
                self._shape_blocks = _BlockFile(base / "shapes")
                self._shape = lru_cache(maxsize=16384)(
                    lambda sid: self._shape_blocks.payload(sid).decode())
            else:
                self.env = lmdb.open(str(self.path / LMDB_DIR), readonly=True, lock=False,
                                     max_dbs=4, readahead=False)
                self.forms = self.env.open_db(FORMS_DB, create=False)
                strings = self.env.open_db(STRINGS_DB, create=False)
                texts = self.env.open_db(TEXTS_DB, create=False)
                with self.env.begin(db=strings) as txn:
                    self.strings = StringTable.load(txn.get(STRINGS_KEY),
                                                    _text_reader(self.env, texts))
        except (lmdb.Error, OSError, ValueError, TypeError, RuntimeError) as exc:
            self.close()
            raise integrity.damaged(self.path, [f"cannot be read ({exc})"],
                                    self.manifest) from exc

    def get(self, key: str) -> Record | None:
        if self.env is None:
            for valid in (True, False):
                i = self._tries[valid].get(key)
                if i is not None:
                    payload = self._blocks[valid].payload(i)
                    sid, pos = get_varint(payload, 0)
                    return join(key, valid, json.loads(self._shape(sid)), payload, pos)
            return None
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return decode_record(key, bytes(raw), self.strings) if raw is not None else None

    def is_valid(self, key: str) -> bool:
        if self.env is None:
            return key in self._tries[True]
        rec = self.get(key)
        return rec is not None and rec.valid

    def valid_many(self, keys: list[str]) -> list[bool]:
        """Membership for many keys (the benchmark's figure for an older layout)."""
        if self.env is None:
            return list(map(self._tries[True].__contains__, keys))
        return [self.is_valid(k) for k in keys]

    def iter_records(self, valid_only: bool = False) -> Iterator[tuple[str, bytes]]:
        """(key, status byte) in key order."""
        if self.env is None:
            valid = ((k, VALID) for k in sorted(self._tries[True].keys()))
            yield from valid if valid_only else heapq.merge(
                valid, ((k, REJECTED) for k in sorted(self._tries[False].keys())))
            return
        with self.env.begin(db=self.forms) as txn:
            for k, v in txn.cursor():
                if not valid_only or v[:1] == VALID:
                    yield k.decode(), bytes(v[:1])

    def valid_keys(self) -> Iterator[str]:
        return (k for k, _ in self.iter_records(valid_only=True))

    def records(self) -> Iterator[Record]:
        """Every record, decoded, in no particular order."""
        if self.env is None:
            for s in self.splits():
                yield join(s.key, s.valid, json.loads(s.shape), s.own, 0)
            return
        with self.env.begin(db=self.forms) as txn:
            for k, v in txn.cursor():
                yield decode_record(k.decode(), v, self.strings)

    def splits(self) -> Iterator[Split]:
        """Every record as today's store keeps it (format 1 passes its own: the codec is
        the same), in no particular order."""
        if self.env is not None:
            yield from split_all(self.records())
            return
        for valid in (True, False):
            restore = self._tries[valid].restore_key
            for i, payload in enumerate(self._blocks[valid].payloads()):
                sid, pos = get_varint(payload, 0)
                yield Split(restore(i), valid, self._shape(sid), payload[pos:])

    def close(self) -> None:
        for blocks in self._blocks.values():
            blocks.close()
        self._blocks = {}
        if getattr(self, "_shape_blocks", None) is not None:
            self._shape_blocks.close()
            self._shape_blocks = None
        if self.env is not None:
            self.env.close()
            self.env = None


def is_current_layout(path: Path) -> bool:
    return (Path(path) / RECORDS_DIR).is_dir()


def open_parent(path: Path) -> Release | LegacyRelease:
    """A release to derive from: today's layout through the runtime's reader, an older
    one through :class:`LegacyRelease`."""
    return Release(path) if is_current_layout(path) else LegacyRelease(path)
