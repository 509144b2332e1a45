"""Building several games in one run: in which order, how long it should take, and telling
a server which games are still to come.

A fresh machine builds every game (``make build``, ``make serve``), tens of minutes on two
cores. Three things make that wait bearable, and they live here, under ``lexicon build``:

* **The order.** Games are built shortest first (a game that plays another's vocabulary
  counts that game's build when it is not built yet), so the first game answers as early
  as it can and the mean wait per game is the least; the order the user gave breaks ties.
* **The estimate.** Each game's expected duration is its last full build in this
  ``LEXICON_HOME`` (the manifest's ``build_seconds``: this machine, these sources), or else
  the reference figure of the project's two-core machine (:data:`REFERENCE_SECONDS`)
  scaled by a short CPU probe of this machine against that one (:func:`machine_factor`).
  The plan and the total are printed before anything starts, and every progress line of a
  long phase ends with what is left of the game and of the whole build
  (:func:`build.progress.set_overall`).
* **The announcement.** Every game of the plan is announced
  (:mod:`lexicon.store.announcements`) with the time it is expected, so a server started
  meanwhile answers "being built, expected about HH:MM" (503 ``not_ready``) for it and
  serves it from the first request after its publish; the expectations are renewed after
  each game, and an announcement is withdrawn when its game is published or fails.

Once every game of the plan is published, the KWG nodes of each are counted
(:func:`count_kwg_nodes`), a minute for the Polish lexicon that no game waits for.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from lexicon.build.games import SHARDED
from lexicon.build.overruling import Kept, kept_overrides
from lexicon.build.pipeline import (
    BuildContext,
    GameBuilder,
    build_game,
    refresh_indexes,
    stale_indexes,
)
from lexicon.build.progress import set_overall
from lexicon.build.shards import worker_count
from lexicon.sources import fetch as fetching

from lexicon.catalog import Catalog
from lexicon.errors import BuildError, LexiconError
from lexicon.export import kwg
from lexicon.game import profile as profiles
from lexicon.store import announcements, published
from lexicon.store.integrity import read_manifest
from lexicon.store.release import Release

#: Seconds a full build of each game took on the project's two-core machine (sources
#: already fetched; what the manifest's ``build_seconds`` counts), used until this home has
#: a full build of its own. Remik links the osps release: its figure is the link alone.
REFERENCE_SECONDS: dict[str, float] = {
    "osps": 205.0, "remik": 10.0, "kvizovka": 250.0, "krizemkrazem": 60.0}
UNKNOWN_GAME_SECONDS = 300.0
#: Seconds to download and unpack one pinned source on that machine.
FETCH_SECONDS = 20.0
#: The CPU probe's best CPU time on that machine (:func:`_probe`).
REFERENCE_PROBE_SECONDS = 0.05


def _probe() -> float:
    """The CPU time of a fixed piece of the work a build does most (strings sorted, hashed
    into dicts): best of three. CPU time, not wall time: on a shared machine the wall time
    of a short probe swings tenfold with the neighbours' load, which the build's own
    progress measures far better (:func:`build_games` rescales what is left after each
    game by how long the game really took)."""
    words = [f"{i * 7919 % 100_003:x}słowo{i % 97}" for i in range(60_000)]
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        seen: dict[str, int] = {}
        for w in sorted(words):
            seen[w[::-1]] = len(w)
        best = min(best, time.process_time() - start)
    return best


def machine_factor() -> float:
    """How much slower (> 1) or faster (< 1) this machine's CPU runs the probe than the
    reference machine's; bounded, so one odd probe cannot make the estimate absurd."""
    return min(max(_probe() / REFERENCE_PROBE_SECONDS, 0.25), 8.0)


def load_note() -> str:
    """A warning for the plan line when the machine is busy with other work now."""
    try:
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
    except OSError:
        return ""
    if load <= 1.5 * cores:
        return ""
    return (f"; the machine is busy now (load {load:.1f} on {cores} cores): expect longer, "
            f"the estimate follows the build as it goes")


def last_build_seconds(game: str, root: Path) -> float | None:
    """``build_seconds`` of the newest full build of ``game`` in this home (an amend, a
    repack or a smoke build took far less than a build; none of them counts)."""
    gdir = published.game_dir(game, root)
    if not gdir.is_dir():
        return None
    newest: tuple[str, float] | None = None
    linked = profiles.load(game).vocabulary != game
    for rdir in gdir.iterdir():
        if rdir.name.startswith(".") or not rdir.is_dir():
            continue
        try:
            m = read_manifest(rdir)
        except LexiconError:
            continue
        seconds = m.get("build_seconds")
        full = linked or bool((m.get("canaries") or {}).get("checked"))
        if (not isinstance(seconds, int | float) or not full or "amend" in m
                or "repack" in m):
            continue
        built = str(m.get("built_at") or "")
        if newest is None or built > newest[0]:
            newest = (built, float(seconds))
    return newest[1] if newest else None


