"""The one-way flow, checked on the imports: sources -> build -> lexicon -> service, cli.

Every import counts: at module level, inside a function, and under ``if TYPE_CHECKING``
(a type named from above is a dependency on what is above). The runtime library never
imports a builder, a face or a tool, nor names one in a string for ``importlib``; a builder
never imports a face or a tool; no module, through any chain of imports, imports itself.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("lexicon", "build", "sources", "service", "cli")
FORBIDDEN = {
    "lexicon": {"build", "service", "cli", "tools", "sources"},
    "build": {"service", "cli", "tools"},
    "sources": {"service", "cli", "tools", "build"},
}
FACES = ("cli", "service")


BESIDE = ("build", "sources", "service", "cli")   # folders that import as lexicon.<name>


def _module(path: Path) -> str:
    """The import name of a product file (``build/pipeline.py`` is ``lexicon.build.
    pipeline``), as the docs' generator names it."""
    from tools.docs import module_name

    return module_name(path)


MODULES = {_module(p): p for pkg in PRODUCT for p in sorted((ROOT / pkg).rglob("*.py"))}


@cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s syntax tree, parsed once for all the checks of this file."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def _imported(path: Path) -> Iterator[str]:
    """Every name an import in ``path`` reaches (``a.b`` for ``from a import b``), anywhere
    in the file."""
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def _part(name: str) -> str:
    """The folder a module lives in: ``lexicon.build.release_writer`` is the pipeline's,
    ``lexicon.store`` the library's, ``tools.bench`` a tool's."""
    parts = name.split(".")
    if parts[0] == "lexicon" and len(parts) > 1 and parts[1] in BESIDE:
        return parts[1]
    return parts[0]


def _resolve(name: str) -> str | None:
    """The product module an imported name lives in (``lexicon.lexicon.Lexicon`` ->
    ``lexicon.lexicon``), None outside the product."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports. The package ``lexicon`` loads each public
    name's module when it is first asked for (``lexicon.PUBLIC``), so it imports those.
    A fresh copy each call (a test may add an edge), made from one reading of the tree."""
    return {name: set(deps) for name, deps in _read_graph().items()}


