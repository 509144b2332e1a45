"""Writing a release's meanings file: the lemmas it admits, as the pinned dictionaries say.

Which sources give meanings, by id (each is pinned in ``sources/manifest.toml``, whose
``license`` and ``credit`` go with every meaning): the FreeDict bilingual dictionaries
give English translations (``sources.freedict``, one string a sense), the Slovenian
thesaurus synonyms (``sources.mythes``, one list a meaning). A game gets the ones its
manifest entries name it in (osps and remik: Polish-English; kvizovka: Croatian-English;
krizemkrazem: Slovenian-English and the thesaurus).

A lemma is looked up exactly as the release's analyses spell it (a valid record with no
analysis: its word), never folded or guessed at, so a meaning is shown only for a lemma the
dictionary itself lists. The file holds only the lemmas the release admits; the manifest's
``meanings`` entry counts them (``admitted_lemmas``, ``lemmas`` with a meaning, by source),
which is the coverage the README reports.

Every path that publishes records through :class:`~build.release_writer.ReleaseWriter` sets its
``meanings`` hook: a full build with the sources it fetched (:func:`from_fetched`), an
amend with the same sources from the cache, or else its parent's file carried over
(:func:`for_amend`); a linked release (remik) links its vocabulary's file (``build.linked``).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import marisa_trie
from lexicon.build.progress import track
from lexicon.sources import fetch as fetching
from lexicon.sources import freedict, mythes

from lexicon.errors import LexiconError
from lexicon.paths import cache_dir
from lexicon.store.meanings import FORMAT, MEANINGS_DIR, MEANINGS_FILE, declared_file
from lexicon.store.recordfile import RecordStore, get_varint, join
from lexicon.store.release import Release

#: source id -> the reader of its meanings
READERS = {"dict-freedict-pol-eng": "freedict", "dict-freedict-hrv-eng": "freedict",
           "dict-freedict-slv-eng": "freedict", "mythes-sl": "mythes"}
KEEP_SENSES = 12          # senses kept per lemma and source (Wiktionary lists up to ~40)
KEEP_CHARS = 300          # characters kept per sense (a few Polish ones run to a paragraph)

#: the writer's hook: writes the file into a staging directory, returns the manifest entry
Hook = Callable[[Path, RecordStore], dict[str, Any]]


@dataclass
class Dictionary:
    source: str
    name: str
    license: str
    kind: str                               # "translations" or "synonyms"
    entries: dict[str, list[Any]]           # headword -> senses

    def describe(self) -> dict[str, str]:
        return {"source": self.source, "name": self.name, "license": self.license,
                "kind": self.kind}


def _clip(text: str) -> str:
    return text if len(text) <= KEEP_CHARS else text[:KEEP_CHARS - 1] + "…"


def read_dictionary(spec: fetching.SourceSpec, root: Path) -> Dictionary:
    """One source's meanings, headword -> senses, from its unpacked package root."""
    name = spec.credit.split(":", 1)[0].strip()
    entries: dict[str, list[Any]] = {}
    if READERS[spec.id] == "mythes":
        for word, entry in mythes.by_headword(root).items():
            senses = [list(m.synonyms) for m in entry.meanings if m.synonyms]
            if senses:
                entries[word] = senses[:KEEP_SENSES]
        return Dictionary(spec.id, name, spec.license, "synonyms", entries)
    for word, found in freedict.by_headword(root, unlabelled=True).items():
        senses = list(dict.fromkeys(_clip(t) for e in found for t in e.translations))
        if senses:
            entries[word] = senses[:KEEP_SENSES]
    return Dictionary(spec.id, name, spec.license, "translations", entries)


def specs_for(game: str) -> list[fetching.SourceSpec]:
    """The game's sources that give meanings, in manifest order."""
    return [s for s in fetching.sources_for(game) if s.id in READERS]


def from_fetched(game: str, fetched: dict[str, fetching.Fetched]) -> list[Dictionary]:
    """The game's dictionaries among the sources a build fetched."""
    return [read_dictionary(s, fetched[s.id].root) for s in specs_for(game)
            if s.id in fetched and fetched[s.id].root is not None]


class _NotCached(Exception):
    pass


