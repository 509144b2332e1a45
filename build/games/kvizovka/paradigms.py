"""What a hunspell form is, grammatically, learned from the forms apertium already tags.

Hunspell dictionaries carry no morphology: ``kuća/1`` only says that the stem *kuća* takes
the suffixes of flag 1 (``a -> e``, ``a -> i``, ...). But a flag is a paradigm: every stem
that carries it inflects alike, so one suffix rule always fills the same *slot* (``a -> i``
of flag 1 is the dative/locative singular of feminine nouns). For the many stems that both
hunspell and apertium know, we see which apertium tags each slot produces; a slot whose
examples agree gets those tags, and every form hunspell alone knows in that slot inherits
them. The inherited analyses are then judged by the same rules as apertium's own
(:mod:`.analysis`).

A slot is identified by the suffix flags applied, the prefix and the ending swap they made
(``("1", "<", "-a", "+i")``); a bare stem by its exact flag class, else by each of its
inflectional flags (a stem with flags {758, 19} is an adjective's masculine indefinite
nominative because other stems with those flags are). Capitalised stems are proper nouns,
all-capital ones abbreviations: that needs no learning.

Where no example teaches a slot, in this order: *ne-*/*naj-* forms take the slot of the
unprefixed form (naj- making it a superlative); endings that are never nominative say so
(:func:`by_ending`: *-oga*, *-ome*, conjugated verb forms, truncated infinitives); and the
ending other forms of the same part of speech share decides
(:meth:`SlotLearner.by_learned_ending`, possessives and nouns). Otherwise the form stays
unclassified, and is rejected.
"""

from __future__ import annotations

import marshal
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lexicon.build.games.hbs_script import to_latin
from lexicon.build.games.kvizovka.analysis import common_prefix_len as _lcp
from lexicon.sources.hunspell import expand, read_aff

#: A slot must have this many learned examples ...
MIN_EXAMPLES = 3
#: ... and this share of them must agree on the verdict (the rank of the best analysis).
MIN_AGREEMENT = 0.8
#: A tag set is part of a slot's analyses when this share of the agreeing examples has it.
MIN_TAG_SHARE = 0.3
MAX_TAG_SETS = 8

Tags = tuple[str, ...]
Slot = tuple[str, ...]


@dataclass(frozen=True)
class HunspellSource:
    """One hunspell dictionary and how it spells (Cyrillic ``sr_RS`` or a Latin one)."""

    source_id: str
    dic: Path
    aff: Path
    cyrillic: bool = False


@dataclass(frozen=True, slots=True)
class HForm:
    """One expanded hunspell form, in lower-case Latin, with its stem and paradigm slot."""

    latin: str            # lower-case Latin form
    cyrillic: str | None  # lower-case Cyrillic form when the dictionary spells Cyrillic
    stem: str             # Latin stem, case kept (capitals mark proper nouns)
    slot: Slot            # ("=", flag...) for the bare stem, else
                          # (suffix flags..., "<prefix", "-strip", "+add")
    stem_flags: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        return "" if self.bare else self.slot[-3][1:]

    def without_prefix(self) -> list[Slot]:
        """The slot keys of the same form without its prefix (*ne-*, *naj-*)."""
        suffix_flags = self.slot[:-3]
        if suffix_flags:
            return [(*suffix_flags, "<", *self.slot[-2:])]
        if not self.stem_flags:
            return [("=",)]
        return [("=", "*", *self.stem_flags), *(("=", flag) for flag in self.stem_flags)]

    @property
    def proper(self) -> bool:
        return self.stem[:1].isupper()

    @property
    def bare(self) -> bool:
        return self.slot[:1] == ("=",)


def _latin_like(cyrillic: str) -> str:
    """Latin spelling of a Cyrillic stem, keeping what its capitals say (Љубав -> Ljubav)."""
    latin = to_latin(cyrillic.lower())
    if len(cyrillic) > 1 and cyrillic.isupper():
        return latin.upper()
    if cyrillic[:1].isupper():
        return latin[:1].upper() + latin[1:]
    return latin


