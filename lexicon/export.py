"""A game's valid words as plain files for engines, federations and other tools.

The export is what a player may lay, not what the store holds: a release keeps every
admitted form, but the game's play rules (length limits, tiles the set carries, jokers for
letters only a joker can play) still apply at check time, so they are applied here too.
Words are written in canonical tiles, one character a tile (Kvizovka in Serbian Cyrillic,
which spells LJ, NJ and DŽ as one letter each: Latin would be ambiguous), in code-point
order, which is the order the release stores them in: the export streams the release's
records in key order (:meth:`lexicon.store.Release.iter_records`) and never holds the word
list (except for ``kwg``, see :mod:`lexicon.kwg`).

Formats: ``words`` (one a line), ``tiles`` (tile letters separated by spaces, ``LJ U B A
V``), ``jsonl`` (word, display spelling, tiles, score, category), ``kwg`` (the wolges
DAWG + GADDAG, with its alphabet file beside it), ``kbwg`` (the same in wolges' big KWG
layout, for a lexicon the KWG cannot address: the Polish GADDAG) and ``engine`` (a folder
an engine loads as it is, see :mod:`lexicon.enginepack`).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from lexicon import atomic
from lexicon.errors import InputError
from lexicon.play import play_rules
from lexicon.profile import Profile
from lexicon.records import VALID
from lexicon.store import Release
from lexicon.tiles import speller

FORMATS = ("words", "tiles", "jsonl", "kwg", "kbwg", "engine")


def valid_keys(profile: Profile, release: Release) -> Iterator[str]:
    """The game's valid words, in code-point order, streamed from the release."""
    playable = play_rules(profile).is_playable
    for key, raw in release.iter_records(valid_only=True):
        if raw[:1] == VALID and playable(key):
            yield key


HASH_RECIPE = ("Quackle's order-independent lexicon hash: XOR of the MD5 digests of each "
               "playable word's NFC UTF-8, as `lexicon export GAME` prints it (hex); "
               "recompute with `lexicon hash FILE`")


class Identity:
    """Accumulates Quackle's order-independent hash and the counts by length of a word list.

    Quackle XORs the MD5 of its internal letter codes; we hash each word's NFC UTF-8 so
    anyone can recompute it from a plain word list. Duplicates cancel out, as in Quackle,
    so each word is added once. Quackle checks the hash against per-length counts; both are
    in every manifest.
    """

    def __init__(self) -> None:
        self.acc = 0
        self.by_length: Counter[int] = Counter()

    def add(self, word: str) -> None:
        digest = hashlib.md5(unicodedata.normalize("NFC", word).encode(), usedforsecurity=False)
        self.acc ^= int.from_bytes(digest.digest(), "big")
        self.by_length[len(word)] += 1

    def discard(self, word: str) -> None:
        """Take back a word added before (XOR is its own inverse): an amend updates its
        parent's hash by the words it changed instead of hashing every word again."""
        digest = hashlib.md5(unicodedata.normalize("NFC", word).encode(), usedforsecurity=False)
        self.acc ^= int.from_bytes(digest.digest(), "big")
        self.by_length[len(word)] -= 1
        if not self.by_length[len(word)]:
            del self.by_length[len(word)]

    @classmethod
    def of_manifest(cls, manifest: dict[str, Any]) -> Identity | None:
        """The identity a release's manifest records (None: it records none)."""
        if "content_hash" not in manifest or "counts_by_length" not in manifest:
            return None
        out = cls()
        out.acc = int(manifest["content_hash"], 16)
        out.by_length.update({int(n): c for n, c in manifest["counts_by_length"].items()})
        return out

    @property
    def content_hash(self) -> str:
        return self.acc.to_bytes(16, "big").hex()

    def result(self) -> dict[str, Any]:
        return {"content_hash": self.content_hash, "words": sum(self.by_length.values()),
                "counts_by_length": {str(n): self.by_length[n] for n in sorted(self.by_length)}}


def quackle_hash(words: Iterable[str]) -> str:
    """The content hash of ``words`` (each once; see :class:`Identity`)."""
    return identity(words)["content_hash"]


def identity(words: Iterable[str]) -> dict[str, Any]:
    """``content_hash``, ``counts_by_length`` and the word count of a list, in one pass."""
    ident = Identity()
    for w in words:
        ident.add(w)
    return ident.result()


def _line(fmt: str, profile: Profile, release: Release, key: str) -> str:
    if fmt == "words":
        return key
    if fmt == "tiles":
        return " ".join(speller(profile).tiles_of(key))
    rec = release.get(key)
    return json.dumps({
        "word": key,
        "display": rec.word if rec else key,
        "tiles": list(speller(profile).tiles_of(key)),
        "score": play_rules(profile).score(key),
        "category": rec.category if rec else None,
    }, ensure_ascii=False)


def write_lines(fmt: str, profile: Profile, release: Release, out: IO[str]) -> int:
    """Write the text formats to ``out``; returns how many words were written."""
    n = 0
    for key in valid_keys(profile, release):
        out.write(_line(fmt, profile, release, key) + "\n")
        n += 1
    return n


def export(profile: Profile, release: Release, fmt: str, output: Path | None,
           stdout: IO[str] | None = None, *, dawg_only: bool = False) -> dict[str, Any]:
    """Export ``release`` in ``fmt`` to ``output`` (atomically: temp file, then rename) or,
    for the text formats, to ``stdout``. Returns what was written, for the CLI to report."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}; one of {', '.join(FORMATS)}",
                         code="bad_format", detail={"formats": list(FORMATS)})
    if fmt in ("kwg", "kbwg", "engine"):
        if output is None:
            what = "a folder: give --output DIR" if fmt == "engine" else \
                f"binary: give --output FILE.{fmt}"
            raise InputError(f"the {fmt} format is {what}", code="output_required")
        if fmt == "engine":
            from lexicon.enginepack import export_engine
            return export_engine(profile, release, Path(output))
        from lexicon import kwg
        return kwg.export_kwg(profile, release, output, gaddag=not dawg_only,
                              big=fmt == "kbwg")
    if output is None:
        assert stdout is not None
        n = write_lines(fmt, profile, release, stdout)
        return {"format": fmt, "words": n, "release": release.id}
    output = Path(output)
    with atomic.replacing(output) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        n = write_lines(fmt, profile, release, fh)
    return {"format": fmt, "words": n, "release": release.id, "output": str(output),
            "bytes": output.stat().st_size}
