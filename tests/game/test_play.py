"""Play rules from the profiles: lengths with the edge, jokers, scores with jokers."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.game import profile as profiles
from lexicon.game.play import play_rules

KV, OSPS, KK, REMIK = (play_rules(profiles.load(g))
                       for g in ("kvizovka", "osps", "krizemkrazem", "remik"))


def test_lengths_with_and_without_the_edge() -> None:
    assert KV.lengths() == (4, 17) and KV.lengths(edge=True) == (3, 17)
    assert KV.playable_lengths == (3, 17)
    assert OSPS.lengths(edge=True) == OSPS.lengths() == OSPS.playable_lengths == (2, 15)


def test_letters_only_a_joker_plays() -> None:
    assert KK.joker_letters("wolf") == ["W"] and KK.jokers_needed("wxyqwxyqwxy") == 11
    assert not KK.is_playable("wxyqwxyqwxy") and KK.is_playable("wolf")
    assert OSPS.jokers_needed("kot") == 0 and OSPS.joker_letters("kot") == []


@pytest.mark.parametrize(("rules", "key", "jokers", "score"), [
    (OSPS, "zażółć", (), 21), (OSPS, "zażółć", ("ż",), 16),      # a Polish joker scores 0
    (KV, "љубав", ("љ",), 9),                                     # Kvizovka: as the letter
    (KK, "wolf", ("w",), 11), (KK, "križemkražem", (), 31),       # W only by joker, worth 4
    (REMIK, "żaba", (), 4),                                       # letters counted
    (OSPS, "e-mail", (), None),                                   # '-' has no value
])
def test_scores_with_jokers(rules, key: str, jokers: tuple[str, ...], score: int | None) -> None:
    assert rules.score(key, jokers) == score


def test_opening_score_doubles_remik_words_with_listed_letters() -> None:
    assert REMIK.opening_score("żaba") == 8 and REMIK.opening_score("kot") == 3
    assert OSPS.opening_score("żaba") is None


def _score_by_letter(rules, key: str) -> int | None:
    """The score as a loop over the letters: what the C-level pass must equal."""
    total = 0
    for ch in key:
        value = rules.values.get(ch)
        if value is None:
            return None
        total += value
    return total


@settings(max_examples=300, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("rules", [KV, OSPS, KK, REMIK], ids=lambda r: r.profile.id)
def test_scores_and_tiles_as_letter_by_letter(rules, data: st.DataObject) -> None:
    """The lookup's single passes (score, opening score, tile letters) answer exactly what
    the letter-by-letter loops answered, for keys of tiles and of other characters, and
    for a table with a letter of unknown value."""
    from lexicon.game.tiles import speller
    spell = speller(rules.profile)
    letters = [*sorted(rules.values), "-", "'", "q", "ß", " "]
    key = "".join(data.draw(st.lists(st.sampled_from(letters), max_size=12)))
    assert rules.score(key) == _score_by_letter(rules, key)
    assert spell.tiles_of(key) == tuple(spell._letter.get(c) or c.upper() for c in key)
    plain = _score_by_letter(rules, key)
    doubles = rules.profile.opening_double_letters
    if not doubles or plain is None:
        assert rules.opening_score(key) is None
    else:
        doubled = any(rules.profile.by_canonical[c].letter in doubles for c in key
                      if c in rules.profile.by_canonical)
        assert rules.opening_score(key) == plain * (2 if doubled else 1)
    unknown = copy.copy(rules)
    unknown.values = {**rules.values, letters[0]: None}     # an unpublished value
    assert unknown.score(key) == _score_by_letter(unknown, key)