def iter_forms(src: HunspellSource, limit: int | None = None,
               on_entries: Callable[[int], None] | None = None) -> Iterator[HForm]:
    """Every form of the dictionary with its slot (prefix, then suffix ending swap);
    ``on_entries`` counts the .dic entries expanded (:func:`sources.hunspell.expand`)."""
    aff = read_aff(src.aff)
    latin = to_latin if src.cyrillic else str.lower
    prefix_adds = {flag: tuple(sorted({latin(a.add.lower()) for a in rules},
                                      key=lambda a: (-len(a), a)))
                   for flag, rules in aff.prefixes.items()}
    cyrillic = src.cyrillic
    # what depends only on the .dic entry, worked out once per entry (its forms come one
    # after another and share the entry's stem and flag objects)
    last_stem: str | None = None
    last_flags: frozenset[str] | None = None
    stem = low_stem = ""
    flags: tuple[str, ...] = ()
    bare_slot: Slot = ("=",)
    suffix_flags_of: dict[tuple[str, ...], tuple[str, ...]] = {}
    for n, f in enumerate(expand(src.dic, src.aff, on_entries)):
        if limit is not None and n >= limit:
            return
        if f.stem is not last_stem or f.stem_flags is not last_flags:
            last_stem, last_flags = f.stem, f.stem_flags
            stem = _latin_like(f.stem) if cyrillic else f.stem
            low_stem = stem.lower()
            flags = tuple(sorted(f.stem_flags))
            bare_slot = ("=", *flags)
        if cyrillic:
            cyr: str | None = f.form.lower()
            body = to_latin(cyr)
        else:
            cyr = None
            body = f.form.lower()
        if not f.affixes:
            yield HForm(body, cyr, stem, bare_slot, flags)
            continue
        latin = body
        pre = ""
        for flag in f.affixes:
            for add in prefix_adds.get(flag, ()):
                if add and body.startswith(add) and not low_stem.startswith(add):
                    pre = add
                    break
            if pre:
                break
        if pre:
            body = body[len(pre):]
        k = len(low_stem) if body.startswith(low_stem) else _lcp(low_stem, body)
        suffix_flags = suffix_flags_of.get(f.affixes)
        if suffix_flags is None:
            suffix_flags = suffix_flags_of[f.affixes] = tuple(
                a for a in f.affixes if a not in prefix_adds)
        yield HForm(latin, cyr, stem,
                    (*suffix_flags, f"<{pre}", f"-{low_stem[k:]}", f"+{body[k:]}"), flags)


