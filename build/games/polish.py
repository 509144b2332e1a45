"""Polish Scrabble (osps) and Remik słowny (remik): one vocabulary, two releases.

Candidates are every form of Debian ``wpolish`` (sjp.pl, primary: it lists every inflected
form) and of ``hunspell-pl`` expanded by :mod:`sources.hunspell` (second path). Each form
is analysed by Morfeusz 2 (SGJP), which supplies lemma, tags, name class and usage labels
and marks abbreviations. The rule book (shared/seeds/002) excludes capitalised words,
abbreviations, prefixes/suffixes and words needing a hyphen or apostrophe; the tiles add
"only Polish letters". Remik (seed 004) plays the same vocabulary with other length limits,
which the checker applies from each profile.

Policy for disagreements, recorded in the manifest:

* a form listed by wpolish is admitted unless a rule rejects it, even if Morfeusz does not
  know it (sjp.pl is far larger than SGJP for rare words);
* a form that only the 2017 hunspell-pl expansion produces is admitted only when Morfeusz
  also knows it; otherwise it is rejected as ``unattested`` (such forms are mostly words
  sjp.pl has since removed, or affix-expansion artefacts).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from build.pipeline import BuildContext, smoke_sample
from build.rules import Rule, RuleBook
from lexicon.profile import load as load_profile
from lexicon.records import Analysis, Record
from sources import morfeusz
from sources.hunspell import expand
from sources.wordlist import LISTS_DIR, read_reviewed_list, read_wordlist

LISTS = LISTS_DIR
ABBREVIATIONS = LISTS / "pl_abbreviations.txt"
PREFIXES = LISTS / "pl_prefixes.txt"
MAX_ANALYSES = 8
PARALLEL_THRESHOLD = 200_000   # below this, worker start-up costs more than it saves
CHUNK = 20_000

WPOLISH, HUNSPELL = "wpolish", "hunspell-pl"
SOURCE_BITS = {WPOLISH: 1, HUNSPELL: 2}

POS_CATEGORY = {
    "subst": "noun", "depr": "noun", "ger": "noun",
    "adj": "adj", "adja": "adj", "adjp": "adj", "adjc": "adj", "pact": "adj", "ppas": "adj",
    "fin": "verb", "praet": "verb", "impt": "verb", "imps": "verb", "inf": "verb",
    "pcon": "verb", "pant": "verb", "bedzie": "verb", "winien": "verb", "pred": "verb",
    "adv": "adv", "num": "num", "numcol": "num",
    "ppron12": "pron", "ppron3": "pron", "siebie": "pron",
    "prep": "function", "conj": "function", "comp": "function", "qub": "function",
    "interj": "interj", "burk": "bound",
}


@dataclass
class Candidate:
    form: str
    sources: int                     # bit set of SOURCE_BITS
    analyses: list[morfeusz.Analysis] = field(default_factory=list)


def polish_letters() -> frozenset[str]:
    return frozenset(t.canonical for t in load_profile("osps").tiles)


def make_rules(abbreviations: dict[str, str], prefixes: dict[str, str]) -> RuleBook[Candidate]:
    letters = polish_letters()

    def hyphen(c: Candidate) -> str | None:
        odd = [ch for ch in c.form if ch in "-'’"]
        if odd:
            return f"needs {'a hyphen' if '-' in odd else 'an apostrophe'}"
        return None

    def capital(c: Candidate) -> str | None:
        if c.form == c.form.lower():
            return None
        names = sorted({a.name for a in c.analyses if a.name})
        detail = f" (Morfeusz: {', '.join(names)})" if names else ""
        return f"written with a capital letter{detail}"

    def foreign(c: Candidate) -> str | None:
        odd = sorted({ch for ch in c.form if ch not in letters})
        if odd:
            return f"contains {', '.join(repr(ch) for ch in odd)}, not a letter of the Polish tiles"
        return None

    def listed(entries: dict[str, str], what: str) -> Callable[[Candidate], str | None]:
        """A rule backed by a reviewed list: rejects an entry, quoting the list's reason."""
        def test(c: Candidate) -> str | None:
            why = entries.get(c.form)
            return f"{what} (reviewed list: {why})" if why is not None else None
        return test

    def brev(c: Candidate) -> str | None:
        if morfeusz.is_abbreviation(c.analyses):
            tags = sorted({a.tags for a in c.analyses})
            return f"abbreviation (Morfeusz: {', '.join(tags)})"
        return None

    def bound(c: Candidate) -> str | None:
        if morfeusz.is_prefix_or_suffix(c.analyses):
            tags = sorted({a.tags for a in c.analyses})
            return f"not an independent word (Morfeusz: {', '.join(tags)})"
        return None

    def unattested(c: Candidate) -> str | None:
        if c.sources & SOURCE_BITS[WPOLISH] or not morfeusz.is_unknown(c.analyses):
            return None
        return "only in the 2017 hunspell-pl expansion and unknown to Morfeusz"

    return RuleBook("polish", [
        Rule("hyphen_or_apostrophe", "words needing a hyphen or apostrophe", hyphen),
        Rule("capitalised", "words written with a capital letter", capital),
        Rule("foreign_letters", "letters outside the Polish tile set (q, v, x, digits)", foreign),
        Rule("abbreviation", "lowercase abbreviations in the reviewed list",
             listed(abbreviations, "abbreviation")),
        Rule("abbreviation", "forms Morfeusz analyses only as abbreviations (brev)", brev),
        Rule("prefix_or_suffix", "prefixes in the reviewed list",
             listed(prefixes, "a prefix, not a word")),
        Rule("prefix_or_suffix", "forms Morfeusz analyses only as bound morphemes", bound),
        Rule("unattested", "hunspell-only forms Morfeusz does not know", unattested),
    ])


