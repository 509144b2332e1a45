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
