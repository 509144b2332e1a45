"""The Polish builder: candidates from the word lists, Morfeusz readings, generated and
completed paradigms, each judged by :mod:`build.games.osps.book` into records."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon.build.context import BuildContext, smoke_sample
from lexicon.build.games.osps import evidence
from lexicon.build.games.osps.book import LISTING_ONLY_POLICIES, LISTING_ONLY_POLICY, make_rules
from lexicon.build.games.osps.evidence import (
    COMPLETED,
    GENERATED,
    GENERATED_SLOTS,
    GRADES,
    HUNSPELL,
    LEMMA_CHUNK,
    LEMMA_LEAST,
    LISTED,
    MAX_ANALYSES,
    NEUTER_PERSON_ENDINGS,
    NOT_GENERATED,
    SHARD,
    SHARD_LEAST,
    SOURCE_BITS,
    WPOLISH,
    Candidate,
    FormReadings,
    accepted_reading,
    analyse_chunk,
    category,
    generate_chunk,
    generated_slot,
    grade,
    left_out_slot,
    lemmas_to_generate,
    negation_base,
    source_names,
)
from lexicon.build.games.osps.inhabitants import Inhabitants, policy_of
from lexicon.build.progress import Progress
from lexicon.build.record_writer import split_shared
from lexicon.build.shards import ordered as ordered_shards
from lexicon.build.shards import spans, worker_count
from lexicon.sources import morfeusz
from lexicon.sources.hunspell import expand_entry, read_aff, read_dic
from lexicon.sources.wordlist import LISTS_DIR, read_reviewed_list, read_wordlist

from lexicon.game import profile as profiles
from lexicon.game.tiles import speller
from lexicon.store.recordfile import Split
from lexicon.store.records import Analysis, Record

LISTS = LISTS_DIR
ABBREVIATIONS = LISTS / "pl_abbreviations.txt"
PREFIXES = LISTS / "pl_prefixes.txt"
SHORT_WORDS = LISTS / "pl_short_words.txt"
ENTRIES_CHUNK = 5_000      # hunspell entries expanded per shard (a few hundred thousand forms)
ENTRIES_LEAST = 20_000     # by default, a worker per this many entries


@dataclass
class Shard:
    """What judging one shard of the sorted candidates gives (:meth:`PolishBuilder.
    _judge_shard`): its records as the store keeps them, and its part of the build's counts,
    added up in shard order by the build's process."""

    size: int
    records: list[Split] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    rejected_by: dict[str, int] = field(default_factory=dict)
    admitted_by: Counter[str] = field(default_factory=Counter)
    capitalised: int = 0
    kept: int = 0
    unknown_neuter_past: list[str] = field(default_factory=list)
    lemmas: set[str] = field(default_factory=set)
    lowercase: dict[str, int] = field(default_factory=dict)