@dataclass
class Step:
    game: str
    seconds: float      # expected, fetching included
    basis: str          # "last build here" or "reference"
    kept: Kept | None = None   # the overrides of the release it replaces
    drop: bool = False         # ... which this build drops (``--drop-overrides``)

    def overrides_text(self) -> str | None:
        """What the build does with the overrides of the release it replaces, or None."""
        if self.kept is None:
            return None
        n = len(self.kept.overrides)
        what = f"{n} override{'s' if n != 1 else ''} of {self.kept.release}"
        if self.drop:
            return f"{self.game} drops the {what} (--drop-overrides)"
        return f"{self.game} keeps the {what} (--drop-overrides drops them)"


def _fetch_seconds(game: str, root: Path, fetched: frozenset[str] = frozenset()) -> float:
    """The expected fetch time of the game's sources not yet in the cache, leaving out
    those another game of the plan fetches first (``fetched``: remik's are osps's)."""
    cache = fetching.cache_dir(root)
    return sum(FETCH_SECONDS for spec in fetching.sources_for(game)
               if spec.id not in fetched and not fetching.is_cached(spec, cache))


def _kept(game: str, root: Path, drop: bool) -> Kept | None:
    """The overrides a rebuild of ``game`` keeps (or drops); unreadable ones stop a build
    that would keep them, not one that drops them."""
    try:
        return kept_overrides(game, root)
    except BuildError:
        if drop:
            return None
        raise


def plan(games: Sequence[str], root: Path, factor: Callable[[], float] = machine_factor,
         *, drop_overrides: bool = False) -> list[Step]:
    """The games to build, shortest first (see the module docstring), each with its
    expected duration and the overrides of the release it replaces (kept, or dropped with
    ``drop_overrides``). ``factor`` is asked once, and only if some game has no build
    here."""
    scale: float | None = None
    steps: dict[str, Step] = {}
    for game in dict.fromkeys(games):
        seconds = last_build_seconds(game, root)
        basis = "last build here"
        if seconds is None:
            if scale is None:
                scale = factor()
            seconds = REFERENCE_SECONDS.get(game, UNKNOWN_GAME_SECONDS) * scale
            basis = "reference"
        vocabulary = profiles.load(game).vocabulary
        # a game playing another's vocabulary is built after it, from the sources it fetched
        fetched = frozenset(spec.id for spec in fetching.sources_for(vocabulary)) \
            if vocabulary != game and vocabulary in games else frozenset()
        steps[game] = Step(game, seconds + _fetch_seconds(game, root, fetched), basis,
                           _kept(game, root, drop_overrides), drop_overrides)
    built = {g for g in steps if published.current_id(g, root) is not None}
    order: list[Step] = []
    left = list(steps)
    while left:
        def cost(game: str) -> float:
            vocabulary = profiles.load(game).vocabulary
            extra = 0.0
            if vocabulary != game and vocabulary in left:     # built (again) first
                extra = steps[vocabulary].seconds
            elif vocabulary != game and vocabulary not in built:  # build_game builds it
                extra = REFERENCE_SECONDS.get(vocabulary, UNKNOWN_GAME_SECONDS)
            return steps[game].seconds + extra
        game = min(left, key=cost)          # min keeps the first of equals: the user's order
        vocabulary = profiles.load(game).vocabulary
        if vocabulary in left and vocabulary != game:
            game = vocabulary               # its vocabulary comes first
        left.remove(game)
        built.add(game)
        order.append(steps[game])
    return order


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min" if seconds >= 90 else f"{seconds:.0f} s"


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: names as a sentence lists them."""
    return " and ".join(names) if len(names) <= 2 else \
        ", ".join(names[:-1]) + " and " + names[-1]


def plan_text(steps: Sequence[Step], workers: int | None = None) -> str:
    """The line printed before a build starts: the order, each game's share, the total,
    how many worker processes judge the forms of the games whose builders use them
    (``workers``, when known; :data:`build.games.SHARDED`), and the overrides each rebuild
    keeps (or drops) of the release it replaces."""
    total = sum(s.seconds for s in steps)
    bases = sorted({s.basis for s in steps})
    sharded = [s.game for s in steps if s.game in SHARDED]
    judging = "" if workers is None or not sharded else \
        (f"; {_listed(sharded)} judged in {workers} worker "
         f"process{'es' if workers != 1 else ''}")
    overrides = "".join(f"; {t}" for t in (s.overrides_text() for s in steps) if t)
    return (f"build plan: {len(steps)} game{'s' if len(steps) != 1 else ''}, expected "
            f"{minutes(total)} in all on this machine ("
            + ", ".join(f"{s.game} {minutes(s.seconds)}" for s in steps)
            + f"; from {' and '.join(bases)} figures){judging}{overrides}{load_note()}; "
              "each game is served as soon as it is published")


class _Clock:
    """What is left of the game being built and of the whole run, for progress lines."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.index = 0
        self.started = time.monotonic()

    def start(self, index: int) -> None:
        self.index = index
        self.started = time.monotonic()

    def game_left(self, phase_eta: float | None = None) -> float:
        step = self.steps[self.index]
        left = step.seconds - (time.monotonic() - self.started)
        return max(left, phase_eta or 0.0, 0.0)

    def total_left(self, phase_eta: float | None = None) -> float:
        return self.game_left(phase_eta) + sum(s.seconds for s in self.steps[self.index + 1:])

    def overall(self, phase_eta: float | None) -> str:
        step = self.steps[self.index]
        text = f"{step.game} about {minutes(self.game_left(phase_eta))} left"
        if len(self.steps) > 1:
            text += (f", whole build about {minutes(self.total_left(phase_eta))} left "
                     f"(game {self.index + 1} of {len(self.steps)})")
        return text


