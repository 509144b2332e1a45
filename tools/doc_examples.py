"""The docs' code blocks as examples that run: every ``console``, ``sh``, ``shell``, ``bash``
and ``python`` block of ``docs/`` says, on the line before it (or the one before that), how
it is checked:

``<!-- example: run[-NAME] -->``
    run by the tests on their small releases (``tests/project/test_doc_examples.py``; the
    ``console`` blocks and ``curl`` sessions by ``tests/project/test_readme.py``, the
    ``python`` blocks by ``tests/door/test_door.py``);
``<!-- example: full-data-NAME -->``
    needs the built releases: ``python -m tools.doc_examples`` (``make docs-full``, part of
    ``make bench``) runs it against a hard-linked copy of ``$LEXICON_HOME``'s releases;
``<!-- example: not-run: REASON -->``
    not run, for the reason given (a full build, the network, a server's paths).

A table of figures typed by hand from a measurement's output (not generated) says so and
from which tool on the line before it: ``<!-- figures: typed: TOOL, DATE -->``.

How a block runs depends on its fence: a ``console`` block is ``$ COMMAND`` lines, each
followed by what it prints (``…`` in a line stands for any text: release ids, times); the
command's standard output must be that. An ``sh`` block is commands whose output is not
shown: each line (``\\`` continuations joined) must exit 0, or 1 for a ``lexicon`` command
(a word not valid, a play that falls: an answer). Both run with ``bash`` in a
scratch folder that is also ``HOME`` (so ``~`` is the scratch folder) and holds ``.venv``
(this interpreter's environment), with ``LEXICON_HOME`` set to the home given: the commands
run as written from a clone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: The fences whose blocks must say how they are checked.
SHELL_FENCES = frozenset({"console", "sh", "shell", "bash"})
CHECKED_FENCES = SHELL_FENCES | {"python"}
#: What a marker may say: a block run by the tests, one run on the full data, one not run.
KINDS = ("run", "http", "full-data", "not-run")

_FENCE = re.compile(r"^(`{3,})([\w{}-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)
_MARKER = re.compile(r"<!-- example: (?:(not-run): (?P<reason>.+?)|(?P<name>[\w-]+)) -->")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page and the marker before it (``kind`` None: unmarked)."""

    page: Path
    line: int
    fence: str
    body: str
    kind: str | None
    name: str | None
    reason: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """The pages of ``docs/`` (text waiting in ``docs/pending/`` aside)."""
    return sorted(p for p in DOCS.rglob("*.md") if "pending" not in p.parts)


def kind_of(name: str) -> str | None:
    """The kind a marker's name is of: ``run``, ``run-cli`` -> ``run``; None for names that
    mark no code block (``check-json``)."""
    return next((k for k in KINDS if name == k or name.startswith(f"{k}-")), None)


def blocks(page: Path, text: str | None = None) -> Iterator[Block]:
    """Every fenced block of ``page`` whose fence is one of :data:`CHECKED_FENCES`."""
    text = page.read_text(encoding="utf-8") if text is None else text
    for m in _FENCE.finditer(text):
        if m.group(2) not in CHECKED_FENCES:
            continue
        before = text[:m.start()].rstrip("\n").split("\n")[-2:]
        found = next((mk for mk in map(_MARKER.search, reversed(before)) if mk), None)
        kind = name = reason = None
        if found and found.group("reason"):
            kind, reason = "not-run", found.group("reason")
        elif found:
            name = found.group("name")
            kind = kind_of(name)
        yield Block(page, text.count("\n", 0, m.start()) + 1, m.group(2), m.group(3),
                    kind, name, reason)


def all_blocks() -> list[Block]:
    return [b for page in pages() for b in blocks(page)]


def matches(shown: str, printed: str) -> bool:
    """``printed`` is ``shown``, where a ``…`` in a line stands for any text."""
    pattern = "\n".join(".*?".join(map(re.escape, line.split("…")))
                        for line in shown.splitlines())
    return re.fullmatch(pattern, printed.rstrip("\n")) is not None


def commands(body: str) -> list[str]:
    """The commands of an ``sh`` block: one a line, ``\\`` continuations joined, comment
    lines and blank lines dropped."""
    lines = body.replace("\\\n", " ").splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def sessions(body: str) -> list[tuple[str, str]]:
    """The ``$ COMMAND`` lines of a ``console`` block, each with what it is shown to print."""
    out = []
    for session in re.split(r"^\$ ", body, flags=re.M)[1:]:
        command, _, shown = session.partition("\n")
        out.append((command, shown))
    return out


def scratch(folder: Path) -> Path:
    """``folder`` made ready for a block: ``.venv`` there is this interpreter's environment."""
    folder.mkdir(parents=True, exist_ok=True)
    venv = folder / ".venv"
    if not venv.exists():
        venv.symlink_to(sys.prefix, target_is_directory=True)
    return folder


