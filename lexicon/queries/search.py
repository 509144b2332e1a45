"""Finding the keys that match a compiled pattern, by walking a trie rather than the lexicon.

A pattern usually fixes its start (``KA?IN``) or its end (``*OWY``). For each length the
pattern allows, we walk the trie that reads from the better-fixed end (forward or
backward, below that length's tag, see :mod:`lexicon.store.indexes`), expanding the
fixed slots tile by tile and pruning every branch no key continues; where the pattern
stops fixing anything (a ``*``, or ``?`` deep in the word) we enumerate the keys under the
prefix reached and let the compiled, bounded regex decide.

Every step is paid from a :class:`Budget`, shared by all readings of the pattern (a Latin
Kvizovka pattern with digraphs has up to 64, each walked and scanned on its own): a probe
of the walk, a key enumerated below a frontier, a regex run on a key. A query that would
spend more is refused with ``query_too_broad``: before it starts when the work is known
from the release alone (:func:`least_work`: a pattern that fixes neither end, such as
``*ź*ż*`` or each of the 64 readings of ``*lj*nj*dž*lj*nj*dž*``, reads every key of every
length it allows, and the trie says how many keys it holds), and in any case as soon as the
budget runs out: keys are enumerated in chunks, never more than the budget left pays for.
So no query holds a worker longer than its budget, about a second of this machine's work.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Sequence
from itertools import islice
from typing import NamedTuple

import marisa_trie

from lexicon.errors import LexiconError
from lexicon.queries.anagrams import QueryTooBroad
from lexicon.queries.patterns import Compiled, Slot
from lexicon.store.indexes import Indexes, length_tag

# From this depth on, a '?' stops the walk: the subtrees below are small enough that
# enumerating them is cheaper than probing every tile of the alphabet at every node.
ENUMERATE_FROM_DEPTH = 3


class TooManyMatches(LexiconError):
    code = "too_many_matches"
    status = 422


class Budget:
    """The work a pattern or blanks query may still do, in units of about half a
    microsecond on a quiet core (what each step costs is in docs/benchmarks.md, "Query
    costs"). Counted, not timed: the same query spends the same on any machine and in a test, and
    whether it is refused cannot depend on load.
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

    def require(self, units: int) -> None:
        """Refuse now if ``units`` (a lower bound of the work to come) cannot be paid."""
        if units > self.left:
            raise self.refusal()

    def refusal(self) -> QueryTooBroad:
        many = (f" (its Latin digraphs give {self.readings} readings, each searched: write "
                f"the tiles in Cyrillic, or as [lj] or l|j)" if self.readings > 1 else "")
        return QueryTooBroad(
            f"the query needs more than {self.limit:,} units of work{many}; fix letters at "
            f"its start or end, or give tighter length bounds",
            detail={"max_work": self.limit, "readings": self.readings})


CHUNK = 65_536            # keys enumerated at a time (a few MB of strings)
COUNT_AT_MOST = 100_000   # keys of left-out lengths counted for an estimate, at most


class _Lengths:
    """Facts about one release's tries by length, learnt once and kept while it is open:
    which lengths hold keys, and how many keys a length holds when that is at most
    :data:`COUNT_AT_MOST` (counting more would cost more than it saves). The same for
    both tries: they hold the same keys, spelled both ways."""

    def __init__(self, index: Indexes) -> None:
        self._trie = index.forward
        self.present = [n for n in range(1, 65) if length_tag(n) in index.forward_prefixes]
        self._counts: dict[int, int | None] = {}

    def count(self, length: int) -> int | None:
        if length not in self._counts:
            listed = len(list(islice(self._trie.iterkeys(length_tag(length)),
                                     COUNT_AT_MOST + 1)))
            self._counts[length] = listed if listed <= COUNT_AT_MOST else None
        return self._counts[length]


_LENGTHS: weakref.WeakKeyDictionary[Indexes, _Lengths] = weakref.WeakKeyDictionary()
_LENGTHS_LOCK = threading.Lock()     # two query workers may open the same release's facts


def _lengths_of(index: Indexes) -> _Lengths:
    with _LENGTHS_LOCK:
        facts = _LENGTHS.get(index)
        if facts is None:
            facts = _LENGTHS[index] = _Lengths(index)
        return facts


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


class Plan(NamedTuple):
    """How one reading is searched: which trie, from which end, over which lengths."""

    backwards: bool
    trie: marisa_trie.Trie
    prefixes: marisa_trie.Trie
    head: tuple[Slot, ...]       # the slots the walk expands, from the end it starts at
    lengths: range
    walk_decides: bool           # a complete walk of the head proves the match


def plan(index: Indexes, compiled: Compiled, alphabet: Sequence[str], min_length: int,
         max_length: int) -> Plan:
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
    head = backward_head if backwards else forward_head
    # When the pattern is its head plus at most one '*' at the far end, a complete walk of
    # the head proves the match and the regex need not run on the keys enumerated.
    walk_decides = not compiled.has_star or len(compiled.elements) == len(head) + 1
    return Plan(backwards, index.backward if backwards else index.forward,
                index.backward_prefixes if backwards else index.forward_prefixes,
                tuple(head), lengths, walk_decides)


def least_work(index: Indexes, compiled: Compiled, alphabet: Sequence[str], min_length: int,
               max_length: int) -> int:
    """What searching ``compiled`` will cost at least, known before it starts (0 when
    nothing is known). A reading whose walk fixes no tile (``*ź*ż*``, ``?*ą*``) and whose
    regex decides reads, and matches, every key of each length it allows: the trie's key
    count (``len``, free) less the keys of the lengths it leaves out, when those are at most
    :data:`COUNT_AT_MOST` (counting them, once per release, costs at most twice that many
    keys; it is not charged to the budget). A function of the release alone, so the same
    query is refused the same way whatever ran before it."""
    p = plan(index, compiled, alphabet, min_length, max_length)
    if p.walk_decides or any(slot.tiles is not None for slot in p.head):
        return 0     # the walk narrows it, or every key it reaches matches (`cap` bounds it)
    facts = _lengths_of(index)
    left_out = 0
    for length in facts.present:
        if length not in p.lengths:
            n = facts.count(length)
            if n is None or left_out + n > COUNT_AT_MOST:
                return 0     # too many keys left out to count
            left_out += n
    keys = len(p.trie) - left_out
    return keys * (Budget.KEY + Budget.MATCH) + Budget.PROBE * len(p.lengths)


def find_keys(index: Indexes, compiled: Compiled, alphabet: Sequence[str], min_length: int,
              max_length: int, cap: int, budget: Budget) -> set[str]:
    """Keys matching ``compiled`` with ``min_length <= len <= max_length`` (at most ``cap``),
    paid from ``budget`` (:class:`QueryTooBroad` when it runs out, :class:`TooManyMatches`
    past ``cap``)."""
    backwards, trie, prefixes, head, lengths, walk_decides = plan(
        index, compiled, alphabet, min_length, max_length)
    match = compiled.regex.match
    out: set[str] = set()

    def too_many() -> TooManyMatches:
        return TooManyMatches(
            f"the query matches more than {cap:,} words; narrow it (fix more letters or "
            f"give length bounds)", detail={"limit": cap})

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
            # in chunks: a query holds one chunk of keys and its matches, never a subtree,
            # and never enumerates more keys than the budget left pays for
            listing = trie.iterkeys(prefix)
            listed = 0
            while listed < take:
                chunk = list(islice(listing, min(CHUNK, take - listed)))
                listed += len(chunk)
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
