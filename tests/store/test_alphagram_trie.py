"""The alphagram trie as the build writes it: minimised (equal subtrees stored once), yet
every alphagram, its word count and its rank (where its keys start) read back exactly as
from a plain trie."""

from __future__ import annotations

from array import array
from collections import Counter
from pathlib import Path

import pytest
from lexicon.build.index_writer import _alphagram_nodes

from lexicon.catalog import Catalog
from lexicon.queries import queries
from lexicon.store.indexes import (
    ALPHAGRAM_COUNTS,
    ALPHAGRAM_NODES,
    ALPHAGRAM_RANKS,
    NODE_CHILD_MASK,
    NODE_LABEL_SHIFT,
    NODE_LAST,
    NODE_TERMINAL,
    key_id_bytes,
    pack_ids,
)

LETTERS = list("abcdeklmnoprstwyz")
# inflected forms share their sorted tails (…ty, …wy, …owy) across many stems
WORDS = ["kot", "kota", "koty", "kotów", "tok", "toki", "mak", "maki", "kam", "koma",
         "kosy", "sok", "soki", "nowy", "nowa", "nowe", "stary", "stara", "stare",
         "ryk", "ryki", "kry", "kryt", "tryk", "tryki", "trwa", "traw", "wart"]


def _read(out: Path, typecode: str) -> tuple[array, array, array]:
    nodes, counts, ranks = array("I"), array(typecode), array("I")
    nodes.frombytes((out / ALPHAGRAM_NODES).read_bytes())
    counts.frombytes((out / ALPHAGRAM_COUNTS).read_bytes())
    ranks.frombytes((out / ALPHAGRAM_RANKS).read_bytes())
    return nodes, counts, ranks


def _walk(nodes: array, counts: array, ranks: array, letters: list[str]
          ) -> tuple[dict[str, tuple[int, int]], int]:
    """Every alphagram the node array spells, with its count and rank, and how many paths
    reach a node: a plain trie has one path to each node, a minimised one more."""
    found: dict[str, tuple[int, int]] = {}
    visits = 0

    def visit(offset: int, path: str, base: int) -> None:
        nonlocal visits
        visits += 1
        k = offset
        while True:
            edge = nodes[k]
            spelled = path + letters[edge >> NODE_LABEL_SHIFT]
            rank = base + ranks[k]
            if edge & NODE_TERMINAL:
                found[spelled] = (counts[k], rank)
            if child := edge & NODE_CHILD_MASK:
                visit(child, spelled, rank + counts[k])
            if edge & NODE_LAST:
                break
            k += 1

    if nodes[0]:
        visit(nodes[0], "", 0)
    return found, visits


