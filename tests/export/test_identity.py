"""A release's identity (Quackle content hash, counts by length, licences and credits) and
`lexicon diff` between editions."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import publish, rec
from lexicon.sources.fetch import load_manifest
from test_export import lines, run

from lexicon.store import published

FIRST = [rec("kot"), rec("kota"), rec("ul"), rec("np", valid=False, code="abbreviation"),
         rec("x" * 16), rec("a")]
SECOND = [rec("kot"), rec("kotek"), rec("kotka"), rec("las"), rec("np", valid=False,
                                                                  code="abbreviation")]


def manifest(home: Path, game: str, release_id: str | None = None) -> dict:
    rid = release_id or published.current_id(game, home)
    return json.loads((home / "releases" / game / rid / "manifest.json").read_text("utf-8"))


def test_manifest_content_hash_is_recomputable_from_the_export(home: Path,
                                                                tmp_path: Path) -> None:
    publish(home, "osps", FIRST)
    m = manifest(home, "osps")
    assert m["counts_by_length"] == {"2": 1, "3": 1, "4": 1}   # 16 letters and 1 not playable
    assert "XOR of the MD5" in m["content_hash_recipe"]
    words = tmp_path / "osps.txt"
    assert run(home, "export", "osps", "-o", str(words)).exit_code == 0
    got = json.loads(run(home, "hash", str(words)).output)
    assert got["content_hash"] == m["content_hash"]
    assert got["counts_by_length"] == m["counts_by_length"]
    # order-independent: the same words shuffled give the same hash
    words.write_text("ul\nkota\nkot\n", encoding="utf-8")
    assert json.loads(run(home, "hash", str(words)).output)["content_hash"] == m["content_hash"]
    words.write_text("ul\nkota\n", encoding="utf-8")
    assert json.loads(run(home, "hash", str(words)).output)["content_hash"] != m["content_hash"]


def test_every_source_carries_its_licence_and_credit() -> None:
    specs = load_manifest()
    assert specs
    for spec in specs.values():
        assert spec.license.strip() and spec.credit.strip(), spec.id
    assert "sjp.pl" in specs["wpolish"].credit


def test_diff_lists_added_and_removed_words_by_length(home: Path) -> None:
    publish(home, "osps", FIRST)
    old = published.current_id("osps", home)
    publish(home, "osps", SECOND)
    new = published.current_id("osps", home)
    p = run(home, "diff", "osps", "--json")
    assert p.exit_code == 0, p.output
    d = json.loads(p.output)
    assert (d["old"], d["new"]) == (old, new)
    assert d["added"] == {"count": 3, "by_length": {"3": 1, "5": 2},
                          "words": ["kotek", "kotka", "las"]}
    assert d["removed"] == {"count": 2, "by_length": {"2": 1, "4": 1}, "words": ["kota", "ul"]}
    assert d["new_content_hash"] == manifest(home, "osps")["content_hash"]
    text = run(home, "diff", "osps", old, new).output.splitlines()
    assert text[1] == "added 3, removed 2"
    assert text[2].split() == ["length", "2", "3", "4", "5"]
    assert text[3].split() == ["+", "0", "1", "0", "2"]
    assert text[-5:] == ["+kotek", "+kotka", "+las", "-kota", "-ul"]
    # reversed: what was added is removed
    back = json.loads(run(home, "diff", "osps", new, old, "--json").output)
    assert back["removed"]["words"] == ["kotek", "kotka", "las"]
    # the export of each edition, by id, agrees with the diff
    assert set(lines(home, "osps", "--release", new)) - set(lines(home, "osps", "--release", old)) \
        == {"kotek", "kotka", "las"}


def test_diff_errors(home: Path) -> None:
    publish(home, "osps", FIRST)
    p = run(home, "diff", "osps")
    assert p.exit_code == 2 and "no_previous_release" in p.output
    p = run(home, "diff", "osps", "osps-nope")
    assert p.exit_code == 2 and "unknown_release" in p.output


def test_diff_summary_gives_verdicts_by_reason_and_classes_with_samples(home: Path) -> None:
    """The edition diff of issue 17: counts by verdict and reason before and after, and the
    added and removed words by class (Polish: inhabitant names that moved to a capital, the
    deleted -skość derivations, words no source lists any more)."""
    publish(home, "osps", [
        rec("kot"), rec("moskwianin"), rec("chojniczanka"), rec("bełchatowskość"),
        rec("wołżańskościami"), rec("żłobyrka"), rec("kotek", valid=False, code="unattested"),
        rec("np", valid=False, code="abbreviation")])
    old = published.current_id("osps", home)
    publish(home, "osps", [
        rec("kot"), rec("kotek"), rec("las"),
        rec("moskwianin", valid=False, word="Moskwianin", code="inhabitant_capitalised"),
        rec("chojniczanka", valid=False, word="Chojniczanka", code="inhabitant_capitalised"),
        rec("np", valid=False, code="abbreviation")])
    new = published.current_id("osps", home)
    p = run(home, "diff", "osps", "--summary", "--json")
    assert p.exit_code == 0, p.output
    d = json.loads(p.output)
    assert (d["old"], d["new"]) == (old, new)
    assert d["verdicts"]["old"]["valid"] == 6 and d["verdicts"]["new"]["valid"] == 3
    assert d["verdicts"]["by_reason"] == {"abbreviation": [1, 1],
                                          "inhabitant_capitalised": [0, 2],
                                          "unattested": [1, 0]}
    removed = d["removed"]["classes"]
    assert d["removed"]["count"] == 5
    assert removed["now inhabitant_capitalised"] == {
        "count": 2, "samples": ["chojniczanka", "moskwianin"]}
    assert removed["skosc_derivation"]["samples"] == ["bełchatowskość", "wołżańskościami"]
    assert removed["no_longer_listed"]["samples"] == ["żłobyrka"]
    added = d["added"]["classes"]
    assert added == {"new_to_the_sources": {"count": 1, "samples": ["las"]},
                     "was unattested": {"count": 1, "samples": ["kotek"]}}
    text = run(home, "diff", "osps", "--summary", "--samples", "1").output
    assert "inhabitant_capitalised" in text and "0 ->          2  (+2)" in text
    assert "- now inhabitant_capitalised: 2" in text and "e.g. chojniczanka" in text
    assert "moskwianin" not in text            # one sample per class
