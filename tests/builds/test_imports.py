"""`lexicon import`: an authoritative list pinned by sha256 and applied by every build as
restrict, admit or annotate."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import StaticBuilder, rec
from lexicon.build.pipeline import BuildContext, build_game

from lexicon.catalog import Catalog
from lexicon.errors import BuildError, InputError, SourceError
from lexicon.store import published
from tests.export.test_export import lines, run

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
        return cat.lexicon("osps").check(word)
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


@pytest.mark.parametrize(("content", "problem"), [
    (b"kot\nk\x00ot\npies\n", "line 2: 'k\\\\x00ot': control or invisible character U\\+0000"),
    ("kot\nko\u001ct\n".encode(), "line 2: .*U\\+001C"),
    ("kot\nko\u200bt\n".encode(), "U\\+200B"),
    (b"kot\n" + b"a" * 20_000_000 + b"\n", "line 2: .*20,000,000 characters"),
    (b"kot\n" + b"a" * 65 + b"\n", "65 characters; a word has at most 64"),
    (b"kot\n" + b"a" * 16 + b"\n", "16 tiles; Polish Scrabble .* at most 15"),
    ("kot\nкот\n".encode(), "line 2: 'кот': 'кот' is no tile"),
    ("kot\nkoт\n".encode(), "Latin and Cyrillic"),
    ("kot\n\u017c\u00f3\u0142w\n".encode("cp1250"), "line 2: not UTF-8"),
    (b"\xff\xfe" + "kot\n".encode("utf-16-le"), "line 1: not UTF-8"),
])
def test_a_list_that_holds_no_word_of_the_game_is_refused_whole(
        home: Path, tmp_path: Path, content: bytes, problem: str) -> None:
    from lexicon.build import official_lists

    from lexicon.game import profile as profiles

    path = tmp_path / "gry.txt"
    path.write_bytes(content)
    p = run(home, "import", "osps", str(path))
    assert p.exit_code == 2 and "error [bad_import]" in p.output, p.output
    assert p.exception is None or isinstance(p.exception, SystemExit)
    with pytest.raises(InputError, match=problem) as err:
        official_lists.import_list(profiles.load("osps"), path, "restrict", root=home)
    assert err.value.code == "bad_import" and err.value.detail["line"] >= 1
    assert not (home / "imports").exists() or not any((home / "imports").rglob("*.*"))


def test_a_bom_is_removed_not_the_first_word(home: Path, tmp_path: Path) -> None:
    got = pin(home, tmp_path, "restrict", "\ufeffkot\r\npies\r\n")
    assert got["words"] == 2
    build(home)
    assert lines(home, "osps") == ["kot", "pies"]       # kot was "\ufeffkot": not valid


def test_kvizovka_lists_are_read_through_its_speller() -> None:
    from lexicon.build import official_lists

    from lexicon.game import profile as profiles

    kv = profiles.load("kvizovka")
    assert official_lists.key_of(kv, "Kuća") == official_lists.key_of(kv, "кућа") == "кућа"
    assert official_lists.key_of(kv, "[nj]iva") == "њива"           # tiles marked: one reading
    assert official_lists.key_of(kv, "kon|jugacija") == "конјугација"
    with pytest.raises(official_lists.ListProblem, match="2 different tilings"):
        official_lists.key_of(kv, "njiva")                          # NJ or N+J: the list must say
    with pytest.raises(official_lists.ListProblem, match="no tile of Kvizovka"):
        official_lists.key_of(kv, "quiz")
    kk = profiles.load("krizemkrazem")                        # joker letters and phrases
    assert official_lists.key_of(kk, "Tone Pavček") == "tonepavček"
    assert official_lists.key_of(kk, "wxyq") == "wxyq"


def test_a_bad_stored_list_fails_the_build_cleanly(home: Path, tmp_path: Path) -> None:
    got = pin(home, tmp_path, "admit", "kot\n")
    # a list stored by an older version that did not check its words: the build says so
    bad = b"kot\nk\x00ot\n"
    digest = hashlib.sha256(bad).hexdigest()
    (home / "imports" / "osps" / f"{digest}.txt").write_bytes(bad)
    toml = home / "imports" / "osps.toml"
    toml.write_text(toml.read_text().replace(got["sha256"], digest))
    before = published.current_id("osps", home)
    with pytest.raises(BuildError, match="line 2") as err:
        build(home)
    assert err.value.code == "build_failed"
    assert published.current_id("osps", home) == before


@pytest.mark.parametrize("pin_text", [
    'name = "gry"\nmode = "restrict"\n',                                   # no sha256
    'name = "gry"\nsha256 = "../../etc/passwd"\nmode = "restrict"\n',
    'name = "gry"\nsha256 = "' + "0" * 64 + '"\nmode = "replace"\n',
    'name = "gry\nsha256 = \n',                                            # not TOML
])
def test_a_damaged_pin_fails_the_build_cleanly(home: Path, pin_text: str) -> None:
    (home / "imports").mkdir()
    (home / "imports" / "osps.toml").write_text(pin_text)
    with pytest.raises(BuildError, match="pin it again") as err:
        build(home)
    assert err.value.code == "build_failed"
