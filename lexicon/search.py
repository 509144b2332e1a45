"""Finding the keys that match a compiled pattern, by walking a trie rather than the lexicon.

A pattern usually fixes its start (``KA?IN``) or its end (``*OWY``). For each length the
pattern allows, we walk the trie that reads from the better-fixed end (forward or
backward, below that length's tag, see :mod:`lexicon.indexes`), expanding the
fixed slots tile by tile and pruning every branch no key continues; where the pattern
stops fixing anything (a ``*``, or ``?`` deep in the word) we enumerate the keys under the
prefix reached and let the compiled, bounded regex decide.

Every step is paid from a :class:`Budget`, shared by all readings of the pattern (a Latin
Kvizovka pattern with digraphs has up to 64, each walked and scanned on its own): a probe
of the walk, a key enumerated below a frontier, a regex run on a key. A query that would
spend more is refused with ``query_too_broad`` as soon as the budget runs out, and before
any key is enumerated when the frontier is known to hold more keys than the budget can
pay for: a pattern that fixes neither end (``*ą*``, which scans the whole lexicon, about a
second per few million keys) or the 64 readings of ``*lj*nj*dž*lj*nj*dž*`` never hold a
worker longer than the budget, about a second of this machine's work.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Sequence
from itertools import islice

import marisa_trie

from lexicon.anagrams import QueryTooBroad
from lexicon.errors import LexiconError
from lexicon.indexes import Indexes, length_tag
from lexicon.patterns import Compiled, Slot

# From this depth on, a '?' stops the walk: the subtrees below are small enough that
# enumerating them is cheaper than probing every tile of the alphabet at every node.
ENUMERATE_FROM_DEPTH = 3


class TooManyMatches(LexiconError):
    code = "too_many_matches"
    status = 422


class Budget:
    """The work a pattern or blanks query may still do, in units of roughly half a
    microsecond of this machine (measured on a 1M-key trie: enumerating a key 0.55 us, a
    generated regex on a key 0.2 us, an ``iterkeys`` probe 2.1 us, a membership test
    0.3 us). Counted, not timed: the same query spends the same on any machine and in a
    test, and the refusal cannot depend on load.
    """

    PROBE = 4    # "does some key start with p": one step of the walk
    LOOKUP = 1   # "is p a key": the walk's last slot of a fixed-length pattern
    KEY = 1      # a key enumerated below a frontier
    MATCH = 1    # the generated regex run on one key

    def __init__(self, limit: int, readings: int = 1) -> None:
        self.limit = limit
        self.readings = readings
        self.spent = 0

    @property
    def left(self) -> int:
        return self.limit - self.spent

    def spend(self, units: int) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise self.refusal()

    def refusal(self) -> QueryTooBroad:
        many = (f" (its Latin digraphs give {self.readings} readings, each searched: write "
                f"the tiles in Cyrillic, or as [lj] or l|j)" if self.readings > 1 else "")
        return QueryTooBroad(
            f"the pattern needs more than {self.limit:,} units of work{many}; fix letters at "
            f"its start or end, or give tighter length bounds",
            detail={"max_work": self.limit, "readings": self.readings})


# What a release's frontiers are known to hold: (index, direction) -> prefix -> at least
# this many keys. Learnt from enumerations (a stopped one teaches a lower bound), so a
# scan already refused once is refused again before a key is enumerated. Releases are
# immutable, so a bound never goes stale; keyed weakly by the open indexes.
_FLOORS: weakref.WeakKeyDictionary[Indexes, dict[tuple[bool, str], int]] = (
    weakref.WeakKeyDictionary())
_FLOORS_LOCK = threading.Lock()
REMEMBER_FROM = 1_000     # smaller subtrees are not worth remembering
CHUNK = 65_536            # keys enumerated at a time (a few MB of strings)
REMEMBERED_FRONTIERS = 4_096    # frontiers remembered per release


def _floors(index: Indexes) -> dict[tuple[bool, str], int]:
    with _FLOORS_LOCK:
        known = _FLOORS.get(index)
        if known is None:
            known = _FLOORS[index] = {}
        return known


def _remember(known: dict[tuple[bool, str], int], where: tuple[bool, str], n: int) -> None:
    if n >= REMEMBER_FROM and n > known.get(where, 0) and (
            where in known or len(known) < REMEMBERED_FRONTIERS):
        known[where] = n


def _information(head: Sequence[Slot], alphabet_size: int) -> float:
    """How strongly a run of slots narrows the walk, early slots counting most."""
    total = 0.0
    for depth, slot in enumerate(head):
        branching = alphabet_size if slot.tiles is None else max(1, len(slot.tiles))
        total += math.log(alphabet_size / branching) * 0.5 ** depth
    return total


def _walk(trie: marisa_trie.Trie, prefixes: marisa_trie.Trie, root: str,
          head: Sequence[Slot], alphabet: Sequence[str], exact_length: bool, budget: Budget
          ) -> tuple[list[tuple[str, bool]], list[str]]:
    """Expand the fixed slots of ``head`` below ``root`` (a length tag) in ``trie``, whose
    prefix-closed set is ``prefixes``.

    Returns (frontier: prefixes whose subtrees must be enumerated, each with whether the
    walk alone already proves every key below it matches; complete keys found when
    ``exact_length`` and the walk reached the last slot).
    """
    contains = prefixes.__contains__
    spend = budget.spend

    def probe(prefix: str) -> bool:
        spend(Budget.PROBE)
        return contains(prefix)

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
            spend(Budget.LOOKUP * len(options))
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
              max_length: int, cap: int, budget: Budget) -> set[str]:
    """Keys matching ``compiled`` with ``min_length <= len <= max_length`` (at most ``cap``),
    paid from ``budget`` (:class:`QueryTooBroad` when it runs out, :class:`TooManyMatches`
    past ``cap``)."""
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

    known = _floors(index)
    for length in lengths:
        tag = length_tag(length)
        budget.spend(Budget.PROBE)
        if tag not in prefixes:
            continue
        frontier, found = _walk(trie, prefixes, tag, head, alphabet,
                                exact_length=not compiled.has_star, budget=budget)
        keys = [k[1:] for k in found]
        for prefix, proven in frontier:
            decided = proven and walk_decides
            per_key = Budget.KEY if decided else Budget.KEY + Budget.MATCH
            affordable = budget.left // per_key
            # every key of a decided frontier matches: cap + 1 of them are enough to refuse
            take = min(affordable, cap) + 1 if decided else affordable + 1
            where = (backwards, prefix)
            if known.get(where, 0) >= take:
                # known to hold more keys than can be paid for (or than may match): the
                # refusal the enumeration would end in, given before it starts
                raise budget.refusal() if take > affordable else too_many()
            # read in chunks: a query holds one chunk of keys and its matches, not a subtree
            listing = trie.iterkeys(prefix)
            listed = 0
            while listed < take:
                chunk = list(islice(listing, min(CHUNK, take - listed)))
                listed += len(chunk)
                _remember(known, where, listed)
                budget.spend(per_key * len(chunk))
                below = _strip_tag(chunk, tag, backwards)
                if not decided:
                    below = [k for k in below if match(k)]
                out.update(below)
                if len(out) > cap:
                    raise too_many()
                if len(chunk) < CHUNK:
                    break
        if backwards:
            keys = [k[::-1] for k in keys]
        budget.spend(Budget.MATCH * len(keys))
        out.update(k for k in keys if match(k))
        if len(out) > cap:
            raise too_many()
    return out
