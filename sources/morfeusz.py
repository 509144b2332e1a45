"""Annotate Polish word forms with Morfeusz 2 (SGJP dictionary) analyses.

Polish word games (OSPS Scrabble, remik słowny) reject capitalised words,
abbreviations and bound prefixes/suffixes.  The primary word list
(``wpolish``) does not say which of its lowercase forms are abbreviations or
proper names, so we ask Morfeusz 2, the morphological analyser built on the
*Słownik gramatyczny języka polskiego* (SGJP), and keep its answers as plain
data for the rules to decide on.

Configuration and why:

* ``case_handling=STRICTLY_CASE_SENSITIVE`` - the case of a form matters: in
  the default (conditional) mode ``kraków`` would be analysed as the city
  *Kraków*; strictly, a lowercase form only matches lowercase dictionary
  entries and ``kraków`` is unknown (``ign``).
* ``praet="composite"`` - past and conditional forms with person endings
  (``zrobiłem``, ``zrobiłbym``) are one segment, as they are one word on the
  board; with ``"split"`` they would come back as ``zrobił`` + ``em``.
* ``aggl="strict"`` (the SGJP default, set explicitly) - agglutination is only
  allowed where the dictionary says so.  Available: ``strict``,
  ``permissive``, ``isolated``.  ``isolated`` makes every single letter a
  ``brev:pun`` and would pollute the abbreviation signal.
* ``expand_tags=False`` - tags keep Morfeusz's compact dotted form
  (``subst:sg.pl:nom.gen:n``); the rules only need the part of speech.

Segmentation.  Morfeusz returns a graph of segments.  :meth:`Annotator.analyse`
keeps only the *whole-word* analyses (one edge from the first to the last
node).  If there is none, the form is an agglutinate such as ``dlań``
(``dla`` + ``ń``), ``żem`` (``że`` + ``m``), ``abyś`` or ``róbże`` (imperative +
particle ``że``); each complete path through the graph without an unknown
segment becomes one synthetic :class:`Interpretation` whose fields join the
segments with ``"+"`` (lemma ``"dla+on"``, tags ``"prep:gen+ppron3:..."``).
When a whole-word analysis exists the split readings are dropped (``gdzieś``
is the adverb, not ``gdzie`` + ``ś``).  When nothing is known the result is a
single ``ign`` analysis, never an empty list.

Tags that can mark a non-independent (bound) word in the Morfeusz tagset
``pl.sgjp.morfeusz-0.8.0``: ``prefa``/``prefs``/``prefv``/``prefppas``
(prefix segments), ``naj`` and ``nie`` (superlative and negation prefix
segments), ``aglt`` (person agglutinate ``-em``, ``-śmy``) and ``adja`` (the
first half of a hyphenated adjective, ``biało-`` in ``biało-czerwony``).
Measured on the SGJP dictionary shipped in the wheel: none of them is ever a
whole-word analysis of a ``wpolish`` form.  SGJP simply does not list
prefixes as words: ``pra``, ``arcy``, ``ultra``, ``neo``, ``quasi`` are
``ign`` and ``eks``, ``super``, ``mini``, ``anty``, ``wice`` are real words
(a noun, an indeclinable adjective, forms of ``anta`` and ``wic``).  So
:func:`is_prefix_or_suffix` is cheap insurance, not the main filter; prefix
entries in the word list have to be caught by a reviewed list.

``frag`` is different: it marks a word that only occurs inside a fixed
phrase but is written separately (``na wznak``, ``za bezcen``, ``dawien
dawna``).  Such words are still whole words, so they are *not* treated as
bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import morfeusz2

UNKNOWN_TAG = "ign"
ABBREVIATION_TAG = "brev"

BOUND_TAGS: frozenset[str] = frozenset(
    {"prefa", "prefs", "prefv", "prefppas", "naj", "nie", "aglt", "adja"}
)
"""Parts of speech of segments that cannot stand alone as a word (see module docstring)."""

COMMON_NAME_CLASSES: frozenset[str] = frozenset({"nazwa_pospolita", "pospolita", "nazwa pospolita"})
"""Morfeusz "name" classes that mean *common* noun; every other non-empty class is a proper name.

