"""Reading a release: its word records plus its manifest.

A release directory holds ``manifest.json``, ``records/`` (the compact record store of
:mod:`lexicon.recordfile`: marisa key tries, uncompressed payload blocks and zlib shape
blocks) and ``indexes/`` (the query tries, see :mod:`lexicon.indexes`), and may hold
``meanings/`` (what the dictionaries say of its lemmas, :mod:`lexicon.meanings`). All are
opened read-only and memory-mapped, so a server keeps the OS page cache, not Python
objects, and several processes share one copy.

Releases published before the compact store hold ``lexicon.lmdb/`` instead (one named
database, ``forms``, mapping canonical keys to :class:`~lexicon.records.Record` bytes);
they are still read, so an older release keeps serving and can be repacked
(``lexicon repack``).
"""

from __future__ import annotations

import heapq
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lmdb

from lexicon import integrity
from lexicon.indexes import FORMAT as INDEX_FORMAT
from lexicon.indexes import Indexes, open_indexes
from lexicon.integrity import MANIFEST as MANIFEST  # re-exported: readers name it here
from lexicon.meanings import Meanings, declared_file
from lexicon.recordfile import RECORDS_DIR, RecordStore, Split, split_all
from lexicon.records import REJECTED, VALID, Record, StringTable

FORMS_DB = b"forms"
STRINGS_DB = b"strings"       # the release's StringTable, one value under STRINGS_KEY
STRINGS_KEY = b"table"
TEXTS_DB = b"texts"           # repeated messages/evidence, key = 4-byte big-endian id
LMDB_DIR = "lexicon.lmdb"


def _text_reader(env: lmdb.Environment, db: Any) -> Callable[[int], str]:
    """Reads one interned message by id. A closure over the environment, not a bound
    method, so a Release holds no reference cycle and closes as soon as it is dropped."""
    def fetch(i: int) -> str:
        with env.begin(db=db, buffers=True) as txn:
            raw = txn.get(i.to_bytes(4, "big"))
            if raw is None:
                raise KeyError(f"text {i} missing from the release")
            return bytes(raw).decode()
    return fetch


