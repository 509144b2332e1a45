"""Remik plays the osps vocabulary: its release links osps's files, pinned to one release."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from lexicon.build.amend import derive
from lexicon.build.pipeline import BuildContext, build_game

from lexicon.catalog import Catalog
from lexicon.errors import InputError
from lexicon.store import published
from tests.conftest import POLISH_RECORDS, publish, rec

LONG = "pięćdziesięcioro"        # 16 letters: remik plays it, osps (15 at most) does not


def _manifest(path: Path) -> dict:
    return json.loads((path / "manifest.json").read_text())


@pytest.fixture()
def shared(home: Path) -> tuple[Path, Path]:
    osps = publish(home, "osps", [*POLISH_RECORDS, rec(LONG)])
    remik = build_game("remik", BuildContext(root=home, log=lambda _m: None))
    return osps, remik


def test_remik_links_the_osps_files_and_writes_no_copy(shared: tuple[Path, Path]) -> None:
    osps, remik = shared
    m = _manifest(remik)
    assert m["vocabulary"]["release"] == osps.name
    assert m["vocabulary"]["content_sha256"] == _manifest(osps)["content_sha256"]
    linked = [p for p in remik.rglob("*") if p.is_file() and p.name != "manifest.json"]
    assert linked and m["own_bytes"] == 0
    for path in linked:   # the very same inode as the osps file: on disk once
        assert path.stat().st_ino == (osps / path.relative_to(remik)).stat().st_ino


def test_remik_answers_with_its_own_play_rules(shared: tuple[Path, Path], home: Path) -> None:
    cat = Catalog(home)
    assert cat.lexicon("remik").check(LONG)["valid"]
    assert cat.lexicon("osps").check(LONG)["reason"]["code"] == "too_long"
    assert cat.lexicon("remik").check("ul")["reason"]["code"] == "too_short"
    assert cat.lexicon("remik").check("np")["reason"]["code"] == "abbreviation"
    # one index (osps's, 2-15 letters) serves both games, each within its own lengths;
    # remik's manifest says which of its lengths no query lists
    words = lambda g, p: [r["key"] for r in cat.lexicon(g).pattern(p)["results"]]  # noqa: E731
    assert words("osps", "??") == ["ul"] and words("remik", "??") == []
    assert words("osps", "k??") == words("remik", "k??") == ["kot"]
    entry = cat.release("remik").manifest["indexes"]
    assert entry["lengths"] == [3, 15] and entry["not_indexed"]["lengths"] == [16, 64]


def test_a_new_osps_release_does_not_change_a_published_remik(
        shared: tuple[Path, Path], home: Path) -> None:
    _osps, remik = shared
    time.sleep(1.1)
    publish(home, "osps", [*POLISH_RECORDS[1:], rec("pies")])     # zażółć gone, pies new
    cat = Catalog(home)
    assert not cat.lexicon("osps").check("zażółć")["valid"]
    assert cat.lexicon("remik").check("zażółć")["valid"]    # still the pinned osps
    assert published.current_id("remik", home) == remik.name
    newer = build_game("remik", BuildContext(root=home, log=lambda _m: None))
    assert _manifest(newer)["vocabulary"]["release"] == published.current_id("osps", home)
    assert Catalog(home).lexicon("remik").check("pies")["valid"]


def test_remik_is_amended_through_osps(shared: tuple[Path, Path], home: Path) -> None:
    with pytest.raises(InputError, match="plays the osps vocabulary") as err:
        derive("remik", root=home)
    assert err.value.code == "linked_game"
