"""The games and their current releases, opened on demand.

A :class:`Catalog` is what the CLI and the service hold: it resolves a game id to its
profile and to the release that ``CURRENT`` names. When a new release is published while a
server runs, the next request sees it (the ``CURRENT`` file is re-read when it changes), and
requests already under way keep reading the release they started with.
"""

from __future__ import annotations

import os
from pathlib import Path

from lexicon import profile as profiles
from lexicon import releases
from lexicon.errors import NoRelease
from lexicon.paths import home
from lexicon.profile import Profile
from lexicon.store import Release


class Catalog:
    def __init__(self, root: Path | None = None) -> None:
        self.root = root or home()
        self._open: dict[str, tuple[float, Release]] = {}
        self._pinned: dict[tuple[str, str], Release] = {}   # releases are immutable

    def profile(self, game: str) -> Profile:
        return profiles.load(game)

    def games(self) -> list[str]:
        return list(profiles.game_ids())

    def _current_stamp(self, game: str) -> float:
        try:
            return os.stat(releases.game_dir(game, self.root) / releases.CURRENT).st_mtime_ns
        except FileNotFoundError:
            return -1.0

    def release(self, game: str, release_id: str | None = None) -> Release:
        """The current release of ``game``, or the published release ``release_id`` ("valid
        as of edition X"); raises NoRelease when none is built, UnknownRelease for an id
        that was never published."""
        self.profile(game)  # raises UnknownGame first
        if release_id is not None and release_id != releases.current_id(game, self.root):
            pinned = self._pinned.get((game, release_id))
            if pinned is None:
                pinned = Release(releases.release_path(game, release_id, self.root))
                self._pinned[(game, release_id)] = pinned
            return pinned
        stamp = self._current_stamp(game)
        cached = self._open.get(game)
        if cached and cached[0] == stamp:
            return cached[1]
        path = releases.current_path(game, self.root)
        if path is None:
            raise NoRelease(
                f"no release of {game!r} has been built; run `lexicon build {game}`",
                detail={"game": game},
            )
        rel = Release(path)
        self._open[game] = (stamp, rel)
        return rel

    def release_or_none(self, game: str) -> Release | None:
        try:
            return self.release(game)
        except NoRelease:
            return None

    def close(self) -> None:
        for _, rel in self._open.values():
            rel.close()
        self._open.clear()
        for rel in self._pinned.values():
            rel.close()
        self._pinned.clear()
