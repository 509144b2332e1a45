"""Compile an lttoolbox ``.bin`` into an HFST optimized-lookup analyser for ``pyhfst``.

Why: at run time the service analyses words with ``pyhfst`` (pure Python/Cython, no native
HFST or lttoolbox on the serving machine), which only reads HFST optimized-lookup files.
lttoolbox's own formats are not readable by it, so the transducer is converted once, at build
time, with the ``hfst`` Python package (PyPI wheel ``hfst``, with its C++ library inside; it
is only needed here, never by the service).

The converter compiles the sections that :func:`sources.lttoolbox.prepare_sections` returns,
not the raw ``lt-print`` dump: the same filters (no ``+`` joins, finite part of regexp
sections, no ``~`` post-generation marks) hold, so the analyser accepts exactly the pairs
that :func:`sources.lttoolbox.iter_pairs` enumerates, and a generator comes out already
inverted (surface on the input side).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from lexicon.errors import SourceError
from sources.lttoolbox import (
    CyclicMode,
    Section,
    SurfaceSide,
    WalkStats,
    load_prepared,
)

# HFST AT&T escapes (what hfst's AT&T reader turns back into epsilon, blank and tab).
_ATT_ESCAPE = {"": "@0@", " ": "@_SPACE_@", "\t": "@_TAB_@"}


@dataclass
class ConvertResult:
    """What :func:`to_hfst_ol` wrote, for build logs and measurements."""

    path: Path
    states: int
    arcs: int
    seconds: float
    walk: WalkStats


def hfst_available() -> bool:
    """True when the ``hfst`` package (build-time converter) can be imported."""
    try:
        import hfst  # noqa: F401
    except ImportError:
        return False
    return True


def _import_hfst() -> Any:
    try:
        import hfst
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise SourceError(
            "the 'hfst' Python package is needed to convert lttoolbox transducers "
            "(pip install hfst)",
            code="tool_missing",
        ) from exc
    return hfst


def _esc(sym: str) -> str:
    return _ATT_ESCAPE.get(sym, sym)


def write_att(sections: Iterable[Section], out: Any) -> None:
    """Write sections as HFST AT&T text, one transducer each, separated by ``--``.

    States are renumbered so that each section's initial state is 0, which is how HFST's
    AT&T reader knows the initial state.
    """
    for n, sec in enumerate(sections):
        if n:
            out.write("--\n")
        ids: dict[int, int] = {sec.initial: 0}
        order = [sec.initial]
        i = 0
        while i < len(order):  # breadth-first numbering from the initial state
            for t, _, _ in sec.arcs.get(order[i], ()):
                if t not in ids:
                    ids[t] = len(order)
                    order.append(t)
            i += 1
        for s in order:
            src = ids[s]
            for t, a, b in sec.arcs.get(s, ()):
                out.write(f"{src}\t{ids[t]}\t{_esc(a)}\t{_esc(b)}\t0\n")
        for s in order:
            if s in sec.finals:
                out.write(f"{ids[s]}\t0\n")


def to_hfst_ol(bin_path: Path, out_path: Path,
               surface_side: SurfaceSide | Literal["auto"] = "auto", *,
               weighted: bool = False, skip_joins: bool = True,
               cyclic: CyclicMode = "finite", strip_postgen: bool = True) -> ConvertResult:
    """Convert an lttoolbox ``.bin`` into an HFST optimized-lookup analyser at ``out_path``.

    The result maps surface forms to analyses (``kuće`` -> ``kuća<n><f><pl><nom>`` ...),
    whether ``bin_path`` is an analyser or a generator (``surface_side``, see
    :func:`sources.lttoolbox.iter_pairs`). ``weighted`` picks HFST_OLW_TYPE instead of
    HFST_OL_TYPE; lttoolbox weights are all zero here, so unweighted is the default (smaller).
    The file is written to a temporary name and renamed, so readers never see half a file.
    """
    hfst = _import_hfst()
    start = time.perf_counter()
    stats = WalkStats()
    sections = load_prepared(Path(bin_path), surface_side, skip_joins=skip_joins,
                             cyclic=cyclic, strip_postgen=strip_postgen, stats=stats)
    if not sections:
        raise SourceError(f"{bin_path}: no acyclic section left to convert")
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="att-", dir=out_path.parent) as tmp:
        att = Path(tmp) / "sections.att"
        with open(att, "w", encoding="utf-8") as fh:
            write_att(sections, fh)
        union = None
        with open(att, encoding="utf-8") as fh:
            for tr in hfst.AttReader(fh, "@0@"):
                if union is None:
                    union = tr
                else:
                    union.disjunct(tr)
        assert union is not None
        union.minimize()
        states, arcs = union.number_of_states(), union.number_of_arcs()
        kind = (hfst.ImplementationType.HFST_OLW_TYPE if weighted
                else hfst.ImplementationType.HFST_OL_TYPE)
        union.convert(kind)
        part = Path(tmp) / "out.hfstol"
        ostr = hfst.HfstOutputStream(filename=str(part), type=kind)
        ostr.write(union)
        ostr.flush()
        ostr.close()
        os.replace(part, out_path)
    return ConvertResult(out_path, states, arcs, time.perf_counter() - start, stats)


@lru_cache(maxsize=8)
def _load(path: str) -> Any:
    import pyhfst

    # cache=False: pyhfst's own cache is an unbounded dict of every word ever looked up,
    # which a long-running service must not grow.
    return pyhfst.HfstInputStream(path, cache=False).read()


def analyse(path: Path | str, word: str) -> list[str]:
    """Analyses of ``word`` in the pyhfst analyser at ``path``, sorted, without duplicates.

    The transducer is loaded once per path and kept (loading parses the whole file).
    """
    tr = _load(str(path))
    return sorted({r[0] for r in tr.lookup(word)})
