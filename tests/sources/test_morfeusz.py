"""Tests for sources.morfeusz against the real Morfeusz 2 / SGJP analyser (no mocks)."""

from __future__ import annotations

import pytest
from lexicon.sources.morfeusz import (
    ABBREVIATION_TAG,
    Annotator,
    Generator,
    Interpretation,
    is_abbreviation,
    is_agglutinate,
    is_prefix_or_suffix,
    is_unknown,
)


@pytest.fixture(scope="module")
def annotator() -> Annotator:
    return Annotator()


def test_reports_sgjp_dictionary(annotator: Annotator) -> None:
    assert annotator.dict_id.startswith("pl.sgjp.")
    assert annotator.version.startswith("1.")


def test_zazolc_is_a_verb_form(annotator: Annotator) -> None:
    analyses = annotator.analyse("zażółć")
    assert [(a.lemma, a.tags) for a in analyses] == [("zażółcić", "impt:sg:sec:perf")]
    assert not is_unknown(analyses)
    assert not is_abbreviation(analyses)
    assert not any(a.is_proper for a in analyses)
    assert not is_prefix_or_suffix(analyses)


def test_abbreviations(annotator: Annotator) -> None:
    kg = annotator.analyse("kg")
    assert is_abbreviation(kg)
    assert [a.lemma for a in kg] == ["kilogram"]
    # Morfeusz knows "np" only with its full stop; bare "np" is unknown.
    # This is why the reviewed list sources/lists/pl_abbreviations.txt exists.
    assert is_unknown(annotator.analyse("np"))
    assert is_abbreviation(annotator.analyse("mln"))


def test_word_with_an_abbreviation_reading_is_not_an_abbreviation(annotator: Annotator) -> None:
    analyses = annotator.analyse("min")  # minuta (brev) and genitive plural of "mina"
    assert any(a.pos == ABBREVIATION_TAG for a in analyses)
    assert not is_abbreviation(analyses)


def test_vowelless_interjection_is_a_word(annotator: Annotator) -> None:
    analyses = annotator.analyse("hm")
    assert [a.pos for a in analyses] == ["interj"]
    assert not is_abbreviation(analyses) and not is_unknown(analyses)


def test_krakow_is_a_proper_name_only_when_capitalised(annotator: Annotator) -> None:
    capitalised = annotator.analyse("Kraków")
    assert all(a.is_proper for a in capitalised)
    assert any(a.name == "nazwa_geograficzna" and a.lemma == "Kraków" for a in capitalised)
    # Homonym qualifiers are stripped from the lemma but kept in raw_lemma.
    assert any(a.lemma == "Krak" and a.raw_lemma == "Krak:Sm1" for a in capitalised)

    lowercase = annotator.analyse("kraków")
    assert is_unknown(lowercase)  # STRICTLY_CASE_SENSITIVE: not the city
    assert not any(a.is_proper for a in lowercase)


def test_common_noun_is_not_a_proper_name(annotator: Annotator) -> None:
    analyses = annotator.analyse("warszawa")  # the car brand used as a common noun
    assert analyses and all(a.name == "nazwa_pospolita" for a in analyses)
    assert not any(a.is_proper for a in analyses)


def test_lowercase_lemma_with_stray_name_class_is_not_a_proper_name(annotator: Annotator) -> None:
    analyses = annotator.analyse("kea")  # the parrot; SGJP tags it nazwa_firmy
    assert [a.name for a in analyses] == ["nazwa_firmy"]
    assert not any(a.is_proper for a in analyses)


def test_labels_are_split_into_single_qualifiers(annotator: Annotator) -> None:
    analyses = annotator.analyse("post")
    assert ("pot.", "środ.") in [a.labels for a in analyses]


def test_agglutinate_is_joined_into_one_reading(annotator: Annotator) -> None:
    analyses = annotator.analyse("dlań")
    assert is_agglutinate(analyses)
    assert not is_unknown(analyses)
    assert [(a.lemma, a.pos) for a in analyses] == [("dla+on", "prep+ppron3")]


def test_whole_word_reading_wins_over_split(annotator: Annotator) -> None:
    analyses = annotator.analyse("gdzieś")
    assert {a.lemma for a in analyses} == {"gdzieś"}
    assert not is_agglutinate(analyses)