@cache
def _read_graph() -> dict[str, set[str]]:
    import lexicon

    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        found = {m for n in _imported(path) if (m := _resolve(n)) is not None}
        graph[name] = {m for m in found if m != name and not name.startswith(m + ".")}
    graph["lexicon"] |= set(lexicon.PUBLIC.values())
    return graph


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package: str) -> None:
    bad = {str(p.relative_to(ROOT)): sorted({_part(n) for n in _imported(p)}
                                            & FORBIDDEN[package])
           for p in sorted((ROOT / package).rglob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_library_names_no_face_nor_builder() -> None:
    """A module named in a string (for ``importlib``) is an import the checks above cannot
    see: the library holds no such string of a face, a builder or a tool."""
    bad = {}
    for path in sorted((ROOT / "lexicon").rglob("*.py")):
        named = [node.value for node in _nodes(path)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and _part(node.value.split(":")[0]) in FORBIDDEN["lexicon"]
                 and "." in node.value and " " not in node.value]
        if named:
            bad[str(path.relative_to(ROOT))] = named
    assert bad == {}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """A circle of imports, if there is one (the standard library's topological sorter
    names one when it finds it)."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return [sorted(set(exc.args[1]))]
    return []


def test_no_module_imports_itself_through_others() -> None:
    assert _cycles(_graph()) == []


def test_a_circle_is_found() -> None:
    """The circle check sees a circle through a function-level or typing-only import."""
    graph = _graph()
    graph["lexicon.game.profile"] = graph["lexicon.game.profile"] | {"lexicon.catalog"}
    assert any({"lexicon.game.profile", "lexicon.catalog"} <= set(c) for c in _cycles(graph))


def _library_imports(path: Path) -> list[str]:
    """Every import of the library in ``path``, as ``lexicon.<module>`` or ``lexicon:<name>``
    (a name imported from the package itself), function-level imports included."""
    out = []
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if _part(a.name) == "lexicon"]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "lexicon":
                out += [f"lexicon:{a.name}" for a in node.names if a.name not in BESIDE]
            elif _part(node.module) == "lexicon":
                out.append(node.module)
    return out


def test_the_faces_import_only_the_public_names() -> None:
    """The CLI and the service reach the library through ``lexicon.open``, ``lexicon.
    Lexicon`` and the other names of ``lexicon.__all__`` (the catalog, the errors, the
    limits), never a module of it: the door is the one interface, so the rules stay
    behind it."""
    import lexicon

    allowed = {f"lexicon:{name}" for name in lexicon.__all__}
    bad = {str(p.relative_to(ROOT)): sorted(set(_library_imports(p)) - allowed)
           for face in FACES for p in sorted((ROOT / face).rglob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_package_exports_its_public_table() -> None:
    """``lexicon/__init__.py`` loads each public name from the module that owns it: every
    one resolves, none is a module (which would open the library to the faces again), the
    door never imports the catalog above it, and a submodule is still imported as one."""
    import types

    import lexicon

    assert lexicon.__all__ == sorted([*lexicon.PUBLIC, "__version__"])
    for name in lexicon.__all__:
        assert not isinstance(getattr(lexicon, name), types.ModuleType), name
    assert {"Lexicon", "Catalog", "open", "LexiconError", "CODES"} <= set(lexicon.__all__)
    assert "lexicon.catalog" not in _graph()["lexicon.lexicon"]
    from lexicon import atomic
    assert isinstance(atomic, types.ModuleType)
    with pytest.raises(AttributeError):
        lexicon.no_such_name  # noqa: B018


# The runtime's six layers, lowest first. A module may import its own layer and the
# layers below it, never one above: the rule book knows nothing of releases, the store
# decides no verdict, export serves the faces, and the maintainer's audit (which reads
# verdicts and exports) sits above them all, where no builder reaches it.
# Modules directly in lexicon/ are either the base every layer shares (errors, paths,
# atomic, userfile, a directory's file table, the report of a change between editions) or
# above all six: the front door (the Lexicon class), the catalog that opens and caches
# them, the readiness check over the catalog, what a server finds to serve (its start-up
# line and /healthz's status), and the table of limits read from every layer. The layers
# take the data they read (a profile, a release, a home) and never a catalog.
LAYERS = ["game", "store", "verdicts", "queries", "export", "audit"]
BASE = {"errors", "paths", "atomic", "userfile", "filetable", "changes"}
TOP = {"lexicon", "catalog", "readiness", "serving", "limits"}
#: what the pipeline's side may import of the runtime: the base, the rule book as data, the
#: store's format, and the verdicts and exports it checks its output with; never the audit
BUILD_READS = {"game", "store", "verdicts", "export"}
#: what a source reader may import of the runtime: the base and the language facts
SOURCES_READ = {"game"}


def _layer(module: str) -> int:
    """-1 for the shared base, len(LAYERS) for the front door, else the layer's rank."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "lexicon":
        raise ValueError(module)
    if parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return -1 if parts[1] in BASE else len(LAYERS)


def test_every_runtime_module_sits_in_a_layer() -> None:
    loose = sorted(p.name for p in (ROOT / "lexicon").glob("*.py")
                   if p.stem not in BASE | TOP | {"__init__"})
    assert loose == [], "put new runtime modules in one of " + ", ".join(LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_layers_import_only_downwards(layer: str) -> None:
    rank = LAYERS.index(layer)
    graph = _graph()
    bad = {}
    for path in sorted((ROOT / "lexicon" / layer).rglob("*.py")):
        up = sorted(m for m in graph[_module(path)]
                    if m.startswith("lexicon.") and _layer(m) > rank)
        if up:
            bad[str(path.relative_to(ROOT))] = up
    assert bad == {}
    doc = ast.get_docstring(ast.parse((ROOT / "lexicon" / layer / "__init__.py").read_text()))
    assert doc, f"lexicon/{layer}/__init__.py must say what the layer owns"


def _runtime_rooms(package: str) -> dict[str, list[str]]:
    """For each module of ``package`` (``build``, ``sources``), the rooms of the runtime it
    imports, by the folder each imported module lives in (``lexicon/export/audit/x.py`` is
    the audit's wherever the folder sits): the layer's name, ``base`` or ``top``."""
    def room(module: str) -> str:
        path = MODULES[module].relative_to(ROOT / "lexicon")
        if "audit" in path.parts[:-1]:
            return "audit"
        if len(path.parts) > 1:
            return path.parts[0]
        return "base" if path.stem in BASE else "top"

    graph = _graph()
    return {m: sorted({room(d) for d in deps if _part(d) == "lexicon"})
            for m, deps in graph.items() if _part(m) == package}


def test_the_pipeline_never_imports_the_audit() -> None:
    """The audit measures releases; a builder that imports it (a label, a class name) makes
    the measure part of what it measures. The label a builder writes and the audit reads
    belongs to the record format (``lexicon.store.records``). Only the build plan opens the
    catalog, to find the games whose release is missing or damaged."""
    allowed = BUILD_READS | {"base"}
    bad = {m: sorted(set(rooms) - allowed - ({"top"} if m == "lexicon.build.plan" else set()))
           for m, rooms in _runtime_rooms("build").items()}
    assert {m: r for m, r in bad.items() if r} == {}


def test_source_readers_import_only_the_base_and_the_language_facts() -> None:
    """A source reader is the bottom of the build: it may use the shared base and the game
    layer's language facts, not a store helper or an export of the runtime."""
    allowed = SOURCES_READ | {"base"}
    bad = {m: sorted(set(rooms) - allowed) for m, rooms in _runtime_rooms("sources").items()}
    assert {m: r for m, r in bad.items() if r} == {}


def test_builders_know_nothing_of_the_build_around_them() -> None:
    """A game's builder (``build/games/``) is handed a ``build.context.BuildContext`` and
    yields records: it never imports the pipeline that runs it, the stage after the rules
    or the release writer (so the build only moves forward: sources, evidence, rules, the
    stage after the rules, the writer), and every game the pipeline builds is registered
    in ``build.games.BUILDERS`` with a ``builder(ctx)`` factory."""
    import importlib

    from lexicon.build.games import BUILDERS

    from lexicon.game import profile as profiles

    after = {"lexicon.build.pipeline", "lexicon.build.overruling", "lexicon.build.release_writer",
             "lexicon.build.linked", "lexicon.build.amend"}
    graph = _graph()
    bad = {m: sorted(deps & after) for m, deps in graph.items()
           if m.startswith("lexicon.build.games") and deps & after}
    assert bad == {}
    judged = {g for g in profiles.game_ids() if profiles.load(g).vocabulary == g}
    assert judged == set(BUILDERS)
    for game, package in BUILDERS.items():
        assert package.startswith("lexicon.build.games."), game
        assert callable(importlib.import_module(package).builder), game


def test_the_e2e_marker_names_real_test_files() -> None:
    """``pytest -m "not e2e"`` leaves out what conftest's E2E_FILES names: a renamed file
    would slip into the quick loop unnoticed."""
    from tests.conftest import E2E_FILES

    assert {name for name in E2E_FILES if not (ROOT / "tests" / name).is_file()} == set()


def _python(code: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The development environment's interpreter (the README's set-up: an editable install),
    run in ``cwd`` with nothing on ``PYTHONPATH``, as a user's shell would run it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *(("-c", code) if code else ()), *args], cwd=cwd,
                          env=env, capture_output=True, text=True, check=False, timeout=120)


@pytest.mark.parametrize("name", BESIDE)
def test_the_folders_beside_lexicon_import_only_inside_it(name: str, tmp_path: Path) -> None:
    """The checkout imports exactly what the wheel installs: ``lexicon.build`` is the
    checkout's ``build/``; a top-level ``build`` is never the checkout's folder, from another
    directory or from the checkout itself (tools/checkout_imports.py)."""
    inside = _python(f"import lexicon.{name} as m; print(m.__file__)", tmp_path)
    assert inside.returncode == 0, inside.stderr
    assert Path(inside.stdout.strip()) == ROOT / name / "__init__.py"
    for where in (tmp_path, ROOT):
        top = _python(f"import {name} as m; print(m.__file__)", where)
        assert top.stdout.strip() != str(ROOT / name / "__init__.py"), (where, top.stdout)
        if name != "build":          # PyPA's frontend is installed under that name
            assert top.returncode == 1 and f"No module named {name!r}" in top.stderr, top


def test_the_checkout_has_no_other_top_level_names_inside_lexicon(tmp_path: Path) -> None:
    """Only the four folders join the package: ``lexicon.tools`` or ``lexicon.tests``, which
    the wheel does not install, do not import."""
    for name in ("tools", "tests", "deploy"):
        got = _python(f"import lexicon.{name}", tmp_path)
        assert got.returncode == 1 and "No module named" in got.stderr, (name, got.stderr)


def test_pypa_build_runs_in_the_checkout() -> None:
    """``python -m build`` in the checkout is PyPA's frontend, not the build pipeline."""
    got = _python("", ROOT, "-m", "build", "--version")
    assert got.returncode == 0 and "site-packages" in got.stdout, got.stdout + got.stderr


def test_one_file_is_one_module() -> None:
    """``lexicon.build.pipeline`` is loaded once, whatever else a process imports."""
    got = _python("import sys, lexicon.build.pipeline\n"
                  "try:\n    import build.pipeline\nexcept ImportError:\n    pass\n"
                  "print(sorted(n for n, m in sys.modules.items()\n"
                  "             if getattr(m, '__file__', '') and m.__file__.endswith("
                  "'build/pipeline.py')))", ROOT)
    assert got.returncode == 0 and got.stdout.strip() == "['lexicon.build.pipeline']", got


def test_a_stray_lexicon_folder_does_not_hide_the_checkout(tmp_path: Path) -> None:
    """A folder named ``lexicon`` without ``__init__.py`` on the path (a leftover of an old
    install) is no namespace package hiding the checkout's."""
    (tmp_path / "lexicon").mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    got = subprocess.run([sys.executable, "-c", "import lexicon.build as m; print(m.__file__)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
                         timeout=120)
    assert got.returncode == 0, got.stderr
    assert Path(got.stdout.strip()) == ROOT / "build" / "__init__.py"
