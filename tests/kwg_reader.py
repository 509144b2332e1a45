"""An independent reader of wolges' KWG and big KWG, for the tests (not lexicon's code).

Written from the published layouts only, so that a writer bug cannot hide behind a
decoder that shares it:

* KWG (``.kwg``), wolges ``src/kwg.rs`` ``Node``: tile = bits 24-31, accepts = bit 23,
  end of sibling list = bit 22, arc index = bits 0-21;
* big KWG (``.kbwg``), wolges ``Node24``: tile = bits 0-5, end = bit 6, accepts = bit 7,
  arc index = bits 8-31.

Node 0's arc is the DAWG root list, node 1's the GADDAG root list; tile 0 in the GADDAG is
the separator after which the word goes on forwards in the DAWG. The walkers are iterative
(the full Polish GADDAG is walked with them, see ``__main__``), check that sibling tiles
rise strictly (the DAWG is deterministic, so each path is one word) and never step past
the file.

Run as a script to check a real export word for word:
``python tests/kwg_reader.py FILE.kbwg WORDS.txt ALPHABET.txt`` (``WORDS.txt`` from
``lexicon export GAME --format tiles``, tile letters separated by spaces, or the plain
``--format words``, read as wolges' word-list reader reads it: :class:`WordListReader`).
"""

from __future__ import annotations

import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path


class Reader:
    def __init__(self, data: bytes, fmt: str) -> None:
        assert len(data) % 4 == 0, "a KWG is a whole number of u32 nodes"
        nodes = struct.unpack(f"<{len(data) // 4}I", data)
        self.size = len(nodes)
        if fmt == "kwg":
            self.tile = [n >> 24 for n in nodes]
            self.accepts = [n >> 23 & 1 for n in nodes]
            self.end = [n >> 22 & 1 for n in nodes]
            self.arc = [n & 0x3FFFFF for n in nodes]
        elif fmt == "kbwg":
            self.tile = [n & 0x3F for n in nodes]
            self.end = [n >> 6 & 1 for n in nodes]
            self.accepts = [n >> 7 & 1 for n in nodes]
            self.arc = [n >> 8 for n in nodes]
        else:
            raise ValueError(fmt)

    @classmethod
    def open(cls, path: Path) -> Reader:
        path = Path(path)
        return cls(path.read_bytes(), path.suffix.lstrip("."))

    def root(self, i: int) -> int:
        assert self.end[i] and self.tile[i] == 0 and not self.accepts[i], f"root node {i}"
        return self.arc[i]

    def siblings(self, p: int) -> list[tuple[int, int, int]]:
        """(tile, accepts, arc) of the list starting at node p (0: no list)."""
        out: list[tuple[int, int, int]] = []
        while p:
            assert p < self.size, f"arc to node {p} past the file ({self.size})"
            t = self.tile[p]
            assert not out or t > out[-1][0], f"sibling tiles not rising at node {p}"
            out.append((t, self.accepts[p], self.arc[p]))
            if self.end[p]:
                break
            p += 1
        return out

    def dawg_words(self, p: int, prefix: bytes = b"") -> Iterator[bytes]:
        """Every word below list p, in tile order, each prefixed by ``prefix``."""
        stack = [(prefix, self.siblings(p), 0)]
        while stack:
            pre, sibs, i = stack.pop()
            if i == len(sibs):
                continue
            stack.append((pre, sibs, i + 1))
            t, acc, arc = sibs[i]
            assert t != 0, "separator tile inside the DAWG"
            word = pre + bytes([t])
            if acc:
                yield word
            if arc:
                stack.append((word, self.siblings(arc), 0))

    def gaddag_paths(self, p: int) -> Iterator[tuple[bytes, int]]:
        """(word, anchor) for every GADDAG path: the tiles before the separator read right
        to left (the anchor is the last of them), then the DAWG forwards after it."""
        stack = [(b"", self.siblings(p), 0)]
        while stack:
            rev, sibs, i = stack.pop()
            if i == len(sibs):
                continue
            stack.append((rev, sibs, i + 1))
            t, acc, arc = sibs[i]
            if t == 0:
                assert rev and not acc, "separator first, or accepting"
                left = rev[::-1]
                for word in self.dawg_words(arc, left):
                    yield word, len(left)
                continue
            path = rev + bytes([t])
            if acc:
                yield path[::-1], len(path)
            if arc:
                stack.append((path, self.siblings(arc), 0))


