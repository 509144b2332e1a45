"""The rule book every builder uses: vetoes, admissions with typed evidence, explanations."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from lexicon.build.rulebook import Admit, Evidence, Reject, Rejection, RuleBook

from lexicon.store.records import Analysis, Record


@dataclass
class Word:
    text: str
    listed: bool = False
    noun: bool = False
    lemma_ok: bool = False


def book() -> RuleBook[Word]:
    def hyphen(w: Word) -> str | None:
        return "contains '-'" if "-" in w.text else None

    def listed(w: Word) -> Evidence | None:
        return Evidence("list", "reviewed list", "phrase", ("lists/x.txt",)) if w.listed \
            else None

    def noun(w: Word) -> Evidence | None:
        return Evidence("analyser", f"{w.text}<n>", "noun", ("apertium",)) if w.noun else None

    def lemma(w: Word) -> Evidence | None:
        return Evidence("lemmagen", "its own lemma", None, ("lemmagen",)) if w.lemma_ok \
            else None

    def verb(w: Word) -> Rejection | None:
        if w.text.endswith("ti"):
            return Rejection("a verb", (Evidence("analyser", f"{w.text}<vblex>"),))
        return None

    return RuleBook(
        "test",
        vetoes=[Reject("hyphen_or_apostrophe", "hyphens", hyphen)],
        admissions=[Admit("list", "listed", listed), Admit("analyser", "a noun", noun),
                    Admit("lemmagen", "its own lemma", lemma, supporting=True)],
        explanations=[Reject("part_of_speech", "verbs", verb)],
        otherwise=Reject("no_noun_evidence", "nothing says it is a noun",
                         lambda _w: "no evidence", name="no_evidence"),
    )


def test_admission_carries_typed_evidence_in_rule_order() -> None:
    b = book()
    v = b.judge(Word("hiša", listed=True, noun=True, lemma_ok=True))
    assert v.valid and v.rule == "list" and v.category == "phrase"
    assert v.kinds == ["list", "analyser", "lemmagen"]
    assert v.sources == ["apertium", "lemmagen", "lists/x.txt"]
    assert b.admitted_by == {"list": 1}


def test_supporting_evidence_alone_admits_nothing() -> None:
    v = book().judge(Word("delati", lemma_ok=True))
    assert not v.valid and v.code == "part_of_speech" and v.rule == "verb"
    assert v.evidence == (Evidence("analyser", "delati<vblex>"),)
    other = book().judge(Word("xyz", lemma_ok=True))
    assert (other.code, other.message, other.rule) == ("no_noun_evidence", "no evidence",
                                                       "no_evidence")


def test_vetoes_reject_even_admitted_candidates() -> None:
    b = book()
    v = b.judge(Word("e-pošta", listed=True))
    assert (v.valid, v.code, v.message) == (False, "hyphen_or_apostrophe", "contains '-'")
    assert b.rejected_by == {"hyphen_or_apostrophe": 1}


def test_policy_and_manifest_rows_come_from_the_rules() -> None:
    b = book()
    assert b.policy() == [
        "veto (hyphen_or_apostrophe): hyphens",
        "admit [list]: listed",
        "admit [analyser]: a noun",
        "admit (supporting only) [lemmagen]: its own lemma",
        "else explain (part_of_speech): verbs",
        "otherwise (no_noun_evidence): nothing says it is a noun",
    ]
    assert [(r["phase"], r["name"]) for r in b.describe()] == [
        ("veto", "hyphen"), ("admission", "list"), ("admission", "analyser"),
        ("admission", "lemmagen"), ("explanation", "verb"), ("otherwise", "no_evidence")]


def test_a_book_without_admissions_admits_what_no_veto_rejects() -> None:
    b: RuleBook[Word] = RuleBook("lists", [Reject("abbreviation", "abbr",
                                                  lambda w: "abbr" if w.text == "np" else None,
                                                  name="abbr")])
    assert b.judge(Word("kot")).valid and not b.judge(Word("np")).valid
    assert b.policy()[-1] == "admitted: every candidate no veto rejects"


def test_misuse_is_refused() -> None:
    with pytest.raises(ValueError, match="unregistered reason"):
        Reject("no_such_code", "x", lambda _w: None)
    with pytest.raises(ValueError, match="otherwise"):
        RuleBook("x", admissions=[Admit("a", "a", lambda _w: None)])


def rec(word: str, valid: bool, evidence: list[str], source: str) -> Record:
    return Record(key=word.lower(), word=word, valid=valid, evidence=evidence,
                  sources=[source], analyses=[Analysis(word, "n", source)],
                  reason_code=None if valid else "proper_noun",
                  reason_message=None if valid else "a name")


@pytest.mark.parametrize("swap", [False, True])
def test_one_merge_policy_whatever_the_order(swap: bool) -> None:
    a, b = rec("Kalin", True, ["surname"], "hunspell-sl"), rec("kalin", True, ["bird"], "fd")
    merged = b.merge(a) if swap else a.merge(b)
    assert merged.word == "kalin"
    assert merged.evidence == ["bird", "Kalin: surname"]
    assert merged.sources == ["fd", "hunspell-sl"] and len(merged.analyses) == 2
    x, y = rec("Np", False, [], "a"), rec("np", False, [], "b")
    assert (y.merge(x) if swap else x.merge(y)).word == "np"
    v, r = rec("Bóg", True, ["name"], "a"), rec("bóg", False, [], "b")
    assert (r.merge(v) if swap else v.merge(r)).word == "Bóg"
