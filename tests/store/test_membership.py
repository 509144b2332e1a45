"""Big-batch membership (hash arrays) answers exactly what the words trie answers."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lexicon.catalog import Catalog
from lexicon.store import membership
from lexicon.verdicts import fastcheck
from tests.conftest import SmallHomes, publish, rec


def test_hashed_keys_agree_with_a_set() -> None:
    rng = random.Random(3)
    valid = {"".join(rng.choices("abcąćęłńóśźż", k=rng.randint(1, 12))) for _ in range(5000)}
    probes = list(valid)[:2000] + ["".join(rng.choices("abcąćęłńóśźż", k=7))
                                   for _ in range(3000)]
    hashed = membership.HashedKeys(sorted(valid))
    assert hashed.unique
    got = hashed.contains_many(probes)
    assert isinstance(got, np.ndarray)
    assert got.tolist() == [p in valid for p in probes]
    assert membership.HashedKeys([]).contains_many(["a"]).tolist() == [False]


def test_valid_flags_through_the_hashed_path(home: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    publish(home, "osps", [rec("kot"), rec("kota"), rec("zażółć"), rec("ul"),
                           rec("np", valid=False, code="abbreviation")])
    cat = Catalog(home)
    words = ["kot", "KOTA", "np", "zażółć", "pies", "k", "ul", "kotx"] * 3
    small = cat.lexicon("osps").valid(words)            # the trie
    monkeypatch.setattr(membership, "MIN_BATCH", 1)
    assert cat.lexicon("osps").valid(words) == small    # trie while they build
    membership.prepare(cat.release("osps"))
    index = membership.batch_index(cat.release("osps"), len(words))
    assert isinstance(index, membership.HashedKeys)             # the hash arrays now
    assert cat.lexicon("osps").valid(words) == small
    assert small[:8] == [True, True, False, True, False, False, True, False]


POLISH = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"


def test_multilinear_hashes_agree_with_a_set_on_awkward_strings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty, long and non-BMP strings, swaps and prefixes: the arrays answer a set's
    answer (small build chunks: the weight table grows between chunks; small pieces: a
    batch is hashed in many)."""
    monkeypatch.setattr(membership, "_CHUNK", 7)
    monkeypatch.setattr(membership, "_PIECE", 5)
    rng = random.Random(11)
    alphabet = POLISH + "\U0001F600\U00010348\u00e9\u0301\x00"   # non-BMP, combining, NUL
    valid = {"".join(rng.choices(alphabet, k=rng.randint(0, 14))) for _ in range(3000)}
    valid |= {"", "a" * 200, "ż" * 60 + "\U0001F600", "kot", "kota", "\x00"}
    near = []
    for word in sorted(valid):
        if len(word) > 1:
            i = rng.randrange(len(word) - 1)
            near.append(word[:i] + word[i + 1] + word[i] + word[i + 2:])   # a swap
        near += [word + "a", word[:-1], word + "\x00", "\x00" + word]      # a length off
    probes = sorted(valid) + near + ["a" * 199, "a" * 201, "ko", "kotaa"]
    hashed = membership.HashedKeys(sorted(valid, key=len))
    assert hashed.unique and hashed.longest == 200
    assert hashed.contains_many(probes).tolist() == [p in valid for p in probes]
    hits, lengths = hashed.contains_joined("\n".join(probes), len(probes))
    assert hits.tolist() == [p in valid for p in probes]
    assert lengths.tolist() == [len(p) for p in probes]      # code points, as len() counts
    for text, count in [("", 1), ("\n", 2), ("kot\n", 2), ("\n\nkot", 3)]:
        hits, lengths = hashed.contains_joined(text, count)
        assert hits.tolist() == [w in valid for w in text.split("\n")]
        assert hashed.contains_joined(text, count + 1) is None
        assert hashed.contains_joined(text, count - 1) is None


def test_words_longer_than_the_weight_table_are_not_valid() -> None:
    hashed = membership.HashedKeys(["kot", "kota", "ab"])
    assert hashed.longest == 4 and hashed.weights.shape == (2, 5)
    # a 300,000-character word: one piece longer than the positions the module keeps
    batch = ["kota", "kotaa", "kot" * 100_000, "kota" + "\U0001F600" * 50, "ab", ""]
    assert hashed.contains_many(batch).tolist() == [True, False, False, False, True, False]
    assert len(membership._count) <= membership._KEPT


def test_a_key_with_a_newline() -> None:
    """No valid key holds a newline: a probe with one is not valid, and a joined batch
    that does not hold the announced count of keys is refused (the caller's careful
    path)."""
    hashed = membership.HashedKeys(["kot", "pies"])
    assert hashed.contains_many(["kot", "kot\npies", "pies", ""]).tolist() == [
        True, False, True, False]
    assert hashed.contains_many([]).tolist() == []
    assert hashed.contains_joined("kot\npies", 1) is None
    with pytest.raises(ValueError, match="newline"):
        membership.HashedKeys(["kot\npies"])