class FormSpool:
    """One dictionary's forms, expanded once and read twice.

    The builder reads a dictionary's forms twice (to learn the slots and tiles, then to
    judge every form with what was learned), and the second reading cannot start before
    the first has ended. :meth:`record` passes :func:`iter_forms` through and writes what
    it yields to an unnamed scratch file; :meth:`replay` yields the same forms again
    from it, without expanding the affix rules a second time. On disk, not in memory:
    sr_RS alone has 3.6 million forms, and they are read back while the build's memory is
    at its highest. Each batch is a marshal of columns (spellings, slot numbers, runs of
    one entry's stem and flags), which reads back much faster than one object a form.
    """

    BATCH = 20_000

    def __init__(self) -> None:
        # open from record to the end of replay: no with-block spans both (unnamed: the
        # system removes it whenever it is closed, by close() or by the collector)
        self._file = tempfile.TemporaryFile(prefix="kvizovka-forms-")  # noqa: SIM115
        self._slot_ids: dict[Slot, int] = {}
        self._slots: list[Slot] = []
        self.recorded = False

    def record(self, src: HunspellSource,
               on_entries: Callable[[int], None] | None = None) -> Iterator[HForm]:
        """:func:`iter_forms` of ``src``, each form also written to the spool; the entries
        ``on_entries`` is told of are told again by the replay."""
        latins: list[str] = []
        cyrillics: list[str | None] = []
        slot_nos: list[int] = []
        runs: list[tuple[str, tuple[str, ...], int]] = []   # (stem, stem flags, forms)
        entries = 0

        def count(n: int) -> None:
            nonlocal entries
            entries += n
            if on_entries is not None:
                on_entries(n)

        def flush() -> None:
            nonlocal latins, cyrillics, slot_nos, runs, entries
            marshal.dump((latins, cyrillics, slot_nos, runs, entries), self._file)
            latins, cyrillics, slot_nos, runs, entries = [], [], [], [], 0

        ids, slots = self._slot_ids, self._slots
        stem = ""
        flags: tuple[str, ...] = ()
        run = 0
        for hf in iter_forms(src, on_entries=count):
            if run and (hf.stem != stem or hf.stem_flags != flags):
                runs.append((stem, flags, run))
                run = 0
            if not run:
                stem, flags = hf.stem, hf.stem_flags
            sid = ids.get(hf.slot)
            if sid is None:
                sid = ids[hf.slot] = len(slots)
                slots.append(hf.slot)
            latins.append(hf.latin)
            cyrillics.append(hf.cyrillic)
            slot_nos.append(sid)
            run += 1
            yield hf
            if len(latins) >= self.BATCH:
                runs.append((stem, flags, run))
                run = 0
                flush()
        if run:
            runs.append((stem, flags, run))
        flush()
        self.recorded = True

    def replay(self, on_entries: Callable[[int], None] | None = None) -> Iterator[HForm]:
        """The recorded forms again, in order, equal to the first time's."""
        if not self.recorded:
            raise RuntimeError("FormSpool.replay before the recording ended")
        fh, slots = self._file, self._slots
        fh.seek(0)
        while True:
            try:
                latins, cyrillics, slot_nos, runs, entries = marshal.load(fh)
            except EOFError:
                break
            i = 0
            for stem, flags, n in runs:
                for j in range(i, i + n):
                    yield HForm(latins[j], cyrillics[j], stem, slots[slot_nos[j]], flags)
                i += n
            if on_entries is not None and entries:
                on_entries(entries)
        self.close()

    def close(self) -> None:
        self._file.close()


@dataclass
class SlotVerdict:
    """What a learned slot means: the rank of its best analysis and those analyses' tags.

    ``examples`` is 0 for a verdict read from the ending (:func:`by_ending`), not learned.
    """

    rank: int
    tag_sets: tuple[Tags, ...]
    examples: int
    agreement: float


#: Endings that are never a nominative (nor an infinitive), for slots apertium has no example
#: of: the long adjective endings (*-oga, -ome, -ega, -emu*), which apertium does not
#: generate at all, the dative/locative/instrumental plural *-ima/-ama*, and the
#: instrumental *-šću* of nouns in *-ost*. Ordered longest first.
OBLIQUE_ENDINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "šću": (("sg", "ins"),),
    "oga": (("sg", "gen"), ("sg", "acc")),
    "ega": (("sg", "gen"), ("sg", "acc")),
    "ome": (("sg", "dat"), ("sg", "loc")),
    "emu": (("sg", "dat"), ("sg", "loc")),
    "ima": (("pl", "dat"), ("pl", "loc"), ("pl", "ins")),
    "ama": (("pl", "dat"), ("pl", "loc"), ("pl", "ins")),
}
#: Ending lengths tried by :meth:`SlotLearner.by_learned_ending`, longest first, and how
#: many forms must share one, agreeing how well.
ENDING_LENGTHS = (4, 3)
MIN_ENDING_EXAMPLES = 50
MIN_ENDING_AGREEMENT = 0.95
NOMINAL_POS = ("n", "adj", "prn", "num")
VERB_POS = ("vblex", "vbmod", "vbser")
DEGREE_TAGS = ("pst", "comp", "sup", "ssup", "pos")


def _head(tags: Tags) -> Tags:
    """Part of speech and degree of a tag set: ``("adj", "pos")``, ``("n",)``."""
    degree = [t for t in tags if t in DEGREE_TAGS][:1]
    return (tags[0], *degree) if tags else ()


