"""New releases from a published one, without judging the sources again: amend and repack.

A maintainer who learns that one word is wrong should not wait for a full build (7-18
minutes of judging every form). ``lexicon amend GAME --overrides FILE.tsv`` takes the
current release's records, applies the overrides, and publishes a new release through the
same :class:`~build.release_writer.ReleaseWriter` (staging directory, atomic rename, ``CURRENT``).
Its manifest names the parent release; every override it carries (its parent's, then its
own) is in the release's ``overrides.jsonl``, which the manifest lists by count and sha256.

An overrides file has one override a line, tab-separated: ``word``, ``add`` or ``remove``,
and the reason (required: it is what a referee reads). ``#`` starts a comment line.

* ``remove``: the word is rejected with reason code ``override`` and the maintainer's
  reason as the message; what the parent knew (analyses, sources) stays visible.
* ``add``: the word is admitted and its evidence is the override; a word the parent had
  rejected keeps its analyses and sources.

Reviewed overrides live in ``sources/overrides/GAME.tsv`` and every full build applies them
after judging (:func:`apply_to_writer`); a rebuild also applies, after them, every amend
override of the release it replaces (:func:`build.overruling.kept_overrides`), so a
correction made by amend is never lost when the game is rebuilt from its sources unless
the maintainer drops it by saying so (``lexicon build --drop-overrides``). Each override
in a release's ``overrides.jsonl`` says where it came from (``origin``: ``reviewed`` or
``amend``), so a rebuild takes the reviewed ones from the reviewed file as it is now.

``repack`` is the same path with no override: it rewrites an existing release in the
current record format (``records.lmdb/``), reading one of an older layout (``records/``,
``lexicon.lmdb/``) through :mod:`build.old_layouts`: the runtime reads only the current one.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from itertools import chain
from pathlib import Path
from typing import Any

from lexicon.build import meanings_writer
from lexicon.build.old_layouts import LegacyRelease, open_parent
from lexicon.build.progress import track
from lexicon.build.record_writer import amend_store, split_all
from lexicon.build.release_writer import Changed, ReleaseWriter, StoreWriter, read_release_overrides

from lexicon.errors import BuildError, InputError, LexiconError, NoRelease
from lexicon.export.export import Identity
from lexicon.game import profile as profiles
from lexicon.game.inputs import clean_word
from lexicon.game.overrides import REVIEWED, Override, OverridesError, read_overrides
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store import published
from lexicon.store.recordfile import Split
from lexicon.store.records import Record
from lexicon.store.release import Release
from lexicon.verdicts.checker import decide

OVERRIDES_DIR = Path(__file__).resolve().parent.parent / "sources" / "overrides"
OVERRIDE = "override"          # reason code and source name of an override


def reviewed_overrides(game: str, directory: Path | None = None) -> list[Override]:
    """The reviewed overrides of ``game`` kept with the sources (none if no file)."""
    path = (directory or OVERRIDES_DIR) / f"{game}.tsv"
    return [replace(ov, origin=REVIEWED) for ov in read_overrides(path)] \
        if path.exists() else []


def resolve(profile: Profile, overrides: Iterable[Override],
            record: Callable[[str], Record | None]) -> dict[str, Override]:
    """Key -> override. ``record(key)`` is the parent's record of a key (None: it has
    none): a Latin Kvizovka word takes the tiling the checker would show
    (:func:`lexicon.verdicts.checker.decide`), so an override changes the word a referee sees. A
    later line for the same key wins (a file is read top to bottom)."""
    out: dict[str, Override] = {}
    spell = speller(profile)
    for ov in overrides:
        try:
            decided = decide(spell, clean_word(ov.word), record)
        except LexiconError as exc:
            raise OverridesError(f"line {ov.line}: {ov.word!r}: {exc}",
                                 detail={"line": ov.line, "word": ov.word}) from exc
        if spell.tiling(decided.keys[0]).foreign:     # the preferred reading's letters
            raise OverridesError(f"line {ov.line}: {ov.word!r} is not spelled in "
                                 f"{profile.name} tiles", detail={"line": ov.line})
        out[decided.key] = ov
    return out


def apply(key: str, ov: Override, parent: Record | None) -> Record:
    """The record an override makes of the parent's record (None: the parent lacks it)."""
    if ov.action == "remove":
        if parent is None:
            return Record(key=key, word=ov.word, valid=False, reason_code=OVERRIDE,
                          reason_message=ov.reason, sources=[OVERRIDE])
        return Record(key=key, word=parent.word, valid=False, reason_code=OVERRIDE,
                      reason_message=ov.reason, analyses=parent.analyses,
                      sources=parent.sources, category=None, evidence=[])
    evidence = [f"added by override: {ov.reason}"]
    if parent is None:
        return Record(key=key, word=ov.word, valid=True, sources=[OVERRIDE],
                      evidence=evidence)
    return Record(key=key, word=parent.word, valid=True, analyses=parent.analyses,
                  sources=sorted({*parent.sources, OVERRIDE}), category=parent.category,
                  evidence=evidence + (parent.evidence if parent.valid else []))


def apply_to_writer(writer: ReleaseWriter, overrides: list[Override]) -> list[dict[str, Any]]:
    """Apply reviewed overrides to the records a full build has staged."""
    if not overrides:
        return []
    by_key = resolve(writer.profile, overrides, writer.staged)
    for key, ov in sorted(by_key.items()):
        writer.replace(apply(key, ov, writer.staged(key)))
    return [ov.to_json(k) for k, ov in sorted(by_key.items())]


