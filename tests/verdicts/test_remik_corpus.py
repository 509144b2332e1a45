"""The Remik move corpus (tests/data/remik-moves.json), ruled by the library.

The same file is ruled in Chromium by the page's offline ruling
(tests/page/test_remik_offline.py): one corpus, two rulings that must both give it. It is
made by ``python -m tools.remik_moves --corpus`` (moves drawn by tools.remik_moves.draw,
ruled on a release of its words); a change of ruling shows as a changed line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lexicon.catalog import Catalog
from tests.conftest import SmallHomes, publish
from tools.remik_moves import project, records, rule

CORPUS = Path(__file__).parents[1] / "data" / "remik-moves.json"


def load() -> dict:
    return json.loads(CORPUS.read_text(encoding="utf-8"))


@pytest.fixture()
def table(home: Path, small_homes: SmallHomes) -> Path:
    return small_homes("remik-corpus", home,
                       make=lambda root: publish(root, "remik", records()))


def test_the_library_rules_the_corpus_as_it_says(table: Path) -> None:
    data = load()
    lex = Catalog(table).lexicon("remik")
    differ = [(case["move"], case["ruling"], got) for case in data["moves"]
              if (got := project(rule(lex, case["move"], data["lang"]))) != case["ruling"]]
    assert not differ, differ[:3]


def test_the_corpus_holds_every_kind_of_ruling() -> None:
    """Leftovers, penalties, openings, re-openings, each outcome, unreadable moves."""
    seen: Counter[str] = Counter()
    for case in load()["moves"]:
        r = case["ruling"]
        if "error" in r:
            seen["error"] += 1
            continue
        seen[r["outcome"][0]] += 1
        seen[r["kind"]] += 1
        seen["leftover"] += bool(r["to_shelf"])
        seen["variant 2"] += r["variant"] == 2
        seen.update(code for code, _text in r["reasons"])
        seen.update(w["kind"] for w in r["words"])
        seen[f"reading {r['reading']}"] += 1
    for kind in ("move_stands", "move_taken_back", "move_wrong_word", "opening", "reopening",
                 "leftover", "variant 2", "error", "remnant", "rebuilt", "new",
                 "table_tile_not_relaid", "leftover_letters", "opening_too_short",
                 "too_short", "tiles_not_conserved", "repeated_arrangement",
                 "reading own_said", "reading own_assumed"):
        assert seen[kind] >= 1, kind
