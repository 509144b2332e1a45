"""Runtime library: game profiles, tiles, the release store and the queries over it.

Start from :class:`lexicon.Lexicon` (``lexicon/door.py``): one game's word list as one
release gives it, with every question a face asks (check, valid, judge, blanks, pattern,
anagrams, hooks, export, diff), and :class:`lexicon.Catalog`, one ``LEXICON_HOME`` that
opens and caches them. The CLI and the service import nothing else from this package.

The build pipeline (``build/``) writes releases; this package only reads them, so a
service or an engine can depend on it without pulling in any source-dictionary tooling.
The door's names are loaded on first use, so a builder importing ``lexicon.game.profile`` does
not load the whole runtime (the marisa tries, numpy) with it.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``lexicon.Lexicon`` and the door's other public names (``lexicon.door.__all__``, also
    this package's ``__all__``), imported when first asked for. A submodule's name is an
    AttributeError here, so ``from lexicon import checker`` goes on to import the submodule
    without loading the door."""
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module 'lexicon' has no attribute {name!r}")
    if name != "__all__" and find_spec(f"lexicon.{name}") is not None:
        raise AttributeError(f"{name!r} is a submodule of lexicon, not yet imported")
    from lexicon import door

    if name != "__all__" and name not in door.__all__:
        raise AttributeError(f"module 'lexicon' has no attribute {name!r}")
    value = getattr(door, name)
    globals()[name] = value
    return value
