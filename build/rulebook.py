"""A game's lexical rules: named vetoes, admissions and explanations over typed evidence.

Every builder decides a word the same way, so a reader learns it once:

1. **Vetoes** (:class:`Reject` rules listed first) reject a candidate whatever else is known
   about it: a hyphen, a letter no tile stands for, a reviewed exclusion.
2. **Admissions** (:class:`Admit` rules) look for positive evidence that the candidate is a
   word the rule book admits. Each returns :class:`Evidence` values (a kind, a text for the
   referee, the category it supports, the sources it rests on), which travel unchanged to
   the record and to the manifest's counts: no builder flattens evidence to text and parses
   it back. A *supporting* admission only adds weight to evidence found by another rule.
3. **Explanations** (:class:`Reject` rules listed after the admissions) say why a candidate
   that no admission rule admitted is not a word, most informative first.
4. **Otherwise**: the last word for a candidate nothing admitted and nothing explained.

The first rule that rejects gives the stable reason code (from :mod:`lexicon.game.reasons`) and
a specific message. A book without admission rules admits whatever no veto rejects: its
candidates come from a list that is itself the evidence (the Polish word lists).

:meth:`RuleBook.policy` and :meth:`RuleBook.describe` are generated from the rules' own
summaries, so the manifest cannot drift from the code that decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from lexicon.game.reasons import REASONS

C = TypeVar("C")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One piece of evidence about a candidate, kept typed from the rule to the record."""

    kind: str                       # stable id: "apertium", "paradigm", "list:sl_phrases.txt"
    text: str                       # what a referee reads: "apertium-hbs-slv: hiša<n><f>..."
    category: str | None = None     # the Record.category it supports ("noun", "name", ...)
    sources: tuple[str, ...] = ()   # source ids it rests on (they join Record.sources)


@dataclass(frozen=True, slots=True)
class Rejection:
    """A rejection message with the evidence behind it (when a bare message is too little)."""

    message: str
    evidence: tuple[Evidence, ...] = ()


Finding = str | Rejection | None
Found = Evidence | Iterable[Evidence] | None


@dataclass(frozen=True)
class Reject(Generic[C]):
    """A rule that rejects: ``test`` returns a message (or a :class:`Rejection`) or None."""

    code: str                               # a reason code from lexicon.game.reasons
    summary: str                            # one line for the manifest's policy
    test: Callable[[C], Finding]
    name: str = ""                          # defaults to the test function's name

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise ValueError(f"rule {self.summary!r} uses unregistered reason {self.code!r}")
        if not self.name:
            object.__setattr__(self, "name", getattr(self.test, "__name__", self.code))

    def apply(self, candidate: C) -> Rejection | None:
        found = self.test(candidate)
        if found is None or isinstance(found, Rejection):
            return found
        return Rejection(found)


@dataclass(frozen=True)
class Admit(Generic[C]):
    """A rule that admits: ``test`` returns the evidence it found (none: no opinion).

    ``supporting``: the evidence is recorded only when another admission rule found some, and
    only if it brings a source that evidence does not already rest on; on its own it admits
    nothing (LemmaGen's "its own lemma" confirms a paradigm, no more).
    """

    kind: str                               # default Evidence.kind; names the rule too
    summary: str
    test: Callable[[C], Found]
    supporting: bool = False

    @property
    def name(self) -> str:
        return self.kind

    def apply(self, candidate: C) -> list[Evidence]:
        found = self.test(candidate)
        if found is None:
            return []
        if isinstance(found, Evidence):
            return [found]
        return list(found)


@dataclass(frozen=True)
class Verdict:
    """What the book decided about one candidate, and why."""

    valid: bool
    code: str | None = None
    message: str | None = None
    evidence: tuple[Evidence, ...] = ()     # admission evidence, or the rejection's own
    rule: str | None = None                 # name of the deciding rule (None: default)

    @property
    def category(self) -> str | None:
        """The category the strongest (first) admission evidence supports."""
        return next((e.category for e in self.evidence if e.category), None)

    @property
    def kinds(self) -> list[str]:
        return list(dict.fromkeys(e.kind for e in self.evidence))

    @property
    def sources(self) -> list[str]:
        """Every source the evidence rests on, sorted."""
        return sorted({s for e in self.evidence for s in e.sources})

    @property
    def texts(self) -> list[str]:
        return list(dict.fromkeys(e.text for e in self.evidence))


