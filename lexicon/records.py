"""What the store says about one word, and how it is laid out in LMDB.

Each LMDB value is one status byte (``1`` admitted, ``0`` known but rejected) followed by
compact JSON. The status byte lets a membership test answer without decoding JSON; the JSON
carries the explanation a referee needs: the reason for a rejection, the analyses, and the
sources and evidence that admitted a word.
"""

from __future__ import annotations

import json
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

    def encode(self) -> bytes:
        body: dict[str, Any] = {"w": self.word}
        if self.reason_code:
            body["r"] = self.reason_code
            body["m"] = self.reason_message or ""
        if self.analyses:
            body["a"] = [[a.lemma, a.tags, a.source, *( [list(a.labels)] if a.labels else [])]
                         for a in self.analyses]
        if self.sources:
            body["s"] = self.sources
        if self.category:
            body["c"] = self.category
        if self.evidence:
            body["e"] = self.evidence
        head = VALID if self.valid else REJECTED
        return head + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, key: str, raw: bytes) -> Record:
        body = json.loads(bytes(raw[1:]))
        return cls(
            key=key,
            word=body["w"],
            valid=raw[:1] == VALID,
            reason_code=body.get("r"),
            reason_message=body.get("m"),
            analyses=[Analysis(a[0], a[1], a[2], tuple(a[3]) if len(a) > 3 else ())
                      for a in body.get("a", [])],
            sources=body.get("s", []),
            category=body.get("c"),
            evidence=body.get("e", []),
        )

    def merge(self, other: Record) -> Record:
        """Combine two records for the same key (e.g. ``Bóg`` and ``bóg`` in Polish).

        An admitted spelling wins over a rejected one; when both agree, sources, analyses
        and evidence are pooled so the answer still says everything that is known.
        """
        if self.valid != other.valid:
            return self if self.valid else other
        first, second = self, other
        for a in second.analyses:
            if a not in first.analyses:
                first.analyses.append(a)
        first.sources = sorted(set(first.sources) | set(second.sources))
        first.evidence = list(dict.fromkeys(first.evidence + second.evidence))
        return first
