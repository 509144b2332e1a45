"""Križemkražem (Slovenian crossword-scrabble): which words are nouns in the nominative.

The rule book (shared/seeds/001, IZBOR BESED) admits nouns in the nominative singular,
common and proper (the joker example accepts Kacin, kalin, Kanin, Karin); pluralia tantum
(hlače); the nominative plural only for inhabitants and nations (Škoti) and established
plural use (padavine); known phrases (pustni ples) and first name + surname (Tone
Pavček); abbreviations only where they became nouns (Unesco). Length (at least 4 tiles)
and letters only a joker can play (W, X, Y, Q) are play rules applied by the checker from
the profile.

Candidates are every form of ``hunspell-sl`` expanded by :mod:`sources.hunspell` (1.16M
forms, proper names included), every single-word surface of the apertium Slovenian
analyser, the FreeDict headwords and the reviewed lists. Whether a form is a nominative
(singular) noun is decided from independent evidence, strongest first; the first that
speaks decides, and every piece that agrees is recorded in ``Record.evidence``:

1. **reviewed lists** (``sources/lists/sl_*.txt``): pluralia tantum, nation/inhabitant
   plurals, established plurals, phrases, full names, abbreviation nouns; and exclusions;
2. **apertium-hbs-slv analyser** (``slv-hbs.automorf.bin``): ``<n>``/``<np>`` with
   ``<sg><nom>`` admits; a plural analysis whose lemma is the form itself (``vrata``,
   ``Brežice``) is a plurale tantum; any other analysis is the explanation of a rejection
   unless a strong noun paradigm *and* the lemmatiser both contradict it (the analyser
   knows only ~7k lemmas, so it misses homographs: it has ``para`` but not ``par``);
3. **FreeDict** headwords labelled ``<n, ..., sg>`` (or ``pl``: plurale tantum);
4. **noun paradigm** found in the hunspell forms (:mod:`build.games.sl_morph`): a strong
   paradigm admits alone; a weak one (singular-only, extended stem) needs LemmaGen to
   lemmatise the form to itself, no adjective endings, and the form must not be a case
   form of a strongly attested noun; a **plural-only paradigm** (hlačah, hlačam, hlačami
   and no singular) is a plurale tantum, which also covers plural place names (Jesenice);
   A capitalised masculine attested in the singular only (*Hanoj*: Hanoja, Hanoju) is a
   name even when LemmaGen does not know it, provided no ``-o``/``-ah`` form makes it a
   genitive plural of a feminine or plural name (*Tamar* < *Tamara*);
5. **proper names** without attested inflection (*Karin*): a capitalised hunspell entry
   that LemmaGen leaves as it is, that no admitted paradigm produces as an inflected form,
   that shows no adjective or verb endings, and whose possessive adjective (*Karinin*) is
   attested; without the possessive the route admitted case forms of place names
   (*Aosto*, *Canberre*) about half the time, so it is not used;
6. **inhabitant plurals** derived from an admitted capitalised masculine noun in -an/-ec
   that has a feminine counterpart (*Ljubljančan*/*Ljubljančanka* -> *Ljubljančani*).

Hunspell flags are not used as part-of-speech evidence: in hunspell-sl they compress the
list rather than describe it (``hiš/A`` gives *hiša hiše hiši hišo*; ``Škoti/T`` gives
*Škot*; 84k entries have no flag), so the bare-stem/flag test was measured and dropped.

Rejections name the rule and the specific reason, e.g. *hiše*: "genitive singular (or
nominative plural, accusative plural) of hiša; only the nominative singular is admitted".
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import reduce
from itertools import groupby
from pathlib import Path
from typing import Any

from build.games import sl_morph as morph
from build.games.sl_lists import ListEntry, read_lists
from build.pipeline import BuildContext
from build.release import peak_rss_mb
from build.rules import Rule, RuleBook
from lexicon.profile import Profile
from lexicon.profile import load as load_profile
from lexicon.records import Analysis, Record
from lexicon.tiles import speller
from sources import freedict, lemmagen
from sources.hunspell import expand
from sources.lttoolbox import iter_pairs, parse_analysis
from sources.wordlist import LISTS_DIR

GAME = "krizemkrazem"
HUNSPELL, APERTIUM, FREEDICT, LEMMAGEN = (
    "hunspell-sl", "apertium-hbs-slv", "dict-freedict-slv-eng", "lemmagen3")

CASE = {"nom": "nominative", "gen": "genitive", "dat": "dative", "acc": "accusative",
        "loc": "locative", "ins": "instrumental"}
NUMBER = {"sg": "singular", "du": "dual", "pl": "plural"}
NOUN_TAGS = ("n", "np")
CLOSED = {"adv": "an adverb", "prn": "a pronoun", "num": "a numeral", "pr": "a preposition",
          "cnjcoo": "a conjunction", "cnjsub": "a conjunction", "cnjadv": "a conjunction",
          "part": "a particle", "ij": "an interjection", "vbser": "a form of the verb biti",
          "det": "a determiner"}
# endings that make a capitalised word look like a case form of a shorter attested word
CASE_ENDINGS = ("a", "u", "om", "em", "e", "i", "o", "ov", "ev", "ja", "ju", "jem", "ta",
                "tu", "tom", "ih", "ima", "ama", "oma", "ema", "ami", "ah", "am", "mi",
                "ega", "emu")
ROMAN = re.compile(r"^[IVXLCDM]+$")
PLURAL_NOTE = ("; the plural is admitted only for inhabitants and nations, pluralia tantum "
               "and established plural use")
ONLY_NOM = "; only the nominative singular is admitted"


# --------------------------------------------------------------------------------------
# Evidence gathered for one candidate
# --------------------------------------------------------------------------------------

@dataclass
class Candidate:
    """Everything known about one spelling; the rules read it, the record reports it."""

    word: str
    key: str
    in_hunspell: bool
    analyses: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # apertium
    dict_entries: list[freedict.Entry] = field(default_factory=list)
    listed: ListEntry | None = None
    excluded: ListEntry | None = None
    paradigms: list[morph.Paradigm] = field(default_factory=list)
    lemma: str | None = None            # LemmaGen's lemma (None: not asked / unavailable)
    inflection_of: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    derived_plural_of: tuple[str, str] | None = None   # (Ljubljančan, Ljubljančanka)
    verb_forms: list[str] = field(default_factory=list)       # delati -> delal, delala
    adjective_forms: list[str] = field(default_factory=list)  # zelen -> zelenega
    lemma_is_adjective: bool = False
    admitted: bool = False
    decided_by: str | None = None        # evidence kind that decided admission
    category: str | None = None
    evidence: list[str] = field(default_factory=list)
    sources: set[str] = field(default_factory=set)

    @property
    def capitalised(self) -> bool:
        return morph.is_capitalised(self.word)

    def noun_analyses(self) -> list[tuple[str, tuple[str, ...]]]:
        """Noun analyses, singular before plural before dual: a referee reads "genitive
        plural of Prešeren" more readily than "genitive dual"."""
        nouns = [(lem, t) for lem, t in self.analyses if t and t[0] in NOUN_TAGS]
        order = {"sg": 0, "pl": 1, "du": 2}
        return sorted(nouns, key=lambda a: next((order[x] for x in a[1] if x in order), 3))


