"""The examples of the README and of the pages in ``docs/`` run (wordfreq runs its README as
doctests): what they show a command print, and the JSON answers they show, are what a tiny
real release answers, and every ``lexicon`` line of their shell blocks is a command the CLI
takes, with options it has.

An example is marked by ``<!-- example: NAME -->`` before it; the marker applies to the next
fenced block. ``run`` blocks (``run``, ``run-*``) are ``$ lexicon ARGS`` lines, each followed
by what it prints (``…`` stands for text that changes from release to release, such as the
id); ``http`` blocks (``http``, ``http-*``) are ``$ curl`` lines against the service, each
followed by its answer. The release is
built for the test from records that say of these words what the real osps release says
(sources, analyses, evidence, the reviewed list's reason), so everything the code adds (the
tiles, scores, glosses, reason texts, layout, fields) is checked as shown.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from lexicon.build.pipeline import BuildContext, build_game

from lexicon.store import published
from lexicon.store.records import Analysis, Record
from tests.builds.test_meanings import POL, _fetched
from tests.conftest import SmallHomes, StaticBuilder, lexicon
from tests.sources.test_source_readers import write_dictd
from tools.doc_examples import matches as _matches

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def doc_files() -> list[Path]:
    """The README and every page of ``docs/`` (text waiting in ``docs/pending/`` aside)."""
    pages = sorted(p for p in (ROOT / "docs").rglob("*.md") if "pending" not in p.parts)
    return [README, *pages]


def all_text() -> str:
    return "\n\n".join(p.read_text(encoding="utf-8") for p in doc_files())

#: What the real osps release (2026-12-01) holds for the README's words.
EXAMPLE_RECORDS = [
    Record(key="zażółć", word="zażółć", valid=True,
           analyses=[Analysis("zażółcić", "impt:sg:sec:perf", "morfeusz2")],
           sources=["hunspell-pl", "wpolish"], category="verb",
           evidence=["grade:morfeusz", "listed by the sjp.pl word list (packages hunspell-pl "
                                       "and wpolish); known to Morfeusz"]),
    Record(key="np", word="np", valid=False, reason_code="abbreviation",
           reason_message="abbreviation (reviewed list: skrót: na przykład [Morfeusz: ign, "
                          "z kropką brev])",
           analyses=[Analysis("np", "ign", "morfeusz2")], sources=["hunspell-pl", "wpolish"]),
    Record(key="kot", word="kot", valid=True,
           analyses=[Analysis("kot", "subst:sg:nom:m2", "morfeusz2", ("nazwa_pospolita",))],
           sources=["hunspell-pl", "wpolish"], category="noun",
           evidence=["grade:morfeusz", "listed by the sjp.pl word list (packages hunspell-pl "
                                       "and wpolish); known to Morfeusz"]),
]
#: FreeDict's Polish-English entry for kot, as the package writes it.
KOT = ("kot", "kot /kɔt/ <n>\n1. cat\n(zoologia, zoologiczny) Felis catus Linnaeus, zwierzę "
              "domowe;\n2. dust bunny\n(potocznie, potoczny) kłąb kurzu zbierającego się w "
              "zakamarkach mieszkania\n3. freshman\n(slangowo) rekrut, nowy uczeń\n")


def examples(text: str | None = None) -> dict[str, str]:
    """Every marked example: its name -> the body of the fenced block after the marker."""
    text = all_text() if text is None else text
    found = {}
    for m in re.finditer(r"<!-- example: ([\w-]+) -->\n(?:.*?\n)??```[\w-]*\n(.*?)```",
                         text, re.S):
        assert m.group(1) not in found, f"two examples named {m.group(1)}"
        found[m.group(1)] = m.group(2)
    return found


def shell_lines(text: str | None = None) -> list[str]:
    """Every ``lexicon`` command of the docs' ``sh`` blocks, continuation lines joined,
    ``#`` comments, ``> file`` redirections and an environment prefix dropped."""
    text = all_text() if text is None else text
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s#.*$", "", line).split(" > ")[0].strip()
            if not line.startswith("#") and re.match(r"(\w+=\S+ )*\.venv/bin/lexicon ", line):
                out.append(line.split(".venv/bin/lexicon ", 1)[1])
    return out


@pytest.fixture()
def example_home(home: Path, small_homes: SmallHomes) -> Path:
    """The examples' osps release, with FreeDict's kot: built once, a copy in ``home``."""
    return small_homes("readme-examples", home, make=_example_release)


def _example_release(home: Path) -> None:
    dictd = write_dictd(home.with_name(home.name + "-pol"), "freedict-pol-eng", [KOT])
    ctx = BuildContext(root=home, log=lambda _m: None, fetched=_fetched(home, {POL: dictd}))
    build_game("osps", ctx, builder=StaticBuilder("osps", EXAMPLE_RECORDS))


def _sessions(kind: str) -> list[str]:
    """The ``$ ...`` sessions of every example named ``kind`` or ``kind-*``."""
    blocks = [body for name, body in examples().items()
              if name == kind or name.startswith(f"{kind}-")]
    return [s for body in blocks for s in re.split(r"^\$ ", body, flags=re.M)[1:]]


