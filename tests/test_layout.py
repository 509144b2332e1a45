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