def tag_text(tags: tuple[str, ...]) -> str:
    """``("n", "f", "sg", "gen")`` -> ``"genitive singular"`` (empty if no case)."""
    case = next((CASE[t] for t in tags if t in CASE), None)
    num = next((NUMBER[t] for t in tags if t in NUMBER), None)
    return " ".join(x for x in (case, num) if x)


def analysis_str(lemma: str, tags: tuple[str, ...]) -> str:
    return lemma + "".join(f"<{t}>" for t in tags)


def is_nom_sg(tags: tuple[str, ...]) -> bool:
    return "nom" in tags and "sg" in tags


# --------------------------------------------------------------------------------------
# Rules: the first that rejects gives the reason
# --------------------------------------------------------------------------------------

def make_rules(allowed_letters: frozenset[str]) -> RuleBook[Candidate]:
    """The ordered rules; hard rules apply to every candidate, the rest to unadmitted ones."""

    def excluded(c: Candidate) -> str | None:
        if c.excluded:
            return f"excluded by {c.excluded.file}: {c.excluded.reason}"
        return None

    def hyphen(c: Candidate) -> str | None:
        odd = [ch for ch in c.word if ch in "-'’"]
        return f"contains {''.join(dict.fromkeys(odd))!r}" if odd else None

    def roman(c: Candidate) -> str | None:
        if ROMAN.match(c.word) and not c.listed:
            return "a Roman numeral"
        return None

    def abbreviation(c: Candidate) -> str | None:
        if c.listed and c.listed.category == "abbreviation_noun":
            return None
        if c.word.endswith("."):
            return "an abbreviation (written with a full stop)"
        letters = c.word.replace(" ", "")
        if len(letters) > 1 and letters.isupper():
            return "an abbreviation (written in capitals); only abbreviations that became " \
                   "nouns, such as Unesco, are admitted"
        if len(letters) <= 4 and any(ch.isupper() for ch in letters[1:]):
            return "an abbreviation (capitals inside the word)"
        if c.analyses and all(t[:1] == ("abbr",) for _, t in c.analyses) and not c.admitted:
            return "an abbreviation (apertium: abbr)"
        return None

    def letters(c: Candidate) -> str | None:
        odd = sorted({ch for ch in c.word.lower() if ch != " " and ch not in allowed_letters})
        if odd:
            return (f"spelled with {', '.join(odd)}, which no Križemkražem tile (or joker "
                    "letter) stands for")
        return None

    def closed_class(c: Candidate) -> str | None:
        if c.admitted or c.noun_analyses():
            return None
        for lem, t in c.analyses:
            if t and t[0] in CLOSED:
                return CLOSED[t[0]] + (f" ({lem})" if lem != c.word.lower() else "")
        return None

    def comparative(c: Candidate) -> str | None:
        if c.admitted:
            return None
        for lem, t in c.analyses:
            if t[:1] == ("adj",) and ("comp" in t or "sup" in t):
                degree = "comparative" if "comp" in t else "superlative"
                return f"{degree} of the adjective {lem}"
        return None

    def verb(c: Candidate) -> str | None:
        if c.admitted:
            return None
        for lem, t in c.analyses:
            if t[:1] == ("vblex",):
                if "inf" in t:
                    return "a verb (infinitive)"
                return f"a form of the verb {lem}"
        return None

    def adjective(c: Candidate) -> str | None:
        if c.admitted:
            return None
        for lem, t in c.analyses:
            if t[:1] == ("adj",):
                if lem == c.word and "nom" in t and "sg" in t:
                    return "an adjective"
                return f"a form of the adjective {lem}"
        return None

    def possessive(c: Candidate) -> str | None:
        if c.admitted or not morph.possessive(c.word, c.adjective_forms):
            return None
        also = ""
        nouns = c.noun_analyses()
        if nouns:
            also = f"; also {tag_text(nouns[0][1])} of {nouns[0][0]}"
        elif c.inflection_of:
            also = f"; also {morph.describe_cases(c.inflection_of[0][1])} of " \
                   f"{c.inflection_of[0][0]}"
        return f"a possessive adjective (cf. {', '.join(c.adjective_forms[:2])}){also}"

    def inflected(c: Candidate) -> str | None:
        if c.admitted:
            return None
        nouns = c.noun_analyses()
        if nouns:
            by_lemma: dict[str, list[str]] = defaultdict(list)
            for lem, t in nouns:
                by_lemma[lem].append(tag_text(t))
            lem, cases = next(iter(by_lemma.items()))
            return _inflection_message(cases, lem)
        if c.inflection_of:
            lem, cases = c.inflection_of[0]
            return _inflection_message(list(cases), lem)
        return None

    def guessed(c: Candidate) -> str | None:
        """Facts from the word list and LemmaGen when no tagged source knows the word."""
        if c.admitted:
            return None
        if c.derived_plural_of is None and c.word.endswith(("ti", "či")) and c.verb_forms:
            return f"a verb (infinitive; cf. {', '.join(c.verb_forms[:2])})"
        if c.adjective_forms:
            forms = ", ".join(c.adjective_forms[:2])
            if morph.possessive(c.word, c.adjective_forms):
                return f"a possessive adjective (cf. {forms})"
            return f"an adjective (cf. {forms})"
        lem = c.lemma
        if lem and lem != c.word and len(lem) > 1:
            if lem.endswith(("ti", "či")):
                return f"a form of the verb {lem} (LemmaGen)"
            if c.lemma_is_adjective:
                return f"a form of the adjective {lem} (LemmaGen)"
        return None

    def lemma_other(c: Candidate) -> str | None:
        if c.admitted or not c.lemma or c.lemma == c.word:
            return None
        return f"an inflected form of {c.lemma} (LemmaGen){ONLY_NOM}"

    def no_evidence(c: Candidate) -> str | None:
        if c.admitted:
            return None
        return ("no source attests it as a noun in the nominative singular (no noun "
                "analysis, no noun declension among the known forms)")

    return RuleBook("krizemkrazem", [
        Rule("listed_exclusion", "excluded by sources/lists/sl_exclusions.txt", excluded),
        Rule("hyphen_or_apostrophe", "written with a hyphen or apostrophe", hyphen),
        Rule("part_of_speech", "Roman numerals are numerals", roman),
        Rule("abbreviation", "abbreviations (full stop, capitals, apertium abbr), unless "
             "listed as having become nouns (Unesco)", abbreviation),
        Rule("foreign_letters", "letters no tile or joker letter stands for (ć, ü, ö, đ)",
             letters),
        Rule("part_of_speech", "closed classes per the apertium analyser (adverb, pronoun, "
             "numeral, preposition, conjunction, particle, interjection)", closed_class),
        Rule("comparative", "comparatives and superlatives (apertium)", comparative),
        Rule("part_of_speech", "verbs (apertium)", verb),
        Rule("part_of_speech", "adjectives (apertium)", adjective),
        Rule("part_of_speech", "possessive adjectives (Prešernov: Prešernovega among the "
             "hunspell forms), before their reading as a genitive plural", possessive),
        Rule("inflected_form", "cases other than the nominative, the dual, ordinary plurals "
             "(apertium tags, or the declension found in the hunspell forms)", inflected),
        Rule("part_of_speech", "verbs, adjectives and possessive adjectives recognised from "
             "their endings among the hunspell forms, or via the LemmaGen lemma", guessed),
        Rule("inflected_form", "forms LemmaGen lemmatises to another word", lemma_other),
        Rule("no_noun_evidence", "everything else: no evidence of a nominative noun",
             no_evidence),
    ])


