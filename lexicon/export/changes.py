"""Small pieces shared by the two diffs of editions: ``lexicon sources diff`` (a source's
word list, :mod:`sources.editions`) and ``lexicon diff --summary`` (a game's releases,
:mod:`lexicon.export.diff`). They live in the runtime library because the library may not import
``sources`` (tests/project/test_layout.py: sources -> build -> lexicon)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

SAMPLES = 12

# -skość, -ckość and their case forms (bełchatowskość, wołżańskościami)
_SKOSC = re.compile(r"[sc]koś(?:ć|ci|cią|ciach|ciami|ciom)$")


def skosc_derivation(w: str) -> bool:
    """A lower-case noun in -skość/-ckość (a quality noun of a -ski/-cki adjective) or one
    of its forms: most of what sjp.pl deleted as junk in 2026 (bełchatowskość)."""
    return w == w.lower() and _SKOSC.search(w) is not None


def sample(words: Iterable[str], n: int = SAMPLES) -> list[str]:
    """``n`` spellings evenly spaced over the sorted ones (deterministic)."""
    ordered = sorted(words)
    if len(ordered) <= n:
        return ordered
    return [ordered[i * len(ordered) // n] for i in range(n)]


def class_lines(classes: dict[str, dict[str, Any]], indent: str) -> list[str]:
    """Two lines per class: its name, count (and description, when it has one), then its
    samples."""
    lines = []
    for name, c in classes.items():
        about = f"  ({c['description']})" if c.get("description") else ""
        lines.append(f"{indent}{name}: {c['count']:,}{about}")
        lines.append(f"{indent}  e.g. {', '.join(c['samples'])}")
    return lines
