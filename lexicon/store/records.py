"""What the store says about one word: a :class:`Record` and its analyses.

How a record is laid out on disk is :mod:`lexicon.store.recordfile`'s (a shape number plus the
word's own bytes, in LMDB). ``VALID``/``REJECTED`` are the status bytes
:meth:`lexicon.store.release.Release.iter_records` pairs with each key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VALID = b"\x01"
REJECTED = b"\x00"

#: How an analysis's first label says that the Kvizovka builder read a hunspell form as the
#: nominative of a noun's possessive adjective (``possessive of the noun Marko``): part of
#: the record format, since the audit draws and weighs such words as a class of their own
POSSESSIVE_LABEL = "possessive of the noun "
#: How an analysis's first label says that the Kvizovka builder admitted apertium's
#: possessive adjective of an animate noun no dictionary spells (``...; possessive of a
#: person or an animal: brat``): a class of its own for the audit, like the above
ANIMATE_POSSESSIVE_LABEL = "possessive of a person or an animal: "
#: How such a possessive's label says that the dictionary lists it under the masculine
#: whose feminine the noun is (``possessive of the noun slikarica, the feminine of slikar,
#: ...``): another evidence path, so another class for the audit
FEMININE_OF_LABEL = ", the feminine of "
#: How an analysis's first label says that the Kvizovka builder read a hunspell form as a
#: nominative of the relational adjective (-ski, -čki) of the noun it is listed under
#: (``relational adjective of the noun trilion``): a class of its own for the audit
RELATIONAL_LABEL = "relational adjective of the noun "
#: How an analysis's label says that the Kvizovka builder admitted apertium's relational
#: adjective no dictionary spells because a dictionary has its noun (``...; the
#: adjective of the common noun rapsodija, which a dictionary has``): a class for the audit
RELATIONAL_NOUN_LABEL = "the adjective of the common noun "


@dataclass
class Analysis:
    lemma: str
    tags: str
    source: str
    labels: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"lemma": self.lemma, "tags": self.tags, "source": self.source}
        if self.labels:
            out["labels"] = list(self.labels)
        return out


@dataclass
class Record:
    key: str                     # canonical tiles (see lexicon.game.profile)
    word: str                    # display spelling: stored capitals, Latin, phrase spaces
    valid: bool
    reason_code: str | None = None
    reason_message: str | None = None
    analyses: list[Analysis] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    category: str | None = None  # e.g. "noun", "verb:inf", "adj", "name"
    evidence: list[str] = field(default_factory=list)  # what admitted it, human-readable

    def merge(self, other: Record) -> Record:
        """Combine two records for the same key: the one merge policy of every builder.

        Spellings of one key meet here: ``Bóg`` and ``bóg`` in Polish, ``kalin`` (the bird)
        and ``Kalin`` (a surname) in Križemkražem. An admitted spelling wins over a rejected
        one; then the lower-case one (``np`` the abbreviation, not ``Np`` the chemical
        symbol; ``kalin`` before ``Kalin``): it is the word a player actually laid; then the
        first in code-point order, so the result never depends on which arrived first. When
        both are admitted, sources, analyses and evidence are pooled so the answer still
        says everything that is known; evidence of the other spelling names it
        (``Kalin: ...``).
        """
        first, second = sorted((self, other), key=lambda r: (
            not r.valid, r.word != r.word.lower(), r.word))
        if not (first.valid and second.valid):
            return first
        for a in second.analyses:
            if a not in first.analyses:
                first.analyses.append(a)
        first.sources = sorted(set(first.sources) | set(second.sources))
        other_evidence = second.evidence if second.word == first.word else [
            f"{second.word}: {e}" for e in second.evidence]
        first.evidence = list(dict.fromkeys(first.evidence + other_evidence))
        return first
