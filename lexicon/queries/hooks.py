"""Hooks and prefixes: which tiles turn a word into a longer word, and can a word go on.

Both are a handful of membership probes per tile of the alphabet, answered by the release's
tries (see :mod:`lexicon.store.indexes`): a front hook ``t`` of ``key`` is a valid ``t + key``, a
back hook a valid ``key + t``; a prefix goes on when some playable word of a greater length
starts with it, which the forward prefix set answers one length at a time.
"""

from __future__ import annotations

from lexicon.game.profile import Profile
from lexicon.store.indexes import Indexes, length_tag


def front_hooks(index: Indexes, profile: Profile, key: str) -> list[str]:
    """Tiles (canonical) ``t`` such that ``t + key`` is a valid word a move can play."""
    if len(key) + 1 > index.max_length:
        return []
    words = index.words
    return [c for c in profile.alphabet.labels if c + key in words]


def back_hooks(index: Indexes, profile: Profile, key: str) -> list[str]:
    """Tiles (canonical) ``t`` such that ``key + t`` is a valid word a move can play."""
    if len(key) + 1 > index.max_length:
        return []
    words = index.words
    return [c for c in profile.alphabet.labels if key + c in words]


def continues(index: Indexes, prefix: str) -> bool:
    """Does some playable word longer than ``prefix`` start with it?"""
    seen = index.forward_prefixes
    return any(length_tag(n) + prefix in seen
               for n in range(max(len(prefix) + 1, index.min_length), index.max_length + 1))


def next_tiles(index: Indexes, profile: Profile, prefix: str) -> list[str]:
    """Tiles (canonical) that can follow ``prefix`` in some playable word."""
    seen = index.forward_prefixes
    lengths = [length_tag(n) for n in
               range(max(len(prefix) + 1, index.min_length), index.max_length + 1)]
    return [c for c in profile.alphabet.labels
            if any(tag + prefix + c in seen for tag in lengths)]
