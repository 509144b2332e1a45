"""How a change between two editions is reported: classes, each with its count and a few
evenly spaced samples. Shared by the two diffs of editions, ``lexicon sources diff`` (a
source's word list, :mod:`sources.editions`) and ``lexicon diff --summary`` (a game's
releases, :mod:`lexicon.export.diff`), and by the audit's comparison with a list; so it sits
in the base every room may import."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SAMPLES = 12

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
