"""The commands docs/games/remik.md shows, run: each example's comment is its ruling.

A line ``.venv/bin/lexicon judge remik ARGS   # stands: P points, penalty N`` or ``# falls:
code, code`` in the page's shell blocks is run by the CLI on a small real release holding
the words the examples lay, and must rule as it says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.conftest import SmallHomes, lexicon, publish, rec

PAGE = Path(__file__).parents[2] / "docs" / "games" / "remik.md"
EXAMPLE = re.compile(r"^\.venv/bin/lexicon judge remik (?P<args>.+?)\s+#\s*(?P<claim>.+)$")
STANDS = re.compile(r"stands: (?P<points>\d+) points?, penalty (?P<penalty>\d+)$")
FALLS = re.compile(r"falls: (?P<codes>[a-z_]+(?:, [a-z_]+)*)$")
WORDS = ["kot", "koty", "kotek", "dom", "domek", "lis", "las"]


def examples() -> list[tuple[str, str]]:
    found = [(m["args"], m["claim"]) for line in PAGE.read_text().splitlines()
             if (m := EXAMPLE.match(line.strip()))]
    assert len(found) >= 6, "the page's examples are gone: this test reads none"
    return found


@pytest.fixture()
def table(home: Path, small_homes: SmallHomes) -> Path:
    return small_homes("remik-docs", home, make=lambda root: publish(
        root, "remik", [rec(w) for w in WORDS]))


@pytest.mark.parametrize("args, claim", examples())
def test_the_page_rules_as_it_says(table: Path, args: str, claim: str) -> None:
    p = lexicon(table, "judge", "remik", *shlex.split(args), "--json")
    r = json.loads(p.stdout)
    if m := STANDS.match(claim):
        assert r["valid"], (args, r["reasons"])
        assert (r["points"], r["penalty"]) == (int(m["points"]), int(m["penalty"]))
    else:
        m = FALLS.match(claim)
        assert m, f"unreadable claim {claim!r}"
        assert not r["valid"]
        assert [x["code"] for x in r["reasons"]] == m["codes"].split(", ")
