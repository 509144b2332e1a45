"""The batch hot path: is each typed word valid, answered at millions of words a second.

:func:`lexicon.checker.check_word` explains a verdict (reason, analyses, alternatives) and
costs tens of microseconds. An engine checking a move list needs only the boolean, so this
module answers exactly the checker's ``valid`` for the common case in about a microsecond:
a word that spells one tiling only (no Latin digraph that could be a Kvizovka tile, no
phrase space) is translated to its key in one ``str.translate``, looked up in the release's
memory-mapped ``words`` trie, and held against the play rules (length, joker-only letters).
A Latin word with a digraph is read by the checker's own :class:`~lexicon.tiles.Speller`
(walking the words trie); anything else (phrases, odd input) goes through the checker
itself, so the answer never differs from ``check`` (``tests/test_queries.py`` holds them
side by side).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

import numpy as np

from lexicon import checker, membership
from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from lexicon.inputs import EDGE_SPACE
from lexicon.play import play_rules
from lexicon.profile import Profile
from lexicon.tiles import speller

MAX_WORDS = 100_000   # per call / per HTTP request


class _Plan:
    """What one game needs to answer fast: its speller's table and the play limits."""

    def __init__(self, profile: Profile) -> None:
        spell = speller(profile)
        self.profile = profile
        self.speller = spell
        # a Latin digraph that is also a tile (lj, nj, dž) makes a spelling ambiguous
        self.digraphs = spell.ambiguous
        self.table = spell.table
        # Polish keys are the typed letters themselves: translating would only copy them
        self.identity = all(chr(c) == v for c, v in spell.table.items())
        self.chars = frozenset(chr(c) for c in spell.table)
        # Latin and Cyrillic mixed is an input error for the checker: keep those apart
        self.canonical = frozenset(t.canonical for t in profile.tiles)
        self.spelled = frozenset(t.spelling for t in profile.tiles if len(t.spelling) == 1)
        self.two_scripts = bool(self.canonical - self.spelled)
        self.rules = play_rules(profile)
        self.chars_nl = self.chars | {"\n"}
        # the same test for a whole joined batch as one regex match (a set test iterates
        # one-character strings)
        self.only_chars_nl = re.compile(
            "[" + "".join(re.escape(c) for c in sorted(self.chars_nl)) + "]*")
        self.canonical_nl = self.canonical | {"\n"}


def _whole_batch(plan: _Plan, lookup: Callable[[list[str]], Iterable[bool]],
                 texts: list[str], edge: bool, tiled: Callable[[str], bool]
                 ) -> list[bool] | None:
    """The whole batch in a few C-level string operations, when every word is plain.

    Joined by newlines, the batch is lower-cased, checked and translated to keys in one
    call each, and looked up by ``lookup`` (the trie, or for a big batch the release's hash
    arrays, :mod:`lexicon.membership`): no Python code runs per word except the length
    test. Words whose Latin spelling holds a digraph tile (Kvizovka's lj, nj, dž) are then
    re-answered by ``tiled``. Returns None when some word needs the careful path.
    """
    try:
        joined = "\n".join(texts).lower()       # a non-str item is the careful path's
    except TypeError:
        return None
    if (joined.count("\n") != len(texts) - 1 or not unicodedata.is_normalized("NFC", joined)
            or not plan.only_chars_nl.fullmatch(joined)):
        return None
    lowered = joined.split("\n")
    keys = (lowered if plan.identity else joined.translate(plan.table).split("\n"))
    found = lookup(keys)
    low, high = plan.rules.lengths(edge=edge)
    if isinstance(found, np.ndarray):         # the hashed lookup: lengths vectorised too
        lengths = np.fromiter(map(len, keys), np.int64, len(keys))
        flags = (found & (lengths >= low) & (lengths <= high)).tolist()
    else:
        flags = [hit and low <= len(k) <= high for k, hit in zip(keys, found, strict=True)]
    if plan.two_scripts and not plan.canonical_nl.issuperset(joined):
        canonical, spelled, digraphs = plan.canonical, plan.spelled, plan.digraphs
        for i, word in enumerate(lowered):
            if canonical.isdisjoint(word):
                if any(d in word for d in digraphs):
                    flags[i] = tiled(word)
            elif not canonical.issuperset(word) and not spelled.isdisjoint(word):
                return None           # Latin and Cyrillic in one word: the checker's error
    if plan.rules.joker_only and not plan.rules.joker_only.isdisjoint(joined):
        allows = plan.rules.allows
        for i, key in enumerate(keys):
            if flags[i] and not allows(key, edge=edge):
                flags[i] = False
    return flags


def valid_flags(catalog: Catalog, game: str, texts: Iterable[str], *,
                edge: bool = False) -> list[bool]:
    """``check_word(...)["valid"]`` for each text (an unusable text is simply not valid)."""
    profile = catalog.profile(game)
    rel = catalog.release(game)
    words = rel.indexes.words
    has_prefix = rel.indexes.has_prefix
    plan = profile.derived(_Plan)
    key_of = plan.speller.key_of
    table, chars, digraphs = plan.table, plan.chars, plan.digraphs
    canonical, two_scripts = plan.canonical, plan.two_scripts
    allows = plan.rules.allows
    is_nfc = unicodedata.is_normalized
    texts = list(texts)

    def tiled(word: str) -> bool:
        """A Latin word with digraphs: the first tiling the lexicon admits decides, as in
        the checker (the same speller, walking the words trie), and the play rules judge it."""
        preferred = key_of(word)      # keys()[0]: when the lexicon holds it, it decides
        if preferred in words:
            return allows(preferred, edge=edge)
        for key in plan.speller.keys(word, has_prefix)[1:]:
            if key in words:
                return allows(key, edge=edge)
        return False

    fast = _whole_batch(plan, membership.batch_lookup(rel, len(texts)), texts, edge, tiled)
    if fast is not None:
        return fast
    out: list[bool] = []
    append = out.append
    for text in texts:
        word = text.strip(EDGE_SPACE).lower() if isinstance(text, str) else ""
        if word and is_nfc("NFC", word) and chars.issuperset(word):
            latin_digraphs = (two_scripts and canonical.isdisjoint(word)
                              and any(d in word for d in digraphs))
            if latin_digraphs:
                append(tiled(word))
                continue
            if not two_scripts or canonical.issuperset(word) or canonical.isdisjoint(word):
                key = word.translate(table)
                append(key in words and allows(key, edge=edge))
                continue
        try:
            append(bool(checker.check_word(catalog, game, text, edge=edge)["valid"]))
        except LexiconError:
            append(False)
    return out
