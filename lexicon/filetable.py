"""A directory's files by size and sha256, and how a directory differs from such a table.

Two rooms keep such tables: a release's manifest (:mod:`lexicon.store.integrity`, checked
before anything is mapped) and the source cache's record of an unpacked package
(:mod:`lexicon.sources.fetch`, checked before a build reads it). Both read every byte the
same way, so the helpers sit in the base every room may import.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in 1 MiB chunks so a large store never sits in memory."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def content_files(base: Path, *, skip: frozenset[str] | set[str]) -> list[str]:
    """Every file under ``base`` that its file table covers (all but the names in ``skip``),
    as sorted relative paths."""
    base = Path(base)
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*")
                  if p.is_file() and p.name not in skip)


def file_table(base: Path, *, skip: frozenset[str] | set[str]
               ) -> dict[str, dict[str, Any]]:
    """``{relative path: {"size", "sha256"}}`` of a directory's files: a release's, written
    into its manifest at publish (and an unpacked source's, see ``sources.fetch``)."""
    base = Path(base)
    return {rel: {"size": (base / rel).stat().st_size, "sha256": sha256_file(base / rel)}
            for rel in content_files(base, skip=skip)}


def table_problems(base: Path, table: dict[str, dict[str, Any]], *, where: str,
                   skip: frozenset[str] | set[str]) -> list[str]:
    """How the files under ``base`` differ from ``table`` (kept in ``where``): missing,
    resized, edited (sha256) or added files. Reads every byte."""
    problems = []
    for rel, want in sorted(table.items()):
        path = Path(base) / rel
        if not path.is_file():
            problems.append(f"{rel}: missing")
        elif path.stat().st_size != want.get("size"):
            problems.append(f"{rel}: {path.stat().st_size} bytes, {where} says "
                            f"{want.get('size')}")
        elif sha256_file(path) != want.get("sha256"):
            problems.append(f"{rel}: sha256 differs from {where}")
    problems += [f"{rel}: not listed in {where}" for rel in content_files(base, skip=skip)
                 if rel not in table]
    return problems
