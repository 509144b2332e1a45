"""Big-batch membership (hash arrays) answers exactly what the words trie answers."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lexicon.catalog import Catalog
from lexicon.store import membership
from lexicon.verdicts import fastcheck
from tests.conftest import publish, rec


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
    small = fastcheck.valid_flags(cat, "osps", words)            # the trie
    monkeypatch.setattr(membership, "MIN_BATCH", 1)
    assert fastcheck.valid_flags(cat, "osps", words) == small    # trie while they build
    membership.prepare(cat.release("osps"))
    lookup = membership.batch_lookup(cat.release("osps"), len(words))
    assert isinstance(lookup(["kot"]), np.ndarray)               # the hash arrays now
    assert fastcheck.valid_flags(cat, "osps", words) == small
    assert small[:8] == [True, True, False, True, False, False, True, False]
