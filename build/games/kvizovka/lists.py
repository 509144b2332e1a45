"""Reviewed Serbo-Croatian word lists (``sources/lists/hbs_*.txt``): overrules with reasons.

The automatic decision is right for whole classes of words; where a source is wrong about a
handful of lemmas (apertium marks *kipteti* reflexive-only, or generates *prenosiv* as an
elative of *nosiv*), a reviewed list says so, with a reason per line, instead of a special case
in code. Every list is optional so tests and smoke builds can run without them.

Format (shared with the other games' lists, read by
:func:`sources.wordlist.read_reviewed_list`): ``entry  # reason``, the reason required; blank
lines and lines starting with ``#`` are comments; entries are lower-case Latin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lexicon.sources.wordlist import LISTS_DIR, read_reviewed_list

#: list name -> what it does (shown in the manifest's policy)
PURPOSES = {
    "hbs_reflexive_only": "verbs that exist only with 'se' (rejected: reflexive_verb), "
                          "added to apertium's own reflexive-only verbs",
    "hbs_not_reflexive_only": "verbs apertium tags reflexive-only that also exist without 'se'",
    "hbs_not_elative": "pre- adjectives apertium also generates as elatives of another "
                       "adjective but that are words of their own (prenosiv, preuzet)",
    "hbs_exclusions": "forms the sources admit but the rule book does not (listed_exclusion); "
                      "empty today: every known mistake was a class, fixed by a rule",
}


def read_list(path: Path) -> dict[str, str]:
    """Entries of one list file with their reasons (empty if the file does not exist)."""
    return read_reviewed_list(path) if path.exists() else {}


@dataclass
class ReviewedLists:
    """All hbs lists, loaded from one directory."""

    reflexive_only: dict[str, str] = field(default_factory=dict)
    not_reflexive_only: dict[str, str] = field(default_factory=dict)
    not_elative: dict[str, str] = field(default_factory=dict)
    exclusions: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, directory: Path | None = LISTS_DIR) -> ReviewedLists:
        if directory is None:
            return cls()
        return cls(
            reflexive_only=read_list(directory / "hbs_reflexive_only.txt"),
            not_reflexive_only=read_list(directory / "hbs_not_reflexive_only.txt"),
            not_elative=read_list(directory / "hbs_not_elative.txt"),
            exclusions=read_list(directory / "hbs_exclusions.txt"),
        )

    def sizes(self) -> dict[str, int]:
        return {
            "hbs_reflexive_only": len(self.reflexive_only),
            "hbs_not_reflexive_only": len(self.not_reflexive_only),
            "hbs_not_elative": len(self.not_elative),
            "hbs_exclusions": len(self.exclusions),
        }