class PolishBuilder:
    """Judges every Polish form (for osps; remik links osps's release: build.linked)."""

    source_ids = (WPOLISH, HUNSPELL, "morfeusz2")

    def __init__(self, game: str, wordlists: Iterable[tuple[str, Path]] = (),
                 hunspell: Iterable[tuple[str, Path, Path]] = (),
                 abbreviations: Path = ABBREVIATIONS, prefixes: Path = PREFIXES,
                 short_words: Path = SHORT_WORDS, generate: bool = True,
                 listing_only: str = LISTING_ONLY_POLICY,
                 inhabitants: str | None = None) -> None:
        self.game = game
        self.wordlists = list(wordlists)
        self.hunspell = list(hunspell)
        self.abbreviations = read_reviewed_list(abbreviations)
        self.prefixes = read_reviewed_list(prefixes)
        self.short_words = read_reviewed_list(short_words)
        self.generate = generate
        self.listing_only = listing_only
        profile = profiles.load(game)
        # the profile's named choice (build.games.osps.inhabitants); tests may override it
        self.inhabitants = Inhabitants(inhabitants or policy_of(profile.options))
        self.book = self.inhabitants.apply(
            make_rules(self.abbreviations, self.prefixes, listing_only))
        self.speller = speller(profile)
        self.stats: Counter[str] = Counter()
        self._shard_forms: tuple[list[str], dict[str, int]] = ([], {})
        self._unknown_neuter_past: list[str] = []
        self._generated_forms: set[str] = set()

    def candidates(self, limit: int | None, workers: int | None = None) -> dict[str, int]:
        forms: dict[str, int] = {}
        for source, path in self.wordlists:
            bit = SOURCE_BITS[source]
            for form in read_wordlist(path):
                forms[form] = forms.get(form, 0) | bit
        for source, dic, aff in self.hunspell:
            bit = SOURCE_BITS[source]
            for part in expanded(dic, aff, workers, f"{self.game}: expanding {source}"):
                for form in part:
                    forms[form] = forms.get(form, 0) | bit
        for source, bit in SOURCE_BITS.items():
            if bit & LISTED:
                self.stats[f"forms_from_{source}"] = sum(1 for b in forms.values() if b & bit)
        self.stats["candidate_forms"] = len(forms)
        if limit is not None:  # smoke build: a sample across the alphabet, not the capitals
            forms = dict(smoke_sample(sorted(forms.items()), limit))
        return forms

    def _generated(self, lemmas: set[str], known: dict[str, int],
                   requested: int | None) -> Iterator[FormReadings]:
        """New forms of ``lemmas`` with their readings, in lemma order, each form once."""
        ordered = sorted(lemmas)
        workers = worker_count(requested, len(ordered), LEMMA_LEAST)
        chunks = spans(len(ordered), workers, LEMMA_CHUNK)
        evidence.share_known(known)
        evidence.annotator()      # loaded before the workers fork: they share it

        def task(start: int, stop: int) -> tuple[int, list[FormReadings]]:
            return generate_chunk(ordered[start:stop])

        seen: set[str] = set()
        try:
            with Progress(f"{self.game}: generating paradigms", len(ordered),
                          "lemmas") as progress:
                yield from self._collect(ordered_shards(task, chunks, workers), chunks, seen,
                                         progress)
        finally:
            evidence.share_known(frozenset())

    def _collect(self, results: Iterable[tuple[int, list[FormReadings]]],
                 chunks: list[tuple[int, int]], seen: set[str],
                 progress: Progress) -> Iterator[FormReadings]:
        for (start, stop), (generated, pairs) in zip(chunks, results, strict=True):
            self.stats["generated_forms"] += generated
            for form, analyses in pairs:
                if form not in seen:
                    seen.add(form)
                    yield form, analyses
            progress.advance(stop - start)

    def _record(self, cand: Candidate) -> Record:
        verdict = self.book.judge(cand)
        srcs = source_names(cand.sources)
        stored = [Analysis(a.lemma, a.tags, "morfeusz2",
                           tuple(x for x in (a.name, *a.labels) if x))
                  for a in cand.analyses[:MAX_ANALYSES]]
        evidence = []
        if verdict.valid:
            self.stats[f"admitted_grade_{verdict.rule}"] += 1
            evidence = [f"grade:{verdict.rule}", *verdict.texts]
        elif not cand.listed:
            self.stats[f"generated_rejected_{verdict.code}"] += 1
        return Record(
            key=self.speller.key_of(cand.form.lower()), word=cand.form, valid=verdict.valid,
            reason_code=verdict.code, reason_message=verdict.message, analyses=stored,
            sources=srcs, category=category(cand.analyses) if verdict.valid else None,
            evidence=evidence,
        )

    def _negated_base(self, form: str, analyses: list[morfeusz.Interpretation],
                      forms: dict[str, int]) -> str | None:
        """The grade of the base of a ``nie-`` form Morfeusz does not know, when the base is
        a candidate too (the listing-only policy weighs a negation by its base)."""
        base = negation_base(form)
        if base is None or base not in forms or any(accepted_reading(a) for a in analyses):
            return None
        try:
            readings = self._annotator().analyse(base)
        except ValueError:
            readings = []
        return grade(Candidate(base, forms[base], readings))

    def _judge(self, forms: dict[str, int], lemmas: set[str], requested: int | None
               ) -> Iterator[Split]:
        """Records of the listed forms, judged in shards of the sorted candidates by
        ``workers`` processes (build.shards) and staged in that order; collects the lemmas
        of admitted forms on the way."""
        ordered = sorted(forms)
        workers = worker_count(requested, len(ordered), SHARD_LEAST)
        if self.inhabitants.policy == "keep_lowercase":
            # each lowercase spelling it keeps is a candidate from then on (a later nie-
            # form's base): the forms must be judged in one pass, in order
            workers = 1
        evidence.annotator()      # loaded before the workers fork: they share it
        self._shard_forms = (ordered, forms)
        try:
            with Progress(f"{self.game}: judging listed forms", len(ordered)) as progress:
                shards = spans(len(ordered), workers, SHARD)
                for shard in ordered_shards(self._judge_shard, shards, workers):
                    self._take(shard, forms, lemmas)
                    yield from shard.records
                    progress.advance(shard.size)
        finally:
            self._shard_forms = ([], {})
        self.stats["inhabitant_capitalised_forms"] = self.inhabitants.capitalised
        self.stats["inhabitant_lowercase_admitted"] = self.inhabitants.kept

    def _judge_shard(self, start: int, stop: int) -> Shard:
        """The records of the sorted candidates ``start:stop`` and what judging them
        counted, with this builder's counters left as they were (in a worker they are a
        forked copy; in the build's own process they are the build's)."""
        ordered, forms = self._shard_forms
        shard = Shard(stop - start)
        kept = (self.stats, self.book.rejected_by, self.book.admitted_by,
                self.inhabitants.capitalised, self.inhabitants.kept, self._unknown_neuter_past)
        self.stats, self.book.rejected_by, self.book.admitted_by = \
            shard.stats, shard.rejected_by, shard.admitted_by
        self.inhabitants.capitalised = self.inhabitants.kept = 0
        self._unknown_neuter_past = shard.unknown_neuter_past
        shapes: dict[str, str] = {}    # one string per shape: pickled once per shard
        evidence.annotator().forget()  # no reading outlives its shard: split and sent away
        try:
            chunk = ordered[start:stop]
            for form, analyses in zip(chunk, analyse_chunk(chunk), strict=True):
                for rec in self._judge_form(form, analyses, forms, shard):
                    shard.records.append(split_shared(rec, shapes))
            shard.capitalised = self.inhabitants.capitalised
            shard.kept = self.inhabitants.kept
        finally:
            (self.stats, self.book.rejected_by, self.book.admitted_by,
             self.inhabitants.capitalised, self.inhabitants.kept,
             self._unknown_neuter_past) = kept
        return shard

    def _take(self, shard: Shard, forms: dict[str, int], lemmas: set[str]) -> None:
        """Count a judged shard into the build, in shard order (the order of one pass)."""
        self.stats.update(shard.stats)
        for code, n in shard.rejected_by.items():
            self.book.rejected_by[code] = self.book.rejected_by.get(code, 0) + n
        self.book.admitted_by.update(shard.admitted_by)
        self.inhabitants.capitalised += shard.capitalised
        self.inhabitants.kept += shard.kept
        self._unknown_neuter_past.extend(shard.unknown_neuter_past)
        lemmas.update(shard.lemmas)
        forms.update(shard.lowercase)

    def _judge_form(self, form: str, analyses: list[morfeusz.Interpretation],
                    forms: dict[str, int], shard: Shard) -> Iterator[Record]:
        cand = Candidate(form, forms[form], analyses, self.short_words.get(form),
                         self._negated_base(form, analyses, forms))
        rec = self._record(cand)
        level = grade(cand)
        if cand.negated_base is not None and level in ("one_list", "one_list_two_packages",
                                                   "two_lists"):
            verdict = "admitted" if rec.valid else "rejected"
            self.stats[f"{level}_negation_of_{cand.negated_base}_{verdict}"] += 1
        if rec.valid:
            shard.lemmas.update(lemmas_to_generate(analyses))
            if form.endswith("ło") and morfeusz.is_unknown(analyses):
                self._unknown_neuter_past.append(form)
        yield rec
        if rec.reason_code == "inhabitant_capitalised":
            yield from self._kept_lowercase(cand, forms, shard)

    def _kept_lowercase(self, cand: Candidate, forms: dict[str, int],
                        shard: Shard) -> Iterator[Record]:
        """``inhabitants = keep_lowercase``: the lowercase spelling of a capitalised name of
        inhabitants, judged like any form (and its lemma's paradigm generated)."""
        low = self.inhabitants.lowercase(cand)
        if low is None or low.form in forms:
            return
        forms[low.form] = low.sources     # known from here on: not generated a second time
        shard.lowercase[low.form] = low.sources
        rec = self._record(low)
        if rec.valid:
            shard.lemmas.update(lemmas_to_generate(low.analyses))
        yield rec

    def _judge_completed(self, forms: dict[str, int], generated: set[str]) -> Iterator[Record]:
        """sjp.pl leaves out the neuter first/second person by policy, and SGJP cannot supply
        them for a verb it lacks; the lists' own ``-łoby`` (conditional) and ``-łaś`` (second
        person) show the verb, and the four forms follow from ``-ło`` by regular morphology."""
        for stem in self._unknown_neuter_past:
            if stem + "by" not in forms or stem[:-1] + "aś" not in forms:
                continue
            for ending in NEUTER_PERSON_ENDINGS:
                form = stem + ending
                if form in forms or form in generated:
                    continue
                generated.add(form)
                analyses = [morfeusz.Interpretation(form, morfeusz.UNKNOWN_TAG, "", ())]
                cand = Candidate(form, SOURCE_BITS[COMPLETED], analyses)
                self.stats["completed_forms"] += 1
                yield self._record(cand)

    def _judge_generated(self, forms: dict[str, int], lemmas: set[str],
                         workers: int | None) -> Iterator[Record]:
        self.stats["generation_lemmas"] = len(lemmas)
        for form, analyses in self._generated(lemmas, forms, workers):
            self._generated_forms.add(form)
            self.stats["generated_new_forms"] += 1
            slot = generated_slot(analyses)
            if slot is None:   # a slot the lists do not leave out by policy: not generated
                self.stats[f"generated_left_out_{left_out_slot(analyses)}"] += 1
                continue
            self.stats[f"generated_slot_{slot}"] += 1
            cand = Candidate(form, SOURCE_BITS[GENERATED], analyses, self.short_words.get(form))
            yield self._record(cand)

    def _timed(self, phase: str, records: Iterator[Record | Split]
               ) -> Iterator[Record | Split]:
        """Wall seconds of a phase, including the writer's work on its records: the manifest
        then shows what generation adds to a build beside the rest of the same run."""
        start = time.monotonic()
        yield from records
        self.stats[f"seconds_{phase}_forms"] = round(time.monotonic() - start, 1)

    def _annotator(self) -> morfeusz.Annotator:
        return evidence.annotator()

    def records(self, ctx: BuildContext) -> Iterator[Record | Split]:
        """Read the word lists (the candidates), then judge every form once by the rule book
        with its Morfeusz readings, then the forms generated and completed from the
        admitted ones (evidence that only the admitted forms can give), judged alike."""
        ctx.log(f"{self.game}: reading word lists and expanding hunspell-pl")
        forms = self.candidates(ctx.limit, ctx.workers)
        ctx.log(f"{self.game}: {len(forms):,} candidate forms; analysing with Morfeusz 2")
        lemmas: set[str] = set()
        # the spellings listed before judging; only keep_lowercase adds any while judging
        # (and judges in one pass), so only it needs a copy: for the others the candidates
        # themselves are those spellings, without a second table of millions of strings
        self.inhabitants.listed = frozenset(forms) \
            if self.inhabitants.policy == "keep_lowercase" else forms.keys()
        ctx.expect_records(len(forms))       # one per listed form; generated ones are added
        workers = ctx.workers
        yield from self._timed("listed", self._judge(forms, lemmas, workers))
        if self.generate and ctx.limit is not None:
            ctx.log(f"{self.game}: smoke build (--limit): paradigms not generated")
        elif self.generate:
            for rec in self._timed("generated", self._judge_generated(forms, lemmas, workers)):
                ctx.expect_records(1)
                yield rec
            for rec in self._judge_completed(forms, self._generated_forms):
                ctx.expect_records(1)
                yield rec

    def policy(self) -> dict[str, Any]:
        return {
            "builder": "build.games.osps",
            "vocabulary": "remik plays this vocabulary: its releases link osps's (build.linked)",
            "primary": "wpolish: every listed form is a candidate; admitted unless a rule rejects",
            "second_path": "hunspell-pl: forms it alone produces need Morfeusz to know them",
            "generation": ("the SGJP paradigm slots the word lists leave out by policy, of "
                           "every lemma with an admitted form, judged by the same rules; "
                           f"generated slots: {GENERATED_SLOTS}; not generated at all: "
                           f"{', '.join(NOT_GENERATED)}" if self.generate else "off"),
            "completion": ("-łoś/-łom/-łobyś/-łobym of listed verbs Morfeusz does not know, "
                           "from their listed -ło, -łoby and -łaś" if self.generate else "off"),
            "short_words": "2-3 letter words need a Morfeusz reading the rules accept or a "
                           "reviewed entry in pl_short_words.txt",
            "abbreviations": "rejected only when every reading is an abbreviation",
            "evidence_grades": GRADES,
            "listing_only_policy": {"name": self.listing_only,
                                    "text": LISTING_ONLY_POLICIES[self.listing_only]},
            "inhabitants": self.inhabitants.stats(),
            "morfeusz": {"version": self._annotator().version,
                         "dictionary": self._annotator().dict_id,
                         "options": "STRICTLY_CASE_SENSITIVE, praet=composite, aggl=strict"},
            "reviewed_lists": {"pl_abbreviations.txt": len(self.abbreviations),
                               "pl_prefixes.txt": len(self.prefixes),
                               "pl_short_words.txt": len(self.short_words)},
            "stats": dict(self.stats),
            "rejected_by_rule": dict(self.book.rejected_by),
            "admitted_by_evidence": dict(self.book.admitted_by),
            "decision": self.book.policy(),
        }

    def rules(self) -> list[dict[str, str]]:
        return self.book.describe()


