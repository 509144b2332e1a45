"""A release's records: one LMDB environment, ``records.lmdb/``, read in place.

A release must explain every form it knows (reason, analyses, sources, evidence) yet stay
small: millions of Polish forms share a few thousand ways of being explained. So a record
is split in two:

* its **shape**: everything that does not depend on the word itself. A lemma is stored as
  a rule against the word (cut ``n`` letters, append a suffix: ``kotami`` -> ``kot`` is
  ``(3, "")``, shared by every noun declined like it), and a message or evidence text has
  the word and the first lemma replaced by placeholders (``"dative of \\x02"``). Shapes are
  numbered admitted first, then rejected, each by frequency, so the commonest take one byte
  and a record's verdict is its shape number's range;
* its **own bytes**: only what is the word's own (its display spelling when that is not
  the key, a lemma no rule shares, a text that does not fit a template).

The environment holds three named databases (the README's "Release store" section is the
schema for a reader in another language):

* ``records``: key = the canonical key (UTF-8), value = the shape number (LEB128 varint)
  then the own bytes (each text a varint byte length + UTF-8);
* ``shapes``: key = block number (uint32 big-endian), value = a zlib block of
  ``SHAPE_BLOCK`` shapes (compact JSON): uint16 count, uint16 lengths, the shapes
  (little-endian); shape ``s`` is entry ``s % SHAPE_BLOCK`` of block ``s // SHAPE_BLOCK``;
* ``meta``: ASCII keys and values: ``format``, ``valid_shapes`` (shapes below it are of
  admitted records), ``shapes``, ``valid``, ``rejected`` (record counts).

Records are written once, in key order, with ``append`` so every leaf page is full; in a
build every value is a pure function of the records, so identical records give identical
content (the store's ``sha256``, over keys and values, is the release's
``content_sha256``); an amend copies its parent's values and numbering. Writing is the
build's (:mod:`build.record_writer`: splitting a record into shape and own bytes, the
store, the amended store); this module reads. The marisa
tries of the release's ``indexes/`` (membership, queries) are derived from it at build time.

LMDB lets a process open one environment once: :func:`open_env` shares one read-only
handle per store per process, counted, so any number of catalogs open the same release;
``lock=False`` because the files are immutable and never written once published.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, NamedTuple

import lmdb

from lexicon.store.records import Analysis, Record

RECORDS_DIR = "records.lmdb"
FORMAT = 2                 # 1: records/ (marisa tries + blocks), read by `lexicon repack` only
RECORDS_DB = b"records"
SHAPES_DB = b"shapes"
META_DB = b"meta"
NAMED_DBS = 3              # records, shapes, meta (lmdb.open needs the count)
MAX_KEY_BYTES = 500        # LMDB's key limit is 511 bytes; no playable word comes close
MAP_SIZE = 64 << 30        # address space only; the file grows as needed
SHAPE_BLOCK = 32           # shapes per zlib block: enough for zlib to share their strings
WORD_MARK = "\x01"         # placeholders in a shared message/evidence template
LEMMA_MARK = "\x02"
KINDS = ("valid", "rejected")
CACHE_BLOCKS = 512
CACHE_SHAPES = 16384


# -- small codecs (the encoders are the build's, build/record_writer.py) ----------------

def get_varint(buf: bytes, pos: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7


def get_text(buf: bytes, pos: int) -> tuple[str, int]:
    n, pos = get_varint(buf, pos)
    return buf[pos:pos + n].decode(), pos + n


def _fill(template: str, word: str, lemma: str | None) -> str:
    if lemma is not None:
        template = template.replace(LEMMA_MARK, lemma)
    return template.replace(WORD_MARK, word)


# -- a record from its shape + payload -------------------------------------------------------

def join(key: str, valid: bool, shape: dict[str, Any], payload: bytes, pos: int) -> Record:
    """The inverse of :func:`split`: ``payload[pos:]`` is the record's inline part."""
    return decoder(shape)(key, valid, payload, pos)


Decoder = Callable[[str, bool, bytes, int], Record]


