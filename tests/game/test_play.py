"""Play rules from the profiles: lengths with the edge, jokers, scores with jokers."""

from __future__ import annotations

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
    broken = KK.broken("wxyqwxyqwxy")
    assert broken is not None and broken.code == "too_many_jokers"
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


@pytest.mark.parametrize(("rules", "key", "edge", "code"), [
    (KV, "џеп", False, "too_short"), (KV, "џеп", True, None), (KV, "а" * 18, False, "too_long"),
    (OSPS, "k", False, "too_short"), (OSPS, "kot", False, None)])
def test_broken_names_the_rule(rules, key: str, edge: bool, code: str | None) -> None:
    broken = rules.broken(key, edge=edge)
    assert (broken.code if broken else None) == code
    if code == "too_short" and rules is KV:
        assert broken.message == "3 tiles; 4 required (3 at the board's edge)"


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([KV, OSPS, KK, REMIK]), st.data(), st.booleans())
def test_the_fast_test_is_the_full_test(rules, data: st.DataObject, edge: bool) -> None:
    """``allows`` (the batch hot path) says exactly what ``broken`` says, for tile keys."""
    key = data.draw(st.text(alphabet=sorted(rules.values), min_size=1, max_size=20))
    assert rules.allows(key, edge=edge) == (rules.broken(key, edge=edge) is None)
