"""Serbian Latin <-> Cyrillic for Kvizovka keys: one Cyrillic letter per tile.

Why not a transliteration library: Latin spelling hides tile boundaries. "nj" is the tile NJ
in *njiva* but N + J in *konjugacija* (kon+jugacija), "dž" is DŽ in *džep* but D + Ž in
*nadživeti* (nad+živeti); ``cyrtranslit`` and every rule-free converter read all of them as
digraphs. Cyrillic spells the difference (њива / конјугација, џеп / надживети), so:

1. Cyrillic -> Latin is a plain letter table (always right), the Kvizovka profile's tiles
   read through :class:`lexicon.game.tiles.Speller`, as at check time;
2. Latin -> Cyrillic asks, in order:
   a. the Cyrillic hunspell dictionary (``sr_RS``): every form it spells with separate letters
      (нј, лј, дж) is recorded under its Latin transliteration (:meth:`LatinToCyrillic.learn`);
   b. morphology we can justify: a prefix that ends in ``n``/``d`` (*nad-, pod-, od-, pred-,
      kon-, in-, van-, pan-*) followed by a word that exists on its own (``j…``/``ž…``);
   c. otherwise the digraph reading, which is the normal one (*njiva, ljubav, džep*).

Letters that are no tile (``q``, ``w``, ``x``, ``y``, digits, hyphens, accented letters of
foreign names) are kept as themselves: the speller that reads typed input reads these forms,
so such a form gets the same key at build time and at check time and is explained rather
than reported unknown.
"""

from __future__ import annotations

import re

from lexicon.game import profile as profiles
from lexicon.game.tiles import speller

#: The Kvizovka profile's tiles are the table: Cyrillic is their canonical form.
_SPELLER = speller(profiles.load("kvizovka"))
_DIGRAPHS = _SPELLER.ambiguous                       # "lj", "nj", "dž"
_DIGRAPH_KEYS = frozenset(_SPELLER.key_of(d) for d in _DIGRAPHS)   # "љ", "њ", "џ"

#: Cyrillic letter pairs whose Latin spelling looks like a digraph tile ("лј", "нј", "дж").
SPLIT_PAIRS = tuple("".join(_SPELLER.key_of(ch) for ch in d) for d in _DIGRAPHS)

#: Letters that end a digraph (j, ž): after a prefix they may start a new morpheme.
_TAILS = tuple(dict.fromkeys(d[-1] for d in _DIGRAPHS))

#: Prefixes ending in n/d after which j/ž starts a new morpheme (rule b). Only used when the
#: rest of the word is itself a known word form, so *odžak* (оџак) and *konjski* stay digraphs.
SPLIT_PREFIXES = ("nad", "pod", "od", "pred", "kon", "in", "van", "izvan", "pan")


def to_latin(cyrillic: str) -> str:
    """Latin spelling of a Cyrillic word (unambiguous; non-Cyrillic characters kept)."""
    return _SPELLER.to_latin(cyrillic)


def digraph_key(latin: str) -> str:
    """Cyrillic of a lower-case Latin word reading every lj/nj/dž as one tile."""
    return _SPELLER.key_of(latin)


#: One search per form instead of one ``in`` per pair: these run on every form of every
#: source (millions), so they are compiled once.
_SPLIT_SEARCH = re.compile("|".join(map(re.escape, SPLIT_PAIRS))).search
_DIGRAPH_SEARCH = re.compile("|".join(map(re.escape, _DIGRAPHS))).search


def has_split(cyrillic: str) -> bool:
    """Does this Cyrillic form spell a digraph-looking pair with separate letters?"""
    return _SPLIT_SEARCH(cyrillic) is not None


def may_need_split(latin: str) -> bool:
    """Could the Latin form hide a tile boundary inside lj/nj/dž?"""
    return _DIGRAPH_SEARCH(latin) is not None


class LatinToCyrillic:
    """Cyrillic keys for Latin forms, learning the split spellings from Cyrillic sources.

    ``how`` (returned by :meth:`key_and_how`) names the step that decided, so a build can
    count and report how many keys each step produced.
    """

    def __init__(self) -> None:
        self.split: dict[str, str] = {}      # Latin -> Cyrillic for forms spelled нј/лј/дж
        self.conflicts: dict[str, set[str]] = {}
        self.attested_digraph: set[str] = set()  # Latin forms Cyrillic also spells as digraph
        self.rests: set[str] = set()         # known Latin forms starting with j or ž (rule b)

    # -- learning ------------------------------------------------------------------------
    def learn(self, cyrillic: str) -> None:
        """Record a lower-case Cyrillic form from a Cyrillic dictionary."""
        if has_split(cyrillic):
            latin = to_latin(cyrillic)
            old = self.split.get(latin)
            if old is not None and old != cyrillic:
                self.conflicts.setdefault(latin, {old}).add(cyrillic)
            else:
                self.split[latin] = cyrillic
        elif not _DIGRAPH_KEYS.isdisjoint(cyrillic):
            self.attested_digraph.add(to_latin(cyrillic))

    def learn_word(self, latin: str) -> None:
        """Record a known lower-case Latin form (any source), for rule (b)."""
        if latin[:1] in _TAILS:
            self.rests.add(latin)

    # -- converting ----------------------------------------------------------------------
    def key_and_how(self, latin: str) -> tuple[str, str]:
        """(Cyrillic key, deciding step) for a lower-case Latin form."""
        if not may_need_split(latin):
            return digraph_key(latin), "plain"
        if latin in self.split:
            # Where sr_RS spells a Latin form both ways (конјугација and коњугација: 123
            # forms, all kon-jug-/kon-junkt-), the split is right: a separate-letter
            # spelling is deliberate, a digraph one is what naive transliteration produces.
            return self.split[latin], "cyrillic-dictionary"
        if latin in self.attested_digraph:
            return digraph_key(latin), "cyrillic-dictionary"
        cut = self._prefix_cut(latin)
        if cut is not None:
            return digraph_key(latin[:cut]) + digraph_key(latin[cut:]), "prefix"
        return digraph_key(latin), "digraph"

    def key(self, latin: str) -> str:
        return self.key_and_how(latin)[0]

    def _prefix_cut(self, latin: str) -> int | None:
        """Index where a listed prefix ends and a known j/ž-word begins, if any."""
        for prefix in SPLIT_PREFIXES:
            start = latin.find(prefix)
            while start != -1:
                cut = start + len(prefix)
                if start == 0 or latin[:start] in ("ne", "mikro", "hiper", "su", "pre"):
                    rest = latin[cut:]
                    if rest[:1] in _TAILS and rest in self.rests:
                        return cut
                start = latin.find(prefix, start + 1)
        return None
