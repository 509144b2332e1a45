"""What a word means, as a real dictionary says it: a release's meanings file, read.

Križemkražem's rule book lets the opponent ask what a word means, and every game's referee
is asked. A release may carry ``meanings/meanings.marisa`` (written by ``build.meanings_writer``
from the pinned bilingual dictionaries and thesaurus): a marisa ``BytesTrie`` from a lemma,
exactly as the release's analyses spell it, to one compact JSON value
``[[source number, [sense, ...]], ...]``. The manifest's ``meanings`` entry names the
file and, by number, each source's id, name, licence and kind (``translations``: one string
a sense, the English equivalents as the dictionary writes them; ``synonyms``: one list of
synonyms a meaning). Nothing is made up: a lemma no source lists has no key, and its
answer is ``[]``.

The file is optional: a release written before it existed (or a game none of whose
sources has meanings) answers ``[]`` for every word.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import marisa_trie

FORMAT = 1
MEANINGS_DIR = "meanings"
MEANINGS_FILE = f"{MEANINGS_DIR}/meanings.marisa"
KINDS = ("translations", "synonyms")


def declared_file(manifest: dict[str, Any]) -> str | None:
    """The meanings file a manifest declares (None: the release has none)."""
    entry = manifest.get("meanings")
    if isinstance(entry, dict) and isinstance(entry.get("file"), str):
        return entry["file"]
    return None


class Meanings:
    """A release's meanings file, memory-mapped (shared by every process serving it)."""

    def __init__(self, release_dir: Path, entry: dict[str, Any]) -> None:
        if entry.get("format") != FORMAT:
            raise ValueError(f"meanings format {entry.get('format')!r}, not {FORMAT}")
        self.sources: list[dict[str, Any]] = list(entry.get("sources") or [])
        if any(s.get("kind") not in KINDS for s in self.sources):
            raise ValueError("a meanings source of an unknown kind")
        self.trie = marisa_trie.BytesTrie()
        self.trie.mmap(str(Path(release_dir) / entry["file"]))

    def of(self, lemmas: Iterable[str]) -> list[dict[str, Any]]:
        """``[{"lemma", "source", "name", "license", "translations" | "synonyms"}]`` for
        each lemma (in order, once each) and each source that lists it."""
        out: list[dict[str, Any]] = []
        for lemma in dict.fromkeys(lemmas):
            for raw in self.trie.get(lemma, ()):
                for number, senses in json.loads(raw):
                    src = self.sources[number]
                    out.append({"lemma": lemma, "source": src["source"], "name": src["name"],
                                "license": src["license"], src["kind"]: senses})
        return out

    def close(self) -> None:
        self.trie = marisa_trie.BytesTrie()   # drops the mapping
