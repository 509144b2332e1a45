"""Reviewed Slovenian lists (``sources/lists/sl_*.txt``): what no source tags.

No Slovenian source in the build marks pluralia tantum (*hlače*), nation and inhabitant
plurals (*Škoti*), established plural use (*padavine*), fixed phrases (*pustni ples*), a
person's first name + surname (*Tone Pavček*) or abbreviations that became nouns
(*Unesco*), yet the Križemkražem rule book admits all of them. They are therefore kept as
hand-written lists, one entry a line, each with the reason it is there::

    pustni ples  # rule book example (IZBOR BESED)

They are read by the one reviewed-list reader, :func:`sources.wordlist.read_reviewed_entries`,
with phrases allowed (single spaces); the display form is kept as written (capitals,
spaces), the key is derived by the builder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lexicon.sources.wordlist import read_reviewed_entries

#: file name -> the Record.category its entries get
LIST_CATEGORIES: dict[str, str] = {
    "sl_pluralia_tantum.txt": "plurale_tantum",
    "sl_established_plurals.txt": "established_plural",
    "sl_nation_plurals.txt": "nation_plural",
    "sl_phrases.txt": "phrase",
    "sl_full_names.txt": "full_name",
    "sl_abbreviation_nouns.txt": "abbreviation_noun",
}
#: entries of this file are rejected (``listed_exclusion``), whatever the sources say
EXCLUSIONS = "sl_exclusions.txt"


@dataclass(frozen=True)
class ListEntry:
    word: str        # as written: "Tone Pavček"
    reason: str
    file: str        # "sl_full_names.txt"
    category: str    # "full_name"; "excluded" for the exclusion list


def read_list(path: Path, category: str) -> list[ListEntry]:
    """Entries of one list; a missing reason, a double space or a duplicate stops the build.

    Hand-edited lists override the automatic pipeline, so a malformed line must fail loudly
    with its location instead of silently changing the lexicon.
    """
    return [ListEntry(e.entry, e.reason, e.file, category)
            for e in read_reviewed_entries(path, phrases=True)]


def read_lists(directory: Path) -> tuple[list[ListEntry], list[ListEntry]]:
    """(admitting entries, exclusions) from every known list present in ``directory``."""
    admit: list[ListEntry] = []
    for name, category in LIST_CATEGORIES.items():
        path = directory / name
        if path.exists():
            admit += read_list(path, category)
    excl = directory / EXCLUSIONS
    excluded = read_list(excl, "excluded") if excl.exists() else []
    return admit, excluded
