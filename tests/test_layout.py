"""The one-way flow, checked on the imports: sources -> build -> lexicon -> service, cli.

The runtime library never imports a builder, a face or a tool; a builder never imports a
face or a tool (``build`` used to import ``service`` for its benchmark, now in ``tools/``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "lexicon": {"build", "service", "cli", "tools", "sources"},
    "build": {"service", "cli", "tools"},
    "sources": {"service", "cli", "tools", "build"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package: str) -> None:
    bad = {str(p.relative_to(ROOT)): sorted(_imports(p) & FORBIDDEN[package])
           for p in sorted((ROOT / package).rglob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}


FACES = ("cli", "service")


def _library_imports(path: Path) -> list[str]:
    """Every import of the library in ``path``, as ``lexicon.<module>`` or ``lexicon:<name>``
    (a name imported from the package itself), function-level imports included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "lexicon"]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "lexicon":
                out += [f"lexicon:{a.name}" for a in node.names]
            elif node.module.startswith("lexicon."):
                out.append(node.module)
    return out


def test_the_faces_import_only_the_front_door() -> None:
    """The CLI and the service reach the library through ``lexicon.Lexicon`` and the other
    names of ``lexicon.__all__`` (the catalog, the errors, the limits), never a module of
    it: the door is the one interface, so the rules stay behind it."""
    import lexicon

    allowed = {f"lexicon:{name}" for name in lexicon.__all__}
    bad = {str(p.relative_to(ROOT)): sorted(set(_library_imports(p)) - allowed)
           for face in FACES for p in sorted((ROOT / face).rglob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_door_exports_what_the_package_lists() -> None:
    """``lexicon/__init__.py`` loads the door lazily: the package's names are the door's,
    every one resolves, none is a module (which would open the library to the faces
    again), and a submodule is still imported as one."""
    import types

    import lexicon
    from lexicon import door

    assert lexicon.__all__ == door.__all__
    for name in lexicon.__all__:
        assert not isinstance(getattr(lexicon, name), types.ModuleType), name
    assert {"Lexicon", "Catalog", "LexiconError", "CODES"} <= set(lexicon.__all__)
    from lexicon import atomic
    assert isinstance(atomic, types.ModuleType)
    with pytest.raises(AttributeError):
        lexicon.no_such_name  # noqa: B018


# The runtime's five layers, lowest first. A module may import its own layer and the
# layers below it, never one above: the rule book knows nothing of releases, the store
# decides no verdict, and only the faces (through the front door) sit above export.
# Modules directly in lexicon/ are either the base every layer shares (errors, paths,
# atomic) or above all five: the front door, the catalog that opens and caches doors, the
# readiness check over the catalog, and the table of limits read from every layer. An
# import under ``if TYPE_CHECKING`` names a type and loads nothing, so it is not counted
# (the layers take a catalog as an argument and never open one).
LAYERS = ["game", "store", "verdicts", "queries", "export"]
BASE = {"errors", "paths", "atomic"}
TOP = {"door", "catalog", "readiness", "limits"}


def _layer(module: str) -> int:
    """-1 for the shared base, len(LAYERS) for the front door, else the layer's rank."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "lexicon":
        raise ValueError(module)
    if parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return -1 if parts[1] in BASE else len(LAYERS)


def _lexicon_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and ast.unparse(node.test) == "TYPE_CHECKING" for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("lexicon.")}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "lexicon":
                out |= {f"lexicon.{a.name}" for a in node.names}
            elif node.module.startswith("lexicon."):
                out.add(node.module)
    return out


def test_every_runtime_module_sits_in_a_layer() -> None:
    loose = sorted(p.name for p in (ROOT / "lexicon").glob("*.py")
                   if p.stem not in BASE | TOP | {"__init__"})
    assert loose == [], "put new runtime modules in one of " + ", ".join(LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_layers_import_only_downwards(layer: str) -> None:
    rank = LAYERS.index(layer)
    bad = {}
    for path in sorted((ROOT / "lexicon" / layer).rglob("*.py")):
        up = sorted(m for m in _lexicon_imports(path) if _layer(m) > rank)
        if up:
            bad[str(path.relative_to(ROOT))] = up
    assert bad == {}
    doc = ast.get_docstring(ast.parse((ROOT / "lexicon" / layer / "__init__.py").read_text()))
    assert doc, f"lexicon/{layer}/__init__.py must say what the layer owns"
