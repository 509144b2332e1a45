"""Slovenian lemmatisation with LemmaGen (PyPI ``lemmagen3``), as evidence, not as truth.

Why: the word list (hunspell-sl) says which forms exist but not which of them is a lemma.
LemmaGen's Slovenian model (trained on the Multext-East/Sloleks lexicon, shipped inside
the wheel, no download) maps an inflected form to its lemma offline and fast (~1M forms in
~10 s). It gives no part of speech, so the builder uses one bit of it: *does the form
lemmatise to itself?* (``hiša`` -> ``hiša`` yes, ``hiše`` -> ``hiša`` no). That bit is the
second opinion needed before a weakly attested paradigm admits a word, and the lemma it
returns names the base word in rejection messages.

The module degrades gracefully: :func:`load` returns None when the package is missing, and
the builder then records that lemmagen evidence was unavailable.
"""

from __future__ import annotations

import importlib.metadata
from typing import Protocol


class _Lemmatizer(Protocol):
    def lemmatize(self, word: str) -> str: ...


class SlovenianLemmatizer:
    """A thin wrapper: ``lemma(word)`` and the self-lemma test ``is_lemma(word)``."""

    source_id = "lemmagen3"

    #: the cache is cleared when it reaches this size: a build asks about each form once,
    #: so keeping them all would cost memory for no gain
    MAX_CACHE = 200_000

    def __init__(self, impl: _Lemmatizer) -> None:
        self._impl = impl
        self._cache: dict[str, str] = {}

    def lemma(self, word: str) -> str:
        got = self._cache.get(word)
        if got is None:
            got = self._impl.lemmatize(word)
            if len(self._cache) >= self.MAX_CACHE:
                self._cache.clear()
            self._cache[word] = got
        return got

    def is_lemma(self, word: str) -> bool:
        return self.lemma(word) == word

    def forget(self) -> None:
        """Drop the cache (it holds one entry per looked-up form)."""
        self._cache.clear()


def version() -> str | None:
    try:
        return importlib.metadata.version("lemmagen3")
    except importlib.metadata.PackageNotFoundError:
        return None


def load() -> SlovenianLemmatizer | None:
    """The Slovenian lemmatiser, or None if ``lemmagen3`` is not installed."""
    try:
        from lemmagen3 import Lemmatizer
    except ImportError:
        return None
    return SlovenianLemmatizer(Lemmatizer("sl"))
