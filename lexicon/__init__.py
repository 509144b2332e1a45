"""Runtime library: game profiles, tiles, the release store and the queries over it.

Start from :func:`lexicon.open`, which gives a :class:`lexicon.Lexicon` (``lexicon/lexicon.py``):
one game's word list as one release gives it, with every question a face asks (check,
valid, judge, blanks, pattern, anagrams, hooks, export, diff); :class:`lexicon.Catalog` is
one ``LEXICON_HOME`` that opens and caches them. The CLI and the service import nothing but
:data:`PUBLIC`'s names from this package.

The build pipeline (``build/``) writes releases; this package only reads them, so a
service or an engine can depend on it without pulling in any source-dictionary tooling.
The public names are loaded on first use, so a builder importing ``lexicon.game.profile``
does not load the whole runtime (the marisa tries, numpy) with it.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

#: the distribution's version, stated here only (pyproject.toml reads it from this line)
__version__ = "0.1.0"

# The distribution claims one import name. The build pipeline, the source readers and the
# two faces are folders beside this one in a checkout (the layout the project keeps) and
# folders inside it in the wheel (pyproject's force-include); either way they import as
# lexicon.build, lexicon.sources, lexicon.service and lexicon.cli: in a checkout through the
# editable install's import hook (tools/checkout_imports.py), which maps them and nothing else.


#: The public names, each with the module that owns it: ``from lexicon import X`` loads that
#: module on first use. They are the only names the CLI and the service may import from the
#: library (``tests/project/test_layout.py``): the front door, the catalog that opens doors, the
#: errors and exit codes, the limits the faces state, and a few helpers
#: that need no release.
PUBLIC: dict[str, str] = {
    "Lexicon": "lexicon.lexicon",
    **dict.fromkeys(("Catalog", "open"), "lexicon.catalog"),
    **dict.fromkeys(("CODES", "EXIT_BUSY", "EXIT_FAILED", "EXIT_INTERNAL", "EXIT_INVALID",
                     "InputError", "InternalError", "LexiconError", "NotReady", "PackNotReady"),
                    "lexicon.errors"),
    **dict.fromkeys(("LIMITS", "Limits", "limit_table", "limit_value", "markdown_cell"),
                    "lexicon.limits"),
    **dict.fromkeys(("EDGE_SPACE", "MAX_WORD_CHARS"), "lexicon.game.inputs"),
    **dict.fromkeys(("game_name", "language"), "lexicon.game.gloss"),
    "game_ids": "lexicon.game.profile",
    "class_lines": "lexicon.changes",
    "identity": "lexicon.export.export",
    **dict.fromkeys(("DEFAULT_LIMIT", "MAX_LIMIT", "MAX_OFFSET", "MAX_PATTERN_WORK"),
                    "lexicon.queries.queries"),
    **dict.fromkeys(("MAX_BOARD_TILES", "MAX_CHARS_PER_TILE", "MAX_RACK_TILES"),
                    "lexicon.queries.anagrams"),
    "MAX_PATTERN_CHARS": "lexicon.queries.patterns",
    "MAX_BATCH": "lexicon.verdicts.checker",
    "MAX_WORDS": "lexicon.verdicts.fastcheck",
    "MAX_PLAY_WORDS": "lexicon.verdicts.judge",
    **dict.fromkeys(("read_history", "read_history_file"), "lexicon.verdicts.remik"),
    **dict.fromkeys(("LOCK_TIMEOUT", "LockHeld"), "lexicon.verdicts.rulings"),
    "lease_releases": "lexicon.store.leases",
    **dict.fromkeys(("health_status", "startup_report", "startup_text"), "lexicon.serving"),
    "OFFLINE_FORMAT": "lexicon.export.offline",
    "stream_lines": "lexicon.userfile",
}
__all__ = sorted([*PUBLIC, "__version__"])


def __getattr__(name: str) -> Any:
    """A public name (:data:`PUBLIC`), imported from its module when first asked for, so a
    builder importing ``lexicon.game.profile`` does not load the whole runtime with it. A
    submodule's name is an AttributeError here, so ``from lexicon import atomic`` goes on to
    import the submodule."""
    if name.startswith("__") or name not in PUBLIC:
        if not name.startswith("__") and find_spec(f"lexicon.{name}") is not None:
            raise AttributeError(f"{name!r} is a submodule of lexicon, not yet imported")
        raise AttributeError(f"module 'lexicon' has no attribute {name!r}")
    value = getattr(import_module(PUBLIC[name]), name)
    globals()[name] = value
    return value