def test_the_command_examples_print_what_they_show(example_home: Path) -> None:
    sessions = _sessions("run")
    assert len(sessions) >= 3
    assert {"run", "run-readme"} <= set(examples())
    for session in sessions:
        command, _, shown = session.partition("\n")
        args = shlex.split(command)
        assert args[0] == "lexicon", command
        result = lexicon(example_home, *args[1:])
        assert _matches(shown, result.stdout), (command, result.stdout)


def test_the_http_examples_answer_what_they_show(example_home: Path) -> None:
    """Each ``$ curl`` of an ``http`` example, sent to the service (in process) on the
    tiny release, answers exactly the body shown."""
    from fastapi.testclient import TestClient
    from lexicon.service.app import create_app
    sessions = _sessions("http")
    assert sessions
    with TestClient(create_app(example_home)) as client:
        for session in sessions:
            command, _, shown = session.partition("\n")
            args = shlex.split(command.replace("\\\n", " "))
            assert args[0] == "curl", command
            url = next(a for a in args if a.startswith("http://"))
            method = args[args.index("-X") + 1] if "-X" in args else "GET"
            body = json.loads(args[args.index("-d") + 1]) if "-d" in args else None
            got = client.request(method, url.split("8000", 1)[1], json=body)
            assert got.status_code == 200, (command, got.text)
            assert _matches(shown, got.text), (command, got.text)


def test_the_readme_check_answer_is_a_real_one(example_home: Path) -> None:
    """The README's ``check --json`` answer, and the OpenAPI example (the same one), are
    what the CLI answers, every field and value, the release id aside (any release's)."""
    from lexicon.service.routes.words import CHECK_EXAMPLE

    shown = json.loads(examples()["check-json"])
    real = json.loads(lexicon(example_home, "check", "osps", "zażółć", "--json").stdout)
    assert published.is_release_id("osps", shown["release"])
    assert real["release"] == published.current_id("osps", example_home)
    assert {**shown, "release": real["release"]} == real
    assert shown == CHECK_EXAMPLE


def test_the_readme_meanings_are_a_real_answer(example_home: Path) -> None:
    shown = json.loads("{" + examples()["meanings-json"] + "}")["meanings"]
    real = json.loads(lexicon(example_home, "check", "osps", "kot", "--json").stdout)
    assert real["meanings"] == shown


def test_the_readme_rejected_word_reason_is_a_real_one(example_home: Path) -> None:
    text = all_text()
    shown = re.search(r'A rejected word carries `"reason": (\{.*?\})`', text, re.S).group(1)
    reason = json.loads(" ".join(shown.split()))
    real = json.loads(lexicon(example_home, "check", "osps", "np", "--json").stdout)["reason"]
    assert reason["code"] == real["code"] and reason["message"] == real["message"]
    assert _matches(reason["detail"], real["detail"]), real["detail"]


class _NoSuchCommand(Exception):
    exit_code = 2     # what the CLI exits with for it, like any other usage error


def _parse(line: str) -> None:
    """Parse ``line`` (the words after ``lexicon``) as the CLI would, without running it:
    the command ``args`` name (``sources update`` is one), then its arguments and options.
    Raises the CLI's usage error (exit code 2) where the CLI would refuse the line."""
    from tools.docs import cli_command
    command = cli_command()
    args = shlex.split(line.replace("[", "").replace("]", ""))
    while args and args[0] in getattr(command, "commands", {}):
        command = command.commands[args[0]]
        args = args[1:]
    if hasattr(command, "commands") and args and not args[0].startswith("-"):
        raise _NoSuchCommand(f"no command {args[0]!r}: {line}")
    command.make_context(command.name, args)    # a usage error where the CLI would refuse


def test_every_readme_shell_line_is_a_command_the_cli_takes() -> None:
    """Each ``lexicon`` line of an ``sh`` block parses as the CLI would parse it: the
    command exists, each option is one it has, the required arguments are there. Optional
    parts written ``[--from DIR]`` are checked with their option."""
    lines = shell_lines()
    assert len(lines) >= 30 and any(line.startswith("sources update") for line in lines)
    for line in lines:
        _parse(line)


def test_a_drifted_example_fails() -> None:
    """The checks can fail: an option the CLI lacks, a command it does not have, a missing
    argument, an output that is not what the command prints."""
    for line in ("check osps kot --colour", "frobnicate osps", "pattern osps",
                 "sources frobnicate"):
        with pytest.raises(Exception) as refused:   # the CLI's own classes
            _parse(line)
        assert refused.value.exit_code == 2, line
    assert _matches("FALLS  2 words   release osps-…", "FALLS  2 words   release osps-1")
    assert not _matches("FALLS  2 words   release osps-…", "STANDS  2 words   release osps-1")
    text = "```sh\n.venv/bin/lexicon export osps > osps.txt   # sorted\n```\n"
    assert shell_lines(text) == ["export osps"]


