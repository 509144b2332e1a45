"""Reading a release: an LMDB environment of word records plus its manifest.

A release directory holds ``manifest.json`` and ``lexicon.lmdb/`` (one named database,
``forms``, mapping canonical keys to :class:`~lexicon.records.Record` bytes). The store is
opened read-only and memory-mapped, so a server keeps the OS page cache, not Python
objects, and several processes share one copy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lmdb

from lexicon.records import VALID, Record

FORMS_DB = b"forms"
LMDB_DIR = "lexicon.lmdb"
MANIFEST = "manifest.json"


class Release:
    """One immutable, published release of one game."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        with open(self.path / MANIFEST, encoding="utf-8") as fh:
            self.manifest: dict[str, Any] = json.load(fh)
        self.env = lmdb.open(str(self.path / LMDB_DIR), readonly=True, lock=False,
                             max_dbs=4, readahead=False)
        self.forms = self.env.open_db(FORMS_DB, create=False)

    @property
    def id(self) -> str:
        return self.manifest["release"]

    @property
    def game(self) -> str:
        return self.manifest["game"]

    def get(self, key: str) -> Record | None:
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return Record.decode(key, bytes(raw)) if raw is not None else None

    def is_valid(self, key: str) -> bool:
        with self.env.begin(db=self.forms, buffers=True) as txn:
            raw = txn.get(key.encode())
            return raw is not None and raw[:1] == VALID

    def valid_many(self, keys: list[str]) -> list[bool]:
        """Membership for many keys in one read transaction (the batch hot path)."""
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
        self.env.close()
