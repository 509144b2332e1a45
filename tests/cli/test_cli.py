"""The `lexicon` command: output shapes and exit codes (in process, and once as a process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import lexicon as run
from tests.conftest import lexicon_process, publish, rec


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


def test_text_output_gives_the_reason_in_the_players_language_only(
        small_releases: Path) -> None:
    """The English detail is for a reader of English (``--lang en``) and for ``--json``;
    the players read the reason in their own language only."""
    english = "3 tiles; 4 required (3 at the board's edge)"
    p = run(small_releases, "check", "kvizovka", "džep")
    assert p.returncode == 1 and "reason [too_short] manje pločica" in p.stdout
    assert english not in p.stdout
    p = run(small_releases, "check", "kvizovka", "džep", "--lang", "en")
    assert english in p.stdout
    p = run(small_releases, "judge", "kvizovka", "džep", "sunce", "--reveal")
    assert "manje pločica" in p.stdout and english not in p.stdout
    publish(small_releases, "remik", [rec(w) for w in ("kot", "koty", "kotek")])
    move = ("judge", "remik", "--before", "kotek", "--after", "koty", "--rack", "y",
            "--variant", "2")
    p = run(small_releases, *move)
    assert "[leftover_letters]" in p.stdout and "letters would stay" not in p.stdout
    assert "letters would stay" in run(small_releases, *move, "--lang", "en").stdout


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


# every command that takes a game: an unknown one is a usage error (2) from each alike,
# the same `unknown_game` code, and nothing is written (amend and repack once exited 3)
GAME_COMMANDS = [("check", "kot"), ("judge", "kot"), ("build",), ("export",), ("diff",),
                 ("amend", "--overrides", "none.tsv"), ("repack",), ("verify",), ("releases",),
                 ("bundle",), ("import", "words.txt"), ("pattern", "k?t"), ("blanks", "k?t"),
                 ("anagram", "kot"), ("hooks", "kot"), ("extend", "kot", "a")]


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=lambda c: c[0])
def test_an_unknown_game_exits_2_from_every_command(small_releases: Path,
                                                    command: tuple[str, ...]) -> None:
    before = sorted(p.name for p in small_releases.rglob("*"))
    p = run(small_releases, command[0], "chess", *command[1:])
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "error [unknown_game]" in p.stderr and "Traceback" not in p.stderr
    assert sorted(p.name for p in small_releases.rglob("*")) == before


def test_the_exit_codes_are_the_error_classes_own() -> None:
    """The CLI's contract in one place: each class says its exit code beside its status."""
    from lexicon.build.signing import BadKey

    from lexicon import errors
    from lexicon.export.kwg import KwgTooLarge, NoDistribution
    from lexicon.store.indexes import NoIndex
    assert {c.__name__: c("x").exit_code for c in (
        errors.InputError, errors.UnknownGame, errors.UnknownRelease, BadKey,
        errors.NoRelease, errors.ReleaseDamaged, errors.RulingsUnavailable, errors.BadBundle,
        errors.BuildError, errors.SourceError, NoIndex, KwgTooLarge, NoDistribution,
        errors.BuildBusy)} == {
        "InputError": 2, "UnknownGame": 2, "UnknownRelease": 2, "BadKey": 2,
        "NoRelease": 3, "ReleaseDamaged": 3, "RulingsUnavailable": 3, "BadBundle": 3,
        "BuildError": 3, "SourceError": 3, "NoIndex": 3, "KwgTooLarge": 3, "NoDistribution": 3,
        "BuildBusy": 4}
    # a raise that names none gets it from its status: a server's failure, or a refusal
    assert errors.LexiconError("x", code="install_failed", status=500).exit_code == 3
    assert errors.LexiconError("x", code="key_exists").exit_code == 2


def test_no_release_is_a_clear_error(home: Path) -> None:
    p = run(home, "check", "remik", "kot")
    assert p.returncode == 3 and "no release of 'remik'" in p.stderr


def test_an_unknown_release_names_the_releases_there_are(small_releases: Path) -> None:
    from lexicon.store import published
    current = published.current_id("osps", small_releases)
    p = run(small_releases, "check", "osps", "kot", "--release", "osps-nope")
    assert p.returncode == 2 and "error [unknown_release]" in p.stderr
    assert f"its releases, newest first: {current}" in p.stderr, p.stderr


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