def by_ending(form: HForm, profile: Tags | None) -> SlotVerdict | None:
    """Tags for a slot no example taught, from what its flag is and how the form ends.

    ``profile`` is the flag's part of speech and degree learned from its other slots
    (``("adj", "comp")``). Nominals: only the :data:`OBLIQUE_ENDINGS`. Verbs (a stem in
    *-ti*/*-ći*, the infinitive): every form not ending in *-ti*/*-ći* is conjugated, e.g. the
    aorist *-hu* and imperfect *-ahu* apertium does not generate, and hunspell-hr's
    truncated infinitive (*čitat*, written only before the future auxiliary: *čitat ću*).
    """
    if profile is None or form.bare:
        return None
    pos = profile[0]
    if pos in NOMINAL_POS:
        for ending, slots in OBLIQUE_ENDINGS.items():
            if form.latin.endswith(ending) and len(form.latin) > len(ending) + 1:
                tags = tuple((*profile, number, case) for number, case in slots)
                return SlotVerdict(-1, tags, 0, 1.0)
        return None
    stem = form.stem.lower()
    if pos in VERB_POS and stem.endswith(("ti", "ći")) and not form.latin.endswith(("ti", "ći")):
        if stem.endswith("ti") and form.latin == stem[:-1]:
            return SlotVerdict(-1, ((pos, "trunc"),), 0, 1.0)
        return SlotVerdict(-1, ((pos, "fin"),), 0, 1.0)
    return None


