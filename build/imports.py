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
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon.errors import InputError, SourceError
from lexicon.paths import home
from lexicon.profile import Profile
from lexicon.records import Record

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


def key_of(profile: Profile, word: str) -> str:
    """A list word as the release's key: NFC, lower case, phrases without spaces. Lists
    for games with multi-letter tiles (Kvizovka) are written in the canonical script."""
    key = unicodedata.normalize("NFC", word.strip()).lower()
    return key.replace(" ", "") if profile.phrases else key


def read_words(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            word = line.strip()
            if word and not word.startswith("#"):
                yield word


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
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        words = sum(1 for _ in read_words(path))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: {exc}", code="bad_input") from exc
    if words == 0:
        raise InputError(f"{path} holds no words", code="bad_input")
    gdir = imports_dir(root) / profile.id
    gdir.mkdir(parents=True, exist_ok=True)
    stored = gdir / f"{digest}.txt"
    if not stored.exists():
        tmp = gdir / f".{digest}.{os.getpid()}.tmp"
        shutil.copyfile(path, tmp)
        os.replace(tmp, stored)
    pin = {"name": name or path.stem, "sha256": digest, "mode": mode, "license": license,
           "credit": credit, "words": words, "file": path.name,
           "imported_at": datetime.now(UTC).isoformat(timespec="seconds")}
    text = "".join(f'{k} = {_toml(v)}\n' for k, v in pin.items())
    tmp = gdir.parent / f".{profile.id}.toml.{os.getpid()}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, gdir.parent / f"{profile.id}.toml")
    return pin


def _toml(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    s = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{s}"'


def pin_for(profile: Profile, root: Path | None = None) -> Pin | None:
    """The list a build of ``profile`` applies: the profile's own, else the imported one."""
    raw: dict[str, Any] | None = profile.options.get("imported") if profile.options else None
    if raw is None:
        pinned = imports_dir(root) / f"{profile.id}.toml"
        if not pinned.exists():
            return None
        with open(pinned, "rb") as fh:
            raw = tomllib.load(fh)
    return Pin(raw["name"], raw["sha256"], raw["mode"], raw.get("license", ""),
               raw.get("credit", ""))


def load_keys(profile: Profile, pin: Pin, root: Path | None = None) -> set[str]:
    """The pinned list's keys, after checking the stored file against its sha256."""
    stored = imports_dir(root) / profile.id / f"{pin.sha256}.txt"
    if not stored.exists():
        raise SourceError(f"{profile.id}: imported list {pin.name} ({pin.sha256[:12]}…) is "
                          f"not in {stored.parent}; run `lexicon import`")
    actual = hashlib.sha256(stored.read_bytes()).hexdigest()
    if actual != pin.sha256:
        raise SourceError(f"{profile.id}: imported list {pin.name} changed on disk (sha256 "
                          f"{actual[:12]}…, pinned {pin.sha256[:12]}…); not building",
                          detail={"expected": pin.sha256, "actual": actual})
    return {key_of(profile, w) for w in read_words(stored)}


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