def test_check_file_answers_every_line_before_a_bad_byte(small_releases: Path,
                                                       tmp_path: Path) -> None:
    """A line that is not UTF-8 stops ``check --file`` (exit 2) after the verdicts of every
    line before it, however many chunks they fill, and its error object names the line
    and the byte offset of the bad byte in the file (not in a chunk of the decoder)."""
    from lexicon.cli.verdicts import FILE_CHUNK

    before = FILE_CHUNK + 5          # more than one chunk: the last is not yet full
    good = "jaźń\n".encode() * before
    words = tmp_path / "words.txt"
    words.write_bytes(good + b"ko\xfft\nnp\n")
    p = run(small_releases, "check", "osps", "--file", str(words), "--json")
    rows = [json.loads(line) for line in p.stdout.split("\n") if line]
    assert p.returncode == 2 and "error [bad_encoding]" in p.stderr, p.stderr
    assert len(rows) == before + 1 and all(r["valid"] for r in rows[:before])
    error = rows[-1]["error"]
    assert error["code"] == "bad_encoding"
    assert error["detail"] == {"file": str(words), "line": before + 1,
                               "offset": len(good) + 2}
    assert f"{words}:{before + 1}:" in p.stderr
    small = tmp_path / "small.txt"   # a small file: its lines before the bad one answered
    small.write_bytes("jaźń\nnp\n".encode() + b"\xff\n")
    p = run(small_releases, "check", "osps", "--file", str(small))
    assert p.returncode == 2 and "jaźń: VALID" in p.stdout and "np: INVALID" in p.stdout
    assert "small.txt:3:" in p.stderr


def test_check_file_drops_a_bom(small_releases: Path, tmp_path: Path) -> None:
    """A word list saved with a BOM (as Windows editors and spreadsheets save UTF-8) is
    checked from its first word: the BOM is no part of it, as in every file the CLI reads."""
    words = tmp_path / "bom.txt"
    words.write_bytes("\ufeffjaźń\nnp\n".encode())
    p = run(small_releases, "check", "osps", "--file", str(words))
    assert p.returncode == 1 and "jaźń: VALID" in p.stdout and "np: INVALID" in p.stdout, p


def test_check_file_streams_its_verdicts(small_releases: Path) -> None:
    """``check --file -`` answers a chunk of words while the rest is still unread: a word
    list of any size is checked in bounded memory. The first chunk's verdicts are read back
    while standard input is still open; reading the whole input first would never answer."""
    import os
    import subprocess
    import sys
    import threading

    from lexicon.cli.verdicts import FILE_CHUNK

    env = {**os.environ, "LEXICON_HOME": str(small_releases)}
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "check", "osps",
                             "--file", "-", "--json"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("jaźń\n" * FILE_CHUNK)
    proc.stdin.flush()
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.extend(
        proc.stdout.readline() for _ in range(FILE_CHUNK)), daemon=True)   # type: ignore[union-attr]
    reader.start()
    reader.join(120)
    streamed = not reader.is_alive()
    proc.stdin.write("np\n")
    proc.stdin.close()
    rest = proc.stdout.read()
    assert proc.wait() == 1                      # the last word is not valid
    assert streamed, "no verdict came before the end of the input"
    assert all(json.loads(line)["valid"] for line in got)
    assert [json.loads(line)["valid"] for line in rest.splitlines()] == [False]


def test_a_reader_that_stops_reading_ends_the_command_quietly(small_releases: Path,
                                                              tmp_path: Path) -> None:
    """``lexicon check --file words | head -1``: when the reader goes away the command stops
    with the shell's SIGPIPE status (141), without a traceback or an internal_error."""
    import os
    import subprocess
    import sys

    words = tmp_path / "words.txt"
    words.write_text("jaźń\n" * 20_000, encoding="utf-8")   # far more than a pipe holds
    env = {**os.environ, "LEXICON_HOME": str(small_releases)}
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "check", "osps",
                             "--file", str(words), "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["valid"] is True
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 141
    assert "Traceback" not in err and "internal_error" not in err and "Exception" not in err


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
