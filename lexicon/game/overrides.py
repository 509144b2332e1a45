"""The overrides file's lines: read (:func:`read_overrides`, what ``lexicon amend`` takes)
and written (:func:`line`, :func:`comment`, what ``lexicon audit apply`` makes) in one
place, so a file the project writes is always one that ``amend`` reads back as written.

A line is ``word``, ``add`` or ``remove``, and the reason (required: it is what a referee
reads), tab-separated; ``#`` starts a comment line; lines end at ``\\n`` (or ``\\r\\n``)
only. A word or reason holding a control or invisible character is refused: a NUL would
reach the key trie, and a referee cannot read what they cannot see. The writer takes human
text (a reason, a comment) as a sheet's note or file name gives it: its tabs and line
breaks become spaces and its control and invisible characters are dropped, so no text can
start a line of its own; a word it cannot write as it is, it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon.errors import InputError
from lexicon.game.inputs import refused
from lexicon.userfile import read_lines

ACTIONS = ("add", "remove")
#: Where an override came from, as a release's ``overrides.jsonl`` records it: the reviewed
#: file kept with the sources, or a maintainer's ``amend`` (kept by every rebuild).
REVIEWED, AMENDED = "reviewed", "amend"


@dataclass(frozen=True)
class Override:
    word: str
    action: str
    reason: str
    line: int = 0
    origin: str = AMENDED

    def to_json(self, key: str) -> dict[str, Any]:
        return {"word": self.word, "key": key, "action": self.action, "reason": self.reason,
                "origin": self.origin}


class OverridesError(InputError):
    """An overrides file line that cannot be applied (the line number says which)."""

    code = "bad_overrides"


def parse(raw: str, n: int = 0, name: str = "") -> Override | None:
    """One line of an overrides file (None: a blank or comment line); ``OverridesError``
    naming ``name:n`` when it is none."""
    line = raw.strip()
    if not line or line.startswith("#"):
        return None
    where = {"file": name, "line": n}
    parts = [p.strip() for p in raw.split("\t")]
    if len(parts) != 3 or not all(parts):
        raise OverridesError(
            f"{name}:{n}: expected three tab-separated fields: word, add|remove, reason",
            detail=where)
    word, action, reason = parts
    if any(map(refused, word + reason)):
        raise OverridesError(f"{name}:{n}: a control or invisible character", detail=where)
    if action not in ACTIONS:
        raise OverridesError(f"{name}:{n}: action {action!r} is not add or remove",
                             detail=where)
    return Override(word, action, reason, n)


def read_overrides(path: Path) -> list[Override]:
    """Parse an overrides TSV; every problem is reported with its line number."""
    lines = read_lines(path, OverridesError, "an overrides file (TSV)")
    return [ov for n, raw in enumerate(lines, 1) if (ov := parse(raw, n, str(path)))]


def text(value: object) -> str:
    """Human text as one field of a line: white space runs (tabs, line breaks of any kind)
    as one space, control and invisible characters dropped."""
    return " ".join("".join(c for c in str(value or "") if not refused(c) or c.isspace())
                    .split())


def line(word: str, action: str, reason: str) -> str:
    """The line (with its ``\\n``) of one override, which :func:`parse` reads back as
    ``word``, ``action`` and :func:`text` of ``reason``; a word or action it could not
    be is ``OverridesError``."""
    out = f"{word}\t{action}\t{text(reason)}"
    try:
        got = parse(out)
    except OverridesError as exc:
        raise OverridesError(f"{word!r} cannot be written as an override: "
                             f"{exc.message.removeprefix(':0: ')}", detail={"word": word}) \
            from None
    if got is None or (got.word, got.action) != (word, action):
        raise OverridesError(f"{word!r} cannot be written as an override (a word with "
                             "white space at its ends, or a comment)", detail={"word": word})
    return out + "\n"


def comment(value: object) -> str:
    """A comment line (with its ``\\n``) of :func:`text` of ``value``."""
    return f"# {text(value)}\n"