def _shell(command: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "LEXICON_HOME": str(home), "HOME": str(cwd),
           "PATH": f"{cwd / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("LEXICON_TRACEBACK", None)
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)


def _answers(command: str) -> tuple[int, ...]:
    """The exit codes that answer ``command`` as it means: a ``lexicon`` command exits 1
    for a word that is not valid or a play that falls (an answer, not a failure; 2 and up
    are usage errors and failures), any other command 0."""
    return (0, 1) if re.match(r"(\w+=\S+ )*\.venv/bin/lexicon ", command.strip()) else (0,)


def run_block(block: Block, home: Path, cwd: Path) -> list[str]:
    """Run ``block`` in the scratch folder ``cwd`` against ``home``: what went wrong, one
    line a failed command (empty: it runs as written)."""
    scratch(cwd)
    failures = []
    if block.fence == "console":
        for command, shown in sessions(block.body):
            got = _shell(command, home, cwd)
            if got.returncode != 0 and not shown.strip():
                failures.append(f"{block.where}: $ {command}: exit {got.returncode}: "
                                f"{got.stderr.strip()[-400:]}")
            elif not matches(shown, got.stdout):
                failures.append(f"{block.where}: $ {command}: printed\n{got.stdout}"
                                f"{got.stderr.strip()[-400:]}")
    elif block.fence in SHELL_FENCES:
        for command in commands(block.body):
            got = _shell(command, home, cwd)
            if got.returncode not in _answers(command):
                failures.append(f"{block.where}: {command.strip()}: exit {got.returncode}: "
                                f"{got.stderr.strip()[-400:]}")
    else:
        raise ValueError(f"{block.where}: a {block.fence} block runs in the tests only")
    return failures


def _games(block: Block) -> set[str]:
    """The games a block's ``lexicon`` commands name (their first argument)."""
    return set(re.findall(r"\blexicon [a-z-]+(?: [a-z]+)? (osps|remik|kvizovka|krizemkrazem)\b",
                          block.body))


def linked_copy(home: Path, dst: Path) -> Path:
    """``home``'s releases (and audit sheets) in ``dst``: what a block publishes, logs or
    draws lands in ``dst``, never in ``home``. Only the files inside a release's folder
    (``releases/GAME/ID/…``, immutable once published) are hard-linked; every other file
    (``CURRENT``, the log of its switches, which a publish appends to, the sheets) is
    copied, so no write through a link can reach ``home``."""
    dst.mkdir(parents=True, exist_ok=True)
    releases = (home / "releases").resolve()

    def place(src: str, target: str) -> None:
        inside = Path(src).resolve().relative_to(releases).parts if Path(src).resolve(
            ).is_relative_to(releases) else ()
        (os.link if len(inside) >= 3 else shutil.copy2)(src, target)

    for part in ("releases", "audits"):
        if (home / part).is_dir():
            shutil.copytree(home / part, dst / part, copy_function=place, symlinks=True)
    return dst


def run_full_data(home: Path, work: Path) -> dict:
    """Every ``full-data`` block run against a linked copy of ``home``: the counts, and what
    failed or was skipped (a block naming a game ``home`` has no release of)."""
    from lexicon.store import published

    copy = linked_copy(home, work / "home")
    report: dict = {"home": str(home), "ran": 0, "passed": 0, "failed": [], "skipped": []}
    for block in (b for b in all_blocks() if b.kind == "full-data"):
        missing = sorted(g for g in _games(block) if published.current_id(g, home) is None)
        if missing:
            report["skipped"].append(f"{block.where} ({block.name}): no release of "
                                     f"{', '.join(missing)}")
            continue
        report["ran"] += 1
        failures = run_block(block, copy, work / (block.name or "block"))
        report["passed"] += not failures
        report["failed"] += failures
    return report


def counts() -> dict[str, int]:
    """How many checked blocks of the docs are of each kind (``unmarked``: none), and how
    many tables of figures say they were typed from a measurement's output."""
    out: dict[str, int] = {}
    for block in all_blocks():
        key = block.kind or "unmarked"
        out[key] = out.get(key, 0) + 1
    out["figures-typed"] = sum(len(re.findall(r"^<!-- figures: typed: ", p.read_text("utf-8"),
                                              re.M)) for p in pages())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the docs' full-data examples against built releases; print a JSON "
                    "report (exit 1 when one fails).")
    parser.add_argument("--home", type=Path,
                        default=Path(os.environ.get("LEXICON_HOME", ROOT / "data")),
                        help="the home whose releases the examples read (never written)")
    parser.add_argument("--strict", action="store_true",
                        help="a block skipped for a missing release fails too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="doc-examples-") as work:
        report = run_full_data(args.home.resolve(), Path(work))
    report["blocks"] = counts()
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 1 if report["failed"] or (args.strict and report["skipped"]) else 0


if __name__ == "__main__":
    sys.exit(main())
