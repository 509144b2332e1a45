"""Lexical rules as small, named predicates that explain themselves.

A :class:`Rule` looks at one candidate form (its spelling and its analyses) and either
passes it (returns None) or rejects it with a message; the rule's ``code`` is the stable
reason code stored in the release. A game's rule list is ordered: the first rule that
rejects a form gives its reason, so put the most specific, most useful explanation first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from lexicon.reasons import REASONS

C = TypeVar("C")


@dataclass(frozen=True)
class Rule(Generic[C]):
    code: str                               # a reason code from lexicon.reasons
    summary: str                            # one line for docs and manifests
    test: Callable[[C], str | None]         # message when the rule rejects, else None

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise ValueError(f"rule {self.summary!r} uses unregistered reason {self.code!r}")


@dataclass
class Verdict:
    valid: bool
    code: str | None = None
    message: str | None = None


@dataclass
class RuleBook(Generic[C]):
    """An ordered list of rules; ``judge`` applies them and counts what each rejected."""

    name: str
    rules: Sequence[Rule[C]]
    rejected_by: dict[str, int] = field(default_factory=dict)

    def judge(self, candidate: C) -> Verdict:
        for rule in self.rules:
            message = rule.test(candidate)
            if message is not None:
                self.rejected_by[rule.code] = self.rejected_by.get(rule.code, 0) + 1
                return Verdict(False, rule.code, message)
        return Verdict(True)

    def describe(self) -> list[dict[str, str]]:
        return [{"code": r.code, "summary": r.summary} for r in self.rules]
