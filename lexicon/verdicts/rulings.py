"""The referee's record: every ruling on a play, one JSON line each, one file per UTC day.

A disputed ruling can be shown later exactly as it was given: the words, the verdict and the
release that gave it (``lexicon check --release`` can then say which word fell). Several
server workers and CLI runs append to the same file, so each line is written with a single
``write`` on a descriptor opened ``O_APPEND`` while holding an exclusive ``flock``: lines
never interleave and none is lost.

A ruling that cannot be recorded is not given (:class:`RulingsUnavailable`, 503, CLI exit
3): the log is what makes a verdict answerable later, and a referee must neither get a
silent unlogged ruling nor read a failure as "the play falls". The lock is waited for at
most :data:`LOCK_TIMEOUT` seconds (an append holds it for microseconds; a holder that keeps
it longer is stuck), polled without blocking, so a stuck holder costs a ruling, never the
process. A line cut short (a full disk, a killed writer) never swallows the next ruling:
each append starts on a fresh line, and a failed append removes its own partial line.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import json
import os
import re
import time
from pathlib import Path
from typing import Any, NamedTuple

from lexicon.errors import InputError, RulingsUnavailable
from lexicon.paths import rulings_dir

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
LOCK_TIMEOUT = 2.0    # seconds a ruling waits for the log's lock before it is refused
#: the fields every ruling line has; a line without them is damaged
FIELDS = {"time": str, "game": str, "release": str, "verdict": str, "words": list}


def log_path(day: dt.date, root: Path | None = None) -> Path:
    return rulings_dir(root) / f"{day.isoformat()}.jsonl"


def _unavailable(path: Path, exc: OSError | None, why: str | None = None) -> RulingsUnavailable:
    name = errno.errorcode.get(exc.errno or 0, "error") if exc is not None else "ETIMEDOUT"
    reason = why or (exc.strerror if exc is not None and exc.strerror else str(exc))
    return RulingsUnavailable(
        f"the ruling cannot be recorded in {path} ({reason}); no ruling was given: repair "
        f"the rulings log (or point LEXICON_RULINGS elsewhere) and ask again",
        detail={"errno": name})


class LockHeld(RulingsUnavailable):
    """The log's lock was not free by the deadline. A caller that tried once without
    waiting (``deadline=0``, the service on its event loop) may try again off the loop."""


def _lock(fd: int, path: Path, deadline: float) -> None:
    """An exclusive ``flock`` on ``fd`` by ``deadline`` (time.monotonic), polled, or
    RulingsUnavailable: a blocking flock would wait on a stuck holder for ever."""
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                held = _unavailable(path, None, f"its lock was held for more than "
                                                f"{LOCK_TIMEOUT:g} s by another writer")
                raise LockHeld(held.message, detail=held.detail) from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)


def _write_line(fd: int, data: bytes) -> None:
    """Append ``data`` (the caller holds the lock) on a fresh line; on failure take back
    what was written, so a full disk leaves no half line behind."""
    size = os.fstat(fd).st_size
    if size and os.pread(fd, 1, size - 1) != b"\n":
        data = b"\n" + data      # the last line was cut short: never glue onto it
    view = memoryview(data)
    try:
        while view:              # a regular file takes it all at once; loop to be sure
            view = view[os.write(fd, view):]
    except OSError:
        with contextlib.suppress(OSError):   # if not, the next append starts a fresh line
            os.ftruncate(fd, size)
        raise


def append(entry: dict[str, Any], *, root: Path | None = None,
           now: dt.datetime | None = None, deadline: float | None = None) -> dict[str, Any]:
    """Append one ruling (``time`` is added, UTC) and return the line as written.

    Raises RulingsUnavailable when it cannot be written whole, or when the lock is not
    free by ``deadline`` (time.monotonic; default: :data:`LOCK_TIMEOUT` from now)."""
    deadline = time.monotonic() + LOCK_TIMEOUT if deadline is None else deadline
    now = now or dt.datetime.now(dt.UTC)
    line = {"time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"), **entry}
    path = log_path(now.date(), root)
    data = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    except (FileExistsError, NotADirectoryError) as exc:    # a file where a directory goes
        raise _unavailable(path, exc, "a file stands where its directory should be") from exc
    except OSError as exc:
        raise _unavailable(path, exc) from exc
    try:
        _lock(fd, path, deadline)
        try:
            _write_line(fd, data)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError as exc:
        raise _unavailable(path, exc) from exc
    finally:
        os.close(fd)
    return line


def parse_date(text: str | None) -> dt.date:
    """``YYYY-MM-DD`` (UTC day), or today; raises InputError ``bad_date`` otherwise."""
    if text is None:
        return dt.datetime.now(dt.UTC).date()
    try:
        if not DATE_RE.match(text):
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"{text!r} is not a date; use YYYY-MM-DD", code="bad_date") from None


class DayLog(NamedTuple):
    rulings: list[dict[str, Any]]
    damaged: list[int]      # line numbers (1-based) of the lines that could not be read


def _ruling(raw: bytes) -> dict[str, Any] | None:
    """The ruling on one line, or None when the line is damaged: not UTF-8 (cut inside a
    character), not JSON (cut short, or two lines glued by an older writer), not a ruling's
    fields, or text no face could print (an escaped lone surrogate)."""
    try:
        row = json.loads(raw.decode("utf-8"))
        if not isinstance(row, dict) or not all(isinstance(row.get(k), t)
                                                for k, t in FIELDS.items()):
            return None
        json.dumps(row, ensure_ascii=False).encode()   # no lone surrogate ("\\ud800")
    except (UnicodeError, json.JSONDecodeError):
        return None
    return row


def scan(day: dt.date, root: Path | None = None) -> DayLog:
    """The rulings of one UTC day, oldest first, and the damaged lines skipped.

    The file is read as bytes and decoded line by line, so one damaged line (a disk that
    filled up mid-line) hides neither the rest of the day nor the count of what was lost.
    A log that cannot be read at all is RulingsUnavailable; a day without rulings is empty.
    """
    path = log_path(day, root)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return DayLog([], [])
    except OSError as exc:     # not a directory, a directory for a day, unreadable
        raise RulingsUnavailable(
            f"the rulings log {path} cannot be read ({exc.strerror})",
            detail={"errno": errno.errorcode.get(exc.errno or 0, "error")}) from exc
    out: list[dict[str, Any]] = []
    damaged: list[int] = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        row = _ruling(raw)
        if row is None:
            damaged.append(n)
        else:
            out.append(row)
    return DayLog(out, damaged)


def read(day: dt.date, root: Path | None = None) -> list[dict[str, Any]]:
    """The readable rulings of one UTC day, oldest first (damaged lines skipped: see
    :func:`scan` for their count)."""
    return scan(day, root).rulings
