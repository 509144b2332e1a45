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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from lexicon.build.context import BuildContext, smoke_sample
from lexicon.build.games.krizemkrazem import morph
from lexicon.build.games.krizemkrazem.book import make_book
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
from lexicon.build.games.loading import collector_paused
from lexicon.build.progress import peak_rss_mb
from lexicon.build.record_writer import split_shared
from lexicon.build.rulebook import Verdict
from lexicon.build.shards import ordered as ordered_shards
from lexicon.build.shards import spans, worker_count
from lexicon.sources import lemmagen

from lexicon.game.profile import Profile
from lexicon.game.profile import load as load_profile
from lexicon.store.recordfile import Split
from lexicon.store.records import Analysis, Record

GAME = "krizemkrazem"
MAX_ANALYSES = 8
KEYS_CHUNK = 10_000     # keys judged per shard (build.shards)
KEYS_LEAST = 200_000    # by default, a worker per this many keys (start-up costs)
#: what a paradigm says about gender, for the analysis shown when no analyser tag exists
GENDER_TAG = {"masc": "m", "fem_a": "f", "fem_i": "f", "neut": "nt", "pl_masc": "m",
              "pl_fem": "f", "pl_neut": "nt"}


@dataclass
class Shard:
    """What judging one shard of the sorted keys gives (:meth:`KrizemkrazemBuilder.
    _judge_shard`): its records as the store keeps them, and its part of the build's counts,
    added up in shard order by the build's process."""

    records: list[Split] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    decided: Counter[str] = field(default_factory=Counter)
    supported: Counter[str] = field(default_factory=Counter)
    by_list: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    rejected_by: dict[str, int] = field(default_factory=dict)
    admitted_by: Counter[str] = field(default_factory=Counter)


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
        self._shard_words: tuple[Sequence[str], Sequence[str], list[int]] = ([], [], [])

    def judge(self, w: str, key: str | None = None) -> tuple[Candidate, Verdict, Record]:
        """One spelling: its candidate, the book's verdict and the record it becomes."""
        c = self.sources.candidate(w, key)
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

    def records(self, ctx: BuildContext) -> Iterator[Split]:
        """Read every source and the paradigm pass (the evidence, complete), then judge
        every key once by the rule book (which needs no evidence to be made).

        Both passes run in ``ctx.workers`` processes forked once the sources are read
        (:mod:`build.shards`): a key's record is a pure function of its spellings and the
        evidence, so shards of the sorted keys are judged apart and taken back in order."""
        started = time.monotonic()
        src = self.sources
        src.log = ctx.log
        with collector_paused():      # millions of long-lived objects: see build.games.loading
            src.load()
            keyed = src.keyed_spellings()
            keys, words = [k for k, _w in keyed], [w for _k, w in keyed]
            del keyed
            self.stats["candidates"] = len(words)
            src.paradigm_pass(words, ctx.workers)
        if ctx.limit is not None:  # smoke build: whole key groups, spread over the alphabet
            keep = set(smoke_sample(sorted(set(keys)), ctx.limit))
            picked = [i for i, k in enumerate(keys) if k in keep]
            words, keys = [words[i] for i in picked], [keys[i] for i in picked]
            self.stats["judged_limit"] = ctx.limit
        ctx.log(f"{GAME}: judging {len(words):,} spellings")
        # where each key's spellings start in ``words`` (they are adjacent), and the end
        starts = [i for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]
        starts.append(len(words))
        ctx.expect_records(len(starts) - 1)   # one per key
        t = time.monotonic()
        workers = worker_count(ctx.workers, len(starts) - 1, KEYS_LEAST)
        self._shard_words = (words, keys, starts)
        try:
            for shard in ordered_shards(self._judge_shard, spans(len(starts) - 1, workers,
                                                                 KEYS_CHUNK), workers):
                self._take(shard)
                yield from shard.records
        finally:
            self._shard_words = ([], [], [])
        src.timings["judging_s"] = round(time.monotonic() - t, 1)
        src.timings["judging_peak_rss_mb"] = peak_rss_mb()
        src.timings["builder_total_s"] = round(time.monotonic() - started, 1)
        src.free()

    def _judge_shard(self, start: int, stop: int) -> Shard:
        """The records of keys ``start:stop`` (in sorted order) and what judging them
        counted, with this builder's counters left as they were (in a worker they are a
        forked copy; in the build's own process they are the build's)."""
        words, keys, starts = self._shard_words
        shard = Shard()
        kept = (self.stats, self.decided, self.supported, self.by_list,
                self.book.rejected_by, self.book.admitted_by)
        self.stats, self.decided, self.supported, self.by_list = \
            shard.stats, shard.decided, shard.supported, shard.by_list
        self.book.rejected_by, self.book.admitted_by = shard.rejected_by, shard.admitted_by
        shapes: dict[str, str] = {}    # one string per shape: pickled once per shard
        try:
            for i in range(start, stop):
                key = keys[starts[i]]
                judged = [self.judge(w, key) for w in words[starts[i]:starts[i + 1]]]
                rec = reduce(Record.merge, (r for _, _, r in judged))
                self._count(judged, rec)
                shard.records.append(split_shared(rec, shapes))
        finally:
            (self.stats, self.decided, self.supported, self.by_list,
             self.book.rejected_by, self.book.admitted_by) = kept
        return shard

    def _take(self, shard: Shard) -> None:
        """Count a judged shard into the build, in shard order (the order of one pass)."""
        self.stats.update(shard.stats)
        self.decided.update(shard.decided)
        self.supported.update(shard.supported)
        for name, counter in shard.by_list.items():
            self.by_list[name].update(counter)
        for code, n in shard.rejected_by.items():
            self.book.rejected_by[code] = self.book.rejected_by.get(code, 0) + n
        self.book.admitted_by.update(shard.admitted_by)

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
