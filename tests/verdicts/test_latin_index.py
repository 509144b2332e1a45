"""Kvizovka's Latin-spelling index: a Latin batch answered as one membership test.

The index must say exactly what the checker says, on the board's inside and at its edge,
for every valid word's Latin spelling and for the spellings around them (a digraph read as
two tiles, a three-tile word off the edge, a word whose preferred tiling is no word), in
the small-batch path (the tries), the big-batch path (hash arrays) and mixed-script
batches; and a release without it (built before it existed) answers the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import publish, rec
from lexicon.cli.main import app
from typer.testing import CliRunner

from lexicon.catalog import Catalog
from lexicon.game.profile import load
from lexicon.game.tiles import speller
from lexicon.store import membership
from lexicon.verdicts import fastcheck

KV = [
    rec("љубав", word="ljubav", category="noun"),
    rec("лубав", word="lubav", category="noun"),         # l+ubav: to tell LJ from L
    rec("њива", word="njiva", category="noun"),
    rec("нјива", word="njiva", category="noun"),          # N+J spelled the same: two keys
    rec("конјугација", word="konjugacija", category="noun"),  # N+J, the only tiling
    rec("коњ", word="konj", category="noun"),             # 3 tiles: the edge only
    rec("конј", word="konj", category="noun"),            # 4 tiles, but коњ decides "konj"
    rec("џеп", word="džep", category="noun"),
    rec("бор", word="bor", category="noun"),
    rec("надживети", word="nadživeti", category="verb"),  # D+Ž: nad-živeti
    rec("кућа", word="kuća", category="noun"),
    rec("кући", word="kući", valid=False, code="inflected_form", message="dative"),
    rec("љљљљ", word="ljljljlj", category="noun"),
    rec("лјлјлјлј", word="ljljljlj", category="noun"),
]
AROUND = ["konj", "kon|j", "kondž", "njiva", "nјiva", "ljubav", "lubav", "ljuba", "džep",
          "dzep", "bor", "kuća", "kući", "nadživeti", "nadzivetі", "konjugacija",
          "ljljljlj", "ljljlj", "sunce", "", "KONJ", "LjUbAv"]


@pytest.fixture(scope="module")
def cat(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("latin-home")
    publish(root, "kvizovka", KV)
    return Catalog(root)


def typed(cat: Catalog) -> list[str]:
    spell = speller(load("kvizovka"))
    rel = cat.release("kvizovka")
    return sorted({spell.to_latin(k) for k in rel.indexes.words.iterkeys()}) + AROUND


def checked(cat: Catalog, words: list[str], edge: bool) -> list[bool]:
    return [cat.lexicon("kvizovka").check_many([w], edge=edge)[0]["valid"] for w in words]


def test_release_carries_the_latin_spellings(cat: Catalog) -> None:
    rel = cat.release("kvizovka")
    entry = rel.manifest["indexes"]
    assert {"latin.marisa", "latin-edge.marisa"} <= set(entry["files"])
    inside, edge = set(rel.indexes.latin.keys()), set(rel.indexes.latin_edge.keys())
    assert "konj" in edge and "konj" not in inside and "džep" in edge - inside
    assert inside < edge and entry["latin"] == {"inside": len(inside), "edge": len(edge)}
    assert "kući" not in edge and "ljubav" in inside


@pytest.mark.parametrize("edge", [False, True])
def test_index_answers_as_the_checker_on_every_word(cat: Catalog, edge: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    words = typed(cat)
    expected = checked(cat, words, edge)
    assert any(expected) and not all(expected)
    assert cat.lexicon("kvizovka").valid(words, edge=edge) == expected
    # every word alone (no whole-batch path) and mixed with Cyrillic
    assert [cat.lexicon("kvizovka").valid([w], edge=edge)[0] for w in words] == \
        expected
    mixed = [*words, "кућа", "коњ"]
    assert cat.lexicon("kvizovka").valid(mixed, edge=edge) == \
        expected + checked(cat, ["кућа", "коњ"], edge)
    # the big-batch path: the Latin hash arrays, not the speller
    rel = cat.release("kvizovka")
    membership.prepare(rel, "latin_edge" if edge else "latin")
    plain = [w for w in words if (w.isalpha() and w.isascii()) or set(w) & set("ćčšžđ")]
    want = checked(cat, plain, edge)
    big = plain * (membership.MIN_BATCH // len(plain) + 1)
    monkeypatch.setattr(fastcheck, "decided_key", None)
    monkeypatch.setattr(fastcheck.checker, "check_word", None)
    assert cat.lexicon("kvizovka").valid(big, edge=edge) == \
        want * (len(big) // len(plain))


def test_release_without_the_index_answers_the_same(cat: Catalog, tmp_path: Path) -> None:
    """A release published before the index existed: the speller path, same verdicts."""
    words = typed(cat)
    expected = [checked(cat, words, edge) for edge in (False, True)]
    root = tmp_path / "old-home"
    publish(root, "kvizovka", KV)
    rel_dir = next((root / "releases" / "kvizovka").glob("kvizovka-*"))
    manifest = json.loads((rel_dir / "manifest.json").read_text())
    del manifest["indexes"]["latin"]
    (rel_dir / "manifest.json").write_text(json.dumps(manifest))
    old = Catalog(root)
    assert old.release("kvizovka").indexes.latin is None
    for edge, want in zip((False, True), expected, strict=True):
        assert old.lexicon("kvizovka").valid(words, edge=edge) == want
    old.close()
    # `lexicon repack kvizovka` gives such a release its Latin spellings
    p = CliRunner().invoke(app, ["repack", "kvizovka"], env={"LEXICON_HOME": str(root)})
    assert p.exit_code == 0, p.output
    new = Catalog(root)
    rel = new.release("kvizovka")
    assert rel.id != rel_dir.name and rel.indexes.latin is not None
    assert new.lexicon("kvizovka").valid(words, edge=True) == expected[1]
    new.close()


def test_games_without_digraph_tiles_carry_no_latin_index(tmp_path: Path) -> None:
    root = tmp_path / "pl"
    publish(root, "osps", [rec("kot")])
    cat = Catalog(root)
    rel = cat.release("osps")
    assert "latin" not in rel.manifest["indexes"] and rel.indexes.latin is None
    assert cat.lexicon("osps").valid(["kot", "kto"]) == [True, False]
    cat.close()
