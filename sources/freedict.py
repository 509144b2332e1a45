"""Read a FreeDict dictionary in dictd format (``*.index`` + ``*.dict.dz``).

Why: FreeDict's Slovenian-English dictionary (Debian ``dict-freedict-slv-eng``) is small
(~5.5k headwords) but every headword is a lemma written by a native speaker with a
part-of-speech label, e.g.::

    hlače /xlˈaːtʃɛ/ <n, f, pl>
    svet /sʋˈeːt/ <n, m, sg>
    svet /sʋˈeːt/ <adj, m, sg>

so it says "this is a noun in the nominative (singular, or plural for pluralia tantum)"
where the other sources are silent or ambiguous. The builders read the headword lines; the
meanings a release carries (``build.meanings_writer``) read each entry's body too.

The same reader serves the other FreeDict packages, whose headword lines differ only in
what they carry: Polish-English (``dict-freedict-pol-eng``, made from Wiktionary) labels
every headword like the Slovenian one (``ablucja /abˈlut͡sja/ <n, f>``); Croatian-English
(``dict-freedict-hrv-eng``, a reversed English-Croatian glossary) gives the headword and
its IPA only (``mačka /mˈatʃkæ/``): an entry without labels (``Entry.labels == ()``) says
"this spelling is a headword", nothing about its part of speech. The first line of an
entry's text is always its headword line; a later unindented line is one only when it has
labels (a homograph under the same index entry), since unlabelled translation lines look
the same as an unlabelled headword.

The format: the ``.index`` file has one line per headword, ``headword<TAB>offset<TAB>
length``, offset and length in dictd's base64 (alphabet ``A-Za-z0-9+/``, most significant
digit first); the ``.dict.dz`` file is gzip-compatible (dictzip), so the whole text can be
decompressed with :mod:`gzip` and sliced. Headwords starting with ``00database`` are
metadata.

An entry's body, the lines after its headword line, as the three packages write it::

    abolicija /abɔlitsˈiːja/ <n, f, sg>      <- headword line (slv-eng)
     [law] abolition                         <- the translations, comma-separated; a
          "abolicija smrtne kazni"  - death…    usage label in brackets; an example: an
    drugič /drˈuːɡitʃ/ <adv>                    indented quotation with its translation
    1. another time                          <- numbered senses, one line each
    2. second time
    kot /kɔt/ <n>                            <- pol-eng (WikDict, from Wiktionary): a
    1. dust bunny                               sense's first line is its English
    (potocznie, potoczny) kłąb kurzu …          translations, the next lines its Polish
    2. cat                                      definitions, which may be numbered in turn
    dom /dɔ̃m/ /ˈdɔmɨ/ <n>                      (" 3." alone on a line, or " 2." ending the
    1. house, home 2.                           translation line); without numbers the
    (architektura, …) oddzielny budynek …       first line is the translations, the rest
     3.                                         definitions
    (heraldyka, …) ród, rodzina, dynastia
    mačka /mˈatʃkæ/                          <- hrv-eng: one line of translations
    cat

So a sense is a numbered line, or the first line after the headword (an unnumbered entry);
its text (numbers stripped) is kept as :attr:`Entry.translations`; the lines that follow it
in the same sense (Polish definitions), the examples and the number markers are not. Of
5,555 Slovenian entries 5,530 are one line of translations; all 79,808 Croatian ones are.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from pathlib import Path

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_VALUE = {c: i for i, c in enumerate(_B64)}
# "hlače /xlˈaːtʃɛ/ <n, f, pl>": headword, optional IPA, labels in angle brackets (optional
# on an entry's first line: "mačka /mˈatʃkæ/"); 85 Polish headwords have two transcriptions
# ("dom /dɔ̃m/ /ˈdɔmɨ/ <n>"), 364 a superscript inside one ("sytuacja
# /ˌsɨtuˈ<sup>w</sup>aʦ̑ʲja/ <n>", whose "</sup>" holds a slash)
_HEAD = re.compile(r"^(?P<word>[^/<]+?)\s*(?P<ipa>(?:/(?:[^/<]|<[^>]*>)*/\s*)+)?\s*"
                   r"(?:<(?P<labels>[^>]*)>)?\s*$")
_NUMBERED = re.compile(r"^\d+\.\s+(?P<text>.*)$")      # "1. another time"
_MARKER = re.compile(r"^\s*\d+\.\s*$")                  # " 3." (a definition's number)
_TRAILING = re.compile(r"\s+\d+\.$")                     # "house, home 2."
_EXAMPLE = re.compile(r'^\s+"')                          # '      "To so ..."  - These ...'


@dataclass(frozen=True)
class Entry:
    """One headword line: the word and its labels (``("n", "f", "pl")``), and the English
    translations of its senses as the body gives them (``("season ticket holder,
    subscriber",)``; not compared: the builders' evidence is the headword line)."""

    headword: str
    labels: tuple[str, ...]
    translations: tuple[str, ...] = field(default=(), compare=False)

    @property
    def pos(self) -> str:
        return self.labels[0] if self.labels else ""

    @property
    def number(self) -> str | None:
        return next((x for x in self.labels[1:] if x in ("sg", "du", "pl")), None)

    def describe(self) -> str:
        return f"{self.headword} <{', '.join(self.labels)}>"


def b64_number(text: str) -> int:
    """Decode a dictd index number (``"BMek"``)."""
    n = 0
    for ch in text:
        n = n * 64 + _B64_VALUE[ch]
    return n


def find_files(root: Path) -> tuple[Path, Path]:
    """The (index, dict.dz) pair under an unpacked package root or a directory."""
    for index in sorted(Path(root).rglob("*.index")):
        data = index.with_suffix(".dict.dz")
        if not data.exists():
            data = index.with_suffix(".dict")
        if data.exists():
            return index, data
    raise FileNotFoundError(f"no dictd .index/.dict(.dz) pair under {root}")


def _read_text(path: Path) -> bytes:
    if path.suffix == ".dz":
        with gzip.open(path, "rb") as fh:
            return fh.read()
    return path.read_bytes()


def senses(lines: list[str]) -> tuple[str, ...]:
    """The translations of an entry body's senses (see the module docstring)."""
    out: list[str] = []
    want = True         # the next content line is an unnumbered sense's translations
    for raw in lines:
        if not raw.strip() or _MARKER.match(raw) or _EXAMPLE.match(raw):
            continue
        m = _NUMBERED.match(raw)
        if m:
            text = m.group("text")
        elif want:
            text = raw
        else:
            continue    # a definition in the source language (pol-eng), not a translation
        want = False
        text = _TRAILING.sub("", text).strip()
        if text and text not in out:
            out.append(text)
    return tuple(out)


def read_entries(index: Path, data: Path, *, unlabelled: bool = False) -> list[Entry]:
    """Every headword line of the dictionary, in index order (a headword may repeat).

    ``unlabelled``: also an entry's first line without labels (Croatian-English has no
    others). Off by default, as the Slovenian builder has always read it: its one
    unlabelled headword (``oprati``) would otherwise become a candidate spelling."""
    text = _read_text(data)
    out: list[Entry] = []
    seen: set[tuple[int, int]] = set()
    for line in index.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or parts[0].startswith("00database"):
            continue
        span = (b64_number(parts[1]), b64_number(parts[2]))
        if span in seen:
            continue
        seen.add(span)
        body = text[span[0]: span[0] + span[1]].decode("utf-8", "replace")
        heads: list[tuple[str, tuple[str, ...], list[str]]] = []
        for n, raw in enumerate(body.splitlines()):
            m = _HEAD.match(raw)
            if not m or raw[:1].isspace() or (
                    m.group("labels") is None and (n > 0 or not unlabelled)):
                if heads:
                    heads[-1][2].append(raw)    # a body line of the last headword
                continue
            if n == 0 and m.group("labels") is None and m.group("ipa") is None and (
                    m.group("word").strip() != parts[0]):
                continue   # a first line that is neither labelled nor the indexed headword
            labels = tuple(x.strip() for x in (m.group("labels") or "").split(",")
                           if x.strip())
            heads.append((m.group("word").strip(), labels, []))
        out += [Entry(word, labels, senses(lines)) for word, labels, lines in heads]
    return out


def by_headword(root: Path, *, unlabelled: bool = False) -> dict[str, list[Entry]]:
    """``{headword: [entries]}`` for a package root (all homographs kept)."""
    index, data = find_files(root)
    out: dict[str, list[Entry]] = {}
    for e in read_entries(index, data, unlabelled=unlabelled):
        out.setdefault(e.headword, []).append(e)
    return out
