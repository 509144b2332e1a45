"""The CLI's contract under hostile input: bounded reads of the files it is given, one line
and exit 5 (never 1, "not valid") for an exception nothing expected, clear errors from
``keygen`` and ``check`` where they used to be tracebacks or silent about where they looked."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app

from lexicon import lexicon as lexicon_module
from lexicon.errors import EXIT_INTERNAL
from lexicon.game.inputs import MAX_WORD_CHARS
from lexicon.verdicts import remik
from tests.conftest import lexicon, lexicon_process, publish, rec


@pytest.fixture()
def table(home: Path) -> Path:
    publish(home, "remik", [rec(w) for w in ("kot", "koty", "kotek", "las")])
    return home


MOVE = ("judge", "remik", "--before", "kot", "--after", "koty", "--rack", "y")


def test_a_history_file_is_read_bounded(table: Path, tmp_path: Path) -> None:
    """/dev/zero and a file one byte over MAX_HISTORY_BYTES are move_too_large (exit 2),
    read no further than the limit; a history at the limit is read."""
    assert remik.MAX_HISTORY_BYTES >= remik.MAX_HISTORY * remik.MAX_MOVE_WORDS * (
        2 * MAX_WORD_CHARS + 1)      # the longest history the move takes fits
    p = lexicon(table, *MOVE, "--history", "/dev/zero")
    assert p.returncode == 2 and "error [move_too_large]" in p.stderr, p.stderr
    big = tmp_path / "big.txt"          # at the limit: read (a comment, and one table)
    big.write_bytes(b"las\n" + b"#" * (remik.MAX_HISTORY_BYTES - 4))
    assert remik.read_history_file(big) == [["las"]]
    with big.open("ab") as fh:
        fh.write(b"#")
    p = lexicon(table, *MOVE, "--history", str(big))
    assert p.returncode == 2 and "error [move_too_large]" in p.stderr
    assert f"{remik.MAX_HISTORY_BYTES:,} bytes" in p.stderr
    small = tmp_path / "small.txt"
    small.write_text("# earlier\nlas\nkoty\n")
    p = lexicon(table, *MOVE, "--history", str(small))
    assert p.returncode == 1 and "repeated" in p.stdout.lower() + p.stderr.lower()
    p = lexicon(table, *MOVE, "--history", "-", stdin="las\n")
    assert p.returncode == 0, p.stderr
    small.write_bytes(b"las \xff\n")
    p = lexicon(table, *MOVE, "--history", str(small))
    assert p.returncode == 2 and "error [bad_move]" in p.stderr and "UTF-8" in p.stderr


def test_remik_racks_with_invisible_characters_are_control_characters(table: Path) -> None:
    client = TestClient(create_app(table))
    for rack in ("y\x00", "y\u200b", "\u200by"):
        r = client.post("/v1/games/remik/move",
                        json={"before": ["kot"], "after": ["koty"], "rack": rack})
        assert r.status_code == 400 and r.json()["code"] == "control_character", rack
    p = lexicon(table, "judge", "remik", "--before", "kot", "--after", "koty",
                "--rack", "y\u200b")
    assert p.returncode == 2 and "error [control_character]" in p.stderr
    assert "U+200B" in p.stderr
    p = lexicon(table, "judge", "remik", "--before", "kot", "--after", "koty", "--rack", "yx")
    assert p.returncode == 2 and "error [bad_rack]" in p.stderr      # a letter no tile has


def test_an_unexpected_exception_is_exit_5_in_one_line(table: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug (here MemoryError from inside the library) is not a verdict: exit 5, one
    line naming it, no traceback; LEXICON_TRACEBACK lets the traceback through."""
    from lexicon.cli.main import app
    from typer.testing import CliRunner

    def exhausted(*_a: object, **_k: object) -> None:
        raise MemoryError

    monkeypatch.setattr(lexicon_module.Lexicon, "check", exhausted)
    for args in (["check", "remik", "kot"], ["check", "remik", "kot", "--json"]):
        result = CliRunner().invoke(app, args, env={"LEXICON_HOME": str(table)})
        assert result.exit_code == EXIT_INTERNAL == 5
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error [internal_error]: ")
        assert "MemoryError" in lines[0] and "Traceback" not in result.output
    assert '"code": "internal_error"' in result.stdout        # --json: the error object
    result = CliRunner().invoke(app, ["check", "remik", "kot"],
                                env={"LEXICON_HOME": str(table), "LEXICON_TRACEBACK": "1"})
    assert isinstance(result.exception, MemoryError)
    # a verdict's exit codes are untouched by the handler
    monkeypatch.undo()
    assert lexicon(table, "check", "remik", "kot").returncode == 0
    assert lexicon(table, "check", "remik", "kotu").returncode == 1


