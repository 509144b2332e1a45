"""Every form the apertium Serbo-Croatian generators know, with its best analyses per lemma.

The untrimmed generators of ``apertium-hbs-slv`` (``slv-hbs_SR.autogen.bin``, ekavian, and
``slv-hbs_HR.autogen.bin``, ijekavian) hold ~9M (form, analysis) pairs between them; their
tags decide the rule book (case, degree, verb form, part of speech). The pairs are walked
once with :func:`sources.lttoolbox.iter_pairs`.

Why only the *best* analyses per (form, lemma) are kept: a form is admitted if any analysis
passes and is otherwise explained by its most informative one, so an analysis that is worse
than another of the same lemma can never matter. Keeping one rank and a few tag sets per
lemma instead of every pair cuts memory several times over (*lepi* alone has 40 analyses).
Reflexivity is the exception: it depends on all infinitives of a lemma, which are only known
after the walk, so infinitives are ranked as if not reflexive here
(:func:`.analysis.walk_rank`) and judged by the rules made after the walk.

Joined analyses (``+``) are walked too, because two of them are word forms the rule book
speaks about: possessive adjectives derived from nouns (``bratov<n><ma>+pos<adj>...``:
*bratov*, *majčin* are adjectives, admissible in the nominative) and the synthetic future
(``čitati<vblex>...<inf>+hteti<vbmod><clt><futI>...``: *čitaću*, a verb form). They are
folded into one analysis each (:func:`fold_join`); without them hunspell's possessive and
future slots could not be learned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lexicon.build.games.kvizovka.analysis import POSSESSOR
from lexicon.build.progress import Progress
from lexicon.sources.lttoolbox import WalkStats, iter_pairs, parse_analysis

Tags = tuple[str, ...]
VALENCY = ("tv", "iv", "ref")
LEXICAL = frozenset({"perf", "impf", "tv", "iv", "ref"})
JOIN = "+"

#: file name fragment -> which variety a generator writes
VARIETIES = {"_SR.": "ekavian", "_HR.": "ijekavian", "_BS.": "ijekavian (Bosnian)"}


def variety_of(path: Path) -> str:
    return next((v for k, v in VARIETIES.items() if k in path.name), path.stem)


@dataclass(slots=True)
class LemmaForms:
    """The best analyses of one form for one lemma: their rank and tags -> generator bits."""

    rank: int
    tags: dict[Tags, int]


@dataclass
class ApertiumForms:
    """Per lower-case Latin form: lemma -> its best analyses; plus facts about lemmas."""

    forms: dict[str, dict[str, LemmaForms]] = field(default_factory=dict)
    inf_valency: dict[str, set[str]] = field(default_factory=dict)  # lemma -> {tv, iv, ref}
    lemmas: set[str] = field(default_factory=set)   # every lemma, for "known lemma" tests
    #: adjective lemmas apertium makes a comparative of: the gradable (qualitative) ones,
    #: whose pre- form is an elative (*rigidan*: *rigidniji*, *prerigidan*); a relational
    #: adjective has none (*optički*, so *preoptički* is "before", not "very")
    comparable: set[str] = field(default_factory=set)
    varieties: list[str] = field(default_factory=list)  # bit i -> variety of generator i
    pairs: int = 0
    stats: list[WalkStats] = field(default_factory=list)

    def reflexive_only(self) -> set[str]:
        """Lemmas whose every infinitive is tagged reflexive (``<ref>``), never tv/iv."""
        return {lemma for lemma, v in self.inf_valency.items() if v == {"ref"}}

    def varieties_of(self, bits: int) -> list[str]:
        return [v for i, v in enumerate(self.varieties) if bits >> i & 1]


def possessor(base: Tags) -> Tags:
    """The mark of a possessive's base noun class (:data:`.analysis.POSSESSOR`): ``of_ma``
    for an animate masculine (*bratov*), ``of_mi``, ``of_nt`` for an inanimate one
    (*milimetrov*), ``of_f`` for a feminine (*kozin*, *kišin*), ``of_np`` for any proper
    noun (*Omerbašićev*); none for a base apertium tags otherwise."""
    if base[:1] == ("np",):
        return (POSSESSOR["np"],)
    if base[:1] == ("n",):
        return tuple(POSSESSOR[t] for t in base[1:2] if t in POSSESSOR)
    return ()


def fold_join(analysis: str) -> tuple[str, Tags]:
    """One (lemma, tags) for a ``+``-joined analysis, as the rule book sees the form.

    * ``X<n><g>+pos<adj><tags>`` -> (X, ``adj pos <tags> of_<g>``): a possessive
      adjective, marked with what it belongs to (:func:`possessor`);
    * ``ne<part>+Y<tags>`` -> (Y, tags): the negated verb (*nije*, *nemoj*) is a form of Y;
    * ``X<vblex>...<inf>+hteti<vbmod><clt><futI>...`` -> (X, ``vblex ... futI ...``): the
      future tense of X, no longer an infinitive.
    """
    parts = analysis.split(JOIN)
    lemma, first = parse_analysis(parts[0])
    last_lemma, last = parse_analysis(parts[-1])
    if last[:1] == ("adj",) and last_lemma == "pos":
        return lemma, ("adj", "pos", *last[1:], *possessor(first))
    if first[:1] == ("part",):
        return last_lemma, last
    lexical = tuple(t for t in first[1:] if t in LEXICAL)
    return lemma, (*first[:1], *lexical, *(t for t in last[1:] if t != "clt"))


def load(generators: Iterable[Path], rank: Callable[[str, str, Tags], int],
         limit: int | None = None) -> ApertiumForms:
    """Walk the generators; ``rank(form, lemma, tags)`` is 0 for admissible, else a rule rank.

    ``limit`` keeps only the first N pairs of each generator (smoke builds). The walk shows
    its progress in pairs: each generator's count is known once it is read
    (:func:`sources.lttoolbox.pair_count`), the generators not yet read are estimated from
    the pairs per byte of those read.
    """
    out = ApertiumForms()
    interned: dict[Tags, Tags] = {}
    forms = out.forms
    paths = [Path(p) for p in generators]
    sizes = [p.stat().st_size if p.exists() else 0 for p in paths]
    with Progress(f"kvizovka: walking {len(paths)} apertium generator(s)",
                  unit="pairs") as bar:
        counted = {"pairs": 0, "bytes": 0}

        def learn(i: int, pairs: int) -> None:
            counted["pairs"] += pairs if limit is None else min(pairs, limit)
            counted["bytes"] += sizes[i]
            rest = sum(sizes[i + 1:])
            per_byte = counted["pairs"] / counted["bytes"] if counted["bytes"] else 0.0
            bar.set_total(counted["pairs"] + round(per_byte * rest))

        for i, path in enumerate(paths):
            _walk(out, path, 1 << i, rank, interned, forms, limit,
                  lambda n, i=i: learn(i, n), bar)
    return out


def _walk(out: ApertiumForms, path: Path, bit: int, rank: Callable[[str, str, Tags], int],
          interned: dict[Tags, Tags], forms: dict[str, dict[str, LemmaForms]],
          limit: int | None, on_total: Callable[[int], None], bar: Progress) -> None:
    """One generator's pairs into ``out`` (see :func:`load`)."""
    out.varieties.append(variety_of(path))
    stats = WalkStats()
    out.stats.append(stats)
    pairs = iter_pairs(path, "output", skip_joins=False, stats=stats, on_total=on_total)
    # ~6M pairs per generator: the loop's lookups are bound once
    inf_valency = out.inf_valency
    add_lemma = out.lemmas.add
    add_comparable = out.comparable.add
    intern = interned.setdefault
    get_forms = forms.get
    walked = 0
    for n, (surface, analysis) in enumerate(bar.track(pairs, every=10_000)):
        if limit is not None and n >= limit:
            break
        walked += 1
        if JOIN in analysis:
            lemma, raw_tags = fold_join(analysis)
        else:
            lemma, raw_tags = parse_analysis(analysis)
        tags = intern(raw_tags, raw_tags)
        form = surface.lower()
        if "inf" in tags:
            valency = inf_valency.get(lemma)
            if valency is None:
                valency = inf_valency[lemma] = set()
            valency.update(t for t in tags if t in VALENCY)
        elif "comp" in tags:
            add_comparable(lemma)
        r = rank(form, lemma, tags)
        add_lemma(lemma)
        by_lemma = get_forms(form)
        if by_lemma is None:
            by_lemma = forms[form] = {}
        entry = by_lemma.get(lemma)
        if entry is None or r < entry.rank:
            by_lemma[lemma] = LemmaForms(r, {tags: bit})
        elif r == entry.rank:
            entry_tags = entry.tags
            entry_tags[tags] = entry_tags.get(tags, 0) | bit
    out.pairs += walked
