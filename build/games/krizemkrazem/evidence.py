"""What the Slovenian sources say about each spelling, as typed values the rules read.

:class:`SlovenianSources` loads the evidence once (hunspell-sl forms, the apertium analyser,
FreeDict headwords, the mythes-sl
thesaurus, the reviewed lists, LemmaGen) and runs the two passes that need every
form: which words are nominatives by their declension (:mod:`.morph`), and which plurals
are inhabitant plurals (*Ljubljančani*). :meth:`SlovenianSources.candidate` then gives one
:class:`Candidate` per spelling; the facts only rejections need (verb and adjective endings,
LemmaGen's lemma) are computed when a rule first asks.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from lexicon.build.games.krizemkrazem import morph
from lexicon.build.games.krizemkrazem.lists import ListEntry, read_lists
from lexicon.build.progress import Progress, peak_rss_mb
from lexicon.build.shards import ordered, spans, worker_count
from lexicon.sources import freedict, lemmagen, mythes
from lexicon.sources.hunspell import declared_entries, expand
from lexicon.sources.lttoolbox import iter_pairs, parse_analysis
from lexicon.sources.wordlist import LISTS_DIR

from lexicon.game.profile import Profile
from lexicon.game.tiles import speller

HUNSPELL, APERTIUM, FREEDICT, LEMMAGEN, MYTHES = (
    "hunspell-sl", "apertium-hbs-slv", "dict-freedict-slv-eng", "lemmagen3", "mythes-sl")
#: the cases a weak masculine/neuter reading must show on forms of its own (forms no
#: competing lemma's paradigm explains) before it stands beside that lemma's reading
OWN_CASES = (("dative singular", "locative singular"), ("instrumental singular",))
#: a feminine in -a beside a masculine whose genitive it spells (*matematika*, *soja*): its
#: -o (accusative and instrumental singular) is the one ending no masculine form has
OWN_CASES_FEM_A = (("accusative singular", "instrumental singular"),)
NOUN_TAGS = ("n", "np")
#: the feminine of an inhabitant or nation noun a reviewed list names in the plural, from its
#: masculine: Škot -> Škotinja, Srb -> Srbkinja, Hrvat -> Hrvatica, Bolgar -> Bolgarka
FEMININE_SUFFIXES = ("ka", "inja", "kinja", "ica")
#: a thesaurus synonym's usage note: ``rit (vulgarno)``, ``cerkvenec (starinsko)``
USAGE_NOTE = re.compile(r"\s*\([^)]*\)\s*$")
PARADIGM_CHUNK = 20_000   # spellings tried per shard of the paradigm pass (build.shards)
PARADIGM_LEAST = 200_000  # by default, a worker per this many spellings (start-up costs)


class Tagged(NamedTuple):
    """One analysis of the apertium Slovenian analyser: ``hiša`` + ``("n", "f", "sg", "nom")``."""

    lemma: str
    tags: tuple[str, ...]

    def __str__(self) -> str:
        return self.lemma + "".join(f"<{t}>" for t in self.tags)


class CaseForm(NamedTuple):
    """An attested form is a case form of an admitted lemma (*hiše* of *hiša*)."""

    lemma: str
    cases: tuple[str, ...]


class InhabitantPair(NamedTuple):
    """The admitted masculine and feminine behind an inhabitant plural (*Ljubljančani*,
    *Ljubljančanke*), which of the two it is the plural of, and what made the masculine an
    inhabitant or nation noun (its suffix and feminine, or a reviewed list's entry)."""

    masculine: str
    feminine: str
    feminine_plural: bool = False
    listed_in: str = ""          # "sl_nation_plurals.txt: Škoti" when a list made it one

    @property
    def lemma(self) -> str:
        return self.feminine if self.feminine_plural else self.masculine


@dataclass
class Inputs:
    """Where the evidence comes from; every path but the hunspell pair is optional."""

    dic: Path
    aff: Path
    analyser: Path | None = None        # apertium lttoolbox .bin (Slovenian analyser)
    freedict_root: Path | None = None   # a directory holding a dictd .index/.dict(.dz)
    thesaurus_root: Path | None = None  # a directory holding a MyThes th_*.dat (mythes-sl)
    lists_dir: Path = LISTS_DIR
    use_lemmagen: bool = True


T = TypeVar("T")


class once(Generic[T]):
    """:class:`functools.cached_property` without its lock: computed on first use and kept
    in the instance's ``__dict__``. Python 3.11's version takes a lock on every first use,
    once per property of each of ~1.2M candidates; candidates are never shared between
    threads."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(eq=False)
class Candidate:
    """Everything known about one spelling; the rules read it, the record reports it."""

    word: str
    key: str
    sources: SlovenianSources = field(repr=False)
    analyses: list[Tagged] = field(default_factory=list)
    dict_entries: list[freedict.Entry] = field(default_factory=list)
    thesaurus: mythes.Entry | None = None
    listed: ListEntry | None = None
    excluded: ListEntry | None = None
    paradigms: list[morph.Paradigm] = field(default_factory=list)
    inflection_of: list[CaseForm] = field(default_factory=list)
    derived_plural_of: InhabitantPair | None = None

    @property
    def capitalised(self) -> bool:
        return morph.is_capitalised(self.word)

    @property
    def single(self) -> bool:
        return " " not in self.word

    @property
    def in_hunspell(self) -> bool:
        return self.word in self.sources.forms

    def present_in(self) -> list[str]:
        """The sources that list this spelling (before any evidence is weighed)."""
        out = [HUNSPELL] if self.in_hunspell else []
        if self.analyses:
            out.append(APERTIUM)
        if self.dict_entries:
            out.append(FREEDICT)
        if self.thesaurus:
            out.append(MYTHES)
        if self.listed:
            out.append(f"lists/{self.listed.file}")
        return out

    def noun_analyses(self) -> list[Tagged]:
        """Noun analyses, singular before plural before dual: a referee reads "genitive
        plural of Prešeren" more readily than "genitive dual".

        A nominative singular of another lemma that the same lemma's hunspell-sl paradigm
        contradicts is left out: apertium tags *osla* as ``osel<n><sg><nom>``, while
        hunspell-sl declines *osel* with *osla* as its genitive.

        Made once per candidate (six rules ask), and not at all for the nine in ten
        spellings the analyser does not know."""
        got: list[Tagged] | None = self.__dict__.get("_nouns")
        if got is None:
            got = self.__dict__["_nouns"] = self._noun_analyses() if self.analyses else []
        return got

    def _noun_analyses(self) -> list[Tagged]:
        nouns = [a for a in self.analyses if a.tags and a.tags[0] in NOUN_TAGS
                 and not self.paradigm_contradicts(a)]
        order = {"sg": 0, "pl": 1, "du": 2}
        return sorted(nouns, key=lambda a: next((order[x] for x in a.tags if x in order), 3))

    def paradigm_contradicts(self, a: Tagged) -> bool:
        """Is ``a`` a nominative singular of a lemma other than the word itself, while the
        lemma's admitted hunspell-sl paradigm has the word as another case?"""
        return is_nom_sg(a.tags) and a.lemma != self.word and \
            any(cf.lemma == a.lemma for cf in self.inflection_of)

    # -- facts computed on first use (most are only needed to explain a rejection) ----------
    @once
    def lemma(self) -> str | None:
        """LemmaGen's lemma (None: no lemmatiser, or a phrase)."""
        lem = self.sources.lemmatizer
        return lem.lemma(self.word) if lem and self.single else None

    @once
    def self_lemma(self) -> bool | None:
        """Does LemmaGen lemmatise the word to itself? (None: not asked)"""
        if self.lemma is None or not self.word.isalpha():
            return None
        return self.lemma == self.word

    @once
    def contradicted(self) -> bool:
        """The analyser knows the word, but neither as a nominative singular nor as a
        plural-only lemma."""
        nouns = self.noun_analyses()
        return bool(self.analyses) and not any(is_nom_sg(a.tags) for a in nouns) and not \
            any(a.lemma == self.word and "pl" in a.tags and "nom" in a.tags for a in nouns)

    @once
    def verb_forms(self) -> list[str]:
        return morph.verb_forms(self.word, self.sources.has)          # delati -> delal

    @once
    def adjective_forms(self) -> list[str]:
        return morph.adjective_forms(self.word, self.sources.has)     # zelen -> zelenega

    @once
    def lemma_is_adjective(self) -> bool:
        lem = self.lemma
        return bool(lem and lem != self.word and morph.adjective_forms(lem, self.sources.has))

    @once
    def written_capitalised_by(self) -> list[str]:
        """For a lower-case spelling no dictionary lists: the dictionaries that list it
        with a capital letter (hunspell-sl, FreeDict), e.g. ``["hunspell-sl: Bled"]``.

        The thesaurus is a dictionary too: its lower-case headword *kanta* (sam., a can)
        is the common noun beside hunspell-sl's *Kanta* (of the philosopher Kant)."""
        w = self.word
        if self.capitalised or w != w.lower() or self.in_hunspell or self.dict_entries or \
                self.thesaurus is not None or self.listed or not self.single:
            return []
        title = w[:1].upper() + w[1:]
        out = [f"{HUNSPELL}: {title}"] if title in self.sources.forms else []
        if title in self.sources.dictionary:
            out.append(f"FreeDict: {title}")
        return out


def is_nom_sg(tags: tuple[str, ...]) -> bool:
    return "nom" in tags and "sg" in tags


class SlovenianSources:
    """The evidence tables of one build, loaded once and dropped when the records are out."""

    def __init__(self, inputs: Inputs, profile: Profile,
                 lemmatizer: lemmagen.SlovenianLemmatizer | None,
                 log: Callable[[str], None] = lambda _m: None) -> None:
        self.inputs = inputs
        self.profile = profile
        self.speller = speller(profile)
        self.lemmatizer = lemmatizer
        self.log = log
        self.stats: dict[str, int] = {}
        self.timings: dict[str, float] = {}
        self.list_entries: list[ListEntry] = []
        self.exclusions: list[ListEntry] = []
        self.listed: dict[str, ListEntry] = {}
        self.excluded: dict[str, ListEntry] = {}
        self.forms: set[str] = set()
        self.analyses: dict[str, list[Tagged]] = defaultdict(list)
        self.dictionary: dict[str, list[freedict.Entry]] = {}
        self.thesaurus: dict[str, mythes.Entry] = {}
        self.paradigm_admitted: dict[str, list[morph.Paradigm]] = {}
        self.inflection_of: dict[str, list[CaseForm]] = defaultdict(list)
        self.strong_inflection: set[str] = set()   # forms of a strongly attested lemma
        self.derived_plurals: dict[str, InhabitantPair] = {}
        #: is ``form`` attested (hunspell, or a surface of the analyser)? One set lookup
        #: once the paradigm pass has made both tables one (:meth:`paradigm_pass`)
        self.has: morph.Has = self._in_either

    # -- loading -------------------------------------------------------------------------
    def load(self) -> None:
        t = time.monotonic()
        self.has = self._in_either
        self.list_entries, self.exclusions = read_lists(self.inputs.lists_dir)
        self.listed = {e.word: e for e in self.list_entries}
        self.excluded = {e.word: e for e in self.exclusions}
        self.log("krizemkrazem: expanding hunspell-sl")
        with Progress("krizemkrazem: expanding hunspell-sl",
                      total=declared_entries(self.inputs.dic), unit="entries") as bar:
            self.forms = {f.form for f in expand(self.inputs.dic, self.inputs.aff,
                                                 bar.advance)}
        self.stats["hunspell_forms"] = len(self.forms)
        self.timings["hunspell_s"] = round(time.monotonic() - t, 1)
        self.timings["hunspell_peak_rss_mb"] = peak_rss_mb()
        t = time.monotonic()
        if self.inputs.analyser:
            self.log("krizemkrazem: reading the apertium analyser")
            with Progress("krizemkrazem: reading the apertium analyser",
                          unit="pairs") as bar:
                pairs = iter_pairs(self.inputs.analyser, on_total=bar.set_total)
                for surface, analysis in bar.track(pairs, every=10_000):
                    parsed = Tagged(*parse_analysis(analysis))
                    if parsed not in self.analyses[surface]:
                        self.analyses[surface].append(parsed)
        self.stats["apertium_surfaces"] = len(self.analyses)
        if self.inputs.freedict_root:
            self.dictionary = freedict.by_headword(self.inputs.freedict_root)
        self.stats["freedict_headwords"] = len(self.dictionary)
        self.load_thesaurus()
        self.timings["analyser_dictionary_s"] = round(time.monotonic() - t, 1)
        self.timings["analyser_dictionary_peak_rss_mb"] = peak_rss_mb()

    def load_thesaurus(self) -> None:
        """The thesaurus headwords (its meanings' parts of speech are the evidence)."""
        if self.inputs.thesaurus_root:
            self.thesaurus = mythes.by_headword(self.inputs.thesaurus_root)
        self.stats["thesaurus_headwords"] = len(self.thesaurus)
        self.stats["thesaurus_noun_headwords"] = sum(
            1 for e in self.thesaurus.values() if e.is_noun())

    def _in_either(self, form: str) -> bool:
        """:attr:`has` before the paradigm pass."""
        return form in self.forms or form in self.analyses

    def is_lemma(self, word: str) -> bool | None:
        return self.lemmatizer.is_lemma(word) if self.lemmatizer else None

    def key(self, word: str) -> str:
        return self.speller.key_of(word.lower().replace(" ", ""))

    def spellings(self) -> list[str]:
        """Every spelling to judge: hunspell forms, analyser single words, dictionary
        headwords, list entries; sorted by key so spellings of one key are adjacent."""
        return [w for _key, w in self.keyed_spellings()]

    def keyed_spellings(self) -> list[tuple[str, str]]:
        """:meth:`spellings` with their keys, ``(key, spelling)`` in that order: the judging
        groups the spellings by key and each candidate has it, so it is made once."""
        words = set(self.forms)
        words.update(s for s in self.analyses if " " not in s)
        words.update(h for h in self.dictionary if " " not in h)
        words.update(h for h, e in self.thesaurus.items() if " " not in h and e.is_noun())
        words.update(self.listed)
        words.update(self.excluded)
        words.discard("")
        key = self.key
        return sorted((key(w), w) for w in words)

    def candidate(self, w: str, key: str | None = None) -> Candidate:
        """``key``: ``w``'s key, when the caller has it already."""
        return Candidate(
            word=w, key=self.key(w) if key is None else key, sources=self,
            analyses=list(self.analyses.get(w, ())),
            dict_entries=list(self.dictionary.get(w, ())),
            thesaurus=self.thesaurus.get(w),
            listed=self.listed.get(w), excluded=self.excluded.get(w),
            paradigms=self.paradigm_admitted.get(w, []),
            inflection_of=self.inflection_of.get(w, []),
            derived_plural_of=self.derived_plurals.get(w),
        )

    # -- pass A: which single words are nominatives by their paradigm --------------------
    def paradigm_pass(self, words: Sequence[str], workers: int | None = None) -> None:
        """Admit paradigms and map each attested inflected form back to its lemma.

        Run over all candidates (even with a build limit), because whether *hiše* is an
        inflected form depends on *hiša* having been recognised. Which paradigms admit a
        word is a pure function of the word and the loaded sources, so shards of the words
        are tried in ``workers`` forked processes (:mod:`build.shards`); the admitted ones
        are taken in word order, as one pass would, so the tables are the same whatever
        the number of workers.
        """
        t = time.monotonic()
        # :attr:`has` as one set lookup: the paradigms ask ~40 candidate forms per word,
        # most of them not attested, and a miss would look in both tables; the judging asks
        # a few per spelling too
        attested = set(self.forms)
        attested.update(self.analyses)
        self.has = attested.__contains__
        n = worker_count(workers, len(words), PARADIGM_LEAST)

        def task(start: int, stop: int) -> list[tuple[str, list[morph.Paradigm]]]:
            found = ((w, self.admitted_paradigms(w)) for w in words[start:stop])
            return [(w, ok) for w, ok in found if ok]

        chunks = spans(len(words), n, PARADIGM_CHUNK)
        with Progress("krizemkrazem: finding nominatives by paradigm", len(words),
                      "spellings") as bar:
            for (start, stop), admitted in zip(chunks, ordered(task, chunks, n), strict=True):
                for w, ok in admitted:
                    self._admit(w, ok)
                bar.advance(stop - start)
        self.stats["paradigm_lemmas"] = len(self.paradigm_admitted)
        self.timings["paradigm_pass_s"] = round(time.monotonic() - t, 1)
        self.timings["paradigm_pass_peak_rss_mb"] = peak_rss_mb()
        self.log(f"krizemkrazem: {len(self.paradigm_admitted):,} nominatives found by paradigm")
        self._derive_inhabitant_plurals()

    def admitted_paradigms(self, w: str) -> list[morph.Paradigm]:
        """The declensions under which ``w`` is admitted as a nominative ([] for none)."""
        if " " in w or not w.isalpha():
            return []
        has = self.has
        hyps = morph.noun_paradigms(w, has)
        ok = [p for p in hyps if p.strong]
        if hyps and not ok and self.lemmatizer and self.is_lemma(w) and \
                not morph.adjective_forms(w, has):
            ok = hyps
        if hyps and not ok:
            ok = [p for p in hyps if self.singular_name(w, p) and not self._contradicted(w)]
        plural = morph.plural_only(w, has) or self.plural_place(w)
        if plural:
            ok.append(plural)
        return ok

    def _admit(self, w: str, ok: list[morph.Paradigm]) -> None:
        """Take ``w``'s admitted paradigms into the tables the judging reads."""
        self.paradigm_admitted[w] = ok
        for p in ok:
            for form, cases in p.found.items():
                if form != w:
                    self.inflection_of[form].append(CaseForm(w, cases))
                    if p.strong:
                        self.strong_inflection.add(form)

    def _derive_inhabitant_plurals(self) -> None:
        """Ljubljančan + Ljubljančanka (both nouns) -> Ljubljančani and Ljubljančanke are
        inhabitant plurals.

        The rule book admits the plural "pri prebivalcih, narodih (npr. Škoti)": of every
        inhabitant and nation noun, so of the feminine (*Ljubljančanka*, *Nemka*) as of the
        masculine. Inhabitant and nation nouns come in masculine/feminine pairs; surnames
        do not, so requiring the feminine (itself a recognised nominative) keeps out most
        surnames. Only the productive inhabitant suffixes -an (-čan, -ljan) and -ec (-ka,
        -ica) are derived: hunspell-sl also pairs surnames in -ar (Žagar/Žagarka), and
        ethnonyms without a suffix (Škot, Hrvat) are in the reviewed list, whose entry then
        makes the pair: the masculine its plural is a form of, and that masculine's
        feminine (:data:`FEMININE_SUFFIXES`, *Škotinja*), whose plural is admitted on the
        same entry.
        """
        admitted = self.paradigm_admitted
        for lemma, paradigms in admitted.items():
            if not lemma[:1].isupper() or lemma.isupper():
                continue
            if not any(p.cls == "masc" for p in paradigms):
                continue
            if lemma.endswith("ec"):
                fems: tuple[str, ...] = (lemma[:-2] + "ka", lemma[:-2] + "ica")
            elif lemma.endswith("an"):
                fems = (lemma + "ka",)
            else:
                continue     # Škot, Anglež, Hrvat...: the list; Žagar/Žagarka are surnames
            self._add_pair(lemma, fems, "", masculine_too=True)
        for entry in self.list_entries:
            if entry.category != "nation_plural":
                continue
            for cf in self.inflection_of.get(entry.word, ()):
                lemma = cf.lemma
                if morph.NP not in cf.cases or not lemma[:1].isupper() or \
                        not any(p.cls == "masc" for p in admitted.get(lemma, ())):
                    continue
                stems = (lemma, lemma[:-2]) if lemma.endswith("ec") else (lemma,)
                self._add_pair(lemma, tuple(s + x for s in stems for x in FEMININE_SUFFIXES),
                               f"{entry.file}: {entry.word}", masculine_too=False)
        self.stats["derived_inhabitant_plurals"] = sum(
            1 for p in self.derived_plurals.values() if not p.feminine_plural)
        self.stats["derived_inhabitant_feminine_plurals"] = sum(
            1 for p in self.derived_plurals.values() if p.feminine_plural)

    def _add_pair(self, masculine: str, feminines: tuple[str, ...], listed_in: str, *,
                  masculine_too: bool) -> None:
        """Take the nominative plurals of the first of ``feminines`` that is an admitted
        feminine in -a as inhabitant plurals, and with ``masculine_too`` those of
        ``masculine`` (nothing without such a feminine). A pair found by its suffix
        replaces one found before; a list's pair (whose masculine plural the list admits
        already) never does."""
        admitted = self.paradigm_admitted
        fem = next((f for f in feminines if f in admitted
                    and any(p.cls == "fem_a" for p in admitted[f])), None)
        if fem is None:
            return
        genders = ((masculine, "masc", "i", False),) if masculine_too else ()
        for lemma, cls, ending, feminine in (*genders, (fem, "fem_a", "e", True)):
            for p in admitted[lemma]:
                if p.cls != cls:
                    continue
                for form, cases in p.found.items():
                    if morph.NP in cases and form.endswith(ending) and (
                            masculine_too or form not in self.derived_plurals):
                        self.derived_plurals[form] = InhabitantPair(masculine, fem, feminine,
                                                                    listed_in)

    def _contradicted(self, w: str) -> bool:
        """Does the analyser know ``w`` but not as a nominative (singular or plural lemma)?"""
        an = self.analyses.get(w)
        if not an:
            return False
        return not any(t and t[0] in NOUN_TAGS and "nom" in t and ("sg" in t or lem == w)
                       for lem, t in an)

    # -- facts the admission rules ask about ---------------------------------------------
    def singular_name(self, w: str, p: morph.Paradigm) -> bool:
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

    def own_forms(self, w: str, p: morph.Paradigm) -> list[str]:
        """The forms of ``p`` that no competing reading explains, when ``w`` is also a case
        form of another lemma (*Stanko*: accusative of *Stanka*, and a masculine name of its
        own with *Stanku*, *Stankom*, which *Stanka*'s declension does not have).

        A competing lemma that is itself a case form of a strongly attested lemma is
        disregarded: its reading is the doubtful one (*stepo*, accusative of *stepa*, read
        as a neuter from the forms of *step*). Returns [] unless the own forms show the
        cases of :data:`OWN_CASES`: a spelling is admitted when any reading of it is, but
        a reading needs forms of its own.
        """
        rivals = {cf.lemma for cf in self.inflection_of.get(w, ())
                  if cf.lemma not in self.strong_inflection}
        shared = set(rivals)
        for lemma in rivals:
            for q in self.paradigm_admitted.get(lemma, ()):
                if w in q.found:
                    shared.update(q.found)
        own = [f for f in p.found if f not in shared]
        cases = {c for f in own for c in p.found[f]}
        groups = OWN_CASES_FEM_A if p.cls == "fem_a" else OWN_CASES
        if all(any(c in cases for c in group) for group in groups):
            return own
        return []

    def rivals_explain_analyses(self, c: Candidate) -> bool:
        """Does the analyser read ``c`` only as case forms of nouns whose hunspell-sl
        paradigms are known here? Then :meth:`own_forms` can tell the word's own reading
        from theirs (*matematika*: apertium knows only *matematik*'s genitive, hunspell-sl
        also *matematiko*, *matematikami*). Any other reading (a verb, an adjective) or a
        rival lemma without a known paradigm leaves the analyser's word standing."""
        known = {cf.lemma for cf in c.inflection_of}
        return bool(c.analyses) and all(
            a.tags[:1] and a.tags[0] in NOUN_TAGS and a.lemma in known
            and a.lemma in self.paradigm_admitted for a in c.analyses)

    def plural_place(self, w: str) -> morph.Paradigm | None:
        """A capitalised plural place name (*Fužine*: Fužin, Fužinam, Fužinah) whose singular
        forms belong to a homonymous singular (the village *Fužina*), with LemmaGen's
        "its own lemma": all its own forms are plural, so it is a nominative.

        Feminine plurals in -e only, and not an accusative plural of a masculine (a form in
        -ov beside it) unless the feminine plural's -am and -ami, which no masculine form
        has, are there too (*Štore*: *Štoram*, *Štorami* beside *Štor*, *Štorov*; the
        villages *Poljčane*, *Skoke*).
        Measured on the real sources, the masculine -i and neuter -a plurals this would add
        were mostly case forms of names that LemmaGen leaves as they are (*Paganinija*,
        *Avberški*)."""
        if not morph.is_capitalised(w) or w.isupper() or not w.endswith("e"):
            return None
        s = w[:-1]
        masculine = self.has(s + "ov") and not (self.has(s + "am") and self.has(s + "ami"))
        if masculine or not self.is_lemma(w):
            return None
        p = morph.plural_only(w, self.has, ignore_singular=True)
        if p is not None and self.has(s + "a"):
            p.note = f"a plural name beside the singular {s}a"
        return p

    def noun_synonyms(self, entry: mythes.Entry, word: str) -> list[str]:
        """The synonyms of ``entry``'s noun meanings ``(sam.)`` that the other sources attest
        as nouns: a nominative singular of the analyser, a noun declension among the
        hunspell forms, or a FreeDict noun headword, without adjective forms of their own.
        Not the thesaurus's own headwords: its adjectives tagged as nouns vouch for each
        other (*netipičen*, *asimptomatičen*).

        The thesaurus tags some adjectives as nouns (*netipičen* (sam.) *asimptomatičen*,
        *interneten* (sam.) *medmrežen*): their synonyms are adjectives too. A noun meaning
        whose synonyms are nouns (*sloka* (sam.) *kljunač*, *urin* (sam.) *seč*) is the
        noun the headword also is, whatever the spelling's other readings (*sloka*, a form
        of the adjective *slok*; *urin*, a genitive plural of *urino*). A lower-case
        headword is a common noun, so only lower-case synonyms vouch for it (*tajska* (sam.)
        *Siam* is the country's name misspelt)."""
        out: list[str] = []
        for m in entry.meanings:
            if m.pos != "sam.":
                continue
            for syn in m.synonyms:
                s = USAGE_NOTE.sub("", syn)
                if s == word or " " in s or s in out or not s.isalpha() or (
                        not morph.is_capitalised(word) and morph.is_capitalised(s)):
                    continue
                noun = s in self.paradigm_admitted or any(
                    lem == s and t[:1] and t[0] in NOUN_TAGS and is_nom_sg(t)
                    for lem, t in self.analyses.get(s, ())) or any(
                    e.pos == "n" for e in self.dictionary.get(s, ()))
                if noun and not morph.adjective_forms(s, self.has):
                    out.append(s)
        return out

    def possessive_of(self, w: str) -> str | None:
        """The attested possessive adjective of a name (Karin -> Karinin), if any.

        Only names of people (and a few animals) form possessives, so this is what lets an
        uninflected capitalised entry count as a name; without it the route admitted case
        forms of place names (Aosto, Canberre) about half the time.
        """
        return next((p for p in (w + "in", w + "ov", w + "ev", w + "jev", w + "tov")
                     if p in self.forms), None)

    def inflected_looking(self, w: str) -> bool:
        """Is ``w`` an attested shorter word plus a case ending (Bizanca = Bizanc + a,
        Foucaulteve = Foucaultev + e)? Then it is no bare name, whatever LemmaGen says."""
        return any(w.endswith(e) and len(w) - len(e) >= 3 and self.has(w[: -len(e)])
                   for e in morph.CASE_ENDINGS)

    def free(self) -> None:
        """Drop the evidence tables (the build's largest) once every record is out: the
        pipeline keeps the builder alive while it scans, diffs and publishes the release."""
        self.forms = set()
        self.has = self._in_either
        self.analyses = defaultdict(list)
        self.dictionary = {}
        self.thesaurus = {}
        self.paradigm_admitted = {}
        self.inflection_of = defaultdict(list)
        self.strong_inflection = set()
        self.derived_plurals = {}
        if self.lemmatizer:
            self.lemmatizer.forget()
