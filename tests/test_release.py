"""Publishing releases: immutability, atomic switch, manifests, diffs, crash safety."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from build.pipeline import BuildContext, build_game
from lexicon import releases
from lexicon.catalog import Catalog
from lexicon.errors import BuildError
from tests.conftest import POLISH_RECORDS, StaticBuilder, publish, rec


def test_publish_writes_manifest_counts_and_current(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["game"] == "osps" and manifest["release"] == path.name
    assert manifest["counts"]["valid"] == 5 and manifest["counts"]["rejected"] == 2
    assert manifest["counts"]["by_reason"] == {"abbreviation": 1, "hyphen_or_apostrophe": 1}
    assert len(manifest["content_sha256"]) == 64
    assert manifest["size_bytes"] > 0 and manifest["rules_version"] == "pl-1"
    assert releases.current_id("osps", home) == path.name
    assert not list((home / "releases" / "osps").glob(".staging-*"))


def test_second_release_diffs_against_the_first(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    second = publish(home, "osps", [*POLISH_RECORDS[1:], rec("pies")])
    m = json.loads((second / "manifest.json").read_text())
    assert m["previous"] == first.name
    assert m["diff"]["added"] == 1 and m["diff"]["added_sample"] == ["pies"]
    assert m["diff"]["removed"] == 1 and m["diff"]["removed_sample"] == ["zażółć"]
    assert (second / "diff-added.txt").read_text().split() == ["pies"]
    rows = releases.list_releases("osps", home)
    assert [r["current"] for r in rows] == [True, False]


def test_crashed_build_leaves_previous_release_serving(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    before = sorted(p.name for p in first.rglob("*"))
    ctx = BuildContext(root=home, log=lambda _m: None)
    with pytest.raises(Exception, match="simulated crash"):
        build_game("osps", ctx, builder=StaticBuilder("osps", POLISH_RECORDS, fail_after=3))
    assert releases.current_id("osps", home) == first.name
    assert sorted(p.name for p in first.rglob("*")) == before
    assert not list((home / "releases" / "osps").glob(".staging-*"))
    cat = Catalog(home)
    assert cat.release("osps").is_valid("jaźń")


def test_empty_build_is_refused(home: Path) -> None:
    ctx = BuildContext(root=home, log=lambda _m: None)
    with pytest.raises(BuildError, match="admitted no word"):
        build_game("osps", ctx, builder=StaticBuilder("osps", [rec("np", valid=False,
                                                                    code="abbreviation")]))
    assert releases.current_id("osps", home) is None


def test_records_for_one_key_are_merged_valid_first(home: Path) -> None:
    path = publish(home, "osps", [
        rec("bóg", valid=False, word="Bóg", code="capitalised"),
        rec("bóg", word="bóg", tags="subst:sg:nom:m1"),
    ])
    r = Catalog(home).release("osps").get("bóg")
    assert r is not None and r.valid and r.word == "bóg"
    assert json.loads((path / "manifest.json").read_text())["policy"]["merged_spellings"] == 1


def test_two_rejected_spellings_keep_the_lowercase_reason(home: Path) -> None:
    publish(home, "osps", [
        rec("np", valid=False, word="Np", code="capitalised", message="capital"),
        rec("np", valid=False, word="np", code="abbreviation", message="reviewed list"),
        rec("kot"),
    ])
    r = Catalog(home).release("osps").get("np")
    assert r is not None and r.reason_code == "abbreviation" and r.word == "np"


def test_repeated_strings_are_interned(home: Path) -> None:
    path = publish(home, "osps", [rec(f"kot{'a' * i}", tags="subst:sg:nom:m2", category="noun")
                                  for i in range(50)])
    rel = Catalog(home).release("osps")
    assert rel.strings.items.count("subst:sg:nom:m2") == 1
    r = rel.get("kotaaa")
    assert r is not None and r.analyses[0].tags == "subst:sg:nom:m2" and r.category == "noun"
    assert r.analyses[0].lemma == "kotaaa" and r.evidence == ["test list"]
    assert path.name == rel.id


def test_content_hash_covers_message_text(home: Path) -> None:
    a = publish(home, "osps", [rec("kot"), rec("np", valid=False, code="abbreviation",
                                                 message="first wording")])
    b = publish(home, "osps", [rec("kot"), rec("np", valid=False, code="abbreviation",
                                                 message="second wording")])
    ma = json.loads((a / "manifest.json").read_text())
    mb = json.loads((b / "manifest.json").read_text())
    assert ma["content_sha256"] != mb["content_sha256"]


def test_unique_messages_stay_inline(home: Path) -> None:
    publish(home, "osps", [rec("kot")] + [
        rec(f"kot{'a' * i}", valid=False, code="capitalised", message="capital") for i in
        range(1, 5)] + [rec("psa", valid=False, code="abbreviation", message="only here")])
    rel = Catalog(home).release("osps")
    assert "capital" not in rel.strings.items  # repeated texts are read on demand
    assert rel.strings.lazy_text(0) == "capital"
    r = rel.get("psa")
    assert r is not None and r.reason_message == "only here"
    assert rel.get("kotaa").reason_message == "capital"  # type: ignore[union-attr]


def test_same_records_give_the_same_content_hash_whatever_the_order(home: Path) -> None:
    records = [*POLISH_RECORDS, rec("wg", valid=False, code="abbreviation", message="list"),
               rec("kota", tags="subst:sg:gen:m2", lemma="kot", category="noun")]
    a = publish(home / "first", "osps", records)
    b = publish(home / "second", "osps", list(reversed(records)))
    ma = json.loads((a / "manifest.json").read_text())
    mb = json.loads((b / "manifest.json").read_text())
    assert ma["content_sha256"] == mb["content_sha256"]
