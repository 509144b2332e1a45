"""Reading a release: its word records plus its manifest.

A release directory holds ``manifest.json``, ``records.lmdb/`` (its records: one LMDB
environment, :mod:`lexicon.store.recordfile`) and ``indexes/`` (the query tries and the batch
membership set, see :mod:`lexicon.store.indexes`), and may hold ``meanings/`` (what the
dictionaries say of its lemmas, :mod:`lexicon.store.meanings`). All are opened read-only and
memory-mapped, so a server keeps the OS page cache, not Python objects, and several
processes share one copy.

The runtime reads this one layout. A release in an older one (``records/``, marisa tries
and blocks; ``lexicon.lmdb/``, JSON values) is not served: ``lexicon repack`` migrates it
(:mod:`build.old_layouts`).
"""

from __future__ import annotations

import functools
import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import lmdb

from lexicon.errors import ReleaseDamaged, out_of_descriptors
from lexicon.store import integrity, leases
from lexicon.store.indexes import FORMAT as INDEX_FORMAT
from lexicon.store.indexes import Indexes, NoIndex, open_indexes
from lexicon.store.integrity import MANIFEST as MANIFEST  # re-exported: readers name it here
from lexicon.store.meanings import Meanings, declared_file
from lexicon.store.recordfile import RECORDS_DIR, RecordStore, Split
from lexicon.store.records import REJECTED, VALID, Record

OLDER_LAYOUTS = ("records", "lexicon.lmdb")


#: What reading a damaged store raises: LMDB's own errors (``lmdb.CorruptedError``,
#: ``PageNotFoundError``) and a record that no longer decodes.
READ_ERRORS = (lmdb.Error, ValueError, IndexError, KeyError, struct.error)

F = TypeVar("F", bound=Callable[..., Any])


def _reads(method: F) -> F:
    """A read of the store: what a damaged store raises there condemns the release
    (:meth:`Release.condemn`) and is ReleaseDamaged (503 ``release_damaged`` for its game),
    never an arbitrary exception (500)."""

    @functools.wraps(method)
    def guarded(self: Release, *args: Any) -> Any:
        try:
            return method(self, *args)
        except (lmdb.BadValsizeError, UnicodeEncodeError):
            raise                      # of the key asked for (too long), not of the store
        except READ_ERRORS as exc:
            if out_of_descriptors(exc):   # of this process, not of the store: no condemning
                raise integrity.descriptors_exhausted(self.path) from exc
            raise self.condemn([f"{RECORDS_DIR}: cannot be read "
                                f"({type(exc).__name__}: {exc})"]) from exc
    return guarded  # type: ignore[return-value]


class Named:
    """A release's name and game, as its manifest says (shared with the build side's
    reader of older layouts, :class:`build.old_layouts.LegacyRelease`)."""

    manifest: dict[str, Any]

    @property
    def id(self) -> str:
        return self.manifest["release"]

    @property
    def game(self) -> str:
        return self.manifest["game"]