def _amended(parent: Release | LegacyRelease,
             by_key: dict[str, Override]) -> Iterator[Split]:
    """The parent's records as stored (not decoded), overridden ones replaced, in key
    order when the parent gives key order (today's layout): the store is then written
    without sorting. A repack, or an amend of an older layout, writes these; an amend of
    today's layout copies the parent's store instead (:func:`_copying`)."""
    new = list(split_all([apply(key, ov, parent.get(key)) for key, ov in sorted(by_key.items())]))
    total = parent.manifest.get("counts", {}).get("records")
    kept = (rec for rec in track(parent.splits(), f"{parent.game}: reading {parent.id}",
                                 total=total, unit="records", every=50_000)
            if rec.key not in by_key)
    yield from heapq.merge(kept, new, key=lambda rec: rec.key)


def _new_valid_keys(parent: Release | LegacyRelease,
                    by_key: dict[str, Override]) -> Iterator[str]:
    """The new release's valid keys (once each, in no particular order), known before its
    records are written (so its indexes can be built meanwhile): the parent's that no
    override touches, then the added ones; no set of millions of keys is built."""
    yield from (k for k in parent.valid_keys() if k not in by_key)
    yield from sorted(k for k, ov in by_key.items() if ov.action == "add")


def _copying(parent: Release, by_key: dict[str, Override]) -> StoreWriter:
    """An amend's record store: the parent's copied byte for byte but for the overridden
    records (:func:`build.record_writer.amend_store`), the only ones encoded."""
    replaced = list(split_all(apply(key, ov, parent.get(key))
                              for key, ov in sorted(by_key.items())))
    return lambda out: amend_store(parent.store, replaced, out)


def _changed(parent: Release | LegacyRelease, by_key: dict[str, Override]) -> Changed:
    """The diff an amend makes against its parent: only overridden keys change verdict."""
    return parent.id, {key: (parent.is_valid(key), ov.action == "add")
                       for key, ov in by_key.items()}


def _identity(profile: Profile, parent: Release | LegacyRelease,
              by_key: dict[str, Override]) -> Identity | None:
    """The parent's playable-word hash and counts, changed by the overridden keys only."""
    identity = Identity.of_manifest(parent.manifest)
    if identity is None:
        return None
    playable = play_rules(profile).is_playable
    for key, ov in by_key.items():
        was = parent.is_valid(key) and playable(key)
        now = ov.action == "add" and playable(key)
        if was and not now:
            identity.discard(key)
        elif now and not was:
            identity.add(key)
    return identity


def derive(game: str, parent_path: Path | None = None, overrides: list[Override] = (),
           root: Path | None = None, *, kind: str = "amend") -> Path:
    """Publish a new release of ``game`` from ``parent_path`` (default: the current one)."""
    profile = profiles.load(game)
    if profile.vocabulary != game:
        raise InputError(f"{game} plays the {profile.vocabulary} vocabulary: {kind} "
                         f"{profile.vocabulary}, then `lexicon build {game}` links it",
                         code="linked_game", detail={"game": game,
                                                     "vocabulary": profile.vocabulary})
    if parent_path is None:
        parent_path = published.current_path(game, root)
        if parent_path is None:
            raise NoRelease(f"no release of {game!r} to {kind}; build it first",
                            detail={"game": game})
    parent = open_parent(parent_path)   # an older layout too: this is how it is migrated
    try:
        if parent.game != game:
            raise BuildError(f"{parent_path} is a release of {parent.game}, not {game}")
        by_key = resolve(profile, overrides, parent.get)
        m = parent.manifest
        applied = [ov.to_json(k) for k, ov in sorted(by_key.items())]
        # the overrides go to the release's overrides.jsonl (parent's first, then these:
        # the last ``amend.overrides`` lines), not the manifest
        extra = {kind: {"parent": parent.id,
                        "parent_content_sha256": m.get("content_sha256"),
                        "overrides": len(applied)}}
        carried = chain(read_release_overrides(parent.path, m), applied)
        identity = _identity(profile, parent, by_key)
        # an amend of today's layout copies the parent's store; a repack (or an older
        # parent) writes every record again, which is what migrating means
        copy = kind == "amend" and isinstance(parent, Release)
        with ReleaseWriter(profile, root) as writer:
            # a correction is publishing too: a parent whose canaries held (a full build) must
            # not lose one to an override; a maintainer who means it edits the profile's list
            writer.check_canaries = bool((m.get("canaries") or {}).get("checked"))
            # the meanings of the lemmas the new release admits (cached sources, or the
            # parent's file): an amend goes through the same writer as a build
            writer.meanings = meanings_writer.for_amend(game, parent, root)
            path = writer.publish(sources=m.get("sources", []), policy=m.get("policy", {}),
                                  rules=m.get("rules", []),
                                  records=None if copy else _amended(parent, by_key),
                                  store=_copying(parent, by_key) if copy else None,
                                  changed=_changed(parent, by_key) if copy else None,
                                  extra=extra, identity=identity,
                                  valid_keys=_new_valid_keys(parent, by_key),
                                  overrides=carried)
    finally:
        parent.close()
    return path
