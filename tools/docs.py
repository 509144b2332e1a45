"""The documentation's generated parts: the error-code and limit tables, the CLI
reference and where the drawn audit sheets came from, generated from the code and the data
(datasette's cog way), and the tables of measured figures, rendered from the benchmark
runs' JSON (``docs/figures/``, :mod:`tools.figures`), in the pages of ``docs/``.

``python -m tools.docs`` rewrites the text between ``<!-- generated: NAME -->`` and
``<!-- /generated: NAME -->`` in the page that holds each part (:data:`PAGES`);
``python -m tools.docs --check`` exits 1 when a page differs from what would be written,
and ``--site DIR`` then builds the pages strictly. ``tests/project/test_docs.py`` runs the check
and the build, and also fails when the code raises an error code
:data:`lexicon.errors.CODES` does not describe, or defines a ``MAX_*`` limit that
:data:`lexicon.limits.LIMITS` does not list (the service states both in its OpenAPI
description too, ``service/apidocs.py``).

The error table's statuses are read from the code that raises each code (the ``status=``
given, or the raising class's ``status``), not typed again here; so are its CLI exit codes
(the ``exit_code=`` given, else the class's own or inherited ``exit_code``, else the one
:class:`lexicon.errors.LexiconError` derives from the status). A code only the service
gives has no exit code.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from lexicon.service.limits import ALL_LIMITS as LIMITS

from lexicon import errors
from lexicon.errors import CODES
from lexicon.limits import limit_table, markdown_cell
from tools import figures

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PRODUCT = ("lexicon", "service", "cli", "build", "sources")

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
    bases: dict[str, str] = {}
    calls: list[tuple[str, str, int | None]] = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                attrs = {t.id: _const(n.value) for n in node.body if isinstance(n, ast.Assign)
                         for t in n.targets if isinstance(t, ast.Name)}
                classes[node.name] = (attrs.get("code"), attrs.get("status"))  # type: ignore[assignment]
                bases[node.name] = getattr(node.bases[0], "id", "") if node.bases else ""
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
    def status_of(name: str) -> int | None:
        """The class's status, or the nearest base class's that states one."""
        seen = set()
        while name in classes and name not in seen:
            seen.add(name)
            if classes[name][1] is not None:
                return classes[name][1]
            name = bases[name]
        return None

    out: dict[str, set[int | None]] = {}
    for name, (code, _status) in classes.items():
        if code:
            out.setdefault(code, set()).add(status_of(name))
    for name, code, status in calls:
        if status is None and name in classes:
            status = classes[name][1] or 400
        out.setdefault(code, set()).add(status)
    return out


def module_name(path: Path) -> str:
    """The import name of a product file: the folders beside ``lexicon/`` import inside it
    (``service/bodies.py`` is ``lexicon.service.bodies``)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts if parts[0] == "lexicon" else ("lexicon", *parts))


@cache
def defined_limits() -> frozenset[tuple[str, str]]:
    """Every module-level ``MAX_*`` integer of the runtime: the library and the service
    (the query pool's workers and queue)."""
    found = set()
    for package in ("lexicon", "service"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign) and isinstance(_const(node.value), int):
                    for target in node.targets:
                        if isinstance(target, ast.Name) and target.id.startswith("MAX_"):
                            found.add((module_name(path), target.id))
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
    CLI exit codes it is given with (what :func:`cli.contract.guard` exits with)."""
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

def error_table() -> str:
    statuses, exits = raised_codes(), exit_codes()
    rows = ["| code | HTTP | CLI exit | meaning |", "|---|---|---|---|"]
    for code in sorted(CODES):
        given = sorted(s for s in statuses.get(code, set()) if s is not None)
        http = " / ".join(map(str, given)) or "varies"
        cli = " / ".join(map(str, sorted(exits.get(code, set())))) or "—"
        rows.append(f"| `{code}` | {http} | {cli} | {markdown_cell(CODES[code])} |")
    return "\n".join(rows)


#: The width the CLI reference is wrapped at: fixed, so the page does not depend on the
#: terminal that regenerated it.
HELP_WIDTH = 100


@cache
def cli_command() -> Any:
    """The CLI as the click command Typer makes of its app, made once: making it is most
    of what one ``--help`` through Typer's own test runner costs."""
    import typer.main
    from lexicon.cli.main import app
    return typer.main.get_command(app)


