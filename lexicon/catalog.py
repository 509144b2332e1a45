"""The games and their current releases, opened on demand.

A :class:`Catalog` is what the CLI and the service hold: it resolves a game id to its
profile and to the release that ``CURRENT`` names. When a new release is published while a
server runs, the next request sees it (the ``CURRENT`` file is re-read when it changes), and
requests already under way keep reading the release they started with.

Many threads ask at once (a server's thread pool), so opening is serialised by a lock and
each release directory is opened at most once per process: LMDB refuses a second open of
one environment in a process. A request that must name the release that judged it pins
the game's release for its duration (:meth:`Catalog.pinned`), so a publish in the middle
of the request changes neither its verdicts nor its label.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from lexicon import profile as profiles
from lexicon import releases
from lexicon.errors import LexiconError, NoRelease, ReleaseDamaged
from lexicon.paths import home
from lexicon.profile import Profile
from lexicon.store import Release

Stamp = tuple[int, int, int]
FULL_CHECK_EVERY = 0.05   # seconds between full size checks of a release in use
# (catalog id, game) -> the release pinned for the request running in this context
_PINNED: ContextVar[dict[tuple[int, str], Release] | None] = ContextVar("pinned", default=None)


class Catalog:
    def __init__(self, root: Path | None = None) -> None:
        self.root = root or home()
        self._current: dict[str, tuple[Stamp, Release]] = {}
        self._current_files: dict[str, str] = {}
        # every release this process has open, by directory: reused, never opened twice
        self._by_path: weakref.WeakValueDictionary[str, Release] = (
            weakref.WeakValueDictionary())
        self._lock = threading.Lock()
        # releases asked for by id ("valid as of edition X"), kept open: they are immutable
        self._by_id: dict[tuple[str, str], Release] = {}

    def profile(self, game: str) -> Profile:
        return profiles.load(game)

    def games(self) -> list[str]:
        return list(profiles.game_ids())

    def _current_stamp(self, game: str) -> Stamp:
        """Identifies one version of CURRENT: a publish replaces the file (a new inode)."""
        path = self._current_files.get(game)
        if path is None:        # a str, built once: pathlib per request cost more than stat
            path = self._current_files[game] = os.fspath(
                releases.game_dir(game, self.root) / releases.CURRENT)
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return (-1, -1, -1)
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def release(self, game: str, release_id: str | None = None) -> Release:
        """The current release of ``game``, or the published release ``release_id`` ("valid
        as of edition X"). NoRelease when none is built, ReleaseDamaged (a NoRelease) when
        CURRENT or the release fails its checks, UnknownRelease for an id that was never
        published."""
        if release_id is None:
            pinned = _PINNED.get()
            if pinned is not None and (id(self), game) in pinned:
                return pinned[id(self), game]
        self.profile(game)  # raises UnknownGame first
        if release_id is not None and release_id != releases.current_id(game, self.root):
            with self._lock:
                rel = self._by_id.get((game, release_id))
                if rel is None:
                    rel = self._open_path(game,
                                          releases.release_path(game, release_id, self.root))
                    self._by_id[(game, release_id)] = rel
            rel.check_sizes()
            return rel
        stamp = self._current_stamp(game)
        cached = self._current.get(game)
        if cached is None or cached[0] != stamp:
            with self._lock:
                cached = self._current.get(game)
                if cached is None or cached[0] != stamp:
                    cached = (stamp, self._open(game))
                    self._current[game] = cached
        rel = cached[1]
        try:
            rel.check_sizes(full=time.monotonic() - rel.checked_at > FULL_CHECK_EVERY)
        except ReleaseDamaged:
            with self._lock:
                if self._current.get(game) is cached:
                    del self._current[game]
            raise
        return rel

    def _open(self, game: str) -> Release:
        path = releases.current_path(game, self.root)
        if path is None:
            raise NoRelease(
                f"no release of {game!r} has been built; run `lexicon build {game}`",
                detail={"game": game},
            )
        return self._open_path(game, path)

    def _open_path(self, game: str, path: Path) -> Release:
        """The release in ``path``, opened once per process (the caller holds the lock)."""
        key = os.fspath(path)
        rel = self._by_path.get(key)
        if rel is None:
            rel = Release(path)
            if rel.game != game or rel.id != path.name:
                raise ReleaseDamaged(
                    f"{game}: the release directory {path.name} holds release {rel.id} of "
                    f"{rel.game}; not serving it",
                    detail={"game": game, "release": path.name})
            self._by_path[key] = rel
        return rel

    def release_or_none(self, game: str) -> Release | None:
        try:
            return self.release(game)
        except NoRelease:
            return None

    @contextmanager
    def pinned(self, game: str, release_id: str | None = None) -> Iterator[Release]:
        """Within the block, ``release(game)`` is this one release (the current one, or
        ``release_id``), in this thread or task only: a request judges every word with, and
        labels its answer with, one release."""
        rel = self.release(game, release_id)
        rel.check_sizes()   # every mapped file: a batch or query may read any of them
        token = _PINNED.set({**(_PINNED.get() or {}), (id(self), game): rel})
        try:
            yield rel
        finally:
            _PINNED.reset(token)

    def state(self, game: str) -> dict[str, Any]:
        """What a game serves, for ``/healthz``: ``serving`` (with ``queries``: ``ok`` or the
        index error), ``no_release`` or ``damaged`` (with the error)."""
        try:
            rel = self.release(game)
        except ReleaseDamaged as exc:
            return {"state": "damaged", "release": None, "error": exc.to_json()}
        except NoRelease as exc:
            return {"state": "no_release", "release": None, "error": exc.to_json()}
        out: dict[str, Any] = {"state": "serving", "release": rel.id, "queries": "ok"}
        try:
            rel.indexes  # noqa: B018  (maps the tries: a failure is reported, not raised)
        except LexiconError as exc:
            out["queries"] = exc.code
            out["error"] = exc.to_json()
        return out

    def close(self) -> None:
        with self._lock:
            for _, rel in self._current.values():
                rel.close()
            self._current.clear()
            for rel in self._by_id.values():
                rel.close()
            self._by_id.clear()
            self._by_path.clear()
