"""The README's error-code and limit tables, generated from the code (datasette's cog way).

``python -m tools.docs`` rewrites the text between ``<!-- generated: NAME -->`` and
``<!-- /generated: NAME -->`` in README.md; ``python -m tools.docs --check`` exits 1 when the
README differs from what would be written. ``tests/test_docs.py`` runs the check, and also
fails when the code raises an error code :data:`lexicon.errors.CODES` does not describe, or
defines a ``MAX_*`` limit that :data:`LIMITS` does not list.

The error table's statuses are read from the code that raises each code (the ``status=``
given, or the raising class's ``status``), not typed again here; so are its CLI exit codes
(the ``exit_code=`` given, else the class's own or inherited ``exit_code``, else the one
:class:`lexicon.errors.LexiconError` derives from the status). A code only the service
gives has no exit code.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from lexicon import errors
from lexicon.errors import CODES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PRODUCT = ("lexicon", "service", "cli", "build", "sources")

#: Every ``MAX_*`` limit of the runtime: (module, constant) -> what it bounds, and the code a
#: request over it gets.
LIMITS: dict[tuple[str, str], tuple[str, str]] = {
    ("lexicon.inputs", "MAX_WORD_CHARS"): ("characters in a checked word", "word_too_long"),
    ("lexicon.checker", "MAX_BATCH"): ("words per `check` batch", "batch_too_large"),
    ("lexicon.fastcheck", "MAX_WORDS"): ("words per `valid` batch", "batch_too_large"),
    ("lexicon.judge", "MAX_PLAY_WORDS"): ("words in one judged play", "play_too_large"),
    ("lexicon.tiles", "MAX_READINGS"):
        ("tilings of a Latin word kept per position and reported (more are never read)", "—"),
    ("lexicon.patterns", "MAX_PATTERN_CHARS"): ("characters in a pattern", "pattern_too_long"),
    ("lexicon.patterns", "MAX_STARS"): ("`*` in a pattern", "bad_pattern"),
    ("lexicon.queries", "MAX_LIMIT"): ("results per page", "result_limit"),
    ("lexicon.queries", "MAX_OFFSET"): ("first result of a page", "result_limit"),
    ("lexicon.queries", "MAX_MATCHES"): ("words a pattern or blanks query may match",
                                         "too_many_matches"),
    ("lexicon.anagrams", "MAX_RACK_TILES"): ("tiles on a rack", "rack_too_long"),
    ("lexicon.anagrams", "MAX_BOARD_TILES"): ("board letters an anagram must use",
                                              "rack_too_long"),
    ("lexicon.anagrams", "MAX_CHARS_PER_TILE"):
        ("characters per tile of rack or board text (`[dž], `), read before the tiles",
         "rack_too_long"),
    ("lexicon.anagrams", "MAX_JOKERS"): ("jokers in an anagram query (never more than the "
                                         "game has)", "too_many_jokers"),
    ("lexicon.anagrams", "MAX_STEPS"): ("trie steps an anagram query may walk",
                                        "query_too_broad"),
    ("lexicon.remik", "MAX_MOVE_WORDS"): ("words on the table before, or after, a Remik move",
                                         "move_too_large"),
    ("lexicon.remik", "MAX_MOVE_RACK"): ("letters on a Remik player's shelves",
                                        "move_too_large"),
    ("lexicon.remik", "MAX_HISTORY"): ("earlier arrangements a Remik move is compared with",
                                      "move_too_large"),
    ("lexicon.remik", "MAX_MOVE_STEPS"): ("search steps assigning table words to new words",
                                         "move_too_complex"),
    ("lexicon.queries", "MAX_PATTERN_WORK"):
        ("work units (~0.5 µs each: trie probe 4, key enumerated 1, regex run 1) a pattern "
         "or blanks query may spend over all its readings", "query_too_broad"),
    ("service.querypool", "MAX_QUERY_WORKERS"):
        ("queries (pattern, blanks, anagrams, extend, hooks, prefix) running at once", "—"),
    ("service.querypool", "MAX_QUEUED_QUERIES"): ("queries waiting for a worker", "busy"),
    ("service.querypool", "MAX_QUERY_WAIT_SECONDS"): ("seconds a query may wait for a worker",
                                                      "busy"),
    ("lexicon.kwg", "MAX_NODES"): ("nodes of an exported KWG (its 22-bit arc index)",
                                   "kwg_too_large"),
    ("service.bodies", "MAX_BODY_BYTES"): ("bytes of a request body, batches aside",
                                           "body_too_large"),
    ("service.bodies", "MAX_CHECK_BODY_BYTES"): ("bytes of a `POST /check` body",
                                                 "body_too_large"),
    ("service.bodies", "MAX_VALID_BODY_BYTES"): ("bytes of a `POST /valid` body",
                                                 "body_too_large"),
    ("service.bodies", "MAX_BODY_IDLE_SECONDS"): ("seconds a request body may send nothing",
                                                  "body_timeout"),
    ("service.bodies", "MAX_BODY_SECONDS"): ("seconds a whole request body may take",
                                             "body_timeout"),
    ("service.bodies", "MAX_BIG_BATCHES"):
        ("big `/check` or `/valid` batches (over 32 KiB or 256 KiB of body) answered at "
         "once; the others wait", "—"),
    ("service.bodies", "MAX_BATCH_WAIT_SECONDS"): ("seconds a big batch waits for its turn",
                                                   "too_many_batches"),
    ("lexicon.integrity", "MAX_BUNDLE_BYTES"):
        ("bytes `lexicon install` unpacks from one bundle (headers and stream)", "bad_bundle"),
    ("lexicon.integrity", "MAX_BUNDLE_MEMBERS"): ("files and directories in one bundle",
                                                 "bad_bundle"),
    ("lexicon.integrity", "MAX_BUNDLE_MANIFEST_BYTES"):
        ("bytes of a bundle's manifest, read before anything is unpacked", "bad_bundle"),
    ("lexicon.recordfile", "MAX_KEY_BYTES"):
        ("UTF-8 bytes of a record's key (LMDB allows 511); a build drops a longer form, no "
         "playable word comes close", "—"),
    ("lexicon.kwg", "MAX_BIG_NODES"): ("nodes of an exported big KWG (`kbwg`, its 24-bit "
                                       "arc index)", "kwg_too_large"),
    ("lexicon.kwg", "MAX_BIG_TILE"): ("tile numbers of a big KWG (6 bits)", "kwg_too_large"),
}


# -- what the code says ------------------------------------------------------------------

def _sources(packages: tuple[str, ...] = PRODUCT) -> Iterator[Path]:
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def _const(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


@cache
def raised_codes() -> dict[str, set[int | None]]:
    """Every error code the product code gives, with the HTTP statuses it is given with.

    Read from the syntax: a class with ``code = "..."`` (and its ``status``), a call with
    ``code="..."`` (its ``status=``, else the called class's), and the service's
    ``error(status, "code", ...)`` helpers.
    """
    classes: dict[str, tuple[str | None, int | None]] = {}
    calls: list[tuple[str, str, int | None]] = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                attrs = {t.id: _const(n.value) for n in node.body if isinstance(n, ast.Assign)
                         for t in n.targets if isinstance(t, ast.Name)}
                classes[node.name] = (attrs.get("code"), attrs.get("status"))  # type: ignore[assignment]
            elif (isinstance(node, ast.Assign) and len(node.targets) == 1
                  and getattr(node.targets[0], "id", None) == "code"):
                branches = ([node.value.body, node.value.orelse]
                            if isinstance(node.value, ast.IfExp) else [node.value])
                for branch in branches:
                    if isinstance(_const(branch), str):
                        calls.append(("", _const(branch), None))  # type: ignore[arg-type]
            elif isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
                kw = {k.arg: _const(k.value) for k in node.keywords}
                if isinstance(kw.get("code"), str):
                    calls.append((name, kw["code"], kw.get("status")))  # type: ignore[arg-type]
                elif (name.lstrip("_") == "error" and len(node.args) >= 2
                      and isinstance(_const(node.args[1]), str)):
                    calls.append(("", _const(node.args[1]), _const(node.args[0])))  # type: ignore[arg-type]
    out: dict[str, set[int | None]] = {}
    for code, status in classes.values():
        if code:
            out.setdefault(code, set()).add(status)
    for name, code, status in calls:
        if status is None and name in classes:
            status = classes[name][1] or 400
        out.setdefault(code, set()).add(status)
    return out


@cache
def defined_limits() -> frozenset[tuple[str, str]]:
    """Every module-level ``MAX_*`` integer of the runtime: the library and the service
    (the query pool's workers and queue)."""
    found = set()
    for package in ("lexicon", "service"):
        for path in sorted((ROOT / package).glob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign) and isinstance(_const(node.value), int):
                    for target in node.targets:
                        if isinstance(target, ast.Name) and target.id.startswith("MAX_"):
                            found.add((f"{package}.{path.stem}", target.id))
    return frozenset(found)


def _exit_value(node: ast.AST | None) -> int | None:
    """An ``exit_code`` as written: a number, or one of the ``EXIT_*`` names."""
    if isinstance(node, ast.Name) and node.id.startswith("EXIT_"):
        return getattr(errors, node.id)
    value = _const(node)
    return value if isinstance(value, int) else None


def _from_status(status: int | None) -> int:
    return errors.LexiconError("", status=status or 400).exit_code or errors.EXIT_FAILED


@cache
def exit_codes() -> dict[str, set[int]]:
    """Every error code the library, the builders, the sources and the CLI give, with the
    CLI exit codes it is given with (what :func:`cli.main._contract` exits with)."""
    classes: dict[str, dict[str, ast.AST | None]] = {}
    trees = [(path, ast.parse(path.read_text(encoding="utf-8")))
             for path in _sources(tuple(p for p in PRODUCT if p != "service"))]
    for _path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                attrs: dict[str, ast.AST | None] = {
                    t.id: n.value for n in node.body if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
                attrs["base"] = node.bases[0] if node.bases else None
                classes[node.name] = attrs

    def inherited(name: str, attr: str) -> ast.AST | None:
        seen = set()
        while name in classes and name not in seen:
            seen.add(name)
            if attr in classes[name]:
                return classes[name][attr]
            name = getattr(classes[name]["base"], "id", "")
        return None

    def exit_of(cls: str, exit_kw: ast.AST | None, status_kw: ast.AST | None) -> int:
        given = _exit_value(exit_kw)
        if given is None:
            given = _exit_value(inherited(cls, "exit_code"))
        if given is None:
            status = _const(status_kw) if status_kw is not None else \
                _const(inherited(cls, "status"))
            given = _from_status(status if isinstance(status, int) else None)
        return given

    out: dict[str, set[int]] = {}
    for name, attrs in classes.items():
        code = _const(attrs.get("code"))
        if isinstance(code, str) and inherited(name, "status") is not None:
            out.setdefault(code, set()).add(exit_of(name, None, None))
    for _path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            kw = {k.arg: k.value for k in node.keywords}
            code = _const(kw.get("code")) if "code" in kw else None
            if code is None and "exit_code" in kw and name in classes:
                code = _const(inherited(name, "code"))
            if isinstance(code, str):
                out.setdefault(code, set()).add(
                    exit_of(name, kw.get("exit_code"), kw.get("status")))
    return out


# -- the tables ---------------------------------------------------------------------------

def _cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def error_table() -> str:
    statuses, exits = raised_codes(), exit_codes()
    rows = ["| code | HTTP | CLI exit | meaning |", "|---|---|---|---|"]
    for code in sorted(CODES):
        given = sorted(s for s in statuses.get(code, set()) if s is not None)
        http = " / ".join(map(str, given)) or "varies"
        cli = " / ".join(map(str, sorted(exits.get(code, set())))) or "—"
        rows.append(f"| `{code}` | {http} | {cli} | {_cell(CODES[code])} |")
    return "\n".join(rows)


def limit_table() -> str:
    rows = ["| limit | value | bounds | over it |", "|---|---|---|---|"]
    for (module, name), (what, code) in LIMITS.items():
        value = getattr(importlib.import_module(module), name)
        over = f"`{code}`" if code != "—" else "—"
        rows.append(f"| `{module.rsplit('.', 1)[1]}.{name}` | {value:,} | {_cell(what)} | {over} |")
    return "\n".join(rows)


TABLES = {"error-codes": error_table, "limits": limit_table}


def render(text: str) -> str:
    """``text`` with every generated section written anew."""
    for name, make in TABLES.items():
        pattern = re.compile(rf"(<!-- generated: {name} -->\n)(?:.*?\n)?"
                             rf"(<!-- /generated: {name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no '<!-- generated: {name} -->' section")
        table = make()
        text = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(2), text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md is stale")
    args = parser.parse_args(argv)
    current = README.read_text(encoding="utf-8")
    wanted = render(current)
    if args.check:
        if wanted != current:
            print("README.md is stale: run `python -m tools.docs`", file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