def test_weights_are_drawn_per_build() -> None:
    """A keyed hash: each build draws its own weights, so no fixed words collide."""
    one, two = membership.HashedKeys(["kot"]), membership.HashedKeys(["kot"])
    assert one.weights.shape == two.weights.shape == (2, 4)
    assert not np.array_equal(one.weights, two.weights)


def test_colliding_first_hashes_leave_the_release_on_the_trie(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first-hash collision between valid keys cannot be forced by real words, so the
    hash is made constant: every key collides, the arrays say ``unique`` is False, and the
    trie answers, exactly."""
    publish(home, "osps", [rec("kot"), rec("kota"), rec("ul"), rec("zażółć")])
    cat = Catalog(home)
    words = ["kot", "kota", "ul", "pies", "zażółć", "KOT", "kotx"] * 700
    expected = cat.lexicon("osps").valid(words[:7]) * 700
    monkeypatch.setattr(membership.HashedKeys, "_hash", lambda self, codes, starts, lengths:
                        np.zeros((2, len(starts)), np.uint64))
    monkeypatch.setattr(membership, "MIN_BATCH", 1)
    rel = cat.release("osps")
    hashed = membership.prepare(rel)
    assert not hashed.unique
    assert hashed.contains_many(["pies"]).tolist() == [True]     # what the arrays would say
    assert membership.batch_index(rel, len(words)) is rel.indexes.words
    assert cat.lexicon("osps").valid(words) == expected
    assert expected[:7] == [True, True, True, False, True, True, False]


@pytest.mark.parametrize("game", ["osps", "kvizovka", "krizemkrazem"])
def test_plain_letters_stay_themselves(game: str) -> None:
    """The letters whose batches skip ``lower()`` and NFC: random strings of them are
    their own lower case and NFC (else that shortcut would answer another word)."""
    import unicodedata

    from lexicon.game import profile as profiles

    plan = fastcheck._Plan(profiles.load(game))
    plain = sorted(fastcheck._plain_letters(plan.chars))
    assert plain
    rng = random.Random(5)
    for _ in range(2000):
        word = "".join(rng.choices(plain, k=rng.randint(1, 12)))
        assert word.lower() == word and unicodedata.is_normalized("NFC", word)
    assert fastcheck._plain_letters(frozenset("e\u0301")) == frozenset("e")
    assert fastcheck._plain_letters(frozenset("\u1100\u1161")) == frozenset()  # Hangul L+V


def test_joker_letters_past_the_jokers_in_a_batch(home: Path, monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    """Križemkražem has 10 jokers, and W, X, Y, Q only a joker plays: a valid key of 11 of
    them is no play; 10 is. The batch (trie and arrays) answers as the checker."""

    eleven, ten = "wxyqwxyqwxy", "qwxyqwxyqw"
    publish(home, "krizemkrazem", [rec("kiwi"), rec(eleven), rec(ten), rec("wolf"),
                                   rec("kajak")])
    cat = Catalog(home)
    words = ["kiwi", eleven, ten, "WOLF", "kajak", eleven + "q", "Kiwi", ten.upper(), "qq"]
    expected = [r["valid"] for r in cat.lexicon("krizemkrazem").check_many(words)]
    assert expected == [True, False, True, True, True, False, True, True, False]
    assert cat.lexicon("krizemkrazem").valid(words) == expected      # the trie
    monkeypatch.setattr(membership, "MIN_BATCH", 1)
    membership.prepare(cat.release("krizemkrazem"))
    monkeypatch.setattr(fastcheck.checker, "check_word", None)   # the batch path only
    assert cat.lexicon("krizemkrazem").valid(words) == expected      # the arrays
    assert cat.lexicon("krizemkrazem").valid([w.lower() for w in words]) == expected


def test_a_release_linking_another_ones_tries_shares_its_arrays(small_homes: SmallHomes,
                                                                 tmp_path: Path) -> None:
    """Remik's release hard-links osps's words trie: one set of hash arrays serves both
    (a server answering big batches of both games held two identical ones, 64 MB each for
    osps); a release with a trie of its own gets arrays of its own."""
    home = small_homes("queries+remik", tmp_path / "home")
    cat = Catalog(home)
    osps, remik, kvizovka = (cat.release(g) for g in ("osps", "remik", "kvizovka"))
    assert remik.manifest["vocabulary"]["release"] == osps.id
    first = membership.prepare(osps)
    assert membership.prepare(remik) is first
    assert membership.prepare(kvizovka) is not first
    assert first.contains_many(["kot", "qqq"]).tolist() == [
        osps.is_valid("kot"), osps.is_valid("qqq")]
