"""Which games a running build has still to publish, so that a server can say so.

A fresh machine builds its games one after another for many minutes, and a server started
meanwhile serves each game as soon as its first release is published (the catalog re-reads
``CURRENT``). A game not published yet must then answer "being built, expected about
HH:MM", not "no release has been built; run `lexicon build`", which would send the user to
start a second build. So ``lexicon build`` announces every game of its plan before it starts
(:func:`announce`, a small JSON file ``releases/<game>/.building``) and withdraws each
announcement when that game is published or its build fails.

An announcement counts only while the build that wrote it holds the game's announcement
lock (``releases/<game>/.building.lock``, an ``flock`` taken before the file is written and
kept until it is withdrawn). The kernel drops an ``flock`` when its holder dies, however it
dies, so a build killed before it could withdraw leaves a file that is read as no
announcement at all (the game is then ``no_release`` again), even when its recorded pid now
names another live process (pids are reused; in a container the build may be pid 1). The
pid in the file is only for the message. The same lock makes an announcement its owner's:
a second build of a game already announced is refused (:class:`~lexicon.errors.BuildBusy`)
before it writes anything, and only the process holding the lock withdraws the file.
Reading one is a small file read and a non-blocking shared ``flock`` probe, made only for a
game that has no release, so it costs the hot path nothing.
"""

from __future__ import annotations

import fcntl
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.errors import BuildBusy
from lexicon.paths import releases_dir

MARKER = ".building"
LOCK = ".building.lock"

#: The announcement locks this process holds: lock file path -> open descriptor.
_held: dict[Path, int] = {}


def _forget_in_child() -> None:
    """A forked child (a judging worker, an index writer) closes its copies of the locks:
    a build's announcements must end with the build, not with its last child."""
    for fd in _held.values():
        os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_forget_in_child)


def _path(game: str, root: Path | None) -> Path:
    return releases_dir(root) / game / MARKER


def _lock_path(game: str, root: Path | None) -> Path:
    return (releases_dir(root) / game / LOCK).absolute()


def _take(game: str, root: Path | None) -> None:
    """Hold the announcement lock of ``game`` for this process (again: nothing to do), or
    refuse: another live build announced it."""
    lock = _lock_path(game, root)
    if lock in _held:
        return
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = (_read(_path(game, root)) or {}).get("pid", "?")
        raise BuildBusy(f"another build of {game} is running (pid {holder}); wait for it to "
                        "finish", detail={"game": game, "pid": holder}) from None
    _held[lock] = fd


def announce(game: str, root: Path | None, *, started_at: datetime, expected_at: datetime,
             position: int, of: int) -> None:
    """Say that this process will build ``game`` (the ``position``-th of ``of`` games),
    expected to be published at ``expected_at``; said again, the expectation is renewed.
    Raises BuildBusy, touching nothing, when another live build has announced it."""
    _take(game, root)
    atomic.write_text(_path(game, root), json.dumps({
        "pid": os.getpid(), "started_at": started_at.isoformat(timespec="seconds"),
        "expected_at": expected_at.isoformat(timespec="seconds"),
        "position": position, "of": of}) + "\n")


def withdraw(game: str, root: Path | None) -> None:
    """This process no longer builds ``game`` (published, failed or skipped). Only the
    process that announced it withdraws: from any other (a refused second build) this does
    nothing."""
    fd = _held.pop(_lock_path(game, root), None)
    if fd is None:
        return
    try:
        _path(game, root).unlink(missing_ok=True)
    finally:
        os.close(fd)     # releases the lock, after the file is gone


def _read(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _held_by_a_live_build(game: str, root: Path | None) -> bool:
    """Does some live process hold the announcement lock of ``game``? (A shared lock taken
    here would conflict with it; one that is granted is released at once.)"""
    try:
        fd = os.open(_lock_path(game, root), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


def in_progress(game: str, root: Path | None = None) -> dict[str, Any] | None:
    """The live announcement of a build that will publish ``game`` (``pid``,
    ``started_at``, ``expected_at``, ``position``, ``of``), or None."""
    found = _read(_path(game, root))
    if found is None or not _held_by_a_live_build(game, root):
        return None
    return found


def expected_text(found: dict[str, Any]) -> str:
    """"about 02:45 UTC (in 12 min)", from an announcement, for a person."""
    try:
        at = datetime.fromisoformat(str(found["expected_at"]))
    except (KeyError, ValueError):
        return "at an unknown time"
    left = (at - datetime.now(UTC)).total_seconds()
    when = f"about {at.astimezone(UTC):%H:%M} UTC"
    if left <= 0:
        return when + " (overdue: it is still running)"
    return when + (f" (in {left / 60:.0f} min)" if left >= 90 else f" (in {left:.0f} s)")