def _expected(alphagrams: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Count and rank (keys of the alphagrams before it, in sorted order) of each."""
    out, rank = {}, 0
    for alpha in sorted(alphagrams):
        out[alpha] = (alphagrams[alpha], rank)
        rank += alphagrams[alpha]
    return out


def test_the_minimised_trie_spells_every_alphagram_with_its_count_and_rank(
        tmp_path: Path) -> None:
    words = [w for w in WORDS if set(w) <= set(LETTERS)]
    expected = Counter("".join(sorted(w)) for w in words)
    typecode = _alphagram_nodes(dict(sorted(expected.items())), LETTERS, tmp_path)
    nodes, counts, ranks = _read(tmp_path, typecode)
    found, paths_to_nodes = _walk(nodes, counts, ranks, LETTERS)
    assert found == _expected(expected)
    # nodes are shared: fewer stored than the paths that reach them (a plain trie: equal)
    stored = sum(1 for edge in nodes[1:] if edge & NODE_LAST)
    assert stored < paths_to_nodes
    assert len(counts) == len(ranks) == len(nodes)


def test_nodes_with_equal_edges_but_other_counts_are_not_merged(tmp_path: Path) -> None:
    """Two leaves with the same label but different word counts are different nodes: a
    shared node would give one alphagram the other's count (and shift every rank)."""
    alphagrams = {"ab": 1, "abz": 1, "ac": 1, "acz": 3, "ad": 2}
    typecode = _alphagram_nodes(alphagrams, LETTERS, tmp_path)
    found, _ = _walk(*_read(tmp_path, typecode), LETTERS)
    assert found == _expected(alphagrams)


def test_no_alphagrams_is_an_empty_root(tmp_path: Path) -> None:
    typecode = _alphagram_nodes({}, LETTERS, tmp_path)
    nodes, _counts, _ranks = _read(tmp_path, typecode)
    assert list(nodes) == [0]


def test_pack_ids_is_little_endian_at_either_width() -> None:
    ids = array("I", [1, 0x0A0B0C, 0x01020304])
    assert pack_ids(ids, 4) == bytes([1, 0, 0, 0, 0x0C, 0x0B, 0x0A, 0, 4, 3, 2, 1])
    assert pack_ids(array("I", [1, 0x0A0B0C]), 3) == bytes([1, 0, 0, 0x0C, 0x0B, 0x0A])
    assert key_id_bytes(1 << 24) == 3 and key_id_bytes((1 << 24) + 1) == 4


@pytest.mark.parametrize("width", [3, 4])
def test_anagram_words_read_through_key_ids_of_either_width(
        home: Path, monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """The walk's ranks find each alphagram's keys among the forward trie's ids."""
    from conftest import publish, rec
    from lexicon.build import index_writer

    monkeypatch.setattr(index_writer, "key_id_bytes", lambda _n: width)
    publish(home, "osps", [rec(w) for w in WORDS])
    cat = Catalog(home)
    assert cat.release("osps").manifest["indexes"]["key_id_bytes"] == width
    got = cat.lexicon("osps").anagrams("kotyw?", limit=100)
    made = sorted(w for w in WORDS if not Counter(w) - Counter("kotyw") or
                  sum((Counter(w) - Counter("kotyw")).values()) <= 1)
    assert sorted(r["word"] for r in got["results"]) == [w for w in made if len(w) >= 2]
    assert got["count"] == len(got["results"])
    cat.close()


def test_the_label_indexed_walk_finds_what_brute_force_finds(home: Path) -> None:
    """The walk reads a node's edges by label (the rack's letters, or every label while a
    joker is left; nothing past a board letter still needed): on random racks, jokers and
    board letters it finds exactly the alphagrams, jokers, scores and word counts that
    trying every word finds."""
    import random

    from conftest import publish, rec

    from lexicon.game.play import play_rules
    from lexicon.queries import anagrams

    publish(home, "osps", [rec(w) for w in WORDS])
    cat = Catalog(home)
    profile, index = cat.profile("osps"), cat.release("osps").indexes
    rules = play_rules(profile)
    words = Counter("".join(sorted(w)) for w in WORDS)
    rng = random.Random(7)
    pool = "aekmnorstwyz"
    for _ in range(300):
        rack, board = "".join(rng.sample(pool, rng.randint(1, 7))), ""
        if rng.random() < 0.3:
            board = rng.choice("kotsa")
        jokers = rng.choice([0, 0, 1, 2])
        parsed = anagrams.parse_rack(profile, rack + "?" * jokers, board)
        got = {f.alphagram: (f.jokers, f.score, f.words) for f in anagrams.find_alphagrams(
            index, profile, parsed, 2, 15, False)}
        expected = {}
        for alpha, n in words.items():
            need = Counter(alpha)
            if Counter(board) - need:               # every board letter used
                continue
            left = need - Counter(board)
            short = left - Counter(rack)            # what the jokers stand for
            if sum(short.values()) > jokers or len(alpha) <= len(board):
                continue
            played = left - short
            score = (sum(rules.values[c] for c in (Counter(board) + played).elements())
                     + sum(rules.joker_value(c) for c in short.elements()))
            expected[alpha] = (tuple(sorted(short.elements())), score, n)
        assert got == expected, (rack, jokers, board)
    cat.close()


def test_a_page_of_the_best_alphagrams_is_the_head_of_the_full_sort(home: Path) -> None:
    """``_alphagram_page`` sorts only the alphagrams that can reach the page (chosen on the
    walk's score and length arrays): every page equals the same page of a full sort."""
    from conftest import publish, rec

    from lexicon.queries import anagrams

    publish(home, "osps", [rec(w) for w in WORDS])
    cat = Catalog(home)
    profile, index = cat.profile("osps"), cat.release("osps").indexes
    for rack in ("kotyw??", "stary?", "noweakt"):
        found = anagrams.find_alphagrams(index, profile, anagrams.parse_rack(profile, rack),
                                         2, 15, False)
        assert isinstance(found, anagrams.Alphagrams) and len(found) > 3
        for sort in ("score", "length", "alpha"):
            for wanted in (1, 2, 3, 5, 100):
                fast = queries._alphagram_page(profile, index, found, sort, wanted)
                full = queries._alphagram_page(profile, index, list(found), sort, wanted)
                assert fast[0] == full[0]
                assert fast[1][:wanted] == full[1][:wanted], (rack, sort, wanted)
    cat.close()
