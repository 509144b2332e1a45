"""Wiring: the sources' evidence -> the rule book -> one record per key, and the manifest.

Candidates are every form of ``hunspell-sl`` expanded by :mod:`sources.hunspell` (1.16M
forms, proper names included), every single-word surface of the apertium Slovenian
analyser, the FreeDict headwords, the thesaurus's noun headwords and the reviewed
lists. Each spelling is judged by
:func:`.rules.make_book`; spellings of one key (``kalin``, ``Kalin``) are combined by
:meth:`lexicon.store.records.Record.merge`. Rejections name the rule and the specific reason, e.g.
*hiše*: "genitive singular (or nominative plural, accusative plural) of hiša; only the
nominative singular is admitted".
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import reduce
from itertools import groupby
from typing import Any

from lexicon.build.context import BuildContext, smoke_sample
from lexicon.build.games.krizemkrazem import morph
from lexicon.build.games.krizemkrazem.evidence import (
    APERTIUM,
    FREEDICT,
    HUNSPELL,
    LEMMAGEN,
    MYTHES,
    Candidate,
    Inputs,
    SlovenianSources,
)
from lexicon.build.games.krizemkrazem.rules import make_book
from lexicon.build.games.loading import collector_paused
from lexicon.build.progress import peak_rss_mb
from lexicon.build.rules import Verdict
from lexicon.sources import lemmagen

from lexicon.game.profile import Profile
from lexicon.game.profile import load as load_profile
from lexicon.store.records import Analysis, Record

GAME = "krizemkrazem"
MAX_ANALYSES = 8
#: what a paradigm says about gender, for the analysis shown when no analyser tag exists
GENDER_TAG = {"masc": "m", "fem_a": "f", "fem_i": "f", "neut": "nt", "pl_masc": "m",
              "pl_fem": "f", "pl_neut": "nt"}


class KrizemkrazemBuilder:
    """Judges every known Slovenian form for Križemkražem (see :mod:`.rules`)."""

    game = GAME

    def __init__(self, inputs: Inputs, profile: Profile | None = None,
                 lemmatizer: lemmagen.SlovenianLemmatizer | None = None) -> None:
        """``lemmatizer`` overrides LemmaGen (tests pass a small fixed one, so a model
        update cannot change what they assert); without it LemmaGen is loaded if
        ``inputs.use_lemmagen`` and installed."""
        self.inputs = inputs
        self.profile = profile or load_profile(GAME)
        ids = [HUNSPELL]
        if inputs.analyser:
            ids.append(APERTIUM)
        if inputs.freedict_root:
            ids.append(FREEDICT)
        if inputs.thesaurus_root:
            ids.append(MYTHES)
        self.lemmatizer_used = "injected" if lemmatizer else "not used"
        if lemmatizer is None and inputs.use_lemmagen:
            lemmatizer = lemmagen.load()
            self.lemmatizer_used = f"lemmagen3 {lemmagen.version()}" if lemmatizer else \
                "lemmagen3 not installed"
        self.lemmatizer = lemmatizer
        if self.lemmatizer:
            ids.append(LEMMAGEN)
        self.source_ids: tuple[str, ...] = tuple(ids)
        self.book = make_book(frozenset(self.profile.by_spelling))
        self.sources = SlovenianSources(inputs, self.profile, lemmatizer)
        self.stats: Counter[str] = Counter()
        self.decided: Counter[str] = Counter()     # admitted records by deciding evidence
        self.supported: Counter[str] = Counter()   # admitted records by any evidence
        self.by_list: dict[str, Counter[str]] = defaultdict(Counter)

    def judge(self, w: str) -> tuple[Candidate, Verdict, Record]:
        """One spelling: its candidate, the book's verdict and the record it becomes."""
        c = self.sources.candidate(w)
        verdict = self.book.judge(c)
        analyses = [Analysis(a.lemma, ".".join(a.tags), APERTIUM)
                    for a in c.analyses[:MAX_ANALYSES]]
        if verdict.valid and not analyses and c.paradigms and (verdict.rule or "").startswith(
                ("paradigm", "freedict", "plural_paradigm")):
            p = c.paradigms[0]
            num = "pl" if p.cls in morph.PLURAL_ONLY else "sg"
            analyses = [Analysis(w, f"n.{GENDER_TAG[p.cls]}.{num}.nom", "paradigm")]
        sources = c.present_in() + (verdict.sources if verdict.valid else [])
        rec = Record(
            key=c.key, word=w, valid=verdict.valid, reason_code=verdict.code,
            reason_message=verdict.message, analyses=analyses,
            sources=sorted(set(sources)), category=verdict.category if verdict.valid else None,
            evidence=verdict.texts if verdict.valid else [],
        )
        return c, verdict, rec

    def records(self, ctx: BuildContext) -> Iterator[Record]:
        """Read every source and the paradigm pass (the evidence, complete), then judge
        every key once by the rule book (which needs no evidence to be made)."""
        started = time.monotonic()
        src = self.sources
        src.log = ctx.log
        with collector_paused():      # millions of long-lived objects: see build.games.loading
            src.load()
            words = src.spellings()
            self.stats["candidates"] = len(words)
            src.paradigm_pass(words)
        if ctx.limit is not None:  # smoke build: whole key groups, spread over the alphabet
            keep = set(smoke_sample(sorted({src.key(w) for w in words}), ctx.limit))
            words = [w for w in words if src.key(w) in keep]
            self.stats["judged_limit"] = ctx.limit
        ctx.log(f"{GAME}: judging {len(words):,} spellings")
        ctx.expect_records(sum(1 for _ in groupby(words, key=src.key)))   # one per key
        t = time.monotonic()
        for _, items in groupby(words, key=src.key):    # collector on: see kvizovka's
            judged = [self.judge(w) for w in items]
            rec = reduce(Record.merge, (r for _, _, r in judged))
            self._count(judged, rec)
            yield rec
        src.timings["judging_s"] = round(time.monotonic() - t, 1)
        src.timings["judging_peak_rss_mb"] = peak_rss_mb()
        src.timings["builder_total_s"] = round(time.monotonic() - started, 1)
        src.free()

    def _count(self, judged: list[tuple[Candidate, Verdict, Record]], rec: Record) -> None:
        self.stats["records"] += 1
        if rec.valid:
            self.stats["admitted"] += 1
            chosen = next(v for _, v, r in judged if r is rec)
            self.decided[chosen.rule or "?"] += 1
            kinds = {k for _, v, r in judged if r.valid for k in v.kinds}
            for k in sorted(kinds):
                self.supported[k] += 1
        for c, v, r in judged:
            if c.listed:
                counter = self.by_list[c.listed.file]
                counter["entries_judged"] += 1
                counter["admitted" if r.valid else "rejected"] += 1
                if r.valid and all(k.startswith("list:") for k in v.kinds):
                    counter["admitted_only_by_this_list"] += 1
            if c.excluded:
                self.by_list[c.excluded.file]["entries_judged"] += 1
                self.by_list[c.excluded.file]["rejected"] += 1

    # -- manifest ----------------------------------------------------------------------------
    def policy(self) -> dict[str, Any]:
        lists: dict[str, dict[str, Any]] = {}
        for e in self.sources.list_entries + self.sources.exclusions:
            lists.setdefault(e.file, {"category": e.category, "entries": 0})
            lists[e.file]["entries"] += 1
        for name, counter in sorted(self.by_list.items()):
            lists.setdefault(name, {}).update(dict(sorted(counter.items())))
        return {
            "builder": "build.games.krizemkrazem",
            "decision": self.book.policy(),
            "lemmatizer": self.lemmatizer_used,
            "admitted_by_deciding_evidence": dict(self.decided.most_common()),
            "admitted_supported_by": dict(self.supported.most_common()),
            "lists": lists,
            "stats": {**self.sources.stats, **self.stats},
            "rejected_by_rule": dict(sorted(self.book.rejected_by.items())),
            "timings": self.sources.timings,
        }

    def rules(self) -> list[dict[str, Any]]:
        return self.book.describe()


def builder(ctx: BuildContext) -> KrizemkrazemBuilder:
    """The builder over the fetched, pinned sources."""
    hroot = ctx.source_root(HUNSPELL) / "usr" / "share" / "hunspell"
    aroot = ctx.source_root(APERTIUM) / "usr" / "share" / "apertium" / "apertium-hbs-slv"
    return KrizemkrazemBuilder(Inputs(
        dic=hroot / "sl_SI.dic", aff=hroot / "sl_SI.aff",
        analyser=aroot / "slv-hbs.automorf.bin",
        freedict_root=ctx.source_root(FREEDICT),
        thesaurus_root=ctx.source_root(MYTHES),
    ))
