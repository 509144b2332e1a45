"""The words a player may lay, streamed from a release, and their identity (hash, counts).

Every export format writes these words (:mod:`lexicon.export.export`'s text formats, the KWG of
:mod:`lexicon.export.kwg`, the engine pack of :mod:`lexicon.export.enginepack`), and a release's
manifest records their identity. They live below all three writers so that the writers
import them and :mod:`lexicon.export.export`, which picks the writer for a format, imports the
writers: one way, no import inside a function to dodge a cycle.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.store.records import VALID
from lexicon.store.release import Release


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