SGJP spells the common-noun class three ways (all present in the resolver).
"""

SEGMENT_SEPARATOR = "+"
"""Joins the per-segment fields of a synthetic agglutinate analysis."""

MAX_PATHS = 64
"""Upper bound on split readings kept for one agglutinate (real forms have < 10)."""


# The fields of a SWIG ``MorphInterpretation``, read by the extension's own getters: the
# wrapper's properties put one or two Python calls before each (``lemma`` goes through
# ``_lemma``), a third of the cost of reading an edge (morfeusz2 is pinned: pyproject.toml).
_swig = morfeusz2._morfeusz2
_start = _swig.MorphInterpretation_startNode_get
_end = _swig.MorphInterpretation_endNode_get
_lemma = _swig.MorphInterpretation__lemma_get
_tag_id = _swig.MorphInterpretation_tagId_get
_name_id = _swig.MorphInterpretation_nameId_get
_labels_id = _swig.MorphInterpretation_labelsId_get

OPTIONS: dict[str, Any] = {
    "expand_tags": False,
    "aggl": "strict",
    "praet": "composite",
    "case_handling": morfeusz2.STRICTLY_CASE_SENSITIVE,
}
"""The options of every Morfeusz instance, analyser and generator alike (see the module
docstring): a generated form must be spelled as the analyser would accept it back, e.g.
``zrobiłobym`` as one composite segment rather than ``zrobiło`` + ``by`` + ``m``."""


_TAG_PARTS: dict[str, tuple[tuple[str, ...], str, bool]] = {}
"""The segments' parts of speech, the part of speech and the bound test of each tag string
seen (a few thousand tags in SGJP, millions of readings made of them)."""


@dataclass(frozen=True, slots=True)
class Interpretation:
    """One Morfeusz reading of a whole word form (Morfeusz calls it an *interpretation*).

    Named apart from :class:`lexicon.store.records.Analysis`, the analysis a release stores and
    serves: the Polish builder turns each accepted interpretation into one of those.

    ``lemma`` is the dictionary lemma without SGJP's homonym qualifier
    (``Krak:Sm1`` -> ``Krak``; the untouched value is in ``raw_lemma``).
    ``tags`` is the positional tag, e.g. ``subst:sg:nom:f``; ``name`` is the
    Morfeusz name class, ``|``-joined if there are several
    (``"imię|nazwisko"``), ``"nazwa_pospolita"`` for common nouns and ``""``
    when the word class has none.  ``labels`` are the usage qualifiers, split
    into single labels (``("pot.", "środ.")``, ``("daw.",)``).  For an
    agglutinate the fields are the segments' values joined by ``"+"``.
    """

    lemma: str
    tags: str
    name: str
    labels: tuple[str, ...]
    raw_lemma: str = ""
    # What the rules ask of a reading for every form: worked out once, when the reading is
    # made (the analyser interns its readings, so most are made once per build shard).
    segment_pos: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Part of speech of each segment (one element unless this is an agglutinate)."""
    pos: str = field(init=False, repr=False, compare=False)
    """Part of speech (first tag field): ``"subst"``; ``"prep+ppron3"`` for an agglutinate."""
    is_bound: bool = field(init=False, repr=False, compare=False)
    """True if every segment is a bound one (:data:`BOUND_TAGS`)."""
    is_proper: bool = field(init=False, repr=False, compare=False)
    """True if this reading is a proper name (:meth:`_proper`)."""

    def __post_init__(self) -> None:
        parts = _TAG_PARTS.get(self.tags)
        if parts is None:
            segments = tuple(tag.split(":", 1)[0] for tag in self.tags.split(SEGMENT_SEPARATOR))
            parts = _TAG_PARTS[self.tags] = (segments, SEGMENT_SEPARATOR.join(segments),
                                             all(p in BOUND_TAGS for p in segments))
        object.__setattr__(self, "segment_pos", parts[0])
        object.__setattr__(self, "pos", parts[1])
        object.__setattr__(self, "is_bound", parts[2])
        object.__setattr__(self, "is_proper", self._proper())

    @property
    def names(self) -> tuple[str, ...]:
        """The individual name classes (``name`` split on ``|``), empty when none."""
        if not self.name:
            return ()
        return tuple(n for part in self.name.split(SEGMENT_SEPARATOR) for n in part.split("|") if n)

    @property
    def is_agglutinate(self) -> bool:
        """True for a synthetic reading made of several segments (``dla+ń``)."""
        return SEGMENT_SEPARATOR in self.tags

    def _proper(self) -> bool:
        """A proper name: the lemma is capitalised (``Kraków``, ``Krak``), or the name class
        is not a common-noun class (``nazwisko``, ``imię``, ``nazwa_geograficzna``,
        ``marka`` ...) and the lemma has some capital (``eBay``-like brands). A lowercase
        lemma never counts: SGJP has a few common words with a stray proper-name class
        (``kea`` the parrot as ``nazwa_firmy``, ``szahidka`` as ``imię``), and those are
        playable words."""
        if self.lemma[:1].isupper():
            return True
        has_proper_class = any(n not in COMMON_NAME_CLASSES for n in self.names)
        return has_proper_class and not self.lemma.islower()


