"""Progress of long build phases: a rich bar on a terminal, plain lines elsewhere.

A full build judges millions of forms for several minutes; a maintainer watching it (or a
log file of it) must see that it moves, how fast, and when it will end. Every builder and
the release writer report through this one module so the output looks the same everywhere:

* on a terminal, a rich progress bar with count, rate and ETA (no ETA when the total is
  unknown), drawn on stderr so a command's own output on stdout stays clean;
* when stderr is not a terminal (CI, ``make build > log``), one plain line every
  ``PLAIN_EVERY`` seconds and one when the phase ends: ``phase: 1,234,567/4,000,000 forms,
  52,000/s, ETA 53 s``. A phase shorter than that prints just its closing line.

Usage::

    for form in track(forms, "osps: judging forms", total=len(forms)):
        ...
    with Progress("writing records", total=n) as bar:
        bar.advance(k)

A run of several phases (a build of several games, :mod:`build.plan`) sets an *overall*
estimate with :func:`set_overall`: every plain line of a running phase then ends with what
is left of the game and of the whole run (``; osps about 6.5 min left, whole build about
21 min left (game 2 of 4)``), given the phase's own ETA, and the rich bar shows it under the
bars.

A phase whose total is learnt on the way says so: ``set_total`` (known now, or a better
estimate) or ``add_total`` (one more part's size, e.g. each generator's pair count once it
is read). ``Progress.track`` counts the items of an iterable into an existing bar, with the
clock started at the first item if asked: a generator that first reads its sources for
minutes (the records a builder yields) would otherwise show a rate, and so an ETA, far off
the real one.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import IO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

T = TypeVar("T")
PLAIN_EVERY = 10.0      # seconds between plain progress lines
QUIET_ENV = "LEXICON_PROGRESS"   # "off": no progress output at all (tests, benches)
_live: RichProgress | None = None     # the process's one live display, while any bar runs
_live_users = 0
_overall: Callable[[float | None], str] | None = None    # see set_overall


def set_overall(estimate: Callable[[float | None], str] | None) -> None:
    """What every running phase's line ends with: ``estimate(phase_eta)`` (None: nothing),
    e.g. what is left of the game and of the whole build (:mod:`build.plan`)."""
    global _overall
    _overall = estimate


def _fmt_count(n: float) -> str:
    return f"{int(n):,}"


def _fmt_seconds(s: float) -> str:
    if s < 90:
        return f"{s:.0f} s"
    return f"{s / 60:.1f} min"


class Progress:
    """One phase: counts what was done and shows it (see the module docstring)."""

    def __init__(self, description: str, total: int | None = None, unit: str = "forms",
                 stream: IO[str] | None = None, fancy: bool | None = None) -> None:
        self.description = description
        self.total = total
        self.unit = unit
        self.done = 0
        self.stream = stream or sys.stderr
        self.quiet = os.environ.get(QUIET_ENV, "").lower() == "off"
        if fancy is None:
            fancy = self.stream.isatty()
        self.fancy = fancy and not self.quiet
        self.started = time.monotonic()
        self._last_line = self.started
        self._bar: RichProgress | None = None
        self._task = None

    # -- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> Progress:
        global _live, _live_users
        self.started = self._last_line = time.monotonic()
        if self.fancy:
            # one live display per process: a phase inside a phase (a builder's own bar
            # under the pipeline's) is another row of it, not a second display
            if _live is None:
                _live = RichProgress(
                    TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TaskProgressColumn(), TextColumn("{task.fields[rate]}"),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    TextColumn("{task.fields[overall]}"),
                    console=Console(file=self.stream), transient=False,
                )
                _live.start()
            _live_users += 1
            self._bar = _live
            self._task = _live.add_task(self.description, total=self.total, rate="",
                                        overall="")
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        global _live, _live_users
        if self._bar is not None:
            self._bar.update(self._task, rate=self._rate_text(),  # type: ignore[arg-type]
                             overall="")
            self._bar = None
            _live_users -= 1
            if _live_users == 0 and _live is not None:
                _live.stop()
                _live = None
        elif not self.quiet:
            status = "" if et is None or et is GeneratorExit else " (failed)"
            self._line(final=True, suffix=status)

    def set_total(self, total: int | None) -> None:
        """The total became known after the phase started (e.g. after reading a list)."""
        self.total = total
        if self._bar is not None:
            self._bar.update(self._task, total=total)  # type: ignore[arg-type]

    def add_total(self, n: int) -> None:
        """``n`` more to do than the total said (a part whose size is now known)."""
        self.set_total((self.total or 0) + n)

    def track(self, items: Iterable[T], every: int = 1000,
              clock_from_first: bool = False) -> Iterator[T]:
        """Yield ``items``, counting them into this bar every ``every`` items.
        ``clock_from_first``: the rate is measured from the first item on (see the module
        docstring)."""
        pending = 0
        for item in items:
            if clock_from_first and pending == 0 and self.done == 0:
                self.started = self._last_line = time.monotonic()
            yield item
            pending += 1
            if pending >= every:
                self.advance(pending)
                pending = 0
        self.advance(pending)

    # -- reporting ---------------------------------------------------------------------
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def eta(self) -> float | None:
        rate = self.rate()
        if self.total is None or rate <= 0:
            return None
        return max(self.total - self.done, 0) / rate

    def _rate_text(self) -> str:
        return f"{_fmt_count(self.rate())} {self.unit}/s"

    def line(self, final: bool = False) -> str:
        """The plain-text form of the current state (what a log file shows)."""
        count = _fmt_count(self.done)
        if self.total is not None:
            count += f"/{_fmt_count(self.total)}"
        text = f"{self.description}: {count} {self.unit}, {self._rate_text()}"
        if final:
            text += f", done in {_fmt_seconds(time.monotonic() - self.started)}"
        else:
            eta = self.eta()
            if eta is not None:
                text += f", ETA {_fmt_seconds(eta)}"
            if _overall is not None:
                text += "; " + _overall(eta)
        return text

    def _line(self, final: bool = False, suffix: str = "") -> None:
        print(self.line(final) + suffix, file=self.stream, flush=True)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, advance=n,  # type: ignore[arg-type]
                             rate=self._rate_text(),
                             overall=_overall(self.eta()) if _overall is not None else "")
            return
        if self.quiet:
            return
        now = time.monotonic()
        if now - self._last_line >= PLAIN_EVERY:
            self._last_line = now
            self._line()


def track(items: Iterable[T], description: str, total: int | None = None,
          unit: str = "forms", every: int = 1000) -> Iterator[T]:
    """Yield ``items`` while showing progress; ``total`` defaults to ``len(items)``.

    The display is updated every ``every`` items, so wrapping a loop of millions of cheap
    steps costs a counter increment per item, not a redraw.
    """
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(description, total=total, unit=unit) as bar:
        yield from bar.track(items, every)


def peak_rss_mb() -> float:
    """Peak resident memory of this process (and finished children), in MiB: what a build
    phase cost, shown beside its time (builders' timings, the manifest's ``peak_rss_mb``)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, kids) / 1024, 1)
