"""The one decision of a word's validity (lexicon.verdicts.validity): its steps give the
reasons the checker shows, its compiled form (the batch hot path, the build's Latin index)
answers as the steps do, and the offline pack carries the steps as they stand."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.export.offline import rules_json
from lexicon.game import profile as profiles
from lexicon.verdicts.validity import HYPHENS, Step, Validity, validity
from tests.conftest import rec

KV, OSPS, KK, REMIK = (validity(profiles.load(g))
                       for g in ("kvizovka", "osps", "krizemkrazem", "remik"))


@pytest.mark.parametrize(("decision", "key", "foreign", "held", "edge", "code"), [
    (KV, "џеп", (), True, False, "too_short"), (KV, "џеп", (), True, True, None),
    (KV, "а" * 18, (), True, False, "too_long"), (OSPS, "k", (), True, False, "too_short"),
    (OSPS, "kot", (), True, False, None), (OSPS, "kot", (), False, False, "unknown"),
    (KK, "wxyqwxyqwxy", (), True, False, "too_many_jokers"),
    (OSPS, "e-mail", ("-",), True, False, "hyphen_or_apostrophe"),
    (OSPS, "e-mail", ("-",), False, False, "hyphen_or_apostrophe"),
    (OSPS, "qot", ("q",), True, False, "not_in_alphabet"),
    (OSPS, "k", (), None, False, "proper_noun"),         # the record's reason comes first
])
def test_the_first_step_broken_names_the_reason(decision: Validity, key: str,
                                                foreign: tuple[str, ...], held: bool | None,
                                                edge: bool, code: str | None) -> None:
    record = (None if held is False else rec(key) if held
              else rec(key, valid=False, code="proper_noun"))
    broken = decision.broken(key, foreign, record, edge=edge)
    assert (broken.code if broken else None) == code
    if code == "too_short" and decision is KV:
        assert broken.message == "3 tiles; 4 required (3 at the board's edge)"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([KV, OSPS, KK, REMIK]), st.data(), st.booleans())
def test_the_compiled_form_answers_as_the_steps(decision: Validity, data: st.DataObject,
                                               edge: bool) -> None:
    """For a valid key of tiles only (what the hot path has looked up), the compiled bounds
    say exactly what the steps say."""
    tiles = sorted(t.canonical for t in decision.profile.tiles)
    key = data.draw(st.text(alphabet=tiles, min_size=1, max_size=20))
    assert decision.allows(key, edge=edge) == (
        decision.broken(key, (), rec(key), edge=edge) is None)


def test_a_step_the_hot_path_cannot_compile_stops_it() -> None:
    """A new kind of rule must be taught to the compiled form, not skipped by it."""
    odd = Validity.__new__(Validity)
    odd.steps = (*OSPS.steps, Step("vowels", "no_vowel"))
    with pytest.raises(ValueError, match="vowels"):
        odd._compile(False)


@pytest.mark.parametrize("decision", [KV, OSPS, KK, REMIK], ids=lambda d: d.profile.id)
def test_the_offline_pack_carries_the_steps_in_order(decision: Validity) -> None:
    """The pack's ``validity`` is the decision's steps, in order, with their codes and
    limits: the profile's lengths and jokers, the hyphens."""
    table = rules_json(decision.profile)["validity"]["steps"]
    assert [(s["test"], s["code"]) for s in table] == [
        (s.test, s.code) for s in decision.steps]
    by_test = {s["test"]: s for s in table}
    profile = decision.profile
    assert by_test["shorter"]["least"] == profile.min_length
    assert by_test["shorter"]["edge_least"] == profile.edge_min_length
    assert by_test["longer"]["most"] == profile.max_length
    assert by_test["letters_over"]["most"] == profile.jokers.count
    assert by_test["foreign_among"]["chars"] == sorted(HYPHENS)
    assert dataclasses.asdict(decision.compiled(edge=True))["least"] == (
        profile.edge_min_length or profile.min_length)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([KV, OSPS, KK, REMIK]), st.data())
def test_a_playable_key_is_one_some_move_may_lay(decision: Validity, data: st.DataObject) -> None:
    """What the builders and exports call playable (``PlayRules.is_playable``: the words a
    KWG, a word list and the release's hash hold) is a key the decision admits at the
    board's inside or at its edge."""
    from lexicon.game.play import play_rules
    tiles = sorted(t.canonical for t in decision.profile.tiles)
    key = data.draw(st.text(alphabet=tiles, min_size=1, max_size=20))
    assert play_rules(decision.profile).is_playable(key) == any(
        decision.allows(key, edge=edge) for edge in (False, True))