def _strip_homonym(raw_lemma: str) -> str:
    """Drop SGJP's homonym qualifier (``oko:Sn_ncol`` -> ``oko``); keep the lemma ``":"``."""
    head, sep, _ = raw_lemma.partition(":")
    return head if sep and head else raw_lemma


def _split_labels(raw: Iterable[str]) -> tuple[str, ...]:
    """Flatten Morfeusz label groups (``["pot.,środ."]``) into unique single labels, in order."""
    seen: dict[str, None] = {}
    for group in raw:
        for label in group.split(","):
            label = label.strip()
            if label:
                seen.setdefault(label, None)
    return tuple(seen)


class Annotator:
    """Thin, reusable wrapper around one ``morfeusz2.Morfeusz`` analyser instance.

    Creating the analyser loads the dictionary (about a second), so build one
    :class:`Annotator` and reuse it.  Not thread-safe (neither is Morfeusz):
    use one instance per thread or process.
    """

    def __init__(self) -> None:
        self._morfeusz = morfeusz2.Morfeusz(analyse=True, generate=False, **OPTIONS)
        # The wrapper's analyse() turns every edge into strings and lists (its getLabels
        # walks a SWIG container in Python), most of the cost of analysing a form in a
        # build of millions. Its SWIG object gives each edge's tag, name and labels as
        # numbers, so each number is looked up once, by the same calls the wrapper makes.
        self._swig = self._morfeusz._morfeusz_obj
        self._tags: dict[int, str] = {}
        self._names: dict[int, str] = {}
        self._labels: dict[int, tuple[str, ...]] = {}
        # Analyses repeat a lot (same lemma/tag across forms); interning the
        # converted objects keeps memory flat when millions of forms are kept.
        self._interned: dict[tuple[Any, ...], Interpretation] = {}

    @property
    def version(self) -> str:
        """Version of the Morfeusz library (``morfeusz2.__version__``)."""
        return str(morfeusz2.__version__)

    @property
    def dict_id(self) -> str:
        """Loaded dictionary id, e.g. ``pl.sgjp.sgjp-2026.06.01``; record it in build metadata."""
        return str(self._morfeusz.dict_id())

    @property
    def dict_copyright(self) -> str:
        """Copyright/licence text of the loaded dictionary."""
        return str(self._morfeusz.dict_copyright())

    def forget(self) -> None:
        """Drop the interned readings. They pay off while the readings are kept; a judging
        worker sends each shard's records away already encoded (build.shards), so it
        forgets them after a shard and its memory stays flat instead of growing to a table
        of every reading of every form it judged."""
        self._interned.clear()

    def _convert(self, interp: Any) -> Interpretation:
        """The reading of one edge (a SWIG ``MorphInterpretation``), interned by its lemma
        and the numbers of its tag, name and labels; each number is resolved once."""
        raw_lemma = _lemma(interp)
        key = (raw_lemma, _tag_id(interp), _name_id(interp), _labels_id(interp))
        found = self._interned.get(key)
        if found is None:
            tags = self._tags.get(key[1])
            if tags is None:
                tags = self._tags[key[1]] = interp.getTag(self._swig)
            name = self._names.get(key[2])
            if name is None:
                name = self._names[key[2]] = "|".join(interp.getName(self._swig))
            labels = self._labels.get(key[3])
            if labels is None:
                labels = self._labels[key[3]] = _split_labels(interp.getLabels(self._swig))
            found = Interpretation(lemma=_strip_homonym(raw_lemma), tags=tags, name=name,
                                   labels=labels, raw_lemma=raw_lemma)
            self._interned[key] = found
        return found

    def analyse(self, form: str) -> list[Interpretation]:
        """Return the whole-word readings of ``form`` (see the module docstring for agglutinates).

        The list is never empty: an unknown form gives one ``ign`` reading.
        Raises ``ValueError`` for an empty form or one containing whitespace,
        because Morfeusz would silently analyse it as several words.
        """
        if form.split() != [form]:
            raise ValueError(f"expected a single word form, got {form!r}")
        edges = [(_start(i), _end(i), i) for i in self._swig.analyse(form)]
        if not edges:
            return [self._unknown(form)]
        last = max(end for _start, end, _interp in edges)
        whole = [
            self._convert(interp) for start, end, interp in edges if start == 0 and end == last
        ]
        if whole:
            return whole
        return self._agglutinate(form, edges, last)

    def _unknown(self, form: str) -> Interpretation:
        return Interpretation(lemma=form, tags=UNKNOWN_TAG, name="", labels=(), raw_lemma=form)

    def _agglutinate(
        self, form: str, edges: Sequence[tuple[int, int, Any]], last: int
    ) -> list[Interpretation]:
        """Combine complete multi-segment paths without unknown segments into synthetic readings."""
        out_edges: dict[int, list[tuple[int, Interpretation]]] = {}
        for start, end, interp in edges:
            analysis = self._convert(interp)
            if analysis.tags != UNKNOWN_TAG:
                out_edges.setdefault(start, []).append((end, analysis))

        paths: list[list[Interpretation]] = []

        def walk(node: int, prefix: list[Interpretation]) -> None:
            if len(paths) >= MAX_PATHS:
                return
            if node == last:
                paths.append(prefix)
                return
            for end, analysis in out_edges.get(node, ()):
                if end > node:  # the segment graph is a DAG ordered by node number
                    walk(end, [*prefix, analysis])

        walk(0, [])
        if not paths:
            return [self._unknown(form)]
        result: dict[Interpretation, None] = {}
        for path in paths:
            result.setdefault(_join_segments(path), None)
        return list(result)


