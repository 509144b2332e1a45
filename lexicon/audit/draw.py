"""A seeded, stratified random draw of a release's words (or a word list's) as a sheet.

Every evidence class (:mod:`.classes`) is drawn from, up to ``per_class`` words each, by
reservoir sampling in key order with one ``random.Random(seed)``: the same release, seed
and options give the same sheet, and a class of a hundred words is labelled as closely as
one of a million (the estimate weighs each by its size, :mod:`.estimate`). Small classes
are where the rules are most often wrong, and a plain random draw would never reach them.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lexicon.audit import sheets
from lexicon.audit.classes import ABSENT, admitted, evidence_class
from lexicon.audit.sheets import Row, Sheet
from lexicon.audit.words import audited_records, lookup
from lexicon.errors import InputError
from lexicon.game.profile import Profile
from lexicon.store.records import Record
from lexicon.store.release import Release

MAX_PER_CLASS = 10_000
EVIDENCE_CHARS = 400


def evidence_line(rec: Record | None) -> str:
    """What the release says of a word, in one line for the reviewer."""
    if rec is None:
        return ""
    said = "; ".join(rec.evidence[:4]) if rec.valid else (rec.reason_message or "")
    if rec.sources:
        said = f"{said} | sources: {', '.join(rec.sources)}" if said else \
            f"sources: {', '.join(rec.sources)}"
    return said if len(said) <= EVIDENCE_CHARS else said[:EVIDENCE_CHARS - 1] + "…"


def row(word: str, cls: str, rec: Record | None) -> Row:
    verdict = ABSENT if rec is None else "admitted" if admitted(cls) else "rejected"
    return Row(rec.word if rec else word, cls, verdict,
               (rec.reason_code or "") if rec else "", evidence_line(rec))


class Reservoir:
    """Up to ``k`` items a class, each item of a class equally likely (algorithm R)."""

    def __init__(self, k: int, seed: int) -> None:
        self.k = k
        self.rng = random.Random(seed)
        self.seen: Counter[str] = Counter()
        self.kept: dict[str, list[Row]] = {}

    def offer(self, cls: str, item: Row) -> None:
        self.seen[cls] += 1
        kept = self.kept.setdefault(cls, [])
        if len(kept) < self.k:
            kept.append(item)
            return
        j = self.rng.randrange(self.seen[cls])
        if j < self.k:
            kept[j] = item

    def rows(self) -> list[Row]:
        return sorted((r for rows in self.kept.values() for r in rows),
                      key=lambda r: (r.cls, r.word))


def draw(profile: Profile, release: Release, *, per_class: int = 20, seed: int = 0,
         word_list: Iterable[str] | None = None, list_name: str = "given",
         exclude: frozenset[str] = frozenset()) -> tuple[Sheet, dict[str, int]]:
    """The sheet of a draw and the size of every class of the population drawn from.

    The population is the release's keys, or ``word_list`` (a file ``list_name``): the
    list's words as the release reads them (a word it has no record of is ``absent``).
    Keys in ``exclude`` (words already labelled) are not drawn."""
    if not 1 <= per_class <= MAX_PER_CLASS:
        raise InputError(f"per class must be 1..{MAX_PER_CLASS:,}", code="bad_input",
                         detail={"per_class": per_class})
    vocabulary = profile.vocabulary
    pool = Reservoir(per_class, seed)
    if word_list is None:
        population = "release"
        for cls, rec in audited_records(profile, release):
            if rec.key not in exclude:
                pool.offer(cls, row(rec.word, cls, rec))
    else:
        listed = list(word_list)
        population = f"list {list_name} ({len(listed):,} words)"
        seen: set[str] = set()
        for word, key, rec in lookup(profile, release, listed):
            if key is None or key in exclude or key in seen:
                continue
            seen.add(key)
            cls = evidence_class(vocabulary, rec)
            pool.offer(cls, row(word, cls, rec))
    meta = {"game": profile.id, "release": release.id,
            "drawn": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seed": str(seed), "per_class": str(per_class), "population": population,
            "reviewer": "", "reviewed": ""}
    return Sheet(meta, pool.rows()), dict(sorted(pool.seen.items()))


def labelled_keys(root: Path, profile: Profile, release: Release, *,
                  every: bool = False, names: Iterable[str | Path] = ()) -> frozenset[str]:
    """The keys of the words labelled in the sheets ``names`` and, with ``every``, in all
    of the game's sheets under the home: what a new draw leaves out."""
    paths = [sheets.locate(root, n) for n in names]
    if every:
        paths += [Path(s["path"]) for s in sheets.listing(root, profile.id) if "error" not in s]
    words = [r.word for p in paths for r in sheets.read(p).labelled()]
    return frozenset(k for _w, k, _r in lookup(profile, release, words) if k)


def draw_sheet(root: Path, profile: Profile, release: Release, *, per_class: int = 20,
               seed: int = 0, words: Path | None = None, exclude_labelled: bool = False,
               exclude: Iterable[str | Path] = (), name: str | None = None) -> dict[str, Any]:
    """Draw (:func:`draw`) and write the sheet under ``audits/GAME/`` of ``root``: named
    ``name``, else for the release, the list and the seed; the words labelled in the
    sheets ``exclude`` (and with ``exclude_labelled`` in all the game's) left out. Never
    overwrites a sheet."""
    listed = sheets.word_list(words) if words else None
    left_out = labelled_keys(root, profile, release, every=exclude_labelled, names=exclude)
    sheet, sizes = draw(profile, release, per_class=per_class, seed=seed, word_list=listed,
                        list_name=words.name if words else "", exclude=left_out)
    default = f"{release.id}-{words.stem + '-' if words else ''}seed{seed}"
    stem = sheets.cell(name or default).replace("/", "_")
    path = sheet.write(sheets.directory(root, profile.id) / f"{stem}{sheets.SUFFIX}")
    return {"sheet": str(path), "name": sheet.name, "game": profile.id,
            "release": release.id, "population": sheet.meta["population"],
            "rows": len(sheet.rows), "excluded": len(left_out), "classes": sizes}
