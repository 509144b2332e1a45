"""No product function is longer than :data:`MOST_LINES` lines: a longer one is several
steps that want names of their own (read, search, score, log).

A function's lines run from its ``def`` to its last line, nested functions included (a
closure is part of the function that makes it); decorators are not counted. Product code is
what the wheel installs: ``lexicon/``, ``build/``, ``sources/``, ``service/``, ``cli/``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("lexicon", "build", "sources", "service", "cli")
MOST_LINES = 80

def lengths(source: str) -> Iterator[tuple[str, int]]:
    """(qualified name, lines) of every function in ``source``, methods and nested
    functions included (``Class.method``, ``outer.inner``)."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                yield name, child.end_lineno - child.lineno + 1   # type: ignore[operator]
                yield from walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)
    yield from walk(ast.parse(source), "")


def product_lengths() -> dict[str, int]:
    """``path::name`` -> lines, for every function of the product."""
    return {f"{path.relative_to(ROOT).as_posix()}::{name}": lines
            for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))
            for name, lines in lengths(path.read_text(encoding="utf-8"))}


def test_no_product_function_is_longer_than_the_limit() -> None:
    too_long = {name: lines for name, lines in product_lengths().items()
                if lines > MOST_LINES}
    assert too_long == {}