class Generator:
    """Every form of an SGJP lemma (Morfeusz 2 ``generate``), with the analyser's options.

    Word lists leave out whole paradigm slots by policy (sjp.pl has no neuter first/second
    person past: ``pachnęłoś``, ``zataiłobyś``) and no list carries negated gerunds
    (``niepodkuć``); SGJP has them all. Only spellings are returned: the builder analyses
    each new form again, so a generated form is judged on all its readings, like any other.
    """

    def __init__(self, skip_pos: Iterable[str] = ()) -> None:
        wrapper = morfeusz2.Morfeusz(analyse=False, generate=True, **OPTIONS)
        # The wrapper's generate() converts every interpretation into a tuple of tag, name
        # and label strings, about three times the cost of reading the spelling alone, and
        # the build generates tens of millions of forms. Its SWIG object has the same
        # generate(lemma, tag_id) and an ``orth`` attribute per interpretation.
        self._morfeusz = wrapper._morfeusz_obj
        self._wrapper = wrapper   # owns the SWIG object; keep it alive
        skip = frozenset(skip_pos)
        resolver = self._morfeusz.getIdResolver()
        self._skip_tags = frozenset(
            i for i in range(resolver.getTagsCount()) if resolver.getTag(i).split(":", 1)[0] in skip
        )

    def forms(self, lemma: str) -> list[str]:
        """The spellings of every form of ``lemma`` (a raw SGJP lemma such as ``zbroić:Vi``
        names one homonym; without the qualifier all homonyms are generated), leaving out
        the parts of speech in ``skip_pos``. An unknown lemma gives ``[]``."""
        skip = self._skip_tags
        return [i.orth for i in self._morfeusz.generate(lemma, None)
                if i.tagId not in skip and not i.isIgn()]