def test_keygen_makes_a_missing_directory(tmp_path: Path) -> None:
    """``keygen -o DIR/KEY`` with DIR missing makes DIR (0700: it holds a private key)."""
    p = lexicon(tmp_path, "keygen", "-o", str(tmp_path / "missing" / "deeper" / "k"))
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(tmp_path / "missing" / "deeper")) == ["k", "k.pub"]
    for made in (tmp_path / "missing", tmp_path / "missing" / "deeper"):
        assert stat.S_IMODE(os.stat(made).st_mode) == 0o700


def test_keygen_under_a_file_or_too_long_a_name(tmp_path: Path) -> None:
    """A clear error (exit 2, key_not_written), and no half key pair left behind."""
    (tmp_path / "plain").write_text("a file, not a directory")
    p = lexicon(tmp_path, "keygen", "-o", str(tmp_path / "plain" / "k"))
    assert p.returncode == 2 and "error [key_not_written]" in p.stderr, p.stderr
    for name in ("a" * 300, "b" * 253):          # 253: the key fits, its .pub does not
        p = lexicon(tmp_path, "keygen", "-o", str(tmp_path / name))
        assert p.returncode == 2 and "error [key_not_written]" in p.stderr, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["plain"]


def test_no_release_names_the_directory_it_looked_in(tmp_path: Path) -> None:
    """Run outside the repository, with and without LEXICON_HOME."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    p = lexicon_process(elsewhere, "check", "osps", "kot")
    assert p.returncode == 3 and "error [no_release]" in p.stderr
    assert f"{elsewhere} (LEXICON_HOME)" in p.stderr and "Traceback" not in p.stderr
    p = lexicon(elsewhere, "releases")
    assert p.returncode == 0 and f"no releases built yet in {elsewhere}" in p.stdout
    env = {k: v for k, v in os.environ.items() if k != "LEXICON_HOME"}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root
    p = subprocess.run([sys.executable, "-m", "lexicon.cli.main", "check", "osps", "kot"],
                       cwd=elsewhere, env=env, capture_output=True, text=True, check=False)
    assert p.returncode == 3, p.stderr
    assert f"{elsewhere / 'data'} (./data: LEXICON_HOME is not set)" in p.stderr


def test_a_json_option_promising_the_http_apis_json_has_a_route() -> None:
    """A command whose ``--json`` says it prints "the JSON the HTTP API returns" has an
    HTTP route of its name (``anagram``: ``/anagrams``): no help promises a shape the API
    does not answer with."""
    from lexicon.service.app import create_app

    from tools.docs import cli_command
    routes = {r.path.rsplit("/", 1)[1] for r in create_app().routes}   # type: ignore[attr-defined]
    cli = cli_command()
    promised = [name for name, cmd in cli.commands.items()
                if any("HTTP API returns" in (p.help or "") for p in cmd.params
                       if getattr(p, "help", None))]
    assert "pattern" in promised
    assert [n for n in promised if n not in routes and n + "s" not in routes] == []


#: every file input of the CLI that is read whole, as its command takes it
WHOLE_FILE_INPUTS = {
    "audit compare": ("audit", "compare", "osps", "{}"),
    "audit draw --from-list": ("audit", "draw", "osps", "--from-list", "{}"),
    "audit score --population": ("audit", "score", "{sheet}", "--population", "{}"),
    "amend --overrides": ("amend", "osps", "--overrides", "{}"),
}


def _with_file(args: tuple[str, ...], path: Path, sheet: Path) -> list[str]:
    return [a.format(path, sheet=sheet) for a in args]


@pytest.fixture()
def sheet(small_releases: Path) -> Path:
    """A labelled sheet of the small osps release (for ``audit score``)."""
    from lexicon.audit import sheets

    s = sheets.Sheet({"game": "osps", "release": "any"}, [sheets.Row("jaźń", label="Y")])
    return s.write(sheets.directory(small_releases, "osps") / "hand.tsv")


@pytest.mark.parametrize("command", sorted(WHOLE_FILE_INPUTS))
def test_a_file_read_whole_is_refused_when_it_is_no_regular_file_or_too_big(
        command: str, small_releases: Path, sheet: Path, tmp_path: Path) -> None:
    """/dev/zero and a FIFO with no writer are not_a_regular_file at once (exit 2; the FIFO
    once blocked for good, /dev/zero ended in MemoryError, exit 5); a file over
    MAX_FILE_BYTES is file_too_large before it is read, one with a line over
    MAX_LINE_BYTES line_too_long naming the line."""
    args = WHOLE_FILE_INPUTS[command]
    p = lexicon(small_releases, *_with_file(args, Path("/dev/zero"), sheet))
    assert p.returncode == 2 and "error [not_a_regular_file]" in p.stderr, p.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "LEXICON_HOME": str(small_releases)}
    p = subprocess.run([sys.executable, "-m", "lexicon.cli.main",
                        *_with_file(args, fifo, sheet)], capture_output=True, text=True,
                       env=env, timeout=120, check=False)
    assert p.returncode == 2 and "error [not_a_regular_file]" in p.stderr, p.stderr
    from lexicon.userfile import MAX_FILE_BYTES, MAX_LINE_BYTES

    huge = tmp_path / "huge.txt"
    with huge.open("wb") as fh:                     # sparse: no disk, nothing read
        fh.truncate(MAX_FILE_BYTES + 1)
    p = lexicon(small_releases, *_with_file(args, huge, sheet))
    assert p.returncode == 2 and "error [file_too_large]" in p.stderr, p.stderr
    long = tmp_path / "long.txt"
    long.write_bytes(b"# a list\njaz\n" + b"a" * (MAX_LINE_BYTES + 1) + b"\n")
    p = lexicon(small_releases, *_with_file(args, long, sheet))
    assert p.returncode == 2 and "error [line_too_long]" in p.stderr, p.stderr
    assert f"{long}:3:" in p.stderr


def test_check_file_bounds_its_lines_and_still_reads_a_stream(small_releases: Path,
                                                              tmp_path: Path) -> None:
    """``check --file /dev/zero`` is line_too_long at once (it was MemoryError, exit 5),
    after no verdict; a pipe is still read as a stream, and a line at the limit is read."""
    p = lexicon(small_releases, "check", "osps", "--file", "/dev/zero")
    assert p.returncode == 2 and "error [line_too_long]" in p.stderr, p.stderr
    from lexicon.userfile import MAX_LINE_BYTES

    p = lexicon_process(small_releases, "check", "osps", "--file", "-", "--json",
                        stdin="jaźń\n" + "a" * MAX_LINE_BYTES + "\n" + "b" * (MAX_LINE_BYTES + 1))
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert p.returncode == 2 and "error [line_too_long]" in p.stderr, p.stderr
    assert rows[0]["valid"] and rows[1]["error"]["code"] == "word_too_long"
    assert rows[2]["error"]["code"] == "line_too_long"
    assert rows[2]["error"]["detail"]["line"] == 3


def test_hash_and_import_read_their_files_bounded(small_releases: Path, tmp_path: Path) -> None:
    """``hash`` reads its list as a stream of bounded lines (/dev/zero: line_too_long, it
    grew one line until memory ran out) and ``import`` reads a regular file of at most
    MAX_FILE_BYTES (a bigger one is file_too_large before it is read)."""
    p = lexicon(small_releases, "hash", "/dev/zero")
    assert p.returncode == 2 and "error [line_too_long]" in p.stderr, p.stderr
    p = lexicon(small_releases, "hash", "-", stdin="kot\nkoty\r\nkot\n")
    assert p.returncode == 0 and json.loads(p.stdout)["words"] == 2, p.stdout
    from lexicon.userfile import MAX_FILE_BYTES

    huge = tmp_path / "huge.txt"
    with huge.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    p = lexicon(small_releases, "import", "osps", str(huge))
    assert p.returncode == 2 and "error [file_too_large]" in p.stderr, p.stderr
    assert not (small_releases / "imports").exists()


@pytest.mark.parametrize("inside", ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b"])
def test_a_history_line_ends_at_a_line_feed_only(inside: str, tmp_path: Path) -> None:
    """A history file's tables end at ``\\n`` or ``\\r\\n``, as every file the CLI reads:
    a U+2028, U+2029, U+0085, form feed or vertical tab inside a line separates words of
    that table and never makes a table of its own."""
    history = tmp_path / "history.txt"
    history.write_bytes(f"las{inside}kot\r\nnos\n".encode())
    assert remik.read_history_file(history) == [["las", "kot"], ["nos"]]
