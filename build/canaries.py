"""Canary words: a few words per game whose verdict must never change.

Each profile lists words that must be valid and words that must not be (``[canaries]`` in
``lexicon/profiles/<game>.toml``), chosen from the rule books and this README's examples:
``zażółć`` must stay valid in osps, ``np`` (an abbreviation) must stay invalid, ``ul`` is
too short for Remik. A full build checks them against the staged release with the same
checker that answers players, before publishing; if one flipped, a source or a rule broke
something a referee relies on, and the release is not published (``canary_failed``, with
every flipped word and its verdict).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lexicon.errors import BuildError, LexiconError
from lexicon.game.profile import Profile
from lexicon.store.release import Release
from lexicon.verdicts.checker import check_word


class CanaryFailed(BuildError):
    code = "canary_failed"


def spec(profile: Profile) -> dict[str, list[str]]:
    return {"valid": list(profile.canaries.get("valid", ())),
            "invalid": list(profile.canaries.get("invalid", ()))}


def flipped(profile: Profile, release: Release) -> list[dict[str, Any]]:
    """Every canary whose verdict in ``release`` is not the expected one."""
    out = []
    for expected, words in (("valid", True), ("invalid", False)):
        for word in profile.canaries.get(expected, ()):
            try:
                got = check_word(profile, release, word)
            except LexiconError as exc:   # a canary the checker cannot even read
                out.append({"word": word, "expected": expected, "error": exc.to_json()})
                continue
            if got["valid"] is not words:
                out.append({"word": word, "expected": expected,
                            "reason": got["reason"]})
    return out


def check(profile: Profile, release: Path | Release) -> None:
    """Raise :class:`CanaryFailed` if any canary flipped in ``release`` (a directory, or a
    release already open: publishing and installing check the one they opened)."""
    rel = release if isinstance(release, Release) else Release(release)
    try:
        bad = flipped(profile, rel)
    finally:
        if rel is not release:
            rel.close()
    if bad:
        words = ", ".join(f"{b['word']} (expected {b['expected']})" for b in bad)
        raise CanaryFailed(f"{profile.id}: canary words flipped, release not published: "
                           f"{words} (if the change is meant, edit [canaries] in the "
                           f"{profile.id} profile)", detail={"game": profile.id, "flipped": bad})