@dataclass
class SlotLearner:
    """Tallies, per slot, the verdicts apertium gives to the forms hunspell puts there."""

    votes: dict[Slot, Counter[int]] = field(default_factory=dict)
    tags: dict[tuple[Slot, int], Counter[Tags]] = field(default_factory=dict)
    fallback_votes: dict[Slot, Counter[int]] = field(default_factory=dict)
    fallback_tags: dict[tuple[Slot, int], Counter[Tags]] = field(default_factory=dict)
    absent: Counter[Slot] = field(default_factory=Counter)
    endings: dict[tuple[Tags, str], Counter[int]] = field(default_factory=dict)
    ending_tags: dict[tuple[Tags, str, int], Counter[Tags]] = field(default_factory=dict)
    flag_same: Counter[str] = field(default_factory=Counter)
    flag_other: Counter[str] = field(default_factory=Counter)
    _profiles: dict[str, Tags] | None = field(default=None, repr=False)
    # worked out once (see observe): tag sets -> (sorted, per head); slot key -> its flags
    _shapes: dict[frozenset[Tags], tuple[tuple[Tags, ...], tuple[tuple[Tags, tuple[Tags, ...]],
                                                                 ...]]] = field(
        default_factory=dict, repr=False)
    _key_flags: dict[Slot, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def observe_absent(self, slot_keys: list[Slot]) -> None:
        """Record that apertium knows the stem as a lemma but not this form of it.

        A slot where that is the rule lies outside apertium's paradigms (hunspell-hr's
        truncated infinitive *čitat*, the long adjective endings *-oga*); other lemmas'
        readings of its forms are coincidences (*čitat* is no adjective), so such a slot
        learns nothing from them and is read from its ending, if at all.
        """
        for key in slot_keys:
            self.absent[key] += 1

    def observe(self, slot_keys: list[Slot], rank: int, tag_sets: frozenset[Tags], *,
                same_lemma: bool, stem_known: bool = False, form: str = "") -> None:
        """Record one example: apertium's best rank for this form (of the stem's lemma when
        ``same_lemma``; of any lemma otherwise, a weaker vote used only when a slot has too
        few same-lemma examples) and the tags it gave at that rank. ``stem_known``: apertium
        has the stem as a lemma (then a form of another lemma is a derivation).

        Called once per hunspell form apertium knows (millions): what depends only on the
        tag sets (their order, their heads) or on a slot key (its flags) is worked out once
        and kept; every tally is counted in the same order as one ``+= 1`` per item would
        (ties of ``most_common`` follow that order)."""
        votes = self.votes if same_lemma else self.fallback_votes
        tags = self.tags if same_lemma else self.fallback_tags
        shape = self._shapes.get(tag_sets)
        if shape is None:
            # counted in one order in every process: ties reproducible
            ordered = tuple(sorted(tag_sets))
            heads = dict.fromkeys(_head(t) for t in ordered)
            shape = self._shapes[tag_sets] = (ordered, tuple(
                (head, tuple(t for t in ordered if _head(t) == head)) for head in heads))
        ordered, by_head = shape
        suffixed = bool(slot_keys) and slot_keys[0][:1] != ("=",)
        if (same_lemma or stem_known) and suffixed:
            counter = self.flag_same if same_lemma else self.flag_other
            for key in slot_keys:
                flags = self._key_flags.get(key)
                if flags is None:
                    flags = self._key_flags[key] = tuple(
                        f for f in key if f[:1] not in ("<", "-", "+"))
                counter.update(flags)
        for key in slot_keys:
            got = votes.get(key)
            if got is None:
                got = votes[key] = Counter()
            got[rank] += 1
            got = tags.get((key, rank))
            if got is None:
                got = tags[(key, rank)] = Counter()
            got.update(ordered)
        if form and suffixed:
            endings, ending_tags = self.endings, self.ending_tags
            size = len(form)
            for head, head_tags in by_head:
                for k in ENDING_LENGTHS:
                    if size > k + 2:
                        end = form[-k:]
                        got = endings.get((head, end))
                        if got is None:
                            got = endings[(head, end)] = Counter()
                        got[rank] += 1
                        got = ending_tags.get((head, end, rank))
                        if got is None:
                            got = ending_tags[(head, end, rank)] = Counter()
                        got.update(head_tags)

    def by_learned_ending(self, form: HForm, profile: Tags | None) -> SlotVerdict | None:
        """What forms with the same ending and part of speech were, across all flags.

        For a slot nothing taught (a possessive flag apertium has few forms of), the
        longest ending that :data:`MIN_ENDING_EXAMPLES` forms of the same part of speech
        and degree share, agreeing at :data:`MIN_ENDING_AGREEMENT`, decides: *-ino* of a
        possessive adjective is its neuter nominative whatever the flag. Used for nouns,
        possessive adjectives, comparatives, not for plain adjectives (see below).
        """
        if profile is None or form.bare or profile == ("adj", "pst"):
            # not for plain adjectives: hunspell-sr gives every relational "-ni" adjective
            # an indefinite "-an" (gradilišni -> gradilišan) that is no word, and "-an" is
            # the ending of thousands of real indefinites
            return None
        for k in ENDING_LENGTHS:
            votes = self.endings.get((profile, form.latin[-k:]))
            if not votes:
                continue
            total = sum(votes.values())
            rank, count = votes.most_common(1)[0]
            if total < MIN_ENDING_EXAMPLES or count / total < MIN_ENDING_AGREEMENT:
                continue
            tag_count = self.ending_tags.get((profile, form.latin[-k:], rank), Counter())
            sets = tuple(t for t, c in tag_count.most_common(MAX_TAG_SETS)
                         if c >= MIN_TAG_SHARE * count)
            if sets:
                return SlotVerdict(-1, sets, 0, round(count / total, 3))
        return None

    def profile(self, flag: str) -> Tags | None:
        """Part of speech and degree (``("adj", "pst")``) most of a flag's examples have
        (same-lemma examples; other lemmas' only for a flag that has none)."""
        if self._profiles is None:
            self._profiles = {}
            for table in (self.tags, self.fallback_tags):
                tally: dict[str, Counter[Tags]] = {}
                for (slot, _rank), counter in table.items():
                    flags = [x for x in slot if x[:1] not in ("<", "-", "+", "=", "*")]
                    for tags, n in counter.items():
                        head = _head(tags)
                        for f in flags:
                            tally.setdefault(f, Counter())[head] += n
                for f, c in tally.items():
                    self._profiles.setdefault(f, c.most_common(1)[0][0])
        return self._profiles.get(flag)

    def inflectional(self, flag: str) -> bool:
        """Does the flag inflect its stem (rather than derive another word from it)?

        A bare stem's part of speech is voted by its flags, but only an inflectional flag
        says anything about it: ``beograd/1067`` carries only 1067, which derives
        *beogradski*, so other stems of 1067 that happen to be nouns (*brod*) must not make
        *beograd* a noun. Among the flag's suffixed forms whose stem apertium has as a
        lemma, a derivational flag's forms belong to other lemmas (*brodski*), an
        inflectional flag's to the stem itself; a flag with no such evidence counts as
        inflectional.
        """
        return self.flag_same[flag] >= self.flag_other[flag]

    def verdict(self, slot_keys: list[Slot], form: HForm | None = None) -> SlotVerdict | None:
        """The learned meaning of a form's slot (its keys' votes pooled), else what the
        ending says (:func:`by_ending`), else None."""
        if slot_keys and slot_keys[0][:1] == ("=",):
            return self._bare(slot_keys)
        learned = self._learned(slot_keys)
        if learned is not None or form is None or form.bare:
            return learned
        if form.prefix:
            # ne- and naj- keep the grammar of what they are put on (apertium has few such
            # forms to learn from): nekontrastno is kontrastno's slot, and naj- + a
            # comparative is a superlative
            base = self.verdict(form.without_prefix())
            if base is not None and form.prefix == "naj":
                # naj- makes a superlative of whatever it is put on (hunspell-sr also puts
                # it on positive stems: najglatki is no word either way)
                sets = tuple(tuple("sup" if t in ("comp", "pst") else t for t in ts)
                             for ts in base.tag_sets)
                base = SlotVerdict(base.rank, sets, base.examples, base.agreement)
            if base is not None:
                return base
        suffix_flags = [x for x in form.slot if x[:1] not in ("<", "-", "+", "=")]
        if not suffix_flags:
            return None
        profile = self.profile(suffix_flags[-1])
        return by_ending(form, profile) or self.by_learned_ending(form, profile)

    def _bare(self, slot_keys: list[Slot]) -> SlotVerdict | None:
        """A bare stem: its exact flag class if that was learned, else its flags pooled;
        derivational flags (see :meth:`inflectional`) never count."""
        exact = [k for k in slot_keys if k[1:2] == ("*",)]
        single = [k for k in slot_keys if len(k) == 2]
        kept = [k for k in single if self.inflectional(k[1])]
        if not kept:
            return None
        if exact and len(kept) == len(single):
            learned = self._learned(exact)
            if learned is not None:
                return learned
        return self._learned(kept)

    def _learned(self, slot_keys: list[Slot]) -> SlotVerdict | None:
        for votes, tags in ((self.votes, self.tags), (self.fallback_votes, self.fallback_tags)):
            pooled: Counter[int] = Counter()
            for key in slot_keys:
                pooled.update(votes.get(key, {}))
            total = sum(pooled.values())
            if votes is self.votes and sum(self.absent[k] for k in slot_keys) > total:
                return None   # outside apertium's paradigms: see observe_absent
            if total < MIN_EXAMPLES:
                continue
            rank, count = pooled.most_common(1)[0]
            agreement = count / total
            if agreement < MIN_AGREEMENT:
                return None
            tag_count: Counter[Tags] = Counter()
            for key in slot_keys:
                tag_count.update(tags.get((key, rank), {}))
            sets = tuple(t for t, c in tag_count.most_common(MAX_TAG_SETS)
                         if c >= MIN_TAG_SHARE * count)
            return SlotVerdict(rank, sets, total, round(agreement, 3))
        return None


def slot_keys(form: HForm) -> list[Slot]:
    """The keys a form votes under and is looked up by.

    A bare stem votes under its whole flag set (``("=", "*", flags...)``: the exact class,
    which tells hunspell-hr's comparative entries ``ljepši/UB,UM`` from positive ones
    ``zlatni/UM``) and under each flag alone (pooled when the exact class has too few
    examples).
    """
    if form.bare:
        keys = _BARE_KEYS.get(form.slot)
        if keys is None:
            flags = form.slot[1:]
            keys = _BARE_KEYS[form.slot] = [("=", "*", *flags), *(
                ("=", flag) for flag in flags)] if flags else [("=",)]
        return keys
    return [form.slot]


#: bare slot -> its keys (a few thousand flag classes shared by millions of forms; callers
#: only read the lists)
_BARE_KEYS: dict[Slot, list[Slot]] = {}
