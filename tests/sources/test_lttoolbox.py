"""Tests for the lttoolbox walker (sources.lttoolbox) and the HFST conversion.

A tiny dictionary is compiled with ``lt-comp`` (Debian ``lttoolbox-dev``) both ways, as an
analyser (lr) and as a generator (rl), so both orientations are checked against one exact
set of pairs. Pure-Python parts (parsing ``lt-print -H`` text, cycles, long paths) are tested
on hand-written AT&T text and run everywhere.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from lexicon.sources.lttoolbox import (
    Section,
    WalkStats,
    detect_surface_side,
    iter_pairs,
    parse_analysis,
    parse_att,
    prepare_sections,
    tokenize_analysis,
    walk_section,
)

# One of each thing the real files contain: two nouns sharing a paradigm, a multiword with a
# blank, a multiword whose first part inflects (lttoolbox group ``<g>`` -> ``#``), a clitic
# join (``<j/>`` -> ``+``), a post-generation mark ``~``, and a section mixing a cyclic
# regexp with a real numeral.
DIX = """<?xml version="1.0" encoding="UTF-8"?>
<dictionary>
  <alphabet>abcčdefghijklmnoprsštuvzžABCDEFGHIJKLMNOPRSTUVZ</alphabet>
  <sdefs>
    <sdef n="n"/><sdef n="f"/><sdef n="nt"/><sdef n="sg"/><sdef n="pl"/><sdef n="nom"/>
    <sdef n="gen"/><sdef n="adj"/><sdef n="prn"/><sdef n="vbser"/><sdef n="num"/>
    <sdef n="pr"/>
  </sdefs>
  <pardefs>
    <pardef n="kuć/a__n">
      <e><p><l>a</l><r>a<s n="n"/><s n="f"/><s n="sg"/><s n="nom"/></r></p></e>
      <e><p><l>e</l><r>a<s n="n"/><s n="f"/><s n="sg"/><s n="gen"/></r></p></e>
      <e><p><l>e</l><r>a<s n="n"/><s n="f"/><s n="pl"/><s n="nom"/></r></p></e>
    </pardef>
    <pardef n="sel/o__n">
      <e><p><l>o</l><r>o<s n="n"/><s n="nt"/><s n="sg"/><s n="nom"/></r></p></e>
      <e><p><l>a</l><r>o<s n="n"/><s n="nt"/><s n="sg"/><s n="gen"/></r></p></e>
    </pardef>
    <pardef n="polj/e__n">
      <e><p><l>e</l><r>e<s n="n"/><s n="nt"/><s n="sg"/><s n="nom"/></r></p></e>
      <e><p><l>a</l><r>e<s n="n"/><s n="nt"/><s n="sg"/><s n="gen"/></r></p></e>
    </pardef>
  </pardefs>
  <section id="main" type="standard">
    <e lm="kuća"><i>kuć</i><par n="kuć/a__n"/></e>
    <e lm="ruka"><i>ruk</i><par n="kuć/a__n"/></e>
    <e lm="selo"><i>sel</i><par n="sel/o__n"/></e>
    <e lm="ad hoc"><p><l>ad<b/>hoc</l><r>ad<b/>hoc<s n="adj"/></r></p></e>
    <e lm="očuvanje mira"><i>očuvanj</i><par n="polj/e__n"/>
      <p><l><b/>mira</l><r><g><b/>mira</g></r></p></e>
    <e><p><l>ga</l><r>on<s n="prn"/><j/>biti<s n="vbser"/></r></p></e>
    <e lm="sa"><p><l>~sa</l><r>sa<s n="pr"/></r></p></e>
  </section>
  <section id="numbers" type="standard">
    <e><re>[0-9]+</re><p><l></l><r><s n="num"/></r></p></e>
    <e lm="četiri"><p><l>četiri</l><r>četiri<s n="num"/></r></p></e>
  </section>
</dictionary>
"""

EXPECTED = {
    ("kuća", "kuća<n><f><sg><nom>"),
    ("kuće", "kuća<n><f><sg><gen>"),
    ("kuće", "kuća<n><f><pl><nom>"),
    ("ruka", "ruka<n><f><sg><nom>"),
    ("ruke", "ruka<n><f><sg><gen>"),
    ("ruke", "ruka<n><f><pl><nom>"),
    ("selo", "selo<n><nt><sg><nom>"),
    ("sela", "selo<n><nt><sg><gen>"),
    ("ad hoc", "ad hoc<adj>"),
    ("očuvanje mira", "očuvanje<n><nt><sg><nom># mira"),
    ("očuvanja mira", "očuvanje<n><nt><sg><gen># mira"),
    ("sa", "sa<pr>"),
    ("četiri", "četiri<num>"),
}
JOINED = ("ga", "on<prn>+biti<vbser>")

needs_ltcomp = pytest.mark.skipif(
    shutil.which("lt-comp") is None or shutil.which("lt-print") is None,
    reason="lt-comp/lt-print missing: install the Debian package lttoolbox-dev",
)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The test dictionary compiled as analyser (``lr``) and generator (``rl``)."""
    d = tmp_path_factory.mktemp("dix")
    dix = d / "test.dix"
    dix.write_text(DIX, encoding="utf-8")
    out = {}
    for direction in ("lr", "rl"):
        b = d / f"test.{direction}.bin"
        subprocess.run(["lt-comp", direction, str(dix), str(b)], check=True,
                       capture_output=True)
        out[direction] = b
    return out


# --------------------------------------------------------------------------- with lt-comp


