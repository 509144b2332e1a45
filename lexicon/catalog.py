"""The games and their current releases, opened on demand as :class:`~lexicon.lexicon.Lexicon`
objects.

A :class:`Catalog` is one ``LEXICON_HOME`` as the CLI and the service hold it: it resolves a
game id to its profile and to the release that ``CURRENT`` names, and hands out that
release's :class:`~lexicon.lexicon.Lexicon` (:meth:`Catalog.lexicon`), which is what a face
asks its questions of. When a new release is published while a server runs, the next
request gets the new release's Lexicon (the ``CURRENT`` file is re-read when it changes);
a request already under way keeps the Lexicon it took, so a publish in the middle of it
changes neither its verdicts nor its label. One game whose release is damaged raises
``release_damaged`` for that game alone; a game with no release yet that a running build
has announced (:mod:`lexicon.store.announcements`) raises ``not_ready`` (503) saying when it is
expected, and serves from the first request after its publish.

Many threads ask at once (a server's thread pool), so opening is serialised by a lock and
each release directory is opened at most once per process, its Lexicon made once with it
(no per-request objects): LMDB refuses a second open of one environment in a process.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon import paths
from lexicon.errors import (
    Building,
    LexiconError,
    NoRelease,
    OutOfDescriptors,
    ReleaseDamaged,
    out_of_descriptors,
)
from lexicon.export import offline
from lexicon.game import profile as profiles
from lexicon.game.profile import Profile
from lexicon.lexicon import Lexicon
from lexicon.paths import home
from lexicon.readiness import readiness
from lexicon.store import announcements, integrity, leases, published
from lexicon.store.release import Release

if TYPE_CHECKING:
    import datetime as dt

    from lexicon.verdicts.rulings import DayLog

Stamp = tuple[int, int, int]
FULL_CHECK_EVERY = 0.05   # seconds between full size checks of a release in use
#: releases asked for by id (``?release=``) kept open at once, the most recently used: each
#: holds about ten file descriptors, and ids are many
OPEN_BY_ID = 8
#: releases pushed out of those that may still be waiting to be closed (each closes once
#: the requests that may read it have ended): an open by id past them waits for one
CLOSING_BY_ID = OPEN_BY_ID // 2
#: the longest an open by id waits for an evicted release to close before it is refused
#: (``out_of_descriptors``, retryable)
CLOSE_WAIT_SECONDS = 5.0
CLOSE_RETRY_SECONDS = 0.5   # how often an evicted release still read by a pack's maker is
                            # looked at again before it is closed


class Catalog:
    """One ``LEXICON_HOME``: its games, their releases (as Lexicons), its rulings log."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or home()
        self._current: dict[str, tuple[Stamp, Lexicon]] = {}
        self._current_files: dict[str, str] = {}
        # every release this process has open, by directory: reused, never opened twice
        self._by_path: weakref.WeakValueDictionary[str, Lexicon] = (
            weakref.WeakValueDictionary())
        self._lock = threading.Lock()
        # releases asked for by id ("valid as of edition X"), the most recently used kept
        # open (they are immutable); one evicted is closed once no request can be reading it
        self._by_id: OrderedDict[tuple[str, str], Lexicon] = OrderedDict()
        self._adopted: dict[tuple[str, str], int] = {}    # times each id was taken in
        self._closer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="release-closer")
        self._closing = 0                                 # evicted, not yet closed
        self._closed = threading.Condition(self._lock)    # told when one is

    def profile(self, game: str) -> Profile:
        return profiles.load(game)

    def games(self) -> list[str]:
        return list(profiles.game_ids())

    def _current_stamp(self, game: str) -> Stamp:
        """Identifies one version of CURRENT: a publish replaces the file (a new inode)."""
        path = self._current_files.get(game)
        if path is None:        # a str, built once: pathlib per request cost more than stat
            path = self._current_files[game] = os.fspath(
                published.game_dir(game, self.root) / published.CURRENT)
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return (-1, -1, -1)
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def lexicon(self, game: str, release_id: str | None = None, *,
                every_file: bool = False, wait: bool = True) -> Lexicon:
        """The :class:`~lexicon.lexicon.Lexicon` of the current release of ``game``, or of the
        published release ``release_id`` ("valid as of edition X"): made once per release
        and cached, so asking on every request costs a ``stat`` of ``CURRENT`` (and of the
        store, where the release holds no read lease: :meth:`Release.check_sizes`).
        ``every_file`` checks the size of every file the release maps (a batch or a
        query may read any of them), not just the store's. NoRelease when none is built,
        ReleaseDamaged (a NoRelease) when CURRENT or the release fails its checks,
        UnknownRelease for an id that was never published. Opening a release by id may
        wait for evicted ones to close (:meth:`_by_id_lexicon`): ``wait=False`` (an event
        loop's thread) refuses at once instead, with the ``out_of_descriptors`` a wait
        that timed out would end in."""
        self.profile(game)  # raises UnknownGame first
        if release_id is not None and release_id != published.current_id(game, self.root):
            lex = self._by_id_lexicon(game, release_id, wait)
            lex.release.check_sizes()
            return lex
        stamp = self._current_stamp(game)
        cached = self._current.get(game)
        if cached is None or cached[0] != stamp:
            with self._lock:
                cached = self._current.get(game)
                if cached is None or cached[0] != stamp:
                    cached = (stamp, self._open(game))
                    self._current[game] = cached
        lex = cached[1]
        rel = lex.release
        try:
            rel.check_sizes(full=every_file
                            or time.monotonic() - rel.checked_at > FULL_CHECK_EVERY)
        except ReleaseDamaged:
            with self._lock:
                if self._current.get(game) is cached:
                    del self._current[game]
            raise
        return lex

    def _by_id_lexicon(self, game: str, release_id: str, wait: bool) -> Lexicon:
        """The Lexicon of a release asked for by id, the most recently used
        :data:`OPEN_BY_ID` of them kept open: the one pushed out is closed by
        :meth:`_close_evicted`, never under a request that is reading it. The closing is
        bounded too: with :data:`CLOSING_BY_ID` pushed out and not yet closed, opening
        another waits (``wait``) until one is, so a burst of ids cannot outrun the
        closings and run the process out of descriptors."""
        key = (game, release_id)
        with self._lock:
            while True:     # again after a wait: taken in meanwhile, or room now
                lex = self._by_id.get(key)
                if lex is not None and self._usable(lex):
                    self._by_id.move_to_end(key)
                    return lex
                if self._room_to_open(game, release_id, wait):
                    break
            lex = self._open_path(game, published.release_path(game, release_id, self.root))
            self._by_id[key] = lex
            self._adopted[key] = self._adopted.get(key, 0) + 1
            while len(self._by_id) > OPEN_BY_ID:
                self._evict()
        return lex

    def _room_to_open(self, game: str, release_id: str, wait: bool) -> bool:
        """True when one more release may be opened by id now; else wait (the caller holds
        the lock, which the wait lets go) until an evicted one is closed, and False: the
        caller looks again. Refused (``out_of_descriptors``) when the closings do not
        catch up within :data:`CLOSE_WAIT_SECONDS`, or at once without ``wait``."""
        if len(self._by_id) < OPEN_BY_ID or self._closing < CLOSING_BY_ID:
            return True
        if wait and self._closed.wait_for(lambda: self._closing < CLOSING_BY_ID,
                                          CLOSE_WAIT_SECONDS):
            return False
        raise OutOfDescriptors(
            f"{game}: {self._closing} releases asked for by id are still being closed, and "
            f"release {release_id} waits for them; ask again in "
            f"{OutOfDescriptors.retry_after} s",
            detail={"game": game, "release": release_id, "closing": self._closing})

    def _evict(self) -> None:
        """Push the least recently used release out of those opened by id (the caller
        holds the lock), to be closed once the reads that may have begun before now end."""
        key, lex = self._by_id.popitem(last=False)
        self._closing += 1
        self._closer.submit(self._close_evicted, key, lex, self._adopted[key],
                            leases.reads_under_way())

    def _close_evicted(self, key: tuple[str, str], lex: Lexicon, adopted: int,
                       reads: Callable[[float], None]) -> None:
        """Close a release evicted from the releases opened by id, once every request that
        may have taken it has ended (``reads``: those under way when it was evicted,
        :func:`lexicon.store.leases.reads_under_way`) and no offline pack of it is being
        made, unless it was taken in again meanwhile or is a game's current release (one
        Lexicon a release)."""
        reads(leases.QUIESCE_SECONDS)
        if offline.making(lex.release):      # read by a pack's maker: asked again later
            time.sleep(CLOSE_RETRY_SECONDS)
            self._closer.submit(self._close_evicted, key, lex, adopted, reads)
            return
        with self._lock:
            self._closing -= 1
            self._closed.notify_all()
            if (self._adopted.get(key) != adopted or key in self._by_id
                    or any(cur is lex for _stamp, cur in self._current.values())):
                return
            # the closings run in order: none still waiting can be for an older taking
            del self._adopted[key]
            path = os.fspath(lex.release.path)
            if self._by_path.get(path) is lex:
                del self._by_path[path]
            lex.release.close()

    def release(self, game: str, release_id: str | None = None) -> Release:
        """The store of :meth:`lexicon` (builders, tools and tests read it directly)."""
        return self.lexicon(game, release_id).release

    def _open(self, game: str) -> Lexicon:
        path = published.current_path(game, self.root)
        if path is None:
            announced = announcements.in_progress(game, self.root)
            if announced is not None:
                raise Building(
                    f"{game} is still being built (game {announced.get('position')} of "
                    f"{announced.get('of')} of the build running as pid "
                    f"{announced['pid']}); expected {announcements.expected_text(announced)}. "
                    f"It answers as soon as its release is published",
                    detail={"game": game, "state": "building",
                            "expected_at": announced.get("expected_at")})
            raise NoRelease(
                f"no release of {game!r} has been built in {paths.where(self.root)}; run "
                f"`lexicon build {game}`, or set LEXICON_HOME to the data directory that "
                f"holds the releases", detail={"game": game},
            )
        return self._open_path(game, path)

    def _open_path(self, game: str, path: Path) -> Lexicon:
        """The Lexicon of the release in ``path``, opened once per process (the caller
        holds the lock)."""
        key = os.fspath(path)
        lex = self._by_path.get(key)
        if lex is None or not self._usable(lex):
            try:
                rel = Release(path)
            except (LexiconError, OSError) as exc:
                if out_of_descriptors(exc):     # of this process: the release is not damaged
                    raise integrity.descriptors_exhausted(path) from exc
                raise
            if rel.game != game or rel.id != path.name:
                raise ReleaseDamaged(
                    f"{game}: the release directory {path.name} holds release {rel.id} of "
                    f"{rel.game}; not serving it",
                    detail={"game": game, "release": path.name})
            lex = Lexicon(self.profile(game), rel, self.root, opener=self._opener(game))
            self._by_path[key] = lex
        return lex

    @staticmethod
    def _usable(lex: Lexicon) -> bool:
        """May ``lex`` still be handed out? Not once its release was condemned and then
        verified again (:func:`lexicon.store.integrity.verify_condemned`): it is opened
        afresh, on the files as they are now."""
        return not lex.release.condemned or bool(integrity.known_damage(lex.release.path))

    def reverify(self, game: str) -> bool:
        """Hash the current release of ``game`` again if it was condemned and its files
        changed since (:func:`lexicon.store.integrity.verify_condemned`): True when it
        verifies now and so serves again."""
        try:
            path = published.current_path(game, self.root)
        except LexiconError:
            return False
        return path is not None and integrity.verify_condemned(path)

    def _opener(self, game: str) -> Callable[[str], Lexicon]:
        """How a Lexicon of ``game`` opens another of its releases (diff's older one):
        through this catalog, which holds each release open once. Weak: the catalog caches
        its Lexicons, and a cycle would keep closed releases open until a collection."""
        ref, root = weakref.ref(self), self.root

        def open_release(release_id: str) -> Lexicon:
            return (ref() or Catalog(root)).lexicon(game, release_id)

        return open_release

    def release_or_none(self, game: str) -> Release | None:
        try:
            return self.release(game)
        except NoRelease:
            return None

    def state(self, game: str) -> dict[str, Any]:
        """What a game serves, for ``/healthz``: ``serving`` (with ``queries``: ``ok`` or the
        index error), ``building`` (no release yet, a running build will publish one; with
        ``expected_at``), ``no_release`` or ``damaged`` (with the error)."""
        try:
            rel = self.release(game)
        except Building as exc:
            return {"state": "building", "release": None,
                    "expected_at": exc.detail.get("expected_at"), "error": exc.to_json()}
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

    def guard(self, game: str) -> str | None:
        """How a file of the game's served release shrinking under this process is kept
        from faulting a read (:attr:`Release.guard`: ``lease`` or ``size_checks``); None
        when it serves none."""
        rel = self.release_or_none(game) if game in self._current else None
        return rel.guard if rel is not None else None

    # -- what a face asks of the home, not of one release -----------------------------------

    def current_id(self, game: str) -> str | None:
        """The id ``CURRENT`` names for ``game`` (None before its first build); opens
        nothing, so it answers for a damaged release too."""
        return published.current_id(game, self.root)

    def releases(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every published release (of ``game``, or of every game), newest first, with
        counts; ``current`` marks the served one. UnknownGame for an unknown ``game``."""
        if game is not None:
            self.profile(game)
        return published.list_releases(game, self.root)

    def verify(self, game: str) -> dict[str, Any]:
        """The current release of ``game`` checked against its manifest (every file's size
        and sha256), without opening it: ``{"state": "ok", ...}`` with the counts, or
        ``{"game", "state": "no_release"}``; ReleaseDamaged (or another LexiconError) when
        it is not whole."""
        from lexicon.store.integrity import verify_release

        self.profile(game)
        path = published.current_path(game, self.root)
        if path is None:
            return {"game": game, "state": "no_release"}
        return {"state": "ok", **verify_release(path)}

    def audit_sheets(self, game: str | None = None) -> list[dict[str, Any]]:
        """The audit sheets under ``audits/`` (of ``game``): size, labels, the release
        each was drawn from (:mod:`lexicon.audit.sheets`)."""
        from lexicon.audit import sheets

        if game is not None:
            self.profile(game)
        return sheets.listing(self.root, game)

    def audit_game(self, names: list[str]) -> str:
        """The game of the audit sheets named (paths, or names under ``audits/``): they
        must be of one; ``bad_audit_sheet`` otherwise."""
        from lexicon.audit import sheets

        game = sheets.load(self.root, names)[0].game
        self.profile(game)
        return game

    def readiness(self) -> dict[str, Any]:
        """May a load balancer send requests? (:func:`lexicon.readiness.readiness`)"""
        return readiness(self)

    def rulings(self, date: str | None = None) -> tuple[dt.date, DayLog]:
        """The UTC day ``date`` (``YYYY-MM-DD``, default today; ``bad_date`` otherwise) and
        the rulings logged in this home that day, with the damaged lines skipped."""
        from lexicon.verdicts import rulings

        day = rulings.parse_date(date)
        return day, rulings.scan(day, self.root)

    def close(self) -> None:
        with self._lock:
            for _, lex in self._current.values():
                lex.release.close()
            self._current.clear()
            for lex in self._by_id.values():
                lex.release.close()
            self._by_id.clear()
            self._by_path.clear()


#: one Catalog per home for :func:`open`: one open handle per release per process
_SHARED: dict[Path, Catalog] = {}
_SHARED_LOCK = threading.Lock()


def open(game: str, release: str | None = None, *, root: Path | None = None) -> Lexicon:
    """The :class:`~lexicon.lexicon.Lexicon` of ``game``'s current release in ``root`` (default
    ``$LEXICON_HOME``), or of the published release ``release``. Calls share one Catalog per
    home, so a process holds each release open once."""
    where = Path(root or home()).resolve()
    with _SHARED_LOCK:
        catalog = _SHARED.get(where)
        if catalog is None:
            catalog = _SHARED[where] = Catalog(where)
    return catalog.lexicon(game, release)