class WordListReader:
    """wolges' word-list reader (``AlphabetReader::new_for_words``, ``src/alphabet.rs``),
    written from its published behaviour: every tile's label, its alias labels, its blank
    label and its alias blank labels are candidates; at each position the candidates that
    share the first byte are tried longest first (then by tile number) and the first whose
    bytes match is taken, never going back. Alphabet file columns: label, blank label,
    count, score, vowel, N alias labels, N alias blank labels (tile 0, the joker, is not a
    letter of a word)."""

    def __init__(self, alphabet_text: str) -> None:
        labels: list[tuple[int, bytes]] = []
        for tile, line in enumerate(alphabet_text.splitlines()):
            cols = line.split()
            n_alias = int(cols[5])
            n_blank = int(cols[6 + n_alias])
            if tile:
                for label in [cols[0], *cols[6:6 + n_alias], cols[1],
                              *cols[7 + n_alias:7 + n_alias + n_blank]]:
                    labels.append((tile, label.encode("utf-8")))
                assert len(cols) == 7 + n_alias + n_blank, f"too many columns: {line!r}"
        labels.sort(key=lambda tl: (tl[1][0], -len(tl[1]), tl[0]))
        self.by_first: dict[int, list[tuple[int, bytes]]] = {}
        for tile, label in labels:
            self.by_first.setdefault(label[0], []).append((tile, label))

    def word(self, text: str) -> bytes:
        """The tile numbers of ``text``; ValueError where no label matches."""
        raw, out, i = text.encode("utf-8"), bytearray(), 0
        while i < len(raw):
            for tile, label in self.by_first.get(raw[i], ()):
                if raw.startswith(label, i):
                    out.append(tile)
                    i += len(label)
                    break
            else:
                raise ValueError(f"invalid tile after {bytes(out)!r} in {text!r}")
        return bytes(out)


def check_file(kwg: Path, words_file: Path, alphabet_file: Path) -> dict[str, object]:
    """Walk ``kwg`` and compare with a `--format tiles` export: the DAWG must give exactly
    the words, in order; the GADDAG exactly one path per (word, anchor)."""
    t0 = time.monotonic()
    text = alphabet_file.read_text(encoding="utf-8")
    rows = [ln.split("\t") for ln in text.splitlines()]
    number = {row[0]: i for i, row in enumerate(rows) if i}
    number.update({row[1]: i for i, row in enumerate(rows) if i})   # lower case too
    reader_of_words = WordListReader(text)

    def tiles(line: str) -> bytes:
        # `--format tiles` separates tiles by spaces; a word list (`--format words`, one
        # word a line) is read as wolges reads it, longest tile first
        if " " in line.strip():
            return bytes(number[t] for t in line.split())
        return reader_of_words.word(line.strip())

    with open(words_file, encoding="utf-8") as fh:
        expected = [tiles(line) for line in fh if line.strip()]
    expected.sort()
    reader = Reader.open(kwg)
    dawg = list(reader.dawg_words(reader.root(0)))
    dawg_ok = dawg == expected
    wanted = set(expected)
    paths = bad = 0
    for word, anchor in reader.gaddag_paths(reader.root(1)):
        paths += 1
        if word not in wanted or not 1 <= anchor <= len(word):
            bad += 1
    anchors = sum(len(w) for w in expected)
    return {"nodes": reader.size, "words": len(expected), "dawg_words": len(dawg),
            "dawg_equal": dawg_ok, "gaddag_paths": paths, "anchors": anchors,
            "gaddag_equal": bad == 0 and paths == anchors and len(wanted) == len(expected),
            "seconds": round(time.monotonic() - t0, 1)}


if __name__ == "__main__":
    print(check_file(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
