"""A release against a reference list it does not build from: a federation's licensed list,
another tool's, an older release's export.

Two views, each with samples: how much of each evidence class of the release the list
has (which grades, rules or source combinations agree with it), and where the list's words
stand in the release (admitted by class, rejected by reason code, absent). A Polish
maintainer holding the official list learns which grades and generated slots agree with
it without making it a source.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from lexicon.audit.classes import evidence_class
from lexicon.audit.draw import Reservoir
from lexicon.audit.sheets import Row
from lexicon.audit.words import audited_records, lookup
from lexicon.changes import SAMPLES, sample
from lexicon.game.profile import Profile
from lexicon.store.release import Release

UNREAD = "unreadable"     # a list word that is no spelling of the game's tiles


def compare(profile: Profile, release: Release, words: list[str], *, list_name: str = "",
            samples: int = SAMPLES, seed: int = 0) -> dict[str, Any]:
    """Shares of each release class found in ``words``, and the list's words by where the
    release puts them."""
    vocabulary = profile.vocabulary
    in_list: set[str] = set()
    where: dict[str, list[str]] = defaultdict(list)
    for word, key, rec in lookup(profile, release, words):
        if key is None:
            where[UNREAD].append(word)
        elif key not in in_list:
            in_list.add(key)
            where[evidence_class(vocabulary, rec)].append(rec.word if rec else word)
    size: Counter[str] = Counter()
    found: Counter[str] = Counter()
    found_words: dict[str, list[str]] = defaultdict(list)
    missing = Reservoir(samples, seed)     # a few words of each class the list lacks
    for cls, rec in audited_records(profile, release):
        size[cls] += 1
        if rec.key in in_list:
            found[cls] += 1
            if len(found_words[cls]) < samples * 50:
                found_words[cls].append(rec.word)
        else:
            missing.offer(cls, Row(rec.word, cls))
    classes = [{"class": c, "size": n, "in_list": found[c],
                "share": round(found[c] / n, 4) if n else 0.0,
                "samples_in_list": sample(found_words[c], samples),
                "samples_not_in_list": sorted(r.word for r in missing.kept.get(c, []))}
               for c, n in sorted(size.items(), key=lambda kv: (-kv[1], kv[0]))]
    listed = [{"class": c, "count": len(ws), "share": round(len(ws) / (len(words) or 1), 4),
               "samples": sample(ws, samples)}
              for c, ws in sorted(where.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
    return {"game": profile.id, "release": release.id, "list": list_name,
            "list_words": len(words), "classes": classes, "list_by_verdict": listed}
