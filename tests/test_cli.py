"""The `lexicon` command: output shapes and exit codes (in process, and once as a process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import lexicon as run
from tests.conftest import lexicon_process


def test_check_json_valid_words_exit_0(small_releases: Path) -> None:
    """The one real process of this face: the installed entry point, its streams, its exit."""
    p = lexicon_process(small_releases, "check", "osps", "zażółć", "gęślą", "jaźń", "--json")
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["score"] for r in rows] == [21, 20, 20]
    assert all(r["valid"] and r["reason"] is None for r in rows)
    assert rows[0]["tiles"] == ["Z", "A", "Ż", "Ó", "Ł", "Ć"]
    assert rows[0]["release"].startswith("osps-")
    assert rows[0]["analyses"][0]["lemma"] == "zażółcić"


def test_check_invalid_words_exit_1_with_reasons(small_releases: Path) -> None:
    p = run(small_releases, "check", "osps", "np", "e-mail", "qwerty", "--json")
    assert p.returncode == 1
    reasons = [json.loads(line)["reason"]["code"] for line in p.stdout.splitlines()]
    assert reasons == ["abbreviation", "hyphen_or_apostrophe", "not_in_alphabet"]


def test_check_unknown_word_and_too_short(small_releases: Path) -> None:
    p = run(small_releases, "check", "osps", "xyzzy", "kotopies", "--json")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["reason"]["code"] for r in rows] == ["not_in_alphabet", "unknown"]
    p = run(small_releases, "check", "kvizovka", "džep", "--json")
    row = json.loads(p.stdout)
    assert p.returncode == 1 and row["reason"]["code"] == "too_short"
    assert row["reason"]["detail"] == "3 tiles; 4 required (3 at the board's edge)"
    p = run(small_releases, "check", "kvizovka", "džep", "--edge", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["tiles"] == ["DŽ", "E", "P"]


def test_kvizovka_lexicon_decides_the_tiling(small_releases: Path) -> None:
    p = run(small_releases, "check", "kvizovka", "nadživeti", "ЉУБАВ", "kući", "--json")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert rows[0]["valid"] and rows[0]["tiles"] == list("NADŽIVETI") and rows[0]["score"] == 13
    assert rows[0]["alternatives"] == [{"tiles": ["N", "A", "DŽ", "I", "V", "E", "T", "I"],
                                        "word": None, "known": False, "valid": False}]
    assert rows[1]["valid"] and rows[1]["word"] == "ljubav" and rows[1]["score"] == 9
    assert rows[2]["reason"]["code"] == "inflected_form"


@pytest.mark.parametrize("args", [("check", "chess", "kot"), ("check", "osps", ""),
                                  ("check", "osps", "ko\x01t"), ("releases", "chess")])
def test_usage_errors_exit_2(small_releases: Path, args: tuple[str, ...]) -> None:
    p = run(small_releases, *args)
    assert p.returncode == 2
    assert "error [" in p.stderr and "Traceback" not in p.stderr


def test_no_release_is_a_clear_error(home: Path) -> None:
    p = run(home, "check", "remik", "kot")
    assert p.returncode == 3 and "no release of 'remik'" in p.stderr


def test_releases_and_games_listing(small_releases: Path) -> None:
    p = run(small_releases, "releases", "--json")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert {r["game"] for r in rows} == {"osps", "kvizovka"} and all(r["current"] for r in rows)
    p = run(small_releases, "games")
    assert "remik" in p.stdout and "(none built)" in p.stdout


def test_fetch_failure_is_a_message_not_a_traceback(home: Path) -> None:
    p = run(home, "fetch", "no-such-source")
    assert p.returncode == 2 and "unknown source" in p.stderr and "Traceback" not in p.stderr


def test_check_words_from_stdin(small_releases: Path) -> None:
    p = run(small_releases, "check", "osps", "--file", "-", "--json",
            stdin="jaźń\n\nnp\nko\x01t\n")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert p.returncode == 1
    assert [r["valid"] for r in rows] == [True, False, False]
    assert rows[1]["reason"]["code"] == "abbreviation"
    assert rows[2]["error"]["code"] == "control_character"


def test_check_file_lines_of_controls_are_words_and_binary_files_a_usage_error(
        small_releases: Path, tmp_path: Path) -> None:
    """Only white space makes a line blank: a line of U+0085 or a vertical tab is a word the
    checker refuses (control_character), not a skipped line; a file that is not UTF-8 is
    exit 2 with a message, not a traceback."""
    words = tmp_path / "words.txt"
    words.write_text("jaźń\n \t\n\x85\n\x0b\n", encoding="utf-8")
    p = run(small_releases, "check", "osps", "--file", str(words), "--json")
    rows = [json.loads(line) for line in p.stdout.split("\n") if line]   # JSON Lines: \n only
    assert [r.get("error", {}).get("code") for r in rows] == [
        None, "control_character", "control_character"]
    binary = tmp_path / "words.bin"
    binary.write_bytes(b"kot\n\xff\xfe\x00\n")
    p = run(small_releases, "check", "osps", "--file", str(binary))
    assert p.returncode == 2 and "UTF-8" in p.stderr and "Traceback" not in p.stderr
    p = run(small_releases, "check", "osps", "--file", str(tmp_path / "missing.txt"))
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_check_needs_some_words(small_releases: Path) -> None:
    p = run(small_releases, "check", "osps")
    assert p.returncode == 2 and "give words" in p.stderr


def test_human_output_says_what_admitted_a_word(small_releases: Path) -> None:
    # a referee reads why a word stands, not only its analyses; the grade marker is for machines
    p = run(small_releases, "check", "osps", "zażółć")
    assert p.returncode == 0
    assert "\n  admitted: test list" in p.stdout and "grade:" not in p.stdout
    p = run(small_releases, "check", "osps", "np")
    assert "admitted:" not in p.stdout
