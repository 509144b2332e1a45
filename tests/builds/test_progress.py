"""Build progress: plain lines with count, rate and ETA when the output is not a terminal."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

import pytest
from lexicon.build import progress


def test_plain_lines_show_count_rate_and_eta(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)   # a line at every update
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    out = io.StringIO()
    with progress.Progress("osps: judging forms", total=3000, stream=out) as bar:
        for _ in range(3):
            bar.advance(1000)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("osps: judging forms: 1,000/3,000 forms, ")
    assert "/s" in lines[0] and "ETA" in lines[0]
    assert lines[-1].startswith("osps: judging forms: 3,000/3,000 forms") and "done in" in lines[-1]


def test_track_yields_everything_and_counts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    assert list(progress.track(range(2500), "phase", every=1000)) == list(range(2500))
    assert out.getvalue().strip().startswith("phase: 2,500/2,500 forms")


def test_a_terminal_gets_a_rich_bar_and_nested_phases_share_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    out = io.StringIO()
    with progress.Progress("outer", stream=out, fancy=True) as outer:
        with progress.Progress("inner", total=10, stream=out, fancy=True) as inner:
            inner.advance(10)
            assert inner._bar is outer._bar is not None   # one live display, two rows
        outer.advance(5)
    assert progress._live is None and "inner" in out.getvalue()


def test_a_total_learnt_on_the_way_and_a_clock_from_the_first_item(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    out = io.StringIO()
    with progress.Progress("records written", stream=out, unit="records") as bar:
        bar.add_total(10)
        bar.add_total(5)
        assert bar.total == 15
        opened = bar.started

        def slow() -> Iterator[int]:
            time.sleep(0.05)           # the builder reading its sources
            yield from range(15)
        assert sum(bar.track(slow(), every=4, clock_from_first=True)) == sum(range(15))
        assert bar.started >= opened + 0.05 and bar.done == 15
    assert out.getvalue().startswith("records written: 15/15 records, ")
