"""`lexicon import`: an authoritative list pinned by sha256 and applied by every build as
restrict, admit or annotate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import StaticBuilder, rec
from test_export import lines, run

from build.pipeline import BuildContext, build_game
from lexicon import checker
from lexicon.catalog import Catalog
from lexicon.errors import SourceError

RECORDS = [rec("kot"), rec("kota"), rec("pies"), rec("np", valid=False, code="abbreviation",
                                                       message="abbreviation")]


def build(home: Path) -> Path:
    ctx = BuildContext(root=home, log=lambda _m: None)
    return build_game("osps", ctx, builder=StaticBuilder("osps", RECORDS))


def pin(home: Path, tmp_path: Path, mode: str, words: str) -> dict:
    path = tmp_path / "gry.txt"
    path.write_text(words, encoding="utf-8")
    p = run(home, "import", "osps", str(path), "--mode", mode, "--licence", "CC-BY-4.0",
            "--credit", "sjp.pl")
    assert p.exit_code == 0, p.output
    return json.loads(p.output)


def verdict(home: Path, word: str) -> dict:
    cat = Catalog(home)
    try:
        return checker.check_word(cat, "osps", word)
    finally:
        cat.close()


def test_restrict_keeps_only_the_lists_words(home: Path, tmp_path: Path) -> None:
    got = pin(home, tmp_path, "restrict", "# słownik do gier\nkot\nPIES\nżubr\n")
    assert got["words"] == 3 and got["mode"] == "restrict"
    path = build(home)
    assert lines(home, "osps") == ["kot", "pies"]
    v = verdict(home, "kota")
    assert v["reason"]["code"] == "not_in_imported_list"
    assert "gry" in json.dumps(v["reason"], ensure_ascii=False)
    assert verdict(home, "żubr")["reason"]["code"] == "unknown"   # a list does not invent
    m = json.loads((path / "manifest.json").read_text("utf-8"))
    src = next(s for s in m["sources"] if s["kind"] == "import")
    assert src["sha256"] == got["sha256"] and src["mode"] == "restrict"
    assert src["license"] == "CC-BY-4.0" and src["credit"] == "sjp.pl"


def test_admit_makes_the_lists_words_valid(home: Path, tmp_path: Path) -> None:
    pin(home, tmp_path, "admit", "np\nżubr\n")
    build(home)
    assert lines(home, "osps") == ["kot", "kota", "np", "pies", "żubr"]
    v = verdict(home, "żubr")
    assert v["valid"] and v["sources"] == ["import:gry"]
    assert v["evidence"] == ["listed in the imported list gry"]


def test_annotate_only_adds_evidence(home: Path, tmp_path: Path) -> None:
    pin(home, tmp_path, "annotate", "kot\nnp\nżubr\n")
    build(home)
    assert lines(home, "osps") == ["kot", "kota", "pies"]
    assert "import:gry" in verdict(home, "kot")["sources"]
    assert not verdict(home, "np")["valid"]


def test_a_changed_list_stops_the_build_and_bad_modes_are_refused(home: Path,
                                                                   tmp_path: Path) -> None:
    got = pin(home, tmp_path, "restrict", "kot\n")
    (home / "imports" / "osps" / f"{got['sha256']}.txt").write_text("kot\nkota\n")
    with pytest.raises(SourceError, match="changed on disk"):
        build(home)
    p = run(home, "import", "osps", str(tmp_path / "gry.txt"), "--mode", "replace")
    assert p.exit_code == 2 and "bad_import_mode" in p.output
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert run(home, "import", "osps", str(empty)).exit_code == 2
