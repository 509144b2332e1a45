"""How much of a release's tags the gloss tables cover: every distinct tag value of every
analysis stored in the current release of each game, looked up in its tag set.

    LEXICON_HOME=/work/data python -m tools.gloss_coverage [GAME...]

Prints one JSON object per game (distinct tag strings and values, analyses, the share glossed,
and any value without a gloss) and exits 1 if any value lacks one. Reads every record of the
release, so a Polish release takes a few minutes: run it under the shared heavy-work lock.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from lexicon.catalog import Catalog
from lexicon.game.gloss import tagset_for
from lexicon.store.release import Release


def _analysis_tags(rel: Release) -> Iterator[list[str]]:
    """The tags of each record's analyses."""
    for rec in rel.records():
        yield [a.tags for a in rec.analyses]


def coverage(game: str, rel: Release, *, progress: bool = False) -> dict[str, Any]:
    """Counts of the release's tag strings and of the values the tag set cannot gloss."""
    ts = tagset_for(game)
    tag_strings: Counter[str] = Counter()
    started = last = time.monotonic()
    for n, tags in enumerate(_analysis_tags(rel), 1):
        tag_strings.update(tags)
        if progress and time.monotonic() - last > 10:
            last = time.monotonic()
            rate = n / (last - started)
            print(f"  {game}: {n:,} records, {rate:,.0f}/s", file=sys.stderr)
    values: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    for tags, count in tag_strings.items():
        for v in ts.atoms(tags) if ts else {tags}:
            values[v] += count
        for v in ts.missing(tags) if ts else {tags}:
            missing[v] += count
    analyses = sum(tag_strings.values())
    unglossed = sum(c for t, c in tag_strings.items() if ts is None or ts.missing(t))
    return {
        "game": game, "release": rel.id, "tagset": ts.name if ts else None,
        "tag_strings": len(tag_strings), "values": len(values), "analyses": analyses,
        "values_glossed_pct": round(100 * (len(values) - len(missing)) / max(len(values), 1), 2),
        "analyses_glossed_pct": round(100 * (analyses - unglossed) / max(analyses, 1), 2),
        "missing": dict(missing.most_common()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="games to measure (default: every built one)")
    args = ap.parse_args(argv)
    cat = Catalog()
    games = args.games or [g for g in cat.games() if cat.release_or_none(g)]
    complete = True
    for game in games:
        result = coverage(game, cat.release(game), progress=True)
        complete &= not result["missing"]
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
