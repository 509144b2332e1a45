"""Where generated data lives: one directory, ``$LEXICON_HOME`` or ``./data``.

Everything the project downloads or builds goes below it (``cache/`` for source artifacts,
``releases/<game>/<id>/`` for releases), so one ``rm -r`` resets a machine and git never
sees generated files.
"""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    return Path(os.environ.get("LEXICON_HOME", "data")).resolve()


def where(root: Path | None = None) -> str:
    """The data directory as a person should be told it, saying where it came from: a
    command run outside the repository finds no ``./data`` and must say which directory
    it looked in, not only that nothing was there."""
    path = root or home()
    if root is not None and root != home():
        return str(path)
    if os.environ.get("LEXICON_HOME"):
        return f"{path} (LEXICON_HOME)"
    return f"{path} (./data: LEXICON_HOME is not set)"


def cache_dir(root: Path | None = None) -> Path:
    return (root or home()) / "cache"


def releases_dir(root: Path | None = None) -> Path:
    return (root or home()) / "releases"


def rulings_dir(root: Path | None = None) -> Path:
    """Where the judge logs its rulings: ``$LEXICON_RULINGS``, else ``rulings/`` in the data
    directory (the benchmark points it elsewhere so it never writes into a data directory
    it only measures)."""
    override = os.environ.get("LEXICON_RULINGS")
    return Path(override).resolve() if override else (root or home()) / "rulings"
