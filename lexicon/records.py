"""What the store says about one word, and how it is laid out in LMDB.

Each LMDB value is one status byte (``1`` admitted, ``0`` known but rejected) followed by
compact JSON whose repeated strings are ids into the release's :class:`StringTable`. The
status byte lets a membership test answer without decoding JSON; the JSON carries the
explanation a referee needs: the reason for a rejection, the analyses, and the sources and
evidence that admitted a word.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

VALID = b"\x01"
REJECTED = b"\x00"


@dataclass
class Analysis:
    lemma: str
    tags: str
    source: str
    labels: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"lemma": self.lemma, "tags": self.tags, "source": self.source}
        if self.labels:
            out["labels"] = list(self.labels)
        return out


class StringTable:
    """Interns the strings that repeat across millions of records (tags, sources, evidence).

    A record stores small integers instead of, say, ``"adj:sg:nom.voc:m1.m2.m3:pos"`` or
    ``"listed by hunspell-pl and wpolish; known to Morfeusz"``; the table is written once per
    release (LMDB database ``strings``) and read into memory when the release is opened. This
    cut the Polish release to about a third of its size.
    """

    SEP = "\x1f"

    def __init__(self, items: list[str] | None = None,
                 fetch_text: Callable[[int], str] | None = None) -> None:
        self.items: list[str] = list(items or [])
        self.index: dict[str, int] = {t: i for i, t in enumerate(self.items)}
        # Messages and evidence repeated across records: kept in LMDB and read on demand
        # (``fetch_text``) because a release can have hundreds of thousands of them.
        self.lazy_items: list[str] = []
        self._text_index: dict[str, int] = {}
        self._seen_once: set[str] = set()   # build time only: candidates for interning
        self._fetch_text = fetch_text

    def id(self, text: str) -> int:
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.items)
            self.items.append(text)
        return found

    def ids(self, texts: list[str] | tuple[str, ...]) -> int:
        return self.id(self.SEP.join(texts))

    def text_id_if_repeated(self, text: str) -> int | str:
        """An id in the on-demand text table for a string seen before, else the string.

        Messages and evidence are sometimes shared by millions of words ("written with a
        capital letter") and sometimes unique to one ("genitive singular of hiša"); interning
        the unique ones would only make the release bigger.
        """
        found = self._text_index.get(text)
        if found is not None:
            return found
        if text in self._seen_once:
            self._seen_once.discard(text)
            found = self._text_index[text] = len(self.lazy_items)
            self.lazy_items.append(text)
            return found
        self._seen_once.add(text)
        return text

    def lazy_text(self, value: int | str) -> str:
        """A message or evidence string: inline, or by id from the on-demand table."""
        if isinstance(value, str):
            return value
        if self._fetch_text is not None:
            return self._fetch_text(value)
        return self.lazy_items[value]

    def text(self, i: int) -> str:
        return self.items[i]

    def texts(self, i: int) -> list[str]:
        joined = self.items[i]
        return joined.split(self.SEP) if joined else []

    def dump(self) -> bytes:
        return json.dumps(self.items, ensure_ascii=False).encode()

    @classmethod
    def load(cls, raw: bytes | None,
             fetch_text: Callable[[int], str] | None = None) -> StringTable:
        return cls(json.loads(bytes(raw)) if raw else [], fetch_text)


@dataclass
class Record:
    key: str                     # canonical tiles (see lexicon.profile)
    word: str                    # display spelling: stored capitals, Latin, phrase spaces
    valid: bool
    reason_code: str | None = None
    reason_message: str | None = None
    analyses: list[Analysis] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    category: str | None = None  # e.g. "noun", "verb:inf", "adj", "name"
    evidence: list[str] = field(default_factory=list)  # what admitted it, human-readable

    def encode(self, table: StringTable) -> bytes:
        """Status byte + compact JSON; repeated strings become ids into ``table``."""
        body: dict[str, Any] = {}
        if self.word != self.key:
            body["w"] = self.word
        if self.reason_code:
            body["r"] = table.id(self.reason_code)
            msg = table.text_id_if_repeated(self.reason_message or "")
            body["M" if isinstance(msg, int) else "m"] = msg
        if self.analyses:
            body["a"] = [
                [0 if a.lemma == self.word else a.lemma, table.id(a.tags), table.id(a.source),
                 *([table.ids(a.labels)] if a.labels else [])]
                for a in self.analyses
            ]
        if self.sources:
            body["s"] = table.ids(self.sources)
        if self.category:
            body["c"] = table.id(self.category)
        if self.evidence:
            ev = table.text_id_if_repeated(table.SEP.join(self.evidence))
            body["E" if isinstance(ev, int) else "e"] = ev
        head = VALID if self.valid else REJECTED
        return head + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, key: str, raw: bytes, table: StringTable) -> Record:
        body = json.loads(bytes(raw[1:]))
        word = body.get("w", key)
        t = table.text
        return cls(
            key=key,
            word=word,
            valid=raw[:1] == VALID,
            reason_code=t(body["r"]) if "r" in body else None,
            reason_message=(table.lazy_text(body["M"]) if "M" in body
                            else body.get("m")),
            analyses=[Analysis(word if a[0] == 0 else a[0], t(a[1]), t(a[2]),
                               tuple(table.texts(a[3])) if len(a) > 3 else ())
                      for a in body.get("a", [])],
            sources=table.texts(body["s"]) if "s" in body else [],
            category=t(body["c"]) if "c" in body else None,
            evidence=(table.lazy_text(body["E"]).split(table.SEP) if "E" in body
                      else body["e"].split(table.SEP) if "e" in body else []),
        )

    @staticmethod
    def analysis_tags(raw: bytes, table: StringTable) -> list[str]:
        """Only the tags of a record's analyses: for tools that walk every record of a
        release (gloss coverage), without fetching its messages and evidence."""
        return [table.text(a[1]) for a in json.loads(bytes(raw[1:])).get("a", ())]

    def merge(self, other: Record) -> Record:
        """Combine two records for the same key: the one merge policy of every builder.

        Spellings of one key meet here: ``Bóg`` and ``bóg`` in Polish, ``kalin`` (the bird)
        and ``Kalin`` (a surname) in Križemkražem. An admitted spelling wins over a rejected
        one; then the lower-case one (``np`` the abbreviation, not ``Np`` the chemical
        symbol; ``kalin`` before ``Kalin``): it is the word a player actually laid; then the
        first in code-point order, so the result never depends on which arrived first. When
        both are admitted, sources, analyses and evidence are pooled so the answer still
        says everything that is known; evidence of the other spelling names it
        (``Kalin: ...``).
        """
        first, second = sorted((self, other), key=lambda r: (
            not r.valid, r.word != r.word.lower(), r.word))
        if not (first.valid and second.valid):
            return first
        for a in second.analyses:
            if a not in first.analyses:
                first.analyses.append(a)
        first.sources = sorted(set(first.sources) | set(second.sources))
        other_evidence = second.evidence if second.word == first.word else [
            f"{second.word}: {e}" for e in second.evidence]
        first.evidence = list(dict.fromkeys(first.evidence + other_evidence))
        return first
