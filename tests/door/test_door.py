"""The front door: one Lexicon per release, made once, answering from the release it pinned."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app

import lexicon
from lexicon import Catalog, Lexicon
from lexicon.errors import NoRelease, UnknownGame
from lexicon.queries.queries import pattern
from lexicon.verdicts.checker import check_word
from tests.conftest import POLISH_RECORDS, publish, rec
from tools.doc_examples import all_blocks


def test_a_lexicon_answers_as_the_library_does(small_releases: Path) -> None:
    cat = Catalog(small_releases)
    osps = cat.lexicon("osps")
    assert osps.game == "osps" and osps.release_id == cat.release("osps").id
    assert osps.check("zażółć") == check_word(cat.profile("osps"), cat.release("osps"), "zażółć")
    assert osps.check("np", lang="en") == check_word(cat.profile("osps"), cat.release("osps"), "np",
                                                     lang="en")
    assert osps.valid(["zażółć", "np", ""]) == [True, False, False]
    assert [r["valid"] for r in osps.check_many(["gęślą", "np"])] == [True, False]
    assert osps.pattern("?A??K") == pattern(cat.profile("osps"), cat.release("osps"), "?A??K")
    assert osps.judge(["zażółć", "np"], log=False)["verdict"] == "falls"
    assert osps.language() == "pl" and osps.speller.to_latin("kot") == "kot"
    assert osps.rules.lengths() == (2, 15)


def test_the_catalog_makes_one_lexicon_per_release(small_releases: Path) -> None:
    """Asking on every request costs no new object: the same Lexicon comes back until
    CURRENT names another release."""
    cat = Catalog(small_releases)
    first = cat.lexicon("osps")
    assert cat.lexicon("osps") is first and cat.lexicon("osps", every_file=True) is first
    assert cat.lexicon("osps", first.release_id) is first
    time.sleep(1.1)     # a new release id
    publish(small_releases, "osps", [*POLISH_RECORDS, rec("pies")])
    second = cat.lexicon("osps")
    assert second is not first and second.check("pies")["valid"]
    assert cat.lexicon("osps", first.release_id) is first      # still open: held here


def test_a_lexicon_keeps_its_release_through_a_publish(small_releases: Path) -> None:
    """What the ContextVar pin did: every answer of one Lexicon, and its label, come from
    the release it was opened on, whatever CURRENT says meanwhile."""
    cat = Catalog(small_releases)
    lex = cat.lexicon("osps")
    time.sleep(1.1)
    publish(small_releases, "osps", [*POLISH_RECORDS, rec("pies")])
    assert not lex.check("pies")["valid"]
    assert lex.check("pies")["release"] == lex.release_id
    assert lex.valid(["pies"]) == [False]
    assert lex.judge(["pies"], log=False)["release"] == lex.release_id
    assert cat.lexicon("osps").check("pies")["valid"]


def test_open_shares_one_catalog_per_home(small_releases: Path) -> None:
    a = lexicon.open("osps", root=small_releases)
    assert lexicon.open("osps", root=small_releases) is a
    assert lexicon.open("osps", root=small_releases / ".." / small_releases.name) is a
    with pytest.raises(UnknownGame):
        lexicon.open("chess", root=small_releases)
    with pytest.raises(NoRelease):
        lexicon.open("krizemkrazem", root=small_releases)


def test_a_lexicon_is_plain_data_below_any_catalog(small_releases: Path,
                                                   tmp_path: Path) -> None:
    """A Lexicon is a profile, a release and the home its rulings are logged in: made by
    hand it answers like the catalog's, logs in the home it was given, and without a way
    to open another release it says so instead of guessing one."""
    cat = Catalog(small_releases)
    served = cat.lexicon("osps")
    own = Lexicon(served.profile, served.release, tmp_path)
    assert own.check("zażółć") == served.check("zażółć")
    assert own.judge(["kot"])["verdict"] == "stands"
    assert list((tmp_path / "rulings").iterdir())
    with pytest.raises(ValueError, match="opener"):
        own.diff("osps-older")


def test_the_route_reads_repeated_parameters_as_fastapi_does(small_releases: Path) -> None:
    """One reading of the query for the lane and the route: the last value of a repeated
    parameter counts, as in Starlette's query parameters."""
    client = TestClient(create_app(small_releases))
    assert client.get("/v1/games/kvizovka/words/džep?edge=maybe&edge=true").json()["valid"]
    assert not client.get("/v1/games/kvizovka/words/džep?edge=true&edge=0").json()["valid"]
    bad = client.get("/v1/games/kvizovka/words/džep?edge=true&edge=maybe")
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "edge"]


def test_the_readme_example_runs(small_releases: Path) -> None:
    """The library examples of the README, every ``python`` block, and those of the pages
    of ``docs/`` marked ``<!-- example: run-NAME -->`` (``tools/doc_examples.py``), run as
    written against a small release."""
    root = Path(__file__).resolve().parents[2]
    readme = re.findall(r"```python\n(.*?)```", (root / "README.md").read_text("utf-8"), re.S)
    docs = [(b.where, b.body) for b in all_blocks() if b.fence == "python" and b.kind == "run"]
    assert readme and docs
    for where, code in [("README.md", c) for c in readme] + docs:
        exec(compile(code, f"{where}: python example", "exec"), {})
