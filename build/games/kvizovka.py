"""The Kvizovka lexicon: every Serbian/Croatian form the sources know, judged by the rule book.

Rule book (``shared/seeds/000_7c5a43b80d0fed7b.txt``, "pravila sastavljanja reči"): common
nouns in the nominative singular and plural; verbs in the infinitive except reflexive ones;
adjectives in three genders, definite and indefinite, positive degree only; pronouns and
numbers in the nominative; no proper nouns, phrases, interjections, abbreviations, prefixes,
suffixes or other non-independent words. Adverbs are not in the list: the profile option
``admit_adverbs`` (default false) switches them on. Length (4 tiles, 3 at the edge) is a play
rule, applied by :mod:`lexicon.checker`; this builder stores lexical verdicts only.

How a form is judged (one record per Cyrillic key):

1. *Analyses.* apertium's generators tag their forms (:mod:`build.games.hbs_apertium`);
   where apertium tags a form, its analyses are the form's grammar. hunspell forms apertium
   does not tag get the analyses of their paradigm slot, learned from the forms both know
   (:mod:`build.games.hbs_paradigms`); so do hunspell's participle-adjectives (*sakriven*),
   which apertium knows only as verb forms. Each analysis is judged by the analysis rules
   (:mod:`build.games.hbs_tags`); a form passes if ANY analysis passes.
2. *Attestation.* Forms only apertium's generator produces are not trusted (it
   overgenerates: *turskija*, *krajnj*, *policajaci*, a possessive *gradov* for every
   masculine noun): an apertium analysis counts only if a dictionary (hunspell-sr, -hr) has
   the form as a lower-case word and has the analysis' lemma too; else ``unattested``.
3. *Form rules* (:meth:`KvizovkaBuilder.form_rules`, the first that rejects explains):
   phrases, hyphens, letters that are no tile, the reviewed exclusion list, the "pre-"
   elative veto, then the most informative analysis' reason, then ``unattested``.
4. *Key.* Cyrillic, one letter per tile, from :class:`build.games.hbs_script.LatinToCyrillic`,
   which learns the нј/лј/дж splits from the Cyrillic hunspell-sr. ``Record.word`` is the
   lower-case Latin spelling.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from build.games import hbs_apertium
from build.games.hbs_apertium import ApertiumForms
from build.games.hbs_lists import LISTS_DIR, PURPOSES, ReviewedLists
from build.games.hbs_paradigms import (
    MIN_AGREEMENT,
    MIN_EXAMPLES,
    HForm,
    HunspellSource,
    SlotLearner,
    SlotVerdict,
    iter_forms,
    slot_keys,
)
from build.games.hbs_script import LatinToCyrillic, to_latin
from build.games.hbs_tags import UNCLASSIFIED, VERBAL, AnalysisJudge, HbsAnalysis, normalise
from build.pipeline import BuildContext, smoke_sample
from build.rules import Rule, RuleBook
from lexicon import profile as profiles
from lexicon.records import Analysis, Record

GAME = "kvizovka"
APERTIUM = "apertium-hbs-slv"
HUNSPELL_SR = "hunspell-sr"
HUNSPELL_HR = "hunspell-hr"
APERTIUM_DIR = Path("usr/share/apertium/apertium-hbs-slv")
HUNSPELL_DIR = Path("usr/share/hunspell")

MAX_ANALYSES = 6  # analyses stored per admitted record (a referee needs a few, not forty)
MAX_REJECTED_ANALYSES = 3
MAX_EVIDENCE = 4

CATEGORY = {"n": "noun", "vblex": "verb", "vbmod": "verb", "vbser": "verb", "prn": "prn",
            "num": "num", "adj": "adj", "adv": "adv"}
CATEGORY_ORDER = ("noun", "verb", "prn", "num", "adj", "adv")

# What a hunspell form contributes beyond attestation (the third field of an info tuple).
CONFIRMED = -1   # apertium tags this form (of a common lemma): apertium's analyses decide
PROPER = -2      # capitalised stem: a proper noun
ACRONYM = -3     # all-capital stem: an abbreviation
# non-negative: index of a learned SlotVerdict (or of None: slot not learned)

Info = tuple[int, str, int]   # (hunspell source index, Latin stem, kind or verdict index)


@dataclass
class FormCandidate:
    """Everything known about one key, as the form rules see it."""

    key: str
    latin: str
    readings: list[HbsAnalysis]
    admissible: list[HbsAnalysis]    # pass the rules, with a dictionary behind them
    unsupported: list[HbsAnalysis]   # pass the rules, but only apertium knows form or lemma
    sources: list[str]
    explained: tuple[str, str, list[HbsAnalysis]] | None   # (code, message, readings) if none pass
    evidence: list[str]


def _detect_cyrillic(dic: Path) -> bool:
    with open(dic, encoding="utf-8", errors="replace") as fh:
        for _, line in zip(range(200), fh, strict=False):
            if any("\u0400" <= ch <= "\u04ff" for ch in line):
                return True
    return False


def hunspell_source(dic: Path, aff: Path) -> HunspellSource:
    """Describe a .dic/.aff pair: source id from the file name, script from the content."""
    name = Path(dic).name.lower()
    source_id = HUNSPELL_SR if name.startswith("sr") else (
        HUNSPELL_HR if name.startswith("hr") else "hunspell")
    return HunspellSource(source_id, Path(dic), Path(aff), _detect_cyrillic(Path(dic)))


@dataclass
class _State:
    """What the passes over the sources leave for judging keys one by one.

    ``acc``: key -> [source bits (1 = apertium, 2 << i = hunspell source i), hunspell infos
    (None, one :data:`Info` or a list), whether a dictionary has the form as a lower-case
    word (not only as a form of a capitalised name)]. One small list per key, since there
    are ~4M keys.
    """

    ap: ApertiumForms
    tiler: LatinToCyrillic
    judge: AnalysisJudge
    acc: dict[str, list[Any]] = field(default_factory=dict)
    verdicts: list[SlotVerdict | None] = field(default_factory=list)
    _lemmas: dict[str, bool] = field(default_factory=dict)
    _participles: dict[str, bool] = field(default_factory=dict)
    _comparatives: dict[str, bool] = field(default_factory=dict)

    def apertium_knows(self, form: str) -> bool:
        """Does apertium tag this form as a form of some common (lower-case) lemma?

        Where it does, its analyses are the grammar of the form and hunspell only attests
        it: a slot guess must not admit *ljepša*, which apertium knows as a comparative.
        """
        by_lemma = self.ap.forms.get(form)
        return bool(by_lemma) and any(not lemma[:1].isupper() for lemma in by_lemma)

    def participle_stem(self, stem: str) -> bool:
        """Is a hunspell stem something apertium knows only as a verb's participle?

        hunspell lists many participles as adjectives of their own (*sakriven*,
        *impresioniran*, *odlučujući*), apertium only as forms of the verb. A dictionary
        entry is the better witness of adjectival use, so for such stems the hunspell slot
        decides even where apertium tags the form (as a participle).
        """
        got = self._participles.get(stem)
        if got is None:
            by_lemma = self.ap.forms.get(stem.lower(), {})
            got = bool(by_lemma) and stem not in by_lemma and all(
                tags[0] in VERBAL and ("pp" in tags or "pprs" in tags)
                for entry in by_lemma.values() for tags in entry.tags)
            self._participles[stem] = got
        return got

    def comparative_stem(self, stem: str) -> bool:
        """Is a hunspell stem something apertium knows only as a comparative or superlative?

        hunspell-hr lists comparatives as entries of their own (*dramatičniji/UB,UM*) and
        inflects them with the flags of positive adjectives; the slot then says "positive",
        but every form of such a stem (*dramatičnija*, and the non-word *dramatičnijo*) is
        a comparative.
        """
        got = self._comparatives.get(stem)
        if got is None:
            by_lemma = self.ap.forms.get(stem.lower(), {})
            got = bool(by_lemma) and stem not in by_lemma and all(
                "comp" in tags or "sup" in tags
                for entry in by_lemma.values() for tags in entry.tags)
            self._comparatives[stem] = got
        return got

    def lemma_attested(self, lemma: str) -> bool:
        """Is the lemma itself a lower-case word of some dictionary?"""
        got = self._lemmas.get(lemma)
        if got is None:
            entry = self.acc.get(self.tiler.key(lemma.lower()))
            got = self._lemmas[lemma] = bool(entry and entry[2])
        return got


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
        self.stats: dict[str, Any] = {}
        self.judge: AnalysisJudge | None = None
        self.form_book: RuleBook[FormCandidate] | None = None

    # -- the rules -----------------------------------------------------------------------
    def form_rules(self, judge: AnalysisJudge) -> list[Rule[FormCandidate]]:
        """Form-level rules, first match explains (see the module docstring)."""
        tiles = self.profile.by_canonical
        lists = self.lists

        def phrase(c: FormCandidate) -> str | None:
            return f"a multiword expression ('{c.latin}')" if " " in c.latin else None

        def hyphen(c: FormCandidate) -> str | None:
            odd = "".join(ch for ch in "-'’" if ch in c.latin)
            return f"contains {odd!r}: not a single word" if odd else None

        def foreign(c: FormCandidate) -> str | None:
            odd = "".join(dict.fromkeys(ch for ch in c.key if ch not in tiles))
            if not odd:
                return None
            return f"spelled with {', '.join(repr(ch) for ch in odd)}: no Kvizovka tile"

        def excluded(c: FormCandidate) -> str | None:
            reason = lists.exclusions.get(c.latin)
            if reason is None:
                return None
            return f"excluded by sources/lists/hbs_exclusions.txt: {reason or 'reviewed'}"

        def elative(c: FormCandidate) -> str | None:
            if not c.latin.startswith("pre") or c.latin in lists.not_elative:
                return None
            if any(r.lemma in lists.not_elative for r in c.readings):
                return None
            bases = [r.lemma for r in c.readings if r.source == APERTIUM
                     and "ssup" in r.tags and not r.lemma.startswith("pre")]
            if not bases:
                return None
            # the base the form spells (prelep: lep, not its ijekavian twin lijep)
            base = max(bases, key=lambda b: (b[:-1] in c.latin, -len(b)))
            return f"elative ('pre-' form) of {base}; only the positive degree is admitted"

        def by_analysis(code: str) -> Callable[[FormCandidate], str | None]:
            def test(c: FormCandidate) -> str | None:
                if c.explained is not None and c.explained[0] == code:
                    return c.explained[1]
                return None
            return test

        def unattested(c: FormCandidate) -> str | None:
            if c.admissible or not c.unsupported:
                return None
            r = c.unsupported[0]
            what = CATEGORY.get(r.pos, r.pos)
            if c.sources == [APERTIUM]:
                return (f"only apertium's generator produces it ({what} {r.lemma}); "
                        "no dictionary attests the form")
            return (f"only apertium's generator makes it a {what} ({r.lemma}); no "
                    "dictionary attests that word")

        def nothing(c: FormCandidate) -> str | None:
            if c.admissible or c.unsupported or c.explained:
                return None
            return "no source says what this form is"

        rules: list[Rule[FormCandidate]] = [
            Rule("phrase", "forms with a space (apertium multiword entries)", phrase),
            Rule("hyphen_or_apostrophe", "forms with a hyphen or apostrophe", hyphen),
            Rule("foreign_letters", "letters that are no Kvizovka tile (q, w, x, y, ...)",
                 foreign),
            Rule("listed_exclusion", "sources/lists/hbs_exclusions.txt", excluded),
            Rule("comparative", "'pre-' elatives, even where listed as a lemma of their own "
                 "(except sources/lists/hbs_not_elative.txt)", elative),
        ]
        seen: set[str] = set()
        for rule in judge.book.rules:
            if rule.code not in seen:
                seen.add(rule.code)
                rules.append(Rule(rule.code, f"no analysis passes; best: {rule.summary}",
                                  by_analysis(rule.code)))
        rules.append(Rule("unattested", "admissible only by apertium's generator; no "
                          "dictionary has the form, or the word it would be a form of",
                          unattested))
        rules.append(Rule("unclassified", "no reading at all", nothing))
        return rules

    def rules(self) -> list[dict[str, str]]:
        """Both rule books for the manifest: form rules first, then analysis rules."""
        judge = self.judge or self._make_judge(set())
        book = self.form_book or RuleBook("kvizovka-form", self.form_rules(judge))
        return [{"level": "form", **d} for d in book.describe()] + \
               [{"level": "analysis", **d} for d in judge.book.describe()]

    def _make_judge(self, reflexive_only: set[str]) -> AnalysisJudge:
        """The analysis rules with this build's adverb switch and reflexive-only verbs."""
        return AnalysisJudge(admit_adverbs=self.admit_adverbs,
                             reflexive_only=reflexive_only.__contains__)

    # -- building ------------------------------------------------------------------------
    def records(self, ctx: BuildContext) -> Iterator[Record]:
        """Walk apertium, learn hunspell's slots, collect every key, judge each once.

        The sources are read whole even for a smoke build (``ctx.limit``): slots are learned
        from the overlap of the sources, so only the judging is limited, to an evenly spaced
        sample of keys.
        """
        log = ctx.log
        started = time.monotonic()
        provisional = self._make_judge(set())  # reflexivity is known only after the walk
        log(f"kvizovka: walking {len(self.generators)} apertium generator(s)")
        ap = hbs_apertium.load(self.generators, provisional.rank_tags)
        apertium_ref = ap.reflexive_only()
        reflexive = (apertium_ref - set(self.lists.not_reflexive_only)) | set(
            self.lists.reflexive_only)
        judge = self.judge = self._make_judge(reflexive)
        self.form_book = RuleBook("kvizovka-form", self.form_rules(judge))
        self.stats["apertium"] = {
            "pairs": ap.pairs, "forms": len(ap.forms), "varieties": ap.varieties,
            "reflexive_only_lemmas": len(apertium_ref),
            "reflexive_only_after_lists": len(reflexive),
            "walk_seconds": round(time.monotonic() - started, 1),
        }

        log("kvizovka: learning hunspell paradigm slots from apertium's tags")
        tiler = LatinToCyrillic()
        learners = [SlotLearner() for _ in self.hunspell]
        for i, src in enumerate(self.hunspell):
            for hf in iter_forms(src):
                if hf.cyrillic is not None:
                    tiler.learn(hf.cyrillic)
                tiler.learn_word(hf.latin)
                if not hf.proper:
                    self._observe(learners[i], hf, ap)
        for form in ap.forms:
            tiler.learn_word(form)

        log("kvizovka: judging hunspell forms")
        state = _State(ap, tiler, judge)
        for i, src in enumerate(self.hunspell):
            self._collect_hunspell(i, src, learners[i], state)
        tiled: Counter[str] = Counter()
        for form in ap.forms:
            key, how = tiler.key_and_how(form)
            tiled[how] += 1
            entry = state.acc.get(key)
            if entry is None:
                state.acc[key] = [1, None, False]
            else:
                entry[0] |= 1
        self.stats["tiling_of_latin_apertium_forms"] = dict(tiled)
        self.stats["split_spellings_learned"] = len(tiler.split)
        self.stats["keys"] = len(state.acc)

        log(f"kvizovka: writing {len(state.acc):,} keys")
        book = self.form_book
        admitted_by: Counter[str] = Counter()
        keys = sorted(state.acc)
        # smoke build: an evenly spaced sample (the sources are read whole: slots need
        # the overlap)
        keys = smoke_sample(keys, ctx.limit)
        for key in keys:
            cand = self._candidate(key, state)
            verdict = book.judge(cand)
            if verdict.valid:
                admitted_by[self._admitted_by(cand)] += 1
                yield self._record(cand, True)
            else:
                yield self._record(cand, False, verdict.code, verdict.message)
        self.stats["valid_admitted_by"] = dict(admitted_by)
        self.stats["seconds_in_builder"] = round(time.monotonic() - started, 1)

    # -- learning and collecting ---------------------------------------------------------
    @staticmethod
    def _observe(learner: SlotLearner, hf: HForm, ap: ApertiumForms) -> None:
        """Teach ``learner`` what apertium says about one hunspell form (see SlotLearner)."""
        by_lemma = ap.forms.get(hf.latin)
        if not by_lemma:
            if not hf.bare and hf.stem in ap.lemmas:
                learner.observe_absent(slot_keys(hf))   # apertium knows the stem, not this
            return
        entry = by_lemma.get(hf.stem)
        if entry is not None:
            learner.observe(slot_keys(hf), entry.rank,
                            frozenset(normalise(t) for t in entry.tags), same_lemma=True,
                            form=hf.latin)
            return
        # another lemma's analyses: a weaker vote; proper nouns cannot teach a lower-case stem
        common = [e for lemma, e in by_lemma.items() if not lemma[:1].isupper()]
        if not common:
            return
        best = min(e.rank for e in common)
        tags = frozenset(normalise(t) for e in common if e.rank == best for t in e.tags)
        learner.observe(slot_keys(hf), best, tags, same_lemma=False,
                        stem_known=hf.stem in ap.lemmas, form=hf.latin)

    def _collect_hunspell(self, i: int, src: HunspellSource, learner: SlotLearner,
                          state: _State) -> None:
        """Add every form of one dictionary to ``state.acc`` with what it says."""
        bit = 2 << i
        cache: dict[tuple[Any, ...], int] = {}
        stems: dict[str, str] = {}
        kinds: Counter[str] = Counter()
        respelled = 0
        acc, verdicts = state.acc, state.verdicts
        for hf in iter_forms(src):
            key = state.tiler.key(hf.latin)
            if hf.cyrillic is not None and key != hf.cyrillic:
                respelled += 1   # sr_RS's digraph duplicate of a split spelling
            stem = stems.setdefault(hf.stem, hf.stem)
            if hf.proper:
                kind = ACRONYM if len(stem) > 1 and stem.isupper() else PROPER
            elif state.apertium_knows(hf.latin) and not state.participle_stem(stem):
                kind = CONFIRMED   # apertium tags this form: its analyses decide
            else:
                keys = slot_keys(hf)
                # a prefixed bare stem (ne+stem) falls back on the stem's own flags
                slot = (*keys, hf.stem_flags) if hf.prefix and len(hf.slot) == 3 else tuple(keys)
                kind = cache.get(slot, -9)
                if kind == -9:
                    kind = cache[slot] = len(verdicts)
                    verdicts.append(learner.verdict(keys, hf))
            known = kind not in (PROPER, ACRONYM)   # the lower-case word is in the dictionary
            kinds["proper" if kind == PROPER else "acronym" if kind == ACRONYM else
                  "apertium_confirms" if kind == CONFIRMED else
                  "slot_learned" if verdicts[kind] is not None else "slot_unknown"] += 1
            info: Info = (i, stem, kind)
            entry = acc.get(key)
            if entry is None:
                acc[key] = [bit, info, known]
                continue
            entry[0] |= bit
            entry[2] = entry[2] or known
            held = entry[1]
            if held is None:
                entry[1] = info
            elif isinstance(held, list):
                if info not in held:
                    held.append(info)
            elif held != info:
                entry[1] = [held, info]
        self.stats.setdefault("hunspell", {})[src.source_id] = {
            "forms": sum(kinds.values()), "analyses": dict(kinds),
            "slots_learned": sum(1 for k in cache.values() if verdicts[k] is not None),
            "slots_unknown": sum(1 for k in cache.values() if verdicts[k] is None),
            "respelled_to_split": respelled,
        }

    # -- judging one key -----------------------------------------------------------------
    def _candidate(self, key: str, state: _State) -> FormCandidate:
        """All readings of one key, which of them pass, and the explanation if none does.

        An apertium reading that passes the rules still needs a dictionary behind it: a
        dictionary must have the form as a lower-case word (not only as a form of a
        capitalised name) and have its lemma as a word too.
        Otherwise it is *unsupported*: *gradova* is not admitted as the possessive
        adjective *gradov* that apertium derives from every masculine noun, it is explained
        as the genitive plural of *grad*.
        """
        bits, held, attested = state.acc[key]
        infos: list[Info] = [] if held is None else held if isinstance(held, list) else [held]
        latin = to_latin(key)
        judge = state.judge
        readings: list[HbsAnalysis] = []
        evidence: list[str] = []
        sources: list[str] = []
        if bits & 1:
            sources.append(APERTIUM)
            for lemma, entry in state.ap.forms.get(latin, {}).items():
                for tags, vbits in entry.tags.items():
                    note = ", ".join(state.ap.varieties_of(vbits))
                    readings.append(HbsAnalysis(latin, lemma, tags, APERTIUM, note))
        for i, src in enumerate(self.hunspell):
            if bits & (2 << i) and src.source_id not in sources:
                sources.append(src.source_id)
        for i, stem, kind in infos:
            sid = self.hunspell[i].source_id
            if kind == CONFIRMED:
                evidence.append(f"{sid}: a form of {stem}")
            elif kind in (PROPER, ACRONYM):
                tags = ("np",) if kind == PROPER else ("abbr",)
                readings.append(HbsAnalysis(latin, stem, tags, sid, "capitalised stem"))
            else:
                v = state.verdicts[kind]
                if v is None or not v.tag_sets:
                    readings.append(HbsAnalysis(latin, stem, (UNCLASSIFIED,), sid,
                                            "paradigm slot not learned"))
                else:
                    note = (f"slot learned from {v.examples} apertium forms" if v.examples
                            else "slot read from its ending")
                    sets = v.tag_sets
                    if state.comparative_stem(stem):
                        sets = tuple(tuple("comp" if t == "pst" else t for t in ts)
                                     for ts in sets)
                        note += "; the stem is a comparative"
                    readings.extend(HbsAnalysis(latin, stem, t, sid, note) for t in sets)
        admissible: list[HbsAnalysis] = []
        unsupported: list[HbsAnalysis] = []
        rest: list[HbsAnalysis] = []
        for r in readings:
            if judge.rank(r) != 0:
                rest.append(r)
            elif r.source != APERTIUM or (attested and state.lemma_attested(r.lemma)):
                admissible.append(r)
            else:
                unsupported.append(r)
        explained = None if admissible or not rest else judge.explain(rest)
        for r in admissible:
            if len(evidence) >= MAX_EVIDENCE:
                break
            line = f"{r.source}" + (f" ({r.note})" if r.note else "") + \
                   f": {r.lemma} {'.'.join(r.tags)}"
            if line not in evidence:
                evidence.insert(0, line)
        return FormCandidate(key, latin, readings, admissible, unsupported, sorted(sources),
                             explained, evidence[:MAX_EVIDENCE])

    @staticmethod
    def _admitted_by(c: FormCandidate) -> str:
        """A label for the manifest's count of what admitted the valid forms."""
        direct = {r.source for r in c.admissible}
        if APERTIUM in direct:
            return "apertium tags, attested by " + "+".join(s for s in c.sources
                                                            if s != APERTIUM)
        return "learned hunspell slot, " + "+".join(c.sources)

    @staticmethod
    def _category(readings: list[HbsAnalysis]) -> str | None:
        """Record.category of an admitted form: the first of CATEGORY_ORDER it has."""
        cats = {CATEGORY.get(r.pos) for r in readings}
        return next((c for c in CATEGORY_ORDER if c in cats), None)

    def _record(self, c: FormCandidate, valid: bool, code: str | None = None,
                message: str | None = None) -> Record:
        """The stored record: the readings behind the verdict, the sources, the evidence."""
        if valid:
            shown = c.admissible
        elif code == "unattested":
            shown = c.unsupported
        elif c.explained is not None and code == c.explained[0]:
            shown = c.explained[2]
        else:
            shown = c.admissible or c.readings
        analyses = []
        for r in shown[:MAX_ANALYSES if valid else MAX_REJECTED_ANALYSES]:
            labels = (r.note,) if r.note else ()
            analyses.append(Analysis(r.lemma, ".".join(r.tags), r.source, labels))
        return Record(
            key=c.key, word=c.latin, valid=valid, reason_code=code, reason_message=message,
            analyses=analyses, sources=c.sources,
            category=self._category(c.admissible) if valid else None,
            evidence=c.evidence if valid else [],
        )

    # -- manifest ------------------------------------------------------------------------
    def policy(self) -> dict[str, Any]:
        """The decisions behind this release, and what the build measured, for the manifest."""
        return {
            "builder": "build.games.kvizovka",
            "admit_adverbs": self.admit_adverbs,
            "admission": "a form is admitted when ANY of its analyses passes the rule book "
                         "and has a dictionary behind it; otherwise it is explained by its "
                         "most informative analysis (rules ordered by informativeness)",
            "grammar": "where apertium tags a form (of a common lemma), its analyses are the "
                       "grammar and hunspell only attests; hunspell forms apertium does not "
                       "know inherit the analyses of their paradigm slot",
            "single_source": "an apertium analysis counts only if a dictionary (hunspell-sr "
                             "or hunspell-hr) has the form as a lower-case word and has its "
                             "lemma too; otherwise 'unattested' (the generators "
                             "overgenerate: truncated indefinite forms such as 'krajnj', "
                             "possessives of every noun such as 'gradov', typos in "
                             "lemmas). Forms only a hunspell dictionary has are admitted "
                             "when their learned slot passes",
            "hunspell_grammar": f"a slot is (affix flags, prefix, ending swap); it inherits "
                                f"the apertium tags of its forms whose stem apertium has as "
                                f"lemma (other lemmas' tags only as a weaker fallback); it "
                                f"needs {MIN_EXAMPLES} examples and {MIN_AGREEMENT:.0%} "
                                f"agreement. Slots outside apertium's paradigms are read "
                                f"from their ending (long adjective endings -oga/-ome, "
                                f"conjugated verb forms, truncated infinitives); ne-/naj- "
                                f"forms take the slot of the unprefixed form; bare stems "
                                f"are classified by inflectional flags only. Anything else "
                                f"is 'unclassified' (rejected)",
            "reflexive_verbs": "a verb is reflexive-only when every apertium infinitive of "
                               "it is tagged <ref> (adjusted by hbs_reflexive_only / "
                               "hbs_not_reflexive_only); verbs only hunspell knows cannot be "
                               "told and are admitted unless listed",
            "elatives": "'pre-' forms apertium generates as <ssup> of another adjective "
                        "are rejected even when listed as lemmas of their own, except "
                        "hbs_not_elative",
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