def decoder(shape: dict[str, Any]) -> Decoder:
    """:func:`join` for the records of one shape, its reading of the shape done once: a
    store keeps one per shape number (:meth:`RecordStore.decoder`), so a lookup decodes
    only the record's own bytes. Most shapes inline nothing but the word (no message, no
    lemma or evidence text of its own): those get a decoder that fills the templates
    directly; any other is read by the general :func:`_join`."""
    rows = shape.get("a", ())
    evidence = shape.get("e", ())
    if "m" in shape or any(row[0] == -1 for row in rows) or any(
            part == 0 for part in evidence):
        return partial(_join, shape=shape)
    mode = shape.get("w", 0)
    plan = tuple((row[0], row[1], row[2], row[3], tuple(row[4]) if len(row) > 4 else ())
                 for row in rows)
    texts = tuple((part, WORD_MARK in part or LEMMA_MARK in part) for part in evidence)
    sources, code, category = tuple(shape.get("s", ())), shape.get("r"), shape.get("c")

    def decode(key: str, valid: bool, payload: bytes, pos: int) -> Record:
        if mode == 0:
            word = key
        elif mode == 1:
            word = key.capitalize()
        else:
            word = get_text(payload, pos)[0]
        analyses = [Analysis((word[:-cut] if cut else word) + suffix, tags, source, labels)
                    for cut, suffix, tags, source, labels in plan]
        lemma0 = analyses[0].lemma if analyses else None
        return Record(key=key, word=word, valid=valid, reason_code=code,
                      reason_message=None, analyses=analyses, sources=list(sources),
                      category=category,
                      evidence=[_fill(text, word, lemma0) if marked else text
                                for text, marked in texts])
    return decode


def _join(key: str, valid: bool, payload: bytes, pos: int, *, shape: dict[str, Any]
          ) -> Record:
    """:func:`join` read from the shape itself: any shape."""
    mode = shape.get("w", 0)
    if mode == 0:
        word = key
    elif mode == 1:
        word = key.capitalize()
    else:
        word, pos = get_text(payload, pos)
    pending_msg = shape.get("m")
    # inline texts are written message first, then lemmas, then evidence: keep that order
    message: str | None = None
    msg_parts: list[Any] = []
    if pending_msg is not None:
        for part in pending_msg:
            if part == 0:
                text, pos = get_text(payload, pos)
                msg_parts.append((text,))
            else:
                msg_parts.append(part)
    analyses = []
    for row in shape.get("a", ()):
        if row[0] == -1:
            lemma, pos = get_text(payload, pos)
            rest = row[1:]
        else:
            cut, suffix = row[0], row[1]
            lemma = (word[:-cut] if cut else word) + suffix
            rest = row[2:]
        labels = tuple(rest[2]) if len(rest) > 2 else ()
        analyses.append(Analysis(lemma, rest[0], rest[1], labels))
    lemma0 = analyses[0].lemma if analyses else None
    if pending_msg is not None:
        message = "".join(p[0] if isinstance(p, tuple) else _fill(p, word, lemma0)
                          for p in msg_parts)
    evidence = []
    for part in shape.get("e", ()):
        if part == 0:
            text, pos = get_text(payload, pos)
            evidence.append(text)
        else:
            evidence.append(_fill(part, word, lemma0))
    return Record(key=key, word=word, valid=valid, reason_code=shape.get("r"),
                  reason_message=message, analyses=analyses,
                  sources=list(shape.get("s", ())), category=shape.get("c"),
                  evidence=evidence)


# -- one record as an LMDB value ----------------------------------------------------------

class Split(NamedTuple):
    """A record as the store keeps it: key, verdict, shape (JSON text), own bytes."""

    key: str
    valid: bool
    shape: str
    own: bytes


# -- reading: one shared environment per store per process ---------------------------------

class _Shared:
    def __init__(self, env: lmdb.Environment) -> None:
        self.env = env
        self.users = 1
        self.ident = (0, 0)
        self.records = env.open_db(RECORDS_DB, create=False)
        self.shapes = env.open_db(SHAPES_DB, create=False)
        meta = env.open_db(META_DB, create=False)
        with env.begin(db=meta) as txn:
            self.meta = {bytes(k).decode(): bytes(v).decode() for k, v in txn.cursor()}


