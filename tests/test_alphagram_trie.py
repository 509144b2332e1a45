"""The alphagram trie as the build writes it: minimised (equal subtrees stored once), yet
every alphagram and its word count read back exactly as from a plain trie."""

from __future__ import annotations

from array import array
from collections import Counter
from pathlib import Path

from build.indexes import _alphagram_nodes
from lexicon.store.indexes import (
    ALPHAGRAM_COUNTS,
    ALPHAGRAM_NODES,
    NODE_CHILD_MASK,
    NODE_LABEL_SHIFT,
    NODE_TERMINAL,
)

LETTERS = list("abcdeklmnoprstwyz")
# inflected forms share their sorted tails (…ty, …wy, …owy) across many stems
WORDS = ["kot", "kota", "koty", "kotów", "tok", "toki", "mak", "maki", "kam", "koma",
         "kosy", "sok", "soki", "nowy", "nowa", "nowe", "stary", "stara", "stare",
         "ryk", "ryki", "kry", "kryt", "tryk", "tryki", "trwa", "traw", "wart"]


def _read(out: Path, typecode: str) -> tuple[array, array]:
    nodes, counts = array("I"), array(typecode)
    nodes.frombytes((out / ALPHAGRAM_NODES).read_bytes())
    counts.frombytes((out / ALPHAGRAM_COUNTS).read_bytes())
    return nodes, counts


def _walk(nodes: array, counts: array, letters: list[str]) -> tuple[Counter[str], int]:
    """Every alphagram the node array spells (with its count), and how many paths reach a
    node: a plain trie has one path to each node, a minimised one more."""
    found: Counter[str] = Counter()
    visits = 0

    def visit(offset: int, path: str) -> None:
        nonlocal visits
        visits += 1
        for k in range(offset + 1, offset + 1 + nodes[offset]):
            edge = nodes[k]
            spelled = path + letters[edge >> NODE_LABEL_SHIFT]
            if edge & NODE_TERMINAL:
                found[spelled] = counts[k]
            if child := edge & NODE_CHILD_MASK:
                visit(child, spelled)

    visit(nodes[0], "")
    return found, visits


def test_the_minimised_trie_spells_every_alphagram_with_its_count(tmp_path: Path) -> None:
    words = [w for w in WORDS if set(w) <= set(LETTERS)]
    expected = Counter("".join(sorted(w)) for w in words)
    typecode = _alphagram_nodes(dict(sorted(expected.items())), LETTERS, tmp_path)
    nodes, counts = _read(tmp_path, typecode)
    found, paths_to_nodes = _walk(nodes, counts, LETTERS)
    assert found == expected
    # nodes are shared: fewer stored than the paths that reach them (a plain trie: equal)
    stored, offset = 0, 1
    while offset < len(nodes):
        stored += 1
        offset += 1 + nodes[offset]
    assert stored < paths_to_nodes
    assert len(counts) == len(nodes)


def test_nodes_with_equal_edges_but_other_counts_are_not_merged(tmp_path: Path) -> None:
    """Two leaves with the same label but different word counts are different nodes: a
    shared node would give one alphagram the other's count."""
    alphagrams = {"ab": 1, "abz": 1, "ac": 1, "acz": 3}
    typecode = _alphagram_nodes(alphagrams, LETTERS, tmp_path)
    found, _ = _walk(*_read(tmp_path, typecode), LETTERS)
    assert found == Counter(alphagrams)