def expanded(dic: Path, aff_path: Path, requested: int | None,
             phase: str) -> Iterator[list[str]]:
    """The spellings of every form of a hunspell dictionary (what :func:`sources.hunspell.
    expand` streams, forbidden words left out alike), expanded in shards of its entries by
    forked workers (build.shards) and yielded in entry order, with a progress line
    ``phase`` counting the entries."""
    aff = read_aff(aff_path)
    entries = list(read_dic(dic, aff))
    forbidden = frozenset(e.stem for e in entries if aff.forbiddenword in e.flags) \
        if aff.forbiddenword is not None else frozenset()
    workers = worker_count(requested, len(entries), ENTRIES_LEAST)

    def task(start: int, stop: int) -> list[str]:
        return [f.form for entry in entries[start:stop] for f in expand_entry(entry, aff)
                if f.form not in forbidden]

    shards = spans(len(entries), workers, ENTRIES_CHUNK)
    with Progress(phase, len(entries), "entries") as progress:
        for (start, stop), part in zip(shards, ordered_shards(task, shards, workers),
                                       strict=True):
            yield part
            progress.advance(stop - start)


def _from_sources(game: str, ctx: BuildContext) -> PolishBuilder:
    wp = ctx.source_root(WPOLISH) / "usr" / "share" / "dict" / "polish"
    hroot = ctx.source_root(HUNSPELL) / "usr" / "share" / "hunspell"
    return PolishBuilder(game, wordlists=[(WPOLISH, wp)],
                         hunspell=[(HUNSPELL, hroot / "pl_PL.dic", hroot / "pl_PL.aff")])


def builder(ctx: BuildContext) -> PolishBuilder:
    """The osps builder over the fetched, pinned sources (remik links its release)."""
    return _from_sources("osps", ctx)