def _no_download(cmd: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
    raise _NotCached(" ".join(cmd[:3]))


def from_cache(game: str, root: Path | None = None) -> list[Dictionary] | None:
    """The game's dictionaries from the verified source cache, never downloading;
    None when one of them is not cached."""
    out = []
    for spec in specs_for(game):
        try:
            got = fetching.fetch(spec, cache_dir(root), run=_no_download,
                                 log=lambda _m: None)
        except (_NotCached, LexiconError, OSError):
            return None
        if got.root is None:
            return None
        out.append(read_dictionary(spec, got.root))
    return out


def _lemma_rules(shape: dict[str, Any]) -> tuple[int, list[tuple[int, str]]] | None:
    """How a record of ``shape`` spells its lemmas from its key: (word mode, (cut, suffix)
    per analysis) (:func:`build.record_writer.split`); None when a lemma or the word is
    in the record's own bytes and the record must be decoded."""
    mode = shape.get("w", 0)
    rows = shape.get("a", ())
    if mode not in (0, 1) or any(row[0] == -1 for row in rows):
        return None
    return mode, [(row[0], row[1]) for row in rows]


def admitted_lemmas(store: RecordStore, game: str) -> set[str]:
    """Every lemma of a valid record (its word when it has no analysis).

    Millions of records share a few thousand shapes, and a shape says how each lemma is
    spelt from the record's word (cut so many letters, add a suffix): the shape is read
    once, and a record is decoded only when its lemma or word is spelt out in full."""
    lemmas: set[str] = set()
    plans: dict[int, tuple[int, list[tuple[int, str]]] | None] = {}
    add = lemmas.add
    admitted = store.valid_shapes          # shape numbers below it are admitted records
    with store.env.begin(db=store.db) as txn:
        for k, raw in track(txn.cursor(), f"{game}: lemmas for meanings", total=len(store),
                            unit="records", every=100_000):
            sid, pos = get_varint(raw, 0)
            if sid >= admitted:
                continue
            try:
                plan = plans[sid]
            except KeyError:
                plan = plans[sid] = _lemma_rules(store.shape(sid))
            key = k.decode()
            if plan is None:
                rec = join(key, True, store.shape(sid), raw, pos)
                if rec.analyses:
                    lemmas.update(a.lemma for a in rec.analyses)
                else:
                    add(rec.word)
                continue
            mode, rules = plan
            word = key if mode == 0 else key.capitalize()
            if not rules:
                add(word)
            for cut, suffix in rules:
                add((word[:-cut] if cut else word) + suffix)
    return lemmas


def write(dictionaries: list[Dictionary], lemmas: Iterable[str],
          out_dir: Path) -> dict[str, Any]:
    """Write ``out_dir/meanings/meanings.marisa`` for ``lemmas``; the manifest entry."""
    lemmas = sorted(set(lemmas))
    if not dictionaries:
        return {"format": FORMAT, "file": None, "sources": [], "admitted_lemmas": len(lemmas),
                "lemmas": 0, "by_source": {}, "why": "no source of this game gives meanings"}
    by_source = {d.source: 0 for d in dictionaries}
    items: list[tuple[str, bytes]] = []
    for lemma in lemmas:
        value = []
        for number, d in enumerate(dictionaries):
            senses = d.entries.get(lemma)
            if senses:
                value.append([number, senses])
                by_source[d.source] += 1
        if value:
            items.append((lemma, json.dumps(value, ensure_ascii=False,
                                            separators=(",", ":")).encode()))
    (out_dir / MEANINGS_DIR).mkdir(exist_ok=True)
    marisa_trie.BytesTrie(items).save(os.fspath(out_dir / MEANINGS_FILE))
    return {"format": FORMAT, "file": MEANINGS_FILE,
            "sources": [d.describe() for d in dictionaries],
            "admitted_lemmas": len(lemmas), "lemmas": len(items),
            "share": round(len(items) / len(lemmas), 4) if lemmas else 0.0,
            "by_source": by_source}


def writing(game: str, dictionaries: list[Dictionary]) -> Hook:
    """The writer's hook for ``dictionaries``."""
    def hook(staging: Path, store: RecordStore) -> dict[str, Any]:
        return write(dictionaries, admitted_lemmas(store, game) if dictionaries else (),
                     staging)
    return hook


def carrying(parent: Release) -> Hook | None:
    """A hook that links the parent's meanings file unchanged (None: it has none)."""
    rel = declared_file(parent.manifest)
    if rel is None:
        return None
    entry = dict(parent.manifest["meanings"])

    def hook(staging: Path, store: RecordStore) -> dict[str, Any]:
        (staging / MEANINGS_DIR).mkdir(exist_ok=True)
        os.link(parent.path / rel, staging / rel)
        return {**entry, "carried_from": parent.id}
    return hook


def for_amend(game: str, parent: Release, root: Path | None = None) -> Hook | None:
    """An amend's meanings: from the cached sources (the lemmas the new release admits),
    else the parent's file carried over, else none."""
    dictionaries = from_cache(game, root)
    if dictionaries:
        return writing(game, dictionaries)
    return carrying(parent)
