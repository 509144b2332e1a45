"""SYNTHETIC releases for benchmarking before (or beside) the real ones. Not a lexicon.

The real Polish release (millions of forms) takes long to build; to measure the query
engine, the service and the store at that scale without it, this module makes words that
*look* like each game's language (random stems from the game's letters, times a set of
inflection-like endings, so prefixes and suffixes are shared the way they are in an
inflected language) and publishes them through the real :class:`ReleaseWriter`, indexes
included. Every record says ``synthetic`` in its sources and evidence, and the manifest
policy says so too, so such a release can never be mistaken for a real one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lexicon.build.pipeline import BuildContext, build_game

from lexicon.game import profile as profiles
from lexicon.store.records import Analysis, Record

# Letters weighted roughly by frequency, and inflection-like endings, per language.
_SHAPES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # game: (consonants, vowels, endings)
    "pl": ("bcdfghjklłmnprstwzżźśćńrrnnsszzkkttwwccddllmmpp", "aaaeeeiiiooouuyyąęó",
           ("", "a", "u", "em", "ie", "y", "ów", "om", "ami", "ach", "owy", "owa", "owe",
            "owego", "owej", "owym", "ować", "ował", "ną", "ny", "na", "ne", "nego", "ić",
            "ił", "iła", "ość", "ości", "ek", "ka", "ki", "kiem")),
    "sh": ("бвгдђжзјклљмнњпрстћфхцчџшккррннссттввммддлл", "аааееиииооуу",
           ("", "а", "е", "и", "о", "у", "ом", "ама", "ови", "ова", "ост", "ити", "ати",
            "ски", "ска", "ско", "ник", "ница", "ање", "ење")),
    "sl": ("bcčdfghjklmnprsštvzžkkrrnnssttvvmmddll", "aaaeeeiiioou",
           ("", "a", "e", "i", "o", "u", "om", "ami", "ov", "ova", "ost", "iti", "ati",
            "ski", "ska", "sko", "nik", "nica", "anje", "enje")),
}
_LANG = {"osps": "pl", "remik": "pl", "kvizovka": "sh", "krizemkrazem": "sl"}


def _stem(rng: random.Random, consonants: str, vowels: str) -> str:
    syllables = rng.choice((1, 2, 2, 2, 3, 3))
    out = ""
    for _ in range(syllables):
        out += rng.choice(consonants)
        if rng.random() < 0.25:
            out += rng.choice(consonants)
        out += rng.choice(vowels)
    if rng.random() < 0.5:
        out += rng.choice(consonants)
    return out


def synthetic_keys(game: str, n_words: int, seed: int = 1) -> Iterator[str]:
    """About ``n_words`` distinct canonical keys that look like ``game``'s language."""
    consonants, vowels, endings = _SHAPES[_LANG[game]]
    rng = random.Random(seed)
    seen: set[str] = set()
    per_stem = min(14, len(endings))
    while len(seen) < n_words:
        stem = _stem(rng, consonants, vowels)
        for ending in rng.sample(endings, per_stem):
            key = stem + ending
            if 2 <= len(key) <= 15 and key not in seen:
                seen.add(key)
                yield key
                if len(seen) >= n_words:
                    return


class SyntheticBuilder:
    """A GameBuilder over :func:`synthetic_keys`; about one key in ten is rejected."""

    source_ids: tuple[str, ...] = ()

    def __init__(self, game: str, n_words: int, seed: int = 1) -> None:
        self.game, self.n_words, self.seed = game, n_words, seed

    def records(self, ctx: BuildContext) -> Iterator[Record]:
        for i, key in enumerate(synthetic_keys(self.game, self.n_words, self.seed)):
            if i % 10 == 9:
                yield Record(key=key, word=key, valid=False, reason_code="unattested",
                             reason_message="SYNTHETIC rejected word", sources=["synthetic"])
            else:
                yield Record(key=key, word=key, valid=True,
                             analyses=[Analysis(key[:4], "synthetic", "synthetic")],
                             sources=["synthetic"], category="synthetic",
                             evidence=["SYNTHETIC benchmark word"])

    def policy(self) -> dict[str, Any]:
        return {"builder": "SYNTHETIC benchmark data (tools/synthetic.py), not a lexicon",
                "synthetic": True, "words": self.n_words, "seed": self.seed}

    def rules(self) -> list[dict[str, str]]:
        return []


def publish_synthetic(root: Path, game: str, n_words: int, seed: int = 1) -> Path:
    """Build and publish a SYNTHETIC release of ``game`` under ``root``."""
    ctx = BuildContext(root=root, log=lambda _m: None)
    if profiles.load(game).vocabulary != game:     # remik: links the osps release
        return build_game(game, ctx)
    return build_game(game, ctx, builder=SyntheticBuilder(game, n_words, seed))