_OPEN: dict[tuple[int, int], _Shared] = {}
# re-entrant: a store dropped unclosed gives its handle back from a finalizer, which the
# garbage collector may run inside open_env, while this thread holds the lock
_OPEN_LOCK = threading.RLock()


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(Path(path) / "data.mdb")
    return st.st_dev, st.st_ino


def open_env(path: Path) -> _Shared:
    """The process's one handle on the store at ``path``, counted. LMDB refuses a second
    open of one environment in a process, and knows it by its file, not its path: a Remik
    release hard-links osps's ``data.mdb``, so both share one handle, as do any number of
    catalogs on one release."""
    ident = _identity(path)
    with _OPEN_LOCK:
        shared = _OPEN.get(ident)
        if shared is not None:
            shared.users += 1
            return shared
        env = lmdb.open(os.fspath(path), readonly=True, lock=False, max_dbs=NAMED_DBS,
                        readahead=False, create=False)
        try:
            shared = _OPEN[ident] = _Shared(env)
        except BaseException:
            env.close()
            raise
        shared.ident = ident
        return shared


def close_env(shared: _Shared) -> None:
    with _OPEN_LOCK:
        shared.users -= 1
        if shared.users == 0:
            if _OPEN.get(shared.ident) is shared:
                del _OPEN[shared.ident]
            shared.env.close()


def _read_block(env: lmdb.Environment, shapes_db: Any, b: int) -> list[bytes]:
    """The shape texts of block ``b`` of a store's shapes table."""
    with env.begin(db=shapes_db) as txn:
        raw = txn.get(b.to_bytes(4, "big"))
    if raw is None:
        raise KeyError(f"shape block {b} missing from the release")
    data = zlib.decompress(raw)
    n = int.from_bytes(data[:2], "little")
    lengths = array("H")
    lengths.frombytes(data[2:2 + 2 * n])
    out, at = [], 2 + 2 * n
    for size in lengths:
        out.append(data[at:at + size])
        at += size
    return out