def _inflection_message(cases: Iterable[str], lemma: str) -> str:
    cs = [c for c in dict.fromkeys(cases) if c]
    text = morph.describe_cases(cs)
    note = PLURAL_NOTE if cs and "plural" in cs[0] and "nominative" in cs[0] else ONLY_NOM
    return f"{text} of {lemma}{note}"


# --------------------------------------------------------------------------------------
# The builder
# --------------------------------------------------------------------------------------

@dataclass
class Inputs:
    """Where the evidence comes from; every path but the hunspell pair is optional."""

    dic: Path
    aff: Path
    analyser: Path | None = None        # apertium lttoolbox .bin (Slovenian analyser)
    freedict_root: Path | None = None   # a directory holding a dictd .index/.dict(.dz)
    lists_dir: Path = LISTS_DIR
    use_lemmagen: bool = True


class KrizemkrazemBuilder:
    """Judges every known Slovenian form for Križemkražem (see the module docstring)."""

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
        self.lemmatizer_used = "injected" if lemmatizer else "not used"
        if lemmatizer is None and inputs.use_lemmagen:
            lemmatizer = lemmagen.load()
            self.lemmatizer_used = f"lemmagen3 {lemmagen.version()}" if lemmatizer else \
                "lemmagen3 not installed"
        self.lemmatizer = lemmatizer
        if self.lemmatizer:
            ids.append(LEMMAGEN)
        self.source_ids: tuple[str, ...] = tuple(ids)
        self.book = make_rules(frozenset(self.profile.by_spelling))
        self.stats: Counter[str] = Counter()
        self.decided: Counter[str] = Counter()     # admitted records by deciding evidence
        self.supported: Counter[str] = Counter()   # admitted records by any evidence
        self.by_list: dict[str, Counter[str]] = defaultdict(Counter)
        self.timings: dict[str, float] = {}
        self.list_entries: list[ListEntry] = []
        self.exclusions: list[ListEntry] = []

    # -- loading the evidence ------------------------------------------------------------
    def _load(self, ctx: BuildContext) -> None:
        t = time.monotonic()
        self.list_entries, self.exclusions = read_lists(self.inputs.lists_dir)
        self.listed = {e.word: e for e in self.list_entries}
        self.excluded_words = {e.word: e for e in self.exclusions}
        ctx.log(f"{GAME}: expanding hunspell-sl")
        self.forms: set[str] = set()
        for f in expand(self.inputs.dic, self.inputs.aff):
            self.forms.add(f.form)
        self.stats["hunspell_forms"] = len(self.forms)
        self.timings["hunspell_s"] = round(time.monotonic() - t, 1)
        self.timings["hunspell_peak_rss_mb"] = peak_rss_mb()
        t = time.monotonic()
        self.analyses: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
        if self.inputs.analyser:
            ctx.log(f"{GAME}: reading the apertium analyser")
            for surface, analysis in iter_pairs(self.inputs.analyser):
                parsed = parse_analysis(analysis)
                if parsed not in self.analyses[surface]:
                    self.analyses[surface].append(parsed)
        self.stats["apertium_surfaces"] = len(self.analyses)
        self.dictionary: dict[str, list[freedict.Entry]] = {}
        if self.inputs.freedict_root:
            self.dictionary = freedict.by_headword(self.inputs.freedict_root)
        self.stats["freedict_headwords"] = len(self.dictionary)
        self.timings["analyser_dictionary_s"] = round(time.monotonic() - t, 1)
        self.timings["analyser_dictionary_peak_rss_mb"] = peak_rss_mb()

    def has(self, form: str) -> bool:
        """Is ``form`` attested (hunspell, or a surface of the analyser)?"""
        return form in self.forms or form in self.analyses

    def is_lemma(self, word: str) -> bool | None:
        return self.lemmatizer.is_lemma(word) if self.lemmatizer else None

    def candidates(self) -> list[str]:
        """Every spelling to judge: hunspell forms, analyser single words, dictionary
        headwords, list entries; sorted by key so spellings of one key are adjacent."""
        words = set(self.forms)
        words.update(s for s in self.analyses if " " not in s)
        words.update(h for h in self.dictionary if " " not in h)
        words.update(self.listed)
        words.update(self.excluded_words)
        words.discard("")
        return sorted(words, key=lambda w: (self.key(w), w))

    def key(self, word: str) -> str:
        return speller(self.profile).key_of(word.lower().replace(" ", ""))

    # -- pass A: which single words are nominatives by their paradigm --------------------
    def _paradigm_pass(self, words: Iterable[str], ctx: BuildContext) -> None:
        """Admit paradigms and map each attested inflected form back to its lemma.

        Run over all candidates (even with ``ctx.limit``), because whether *hiše* is an
        inflected form depends on *hiša* having been recognised.
        """
        t = time.monotonic()
        self.paradigm_admitted: dict[str, list[morph.Paradigm]] = {}
        self.inflection_of: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
        self.strong_inflection: set[str] = set()   # forms of a strongly attested lemma
        for w in words:
            if " " in w or not w.isalpha():
                continue
            hyps = morph.noun_paradigms(w, self.has)
            ok = [p for p in hyps if p.strong]
            if hyps and not ok and self.lemmatizer and self.is_lemma(w) and \
                    not morph.adjective_forms(w, self.has):
                ok = hyps
            if hyps and not ok:
                ok = [p for p in hyps if self._singular_name(w, p)
                      and not self._contradicted(w)]
            plural = morph.plural_only(w, self.has)
            if plural:
                ok.append(plural)
            if not ok:
                continue
            self.paradigm_admitted[w] = ok
            for p in ok:
                for form, cases in p.found.items():
                    if form != w:
                        self.inflection_of[form].append((w, cases))
                        if p.strong:
                            self.strong_inflection.add(form)
        self.stats["paradigm_lemmas"] = len(self.paradigm_admitted)
        self.timings["paradigm_pass_s"] = round(time.monotonic() - t, 1)
        self.timings["paradigm_pass_peak_rss_mb"] = peak_rss_mb()
        ctx.log(f"{GAME}: {len(self.paradigm_admitted):,} nominatives found by paradigm")
        self._derive_inhabitant_plurals()

    def _derive_inhabitant_plurals(self) -> None:
        """Ljubljančan + Ljubljančanka (both nouns) -> Ljubljančani is an inhabitant plural.

        Inhabitant and nation nouns come in masculine/feminine pairs; surnames do not, so
        requiring the feminine (itself a recognised nominative) keeps out most surnames.
        Only the productive inhabitant suffixes -an (-čan, -ljan) and -ec (-ka, -ica) are
        derived: hunspell-sl also pairs surnames in -ar (Žagar/Žagarka), and ethnonyms
        without a suffix (Škot, Hrvat) are few enough for the reviewed list.
        """
        self.derived_plurals: dict[str, tuple[str, str]] = {}
        admitted = self.paradigm_admitted
        for lemma, paradigms in admitted.items():
            if not lemma[:1].isupper() or lemma.isupper():
                continue
            masc = [p for p in paradigms if p.cls == "masc"]
            if not masc:
                continue
            if lemma.endswith("ec"):
                fems: tuple[str, ...] = (lemma[:-2] + "ka", lemma[:-2] + "ica")
            elif lemma.endswith("an"):
                fems = (lemma + "ka",)
            else:
                continue     # Škot, Anglež, Hrvat...: the list; Žagar/Žagarka are surnames
            fem = next((f for f in fems if f in admitted
                        and any(p.cls == "fem_a" for p in admitted[f])), None)
            if fem is None:
                continue
            for p in masc:
                for form, cases in p.found.items():
                    if morph.NP in cases and form.endswith("i"):
                        self.derived_plurals[form] = (lemma, fem)
        self.stats["derived_inhabitant_plurals"] = len(self.derived_plurals)

    # -- pass B: judging ---------------------------------------------------------------------
    def _candidate(self, w: str) -> Candidate:
        c = Candidate(word=w, key=self.key(w), in_hunspell=w in self.forms)
        c.analyses = list(self.analyses.get(w, ()))
        c.dict_entries = list(self.dictionary.get(w, ()))
        c.listed = self.listed.get(w)
        c.excluded = self.excluded_words.get(w)
        c.paradigms = self.paradigm_admitted.get(w, [])
        c.inflection_of = self.inflection_of.get(w, [])
        c.derived_plural_of = self.derived_plurals.get(w)
        if c.in_hunspell:
            c.sources.add(HUNSPELL)
        if c.analyses:
            c.sources.add(APERTIUM)
        if c.dict_entries:
            c.sources.add(FREEDICT)
        return c

    def _admit(self, c: Candidate) -> None:
        """Decide admission from the strongest evidence; record every agreeing piece."""
        w = c.word
        ev: list[tuple[str, str, str]] = []      # (kind, category, text)
        single = " " not in w
        name_cat = "name" if c.capitalised else "noun"
        if c.listed:
            ev.append((f"list:{c.listed.file}", c.listed.category,
                       f"{c.listed.file}: {c.listed.reason}"))
            c.sources.add(f"lists/{c.listed.file}")
        nom_sg = [(lem, t) for lem, t in c.noun_analyses() if is_nom_sg(t)]
        plural_lemma = [(lem, t) for lem, t in c.noun_analyses()
                        if lem == w and "pl" in t and "nom" in t]
        if nom_sg:
            lem, t = nom_sg[0]
            cat = "name" if t[0] == "np" or c.capitalised else "noun"
            ev.append(("apertium", cat, f"apertium-hbs-slv: {analysis_str(lem, t)}"))
        elif plural_lemma:
            lem, t = plural_lemma[0]
            ev.append(("apertium_plural_lemma", "plurale_tantum",
                       f"apertium-hbs-slv: plural-only lemma {analysis_str(lem, t)}"))
        for e in c.dict_entries:
            if e.pos == "n" and e.number in ("sg", None):
                ev.append(("freedict", name_cat, f"FreeDict: {e.describe()}"))
                break
            if e.pos == "n" and e.number == "pl":
                ev.append(("freedict_plural", "plurale_tantum", f"FreeDict: {e.describe()}"))
                break
        contradicted = bool(c.analyses) and not nom_sg and not plural_lemma
        self_lemma = self.is_lemma(w) if single and w.isalpha() else None
        if self_lemma is not None:
            c.lemma = w if self_lemma else self.lemmatizer.lemma(w)  # type: ignore[union-attr]
        for p in c.paradigms:
            if p.cls in morph.PLURAL_ONLY:
                if not contradicted or self_lemma:
                    ev.append(("plural_paradigm", "plurale_tantum",
                               f"hunspell-sl forms, {p.describe()}; no singular forms"))
                continue
            if p.strong and not (contradicted and not self_lemma):
                ev.append(("paradigm", name_cat, f"hunspell-sl forms, {p.describe()}"))
                break
            if not p.strong and self_lemma and (not contradicted or p.shadowed) and not \
                    morph.adjective_forms(w, self.has) and \
                    (p.shadowed or w not in self.strong_inflection):
                ev.append(("paradigm+lemmagen", name_cat,
                           f"hunspell-sl forms, {p.describe()}; LemmaGen: its own lemma"))
                break
            if not p.strong and not contradicted and self._singular_name(w, p) and \
                    w not in self.strong_inflection:
                ev.append(("paradigm_name", "name", f"hunspell-sl forms, {p.describe()}; a "
                           f"capitalised masculine with no feminine or plural-name reading "
                           f"({w}o, {w}ah unattested)"))
                break
        possessive = self._possessive_of(c) if (
            single and c.capitalised and not w.isupper() and c.in_hunspell and self_lemma
            and not c.analyses and not c.inflection_of and not c.paradigms
            and not self._non_noun_endings(c) and not self._inflected_looking(w)) else None
        if possessive:
            ev.append(("name_entry", "name", f"hunspell-sl: capitalised entry with the "
                       f"possessive {possessive} and no inflection of another word; "
                       "LemmaGen: its own lemma"))
        if c.derived_plural_of and not nom_sg:
            lem, fem = c.derived_plural_of
            ev.append(("inhabitant_plural", "nation_plural",
                       f"nominative plural of {lem}, an inhabitant/nation noun "
                       f"(feminine {fem})"))
        if not ev:
            return
        if self_lemma and not any("LemmaGen" in text for _, _, text in ev):
            ev.append(("lemmagen", ev[0][1], "LemmaGen: its own lemma"))
        c.admitted = True
        c.decided_by = ev[0][0]
        c.category = ev[0][1]
        c.evidence = [text for _, _, text in ev]
        for kind, _, _ in ev:
            if kind.startswith("paradigm") or kind == "name_entry":
                c.sources.add(HUNSPELL)
            if "lemmagen" in kind or kind == "name_entry":
                c.sources.add(LEMMAGEN)

    def _contradicted(self, w: str) -> bool:
        """Does the analyser know ``w`` but not as a nominative (singular or plural lemma)?"""
        an = self.analyses.get(w)
        if not an:
            return False
        return not any(t and t[0] in NOUN_TAGS and "nom" in t and ("sg" in t or lem == w)
                       for lem, t in an)

    def _singular_name(self, w: str, p: morph.Paradigm) -> bool:
        """A capitalised masculine attested in the singular only (Hanoj: Hanoja, Hanoju,
        Hanojem), admitted without LemmaGen, which does not know most place names.

        The risk is a genitive plural of a feminine or plural name (Tamar < Tamara, Kamenj
        < Kamenje), whose other forms then include ``-o`` or ``-ah``; a masculine never has
        those, so their absence is required. Measured on a sample of 80 such words before
        the guard: ~75% right; the errors were all of that kind.
        """
        if p.cls != "masc" or p.strong or not morph.is_capitalised(w) or w.isupper():
            return False
        if w[-1].lower() in morph.VOWELS and not p.stem.startswith(w):
            return False     # Razborco: Razborc+o is a case form, not a Marko-type name
        stems = {w, p.stem}
        return not any(self.has(x + "o") or self.has(x + "ah") for x in stems) and \
            not morph.adjective_forms(w, self.has)

    def _possessive_of(self, c: Candidate) -> str | None:
        """The attested possessive adjective of a name (Karin -> Karinin), if any.

        Only names of people (and a few animals) form possessives, so this is what lets an
        uninflected capitalised entry count as a name; without it the route admitted case
        forms of place names (Aosto, Canberre) about half the time.
        """
        w = c.word
        return next((p for p in (w + "in", w + "ov", w + "ev", w + "jev", w + "tov")
                     if p in self.forms), None)

    def _inflected_looking(self, w: str) -> bool:
        """Is ``w`` an attested shorter word plus a case ending (Bizanca = Bizanc + a,
        Foucaulteve = Foucaultev + e)? Then it is no bare name, whatever LemmaGen says."""
        return any(w.endswith(e) and len(w) - len(e) >= 3 and self.has(w[: -len(e)])
                   for e in CASE_ENDINGS)

    def _non_noun_endings(self, c: Candidate) -> bool:
        return bool(morph.adjective_forms(c.word, self.has) or morph.verb_forms(c.word, self.has))

    def _facts_for_rejection(self, c: Candidate) -> None:
        """Lazily computed facts the 'guessed' rule reads (only for unadmitted words)."""
        c.verb_forms = morph.verb_forms(c.word, self.has)
        c.adjective_forms = morph.adjective_forms(c.word, self.has)
        c.lemma_is_adjective = False
        if c.lemma is None and self.lemmatizer and " " not in c.word:
            c.lemma = self.lemmatizer.lemma(c.word)
        if c.lemma and c.lemma != c.word:
            c.lemma_is_adjective = bool(morph.adjective_forms(c.lemma, self.has))

    def judge(self, w: str) -> tuple[Candidate, Record]:
        c = self._candidate(w)
        self._admit(c)
        if not c.admitted:
            self._facts_for_rejection(c)
        verdict = self.book.judge(c)
        analyses = [Analysis(lem, ".".join(t), APERTIUM) for lem, t in c.analyses[:8]]
        if verdict.valid and not analyses and c.decided_by and c.decided_by.startswith(
                ("paradigm", "freedict", "plural_paradigm")) and c.paradigms:
            p = c.paradigms[0]
            g = {"masc": "m", "fem_a": "f", "fem_i": "f", "neut": "nt", "pl_masc": "m",
                 "pl_fem": "f", "pl_neut": "nt"}[p.cls]
            num = "pl" if p.cls in morph.PLURAL_ONLY else "sg"
            analyses = [Analysis(w, f"n.{g}.{num}.nom", "paradigm")]
        rec = Record(
            key=c.key, word=w, valid=verdict.valid, reason_code=verdict.code,
            reason_message=verdict.message, analyses=analyses,
            sources=sorted(c.sources), category=c.category if verdict.valid else None,
            evidence=c.evidence if verdict.valid else [],
        )
        return c, rec

    def records(self, ctx: BuildContext) -> Iterator[Record]:
        started = time.monotonic()
        self._load(ctx)
        words = self.candidates()
        self.stats["candidates"] = len(words)
        self._paradigm_pass(words, ctx)
        if ctx.limit is not None:
            words = words[: ctx.limit]
            self.stats["judged_limit"] = ctx.limit
        ctx.log(f"{GAME}: judging {len(words):,} spellings")
        t = time.monotonic()
        for _, items in groupby(words, key=self.key):
            judged = [self.judge(w) for w in items]
            rec = reduce(Record.merge, (r for _, r in judged))
            self._count(judged, rec)
            yield rec
        self.timings["judging_s"] = round(time.monotonic() - t, 1)
        self.timings["judging_peak_rss_mb"] = peak_rss_mb()
        self.timings["builder_total_s"] = round(time.monotonic() - started, 1)
        self._free()

    def _free(self) -> None:
        """Drop the evidence tables (~500 MB) once every record is out: the pipeline keeps
        the builder alive while it scans, diffs and publishes the release."""
        self.forms = set()
        self.analyses = defaultdict(list)
        self.dictionary = {}
        self.paradigm_admitted = {}
        self.inflection_of = defaultdict(list)
        self.strong_inflection = set()
        self.derived_plurals = {}
        if self.lemmatizer:
            self.lemmatizer.forget()

    def _count(self, judged: list[tuple[Candidate, Record]], rec: Record) -> None:
        self.stats["records"] += 1
        chosen = next(c for c, r in judged if r is rec)
        if rec.valid:
            self.stats["admitted"] += 1
            self.decided[chosen.decided_by or "?"] += 1
            kinds = set()
            for c, r in judged:
                if r.valid:
                    kinds.update(_kinds(c))
            for k in kinds:
                self.supported[k] += 1
        for c, r in judged:
            if c.listed:
                counter = self.by_list[c.listed.file]
                counter["entries_judged"] += 1
                counter["admitted" if r.valid else "rejected"] += 1
                if r.valid and c.decided_by == f"list:{c.listed.file}" and len(
                        [k for k in _kinds(c) if not k.startswith("list:")]) == 0:
                    counter["admitted_only_by_this_list"] += 1
            if c.excluded:
                self.by_list[c.excluded.file]["entries_judged"] += 1
                self.by_list[c.excluded.file]["rejected"] += 1

    # -- manifest ----------------------------------------------------------------------------
    def policy(self) -> dict[str, Any]:
        lists = {}
        for e in self.list_entries + self.exclusions:
            lists.setdefault(e.file, {"category": e.category, "entries": 0})
            lists[e.file]["entries"] += 1
        for name, counter in self.by_list.items():
            lists.setdefault(name, {}).update(dict(counter))
        return {
            "builder": "build.games.krizemkrazem",
            "decision": [
                "reviewed lists admit (pluralia tantum, nation/inhabitant and established "
                "plurals, phrases, full names, abbreviation nouns) or exclude",
                "apertium analyser <n>/<np> <sg><nom> admits; a plural analysis whose lemma is "
                "the form itself is a plurale tantum; other analyses explain rejections",
                "FreeDict noun headword admits",
                "a strong noun paradigm among the hunspell forms admits; a weak one needs "
                "LemmaGen to lemmatise the form to itself; a paradigm contradicted by the "
                "analyser needs LemmaGen as well",
                "a capitalised masculine attested in the singular only (Hanoj: Hanoja, "
                "Hanoju) is a name when no -o/-ah form makes it a genitive plural of a "
                "feminine or plural name (Tamar < Tamara)",
                "plural case forms without any singular form (hlačah, hlačam; no hlača) make "
                "the nominative plural a plurale tantum",
                "a capitalised hunspell entry LemmaGen leaves as is, that is no inflected form "
                "of an admitted noun, shows no adjective or verb endings and has an attested "
                "possessive (Karin: Karinin), is a name",
                "nominative plural of an admitted capitalised masculine noun in -an/-ec with a "
                "feminine counterpart (Slovenec/Slovenka) is an inhabitant/nation plural",
                "hunspell affix flags are not used as part-of-speech evidence",
            ],
            "lemmatizer": self.lemmatizer_used,
            "admitted_by_deciding_evidence": dict(self.decided.most_common()),
            "admitted_supported_by": dict(self.supported.most_common()),
            "lists": lists,
            "stats": dict(self.stats),
            "rejected_by_rule": dict(self.book.rejected_by),
            "timings": self.timings,
        }

    def rules(self) -> list[dict[str, str]]:
        return self.book.describe()