@needs_ltcomp
@pytest.mark.parametrize("direction", ["lr", "rl"])
def test_exact_pairs_both_orientations(compiled: dict[str, Path], direction: str) -> None:
    stats = WalkStats()
    pairs = list(iter_pairs(compiled[direction], stats=stats))
    assert set(pairs) == EXPECTED
    assert len(pairs) == len(EXPECTED)
    assert stats.pairs == len(EXPECTED)
    assert stats.skipped_join_arcs >= 1
    assert stats.cyclic_sections == [1]


@needs_ltcomp
def test_explicit_side_matches_autodetect(compiled: dict[str, Path]) -> None:
    assert set(iter_pairs(compiled["lr"], "input")) == EXPECTED
    assert set(iter_pairs(compiled["rl"], "output")) == EXPECTED
    # The wrong side gives analyses as "surfaces": nothing like the expected set.
    assert set(iter_pairs(compiled["lr"], "output")).isdisjoint(EXPECTED)


@needs_ltcomp
def test_options_keep_joins_skip_cyclic_keep_marks(compiled: dict[str, Path]) -> None:
    assert set(iter_pairs(compiled["rl"], skip_joins=False)) == EXPECTED | {JOINED}
    assert set(iter_pairs(compiled["lr"], cyclic="skip")) == EXPECTED - {
        ("četiri", "četiri<num>")}
    marked = set(iter_pairs(compiled["rl"], strip_postgen=False))
    assert ("~sa", "sa<pr>") in marked and ("sa", "sa<pr>") not in marked


@needs_ltcomp
def test_memo_and_plain_walk_agree(compiled: dict[str, Path]) -> None:
    from lexicon.sources.lttoolbox import load_prepared

    for sec in load_prepared(compiled["rl"]):
        plain = sorted(walk_section(sec, memo_limit=0))
        memo = sorted(walk_section(sec, memo_limit=10**9))
        assert plain == memo


# --------------------------------------------------------------------------- pure Python

ATT = "\n".join([
    # section 0: "a b" -> "ab<x>" via a blank, an epsilon, a join path to prune
    "0\t1\ta\ta\t0.000000\t",
    "1\t2\t@_SPACE_@\t@_SPACE_@\t0.000000\t",
    "2\t3\tb\tb\t0.000000\t",
    "3\t4\t@0@\t<x>\t0.000000\t",
    "0\t5\tc\tc\t0.000000\t",
    "5\t6\t@0@\t+\t0.000000\t",
    "6\t4\td\td\t0.000000\t",
    "4\t0.000000",
    "--",
    # section 1: a loop on digits plus a word
    "0\t1\t1\t1\t0.000000\t",
    "1\t1\t2\t2\t0.000000\t",
    "1\t3\t@0@\t<num>\t0.000000\t",
    "0\t2\tw\tw\t0.000000\t",
    "2\t3\t@0@\t<num>\t0.000000\t",
    "3\t0.000000",
])


def test_parse_att_sections_and_escapes() -> None:
    secs = parse_att(ATT)
    assert len(secs) == 2
    assert (2, " ", " ") in secs[0].arcs[1]
    assert (4, "", "<x>") in secs[0].arcs[3]
    assert secs[0].finals == {4} and secs[1].finals == {3}
    assert detect_surface_side(secs) == "input"


def test_walk_prunes_joins_and_cycles_without_looping() -> None:
    stats = WalkStats()
    secs = prepare_sections(parse_att(ATT), "input", stats=stats)
    pairs = [p for s in secs for p in walk_section(s, stats=stats)]
    assert pairs == [("a b", "a b<x>"), ("w", "w<num>")]
    assert stats.cyclic_sections == [1] and stats.skipped_join_arcs == 1
    keep = prepare_sections(parse_att(ATT), "input", skip_joins=False, cyclic="skip")
    assert sorted(p for s in keep for p in walk_section(s)) == [
        ("a b", "a b<x>"), ("cd", "c+d")]


def test_long_path_does_not_hit_recursion_limit() -> None:
    n = 5000
    sec = Section(index=0, arcs={i: [(i + 1, "a", "a")] for i in range(n)}, finals={n})
    sec.arcs[n - 1] = [(n, "a", "<x>")]
    for limit in (0, 10**9):
        pairs = list(walk_section(sec, memo_limit=limit))
        assert pairs == [("a" * n, "a" * (n - 1) + "<x>")]


def test_generator_side_detected_from_tags() -> None:
    secs = parse_att("0\t1\t<n>\t@0@\t0.0\t\n1\t0.0\n")
    assert detect_surface_side(secs) == "output"


@pytest.mark.parametrize(("analysis", "expected"), [
    ("kuća<n><f><sg><nom>", ("kuća", ("n", "f", "sg", "nom"))),
    ("ad hoc<adj><pst><ma><sg><dat><ind>",
     ("ad hoc", ("adj", "pst", "ma", "sg", "dat", "ind"))),
    ("očuvanje<n><nt><sg><nom># mira", ("očuvanje mira", ("n", "nt", "sg", "nom"))),
    ("take# out<vblex><inf>", ("take out", ("vblex", "inf"))),
    ("Tone<np><ant><m><sg><nom>", ("Tone", ("np", "ant", "m", "sg", "nom"))),
    ("bare", ("bare", ())),
])
def test_parse_analysis(analysis: str, expected: tuple[str, tuple[str, ...]]) -> None:
    assert parse_analysis(analysis) == expected


def test_tokenize_analysis() -> None:
    assert tokenize_analysis("ab<n><sg>") == ["a", "b", "<n>", "<sg>"]
    assert tokenize_analysis("a<b") == ["a", "<", "b"]
