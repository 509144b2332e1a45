"""Older editions and canaries: `check --release` / `release=` answer from an older
published release; a build that flips a canary word is not published."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import StaticBuilder, rec
from fastapi.testclient import TestClient
from lexicon.build.canaries import CanaryFailed
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.service.app import create_app

from lexicon.game import profile as profiles
from lexicon.store import published
from tests.export.test_export import run

OSPS_OK = [rec(w) for w in ("zażółć", "gęślą", "jaźń", "źdźbło", "kot", "ul", "kotek", "al",
                             "pachnęłoś", "niepodkuć")] + [
    rec("np", valid=False, code="abbreviation", message="abbreviation"),
    rec("itd", valid=False, code="abbreviation", message="abbreviation"),
]


def build(home: Path, game: str, records: list, canaries: bool | None = None) -> Path:
    ctx = BuildContext(root=home, log=lambda _m: None, canaries=canaries)
    return build_game(game, ctx, builder=StaticBuilder(game, records))


def test_every_profile_has_canaries_both_ways() -> None:
    for p in map(profiles.load, profiles.game_ids()):
        assert p.canaries.get("valid") and p.canaries.get("invalid"), p.id


def test_a_build_that_flips_a_canary_is_not_published(home: Path) -> None:
    first = build(home, "osps", OSPS_OK, canaries=True)
    m = json.loads((first / "manifest.json").read_text("utf-8"))
    assert m["canaries"]["checked"] and "zażółć" in m["canaries"]["valid"]
    # "np" admitted and "jaźń" lost: both canaries flip
    flipped = [r for r in OSPS_OK if r.key not in ("np", "jaźń")] + [rec("np")]
    with pytest.raises(CanaryFailed) as err:
        build(home, "osps", flipped, canaries=True)
    assert err.value.code == "canary_failed"
    assert {f["word"] for f in err.value.detail["flipped"]} == {"np", "jaźń"}
    assert "jaźń (expected valid)" in err.value.message
    assert published.current_id("osps", home) == first.name     # the old one keeps serving
    assert [p.name for p in (home / "releases" / "osps").iterdir()
            if p.name.startswith(".staging")] == []
    # a test build of a tiny list (not the real sources) skips them unless asked
    assert build(home, "osps", flipped).exists()


def test_check_answers_from_an_older_release(home: Path) -> None:
    old = build(home, "osps", [rec("kot"), rec("ul")]).name
    new = build(home, "osps", [rec("kot"), rec("kotek")]).name
    p = run(home, "check", "osps", "ul", "--json")
    assert p.exit_code == 1 and json.loads(p.output)["release"] == new
    p = run(home, "check", "osps", "ul", "--release", old, "--json")
    assert p.exit_code == 0, p.output
    assert json.loads(p.output)["release"] == old and json.loads(p.output)["valid"]
    p = run(home, "check", "osps", "ul", "--release", "osps-20000101T000000Z-deadbeef")
    assert p.exit_code == 2 and "unknown_release" in p.output

    with TestClient(create_app(home)) as client:
        r = client.get("/v1/games/osps/words/ul", params={"release": old})
        assert r.status_code == 200, r.json()
        assert r.json()["valid"] and r.json()["release"] == old
        r = client.get("/v1/games/osps/words/ul")
        assert not r.json()["valid"] and r.json()["release"] == new
        r = client.post("/v1/games/osps/check", params={"release": old},
                        json={"words": ["ul", "kotek"]})
        body = r.json()
        assert body["release"] == old and [x["valid"] for x in body["results"]] == [True, False]
        r = client.get("/v1/games/osps/words/ul", params={"release": "nope"})
        assert r.status_code == 404 and r.json()["code"] == "unknown_release"
        r = client.get("/v1/games/osps/words/ul", params={"release": "../kvizovka"})
        assert r.status_code == 404 and r.json()["code"] == "unknown_release"


def test_an_amend_that_flips_a_canary_is_not_published(home: Path, tmp_path: Path) -> None:
    from lexicon.build import amend

    first = build(home, "osps", OSPS_OK, canaries=True)
    fix = tmp_path / "fix.tsv"
    fix.write_text("zażółć\tremove\tmistaken ruling\nkotek\tremove\tnot a word\n", "utf-8")
    with pytest.raises(CanaryFailed) as err:
        amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    assert [f["word"] for f in err.value.detail["flipped"]] == ["zażółć"]
    assert "edit [canaries]" in err.value.message
    assert published.current_id("osps", home) == first.name     # nothing published
    # an override that touches no canary publishes, and says the canaries were checked
    fix.write_text("kotek\tremove\tnot a word\n", "utf-8")
    second = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    assert json.loads((second / "manifest.json").read_text("utf-8"))["canaries"]["checked"]
