"""The one stage after a game's rules: official lists, reviewed overrides, canaries.

A builder's records are the rule book's verdicts on what the sources say. Three things may
still change or stop them, and they do so here, in this order, for every full build and
smoke build alike (:mod:`build.pipeline` runs the stage; no builder knows of it):

1. the game's official word list (:mod:`build.official_lists`), applied to the records as
   they stream to the writer: ``restrict`` rejects what it lacks, ``admit`` adds what it
   holds, ``annotate`` cites it;
2. the reviewed overrides kept with the sources (``sources/overrides/GAME.tsv``,
   :func:`build.amend.reviewed_overrides`), applied to the staged records once all are
   written, so a word fixed by ``lexicon amend`` stays fixed when the game is rebuilt;
3. the canary words (:mod:`build.canaries`), which change nothing but stop the release
   from being published if one flipped: checked by the writer on the staged release
   (:func:`build.release.check_staged`), on a full build of the real sources unless the
   context says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon.build import amend, official_lists
from lexicon.build.release import ReleaseWriter, as_record

from lexicon.game.profile import Profile
from lexicon.store.recordfile import Split
from lexicon.store.records import Record


@dataclass
class PostRules:
    """The stage for one build of ``profile`` (see the module doc for the order)."""

    profile: Profile
    pin: official_lists.Pin | None
    listed: set[str]
    check_canaries: bool

    @classmethod
    def for_build(cls, profile: Profile, root: Path | None, *,
                  check_canaries: bool) -> PostRules:
        """The stage a build applies: the pinned official list (read and verified against
        its sha256 now, before any record is judged) and whether canaries are checked."""
        pin = official_lists.pin_for(profile, root)
        listed = official_lists.load_keys(profile, pin, root) if pin is not None else set()
        return cls(profile, pin, listed, check_canaries)

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
        """Step 2: the reviewed overrides applied to every record ``writer`` has staged;
        the applied ones, for the release's ``overrides.jsonl``."""
        return amend.apply_to_writer(writer, amend.reviewed_overrides(self.profile.id))
