"""Authoritative word lists as sources: a federation's list, or the sjp.pl "słownik do gier".

``lexicon import GAME FILE --mode MODE`` pins a plain list (one word a line, ``#`` comments)
the way ``sources/manifest.toml`` pins a dictionary: the file is stored under
``$LEXICON_HOME/imports/<game>/<sha256>.txt`` and ``imports/<game>.toml`` names it with its
sha256, mode, licence and credit. A profile may name a list itself (``[options.imported]``
in ``lexicon/profiles/<game>.toml``, same fields), which then wins. Every build of the game
verifies the stored file against its sha256 (a changed list stops the build, like a changed
package) and applies it to the builder's records:

* ``restrict``: only the list's words are valid; an admitted word the list lacks is
  rejected with ``not_in_imported_list``;
* ``admit``: the list's words are valid (a word the dictionaries reject or do not know is
  admitted, with the list as its evidence);
* ``annotate``: evidence only; admitted words the list holds cite it, nothing changes.

A list is read as a checked word is (:func:`key_of`: the game's speller) and refused whole,
``bad_import`` with the line, before anything is stored, when a line cannot be a word of the
game: a NUL or other control character would reach the key trie, a 20 MB "word" the
records, a Cyrillic word an osps release. A leading BOM is removed (it would otherwise be
part of the first word, which then matched nothing). A stored list is read the same way at
every build, so a bad one stored before these checks is ``build_failed`` naming its line.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon import atomic, userfile
from lexicon.errors import BuildError, InputError, SourceError
from lexicon.game.inputs import MAX_WORD_CHARS, normalise, printable, scripts_in
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.paths import home
from lexicon.store.records import Record

MODES = ("restrict", "admit", "annotate")


@dataclass(frozen=True)
class Pin:
    name: str
    sha256: str
    mode: str
    license: str = ""
    credit: str = ""


def imports_dir(root: Path | None = None) -> Path:
    return (root or home()) / "imports"


#: Characters a list line may start or end with that are not part of its word (a UTF-8
#: byte-order mark is removed once, at the start of the file).
_EDGE_SPACE = " \t\r\n"
_BOM = "\ufeff"


class ListProblem(ValueError):
    """One line of a list that cannot be a word of the game (``line`` is 1-based)."""

    def __init__(self, line: int, word: str, problem: str) -> None:
        shown = f"{printable(word[:40])!r}{'…' if len(word) > 40 else ''}: " if word else ""
        super().__init__(f"line {line}: {shown}{problem}")
        self.line = line
        self.problem = problem


def key_of(profile: Profile, word: str, line: int = 0) -> str:
    """A list word as the release's key, read through the game's speller, exactly as a
    checked word is: NFC, lower case, phrases without spaces, Kvizovka's Latin read as its
    (Cyrillic) tiles. Raises :class:`ListProblem` for what can be no word of the game: a
    control or invisible character, more characters than a checked word may have or more
    tiles than the game plays, a letter that is no tile of the game (Cyrillic in osps), a
    mix of scripts, or a Latin Kvizovka word whose LJ/NJ/DŽ can be read two ways (write
    it in Cyrillic, or as ``[nj]iva`` / ``kon|jugacija``)."""
    if not word.isprintable():      # C speed; Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs but ' '
        bad = next(c for c in word if not c.isprintable())
        raise ListProblem(line, word, f"control or invisible character U+{ord(bad):04X}")
    if len(word) > MAX_WORD_CHARS:
        raise ListProblem(line, word, f"{len(word):,} characters; a word has at most "
                                      f"{MAX_WORD_CHARS}")
    text = normalise(word).lower()
    if len(scripts_in(text)) > 1:
        raise ListProblem(line, word, "Latin and Cyrillic letters in one word")
    spell = speller(profile)
    try:
        keys = spell.keys(text)
    except InputError as exc:           # a malformed [..] or |
        raise ListProblem(line, word, exc.message) from exc
    if len(keys) > 1:
        raise ListProblem(line, word, f"reads as {len(keys)} different tilings in "
                          f"{profile.name}; write it in the game's canonical script or mark "
                          "the tiles ([nj]iva, kon|jugacija)")
    key = keys[0]
    foreign = spell.tiling(key).foreign
    if foreign:
        raise ListProblem(line, word, f"{''.join(dict.fromkeys(foreign))!r} is no tile of "
                                      f"{profile.name}")
    if len(key) > profile.max_length:
        raise ListProblem(line, word, f"{len(key)} tiles; {profile.name} plays at most "
                                      f"{profile.max_length}")
    return key


def read_list(profile: Profile, data: bytes) -> list[str]:
    """The keys of a list file's bytes (one word a line, ``#`` comments, blank lines),
    in file order. Raises :class:`ListProblem` (line 0: the file is not UTF-8)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ListProblem(line, "", f"not UTF-8 text (byte {exc.start:,})") from exc
    if text.startswith(_BOM):       # a BOM is no part of the first word
        text = text[1:]
    keys = []
    for n, raw in enumerate(text.split("\n"), 1):
        word = raw.strip(_EDGE_SPACE)
        if word and not word.startswith("#"):
            keys.append(key_of(profile, word, n))
    return keys


