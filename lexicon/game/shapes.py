"""Word-shape classes of a language: what a spelling's form alone says about the kind of
change it is part of, tried before any verdict class when two editions are compared.

Both diffs of editions read them (a source's word list, :mod:`sources.editions`; a game's
releases, :mod:`lexicon.export.diff`), so the language fact is written once, here, with the
rest of what the runtime knows of a game's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# -skość, -ckość and their case forms (bełchatowskość, wołżańskościami)
_SKOSC = re.compile(r"[sc]koś(?:ć|ci|cią|ciach|ciami|ciom)$")


def skosc_derivation(w: str) -> bool:
    """A lower-case noun in -skość/-ckość (a quality noun of a -ski/-cki adjective) or one
    of its forms: most of what sjp.pl deleted as junk from its list (bełchatowskość)."""
    return w == w.lower() and _SKOSC.search(w) is not None


#: word-shape classes by language code, tried in order: (class name, test of a spelling)
SHAPES: dict[str, list[tuple[str, Callable[[str], bool]]]] = {
    "pl": [("skosc_derivation", skosc_derivation)],
}
