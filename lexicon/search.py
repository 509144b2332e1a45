"""Finding the keys that match a compiled pattern, by walking a trie rather than the lexicon.

A pattern usually fixes its start (``KA?IN``) or its end (``*OWY``). For each length the
pattern allows, we walk the trie that reads from the better-fixed end (forward or
backward, below that length's tag, see :mod:`lexicon.indexes`), expanding the
fixed slots tile by tile and pruning every branch no key continues; where the pattern
stops fixing anything (a ``*``, or ``?`` deep in the word) we enumerate the keys under the
prefix reached and let the compiled, bounded regex decide. A pattern that fixes neither
end (``*ą*``) scans the whole lexicon: about a second per few million words, never more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import marisa_trie

from lexicon.errors import LexiconError
from lexicon.indexes import Indexes, length_tag
from lexicon.patterns import Compiled, Slot

# From this depth on, a '?' stops the walk: the subtrees below are small enough that
# enumerating them is cheaper than probing every tile of the alphabet at every node.
ENUMERATE_FROM_DEPTH = 3


class TooManyMatches(LexiconError):
    code = "too_many_matches"
    status = 422


def _information(head: Sequence[Slot], alphabet_size: int) -> float:
    """How strongly a run of slots narrows the walk, early slots counting most."""
    total = 0.0
    for depth, slot in enumerate(head):
        branching = alphabet_size if slot.tiles is None else max(1, len(slot.tiles))
        total += math.log(alphabet_size / branching) * 0.5 ** depth
    return total


def _walk(trie: marisa_trie.Trie, prefixes: marisa_trie.Trie, root: str,
          head: Sequence[Slot], alphabet: Sequence[str], exact_length: bool
          ) -> tuple[list[tuple[str, bool]], list[str]]:
    """Expand the fixed slots of ``head`` below ``root`` (a length tag) in ``trie``, whose
    prefix-closed set is ``prefixes``.

    Returns (frontier: prefixes whose subtrees must be enumerated, each with whether the
    walk alone already proves every key below it matches; complete keys found when
    ``exact_length`` and the walk reached the last slot).
    """
    probe = prefixes.__contains__
    frontier: list[tuple[str, bool]] = []
    found: list[str] = []
    last = len(head) - 1

    def rest_is_open(depth: int) -> bool:
        return all(s.tiles is None for s in head[depth:])

    def visit(prefix: str, depth: int) -> None:
        if depth > last or rest_is_open(depth):
            frontier.append((prefix, True))
            return
        slot = head[depth]
        if slot.tiles is None and depth >= ENUMERATE_FROM_DEPTH:
            frontier.append((prefix, False))
            return
        options = alphabet if slot.tiles is None else sorted(slot.tiles)
        if exact_length and depth == last:
            found.extend(prefix + c for c in options if prefix + c in trie)
            return
        for c in options:
            if probe(prefix + c):
                visit(prefix + c, depth + 1)

    visit(root, 0)
    return frontier, found


SEP = "\uffff"   # a noncharacter: never part of a key


def _strip_tag(listed: list[str], tag: str, backwards: bool) -> list[str]:
    """Keys below one length tag without the tag (and read forwards again), in a few
    whole-list string operations: per-key slicing was most of a broad pattern's time. The
    tag is a control character, never a letter of a key."""
    if not listed:
        return []
    joined = SEP.join(listed).replace(tag, "")
    return (joined[::-1] if backwards else joined).split(SEP)


def find_keys(index: Indexes, compiled: Compiled, alphabet: Sequence[str], min_length: int,
              max_length: int, cap: int) -> set[str]:
    """Keys matching ``compiled`` with ``min_length <= len <= max_length`` (at most ``cap``)."""
    slots = compiled.slots
    if compiled.has_star:
        forward_head, backward_head = compiled.head, compiled.tail[::-1]
        lengths = range(max(min_length, len(slots)), max_length + 1)
    else:
        forward_head, backward_head = slots, slots[::-1]
        lengths = range(len(slots), len(slots) + 1 if min_length <= len(slots) <= max_length
                        else len(slots))
    size = len(alphabet)
    backwards = _information(backward_head, size) > _information(forward_head, size)
    trie = index.backward if backwards else index.forward
    prefixes = index.backward_prefixes if backwards else index.forward_prefixes
    head = backward_head if backwards else forward_head
    # When the pattern is its head plus at most one '*' at the far end, a complete walk of
    # the head proves the match and the regex need not run on the keys enumerated.
    n_head = len(head)
    walk_decides = not compiled.has_star or len(compiled.elements) == n_head + 1
    match = compiled.regex.match
    out: set[str] = set()

    def too_many() -> TooManyMatches:
        return TooManyMatches(
            f"the query matches more than {cap:,} words; narrow it (fix more letters or "
            f"give length bounds)", detail={"limit": cap})

    for length in lengths:
        tag = length_tag(length)
        if tag not in prefixes:
            continue
        frontier, found = _walk(trie, prefixes, tag, head, alphabet,
                                exact_length=not compiled.has_star)
        keys = [k[1:] for k in found]
        for prefix, proven in frontier:
            below = _strip_tag(trie.keys(prefix), tag, backwards)
            if not (proven and walk_decides):
                below = [k for k in below if match(k)]
            out.update(below)
            if len(out) > cap:
                raise too_many()
        if backwards:
            keys = [k[::-1] for k in keys]
        out.update(k for k in keys if match(k))
        if len(out) > cap:
            raise too_many()
    return out
