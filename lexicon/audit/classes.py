"""The evidence class of a record: what an audit draws from and weighs by.

A release's words differ in how well they are attested, and so in how often they are
wrong: a Polish form with a Morfeusz reading is almost always right, a one-list form much
less often. An estimate that mixes them is only as good as the mix drawn, so the audit
stratifies by class: every class is drawn from, and every class's error rate is weighted
by its size in the release. Classes are read from what a record holds, so any release
(older ones too) can be classified without rebuilding it:

* a rejected word: ``rejected:<reason code>``;
* a word an override admitted: ``admitted:override``;
* Polish (osps and the remik games that play its vocabulary): the evidence grade the
  builder stores as ``grade:<name>`` (``admitted:grade:morfeusz``), a generated form also
  by its paradigm slot (``admitted:grade:generated:praet:sg:n``);
* Kvizovka: the reading that decided (``apertium`` tags, a learned hunspell ``slot``, a
  hunspell form read as a noun's ``possessive`` from its ending, or as the
  ``possessive_feminine`` of a feminine the dictionary lists under its masculine, a
  ``relational`` -ski adjective read from its ending, or apertium's
  ``possessive_animate`` or ``relational_noun``) and the combination of
  sources that have the form (``admitted:apertium:apertium-hbs-slv+hunspell-hr``);
* Križemkražem: the rule whose evidence admitted it, recognised from the first evidence
  text (:data:`KRIZEMKRAZEM_RULES`; the builder counts the same rules in its manifest,
  ``admitted_by_deciding_evidence``);
* a word of a reference list the release has no record of: ``absent``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lexicon.game.slots import generated_slot
from lexicon.store.records import (
    ANIMATE_POSSESSIVE_LABEL,
    FEMININE_OF_LABEL,
    POSSESSIVE_LABEL,
    RELATIONAL_LABEL,
    RELATIONAL_NOUN_LABEL,
    Record,
)

ADMITTED = "admitted:"
REJECTED = "rejected:"
ABSENT = "absent"
OVERRIDE = "override"
APERTIUM = "apertium-hbs-slv"

#: Križemkražem's admission rules as their evidence text starts (first match wins; the
#: texts are written by ``build/games/krizemkrazem/book.py``). A plural reading of a
#: paradigm or dictionary entry is told by the record's category.
KRIZEMKRAZEM_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern)) for name, pattern in (
        ("list", r"^(sl_\w+\.txt): "),
        ("apertium_plural_lemma", r"^apertium-hbs-slv: plural-only lemma "),
        ("apertium", r"^apertium-hbs-slv: "),
        ("freedict", r"^FreeDict: "),
        ("thesaurus_noun_synonyms", r"^mythes-sl: .*; a noun beside its adjective forms "),
        ("thesaurus", r"^mythes-sl: "),
        ("paradigm_own_forms", r"^hunspell-sl forms, .*; also a case form of "),
        ("paradigm+lemmagen", r"^hunspell-sl forms, .*; LemmaGen: its own lemma$"),
        ("paradigm_name", r"^hunspell-sl forms, .*; a capitalised masculine "),
        ("paradigm", r"^hunspell-sl forms, "),
        ("name_entry", r"^hunspell-sl: capitalised entry "),
        ("inhabitant_plural_feminine", r"^nominative plural of \S+, the feminine "),
        ("inhabitant_plural", r"^nominative plural of "),
        ("lemmagen", r"^LemmaGen: its own lemma$"),
    ))
_PLURAL = frozenset(("plurale_tantum", "established_plural"))


def _head(text: str) -> str:
    """What an unrecognised evidence text is about: the part before its first colon."""
    return text.split(":", 1)[0].strip() or "evidence"


def polish(rec: Record) -> str:
    """The evidence grade (``grade:morfeusz``, ``grade:one_list``, ...); a generated form
    also by the slot it fills (``grade:generated:cond``)."""
    grade = next((e for e in rec.evidence if e.startswith("grade:")),
                 _head(rec.evidence[0]) if rec.evidence else "no evidence")
    if grade != "grade:generated":
        return grade
    slot = next((s for a in rec.analyses if (s := generated_slot(a.tags))), "other")
    return f"{grade}:{slot}"


def kvizovka(rec: Record) -> str:
    """The deciding reading (apertium's tags, apertium's possessive of an animate noun or
    relational adjective of a dictionary's noun, a noun's possessive read from a hunspell
    ending, or a hunspell slot) and the sources that have the form: the pair the builder
    counts as ``admitted_by``."""
    return f"{_kvizovka_reading(rec)}:{'+'.join(sorted(rec.sources)) or 'no source'}"


def _kvizovka_reading(rec: Record) -> str:
    """The deciding reading of a Kvizovka record, from its first analysis's source and
    first label (the builder's labels in :mod:`lexicon.store.records`)."""
    if not rec.analyses:
        return "no analysis"
    first = rec.analyses[0]
    label = first.labels[0] if first.labels else ""
    if ANIMATE_POSSESSIVE_LABEL in label:
        return "possessive_animate"
    if RELATIONAL_NOUN_LABEL in label:
        return "relational_noun"
    if first.source == APERTIUM:
        return "apertium"
    if label.startswith(POSSESSIVE_LABEL):
        return "possessive_feminine" if FEMININE_OF_LABEL in label else "possessive"
    if label.startswith(RELATIONAL_LABEL):
        return "relational"
    return "slot"


def krizemkrazem(rec: Record) -> str:
    """The rule whose evidence admitted the word (:data:`KRIZEMKRAZEM_RULES`)."""
    text = rec.evidence[0] if rec.evidence else ""
    for name, pattern in KRIZEMKRAZEM_RULES:
        found = pattern.match(text)
        if found is None:
            continue
        if name == "list":
            return f"list:{found.group(1)}"
        if name in ("freedict", "paradigm") and rec.category in _PLURAL:
            return "freedict_plural" if name == "freedict" else "plural_paradigm"
        return name
    return _head(text) if text else "no evidence"


#: the admitted-word classifier of each vocabulary (a game playing another's vocabulary,
#: remik, is classified as that one); a game not listed is classified by its first
#: evidence text's head
BY_VOCABULARY: dict[str, Callable[[Record], str]] = {
    "osps": polish, "kvizovka": kvizovka, "krizemkrazem": krizemkrazem,
}


def evidence_class(vocabulary: str, rec: Record | None) -> str:
    """The class of ``rec`` in a release of ``vocabulary`` (None: no record, ``absent``)."""
    if rec is None:
        return ABSENT
    if not rec.valid:
        return REJECTED + (rec.reason_code or "unknown")
    if rec.evidence and rec.evidence[0].startswith("added by override"):
        return ADMITTED + OVERRIDE
    classify = BY_VOCABULARY.get(vocabulary)
    if classify is None:
        return ADMITTED + (_head(rec.evidence[0]) if rec.evidence else "no evidence")
    return ADMITTED + classify(rec)


def admitted(cls: str) -> bool:
    return cls.startswith(ADMITTED)