def command_paths() -> list[list[str]]:
    """Every command of the CLI as the words that name it (``["sources", "pack"]``), in
    the app's order: read from the Typer app, so a new command is in the reference."""
    paths: list[list[str]] = [[]]

    def walk(group: object, prefix: list[str]) -> None:
        for name, command in getattr(group, "commands", {}).items():
            if getattr(command, "hidden", False):
                continue
            paths.append([*prefix, name])
            walk(command, [*prefix, name])

    walk(cli_command(), [])
    return paths


def command_help(path: list[str]) -> str:
    """``lexicon PATH --help`` as a person sees it, at :data:`HELP_WIDTH` columns."""
    from click.testing import CliRunner
    result = CliRunner().invoke(cli_command(), [*path, "--help"], prog_name="lexicon",
                                terminal_width=HELP_WIDTH)
    if result.exit_code != 0:
        raise SystemExit(f"lexicon {' '.join(path)} --help failed: {result.output}")
    return "\n".join(line.rstrip() for line in result.output.strip("\n").splitlines())


def cli_reference() -> str:
    """The CLI reference page: every command's ``--help`` (usage, arguments, options
    and defaults), the way datasette keeps its CLI reference with cog."""
    out = []
    for path in command_paths():
        name = " ".join(["lexicon", *path])
        out += [f"**`{name}`**", "", "```text", command_help(path), "```", ""]
    return "\n".join(out).rstrip("\n")


def nginx_body_limit() -> str:
    """The nginx site's body bound: the largest body the service takes
    (:func:`service.bodies.largest_body`), and a body over it answered in the API's error
    shape (``body_too_large``) rather than nginx's HTML page."""
    from lexicon.service.bodies import largest_body

    most = largest_body()
    body = json.dumps({"code": "body_too_large",
                       "message": f"the request body passed {most:,} bytes, the most any "
                                  "path takes", "detail": {"max_bytes": most}})
    return ("    # the largest body the service takes (service/bodies.py): a batch it accepts\n"
            "    # is never refused here, and a bigger one gets the API's JSON error\n"
            f"    client_max_body_size {most};\n"
            "    error_page 413 = @body_too_large;\n"
            "    location @body_too_large {\n"
            "        default_type application/json;\n"
            f"        return 413 '{body}';\n"
            "    }")


def drawn_sheets() -> str:
    """Where each drawn audit sheet of ``tests/data/audits/`` came from, read from its own
    header: the pages name a sheet by what it holds, and the release id, the date and the
    seed stand here, beside the figures scored from it, as the sheet records them."""
    from lexicon.audit import sheets

    rows = ["| game | sheet | drawn from | drawn | seed |", "|---|---|---|---|---|"]
    for path in sorted((ROOT / "tests" / "data" / "audits").glob("*/*.tsv")):
        meta = sheets.read(path).meta
        if meta.get("drawn") and meta.get("seed"):
            rows.append(f"| {path.parent.name} | `{path.stem}` | `{meta.get('release', '')}` "
                        f"| {meta['drawn'][:10]} | {meta['seed']} |")
    return "\n".join(rows)


#: The measured tables (``docs/figures/NAME.json``, :mod:`tools.figures`): a generated part
#: ``figures-KEY`` -> its page and the files whose rows it shows, in order.
FIGURE_TABLES = {
    "bench": ("benchmarks.md", ("bench",)),
    "reliability": ("benchmarks.md", ("fuzz", "publish-load", "body-bounds", "batch-memory")),
    "pattern-flood": ("benchmarks.md", ("pattern-flood", "pattern-flood-ignoring-retry-after")),
    "pattern-costs": ("benchmarks.md", ("pattern-costs",)),
    "remik-flood": ("benchmarks.md", ("remik-flood",)),
    "soak": ("benchmarks.md", ("soak",)),
    "offline": ("benchmarks.md", ("offline",)),
    "code-choices": ("benchmarks.md", ("code-choices",)),
    "engine-exports": ("engine-formats.md", ("engine-exports",)),
    "capacity": ("fleet.md", ("capacity",)),
}

