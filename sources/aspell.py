"""Read an aspell word list as Debian ships it: ``usr/share/aspell/LANG.cwl.gz``.

Why: the Slovenian aspell dictionary (Debian ``aspell-sl``) is a list of about 1.15 million
inflected forms, names included, made independently of the hunspell and apertium
dictionaries: a second witness that a form is spelt so.

How it is shipped: not as a compiled ``.rws`` hash table (that is built at install time by
``aspell-autobuildhash``, and it is what would need ``aspell dump``), but as the sorted word
list the ``.rws`` is built from, compressed twice: gzip over aspell's own prefix compression
(``word-list-compress c``, format 0x01, which ``precat`` also reads). So no aspell tool is
needed; this module is the decompressor, and ``LANG.multi``/``LANG.dat`` give the charset
(``charset iso8859-2`` for Slovenian).

The prefix compression: each word is written as one byte ``n + 1``, where ``n`` is how many
leading bytes it shares with the word before it, followed by the bytes that differ; any
byte of 32 or less ends the word (it is the next word's count). A count that would not fit
below 33 is escaped by a 0 byte before it. So after ``Aachen``::

    07 e8 61 6e      ->  "Aachen"[:6] + "čan"  =  Aachenčan   (0xe8 is č in ISO 8859-2)
    0a 61            ->  "Aachenčan"[:9] + "a" =  Aachenčana
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path


class WordListError(ValueError):
    """A compressed word list that cannot be read."""


def find_file(root: Path) -> Path:
    """The ``*.cwl.gz`` (or ``*.cwl``) word list under an unpacked package root."""
    for pattern in ("*.cwl.gz", "*.cwl"):
        for path in sorted(Path(root).rglob(pattern)):
            return path
    raise FileNotFoundError(f"no aspell .cwl(.gz) word list under {root}")


def charset(root: Path, lang: str) -> str:
    """The word list's encoding from ``LANG.dat`` (``charset iso8859-2``); UTF-8 if none."""
    for dat in sorted(Path(root).rglob(f"{lang}.dat")):
        m = re.search(r"^charset\s+(\S+)", dat.read_text(encoding="ascii", errors="replace"),
                      re.M)
        if m:
            return m.group(1)
    return "utf-8"


def decompress(data: bytes) -> Iterator[bytes]:
    """The words of a ``word-list-compress`` (format 0x01) byte string, as bytes."""
    word = bytearray()
    i, n = 0, len(data)
    while i < n:
        count = data[i]
        i += 1
        if count == 0:             # an escaped count (a shared prefix of 32 bytes or more)
            if i >= n:
                raise WordListError("the list ends inside a word count")
            count = data[i]
            i += 1
        shared = count - 1
        if shared < 0 or shared > len(word):
            raise WordListError(f"byte {i - 1}: a word shares {shared} bytes with one of "
                                f"{len(word)}")
        del word[shared:]
        start = i
        while i < n and data[i] > 32:
            i += 1
        word += data[start:i]
        yield bytes(word)


def read_words(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    """Every word of a ``.cwl`` or ``.cwl.gz`` file, decoded, in file order."""
    raw = Path(path).read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    for word in decompress(raw):
        yield word.decode(encoding)


def words(root: Path, lang: str = "sl") -> Iterator[str]:
    """The words of the aspell dictionary for ``lang`` under a package root."""
    return read_words(find_file(root), charset(root, lang))
