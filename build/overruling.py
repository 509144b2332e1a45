"""The one stage after a game's rules: official lists, reviewed overrides, canaries.

A builder's records are the rule book's verdicts on what the sources say. Three things may
still change or stop them, and they do so here, in this order, for every full build and
smoke build alike (:mod:`build.pipeline` runs the stage; no builder knows of it):

1. the game's official word list (:mod:`build.official_lists`), applied to the records as
   they stream to the writer: ``restrict`` rejects what it lacks, ``admit`` adds what it
   holds, ``annotate`` cites it;
2. the reviewed overrides kept with the sources (``sources/overrides/GAME.tsv``,
   :func:`build.amend.reviewed_overrides`), then every ``amend`` override of the release
   the build replaces (:func:`kept_overrides`: the game's current release knows them),
   applied to the staged records once all are written, so a word fixed by ``lexicon
   amend`` stays fixed when the game is rebuilt; only a maintainer who says so
   (``--drop-overrides``) builds without the latter;
3. the canary words (:mod:`build.canaries`), which change nothing but stop the release
   from being published if one flipped: checked by the writer on the staged release
   (:func:`build.release_writer.check_staged`), on a full build of the real sources unless the
   context says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon.build import amend, official_lists
from lexicon.build.release_writer import ReleaseWriter, as_record, read_release_overrides

from lexicon.errors import BuildError, LexiconError
from lexicon.game import profile as profiles
from lexicon.game.overrides import REVIEWED, Override
from lexicon.game.profile import Profile
from lexicon.store import published
from lexicon.store.integrity import read_manifest
from lexicon.store.recordfile import Split
from lexicon.store.records import Record


@dataclass(frozen=True)
class Kept:
    """The amend overrides a rebuild carries over from the release it replaces."""

    release: str
    overrides: list[Override]


def kept_overrides(game: str, root: Path | None) -> Kept | None:
    """The overrides a rebuild of ``game`` keeps: every one the current release carries
    that a maintainer made (``amend``, ``audit apply`` then amend), in the order they were
    applied; the reviewed ones are read from the reviewed file instead. None when the game
    has no release or plays another game's vocabulary (its link carries that game's). A
    release whose overrides cannot be read stops the build (BuildError): they would be
    lost silently."""
    if profiles.load(game).vocabulary != game:
        return None
    path = published.current_path(game, root)
    if path is None:
        return None
    try:
        entries = list(read_release_overrides(path, read_manifest(path)))
        kept = [Override(str(e["word"]), str(e["action"]), str(e["reason"]), n)
                for n, e in enumerate(entries, 1) if e.get("origin") != REVIEWED]
    except (LexiconError, OSError, ValueError, KeyError, TypeError) as exc:
        raise BuildError(f"{game}: the overrides of release {path.name} cannot be read "
                         f"({exc}); rebuild with --drop-overrides to build without them",
                         detail={"game": game, "release": path.name}) from exc
    return Kept(path.name, kept) if kept else None


@dataclass
class Overruling:
    """The stage for one build of ``profile`` (see the module doc for the order)."""

    profile: Profile
    pin: official_lists.Pin | None
    listed: set[str]
    check_canaries: bool
    kept: Kept | None = None

    @classmethod
    def for_build(cls, profile: Profile, root: Path | None, *,
                  check_canaries: bool, keep_overrides: bool = True) -> Overruling:
        """The stage a build applies: the pinned official list (read and verified against
        its sha256 now, before any record is judged), whether canaries are checked, and
        the overrides kept from the release the build replaces (``keep_overrides``)."""
        pin = official_lists.pin_for(profile, root)
        listed = official_lists.load_keys(profile, pin, root) if pin is not None else set()
        kept = kept_overrides(profile.id, root) if keep_overrides else None
        return cls(profile, pin, listed, check_canaries, kept)

    def sources(self) -> list[dict[str, Any]]:
        """The manifest's source entries the stage adds (the official list, if any)."""
        if self.pin is None:
            return []
        return [official_lists.manifest_entry(self.pin, len(self.listed))]

    def records(self, records: Iterable[Record | Split]) -> Iterable[Record | Split]:
        """Step 1: the rules' records with the official list applied (records a judging
        worker sent already split are decoded for it; without a list they pass as they are)."""
        if self.pin is None:
            return records
        return official_lists.apply(self.pin, self.listed, map(as_record, records))

    def arm(self, writer: ReleaseWriter) -> None:
        """Step 3, set up: the writer checks the canaries before it publishes."""
        writer.check_canaries = self.check_canaries

    def staged(self, writer: ReleaseWriter) -> list[dict[str, Any]]:
        """Step 2: the reviewed overrides, then the kept ones (a later one for the same
        word wins), applied to every record ``writer`` has staged; the applied ones, for
        the release's ``overrides.jsonl``."""
        kept = self.kept.overrides if self.kept is not None else []
        return amend.apply_to_writer(writer, [*amend.reviewed_overrides(self.profile.id),
                                              *kept])