class Decoding:
    """How one store's records are decoded, with bounded caches of its own: the shape
    blocks, the parsed shapes and a decoder per shape.

    A store keeps one for its lookups, filled as words are asked for; a bulk pass (a scan,
    the records of an offline pack) makes its own (:meth:`RecordStore.getter`). Cached
    objects live long, and the pass's transient objects are allocated among them: entries
    cached by a pass over a million records would pin, scattered through the interpreter's
    memory arenas, far more memory than they take, after the pass has freed the rest. A
    pass's own caches die with it. The caches are functions of the environment, not of the
    store: a cache of a bound method would make the store a reference cycle, so a store
    nobody uses would keep its environment (a descriptor and a mapping) and its caches until
    the cyclic collector ran, instead of closing with its last user."""

    def __init__(self, env: lmdb.Environment, shapes_db: Any, valid_shapes: int) -> None:
        self.valid_shapes = valid_shapes
        self.block = lru_cache(maxsize=CACHE_BLOCKS)(partial(_read_block, env, shapes_db))
        block = self.block

        def shape(sid: int) -> dict[str, Any]:
            return json.loads(block(sid // SHAPE_BLOCK)[sid % SHAPE_BLOCK])

        self.shape = lru_cache(maxsize=CACHE_SHAPES)(shape)
        shape_of = self.shape
        self.decoder = lru_cache(maxsize=CACHE_SHAPES)(lambda sid: decoder(shape_of(sid)))

    def record(self, key: str, raw: bytes) -> Record:
        sid, pos = get_varint(raw, 0)
        return self.decoder(sid)(key, sid < self.valid_shapes, raw, pos)


class RecordStore:
    """A release's records, read in place (see the module docstring for the schema)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._shared: _Shared | None = open_env(self.path)
        shared = self._shared
        try:
            if shared.meta.get("format") != str(FORMAT):
                raise ValueError(f"record format {shared.meta.get('format')!r}, this reader "
                                 f"reads {FORMAT}")
            self.valid_shapes = int(shared.meta["valid_shapes"])
            self.meta = dict(shared.meta)
            self.counts = {k: int(shared.meta[k]) for k in KINDS}
        except (KeyError, ValueError):
            self.close()
            raise
        self.env, self.db, self._shapes_db = shared.env, shared.records, shared.shapes
        # a store dropped unclosed (a Release nobody closed) still gives its handle back
        self._release = weakref.finalize(self, close_env, shared)
        self.lookups = Decoding(shared.env, shared.shapes, self.valid_shapes)
        self.block, self.shape, self.decoder = (self.lookups.block, self.lookups.shape,
                                                self.lookups.decoder)
        self._record = self.lookups.record

    def shape_text(self, sid: int) -> bytes:
        return self.block(sid // SHAPE_BLOCK)[sid % SHAPE_BLOCK]

    def getter(self) -> Callable[[str], Record | None]:
        """:meth:`get` for a bulk pass, decoding with caches of its own (:class:`Decoding`):
        the lookups' caches stay as they were."""
        env, db, record = self.env, self.db, Decoding(self.env, self._shapes_db,
                                                      self.valid_shapes).record

        def get(key: str) -> Record | None:
            with env.begin(db=db, buffers=True) as txn:
                raw = txn.get(key.encode())
                return None if raw is None else record(key, bytes(raw))

        return get

    def get(self, key: str) -> Record | None:
        with self.env.begin(db=self.db, buffers=True) as txn:
            raw = txn.get(key.encode())
            return None if raw is None else self._record(key, bytes(raw))

    def is_valid(self, key: str) -> bool:
        with self.env.begin(db=self.db, buffers=True) as txn:
            raw = txn.get(key.encode())
            return raw is not None and get_varint(raw, 0)[0] < self.valid_shapes

    def valid_many(self, keys: Iterable[str]) -> list[bool]:
        """Membership for many keys in one read transaction."""
        vs = self.valid_shapes
        out = []
        with self.env.begin(db=self.db, buffers=True) as txn:
            get = txn.get
            for key in keys:
                raw = get(key.encode())
                out.append(raw is not None and get_varint(raw, 0)[0] < vs)
        return out

    def __len__(self) -> int:
        return self.counts["valid"] + self.counts["rejected"]

    def has_prefix(self, prefix: str) -> bool:
        """Does some key, valid or rejected, start with ``prefix``? (Kvizovka's tiler)"""
        p = prefix.encode()
        with self.env.begin(db=self.db, buffers=True) as txn:
            cur = txn.cursor()
            return cur.set_range(p) and bytes(cur.key()).startswith(p)

    def _scan(self) -> Iterator[tuple[str, bytes]]:
        with self.env.begin(db=self.db) as txn:
            for k, v in txn.cursor():
                yield k.decode(), v

    def verdicts(self) -> Iterator[tuple[str, bool]]:
        """(key, admitted?) of every record in key order (export, diff)."""
        vs = self.valid_shapes
        for key, raw in self._scan():
            yield key, get_varint(raw, 0)[0] < vs

    def valid_keys(self) -> Iterator[str]:
        """The admitted keys in key (code point) order."""
        return (k for k, ok in self.verdicts() if ok)

    def splits(self) -> Iterator[Split]:
        """Every record in key order as stored, without decoding it (amend, repack)."""
        texts: dict[int, str] = {}
        vs = self.valid_shapes
        for key, raw in self._scan():
            sid, pos = get_varint(raw, 0)
            shape = texts.get(sid)
            if shape is None:
                shape = texts[sid] = self.shape_text(sid).decode()
            yield Split(key, sid < vs, shape, raw[pos:])

    def records(self, valid: bool | None = None) -> Iterator[Record]:
        """Every record in key order, decoded (``valid``: of that verdict only), with the
        scan's own caches (:class:`Decoding`)."""
        record = Decoding(self.env, self._shapes_db, self.valid_shapes).record
        for key, raw in self._scan():
            rec = record(key, raw)
            if valid is None or rec.valid == valid:
                yield rec

    def close(self) -> None:
        shared, self._shared = self._shared, None
        if shared is None:
            return
        if hasattr(self, "_release"):
            self._release()              # once: a finalizer runs at most one time
        else:                            # closed while opening (a wrong format)
            close_env(shared)