@dataclass
class RuleBook(Generic[C]):
    """Vetoes, then admissions, then explanations, then ``otherwise`` (see the module doc).

    ``judge`` also counts what each reason rejected and which evidence kind decided each
    admission, for the manifest.
    """

    name: str
    vetoes: Sequence[Reject[C]] = ()
    admissions: Sequence[Admit[C]] = ()
    explanations: Sequence[Reject[C]] = ()
    otherwise: Reject[C] | None = None
    rejected_by: dict[str, int] = field(default_factory=dict)
    admitted_by: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if self.admissions and self.otherwise is None:
            raise ValueError(f"rule book {self.name!r} admits by evidence, so it needs an "
                             "'otherwise' rule for candidates with none")
        if not self.admissions and (self.explanations or self.otherwise):
            raise ValueError(f"rule book {self.name!r}: explanations need admission rules")

    @property
    def rules(self) -> list[Reject[C]]:
        """Every rejection rule in the order it is tried."""
        tail = [self.otherwise] if self.otherwise is not None else []
        return [*self.vetoes, *self.explanations, *tail]

    def evidence(self, candidate: C) -> list[Evidence]:
        """Everything the admission rules find, strongest rule first."""
        found: list[Evidence] = []
        support: list[Evidence] = []
        for rule in self.admissions:
            (support if rule.supporting else found).extend(rule.apply(candidate))
        if not found:
            return []
        # supporting evidence is kept where it brings a source the rest does not rest on
        have = {s for e in found for s in e.sources}
        return found + [e for e in support if not set(e.sources) <= have]

    def judge(self, candidate: C) -> Verdict:
        for rule in self.vetoes:
            rejected = rule.apply(candidate)
            if rejected is not None:
                return self._reject(rule, rejected)
        if not self.admissions:
            return Verdict(True)
        found = self.evidence(candidate)
        if found:
            self.admitted_by[found[0].kind] += 1
            return Verdict(True, evidence=tuple(found), rule=found[0].kind)
        for rule in self.rules[len(self.vetoes):]:
            rejected = rule.apply(candidate)
            if rejected is not None:
                return self._reject(rule, rejected)
        raise ValueError(f"rule book {self.name!r}: 'otherwise' rule {self.otherwise!r} "
                         "must reject every candidate it is asked about")

    def _reject(self, rule: Reject[C], rejected: Rejection) -> Verdict:
        self.rejected_by[rule.code] = self.rejected_by.get(rule.code, 0) + 1
        return Verdict(False, rule.code, rejected.message, rejected.evidence, rule.name)

    # -- the manifest, generated from the rules ----------------------------------------------
    def describe(self) -> list[dict[str, Any]]:
        """One row per rule, in the order they are tried (the manifest's ``rules``)."""
        def rejecting(phase: str, rules: Iterable[Reject[C]]) -> list[dict[str, Any]]:
            return [{"phase": phase, "name": r.name, "code": r.code, "summary": r.summary}
                    for r in rules]

        admitting = [{"phase": "admission", "name": r.name, "code": None, "evidence": r.kind,
                      "supporting": r.supporting, "summary": r.summary}
                     for r in self.admissions]
        return [*rejecting("veto", self.vetoes), *admitting,
                *rejecting("explanation", self.explanations),
                *rejecting("otherwise", [self.otherwise] if self.otherwise else [])]

    def policy(self) -> list[str]:
        """The decision procedure in words, one line per rule, from the rules' summaries."""
        lines = [f"veto ({r.code}): {r.summary}" for r in self.vetoes]
        if not self.admissions:
            return [*lines, "admitted: every candidate no veto rejects"]
        lines += [f"admit{' (supporting only)' if r.supporting else ''} [{r.kind}]: "
                  f"{r.summary}" for r in self.admissions]
        lines += [f"else explain ({r.code}): {r.summary}" for r in self.explanations]
        if self.otherwise is not None:
            lines.append(f"otherwise ({self.otherwise.code}): {self.otherwise.summary}")
        return lines