def _kinds(c: Candidate) -> list[str]:
    """Evidence kinds present in a candidate's evidence texts (for the policy counts)."""
    out = []
    for text in c.evidence:
        if text.startswith("sl_") and ".txt" in text:
            out.append("list:" + text.split(":", 1)[0])
        elif text.startswith("apertium"):
            out.append("apertium")
        elif text.startswith("FreeDict"):
            out.append("freedict")
        elif text.startswith("hunspell-sl forms") and "plural-only" in text:
            out.append("plural_paradigm")
        elif text.startswith("hunspell-sl forms") and "capitalised masculine" in text:
            out.append("paradigm_name")
        elif text.startswith("hunspell-sl forms"):
            out.append("paradigm+lemmagen" if "LemmaGen" in text else "paradigm")
        elif text.startswith("hunspell-sl: capitalised"):
            out.append("name_entry")
        elif text.startswith("nominative plural of"):
            out.append("inhabitant_plural")
        elif text.startswith("LemmaGen"):
            out.append("lemmagen")
    return out


def builder(ctx: BuildContext) -> KrizemkrazemBuilder:
    """The builder over the fetched, pinned sources."""
    hroot = ctx.source_root(HUNSPELL) / "usr" / "share" / "hunspell"
    aroot = ctx.source_root(APERTIUM) / "usr" / "share" / "apertium" / "apertium-hbs-slv"
    return KrizemkrazemBuilder(Inputs(
        dic=hroot / "sl_SI.dic", aff=hroot / "sl_SI.aff",
        analyser=aroot / "slv-hbs.automorf.bin",
        freedict_root=ctx.source_root(FREEDICT),
    ))
