"""Enumerate the (surface, analysis) pairs of an apertium lttoolbox transducer (``*.bin``).

Why a walker over ``lt-print`` instead of per-form lookups: the untrimmed Serbo-Croatian
generators of ``apertium-hbs-slv`` hold ~4.7M pairs (6.5M with ``+`` joins), and there is no
list of lemmas or analyses to feed ``lt-proc`` with; the pairs only exist as paths of the
transducer. Reading the transducer as text (``lt-print -H``, lttoolbox's one documented
dump format) and walking its paths gives every pair in seconds, without linking against
lttoolbox or parsing its private binary format.

What a ``.bin`` looks like once printed:

* It holds several *sections* (one transducer each, printed separated by ``--``): the
  dictionary proper, punctuation, and sections mixing regular expressions (numbers, Roman
  numerals) with ordinary entries. A regexp makes its section cyclic (an infinite language);
  such a section is reduced to its finite lexical part (see :func:`prepare_sections`), because
  in apertium-hbs-slv the numerals (*jedan*, *četiri*, *dvadeset i dva*...) live only there.
* A line ``src dst in out weight`` is a transition, ``state weight`` marks a final state. The
  first state printed in a section (``0``) is its initial state.
* ``-H`` escapes: epsilon is ``@0@``, a blank is ``@_SPACE_@`` (multiword entries such as
  ``ad hoc``), a tab is ``@_TAB_@``. Without ``-H`` epsilon would be printed as ``ε``, which
  cannot be told apart from the Greek letter, hence ``-H``.
* Tags (``<n>``, ``<sg>``...) are single multi-character symbols. ``+`` on the analysis side
  joins two analyses (``<...>+biti<...>``: a word fused with a clitic; ``<n>+pos<adj>``: a
  possessive adjective derived from a noun); ``#`` precedes the invariable tail of a multiword
  whose first part inflects (``očuvanje<n><nt><sg><nom># mira``).
* Generators leave ``~`` in some surface forms for the post-generator (``~sa``, ``kroz~``).

Analysers (``*.automorf.bin``) read the surface form (input side = surface); generators
(``*.autogen.bin``) read an analysis and write the surface form (input side = analysis).
:func:`detect_surface_side` tells them apart by which side carries the tags.

The pipeline is: :func:`read_sections` -> :func:`prepare_sections` (orient surface->analysis,
apply every filter on the graph, make it acyclic) -> :func:`walk_section`. It runs at build
time only: the service answers from the release, where every form is already judged.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from lexicon.errors import SourceError

SurfaceSide = Literal["input", "output"]
CyclicMode = Literal["finite", "skip"]
Arc = tuple[int, str, str]  # (target state, input symbol, output symbol)

# lt-print -H escapes (lttoolbox Transducer::escapeSymbol); everything else is literal.
_UNESCAPE = {"@0@": "", "@_EPSILON_SYMBOL_@": "", "@_SPACE_@": " ", "@_TAB_@": "\t"}

#: Analysis-side symbol joining two analyses (lttoolbox ``<j/>``); such paths are skipped.
JOIN_SYMBOL = "+"

#: lttoolbox group mark: the invariable tail of a multiword follows it.
GROUP_SYMBOL = "#"

#: Mark a generator leaves for its post-generator (``~sa`` becomes ``s`` or ``sa``).
POSTGEN_MARK = "~"

#: Refuse to walk a section with more paths than this (a finite but combinatorial regexp).
MAX_SECTION_PAIRS = 100_000_000

#: A state with at most this many paths below it has its suffixes built bottom-up, and kept
#: when it is shared (two or more incoming arcs): paradigm endings are then built once and
#: pasted behind every stem instead of being walked again for each lemma. Measured on the
#: 4.7M-pair hbs generator (CPU s for the walk): 0 (plain DFS) 6.3, 64 2.6, 5k 5.1, 50k 7.1:
#: small shared tails pay off, big lists only cost allocation.
MEMO_LIMIT = 64


@dataclass
class Section:
    """One transducer of a ``.bin`` file.

    ``arcs[state]`` lists ``(target, input_symbol, output_symbol)`` with escapes decoded
    (epsilon is ``""``, blank is ``" "``). As read, input/output are lttoolbox's sides; after
    :func:`prepare_sections` input is always the surface and output the analysis.
    """

    index: int
    arcs: dict[int, list[Arc]] = field(default_factory=dict)
    finals: set[int] = field(default_factory=set)
    initial: int = 0


@dataclass
class WalkStats:
    """What preparation and walking saw and left out, so callers can report it."""

    sections: int = 0
    cyclic_sections: list[int] = field(default_factory=list)
    oversized_sections: list[tuple[int, int]] = field(default_factory=list)
    pairs: int = 0
    skipped_join_arcs: int = 0
    dropped_regexp_fragments: int = 0
    postgen_marks_stripped: int = 0


# --------------------------------------------------------------------------- reading


def lt_print_binary() -> str:
    """Path of ``lt-print`` (Debian package ``lttoolbox-dev``), or raise :class:`SourceError`."""
    exe = shutil.which("lt-print")
    if exe is None:
        raise SourceError(
            "lt-print not found: install the Debian package lttoolbox-dev "
            "(it ships lt-print and lt-comp; the package lttoolbox only has lt-proc)",
            code="tool_missing",
        )
    return exe


def print_att(bin_path: Path) -> str:
    """Return ``lt-print -H`` output for ``bin_path`` (HFST escapes: see module docstring)."""
    proc = subprocess.run([lt_print_binary(), "-H", str(bin_path)], capture_output=True,
                          check=False)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise SourceError(f"lt-print failed on {bin_path}: {err}")
    return proc.stdout.decode("utf-8")


def parse_att(text: str | Iterable[str]) -> list[Section]:
    """Parse ``lt-print -H`` text (whole text or lines) into sections split at ``--``."""
    lines = text.splitlines() if isinstance(text, str) else text
    sections: list[Section] = []
    current: Section | None = None
    unesc = _UNESCAPE.get
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line == "--":
            current = None
            continue
        if not line.strip():
            continue
        parts = line.split("\t")
        if current is None:
            current = Section(index=len(sections), initial=int(parts[0]))
            sections.append(current)
        if len(parts) >= 4:
            a, b = parts[2], parts[3]
            current.arcs.setdefault(int(parts[0]), []).append(
                (int(parts[1]), unesc(a, a), unesc(b, b)))
        else:
            current.finals.add(int(parts[0]))
    return sections


def read_sections(bin_path: Path) -> list[Section]:
    """Print and parse every section of an lttoolbox ``.bin`` file (lttoolbox orientation)."""
    return parse_att(print_att(Path(bin_path)))


def _is_tag(sym: str) -> bool:
    return len(sym) > 2 and sym[0] == "<" and sym[-1] == ">"


def detect_surface_side(sections: list[Section]) -> SurfaceSide:
    """Guess which side is the surface: the side that does *not* carry the tags.

    An analyser writes tags (``<n>``) on its output side, a generator reads them on its input
    side; counting tag symbols per side over all transitions settles it.
    """
    tags_in = tags_out = 0
    for sec in sections:
        for arcs in sec.arcs.values():
            for _, a, b in arcs:
                tags_in += _is_tag(a)
                tags_out += _is_tag(b)
    if tags_in == tags_out == 0:
        raise SourceError("cannot tell surface from analysis side: no tags in transducer")
    return "output" if tags_in > tags_out else "input"


# --------------------------------------------------------------------------- graph work


def _cyclic_states(arcs: dict[int, list[Arc]], initial: int) -> set[int]:
    """States reachable from ``initial`` that lie on a cycle (iterative Tarjan SCC).

    Iterative because a dictionary path can be longer than Python's recursion limit.
    """
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    scc_stack: list[int] = []
    cyclic: set[int] = set()
    counter = 0
    work: list[tuple[int, int]] = [(initial, 0)]
    while work:
        v, i = work[-1]
        if i == 0:
            index[v] = low[v] = counter
            counter += 1
            scc_stack.append(v)
            on_stack.add(v)
        out = arcs.get(v, ())
        if i < len(out):
            work[-1] = (v, i + 1)
            t = out[i][0]
            if t not in index:
                work.append((t, 0))
            elif t in on_stack:
                low[v] = min(low[v], index[t])
            continue
        work.pop()
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = scc_stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or any(t == v for t, _, _ in arcs.get(v, ())):
                cyclic.update(comp)
    return cyclic


def _trim(sec: Section) -> dict[int, int]:
    """Keep only useful states of an acyclic section; return paths-to-final per state.

    Post-order DFS from the initial state (children before parents): arcs into states with
    no path to a final state (what is left of a skipped join, say) are dropped, so neither
    the walker nor the HFST compiler ever sees them.
    """
    arcs = sec.arcs
    count: dict[int, int] = {}
    work: list[tuple[int, int]] = [(sec.initial, 0)]
    seen = {sec.initial}
    while work:
        s, i = work[-1]
        out = arcs.get(s, ())
        if i < len(out):
            work[-1] = (s, i + 1)
            t = out[i][0]
            if t not in seen:
                seen.add(t)
                work.append((t, 0))
            continue
        work.pop()
        kept = [t for t in out if count[t[0]] > 0]
        count[s] = (s in sec.finals) + sum(count[t[0]] for t in kept)
        arcs[s] = kept
    sec.arcs = {s: lst for s, lst in arcs.items() if count.get(s, 0) > 0}
    sec.finals = {s for s in sec.finals if s in count}
    return count


def _trie_section(index: int, pairs: Iterable[tuple[str, str]]) -> Section:
    """A section accepting exactly ``pairs`` (surface -> analysis), as a trie of symbol pairs.

    Used for the finite part of a cyclic section once its leftovers are filtered out: a few
    thousand pairs, so a trie is small enough and keeps HFST output identical to the walk.
    """
    sec = Section(index=index, initial=0)
    child: dict[tuple[int, str, str], int] = {}
    n_states = 1
    for surface, analysis in pairs:
        ins = list(surface)
        outs = tokenize_analysis(analysis)
        width = max(len(ins), len(outs))
        ins += [""] * (width - len(ins))
        outs += [""] * (width - len(outs))
        s = 0
        for a, b in zip(ins, outs, strict=True):
            key = (s, a, b)
            t = child.get(key)
            if t is None:
                t = child[key] = n_states
                n_states += 1
                sec.arcs.setdefault(s, []).append((t, a, b))
            s = t
        sec.finals.add(s)
    return sec


def tokenize_analysis(analysis: str) -> list[str]:
    """Split an analysis into symbols: one per character, one per ``<tag>``."""
    out: list[str] = []
    i, n = 0, len(analysis)
    while i < n:
        if analysis[i] == "<":
            j = analysis.find(">", i)
            if j > i + 1:
                out.append(analysis[i:j + 1])
                i = j + 1
                continue
        out.append(analysis[i])
        i += 1
    return out


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


def prepare_sections(sections: list[Section], surface_side: SurfaceSide, *,
                     skip_joins: bool = True, cyclic: CyclicMode = "finite",
                     strip_postgen: bool = True, stats: WalkStats | None = None,
                     ) -> list[Section]:
    """Turn raw sections into acyclic, trimmed sections with input = surface.

    Every filter is applied here, on the graph, so that walking the result and compiling it
    to HFST describe the same language:

    * orientation: a generator's sides are swapped so input is always the surface;
    * ``skip_joins``: arcs whose analysis symbol is ``+`` are removed (clitic fusions and
      ``<n>+pos<adj>`` possessives are not single-lemma analyses);
    * ``strip_postgen``: the surface-side ``~`` becomes epsilon (``~sa`` -> ``sa``);
    * cyclic sections: ``"skip"`` drops them; ``"finite"`` removes surface digits (the finite
      part of a digit regexp is combinatorially huge: dates, ordinals), then every state still
      on a cycle, then rebuilds the section from its walked pairs minus leftovers of digit
      patterns (analyses like ``,<num><ord>...`` whose lemma or surface has no letter).
    """
    stats = stats if stats is not None else WalkStats()
    swap = surface_side == "output"
    out: list[Section] = []
    for raw in sections:
        stats.sections += 1
        arcs: dict[int, list[Arc]] = {}
        for s, lst in raw.arcs.items():
            new: list[Arc] = []
            for t, a, b in lst:
                if swap:
                    a, b = b, a
                if skip_joins and b == JOIN_SYMBOL:
                    stats.skipped_join_arcs += 1
                    continue
                if strip_postgen and a == POSTGEN_MARK:
                    a = ""
                    stats.postgen_marks_stripped += 1
                new.append((t, a, b))
            arcs[s] = new
        sec = Section(index=raw.index, arcs=arcs, finals=set(raw.finals), initial=raw.initial)
        loops = _cyclic_states(sec.arcs, sec.initial)
        if not loops:
            if _trim(sec).get(sec.initial, 0) > 0:
                out.append(sec)
            continue
        stats.cyclic_sections.append(sec.index)
        if cyclic == "skip":
            continue
        sec.arcs = {s: [t for t in lst if not t[1].isdigit()] for s, lst in sec.arcs.items()}
        loops = _cyclic_states(sec.arcs, sec.initial)
        if sec.initial in loops:
            continue
        sec.arcs = {s: [t for t in lst if t[0] not in loops]
                    for s, lst in sec.arcs.items() if s not in loops}
        sec.finals -= loops
        if _trim(sec).get(sec.initial, 0) == 0:
            continue
        kept = []
        for surface, analysis in walk_section(sec):
            if _has_letter(analysis.split("<", 1)[0]) and _has_letter(surface):
                kept.append((surface, analysis))
            else:
                stats.dropped_regexp_fragments += 1
        if kept:
            out.append(_trie_section(sec.index, kept))
    return out


def walk_section(sec: Section, *, stats: WalkStats | None = None,
                 memo_limit: int = MEMO_LIMIT,
                 max_section_pairs: int = MAX_SECTION_PAIRS) -> Iterator[tuple[str, str]]:
    """Yield (input string, output string) for every accepting path of an acyclic section.

    The section must come from :func:`prepare_sections` (acyclic, trimmed). Top-down the
    walk follows the lemma trie with a growing prefix; below states with at most
    ``memo_limit`` paths it switches to suffix lists built bottom-up and shared between
    stems, so each pair costs about two string concatenations.
    """
    stats = stats if stats is not None else WalkStats()
    arcs, finals = sec.arcs, sec.finals
    count = _trim(Section(index=sec.index, arcs=dict(arcs), finals=set(finals),
                          initial=sec.initial))
    total = count.get(sec.initial, 0)
    if total == 0:
        return
    if total > max_section_pairs:
        stats.oversized_sections.append((sec.index, total))
        return
    indeg: dict[int, int] = {}
    for lst in arcs.values():
        for t in lst:
            indeg[t[0]] = indeg.get(t[0], 0) + 1
    memo: dict[int, list[tuple[str, str]]] = {}

    def suffixes(root: int) -> list[tuple[str, str]]:
        """All (input, output) suffixes from ``root`` to a final state, built bottom-up.

        Shared states keep their list in ``memo``; the list of a state with one incoming arc
        is dropped as soon as its only parent has used it.
        """
        got = memo.get(root)
        if got is not None:
            return got
        tmp: dict[int, list[tuple[str, str]]] = {}
        work: list[tuple[int, int]] = [(root, 0)]
        while work:
            s, i = work[-1]
            out = arcs.get(s, ())
            if i < len(out):
                work[-1] = (s, i + 1)
                t = out[i][0]
                if t not in memo and t not in tmp:
                    work.append((t, 0))
                continue
            work.pop()
            res: list[tuple[str, str]] = [("", "")] if s in finals else []
            for t, a, b in out:
                sub = memo.get(t)
                if sub is None:
                    sub = tmp.pop(t)
                res.extend([(a + x, b + y) for x, y in sub])
            if indeg.get(s, 0) > 1:
                memo[s] = res
            else:
                tmp[s] = res
        got = memo.get(root)
        return got if got is not None else tmp.pop(root)

    stack: list[tuple[int, str, str]] = [(sec.initial, "", "")]
    while stack:
        s, pin, pout = stack.pop()
        if count[s] <= memo_limit:
            for x, y in suffixes(s):
                stats.pairs += 1
                yield pin + x, pout + y
            continue
        if s in finals:
            stats.pairs += 1
            yield pin, pout
        for t, a, b in reversed(arcs.get(s, ())):
            stack.append((t, pin + a, pout + b))


# --------------------------------------------------------------------------- public API


def load_prepared(bin_path: Path, surface_side: SurfaceSide | Literal["auto"] = "auto", *,
                  skip_joins: bool = True, cyclic: CyclicMode = "finite",
                  strip_postgen: bool = True, stats: WalkStats | None = None,
                  ) -> list[Section]:
    """Read a ``.bin`` and :func:`prepare_sections` it (surface on the input side)."""
    sections = read_sections(Path(bin_path))
    side: SurfaceSide = detect_surface_side(sections) if surface_side == "auto" else surface_side
    return prepare_sections(sections, side, skip_joins=skip_joins, cyclic=cyclic,
                            strip_postgen=strip_postgen, stats=stats)


def iter_pairs(bin_path: Path, surface_side: SurfaceSide | Literal["auto"] = "auto", *,
               skip_joins: bool = True, cyclic: CyclicMode = "finite",
               strip_postgen: bool = True, stats: WalkStats | None = None,
               on_total: Callable[[int], None] | None = None,
               ) -> Iterator[tuple[str, str]]:
    """Yield every (surface, analysis) pair of an lttoolbox transducer.

    Example pair from a generator: ``("kuće", "kuća<n><f><pl><nom>")``.

    * ``surface_side``: ``"input"`` for analysers, ``"output"`` for generators, ``"auto"``
      to decide by which side carries the tags (:func:`detect_surface_side`).
    * ``skip_joins``, ``cyclic``, ``strip_postgen``: see :func:`prepare_sections`.
    * ``on_total``: told the number of pairs (:func:`pair_count`) once the transducer is
      read, before the first pair.

    A pair may come out more than once when two sections or two alignments produce it (about
    3k of 4.7M in the hbs generators); callers that need a set deduplicate. ``stats`` (a
    :class:`WalkStats`) records what was left out.
    """
    stats = stats if stats is not None else WalkStats()
    sections = load_prepared(bin_path, surface_side, skip_joins=skip_joins, cyclic=cyclic,
                             strip_postgen=strip_postgen, stats=stats)
    if on_total is not None:
        on_total(sum(pair_count(sec) for sec in sections))
    for sec in sections:
        yield from walk_section(sec, stats=stats)


def pair_count(sec: Section) -> int:
    """How many pairs :func:`walk_section` will yield for a prepared section: its number of
    accepting paths, counted without walking them (about a tenth of the walk's time; a
    progress bar's total). A section the walk leaves out as too large counts 0."""
    counts = _trim(Section(index=sec.index, arcs=dict(sec.arcs), finals=set(sec.finals),
                           initial=sec.initial))
    total = counts.get(sec.initial, 0)
    return total if total <= MAX_SECTION_PAIRS else 0


def parse_analysis(a: str) -> tuple[str, tuple[str, ...]]:
    """Split ``"kuća<n><f><sg><nom>"`` into ``("kuća", ("n", "f", "sg", "nom"))``.

    The lemma is the text outside the ``<...>`` tags. A multiword whose first part inflects
    is printed with its invariable tail after the tags, behind lttoolbox's group mark ``#``
    (``"očuvanje<n><nt><sg><nom># mira"``); the mark is dropped and the tail put back, giving
    ``("očuvanje mira", ("n", "nt", "sg", "nom"))``, so the lemma reads as written.
    """
    i = a.find("<")
    if i < 0:
        return a.replace(GROUP_SYMBOL, ""), ()
    if a[-1] == ">" and GROUP_SYMBOL not in a:
        # the common case, a lemma and nothing but tags behind it: one split (millions of
        # pairs per generator); a ">" left inside a part means text between tags
        tags = a[i + 1:-1].split("><")
        if not any(">" in t for t in tags):
            return a[:i], tuple(tags)
    lemma = a[:i]
    tags: list[str] = []
    rest = a[i:]
    while rest.startswith("<"):
        j = rest.find(">")
        if j < 0:
            break
        tags.append(rest[1:j])
        rest = rest[j + 1:]
    return (lemma + rest).replace(GROUP_SYMBOL, ""), tuple(tags)


def main(argv: list[str] | None = None) -> int:
    """``python -m sources.lttoolbox FILE.bin [auto|input|output]``: pairs as TSV on stdout."""
    args = sys.argv[1:] if argv is None else argv
    if not args or (len(args) > 1 and args[1] not in ("auto", "input", "output")):
        print("usage: python -m sources.lttoolbox FILE.bin [auto|input|output]", file=sys.stderr)
        return 2
    side = args[1] if len(args) > 1 else "auto"
    stats = WalkStats()
    write = sys.stdout.write
    for s, a in iter_pairs(Path(args[0]), side, stats=stats):  # type: ignore[arg-type]
        write(f"{s}\t{a}\n")
    print(stats, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
