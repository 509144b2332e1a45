"""Which games a running build has still to publish, so that a server can say so.

A fresh machine builds its games one after another for many minutes, and a server started
meanwhile serves each game as soon as its first release is published (the catalog re-reads
``CURRENT``). A game not published yet must then answer "being built, expected about
HH:MM", not "no release has been built; run `lexicon build`", which would send the user to
start a second build. So ``lexicon build`` announces every game of its plan before it starts
(:func:`announce`, a small JSON file ``releases/<game>/.building``) and withdraws each
announcement when that game is published or its build fails.

An announcement counts only while the process that wrote it lives: a build killed before it
could withdraw leaves a file whose pid is gone, which is read as no announcement at all
(the game is then ``no_release`` again). Reading one is a small file read and a
``kill(pid, 0)``, made only for a game that has no release, so it costs the hot path
nothing.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.paths import releases_dir

MARKER = ".building"


def _path(game: str, root: Path | None) -> Path:
    return releases_dir(root) / game / MARKER


def announce(game: str, root: Path | None, *, started_at: datetime, expected_at: datetime,
             position: int, of: int) -> None:
    """Say that this process will build ``game`` (the ``position``-th of ``of`` games),
    expected to be published at ``expected_at``."""
    path = _path(game, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, json.dumps({
        "pid": os.getpid(), "started_at": started_at.isoformat(timespec="seconds"),
        "expected_at": expected_at.isoformat(timespec="seconds"),
        "position": position, "of": of}) + "\n")


def withdraw(game: str, root: Path | None) -> None:
    """This process no longer builds ``game`` (published, failed or skipped); an
    announcement another live build wrote since is left alone."""
    path = _path(game, root)
    found = _read(path)
    if found is not None and found.get("pid") == os.getpid():
        path.unlink(missing_ok=True)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:       # alive, another user's
        return True
    return True


def in_progress(game: str, root: Path | None = None) -> dict[str, Any] | None:
    """The live announcement of a build that will publish ``game`` (``pid``,
    ``started_at``, ``expected_at``, ``position``, ``of``), or None."""
    found = _read(_path(game, root))
    if found is None or not _alive(found.get("pid")):
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
