"""What changed between two editions of a game's word list: what a federation publishes
with each edition (WGPO and NASPA list every added and removed word).

Both sides are the playable words (:func:`lexicon.export.export.valid_keys`), streamed from their
releases in the same code-point order and merged, so a diff of two 3-million-word
releases holds only the changes in memory.

:func:`summary` is the edition diff a maintainer publishes after moving the pins (issue
17): the counts by verdict and reason of both releases (from their manifests), and the
added and removed words by class, each class with its count and evenly spaced samples. A
removed word's class is what the new release says of it (``now inhabitant_capitalised``,
``now capitalised``: a spelling that moved; ``no_longer_listed``: no source has it any
more), an added word's what the old one said (``was unattested``; ``new_to_the_sources``).
A word-shape class of the game's language comes first where one is named (Polish: the
*-skość* derivations sjp.pl deleted, :mod:`lexicon.game.shapes`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from lexicon import changes
from lexicon.errors import InputError
from lexicon.export.export import valid_keys
from lexicon.game.profile import Profile
from lexicon.game.shapes import SHAPES
from lexicon.store import published
from lexicon.store.release import Release

SAMPLES = changes.SAMPLES


def merge_changes(old: Iterator[str], new: Iterator[str]) -> Iterator[tuple[str, str]]:
    """("+", word) for words only in ``new``, ("-", word) for words only in ``old``; both
    inputs sorted and unique."""
    a, b = next(old, None), next(new, None)
    while a is not None or b is not None:
        if b is None or (a is not None and a < b):
            yield "-", a  # type: ignore[misc]
            a = next(old, None)
        elif a is None or b < a:
            yield "+", b
            b = next(new, None)
        else:
            a, b = next(old, None), next(new, None)


def _side(words: list[str]) -> dict[str, Any]:
    by_length = Counter(len(w) for w in words)
    return {"count": len(words),
            "by_length": {str(n): by_length[n] for n in sorted(by_length)},
            "words": words}


def diff_releases(profile: Profile, old: Release, new: Release) -> dict[str, Any]:
    """Words added and removed from ``old`` to ``new``, with counts by length."""
    added: list[str] = []
    removed: list[str] = []
    for sign, word in merge_changes(valid_keys(profile, old), valid_keys(profile, new)):
        (added if sign == "+" else removed).append(word)
    return {"game": profile.id, "old": old.id, "new": new.id,
            "old_content_hash": old.manifest.get("content_hash"),
            "new_content_hash": new.manifest.get("content_hash"),
            "added": _side(added), "removed": _side(removed)}


def previous_id(root: Path, new: Release, old_id: str | None) -> str:
    """The release to compare ``new`` with: ``old_id`` when given, else the release ``new``
    was built after (its manifest's ``previous``) when it is still in ``root``, else the
    newest one published before it."""
    if old_id is not None:
        return old_id
    game = new.game
    old_id = new.manifest.get("previous")
    if old_id is None or not (published.game_dir(game, root) / old_id).is_dir():
        older = [r["release"] for r in published.list_releases(game, root)
                 if (r["built_at"] or "") < (new.manifest.get("built_at") or "")]
        if not older:
            raise InputError(f"{game}: {new.id} has no earlier release to compare with; "
                             f"name OLD explicitly", code="no_previous_release")
        old_id = older[0]
    return old_id


def _by_verdict(release: Release) -> dict[str, Any]:
    counts = release.manifest.get("counts") or {}
    return {"records": counts.get("records"), "valid": counts.get("valid"),
            "rejected": counts.get("rejected"), "by_reason": dict(counts.get("by_reason") or {})}


def _classify(words: list[str], other: Release, prefix: str, unknown: str,
              shapes: list[tuple[str, Callable[[str], bool]]], samples: int) -> dict[str, Any]:
    """Each word's class: a shape class, else ``prefix`` + the reason ``other`` gives it,
    else ``unknown`` (``other`` has no record of it)."""
    buckets: dict[str, list[str]] = {}
    for w in words:
        name = next((n for n, test in shapes if test(w)), None)
        if name is None:
            rec = other.get(w)
            if rec is None:
                name = unknown
            elif rec.valid:     # playable there by the record, not by the game's lengths
                name = f"{prefix}valid"
            else:
                name = f"{prefix}{rec.reason_code}"
        buckets.setdefault(name, []).append(w)
    return {name: {"count": len(ws), "samples": changes.sample(ws, samples)}
            for name, ws in sorted(buckets.items(), key=lambda kv: (-len(kv[1]), kv[0]))}


def summary(profile: Profile, old: Release, new: Release,
            samples: int = SAMPLES) -> dict[str, Any]:
    """The edition diff: counts by verdict and reason before and after; added and removed
    words by class with samples (see the module doc)."""
    full = diff_releases(profile, old, new)
    shapes = SHAPES.get(profile.language, [])
    before, after = _by_verdict(old), _by_verdict(new)
    reasons = sorted(set(before["by_reason"]) | set(after["by_reason"]))
    return {
        "game": full["game"], "old": full["old"], "new": full["new"],
        "old_sources": _pins(old), "new_sources": _pins(new),
        "verdicts": {"old": before, "new": after,
                     "by_reason": {r: [before["by_reason"].get(r, 0),
                                       after["by_reason"].get(r, 0)] for r in reasons}},
        "added": {"count": full["added"]["count"], "by_length": full["added"]["by_length"],
                  "classes": _classify(full["added"]["words"], old, "was ",
                                       "new_to_the_sources", shapes, samples)},
        "removed": {"count": full["removed"]["count"],
                    "by_length": full["removed"]["by_length"],
                    "classes": _classify(full["removed"]["words"], new, "now ",
                                         "no_longer_listed", shapes, samples)},
    }


def _pins(release: Release) -> dict[str, str]:
    return {s.get("id", "?"): s.get("version", "?") for s in release.manifest.get("sources", ())
            if isinstance(s, dict)}