def category(analyses: list[morfeusz.Analysis]) -> str:
    for a in analyses:
        pos = a.tags.split(":", 1)[0]
        if pos in POS_CATEGORY:
            return POS_CATEGORY[pos]
    return "unanalysed"


_WORKER: morfeusz.Annotator | None = None


def _analyse_chunk(forms: list[str]) -> list[list[morfeusz.Analysis]]:
    """Analyse a chunk in a worker process (one Morfeusz instance per process)."""
    global _WORKER
    if _WORKER is None:
        _WORKER = morfeusz.Annotator()
    out = []
    for form in forms:
        try:
            out.append(_WORKER.analyse(form))
        except ValueError:  # white space inside a listed "form": not one word
            out.append([])
    return out


class PolishBuilder:
    """Judges every Polish form (for osps; remik links osps's release: build.shared)."""

    source_ids = (WPOLISH, HUNSPELL, "morfeusz2")

    def __init__(self, game: str, wordlists: Iterable[tuple[str, Path]] = (),
                 hunspell: Iterable[tuple[str, Path, Path]] = (),
                 abbreviations: Path = ABBREVIATIONS, prefixes: Path = PREFIXES) -> None:
        self.game = game
        self.wordlists = list(wordlists)
        self.hunspell = list(hunspell)
        self.abbreviations = read_reviewed_list(abbreviations)
        self.prefixes = read_reviewed_list(prefixes)
        self.book = make_rules(self.abbreviations, self.prefixes)
        self.stats: Counter[str] = Counter()
        self.annotator: morfeusz.Annotator | None = None

    def candidates(self, limit: int | None) -> dict[str, int]:
        forms: dict[str, int] = {}
        for source, path in self.wordlists:
            bit = SOURCE_BITS[source]
            for form in read_wordlist(path):
                forms[form] = forms.get(form, 0) | bit
        for source, dic, aff in self.hunspell:
            bit = SOURCE_BITS[source]
            for f in expand(dic, aff):
                forms[f.form] = forms.get(f.form, 0) | bit
        for source, bit in SOURCE_BITS.items():
            self.stats[f"forms_from_{source}"] = sum(1 for b in forms.values() if b & bit)
        self.stats["candidate_forms"] = len(forms)
        if limit is not None:  # smoke build: a sample across the alphabet, not the capitals
            forms = dict(smoke_sample(sorted(forms.items()), limit))
        return forms

    def _analysed(self, ordered: list[str]) -> Iterator[tuple[str, list[morfeusz.Analysis]]]:
        """Morfeusz readings in input order; big inputs are spread over all cores."""
        workers = os.cpu_count() or 1
        if len(ordered) < PARALLEL_THRESHOLD or workers == 1:
            yield from zip(ordered, _analyse_chunk(ordered), strict=True)
            return
        chunks = [ordered[i:i + CHUNK] for i in range(0, len(ordered), CHUNK)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for chunk, results in zip(chunks, pool.map(_analyse_chunk, chunks), strict=True):
                yield from zip(chunk, results, strict=True)

    def _judge(self, forms: dict[str, int]) -> Iterator[Record]:
        for form, analyses in self._analysed(sorted(forms)):
            cand = Candidate(form, forms[form], analyses)
            verdict = self.book.judge(cand)
            srcs = sorted(s for s, bit in SOURCE_BITS.items() if cand.sources & bit)
            stored = [Analysis(a.lemma, a.tags, "morfeusz2",
                               tuple(x for x in (a.name, *a.labels) if x))
                      for a in analyses[:MAX_ANALYSES]]
            evidence = []
            if verdict.valid:
                how = "known to Morfeusz" if not morfeusz.is_unknown(analyses) else \
                      "not in Morfeusz (admitted on the word list alone)"
                evidence = [f"listed by {' and '.join(srcs)}; {how}"]
                self.stats["admitted_with_morfeusz" if "known" in how else
                           "admitted_without_morfeusz"] += 1
            yield Record(
                key=form.lower(), word=form, valid=verdict.valid, reason_code=verdict.code,
                reason_message=verdict.message, analyses=stored, sources=srcs,
                category=category(analyses) if verdict.valid else None, evidence=evidence,
            )

    def _annotator(self) -> morfeusz.Annotator:
        if self.annotator is None:
            self.annotator = morfeusz.Annotator()
        return self.annotator

    def records(self, ctx: BuildContext) -> Iterator[Record]:
        ctx.log(f"{self.game}: reading word lists and expanding hunspell-pl")
        forms = self.candidates(ctx.limit)
        ctx.log(f"{self.game}: {len(forms):,} candidate forms; analysing with Morfeusz 2")
        yield from self._judge(forms)

    def policy(self) -> dict[str, Any]:
        return {
            "builder": "build.games.polish",
            "vocabulary": "remik plays this vocabulary: its releases link osps's (build.shared)",
            "primary": "wpolish: every listed form is a candidate; admitted unless a rule rejects",
            "second_path": "hunspell-pl: forms it alone produces need Morfeusz to know them",
            "morfeusz": {"version": self._annotator().version,
                         "dictionary": self._annotator().dict_id,
                         "options": "STRICTLY_CASE_SENSITIVE, praet=composite, aggl=strict"},
            "reviewed_lists": {"pl_abbreviations.txt": len(self.abbreviations),
                               "pl_prefixes.txt": len(self.prefixes)},
            "stats": dict(self.stats),
            "rejected_by_rule": dict(self.book.rejected_by),
        }

    def rules(self) -> list[dict[str, str]]:
        return self.book.describe()


def _from_sources(game: str, ctx: BuildContext) -> PolishBuilder:
    wp = ctx.source_root(WPOLISH) / "usr" / "share" / "dict" / "polish"
    hroot = ctx.source_root(HUNSPELL) / "usr" / "share" / "hunspell"
    return PolishBuilder(game, wordlists=[(WPOLISH, wp)],
                         hunspell=[(HUNSPELL, hroot / "pl_PL.dic", hroot / "pl_PL.aff")])


def osps_builder(ctx: BuildContext) -> PolishBuilder:
    return _from_sources("osps", ctx)

