"""Is this word valid in this game, and why not: the one decision, written as data.

A verdict's ``valid`` and its reason come from one ordered list of :class:`Step`, made from
the game's :class:`~lexicon.game.play.PlayRules` and applied to a reading of the word and
the record the release holds for it; the first step that holds gives the reason, none holding
means the word is valid:

1. ``rejected``: the release holds a record that rejects the key (its own reason code: a
   proper noun, an inflected form ...), the lexical verdict decided at build time;
2. ``foreign_among``: a character no tile carries is a hyphen or an apostrophe;
3. ``foreign``: any other character no tile carries;
4. ``letters_over``: more letters only a joker plays than the game has jokers;
5. ``shorter`` and ``longer``: the lengths, with the board's edge (Kvizovka's 3 letters);
6. ``unheld``: the release holds no record of the key.

The steps are the one place the rules are applied; everything else reads them:

* :meth:`Validity.broken` interprets them for :mod:`lexicon.verdicts.checker`, with the
  sentence a referee reads;
* :meth:`Validity.compiled` compiles them, for one board position, into the few bounds the
  batch hot path (:mod:`lexicon.verdicts.fastcheck`) and the build's index of Latin
  spellings test: a key of tiles only found among the valid keys has settled the steps about
  the record and foreign characters, so only the steps about the key's letters remain;
* :meth:`Validity.table` writes them as JSON into the referee page's offline pack
  (:mod:`lexicon.export.offline`), which ``service/static/offline.js`` interprets step by
  step, in this order, with these codes and limits: the page holds no rule of its own.

A new rule is a new step here (a test name, its data, its sentence) and a reader of the
same name in ``offline.js``; a step the compiled form does not know stops the hot path from
being built, rather than letting it answer differently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from lexicon.game.play import PlayRules, play_rules
from lexicon.game.profile import Profile
from lexicon.game.reasons import describe
from lexicon.store.records import Record

#: the characters no tile carries that make a word one "needing a hyphen or an apostrophe"
HYPHENS = ("-", "'", "’")
#: the reason of a rejected record that names none, and of a word no record holds
UNKNOWN = "unknown"
TOO_SHORT, TOO_LONG = "too_short", "too_long"
#: the reasons that refuse a word for its length alone (Remik: rules of form, not wrong words)
LENGTH_CODES = (TOO_SHORT, TOO_LONG)


@dataclass(frozen=True)
class Broken:
    """The rule a word breaks: a reason code and a sentence a referee can read."""

    code: str
    message: str


@dataclass(frozen=True)
class Step:
    """One rule of the decision: the named test (:data:`TESTS`), the reason code it gives
    (``rejected``: the record's own, this one when the record names none) and the test's
    data (characters, letters, limits)."""

    test: str
    code: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"test": self.test, "code": self.code, **self.data}


class Case(NamedTuple):
    """What one decision looks at: a reading's key, its characters no tile carries, the
    record the release holds for it (None: none), the board position and the typed word.
    A named tuple: one is made for every verdict, at C speed."""

    key: str
    foreign: tuple[str, ...]
    record: Record | None
    edge: bool
    word: str


def _rejected(step: Step, case: Case, profile: Profile) -> Broken | None:
    record = case.record
    if record is None or record.valid:
        return None
    code = record.reason_code or step.code
    return Broken(code, record.reason_message or describe(code))


def _foreign_among(step: Step, case: Case, profile: Profile) -> Broken | None:
    if not case.foreign or step.data["chars"].isdisjoint(case.foreign):
        return None
    odd = "".join(dict.fromkeys(case.foreign))
    return Broken(step.code, f"contains {odd!r}: words needing a hyphen or apostrophe "
                               "are not played")


def _foreign(step: Step, case: Case, profile: Profile) -> Broken | None:
    if not case.foreign:
        return None
    odd = dict.fromkeys(case.foreign)
    return Broken(step.code, f"contains {', '.join(repr(c) for c in odd)}, which no "
                               f"tile of {profile.name} carries")


def _letters_over(step: Step, case: Case, profile: Profile) -> Broken | None:
    letters = step.data["letters"]
    if not letters or letters.isdisjoint(case.key):
        return None
    needed = [profile.by_canonical[c].letter for c in case.key if c in letters]
    if len(needed) <= step.data["most"]:
        return None
    return Broken(step.code, f"needs {len(needed)} jokers for {', '.join(needed)}; the "
                               f"game has {step.data['most']}")


def _least(step: Step, edge: bool) -> int:
    edge_least = step.data["edge_least"]
    return edge_least if edge and edge_least is not None else step.data["least"]


def _shorter(step: Step, case: Case, profile: Profile) -> Broken | None:
    n, least = len(case.key), _least(step, case.edge)
    if n >= least:
        return None
    edge_least = step.data["edge_least"]
    note = ""
    if edge_least is not None and not case.edge:
        note = f" ({edge_least} at the board's edge)"
    return Broken(step.code, f"{n} tiles; {least} required{note}")


def _longer(step: Step, case: Case, profile: Profile) -> Broken | None:
    n = len(case.key)
    if n <= step.data["most"]:
        return None
    return Broken(step.code, f"{n} tiles; at most {step.data['most']}")


def _unheld(step: Step, case: Case, profile: Profile) -> Broken | None:
    if case.record is not None:
        return None
    return Broken(step.code, f"{case.word!r} is in none of this release's sources")


#: the named tests a step may use: what each decides (and offline.js reads by the same name)
TESTS: dict[str, Callable[[Step, Case, Profile], Broken | None]] = {
    "rejected": _rejected, "foreign_among": _foreign_among, "foreign": _foreign,
    "letters_over": _letters_over, "shorter": _shorter, "longer": _longer, "unheld": _unheld,
}

#: the tests a lookup among the valid keys of a key of tiles only has settled already
SETTLED_BY_LOOKUP = frozenset({"rejected", "foreign_among", "foreign", "unheld"})


@dataclass(frozen=True)
class Compiled:
    """The steps a key of tiles only, found among the release's valid keys, can still
    break, for one board position: its length bounds and the letters only a joker plays."""

    least: int
    most: int
    joker_letters: frozenset[str]
    jokers: int

    def allows(self, key: str) -> bool:
        """No step breaks ``key`` (a valid key of tiles only), at the cost of a length test."""
        return self.least <= len(key) <= self.most and (
            not self.joker_letters or self.joker_letters.isdisjoint(key)
            or sum(key.count(c) for c in self.joker_letters) <= self.jokers)


class Validity:
    """One game's decision (see the module docstring)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.steps = _steps(play_rules(profile))
        self._tests = tuple((TESTS[s.test], s) for s in self.steps)
        self._compiled = {edge: self._compile(edge) for edge in (False, True)}

    def broken(self, key: str, foreign: tuple[str, ...], record: Record | None, *,
               edge: bool = False, word: str = "") -> Broken | None:
        """The first step ``key`` breaks, with its reason, or None: the word is valid."""
        case, profile = Case(key, foreign, record, edge, word or key), self.profile
        for test, step in self._tests:
            broken = test(step, case, profile)
            if broken is not None:
                return broken
        return None

    def compiled(self, *, edge: bool = False) -> Compiled:
        """The steps compiled for the batch hot path (see :class:`Compiled`)."""
        return self._compiled[edge]

    def allows(self, key: str, *, edge: bool = False) -> bool:
        """:meth:`broken` finds no fault with a valid record of ``key``, a key of tiles only."""
        return self._compiled[edge].allows(key)

    def _compile(self, edge: bool) -> Compiled:
        least, most, letters, jokers = 0, 1 << 30, frozenset[str](), 1 << 30
        for step in self.steps:
            if step.test == "shorter":
                least = _least(step, edge)
            elif step.test == "longer":
                most = step.data["most"]
            elif step.test == "letters_over":
                letters, jokers = step.data["letters"], step.data["most"]
            elif step.test not in SETTLED_BY_LOOKUP:
                raise ValueError(f"the hot path cannot compile the step {step.test!r}")
        return Compiled(least, most, letters, jokers)

    def table(self) -> dict[str, Any]:
        """The steps as JSON, in order, for the offline pack (sets as sorted lists)."""
        steps = []
        for step in self.steps:
            item = step.to_json()
            if "letters" in item:
                item["letters"] = sorted(item["letters"])
            if "chars" in item:
                item["chars"] = sorted(item["chars"])
            steps.append(item)
        return {"steps": steps}


def _steps(rules: PlayRules) -> tuple[Step, ...]:
    """The decision's steps for one game, in the order they apply."""
    return (
        Step("rejected", UNKNOWN),
        Step("foreign_among", "hyphen_or_apostrophe", {"chars": frozenset(HYPHENS)}),
        Step("foreign", "not_in_alphabet"),
        Step("letters_over", "too_many_jokers",
             {"letters": rules.joker_only, "most": rules.jokers}),
        Step("shorter", TOO_SHORT,
             {"least": rules.min_length, "edge_least": rules.edge_min_length}),
        Step("longer", TOO_LONG, {"most": rules.max_length}),
        Step("unheld", UNKNOWN),
    )


def validity(profile: Profile) -> Validity:
    """The (cached) decision of ``profile``."""
    return profile.derived(Validity)

