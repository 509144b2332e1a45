"""Wiring: the sources' evidence -> the form rules -> one record per Cyrillic key.

How a form is judged (see :mod:`.rules` for the rule book and :mod:`.evidence` for the
evidence): apertium's analyses where apertium tags the form, else the analyses of the
hunspell form's learned paradigm slot; each analysis judged by :mod:`.analysis`; a form
passes if ANY analysis passes with a dictionary behind it. ``Record.word`` is the lower-case
Latin spelling, the key its Cyrillic (one letter per tile).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon.build.context import BuildContext, smoke_sample
from lexicon.build.games.kvizovka.analysis import AnalysisJudge, walk_rank
from lexicon.build.games.kvizovka.book import CATEGORY, make_book
from lexicon.build.games.kvizovka.evidence import (
    APERTIUM,
    HUNSPELL_HR,
    HUNSPELL_SR,
    FormCandidate,
    SerboCroatianSources,
    hunspell_source,
)
from lexicon.build.games.kvizovka.lists import PURPOSES, ReviewedLists
from lexicon.build.games.kvizovka.paradigms import MIN_AGREEMENT, MIN_EXAMPLES, HunspellSource
from lexicon.build.games.loading import collector_paused
from lexicon.build.record_writer import split_shared
from lexicon.build.rulebook import RuleBook, Verdict
from lexicon.build.shards import ordered as ordered_shards
from lexicon.build.shards import spans, worker_count
from lexicon.sources.wordlist import LISTS_DIR

from lexicon.errors import BuildError
from lexicon.game import profile as profiles
from lexicon.store.recordfile import Split
from lexicon.store.records import FEMININE_OF_LABEL, Analysis, Record

GAME = "kvizovka"
APERTIUM_DIR = Path("usr/share/apertium/apertium-hbs-slv")
HUNSPELL_DIR = Path("usr/share/hunspell")

MAX_ANALYSES = 6  # analyses stored per admitted record (a referee needs a few, not forty)
MAX_REJECTED_ANALYSES = 3
MAX_EVIDENCE = 4
KEY_SHARD = 20_000      # keys judged per shard (build.shards)
KEYS_LEAST = 200_000    # by default, a worker per this many keys (forking costs)
KEY_RECYCLE = 10        # shards a worker judges before a fresh fork replaces it (its copied
                        # pages and its caches go with it: build.shards.ordered)
CATEGORY_ORDER = ("noun", "verb", "prn", "num", "adj", "adv")


@dataclass
class KeyShard:
    """What judging one shard of the sorted keys gives (:meth:`KvizovkaBuilder.
    _judge_shard`): its records as the store keeps them, and its part of the count of what
    admitted the valid forms."""

    records: list[Split] = field(default_factory=list)
    admitted_by: Counter[str] = field(default_factory=Counter)


class KvizovkaBuilder:
    """Builds the Kvizovka records from explicit inputs (real packages or tiny test files).

    ``generators``: apertium ``*.autogen.bin`` files (SR = ekavian, HR = ijekavian).
    ``hunspell``: :class:`HunspellSource` or ``(dic, aff)`` pairs; Cyrillic ``sr_RS`` is the
    ground truth for tile splits, so list it before Latin dictionaries.
    ``admit_adverbs``: overrides the profile option (None: read ``profile.options``).
    ``lists_dir``: where the reviewed ``hbs_*.txt`` lists live (None: no lists).
    """

    game = GAME
    source_ids: tuple[str, ...] = (APERTIUM, HUNSPELL_SR, HUNSPELL_HR)

    def __init__(self, generators: Sequence[Path], hunspell: Sequence[HunspellSource |
                 tuple[Path, Path]], *, admit_adverbs: bool | None = None,
                 lists_dir: Path | None = LISTS_DIR) -> None:
        self.generators = [Path(g) for g in generators]
        self.hunspell = [h if isinstance(h, HunspellSource) else hunspell_source(*h)
                         for h in hunspell]
        self.profile = profiles.load(GAME)
        option = bool(self.profile.options.get("admit_adverbs", False))
        self.admit_adverbs = option if admit_adverbs is None else admit_adverbs
        self.lists = ReviewedLists.load(lists_dir)
        self.sources = SerboCroatianSources(self.generators, self.hunspell, self.lists,
                                            walk_rank(admit_adverbs=self.admit_adverbs))
        self.stats = self.sources.stats
        # the rules, made once the evidence is complete (:meth:`records`)
        self.judge: AnalysisJudge | None = None
        self.book: RuleBook[FormCandidate] | None = None
        self._shard_keys: list[str] = []   # the keys being judged (build.shards' tasks)

    def make_rules(self) -> tuple[RuleBook[FormCandidate], AnalysisJudge]:
        """The analysis judge (with this build's adverb switch and the reflexive-only verbs
        the sources have shown) and the form rules over it; the sources must be read."""
        judge = self.judge = AnalysisJudge(
            admit_adverbs=self.admit_adverbs,
            reflexive_only=self.sources.reflexive_verb)
        self.book = make_book(frozenset(self.profile.by_canonical), self.lists, judge)
        return self.book, judge

    def _rules_made(self) -> tuple[RuleBook[FormCandidate], AnalysisJudge]:
        if self.book is None or self.judge is None:
            raise BuildError("kvizovka: the rules are made from the evidence; judge the "
                             "records first")
        return self.book, self.judge

    def rules(self) -> list[dict[str, Any]]:
        """Both rule books for the manifest: form rules first, then analysis rules."""
        book, judge = self._rules_made()
        return [{"level": "form", **d} for d in book.describe()] + \
               [{"level": "analysis", **d} for d in judge.book.describe()]

    # -- building ------------------------------------------------------------------------
    def records(self, ctx: BuildContext) -> Iterator[Split]:
        """Read every source (the evidence, complete), make the rules from it, then judge
        every key once, in shards of the sorted keys by ``ctx.workers`` forked processes
        (build.shards), the records yielded in key order whatever their number.

        The sources are read whole even for a smoke build (``ctx.limit``): slots are learned
        from the overlap of the sources, so only the judging is limited, to an evenly spaced
        sample of keys.
        """
        started = time.monotonic()
        self.sources.log = ctx.log
        with collector_paused():      # tens of millions of long-lived objects: see .loading
            self.sources.load()
        self.make_rules()
        keys = sorted(self.sources.keys)
        ctx.log(f"kvizovka: writing {len(keys):,} keys")
        # smoke build: an evenly spaced sample (the sources are read whole: slots need
        # the overlap)
        keys = smoke_sample(keys, ctx.limit)
        ctx.expect_records(len(keys))
        workers = worker_count(ctx.workers, len(keys), KEYS_LEAST)
        self.sources.index()      # built before the workers fork: they share it
        admitted_by: Counter[str] = Counter()
        self._shard_keys = keys
        try:
            for shard in ordered_shards(self._judge_shard,
                                        spans(len(keys), workers, KEY_SHARD), workers,
                                        recycle=KEY_RECYCLE):
                admitted_by.update(shard.admitted_by)
                yield from shard.records
        finally:
            self._shard_keys = []
        self.stats["valid_admitted_by"] = dict(sorted(admitted_by.items()))
        self.stats["seconds_in_builder"] = round(time.monotonic() - started, 1)
        self.sources.release()   # judged: the writer reuses its memory (see release)

    def _judge_shard(self, start: int, stop: int) -> KeyShard:
        """The records of the sorted keys ``start:stop``, already split as the store keeps
        them (a worker sends bytes, not objects), and what admitted the valid ones.

        A pure function of the keys and the loaded evidence: the caches the judging fills
        (a lemma's attestation, a tag set's rank) give the same answers in any process."""
        book, judge = self._rules_made()
        candidate, judge_form, record = self.sources.candidate, book.judge, self._record
        shard = KeyShard()
        shapes: dict[str, str] = {}    # one string per shape: pickled once per shard
        # the collector runs here: what was loaded sits in its oldest generation (frozen,
        # in a worker), and what the judging makes is short-lived, not all of it acyclic
        for key in self._shard_keys[start:stop]:
            cand = candidate(key, judge)
            verdict = judge_form(cand)
            if verdict.valid:
                shard.admitted_by[self._admitted_by(cand)] += 1
            shard.records.append(split_shared(record(cand, verdict), shapes))
        return shard

    @staticmethod
    def _admitted_by(c: FormCandidate) -> str:
        """A label for the manifest's count of what admitted the valid forms."""
        if c.admissible and c.admissible[0].evidence == "possessive_animate":
            return "apertium's possessive of an animate noun, " + "+".join(c.sources)
        if c.admissible and c.admissible[0].evidence == "relational_noun":
            return "apertium's relational adjective of a dictionary's noun, " + "+".join(
                c.sources)
        if any(r.source == APERTIUM for r in c.admissible):
            return "apertium tags, attested by " + "+".join(s for s in c.sources
                                                            if s != APERTIUM)
        if c.admissible and c.admissible[0].evidence == "relational_adjective":
            return "noun's relational adjective read from the ending, " + "+".join(c.sources)
        if c.admissible and c.admissible[0].evidence == "possessive_nominative":
            feminine = FEMININE_OF_LABEL in c.admissible[0].note
            return ("feminine's possessive listed under the masculine, " if feminine
                    else "noun's possessive read from the ending, ") + "+".join(c.sources)
        return "learned hunspell slot, " + "+".join(c.sources)

    @staticmethod
    def _category(c: FormCandidate) -> str | None:
        """Record.category of an admitted form: the first of CATEGORY_ORDER it has."""
        cats = {CATEGORY.get(r.pos) for r in c.admissible}
        return next((cat for cat in CATEGORY_ORDER if cat in cats), None)

    def _record(self, c: FormCandidate, verdict: Verdict) -> Record:
        """The stored record: the analyses behind the verdict, the sources, the evidence."""
        if verdict.valid:
            shown = c.admissible
        elif verdict.code == "unattested":
            shown = c.unsupported
        elif c.explained is not None and verdict.code == c.explained.code:
            shown = c.explained.analyses
        else:
            shown = c.admissible or c.analyses
        analyses = []
        for r in shown[:MAX_ANALYSES if verdict.valid else MAX_REJECTED_ANALYSES]:
            labels = (r.note,) if r.note else ()
            analyses.append(Analysis(r.lemma, ".".join(r.tags), r.source, labels))
        return Record(
            key=c.key, word=c.latin, valid=verdict.valid, reason_code=verdict.code,
            reason_message=verdict.message, analyses=analyses, sources=c.sources,
            category=self._category(c) if verdict.valid else None,
            evidence=verdict.texts[:MAX_EVIDENCE] if verdict.valid else [],
        )

    # -- manifest ------------------------------------------------------------------------
    def policy(self) -> dict[str, Any]:
        """The decisions behind this release, and what the build measured, for the manifest."""
        return {
            "builder": "build.games.kvizovka",
            "admit_adverbs": self.admit_adverbs,
            "decision": self._rules_made()[0].policy(),
            "grammar": "where apertium tags a form (of a common lemma), its analyses are the "
                       "grammar and hunspell only attests; hunspell forms apertium does not "
                       "know inherit the analyses of their paradigm slot",
            "single_source": "an apertium analysis counts only if a dictionary (hunspell-sr or "
                             "hunspell-hr) has the form as a lower-case word and its lemma too; "
                             "otherwise 'unattested' (the generators overgenerate: truncated "
                             "forms such as 'krajnj', possessives of every noun such as "
                             "'gradov', typos in lemmas). Forms only a hunspell dictionary has "
                             "are admitted when their learned slot passes. A compound only "
                             "apertium has (makrojezik) counts when its head is a form a "
                             "dictionary has, read with the same tags, and its first part one "
                             "the dictionaries build words with (evidence compound_head); a "
                             "relational adjective only apertium has (rapsodijski) counts when "
                             "a dictionary has its common noun (evidence relational_noun)",
            "hunspell_grammar": f"a slot is (affix flags, prefix, ending swap); it inherits "
                                f"the apertium tags of its forms whose stem apertium has as "
                                f"lemma (other lemmas' tags only as a weaker fallback); it "
                                f"needs {MIN_EXAMPLES} examples and {MIN_AGREEMENT:.0%} "
                                f"agreement. Slots outside apertium's paradigms are read "
                                f"from their ending (long adjective endings -oga/-ome, "
                                f"conjugated verb forms, truncated infinitives); ne-/naj- "
                                f"forms take the slot of the unprefixed form; bare stems "
                                f"are classified by inflectional flags only; a form that is "
                                f"its stem's possessive base + a nominative ending "
                                f"(-in/-ina/-ino/-ini/-ine of an a-stem, -ov.../-ev... of a "
                                f"consonant stem), whose masculine the same dictionary makes "
                                f"and whose stem a source reads as a noun, is that noun's "
                                f"possessive adjective (evidence possessive_nominative: "
                                f"korisnicin); an -an form of a -ni adjective's stem is its "
                                f"short form when a source says the adjective is "
                                f"qualitative (a second dictionary has the -an form, "
                                f"apertium has its -nost noun, a source its -niji "
                                f"comparative) and apertium does not "
                                f"decline it without one (evidence short_form: "
                                f"inkompresibilan). Anything else is 'unclassified' "
                                f"(rejected)",
            "other_lemmas": "a spelling apertium tags only as forms of other lemmas keeps "
                            "the noun readings of its hunspell slot when the dictionary has "
                            "it as a form of a stem apertium does not know as a lemma "
                            "(evidence own_lemma: bina, bine beside bin's genitive and "
                            "vocative), also beside a verb reading when apertium reads the "
                            "stem itself only as a noun form (planete: planeta, the "
                            "genitive of planet); a consonant stem a dictionary declines "
                            "with every ending of the a-declension (-a, -e, -i, -u, -o, "
                            "-om) has its -a form as nominative singular (evidence a_declension: "
                            "fašista, known to apertium only as fašist's genitive)",
            "reflexive_verbs": "a verb is reflexive-only when every apertium infinitive of "
                               "it is tagged <ref> and no other spelling of it (the loan "
                               "suffix's doublet -isati/-irati/-ovati, the other yat "
                               "reflex) is tagged tv or iv (koncentrisati: koncentrirati) "
                               "(adjusted by hbs_reflexive_only / "
                               "hbs_not_reflexive_only); a verb only hunspell knows is one "
                               "when its ekavian spelling is (osmijehnuti: osmehnuti se), "
                               "otherwise it cannot be told and is admitted unless listed",
            "elatives": "'pre-' forms apertium generates as <ssup> of another adjective "
                        "are rejected (reason elative) even when listed as lemmas of their "
                        "own, except those the sources derive from a pre- verb or noun "
                        "(present stem + -iv, passive participle, noun + -an), the pre- "
                        "forms of relational adjectives, and hbs_not_elative",
            "numbers": "cardinals, ordinals and collective numerals in the nominative or "
                       "without case; Roman numerals are abbreviations",
            "tiles": "key = Cyrillic: hunspell-sr's own spelling, else Latin tiled with the "
                     "splits learned from hunspell-sr (нј, лј, дж), else a prefix "
                     "(nad-, pod-, od-, pred-, kon-, in-, van-, pan-) before a known j/ž "
                     "word, else the digraph reading",
            "sr_Latn_RS": "not read: it is sr_RS transliterated line for line (verified), "
                          "and sr_RS keeps the tile splits",
            "generators": [str(p.name) for p in self.generators],
            "hunspell": [{"id": h.source_id, "dic": h.dic.name,
                          "script": "Cyrl" if h.cyrillic else "Latn"} for h in self.hunspell],
            "reviewed_lists": {name: {"entries": n, "purpose": PURPOSES[name]}
                               for name, n in self.lists.sizes().items()},
            "measured": self.stats,
        }


def builder(ctx: BuildContext) -> KvizovkaBuilder:
    """The production builder: the pinned packages, fetched by the pipeline."""
    apertium = ctx.source_root(APERTIUM) / APERTIUM_DIR
    sr = ctx.source_root(HUNSPELL_SR) / HUNSPELL_DIR
    hr = ctx.source_root(HUNSPELL_HR) / HUNSPELL_DIR
    return KvizovkaBuilder(
        generators=[apertium / "slv-hbs_SR.autogen.bin", apertium / "slv-hbs_HR.autogen.bin"],
        hunspell=[HunspellSource(HUNSPELL_SR, sr / "sr_RS.dic", sr / "sr_RS.aff", True),
                  HunspellSource(HUNSPELL_HR, hr / "hr_HR.dic", hr / "hr_HR.aff", False)],
    )


