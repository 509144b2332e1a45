"""Running a build: fetch a game's sources, let its builder judge every form, publish.

A build moves forward through five stages, each in one place:

1. sources: the game's pinned packages fetched and verified (:mod:`sources.fetch`);
2. evidence and 3. rules: the game's builder (:mod:`build.games`, found in
   :data:`build.games.BUILDERS`) reads all its evidence, makes its rule book from it and
   yields one :class:`~lexicon.store.records.Record` per key it judged;
4. after the rules: official lists, reviewed overrides and canaries (:mod:`build.overruling`);
5. the release writer (:mod:`build.release_writer`): staging, counting, hashing, the manifest, the
   diff, atomic publishing.

Builders stay small and comparable because they own stages 2 and 3 only.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lexicon.build import amend as amending
from lexicon.build import meanings_writer
from lexicon.build.context import BuildContext, nobody_counts
from lexicon.build.games import GameBuilder, builder_for
from lexicon.build.linked import publish_shared
from lexicon.build.overruling import Overruling
from lexicon.build.progress import Progress
from lexicon.build.release_writer import ReleaseWriter, build_lock
from lexicon.sources import fetch as fetching

from lexicon.errors import BuildError, LexiconError
from lexicon.game import profile as profiles
from lexicon.paths import home
from lexicon.store import published
from lexicon.store.indexes import FORMAT as INDEX_FORMAT
from lexicon.store.indexes import READABLE
from lexicon.store.records import Record

__all__ = ["BuildContext", "GameBuilder", "build_game", "refresh_indexes", "stale_indexes"]


def build_game(game: str, ctx: BuildContext | None = None,
               builder: GameBuilder | None = None) -> Path:
    """Build and publish one game's release; returns the published directory.

    A game that plays another game's vocabulary (remik: osps) is not judged again: its
    release links the vocabulary game's current release (:mod:`build.linked`), which is
    built first if it has none.
    """
    profile = profiles.load(game)
    ctx = ctx or BuildContext(root=home())
    if profile.vocabulary != game:
        if builder is not None:
            raise BuildError(f"{game} plays the {profile.vocabulary} vocabulary: build "
                             f"{profile.vocabulary} with that builder, then {game}")
        if published.current_path(profile.vocabulary, ctx.root) is None:
            ctx.log(f"build {game}: {profile.vocabulary} has no release; building it first")
            build_game(profile.vocabulary, ctx)
        with build_lock(game, ctx.root):
            path = publish_shared(game, ctx.root, check_canaries=ctx.canaries)
        ctx.log(f"published {path.name} (the {profile.vocabulary} vocabulary, linked)")
        return path
    with build_lock(game, ctx.root):
        return _build_locked(game, profile, ctx, builder)


def stale_indexes(manifest: dict[str, Any]) -> str | None:
    """Why a release this code serves must still be written again: its query indexes are
    in a format the runtime no longer reads (a machine upgraded past an index format);
    None when they are current. Its checks answer meanwhile; its queries say ``no_index``."""
    entry = manifest.get("indexes")
    found = entry.get("format") if isinstance(entry, dict) else None
    if found is None or found in READABLE:
        return None
    return f"its indexes are in format {found}, this code reads {INDEX_FORMAT}"


def refresh_indexes(game: str, ctx: BuildContext | None = None) -> Path:
    """Write the current release of ``game`` again with current indexes: a repack (every
    verdict kept), or for a game that links another's vocabulary (remik) a new link to
    that game's current release."""
    ctx = ctx or BuildContext(root=home())
    if profiles.load(game).vocabulary != game:
        return build_game(game, ctx)
    with build_lock(game, ctx.root):
        return amending.derive(game, root=ctx.root, kind="repack")


def _build_locked(game: str, profile: profiles.Profile, ctx: BuildContext,
                  builder: GameBuilder | None) -> Path:
    full_build = builder is None and ctx.limit is None
    if builder is None:                                      # 1. sources
        for spec in fetching.sources_for(game):
            if spec.id not in ctx.fetched:
                ctx.log(f"fetch {spec.id} {spec.version}")
                fetching.check_installed(spec)
                ctx.fetched[spec.id] = fetching.fetch(spec, fetching.cache_dir(ctx.root),
                                                      log=ctx.log)
                fetching.verify_installed(ctx.fetched[spec.id])  # what the build imports
        builder = builder_for(game, ctx)
    used = [ctx.fetched[s].manifest_entry() for s in builder.source_ids if s in ctx.fetched]
    judged = builder.records(ctx)                            # 2. evidence, 3. rules
    after = Overruling.for_build(profile, ctx.root,           # 4. after the rules
                                check_canaries=full_build if ctx.canaries is None
                                else ctx.canaries,
                                keep_overrides=not ctx.drop_overrides)
    if after.kept is not None:
        ctx.log(f"build {game}: keeping {len(after.kept.overrides)} override"
                f"{'s' if len(after.kept.overrides) != 1 else ''} of {after.kept.release}")
    used += after.sources()
    ctx.log(f"build {game}: judging forms")
    with ReleaseWriter(profile, ctx.root) as writer:         # 5. the release writer
        after.arm(writer)
        writer.meanings = meanings_writer.writing(
            game, meanings_writer.from_fetched(game, ctx.fetched))
        _write(game, ctx, writer, after.records(judged))
        applied = after.staged(writer)
        policy: dict[str, Any] = builder.policy()
        policy["merged_spellings"] = writer.merged
        path = writer.publish(sources=used, policy=policy, rules=builder.rules(),
                              overrides=applied)
    ctx.log(f"published {path.name}")
    return path


def _write(game: str, ctx: BuildContext, writer: ReleaseWriter,
           records: Iterable[Record]) -> None:
    """Stage every record, with a bar of the records written: count, rate and (once the
    builder has said how many: ``ctx.expect_records``) total and ETA; the builder's reading
    phases show their own bars as rows under this one."""
    try:
        with Progress(f"{game}: records written", unit="records") as bar:
            ctx.expect_records = bar.add_total
            try:
                writer.add_all(bar.track(records, clock_from_first=True))
            finally:
                ctx.expect_records = nobody_counts
    except LexiconError:
        raise
    except (OSError, ValueError, KeyError) as exc:
        raise BuildError(f"{game}: build failed: {exc}") from exc
