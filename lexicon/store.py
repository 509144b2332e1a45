"""Reading a release: an LMDB environment of word records plus its manifest.

A release directory holds ``manifest.json``, ``lexicon.lmdb/`` (one named database,
``forms``, mapping canonical keys to :class:`~lexicon.records.Record` bytes) and
``indexes/`` (the query tries, see :mod:`lexicon.indexes`). Both are opened read-only and
memory-mapped, so a server keeps the OS page cache, not Python objects, and several
processes share one copy.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import lmdb

from lexicon.indexes import FORMAT as INDEX_FORMAT
from lexicon.indexes import Indexes, open_indexes
from lexicon.records import VALID, Record, StringTable

FORMS_DB = b"forms"
STRINGS_DB = b"strings"       # the release's StringTable, one value under STRINGS_KEY
STRINGS_KEY = b"table"
TEXTS_DB = b"texts"           # repeated messages/evidence, key = 4-byte big-endian id
LMDB_DIR = "lexicon.lmdb"
MANIFEST = "manifest.json"


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
    """One immutable, published release of one game."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        with open(self.path / MANIFEST, encoding="utf-8") as fh:
            self.manifest: dict[str, Any] = json.load(fh)
        self.env = lmdb.open(str(self.path / LMDB_DIR), readonly=True, lock=False,
                             max_dbs=4, readahead=False)
        self.forms = self.env.open_db(FORMS_DB, create=False)
        strings = self.env.open_db(STRINGS_DB, create=False)
        try:
            self.texts = self.env.open_db(TEXTS_DB, create=False)
        except lmdb.NotFoundError:  # releases built before the text table
            self.texts = None
        with self.env.begin(db=strings) as txn:
            self.strings = StringTable.load(txn.get(STRINGS_KEY),
                                            _text_reader(self.env, self.texts))

    @property
    def id(self) -> str:
        return self.manifest["release"]

    @property
    def game(self) -> str:
        return self.manifest["game"]

    def get(self, key: str) -> Record | None:
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return Record.decode(key, bytes(raw), self.strings) if raw is not None else None

    def has_prefix(self, prefix: str) -> bool:
        """Does some key of the release (valid or not) start with ``prefix``?

        The prefix oracle a Latin Kvizovka word is tiled against (see
        :meth:`lexicon.tiles.Speller.readings`): one B-tree seek.
        """
        p = prefix.encode()
        with self.env.begin(db=self.forms, buffers=True) as txn:
            cur = txn.cursor()
            return cur.set_range(p) and bytes(cur.key()).startswith(p)

    def is_valid(self, key: str) -> bool:
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return raw is not None and raw[:1] == VALID

    @cached_property
    def indexes(self) -> Indexes:
        """The release's query tries, mapped on first use; raises NoIndex if it has none."""
        return open_indexes(self.path, self.manifest)

    def valid_many(self, keys: list[str]) -> list[bool]:
        """Membership for many keys (the batch hot path).

        With indexes, one marisa lookup per key: measured about twice as fast as an LMDB get
        from Python (see ``build/bench.py``). Without them, one read transaction.
        """
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
        """(key, raw value) in key order; raw[:1] is the status byte."""
        with self.env.begin(db=self.forms) as txn:
            for k, v in txn.cursor():
                if valid_only and v[:1] != VALID:
                    continue
                yield k.decode(), v

    def iter_keys_with_prefix(self, prefix: str, valid_only: bool = True) -> Iterator[str]:
        """Keys starting with ``prefix``, in order, using an LMDB cursor range scan."""
        p = prefix.encode()
        with self.env.begin(db=self.forms) as txn:
            cur = txn.cursor()
            if not cur.set_range(p):
                return
            for k, v in cur:
                if not k.startswith(p):
                    break
                if valid_only and v[:1] != VALID:
                    continue
                yield k.decode()

    def close(self) -> None:
        if "indexes" in self.__dict__:
            self.indexes.close()
        self.env.close()