def import_list(profile: Profile, path: Path, mode: str, *, name: str | None = None,
                license: str = "", credit: str = "",
                root: Path | None = None) -> dict[str, Any]:
    """Store ``path`` by its sha256 and pin it for ``profile``'s builds."""
    if mode not in MODES:
        raise InputError(f"unknown import mode {mode!r}; one of {', '.join(MODES)}",
                         code="bad_import_mode", detail={"modes": list(MODES)})
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path} is not a file", code="bad_input")
    data = userfile.read_file(path, InputError, "a list to import")
    digest = hashlib.sha256(data).hexdigest()
    try:
        words = len(read_list(profile, data))
    except ListProblem as exc:     # checked before anything is stored
        raise InputError(f"{path}: {exc}; nothing imported", code="bad_import",
                         detail={"file": str(path), "line": exc.line}) from exc
    if words == 0:
        raise InputError(f"{path} holds no words", code="bad_import", detail={"file": str(path)})
    gdir = imports_dir(root) / profile.id
    gdir.mkdir(parents=True, exist_ok=True)
    stored = gdir / f"{digest}.txt"
    if not stored.exists():
        atomic.write_bytes(stored, data)      # the bytes that were checked and hashed
    pin = {"name": name or path.stem, "sha256": digest, "mode": mode, "license": license,
           "credit": credit, "words": words, "file": path.name,
           "imported_at": datetime.now(UTC).isoformat(timespec="seconds")}
    text = "".join(f'{k} = {_toml(v)}\n' for k, v in pin.items())
    atomic.write_text(gdir.parent / f"{profile.id}.toml", text)
    return pin


def _toml(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    s = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{s}"'


def pin_for(profile: Profile, root: Path | None = None) -> Pin | None:
    """The list a build of ``profile`` applies: the profile's own, else the imported one."""
    raw: dict[str, Any] | None = profile.options.get("imported") if profile.options else None
    where = f"lexicon/profiles/{profile.id}.toml [options.imported]"
    try:
        if raw is None:
            pinned = imports_dir(root) / f"{profile.id}.toml"
            where = str(pinned)
            if not pinned.exists():
                return None
            with open(pinned, "rb") as fh:
                raw = tomllib.load(fh)
        pin = Pin(str(raw["name"]), str(raw["sha256"]), str(raw["mode"]),
                  str(raw.get("license", "")), str(raw.get("credit", "")))
    except (OSError, ValueError, KeyError, TypeError) as exc:   # TOMLDecodeError: ValueError
        raise BuildError(f"{profile.id}: the pinned list ({where}) cannot be read: "
                         f"{type(exc).__name__}: {exc}; pin it again with `lexicon import`",
                         detail={"file": where}) from exc
    if pin.mode not in MODES or not re.fullmatch(r"[0-9a-f]{64}", pin.sha256):
        raise BuildError(f"{profile.id}: the pinned list ({where}) names mode {pin.mode!r} "
                         f"and sha256 {pin.sha256[:70]!r}; pin it again with `lexicon import`",
                         detail={"file": where})
    return pin


def load_keys(profile: Profile, pin: Pin, root: Path | None = None) -> set[str]:
    """The pinned list's keys, after checking the stored file against its sha256."""
    stored = imports_dir(root) / profile.id / f"{pin.sha256}.txt"
    if not stored.exists():
        raise SourceError(f"{profile.id}: imported list {pin.name} ({pin.sha256[:12]}…) is "
                          f"not in {stored.parent}; run `lexicon import`")
    data = stored.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != pin.sha256:
        raise SourceError(f"{profile.id}: imported list {pin.name} changed on disk (sha256 "
                          f"{actual[:12]}…, pinned {pin.sha256[:12]}…); not building",
                          detail={"expected": pin.sha256, "actual": actual})
    try:   # a list stored before imports were checked (or pinned by a profile) is re-read
        return set(read_list(profile, data))
    except ListProblem as exc:
        raise BuildError(f"{profile.id}: imported list {pin.name} ({stored}) {exc}; import "
                         f"a corrected list with `lexicon import {profile.id}`",
                         detail={"file": str(stored), "line": exc.line}) from exc


def manifest_entry(pin: Pin, words: int) -> dict[str, Any]:
    return {"id": f"import:{pin.name}", "kind": "import", "version": pin.sha256[:12],
            "sha256": pin.sha256, "mode": pin.mode, "words": words,
            "license": pin.license, "credit": pin.credit,
            "contributes": f"authoritative list ({pin.mode})"}


def apply(pin: Pin, keys: set[str], records: Iterable[Record]) -> Iterator[Record]:
    """The builder's records with the list applied (see the module doc)."""
    source = f"import:{pin.name}"
    listed = f"listed in the imported list {pin.name}"
    for rec in records:
        inside = rec.key in keys
        if pin.mode == "restrict" and rec.valid and not inside:
            rec = Record(key=rec.key, word=rec.word, valid=False,
                         reason_code="not_in_imported_list",
                         reason_message=f"not in the authoritative list {pin.name}",
                         analyses=rec.analyses, sources=rec.sources, category=rec.category)
        elif inside and rec.valid:
            rec.sources = sorted({*rec.sources, source})
            rec.evidence = [*rec.evidence, listed]
        yield rec
    if pin.mode == "admit":   # a valid record merges over a rejected one of the same key
        for key in sorted(keys):
            yield Record(key=key, word=key, valid=True, sources=[source], evidence=[listed])