class Release:
    """One immutable, published release of one game.

    Opening checks the release first (:mod:`lexicon.integrity`): a file of the wrong size
    is never mapped, and any failure to read the manifest or the LMDB store is a
    :class:`~lexicon.errors.ReleaseDamaged`, never an arbitrary exception.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.manifest: dict[str, Any] = integrity.read_manifest(self.path)
        problems = integrity.size_problems(self.path, self.manifest)
        if problems:
            raise integrity.damaged(self.path, problems, self.manifest)
        mapped = integrity.mapped_sizes(self.path, self.manifest)
        self._index_lock = threading.Lock()
        self.checked_at = time.monotonic()   # of the last full size check (open is one)
        self._indexes: Indexes | None = None
        self._meanings: Meanings | None = None
        self.store: RecordStore | None = None
        if (self.path / RECORDS_DIR).is_dir():
            store = os.fspath(self.path / RECORDS_DIR) + os.sep
            # Re-checked in use (check_sizes): the store's files (valid.raw first: the
            # short check on every single-word use), indexes once mapped.
            self._watched = sorted(((p, n) for p, n in mapped if p.startswith(store)),
                                   key=lambda pn: not pn[0].endswith(("valid.raw", "valid.dat")))
            self._index_sizes = [(p, n) for p, n in mapped if not p.startswith(store)]
            try:
                self.store = RecordStore(self.path / RECORDS_DIR)
            except (OSError, ValueError, RuntimeError) as exc:  # RuntimeError: marisa's
                raise integrity.damaged(self.path, [f"{RECORDS_DIR}: cannot be read ({exc})"],
                                        self.manifest) from exc
            return
        data = os.fspath(self.path / LMDB_DIR / "data.mdb")
        # Re-checked in use (check_sizes): the store on every use, all mapped files for
        # batches and queries; index files join the list once the indexes are mapped.
        self._watched = [(p, n) for p, n in mapped if p == data] or [
            (data, os.stat(data).st_size)]
        self._index_sizes = [(p, n) for p, n in mapped if p != data]
        try:
            self.env = lmdb.open(str(self.path / LMDB_DIR), readonly=True, lock=False,
                                 max_dbs=4, readahead=False)
            self.forms = self.env.open_db(FORMS_DB, create=False)
            strings = self.env.open_db(STRINGS_DB, create=False)
            self.texts = self.env.open_db(TEXTS_DB, create=False)
            with self.env.begin(db=strings) as txn:
                self.strings = StringTable.load(txn.get(STRINGS_KEY),
                                                _text_reader(self.env, self.texts))
        except (lmdb.Error, OSError, ValueError, TypeError) as exc:
            if getattr(self, "env", None) is not None:
                self.env.close()
            raise integrity.damaged(self.path, [f"{LMDB_DIR}: cannot be read ({exc})"],
                                    self.manifest) from exc

    def check_sizes(self, *, full: bool = True) -> None:
        """Raise ReleaseDamaged if a file this release maps changed size since it was
        opened: a file truncated under a running server then becomes a 503 for its game
        instead of a SIGBUS for the whole process. ``full`` stats every mapped file (about
        ten); otherwise only ``data.mdb``, which every word check reads. :class:`Catalog`
        does the short check on every use and the full one for batches and queries and at
        least every ``FULL_CHECK_EVERY`` seconds: ten stats per single-word request would
        cost more than the lookup itself."""
        problems = []
        for path, size in (self._watched if full else self._watched[:1]):
            try:
                have = os.stat(path).st_size
            except OSError:
                have = -1
            if have != size:
                problems.append(f"{os.path.relpath(path, self.path)}: {have} bytes, "
                                f"expected {size}")
        if full:
            self.checked_at = time.monotonic()
        if problems:
            raise integrity.damaged(self.path, problems, self.manifest)

    @property
    def id(self) -> str:
        return self.manifest["release"]

    @property
    def game(self) -> str:
        return self.manifest["game"]

    def get(self, key: str) -> Record | None:
        if self.store is not None:
            return self.store.get(key)
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return Record.decode(key, bytes(raw), self.strings) if raw is not None else None

    def has_prefix(self, prefix: str) -> bool:
        """Does some key of the release (valid or not) start with ``prefix``?

        The prefix oracle a Latin Kvizovka word is tiled against (see
        :meth:`lexicon.tiles.Speller.readings`): one B-tree seek.
        """
        if self.store is not None:
            return self.store.has_prefix(prefix)
        p = prefix.encode()
        with self.env.begin(db=self.forms, buffers=True) as txn:
            cur = txn.cursor()
            return cur.set_range(p) and bytes(cur.key()).startswith(p)

    def is_valid(self, key: str) -> bool:
        if self.store is not None:
            return key in self.store.valid
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return raw is not None and raw[:1] == VALID

    @property
    def indexes(self) -> Indexes:
        """The release's query tries, mapped on first use (once, whatever the number of
        threads asking); raises NoIndex if it has none or they cannot be read."""
        if self._indexes is None:
            with self._index_lock:
                if self._indexes is None:
                    self._indexes = open_indexes(self.path, self.manifest)
                    self._watched = self._watched + self._index_sizes
        return self._indexes

    def meanings_for(self, lemmas: list[str]) -> list[dict[str, Any]]:
        """What the release's dictionaries say of ``lemmas`` (:mod:`lexicon.meanings`):
        ``[]`` when no source lists them, or the release has no meanings file (older
        releases). The file is mapped on first use; one that cannot be read is
        ReleaseDamaged."""
        entry = self.manifest.get("meanings")
        if declared_file(self.manifest) is None or not lemmas:
            return []
        if self._meanings is None:
            with self._index_lock:
                if self._meanings is None:
                    try:
                        self._meanings = Meanings(self.path, entry)
                    except (OSError, ValueError, RuntimeError, KeyError) as exc:
                        raise integrity.damaged(self.path, [
                            f"{declared_file(self.manifest)}: cannot be read ({exc})"],
                            self.manifest) from exc
        return self._meanings.of(lemmas)

    def valid_many(self, keys: list[str]) -> list[bool]:
        """Membership for many keys (the batch hot path).

        With indexes, one marisa lookup per key: measured about twice as fast as an LMDB get
        from Python (see ``tools/bench.py``). Without them, one read transaction.
        """
        if self.store is not None:
            return list(map(self.store.valid.__contains__, keys))
        if (self.manifest.get("indexes") or {}).get("format") == INDEX_FORMAT:
            return list(map(self.indexes.words.__contains__, keys))
        out = []
        with self.env.begin(db=self.forms, buffers=True) as txn:
            get = txn.get
            for key in keys:
                raw = get(key.encode())
                out.append(raw is not None and raw[:1] == VALID)
        return out

    def iter_records(self, valid_only: bool = False) -> Iterator[tuple[str, bytes]]:
        """(key, raw value) in key order; raw[:1] is the status byte (the rest is opaque)."""
        if self.store is not None:
            valid = ((k, VALID) for k in self.store.keys(valid=True))
            if valid_only:
                yield from valid
            else:
                yield from heapq.merge(valid, ((k, REJECTED) for k in self.store.keys(False)))
            return
        with self.env.begin(db=self.forms) as txn:
            for k, v in txn.cursor():
                if valid_only and v[:1] != VALID:
                    continue
                yield k.decode(), v

    def records(self) -> Iterator[Record]:
        """Every record, fully decoded, in no particular order (repack, amend)."""
        if self.store is not None:
            yield from self.store.records(valid=True)
            yield from self.store.records(valid=False)
            return
        with self.env.begin(db=self.forms) as txn:
            for k, v in txn.cursor():
                yield Record.decode(k.decode(), v, self.strings)

    def splits(self) -> Iterator[Split]:
        """Every record as the compact store keeps it, in no particular order: a store
        passes its own without decoding them, an older release decodes and splits."""
        if self.store is not None:
            yield from self.store.splits(valid=True)
            yield from self.store.splits(valid=False)
        else:
            yield from split_all(self.records())

    def close(self) -> None:
        if self._meanings is not None:
            self._meanings.close()
            self._meanings = None
        if self._indexes is not None:
            self._indexes.close()
            self._indexes = None
        if self.store is not None:
            self.store.close()
        else:
            self.env.close()