def test_the_readme_judge_answer_has_the_fields_of_a_real_one(example_home: Path) -> None:
    """The judge's answer as the README lists it, every field and no other (it must not
    grow a field that tells which word failed without the README saying so)."""
    text = " ".join(all_text().split())
    shown = re.search(r'is `(\{"game", "release", "verdict".*?\})`: it does not', text).group(1)
    fields = set(re.findall(r'"(\w+)"', shown)) - {"stands", "falls"}   # verdict's values
    real = json.loads(lexicon(example_home, "judge", "osps", "zażółć", "np", "--json").stdout)
    assert fields == set(real) and real["verdict"] == "falls"


def _named_options(text: str) -> list[tuple[list[str], str, str]]:
    """Every option the README's prose names after a command, outside the fenced blocks:
    ``lexicon rulings [--date YYYY-MM-DD]``, ``check --release ID`` -> (command words,
    option, the code span)."""
    import typer.main
    from lexicon.cli.main import app
    root = typer.main.get_command(app)
    prose = " ".join(re.sub(r"```.*?```", "", text, flags=re.S).split())
    found = []
    for span in re.findall(r"`([^`]+)`", prose):
        for part in span.split(" | "):
            words = part.split()
            if words[:1] == ["lexicon"]:
                words = words[1:]
            elif not (words and words[0] in root.commands
                      and any(w.startswith("--") for w in words)):
                continue
            command, path = root, []
            while words and words[0] in getattr(command, "commands", {}):
                command = command.commands[words[0]]
                path.append(words.pop(0))
            found += [(path, w.strip("[](),.;:").split("=")[0], part) for w in words
                      if w.strip("[](),.;:").startswith("-") and w.strip("[](),.;:") != "-"]
    return found


def test_every_option_the_readme_prose_names_is_one_its_command_has() -> None:
    import typer.main
    from lexicon.cli.main import app
    root = typer.main.get_command(app)
    named = _named_options(all_text())
    assert len(named) >= 20
    for path, option, span in named:
        command = root
        for word in path:
            command = command.commands[word]
        options = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
        assert option in options, (path, option, span)
    assert (["check"], "--colour", "check --colour") in _named_options("`check --colour`")


def _unquoted_globs(command: str) -> list[str]:
    """The ``?`` and ``*`` a POSIX shell would expand in ``command`` (outside quotes and
    before a comment): a pattern or joker word typed so matches file names, or fails in
    zsh ("no matches found"). A star in a word naming a file path (holding ``/``) is a glob
    the example means the shell to expand, and is not counted."""
    found, quote, i = [], "", 0
    while i < len(command):
        c = command[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "#" and (i == 0 or command[i - 1].isspace()):
            break
        elif c in "?*":
            start = max(command.rfind(" ", 0, i), command.rfind("\t", 0, i)) + 1
            end = min((j for j in (command.find(" ", i), command.find("\t", i)) if j >= 0),
                      default=len(command))
            if "/" not in command[start:end]:
                found.append(c)
        i += 1
    return found


def test_shell_examples_quote_their_jokers_and_stars() -> None:
    """Every ``lexicon`` or ``curl`` command the pages show, in a fenced block or inline,
    quotes its ``?`` and ``*`` so a shell passes them on as typed."""
    fence = re.compile(r"^```[\w-]*\n(.*?)^```", re.S | re.M)
    bad = []
    for page in doc_files():
        text = page.read_text(encoding="utf-8")
        commands = [line.removeprefix("$ ") for block in fence.findall(text)
                    for line in block.splitlines()]
        commands += re.findall(r"`([^`]+)`", fence.sub("", text).replace("\n", " "))
        bad += [(page.name, c) for c in commands
                if re.match(r"(\.venv/bin/)?(lexicon|curl) ", c) and _unquoted_globs(c)]
    assert bad == []


def test_shell_examples_run_the_projects_python_and_lexicon() -> None:
    """A block is pasted into the shell of a fresh clone, where `make install` made a
    virtual environment and activated nothing: a Python script or tool there runs with
    ``.venv/bin/python`` (the system's Python has none of the project's packages: the
    fleet gate's ``python deploy/fleet_drill.py`` stopped at ``import httpx``), and a page
    whose console sessions call a bare ``lexicon`` says how it gets on the ``PATH`` first."""
    bare: list[str] = []
    for page in doc_files():
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"```(sh|console)\n(.*?)```", text, re.S):
            for line in m.group(2).replace("\\\n", " ").splitlines():
                command = re.sub(r"^\$ ", "", line.strip()) if m.group(1) == "console" \
                    else line.strip()
                command = re.sub(r"^(\w+=\S+ )+", "", command)
                if re.match(r"python3? ", command) and not command.startswith("python3 -m venv"):
                    bare.append(f"{page.name}: {command}")
            if m.group(1) == "console" and re.search(r"^\$ lexicon ", m.group(2), re.M):
                assert ".venv/bin/activate" in text[:m.start()], \
                    f"{page.name}: a console session calls `lexicon` before the page says " \
                    "how it gets on the PATH"
    assert bare == []
