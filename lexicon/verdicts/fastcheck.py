"""The batch hot path: is each typed word valid, answered at millions of words a second.

:func:`lexicon.verdicts.checker.check_word` explains a verdict (reason, analyses, alternatives) and
costs tens of microseconds. An engine checking a move list needs only the boolean, so this
module answers exactly the checker's ``valid`` for the common case in about a microsecond:
a word that spells one tiling only (no Latin digraph that could be a Kvizovka tile, no
phrase space) is translated to its key in one ``str.translate``, looked up in the release's
memory-mapped ``words`` trie, and held against the steps of the validity decision such a key
can still break (length, joker-only letters: :meth:`lexicon.verdicts.validity.Validity.compiled`).
A Latin word with a digraph is read by the checker's own :class:`~lexicon.game.tiles.Speller`
(walking the words trie); anything else (phrases, odd input) goes through the checker
itself, so the answer never differs from ``check`` (``tests/queries/test_queries.py`` holds them
side by side).

Kvizovka's Latin words: a Latin word is valid exactly when the key that reading decides
(:func:`decided_key`, the first tiling the lexicon holds) passes the validity decision, so a
release can carry the Latin spellings of its valid words as two more tries (the board's
inside and its edge: :mod:`build.latin_spellings`, written by :mod:`build.index_writer`). With them
an all-Latin batch is one membership test, like Polish, instead of a speller walk for every
word with lj, nj or dž. A release without them is answered as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container, Iterable

from lexicon.errors import LexiconError
from lexicon.game.inputs import EDGE_SPACE
from lexicon.game.profile import Profile
from lexicon.game.tiles import Speller, speller
from lexicon.store import membership
from lexicon.store.membership import HashedKeys
from lexicon.store.release import Release
from lexicon.verdicts import checker
from lexicon.verdicts.validity import validity

MAX_WORDS = 100_000   # per call / per HTTP request

#: what a batch is looked up in: a release's hash arrays, or a trie (anything with ``in``)
Index = HashedKeys | Container[str]


class _Plan:
    """What one game needs to answer fast: its speller's table and the validity decision
    compiled for a key of tiles only (:meth:`~lexicon.verdicts.validity.Validity.compiled`)."""

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
        self.validity = validity(profile)
        compiled = self.validity.compiled()
        self.chars_nl = self.chars | {"\n"}
        # the same test for a whole joined batch as one regex match (a set test iterates
        # one-character strings)
        self.only_chars_nl = re.compile(
            "[" + "".join(re.escape(c) for c in sorted(self.chars_nl)) + "]*")
        self.canonical_nl = self.canonical | {"\n"}
        # "is the batch all Latin letters of tiles" (Kvizovka's Latin index): one match
        latin = (self.chars - self.canonical) | {"\n"}
        self.only_latin_nl = re.compile(
            "[" + "".join(re.escape(c) for c in sorted(latin)) + "]*")
        # an engine's batch is usually lower case and NFC already: when it is all letters
        # that stay themselves under lower() and NFC in any sequence, one match of the raw
        # batch stands for lower(), is_normalized() and the letters test
        plain = _plain_letters(self.chars)
        # the keys that need more jokers than the game has (letters only a joker plays):
        # one regex scan of the joined keys finds them, instead of a test of every word
        joker = "".join(re.escape(c) for c in sorted(compiled.joker_letters))
        self.too_many_jokers = re.compile(
            f"^(?:[^\n{joker}]*[{joker}]){{{compiled.jokers + 1}}}", re.MULTILINE
        ) if joker else None
        self.only_plain_nl = re.compile(
            "[" + "".join(re.escape(c) for c in sorted(plain | {"\n"})) + "]*")


def _plain_letters(chars: frozenset[str]) -> frozenset[str]:
    """The letters among ``chars`` that any string of them keeps under ``str.lower`` and
    NFC: each its own lower case, NFC and a starter, and no two of them composing (NFC
    composes a starter only with the starter right before it, so pairs decide). Empty when
    some pair composes: then every batch is lower-cased and normalised as it comes."""
    plain = frozenset(c for c in chars if c.lower() == c and unicodedata.combining(c) == 0
                      and unicodedata.is_normalized("NFC", c))
    if all(unicodedata.is_normalized("NFC", a + b) for a in plain for b in plain):
        return plain
    return frozenset()


def _whole_batch(plan: _Plan, words: Index, texts: list[str], edge: bool,
                 tiled: Callable[[str], bool], latin: Index | None = None
                 ) -> list[bool] | None:
    """The whole batch in a few C-level string operations, when every word is plain.

    Joined by newlines, the batch is lower-cased, checked and translated to keys in one
    call each (a batch already in lower-case letters: one regex match), and looked up in
    ``words`` (the trie, or for a big batch the release's hash arrays, which hash the
    joined keys at once: :mod:`lexicon.store.membership`): no Python code runs per word
    except, with the trie, the length test. Words whose Latin spelling holds a digraph tile
    (Kvizovka's lj, nj, dž) are then re-answered by ``tiled``. A batch all in Latin, of a
    release that carries its Latin spellings (``latin``: their index), is that one lookup:
    the validity decision is in the index. Returns None when some word needs the careful path.
    """
    try:
        raw = "\n".join(texts)                  # a non-str item is the careful path's
    except TypeError:
        return None
    count = len(texts)
    if plan.only_plain_nl.fullmatch(raw):
        joined = raw                            # lower case, NFC and all letters already
    else:
        joined = raw.lower()
        if (not unicodedata.is_normalized("NFC", joined)
                or not plan.only_chars_nl.fullmatch(joined)):
            return None

    def lowered() -> list[str]:
        """The lower-cased words (split only where a per-word loop needs them)."""
        return texts if joined == raw else joined.split("\n")

    index = latin if latin is not None and plan.only_latin_nl.fullmatch(joined) else words
    if not isinstance(index, HashedKeys) and joined.count("\n") != count - 1:
        return None       # a text with a newline (the hash arrays count the words anyway)
    if index is latin:
        if isinstance(latin, HashedKeys):
            found = latin.contains_joined(joined, count)
            return None if found is None else found[0].tolist()
        return list(map(latin.__contains__, lowered()))
    keyed = joined if plan.identity else joined.translate(plan.table)
    compiled = plan.validity.compiled(edge=edge)
    low, high = compiled.least, compiled.most
    if isinstance(words, HashedKeys):           # lengths vectorised too
        found = words.contains_joined(keyed, count)
        if found is None:
            return None
        hits, lengths = found
        flags = (hits & (lengths >= low) & (lengths <= high)).tolist()
    else:
        keys = lowered() if plan.identity else keyed.split("\n")
        flags = [k in words and low <= len(k) <= high for k in keys]
    if plan.two_scripts and not plan.canonical_nl.issuperset(joined):
        canonical, spelled, digraphs = plan.canonical, plan.spelled, plan.digraphs
        for i, word in enumerate(lowered()):
            if canonical.isdisjoint(word):
                if any(d in word for d in digraphs):
                    flags[i] = tiled(word)
            elif not canonical.issuperset(word) and not spelled.isdisjoint(word):
                return None           # Latin and Cyrillic in one word: the checker's error
    if plan.too_many_jokers is not None:
        # a flagged key is within the lengths already: of the compiled steps only the
        # jokers' can still fail it
        line = last = 0
        for match in plan.too_many_jokers.finditer(keyed):
            line += keyed.count("\n", last, match.start())
            last = match.start()
            flags[line] = False
    return flags


def decided_key(spell: Speller, words: Container[str], has_prefix: Callable[[str], bool],
                word: str) -> str | None:
    """The key a Latin ``word`` with digraphs stands for: the first tiling the lexicon
    admits (``words``: the valid keys), by the checker's resolver; None when it admits
    none."""
    decided = spell.resolve(word, words.__contains__, known=has_prefix)
    return decided.key if decided.held else None


def valid_flags(profile: Profile, rel: Release, texts: Iterable[str], *,
                edge: bool = False) -> list[bool]:
    """``check_word(...)["valid"]`` for each text (an unusable text is simply not valid)."""
    words = rel.indexes.words
    has_prefix = rel.indexes.has_prefix
    plan = profile.derived(_Plan)
    table, chars, digraphs = plan.table, plan.chars, plan.digraphs
    canonical, two_scripts = plan.canonical, plan.two_scripts
    allows = plan.validity.compiled(edge=edge).allows
    is_nfc = unicodedata.is_normalized
    texts = list(texts)

    latin_name = "latin_edge" if edge else "latin"
    latin = getattr(rel.indexes, latin_name, None)

    def tiled(word: str) -> bool:
        """A Latin word with digraphs: the first tiling the lexicon admits decides, as in
        the checker (the same speller, walking the words trie), and the compiled decision judges it;
        or, when the release carries its Latin spellings, one lookup."""
        if latin is not None:
            return word in latin
        key = decided_key(plan.speller, words, has_prefix, word)
        return key is not None and allows(key)

    latin_index = (membership.batch_index(rel, len(texts), latin_name)
                   if latin is not None else None)
    fast = _whole_batch(plan, membership.batch_index(rel, len(texts)), texts, edge, tiled,
                        latin_index)
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
                append(key in words and allows(key))
                continue
        try:
            append(bool(checker.check_word(profile, rel, text, edge=edge)["valid"]))
        except LexiconError:
            append(False)
    return out