def _join_segments(path: Sequence[Interpretation]) -> Interpretation:
    names = [a.name for a in path]
    labels: dict[str, None] = {}
    for a in path:
        for label in a.labels:
            labels.setdefault(label, None)
    return Interpretation(
        lemma=SEGMENT_SEPARATOR.join(a.lemma for a in path),
        tags=SEGMENT_SEPARATOR.join(a.tags for a in path),
        name=SEGMENT_SEPARATOR.join(names) if any(names) else "",
        labels=tuple(labels),
        raw_lemma=SEGMENT_SEPARATOR.join(a.raw_lemma for a in path),
    )


# --- predicates over one form's analyses -------------------------------------
# Each takes the list returned by Annotator.analyse.  "Only" semantics: a form
# is excluded for a reason only if *every* reading has it, because one valid
# reading is enough for a word to be playable ("min" is both the abbreviation
# of "minuta" and the genitive plural of "mina").


def is_unknown(analyses: Sequence[Interpretation]) -> bool:
    """True if Morfeusz does not know the form (no readings or only ``ign``).

    Unknown is *not* invalid: SGJP lacks many regular derivatives that
    ``wpolish`` lists (e.g. adjectives from foreign place names), so rules
    should treat this as "no second opinion", not as a rejection.
    """
    return all(a.tags == UNKNOWN_TAG for a in analyses)


def is_abbreviation(analyses: Sequence[Interpretation]) -> bool:
    """True if every reading is an abbreviation (``brev:pun``/``brev:npun``): ``kg``, ``mln``.

    Many abbreviations are *not* caught: Morfeusz only knows ``np``, ``tzw``,
    ``itd`` with their full stop (without it they are ``ign``), and SGJP
    lists ``mgr``, ``dr``, ``pkt``, ``nr`` as declinable nouns.  Those are
    handled by the reviewed list ``sources/lists/pl_abbreviations.txt``.
    """
    return bool(analyses) and all(a.pos == ABBREVIATION_TAG for a in analyses)


def is_prefix_or_suffix(analyses: Sequence[Interpretation]) -> bool:
    """True if every reading consists only of bound segments (:data:`BOUND_TAGS`).

    With the SGJP dictionary this is not observed for any ``wpolish`` form
    (see the module docstring); it guards against other dictionaries and
    future data rather than doing the main filtering.
    """
    return bool(analyses) and all(a.is_bound for a in analyses)




def is_agglutinate(analyses: Sequence[Interpretation]) -> bool:
    """True if the form only has split readings (``dlań``, ``żem``, ``abyś``, ``róbże``)."""
    return bool(analyses) and all(a.is_agglutinate for a in analyses)
