"""Running a build: fetch a game's sources, let its builder judge every form, publish.

Each game has a *builder* (``build/games/``) that turns fetched sources into
:class:`~lexicon.store.records.Record` objects, one per form it knows, admitted or rejected with a
reason. The pipeline owns everything else (fetching, staging, counting, hashing, the
manifest, the diff, atomic publishing), so builders stay small and comparable.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from build import amend as amending
from build import imports, meanings
from build.progress import Progress
from build.release import ReleaseWriter, build_lock
from build.shared import publish_shared
from lexicon.errors import BuildError, LexiconError
from lexicon.game import profile as profiles
from lexicon.paths import home
from lexicon.store import releases
from lexicon.store.indexes import FORMAT as INDEX_FORMAT
from lexicon.store.indexes import READABLE
from lexicon.store.records import Record
from sources import fetch as fetching

T = TypeVar("T")

# game id -> "module:factory"; a factory takes a BuildContext and returns a GameBuilder
BUILDERS: dict[str, str] = {
    "osps": "build.games.polish:osps_builder",
    "kvizovka": "build.games.kvizovka:builder",
    "krizemkrazem": "build.games.krizemkrazem:builder",
}


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _nobody_counts(_n: int) -> None:
    """``BuildContext.expect_records`` outside a build's writing phase."""


@dataclass
class BuildContext:
    root: Path
    fetched: dict[str, fetching.Fetched] = field(default_factory=dict)
    log: Callable[[str], None] = _stderr
    limit: int | None = None   # judge only N candidate forms, sampled evenly (smoke builds)
    # check the profile's canary words before publishing; None: only on a full build of
    # the real sources (a smoke build or a test's tiny word list lacks them)
    canaries: bool | None = None
    # a builder that learns how many records it will yield says so here (``add_total`` of
    # the "records written" bar during a build), so the bar has a total and an ETA
    expect_records: Callable[[int], None] = field(default=_nobody_counts, repr=False)

    def source_root(self, source_id: str) -> Path:
        fetched = self.fetched.get(source_id)
        if fetched is None or fetched.root is None:
            raise BuildError(f"source {source_id!r} was not fetched for this build")
        return fetched.root


def smoke_sample(items: Sequence[T], limit: int | None) -> list[T]:
    """``limit`` items evenly spaced over ``items`` (all of them when ``limit`` is None or
    not smaller). A smoke build (``--limit N``) judges such a sample of the sorted
    candidates: the first N in code-point order would be capitalised words, digits and
    punctuation, which a game rejects, so a smoke build would admit nothing. Deterministic:
    the same candidates give the same sample."""
    items = list(items)
    if limit is None or limit >= len(items):
        return items
    if limit <= 0:
        return []
    return [items[i * len(items) // limit] for i in range(limit)]


class GameBuilder(Protocol):
    game: str
    source_ids: tuple[str, ...]

    def records(self, ctx: BuildContext) -> Iterable[Record]: ...

    def policy(self) -> dict[str, Any]: ...

    def rules(self) -> list[dict[str, str]]: ...


def default_builder(game: str, ctx: BuildContext) -> GameBuilder:
    target = BUILDERS.get(game)
    if target is None:
        raise BuildError(f"no builder for game {game!r}")
    module_name, factory = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise BuildError(f"the {game} builder is not available yet ({exc.name})") from exc
    return getattr(module, factory)(ctx)


def build_game(game: str, ctx: BuildContext | None = None,
               builder: GameBuilder | None = None) -> Path:
    """Build and publish one game's release; returns the published directory.

    A game that plays another game's vocabulary (remik: osps) is not judged again: its
    release links the vocabulary game's current release (:mod:`build.shared`), which is
    built first if it has none.
    """
    profile = profiles.load(game)
    ctx = ctx or BuildContext(root=home())
    if profile.vocabulary != game:
        if builder is not None:
            raise BuildError(f"{game} plays the {profile.vocabulary} vocabulary: build "
                             f"{profile.vocabulary} with that builder, then {game}")
        if releases.current_path(profile.vocabulary, ctx.root) is None:
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
    if builder is None:
        for spec in fetching.sources_for(game):
            if spec.id not in ctx.fetched:
                ctx.log(f"fetch {spec.id} {spec.version}")
                fetching.check_installed(spec)
                ctx.fetched[spec.id] = fetching.fetch(spec, fetching.cache_dir(ctx.root),
                                                      log=ctx.log)
                fetching.verify_installed(ctx.fetched[spec.id])  # what the build imports
        builder = default_builder(game, ctx)
    used = [ctx.fetched[s].manifest_entry() for s in builder.source_ids if s in ctx.fetched]
    records = builder.records(ctx)
    pin = imports.pin_for(profile, ctx.root)   # an authoritative list (`lexicon import`)
    if pin is not None:
        keys = imports.load_keys(profile, pin, ctx.root)
        records = imports.apply(pin, keys, records)
        used.append(imports.manifest_entry(pin, len(keys)))
    ctx.log(f"build {game}: judging forms")
    with ReleaseWriter(profile, ctx.root) as writer:
        writer.check_canaries = full_build if ctx.canaries is None else ctx.canaries
        writer.meanings = meanings.writing(game, meanings.from_fetched(game, ctx.fetched))
        try:
            # count, rate and (once the builder has said how many: ctx.expect_records)
            # total and ETA of the records written; the builder's reading phases show
            # their own bars as rows under this one
            with Progress(f"{game}: records written", unit="records") as bar:
                ctx.expect_records = bar.add_total
                try:
                    writer.add_all(bar.track(records, clock_from_first=True))
                finally:
                    ctx.expect_records = _nobody_counts
        except LexiconError:
            raise
        except (OSError, ValueError, KeyError) as exc:
            raise BuildError(f"{game}: build failed: {exc}") from exc
        # reviewed corrections (sources/overrides/GAME.tsv): a word fixed by `lexicon amend`
        # stays fixed when the game is rebuilt from its sources
        applied = amending.apply_to_writer(writer, amending.reviewed_overrides(game))
        policy = builder.policy()
        policy["merged_spellings"] = writer.merged
        path = writer.publish(sources=used, policy=policy, rules=builder.rules(),
                              overrides=applied)
    ctx.log(f"published {path.name}")
    return path