TABLES = {"error-codes": error_table, "limits": lambda: limit_table(limits=LIMITS),
          "cli-reference": cli_reference, "body-limit": nginx_body_limit,
          "drawn-sheets": drawn_sheets,
          **{f"figures-{key}": (lambda files=files: figures.render(files))
             for key, (_page, files) in FIGURE_TABLES.items()}}

#: The nginx site the fleet runs behind (its body bound is generated).
SITE_CONF = ROOT / "deploy" / "nginx-lexicon.conf"

#: The page (or file) each generated part lives in.
PAGES = {"error-codes": DOCS / "errors-and-limits.md", "limits": DOCS / "errors-and-limits.md",
         "cli-reference": DOCS / "cli-reference.md", "body-limit": SITE_CONF,
         "drawn-sheets": DOCS / "tests.md",
         **{f"figures-{key}": DOCS / page for key, (page, _files) in FIGURE_TABLES.items()}}

#: How a generated part is marked, by the suffix of its file (the comment syntax there).
MARKERS = {".md": ("<!-- generated: {} -->", "<!-- /generated: {} -->"),
           ".conf": ("# generated: {}", "# /generated: {}")}


def render(text: str, names: tuple[str, ...] | None = None, suffix: str = ".md") -> str:
    """``text`` with each generated section ``names`` names (default: every one) written
    anew, marked as a file of ``suffix`` marks it (:data:`MARKERS`); a section it lacks is an
    error, so a page that lost its markers is not stale in silence."""
    opening, closing = MARKERS[suffix]
    for name in names if names is not None else tuple(TABLES):
        start, end = opening.format(name), closing.format(name)
        pattern = re.compile(rf"({re.escape(start)}\n)(?:.*?\n)?({re.escape(end)})", re.S)
        if not pattern.search(text):
            raise SystemExit(f"no '{start}' section")
        table = TABLES[name]()
        text = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(2), text)
    return text


def pages() -> dict[Path, tuple[str, str]]:
    """Each page holding generated parts -> (its text now, its text as it should be)."""
    out = {}
    for page in dict.fromkeys(PAGES.values()):
        current = page.read_text(encoding="utf-8")
        names = tuple(n for n, p in PAGES.items() if p == page)
        out[page] = (current, render(current, names, page.suffix))
    return out


def build_site(out: Path, source: Path = DOCS,
               builder: str = "html") -> subprocess.CompletedProcess:
    """Build the pages with Sphinx in strict mode: every warning (a link to a missing page
    or heading, a page outside the table of contents, a malformed block) is an error.
    Returns the finished process; its ``returncode`` is 0 only for a clean build. The
    ``dummy`` builder checks the same and writes nothing."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-E",
         "-b", builder, str(source), str(out)],
        capture_output=True, text=True, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is stale")
    parser.add_argument("--site", type=Path, metavar="DIR",
                        help="then build the pages into DIR (strict: a warning fails)")
    args = parser.parse_args(argv)
    stale = 0
    for page, (current, wanted) in pages().items():
        if wanted == current:
            continue
        if args.check:
            print(f"{page.relative_to(ROOT)} is stale: run `python -m tools.docs`",
                  file=sys.stderr)
            stale = 1
        else:
            page.write_text(wanted, encoding="utf-8")
    if args.site and not stale:
        built = build_site(args.site)
        sys.stderr.write(built.stdout + built.stderr)
        return 1 if built.returncode else 0
    return stale


if __name__ == "__main__":
    raise SystemExit(main())
