"""Readers for plain word lists and reviewed exclusion/inclusion lists.

Both formats are deliberately language-neutral: every language source in the
compiler (Polish ``wpolish``, every game's reviewed lists in ``sources/lists``)
goes through these readers, so that normalisation (Unicode NFC, whitespace,
comments) happens in exactly one place.  Word games compare words letter by
letter, so two spellings of the same letter (``"ó"`` precomposed versus
``"o"`` + combining acute) must never become two different words; hence NFC
everywhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

COMMENT = "#"
"""Marks a comment line in a word list and the start of a reason in a reviewed list."""

_BOM = "\ufeff"

LISTS_DIR = Path(__file__).resolve().parent / "lists"
"""The one folder of reviewed lists (``sources/lists``), for every game's builder."""


class ReviewedListError(ValueError):
    """A reviewed list is malformed; the message names the file and line.

    Reviewed lists are edited by hand, so a mistake (a duplicate entry, an
    entry without a reason) must stop the build with a precise location
    rather than silently change the lexicon.
    """

    def __init__(self, path: Path, line_no: int, message: str) -> None:
        super().__init__(f"{path}:{line_no}: {message}")
        self.path = path
        self.line_no = line_no


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def read_wordlist(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    """Yield the words of a one-word-per-line list, NFC-normalised.

    Surrounding whitespace is stripped; blank lines and lines whose first
    non-blank character is ``#`` are skipped (dictionary word lists such as
    ``wpolish`` have no comments, but hand-made lists may).  A UTF-8 byte
    order mark at the start of the file is dropped.  Words are yielded in
    file order and are *not* deduplicated or case-folded: callers decide what
    a duplicate or a capitalised form means for their game.
    """
    with path.open(encoding=encoding, newline=None) as handle:
        for line_no, line in enumerate(handle):
            if line_no == 0 and line.startswith(_BOM):
                line = line[len(_BOM) :]
            word = line.strip()
            if not word or word.startswith(COMMENT):
                continue
            yield _nfc(word)


@dataclass(frozen=True, slots=True)
class ReviewedEntry:
    """One line of a reviewed list: the entry as written, why it is there, where it is."""

    entry: str
    reason: str
    file: str      # file name, e.g. "sl_phrases.txt" (what messages and manifests cite)
    line: int


def read_reviewed_entries(path: Path, encoding: str = "utf-8", *,
                          phrases: bool = False) -> list[ReviewedEntry]:
    """Read a hand-reviewed list of ``entry  # reason`` lines, in file order.

    Format, shared by every language and every game:

    * blank lines and lines starting with ``#`` are ignored (headers, notes);
    * every other line is one entry followed by ``#`` and a non-empty reason, e.g.
      ``tzw  # skrót: tak zwany``;
    * an entry is one word, or with ``phrases`` words separated by single spaces (phrases
      and full names, ``Tone Pavček``);
    * entries are NFC-normalised and must be unique.

    The reason is mandatory because these lists override the automatic pipeline: each
    exception has to say why it exists, so that it can be re-reviewed later. Any violation
    raises :class:`ReviewedListError` with the file and line number.
    """
    entries: list[ReviewedEntry] = []
    first_line: dict[str, int] = {}
    with path.open(encoding=encoding, newline=None) as handle:
        for line_no, line in enumerate(handle, start=1):
            if line_no == 1 and line.startswith(_BOM):
                line = line[len(_BOM) :]
            text = line.strip()
            if not text or text.startswith(COMMENT):
                continue
            entry_part, sep, reason_part = text.partition(COMMENT)
            entry = _nfc(entry_part.strip())
            reason = reason_part.strip()
            if not sep or not reason:
                raise ReviewedListError(
                    path, line_no, f"entry {entry!r} has no reason (expected 'entry  # reason')"
                )
            words = entry.split(" ")
            if not entry or any(not w or any(ch.isspace() for ch in w) for w in words) or (
                    len(words) > 1 and not phrases):
                expected = "words separated by single spaces" if phrases else "exactly one entry"
                raise ReviewedListError(
                    path, line_no, f"expected {expected} before '#', got {entry_part.strip()!r}"
                )
            if entry in first_line:
                raise ReviewedListError(
                    path,
                    line_no,
                    f"duplicate entry {entry!r} (first on line {first_line[entry]})",
                )
            first_line[entry] = line_no
            entries.append(ReviewedEntry(entry, reason, path.name, line_no))
    return entries


def read_reviewed_list(path: Path, encoding: str = "utf-8", *,
                       phrases: bool = False) -> dict[str, str]:
    """``{entry: reason}`` of a reviewed list (see :func:`read_reviewed_entries`)."""
    return {e.entry: e.reason for e in read_reviewed_entries(path, encoding, phrases=phrases)}
