"""The referee's record: every ruling on a play, one JSON line each, one file per UTC day.

A disputed ruling can be shown later exactly as it was given: the words, the verdict and the
release that gave it (``lexicon check --release`` can then say which word fell). Several
server workers and CLI runs append to the same file, so each line is written with a single
``write`` on a descriptor opened ``O_APPEND`` while holding an exclusive ``flock``: lines
never interleave and none is lost.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import re
from pathlib import Path
from typing import Any

from lexicon.errors import InputError
from lexicon.paths import rulings_dir

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def log_path(day: dt.date, root: Path | None = None) -> Path:
    return rulings_dir(root) / f"{day.isoformat()}.jsonl"


def append(entry: dict[str, Any], *, root: Path | None = None,
           now: dt.datetime | None = None) -> dict[str, Any]:
    """Append one ruling (``time`` is added, UTC) and return the line as written."""
    now = now or dt.datetime.now(dt.UTC)
    line = {"time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"), **entry}
    path = log_path(now.date(), root)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            view = memoryview(data)
            while view:             # a regular file takes it all at once; loop to be sure
                view = view[os.write(fd, view):]
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
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


def read(day: dt.date, root: Path | None = None) -> list[dict[str, Any]]:
    """The rulings of one UTC day, oldest first (empty if none was given that day).

    A line that cannot be read (a disk filled up mid-line) is kept as ``{"unreadable": ...}``
    rather than hiding the rest of the day.
    """
    path = log_path(day, root)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            out.append(json.loads(raw))
        except json.JSONDecodeError:
            out.append({"unreadable": raw, "line": n})
    return out
