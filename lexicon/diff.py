"""What changed between two editions of a game's word list: what a federation publishes
with each edition (WGPO and NASPA list every added and removed word).

Both sides are the playable words (:func:`lexicon.export.valid_keys`), streamed from their
releases in the same code-point order and merged, so a diff of two 3-million-word
releases holds only the changes in memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from lexicon import releases
from lexicon.catalog import Catalog
from lexicon.errors import InputError
from lexicon.export import valid_keys
from lexicon.profile import Profile
from lexicon.store import Release


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


def resolve_pair(catalog: Catalog, game: str, old_id: str | None,
                 new_id: str | None) -> tuple[Release, Release]:
    """NEW defaults to the current release, OLD to the release NEW was built after (its
    manifest's ``previous``), else the newest one published before it."""
    new = catalog.release(game, new_id)
    if old_id is None:
        old_id = new.manifest.get("previous")
        if old_id is None or not (releases.game_dir(game, catalog.root) / old_id).is_dir():
            older = [r["release"] for r in releases.list_releases(game, catalog.root)
                     if (r["built_at"] or "") < (new.manifest.get("built_at") or "")]
            if not older:
                raise InputError(f"{game}: {new.id} has no earlier release to compare with; "
                                 f"name OLD explicitly", code="no_previous_release")
            old_id = older[0]
    return catalog.release(game, old_id), new