def _rescale(steps: Sequence[Step], ratio: float) -> None:
    """A game took ``ratio`` times its estimate: the games after it will too (the same
    machine, the same load), within bounds."""
    ratio = min(max(ratio, 0.25), 8.0)
    for step in steps:
        step.seconds *= ratio


def _announce(steps: Sequence[Step], clock: _Clock, root: Path, started: datetime) -> None:
    """Announce every game from the clock's on, each at the time it should be published."""
    at = datetime.now(UTC) + timedelta(seconds=clock.game_left())
    for i in range(clock.index, len(steps)):
        if i > clock.index:
            at += timedelta(seconds=steps[i].seconds)
        announcements.announce(steps[i].game, root, started_at=started, expected_at=at,
                          position=i + 1, of=len(steps))


def build_games(games: Sequence[str], ctx: BuildContext, *, if_missing: bool = False,
                builders: Mapping[str, GameBuilder] | None = None,
                say: Callable[[str], None] = print,
                factor: Callable[[], float] = machine_factor) -> list[Path]:
    """Build ``games`` (``if_missing``: only those without a current release; one whose
    indexes are in an older format is written again first) in the planned order, saying
    the plan, and announcing the games still to come; returns the published directories.
    ``builders`` replaces a game's builder (tests)."""
    builders = builders or {}
    for game in games:
        profiles.load(game)                       # UnknownGame before anything runs
    out: list[Path] = []
    todo = []
    for game in dict.fromkeys(games):
        rel = Catalog(ctx.root).release_or_none(game) if if_missing else None  # damaged: rebuilt
        if rel is None:
            todo.append(game)
            continue
        why = stale_indexes(rel.manifest)
        if why is None:
            say(f"{game}: release {rel.id} exists; skipped")
            continue
        say(f"{game}: release {rel.id} exists but {why}; writing it again")
        out.append(refresh_indexes(game, ctx))
        say(out[-1].name)
    if not todo:
        return out
    steps = plan(todo, ctx.root, factor, drop_overrides=ctx.drop_overrides)
    ctx.log(plan_text(steps, worker_count(ctx.workers)))
    clock = _Clock(steps)
    started = datetime.now(UTC)
    try:
        _announce(steps, clock, ctx.root, started)
        set_overall(clock.overall)
        for i, step in enumerate(steps):
            clock.start(i)
            _announce(steps, clock, ctx.root, started)
            began = time.monotonic()
            try:
                path = build_game(step.game, ctx, builder=builders.get(step.game))
            finally:
                announcements.withdraw(step.game, ctx.root)
            took = time.monotonic() - began
            _rescale(steps[i + 1:], took / max(step.seconds, 1.0))
            left = sum(s.seconds for s in steps[i + 1:])
            ctx.log(f"{step.game}: published in {minutes(took)} (expected "
                    f"{minutes(step.seconds)})"
                    + (f"; {len(steps) - i - 1} more, about {minutes(left)}" if left else
                       f"; all {len(steps)} built in "
                       f"{minutes((datetime.now(UTC) - started).total_seconds())}"))
            say(path.name)
            out.append(path)
    finally:
        set_overall(None)
        for step in steps:
            announcements.withdraw(step.game, ctx.root)
    count_kwg_nodes(out[-len(steps):], ctx.log)
    return out


def count_kwg_nodes(published: Sequence[Path], log: Callable[[str], None]) -> None:
    """Count the KWG files' nodes of each release just ``published``, after the last of
    them is published (:mod:`lexicon.export.kwgfigures`): the count takes the better part
    of a minute for the Polish lexicon, which no game waiting to be served should wait
    for, and it lets ``export --format kwg`` refuse a lexicon too large at once. A count
    that fails says so and leaves the build as it is: an export then counts on its own."""
    for path in published:
        began = time.monotonic()
        game = path.parent.name
        log(f"{game}: counting the KWG's nodes for the exports (already served; "
            f"about a minute for 3.5M words)")
        try:
            with closing(Release(path)) as release:
                parts = kwg.count_release(profiles.load(game), release)
        except (LexiconError, OSError) as exc:
            log(f"{game}: the KWG's nodes were not counted ({exc}); an export counts them")
            continue
        said = {p: f"{v['nodes']:,}" if "nodes" in v else f"more than {v['more_than']:,}"
                for p, v in parts.items()}
        log(f"{game}: KWG nodes counted for the exports in "
            f"{time.monotonic() - began:.0f} s: {said.get('kwg')} "
            f"({said.get('dawg_only')} for the DAWG alone)")