def test_prefix_or_suffix_predicate() -> None:
    aglt = Interpretation(lemma="być", tags="aglt:sg:pri:imperf:nwok", name="", labels=())
    prefix = Interpretation(lemma="eks", tags="prefs", name="", labels=())
    noun = Interpretation(lemma="eks", tags="subst:sg:nom:m1", name="nazwa_pospolita", labels=())
    assert is_prefix_or_suffix([aglt])
    assert is_prefix_or_suffix([prefix, aglt])
    assert not is_prefix_or_suffix([prefix, noun])
    assert not is_prefix_or_suffix([])


def test_sgjp_does_not_analyse_prefixes_as_bound(annotator: Annotator) -> None:
    # Documented finding: SGJP has no whole-word bound readings for these.
    assert is_unknown(annotator.analyse("arcy"))
    assert not is_prefix_or_suffix(annotator.analyse("eks"))




@pytest.mark.parametrize("bad", ["", "dwa słowa", " kot", "kot\n"])
def test_rejects_non_single_word(annotator: Annotator, bad: str) -> None:
    with pytest.raises(ValueError):
        annotator.analyse(bad)


def test_generator_gives_the_full_paradigm_with_the_analysers_options(annotator: Annotator) -> None:
    """sjp.pl leaves out -łoś/-łobym; SGJP generates them, as one composite segment."""
    forms = Generator(skip_pos=("pacta",)).forms("zbroić:Vi")
    assert {"zbroiłom", "zbroiłoś", "zbroiłobym", "zbroiłobyś", "niezbrojenie"} <= set(forms)
    assert all(a.lemma == "zbroić" for a in annotator.analyse("zbroiłobyś"))
    assert "zbrojąco" not in forms and "zbrojąco" in Generator().forms("zbroić:Vi")
    assert len(Generator().forms("zbroić")) > len(forms)   # no qualifier: both homonyms
    assert Generator().forms("nieistniejącylemat") == []


def test_forgetting_the_interned_readings_changes_no_reading() -> None:
    """A judging worker drops the interned readings after each shard (build.shards): the
    readings are the same, only no longer the same objects."""
    fresh = Annotator()
    before = fresh.analyse("zamku")
    assert fresh.analyse("zamku")[0] is before[0]          # interned while remembered
    fresh.forget()
    after = fresh.analyse("zamku")
    assert after == before and after[0] is not before[0]


def test_readings_match_the_wrappers_own_analysis(annotator: Annotator) -> None:
    """The analyser reads edges from Morfeusz's SWIG object and resolves tag, name and
    labels by number; each reading must equal the one built from the wrapper's ``analyse``
    (strings and lists per edge), over forms with name classes, labels, homonym qualifiers,
    several readings and agglutinates, asked twice (the second time from the tables)."""
    import morfeusz2
    from lexicon.sources.morfeusz import OPTIONS, _split_labels, _strip_homonym

    wrapper = morfeusz2.Morfeusz(analyse=True, generate=False, **OPTIONS)
    forms = ["Kraków", "krakowa", "oko", "min", "pot", "dlań", "żem", "abyś", "róbże",
             "Jana", "zrobiłbym", "kg", "eks", "wznak", "chłopaki", "ee", "xyzzy"]
    seen = 0
    for _round in range(2):
        for form in forms:
            edges = wrapper.analyse(form)
            last = max(end for _s, end, _i in edges)
            expected = [Interpretation(_strip_homonym(raw), tag, "|".join(names),
                                       _split_labels(labels), raw)
                        for start, end, (_orth, raw, tag, names, labels) in edges
                        if start == 0 and end == last]
            got = annotator.analyse(form)
            if expected:
                assert got == expected, form
                seen += sum(bool(a.name or a.labels) for a in got)
            else:    # an agglutinate: every segment as the wrapper reads it, joined
                assert all(a.is_agglutinate for a in got) or is_unknown(got), form
    assert seen > 0    # the forms do carry names and labels
    aglt = annotator.analyse("dlań")
    assert [(a.lemma, a.tags) for a in aglt] == [("dla+on",
                                                  "prep:gen+ppron3:sg:gen.acc:m1.m2.m3:ter:"
                                                  "nakc:praep")]
    # the derived fields agree with their definitions
    for form in forms:
        for a in annotator.analyse(form):
            assert a.segment_pos == tuple(t.split(":", 1)[0] for t in a.tags.split("+"))
            assert a.pos == "+".join(a.segment_pos)
