"""A game that plays another game's vocabulary: a release of links, not of copies.

Remik słowny admits exactly the words of Polish Scrabble (its profile says
``vocabulary = "osps"``); only the play rules differ (3+ letters, no maximum, its own
scoring), and those are applied at check time from the profile. So a Remik release holds
no records of its own: :func:`publish_shared` hard-links the record store and the query
indexes of the current osps release into a new Remik release directory and writes a
manifest that names that osps release (id and ``content_sha256``).

Why hard links and not a path to the osps release: a published release must be immutable
and self-describing. The linked files are the same immutable inodes as the osps release's
(on disk once), they survive the osps release being pruned, and publishing a new osps
release changes nothing in a published Remik release: Remik moves to the new vocabulary
only when it is rebuilt (``lexicon build remik``, seconds), which writes a new release.

The indexes are osps's (its playable words, 2 to 15 letters): Remik's queries list words
within those lengths, its checks answer every length (see :func:`_index_entry`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lexicon.build.release_writer import (
    ReleaseWriter,
    playable_identity,
    read_release_overrides,
    write_overrides,
)

from lexicon.errors import BuildError, NoRelease
from lexicon.game import profile as profiles
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.store import published
from lexicon.store.indexes import INDEX_DIR
from lexicon.store.meanings import MEANINGS_DIR, declared_file
from lexicon.store.recordfile import RECORDS_DIR
from lexicon.store.release import MANIFEST, Release


def _link_tree(src: Path, dst: Path) -> int:
    """Hard-link every file under ``src`` into ``dst``; returns how many."""
    n = 0
    for path in sorted(src.rglob("*")):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)
            n += 1
    return n


def _check_compatible(profile: Profile, owner: Profile, source: Release) -> None:
    if [t.canonical for t in profile.tiles] != [t.canonical for t in owner.tiles]:
        raise BuildError(f"{profile.id} reads {owner.id}'s vocabulary but their tiles differ")
    # a vocabulary choice a profile names (Polish: [options] inhabitants) is the owner's:
    # the linked records were judged by it, so a different setting here would be a lie
    for key in ("inhabitants",):
        if profile.options.get(key) != owner.options.get(key):
            raise BuildError(f"{profile.id} reads {owner.id}'s vocabulary but their [options] "
                             f"{key} differ ({profile.options.get(key)!r} against "
                             f"{owner.options.get(key)!r}): set both alike")
    if not (source.path / RECORDS_DIR).is_dir():
        raise BuildError(f"{source.id} is in an older layout; repack {owner.id} before "
                         f"publishing {profile.id}")


def _index_entry(profile: Profile, source: Release) -> dict[str, Any]:
    """The vocabulary owner's index entry, within the lengths both games play.

    The owner's indexes hold its playable words only (osps: 2-15 letters); indexing
    Remik's longer words too would grow the alphagram trie by half, past the size the
    release must keep (docs/benchmarks.md, "Figures behind the code"). So Remik's pattern,
    anagram and hook queries list words up to the owner's longest; its checks answer
    every length from the records. The entry says which lengths are not indexed.
    """
    entry = dict(source.manifest.get("indexes") or {})
    low, high = entry.get("lengths") or (0, 0)
    want_low, want_high = play_rules(profile).playable_lengths
    entry["lengths"] = [max(low, want_low), min(high, want_high)]
    if want_high > high:
        entry["not_indexed"] = {"lengths": [high + 1, want_high],
                                "why": f"{source.game}'s indexes hold words of at most {high} "
                                       "letters; checks answer every length, queries do not "
                                       "list these"}
    return entry


def publish_shared(game: str, root: Path | None = None, source_path: Path | None = None,
                   check_canaries: bool | None = None) -> Path:
    """Publish a release of ``game`` that serves its vocabulary game's current release.

    ``check_canaries``: check ``game``'s canary words (build/canaries.py) before
    publishing; None: when the linked release was itself checked (a full build).
    """
    profile = profiles.load(game)
    owner = profiles.load(profile.vocabulary)
    source_path = source_path or published.current_path(owner.id, root)
    if source_path is None:
        raise NoRelease(f"{game} plays the {owner.id} vocabulary and {owner.id} has no "
                        f"release; build {owner.id} first", detail={"game": owner.id})
    source = Release(source_path)
    try:
        _check_compatible(profile, owner, source)
        m = source.manifest
        with ReleaseWriter(profile, root) as writer:
            staging = writer.staging
            writer.discard_staged_records()
            if check_canaries is None:
                check_canaries = bool((m.get("canaries") or {}).get("checked"))
            writer.check_canaries = check_canaries
            linked = _link_tree(source.path / RECORDS_DIR, staging / RECORDS_DIR)
            linked += _link_tree(source.path / INDEX_DIR, staging / INDEX_DIR)
            if declared_file(m) is not None:   # the vocabulary's meanings, linked too
                linked += _link_tree(source.path / MEANINGS_DIR, staging / MEANINGS_DIR)
            identity = playable_identity(profile, source.valid_keys())
            content = m["content_sha256"]
            release_id, built_at = writer.name(content)
            manifest = writer.manifest(release_id, built_at, content, identity, {
                "vocabulary": {"game": owner.id, "release": source.id,
                               "content_sha256": content, "linked_files": linked,
                               "how": "hard links to the files of that release"},
                "sources": m.get("sources", []),
                "rules": m.get("rules", []),
                "policy": m.get("policy", {}),
                "counts": m.get("counts", {}),
                "records": m.get("records"),
                "overrides": write_overrides(staging, read_release_overrides(source.path, m)),
                "previous": published.current_id(game, root),
                "indexes": _index_entry(profile, source),
                **({"meanings": m["meanings"]} if "meanings" in m else {}),
            })
            manifest["own_bytes"] = _own_bytes(staging)
            manifest["size_bytes"] = manifest["own_bytes"]
            path = writer.publish_manifest(release_id, manifest)
    finally:
        source.close()
    return path


def _own_bytes(release_dir: Path) -> int:
    """Bytes of the files only this release holds (a hard-linked file is shared)."""
    return sum(p.stat().st_size for p in release_dir.rglob("*")
               if p.is_file() and p.stat().st_nlink == 1 and p.name != MANIFEST)
