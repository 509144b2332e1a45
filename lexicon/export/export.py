"""A game's valid words as plain files for engines, federations and other tools.

The export is what a player may lay, not what the store holds: a release keeps every
admitted form, but the game's play rules (length limits, tiles the set carries, jokers for
letters only a joker can play) still apply at check time, so they are applied here too.
Words are written in canonical tiles, one character a tile (Kvizovka in Serbian Cyrillic,
which spells LJ, NJ and DŽ as one letter each: Latin would be ambiguous), in code-point
order, which is the order the release stores them in: the export streams the release's
records in key order (:meth:`lexicon.store.release.Release.iter_records`) and never holds the word
list (except for ``kwg``, see :mod:`lexicon.export.kwg`).

Formats: ``words`` (one a line), ``tiles`` (tile letters separated by spaces, ``LJ U B A
V``), ``jsonl`` (word, display spelling, tiles, score, category), ``kwg`` (the wolges
DAWG + GADDAG, with its alphabet file beside it), ``kbwg`` (the same in wolges' big KWG
layout, for a lexicon the KWG cannot address: the Polish GADDAG) and ``engine`` (a folder
an engine loads as it is, see :mod:`lexicon.export.enginepack`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from lexicon import atomic
from lexicon.errors import InputError
from lexicon.export import enginepack, kwg
from lexicon.export.playable import HASH_RECIPE, Identity, identity, quackle_hash, valid_keys
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.release import Release

# the words and their identity are :mod:`lexicon.export.playable`'s; named here too, where the
# builders and the CLI have always found them
__all__ = ["FORMATS", "HASH_RECIPE", "Identity", "export", "identity", "quackle_hash",
           "valid_keys", "write_lines"]

FORMATS = ("words", "tiles", "jsonl", "kwg", "kbwg", "engine")


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
            return enginepack.export_engine(profile, release, Path(output))
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