class Release(Named):
    """One immutable, published release of one game.

    Opening checks the release first (:mod:`lexicon.store.integrity`): a file of the wrong size
    is never mapped, and any failure to read the manifest or the record store is a
    :class:`~lexicon.errors.ReleaseDamaged`, never an arbitrary exception.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.manifest: dict[str, Any] = integrity.read_manifest(self.path)
        self._condemned: list[str] = integrity.known_damage(self.path)
        if self._condemned:          # found damaged before, and its files have not changed
            raise integrity.damaged(self.path, self._condemned, self.manifest)
        if not (self.path / RECORDS_DIR).is_dir():
            older = [d for d in OLDER_LAYOUTS if (self.path / d).is_dir()]
            why = (f"its records are in the older layout ({older[0]}/); `lexicon repack "
                   f"{self.manifest.get('game', 'GAME')}` migrates it" if older
                   else f"{RECORDS_DIR}: missing")
            raise integrity.damaged(self.path, [why], self.manifest)
        mapped = integrity.mapped_sizes(self.path, self.manifest)
        data = os.fspath(self.path / RECORDS_DIR / "data.mdb")
        # leased before the sizes are checked: nothing can shrink from the check on
        self._lease = leases.hold([p for p, _ in mapped] or [data], self._lease_broken)
        problems = integrity.size_problems(self.path, self.manifest)
        if problems:
            self._let_go()
            raise integrity.damaged(self.path, problems, self.manifest)
        self._index_lock = threading.Lock()
        self.checked_at = time.monotonic()   # of the last full size check (open is one)
        self._indexes: Indexes | None = None
        self._meanings: Meanings | None = None
        # Re-checked in use (check_sizes): the store on every use, all mapped files for
        # batches and queries; index files join the list once the indexes are mapped.
        self._watched = [(p, n) for p, n in mapped if p == data] or [
            (data, os.stat(data).st_size)]
        self._index_sizes = [(p, n) for p, n in mapped if p != data]
        try:
            self.store = RecordStore(self.path / RECORDS_DIR)
        except (lmdb.Error, OSError, ValueError, KeyError) as exc:
            self._let_go()
            if out_of_descriptors(exc):
                raise integrity.descriptors_exhausted(self.path) from exc
            raise integrity.damaged(self.path, [f"{RECORDS_DIR}: cannot be read ({exc})"],
                                    self.manifest) from exc

    def check_sizes(self, *, full: bool = True) -> None:
        """Raise ReleaseDamaged if a file this release maps changed size since it was
        opened: a file truncated under a running server then becomes a 503 for its game
        instead of a SIGBUS for the whole process. ``full`` stats every mapped file (about
        ten); otherwise only ``data.mdb``, which every word check reads, and nothing at all
        while the release holds a read lease (:attr:`guard` ``lease``): a truncation of a
        leased file waits for the lease, and its break condemns the release before the
        file can shrink, so that stat could only repeat what the condemnation says.
        :class:`Catalog` does the short check on every use and the full one for batches
        and queries and at least every ``FULL_CHECK_EVERY`` seconds: ten stats per
        single-word request would cost more than the lookup itself."""
        if self._condemned:
            raise integrity.damaged(self.path, self._condemned, self.manifest)
        if not full and self._lease is not None:
            return    # a leased file cannot shrink unseen: its truncation condemns us first
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
    def guard(self) -> str:
        """How a file shrinking under this release is kept from faulting a read: ``lease``
        (:mod:`lexicon.store.leases`) or ``size_checks`` (:meth:`check_sizes` alone)."""
        return "lease" if self._lease is not None else "size_checks"

    def _lease_broken(self, path: str) -> None:
        self.condemn([f"{os.path.relpath(path, self.path)}: opened for writing or truncated "
                      f"while served (a published release is never rewritten in place)"])

    def _let_go(self) -> None:
        if self._lease is not None:
            self._lease.release()

    @property
    def condemned(self) -> list[str]:
        """Why this release was condemned (``[]``: it was not)."""
        return list(self._condemned)

    def condemn(self, problems: list[str]) -> ReleaseDamaged:
        """Stop serving this release: its sha256 check failed, or a read of it did. Every
        later use raises ReleaseDamaged (:meth:`check_sizes`, which the catalog calls on
        every use), and so does a reopening, until it verifies again (its sha256 check,
        :func:`lexicon.store.integrity.hashed_problems`), whatever its files' times."""
        self._condemned = list(problems)
        integrity.remember_damage(self.path, self._condemned)
        return integrity.damaged(self.path, self._condemned, self.manifest)

    @_reads
    def get(self, key: str) -> Record | None:
        return self.store.get(key)

    def getter(self) -> Callable[[str], Record | None]:
        """:meth:`get` for a bulk pass over many records (an offline pack's rejected keys):
        the same records, decoded with caches of the pass's own, so the pass leaves the
        lookups' caches, and the memory their entries would pin, as they were
        (:class:`~lexicon.store.recordfile.Decoding`)."""
        return functools.partial(self._get_with, self.store.getter())

    @_reads
    def _get_with(self, get: Callable[[str], Record | None], key: str) -> Record | None:
        return get(key)

    @_reads
    def has_prefix(self, prefix: str) -> bool:
        """Does some key of the release (valid or not) start with ``prefix``?

        The prefix oracle a Latin Kvizovka word is tiled against (see
        :meth:`lexicon.game.tiles.Speller.readings`): one B-tree seek.
        """
        return self.store.has_prefix(prefix)

    @_reads
    def is_valid(self, key: str) -> bool:
        return self.store.is_valid(key)

    @property
    def indexes(self) -> Indexes:
        """The release's query tries, mapped on first use (once, whatever the number of
        threads asking); raises NoIndex if it has none or they cannot be read."""
        if self._indexes is None:
            with self._index_lock:
                if self._indexes is None:
                    try:
                        self._indexes = open_indexes(self.path, self.manifest)
                    except NoIndex as exc:
                        if out_of_descriptors(exc):
                            raise integrity.descriptors_exhausted(self.path) from exc
                        raise
                    self._watched = self._watched + self._index_sizes
        return self._indexes

    def meanings_for(self, lemmas: list[str]) -> list[dict[str, Any]]:
        """What the release's dictionaries say of ``lemmas`` (:mod:`lexicon.store.meanings`):
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
                        if out_of_descriptors(exc):
                            raise integrity.descriptors_exhausted(self.path) from exc
                        raise integrity.damaged(self.path, [
                            f"{declared_file(self.manifest)}: cannot be read ({exc})"],
                            self.manifest) from exc
        return self._meanings.of(lemmas)

    @_reads
    def valid_many(self, keys: list[str]) -> list[bool]:
        """Membership for many keys (the batch hot path).

        With indexes, one marisa lookup per key (``indexes/words.marisa``, derived from
        the store at build time), cheaper than an LMDB get from Python (``tools/bench.py``
        measures both). Without them, one read transaction.
        """
        if (self.manifest.get("indexes") or {}).get("format") == INDEX_FORMAT:
            return list(map(self.indexes.words.__contains__, keys))
        return self.store.valid_many(keys)

    def iter_records(self, valid_only: bool = False) -> Iterator[tuple[str, bytes]]:
        """(key, status byte) in key order: :data:`~lexicon.store.records.VALID` or
        :data:`~lexicon.store.records.REJECTED`."""
        for key, ok in self.store.verdicts():
            if ok:
                yield key, VALID
            elif not valid_only:
                yield key, REJECTED

    def valid_keys(self) -> Iterator[str]:
        """The admitted keys in key order (a shared release's identity, amend's keys)."""
        return self.store.valid_keys()

    def records(self) -> Iterator[Record]:
        """Every record, fully decoded, in key order (repack, amend, gloss coverage)."""
        return self.store.records()

    def splits(self) -> Iterator[Split]:
        """Every record as the store keeps it, in key order, without decoding them."""
        return self.store.splits()

    def close(self) -> None:
        self._let_go()
        if self._meanings is not None:
            self._meanings.close()
            self._meanings = None
        if self._indexes is not None:
            self._indexes.close()
            self._indexes = None
        self.store.close()
