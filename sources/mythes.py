"""Read a LibreOffice (MyThes) thesaurus: ``th_LANG_v2.dat`` with its ``.idx``.

Why: the Slovenian thesaurus (Debian ``mythes-sl``, from the OdprtiTezaver project) holds
about 21,500 headwords, each with one or more meanings, and every meaning starts with the
headword's part of speech: ``(sam.)`` samostalnik, a noun; ``(prid.)`` pridevnik, an
adjective; ``(gl.)`` glagol, a verb; ``(prisl.)`` prislov, an adverb; and a few more. So it
is an independent witness that a spelling is a noun lemma (``jagnje``, ``moderna``), which
is what Križemkražem asks, where the analysers disagree or are silent.

The format, as MyThes reads it::

    ISO8859-2                       <- line 1: the encoding of the whole file
    šablona|1                       <- a headword and the number of meanings that follow
    (sam.)|obrazec|stereotip|vzorec <- a meaning: part of speech, then synonyms, '|'-separated
    šaliti se|2
    (gl.)|briti norce|norčevati se
    (gl.)|...

A synonym may carry a usage note in brackets (``cerkvanje (narečno)``). The ``.idx`` file
(encoding, entry count, then ``headword|byte offset`` lines) only speeds up lookups; the
``.dat`` file is read whole, so the index is not needed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# the part-of-speech labels of the Slovenian thesaurus, in English (for counts and tests)
POS = {"sam.": "noun", "prid.": "adjective", "gl.": "verb", "prisl.": "adverb",
       "zaim.": "pronoun", "povdk.": "predicative", "vez.": "conjunction",
       "predl.": "preposition", "člen.": "particle", "medm.": "interjection",
       "štev.": "numeral"}
_LABEL = re.compile(r"^\((?P<pos>[^)]*)\)$")


@dataclass(frozen=True)
class Meaning:
    pos: str                      # the label as written, without brackets: "sam."
    synonyms: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    headword: str
    meanings: tuple[Meaning, ...]

    @property
    def parts_of_speech(self) -> frozenset[str]:
        return frozenset(m.pos for m in self.meanings)

    def is_noun(self) -> bool:
        return "sam." in self.parts_of_speech


class ThesaurusError(ValueError):
    """A malformed thesaurus file; the message names the file and line."""


def find_file(root: Path) -> Path:
    """The ``th_*.dat`` file under an unpacked package root or a directory."""
    for dat in sorted(Path(root).rglob("th_*.dat")):
        return dat
    raise FileNotFoundError(f"no MyThes th_*.dat file under {root}")


def read(path: Path) -> list[Entry]:
    """Every entry of a ``.dat`` file, in file order."""
    raw = Path(path).read_bytes()
    first, _, rest = raw.partition(b"\n")
    encoding = first.decode("ascii").strip() or "utf-8"
    lines = rest.decode(encoding).splitlines()
    out: list[Entry] = []
    i = 0
    while i < len(lines):
        head = lines[i]
        i += 1
        if not head.strip():
            continue
        word, sep, count_text = head.rpartition("|")
        if not sep or not count_text.isdigit():
            raise ThesaurusError(f"{path}:{i + 1}: expected 'headword|count', got {head!r}")
        meanings = []
        for _ in range(int(count_text)):
            if i >= len(lines):
                raise ThesaurusError(f"{path}: {word!r} announces {count_text} meanings; "
                                     "the file ends first")
            label, *synonyms = lines[i].split("|")
            i += 1
            m = _LABEL.match(label.strip())
            meanings.append(Meaning(m.group("pos") if m else label.strip(),
                                    tuple(s.strip() for s in synonyms if s.strip())))
        out.append(Entry(word, tuple(meanings)))
    return out


def by_headword(root: Path) -> dict[str, Entry]:
    """``{headword: entry}`` for a package root."""
    return {e.headword: e for e in read(find_file(root))}


