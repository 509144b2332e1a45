"""Play rules: what a move may lay and what it scores, decided from the game's profile.

A word's *lexical* verdict is stored in the release; whether a move can lay it depends on
the move (Kvizovka's 3-letter words at the board's edge), on the tiles (letters only a
joker can stand for, and how many jokers the game has) and on the scoring rules. Every
place that needs one of these asks :class:`PlayRules`: the decision of a word's validity
(:mod:`lexicon.verdicts.validity`, which the checker, the batch hot path and the offline
pack read), the queries and the anagram walk (scores with jokers), the index builder and
the exporter (which words some move can play). One definition each, so a check, a query
and an index cannot disagree about what a move can do.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lexicon.game.profile import Profile


class PlayRules:
    """One game's move rules (see the module docstring)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.min_length = profile.min_length
        self.max_length = profile.max_length
        self.edge_min_length = profile.edge_min_length
        self.jokers = profile.jokers.count
        self.joker_only = frozenset(t.canonical for t in profile.tiles if t.joker_only)
        self.letter_count = profile.scoring == "letter_count"
        self.values: dict[str, int | None] = {
            t.canonical: 1 if self.letter_count else t.value for t in profile.tiles}
        self.known_values = all(v is not None for v in self.values.values())

    # -- lengths ---------------------------------------------------------------------------
    def lengths(self, *, edge: bool = False) -> tuple[int, int]:
        """Fewest and most tiles of a word this move lays (``edge``: at the board's edge)."""
        low = self.min_length
        if edge and self.edge_min_length is not None:
            low = self.edge_min_length
        return low, self.max_length

    @property
    def playable_lengths(self) -> tuple[int, int]:
        """Fewest and most tiles of a word *some* move can lay (Kvizovka: 3 at the edge)."""
        return min(self.lengths()[0], self.lengths(edge=True)[0]), self.max_length

    # -- jokers ----------------------------------------------------------------------------
    def jokers_needed(self, key: str) -> int:
        """How many letters of ``key`` no tile carries, so that a joker must play them."""
        joker_only = self.joker_only
        return sum(key.count(c) for c in joker_only) if joker_only else 0

    def joker_letters(self, key: str) -> list[str]:
        """Those letters, as printed (Križemkražem's W, X, Y, Q), in word order."""
        if not self.joker_only or self.joker_only.isdisjoint(key):
            return []     # the common word: one C-level test, no loop over its letters
        letter = self.profile.by_canonical
        return [letter[c].letter for c in key if c in self.joker_only]

    def is_playable(self, key: str) -> bool:
        """Could some move lay this admitted key: every character a tile, within the lengths,
        and no more letters only a joker plays than the game has jokers."""
        low, high = self.playable_lengths
        return (low <= len(key) <= high and self.values.keys() >= set(key)
                and self.jokers_needed(key) <= self.jokers)

    def playable(self, keys: Iterable[str]) -> Iterator[str]:
        """The ``keys`` :meth:`is_playable` admits, in their order: the index builder's and
        the release hash's loop over every admitted key (4M for osps). Without joker-only
        letters a length test and one C-level subset test decide, the same answer as
        :meth:`is_playable` at a fraction of its cost per key."""
        if self.joker_only:
            return filter(self.is_playable, keys)
        tiles = frozenset(self.values)
        low, high = self.playable_lengths
        return (key for key in keys if low <= len(key) <= high and tiles.issuperset(key))

    # -- scores ----------------------------------------------------------------------------
    def joker_value(self, canonical: str) -> int:
        """What a joker standing for this letter scores (0, a fixed value, or the letter's)."""
        if self.letter_count:
            return 1
        value = self.profile.jokers.value
        if value == "as_letter":
            return self.values.get(canonical) or 0
        return value if isinstance(value, int) else 0

    def score(self, key: str, jokers: Iterable[str] = ()) -> int | None:
        """Nominal score of ``key`` where the letters ``jokers`` are played by jokers; None
        where a value is unknown (an unpublished table, or a character no tile carries)."""
        values = self.values
        try:     # one C-level pass: a missing letter is a KeyError, an unknown value None
            total = sum(map(values.__getitem__, key))     # a TypeError
        except (KeyError, TypeError):
            return None
        for letter in jokers:
            total += self.joker_value(letter) - (values[letter] or 0)
        return total

    @property
    def opening_doubles(self) -> list[str]:
        """Remik: the canonical letters that double an opening word's score."""
        doubles = self.profile.opening_double_letters
        return sorted(t.canonical for t in self.profile.tiles if t.letter in doubles)

    def word_points(self, key: str, *, opening: bool) -> int | None:
        """What a word laid on the table scores: its score, times ``OPENING_FACTOR`` for an
        opening (or re-opening) word holding a doubling letter (Remik's „podwójną ilość
        punktów”, once however many of those letters it holds)."""
        score = self.score(key)
        if score is None or not opening:
            return score
        doubles = self.opening_doubles
        return score * (OPENING_FACTOR if any(c in doubles for c in key) else 1)

    def opening_score(self, key: str) -> int | None:
        """Remik: an opening word's score (:meth:`word_points`); None in every other game,
        which has no second scoring of a word."""
        if not self.profile.opening_double_letters:
            return None
        return self.word_points(key, opening=True)


#: how many times an opening word holding a doubling letter counts (Remik)
OPENING_FACTOR = 2


def play_rules(profile: Profile) -> PlayRules:
    """The (cached) play rules of ``profile``."""
    return profile.derived(PlayRules)
