"""Serving what is ready while the rest is built: a real ``lexicon serve`` answers a game
that a real build (held at its first record) has not published yet with 503 ``not_ready``,
names it in ``/readyz``, and serves it from the first request after its publish. Also the
build plan (shortest first), its estimate, and the overall estimate in progress lines."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest
from lexicon.build import plan, progress

from lexicon.catalog import Catalog
from lexicon.store import announcements
from tests.conftest import POLISH_RECORDS, lexicon_process, publish
from tests.service.test_ops import _serve

ROOT = Path(__file__).resolve().parents[2]

# a real build of kvizovka through build.plan, whose builder waits for a gate file before
# its first record: the build is under way (announced, its lock held) as long as the test
# wants
HELD_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from lexicon.build.pipeline import BuildContext
    from lexicon.build.plan import build_games
    from tests.conftest import KVIZOVKA_RECORDS, StaticBuilder

    gate, root = Path(sys.argv[1]), Path(sys.argv[2])

    class Held(StaticBuilder):
        def records(self, ctx):
            while not gate.exists():
                time.sleep(0.05)
            yield from super().records(ctx)

    build_games(["kvizovka"], BuildContext(root=root, log=print),
                builders={"kvizovka": Held("kvizovka", KVIZOVKA_RECORDS)},
                factor=lambda: 1.0)
""")


def _wait(check, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_a_game_being_built_answers_not_ready_then_serves_once_published(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    publish(home, "osps", POLISH_RECORDS)
    gate = tmp_path / "go"
    env = {**os.environ, "LEXICON_HOME": str(home), "LEXICON_PROGRESS": "off",
           "PYTHONPATH": str(ROOT)}
    build = subprocess.Popen([sys.executable, "-c", HELD_BUILD, str(gate), str(home)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    server = None
    try:
        _wait(lambda: announcements.in_progress("kvizovka", home) is not None, "the announcement")
        monkeypatch.setenv("LEXICON_GAMES", "osps,kvizovka")   # the server's games
        server, base = _serve(home)
        r = httpx.get(base + "/v1/games/osps/words/kot")
        assert r.status_code == 200 and r.json()["valid"] is True     # osps serves already
        r = httpx.get(base + "/v1/games/kvizovka/words/kuća")
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["code"] == "not_ready"
        assert "kvizovka is still being built" in body["message"]
        assert "expected about" in body["message"]
        assert body["detail"]["state"] == "building" and body["detail"]["expected_at"]
        r = httpx.get(base + "/readyz")
        assert r.status_code == 503
        detail = r.json()["detail"]
        assert detail["not_ready"] == ["kvizovka"]
        assert detail["games"]["kvizovka"]["reason"] == "building"
        assert detail["games"]["osps"]["ready"] is True
        games = {g["id"]: g for g in httpx.get(base + "/v1/games").json()}
        assert games["kvizovka"]["state"] == "building" and games["kvizovka"]["expected_at"]
        assert games["osps"]["state"] == "serving"

        gate.touch()                                    # let the build finish and publish
        out, _ = build.communicate(timeout=120)
        assert build.returncode == 0, out
        assert "build plan: 1 game, expected" in out
        assert announcements.in_progress("kvizovka", home) is None        # withdrawn
        r = httpx.get(base + "/v1/games/kvizovka/words/kuća")
        assert r.status_code == 200 and r.json()["valid"] is True     # the same server
        assert httpx.get(base + "/readyz").status_code == 200
    finally:
        if build.poll() is None:
            build.kill()
            build.communicate()
        if server is not None:
            server.terminate()
            server.communicate(timeout=30)


#: A process that announces kvizovka in ``argv[1]`` (a LEXICON_HOME), says so, and waits to
#: be killed.
ANNOUNCER = textwrap.dedent("""
    import sys, time
    from datetime import UTC, datetime
    from pathlib import Path
    from lexicon.store import announcements

    now = datetime.now(UTC)
    announcements.announce("kvizovka", Path(sys.argv[1]), started_at=now, expected_at=now,
                      position=1, of=1)
    print("announced", flush=True)
    time.sleep(600)
""")


def test_an_announcement_of_a_killed_build_is_none_even_when_its_pid_lives(
        home: Path) -> None:
    """A build killed (SIGKILL: no handler runs) before it could withdraw: the game is
    ``no_release`` again, with the advice to build it, not "being built" for ever, even
    when the pid the file names is a live process (pids are reused; pid 1 in a container)."""
    announcer = subprocess.Popen([sys.executable, "-c", ANNOUNCER, str(home)], cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert announcer.stdout.readline().strip() == "announced"
        cat = Catalog(home)
        assert cat.state("kvizovka")["state"] == "building"          # it lives
    finally:
        announcer.kill()
        announcer.communicate()
    marker = home / "releases" / "kvizovka" / announcements.MARKER
    assert json.loads(marker.read_text())["pid"] == announcer.pid    # left behind
    for live in (os.getpid(), 1):
        marker.write_text(marker.read_text().replace(
            f'"pid": {json.loads(marker.read_text())["pid"]}', f'"pid": {live}'))
        assert announcements.in_progress("kvizovka", home) is None
        state = cat.state("kvizovka")
        assert state["state"] == "no_release" and state["error"]["code"] == "no_release"


def test_a_refused_second_build_leaves_the_running_builds_announcement(
        home: Path, tmp_path: Path) -> None:
    """A second ``lexicon build`` of a game a live build is building is refused (exit 4,
    ``build_in_progress``) and withdraws nothing: the game is still "being built"."""
    env = {**os.environ, "LEXICON_HOME": str(home), "LEXICON_PROGRESS": "off",
           "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", HELD_BUILD, str(tmp_path / "go"),
                              str(home)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        for line in first.stdout:                 # its build lock is held from here on
            if "judging forms" in line:
                break
        second = lexicon_process(home, "build", "kvizovka")
        assert second.returncode == 4, second.stdout + second.stderr
        assert "build_in_progress" in second.stderr
        assert f"pid {first.pid}" in second.stderr
        found = announcements.in_progress("kvizovka", home)
        assert found is not None and found["pid"] == first.pid
        assert Catalog(home).state("kvizovka")["state"] == "building"
        # a withdraw by a process that did not announce does nothing either
        announcements.withdraw("kvizovka", home)
        assert announcements.in_progress("kvizovka", home) is not None
    finally:
        first.kill()
        first.communicate()


def test_the_plan_builds_the_shortest_first_and_a_vocabulary_before_its_game(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "_fetch_seconds", lambda game, root, fetched=frozenset(): 0.0)
    steps = plan.plan(["osps", "remik", "kvizovka", "krizemkrazem"], home, lambda: 2.0)
    # osps and remik together (about 3.6 min) are shorter than kvizovka (4.2 min)
    assert [s.game for s in steps] == ["krizemkrazem", "osps", "remik", "kvizovka"]
    assert steps[0].seconds == plan.REFERENCE_SECONDS["krizemkrazem"] * 2.0
    assert {s.basis for s in steps} == {"reference"}
    # remik alone still needs osps first: it is planned behind it
    assert [s.game for s in plan.plan(["remik", "osps"], home, lambda: 1.0)] == [
        "osps", "remik"]
    # a rebuild of both: osps (rebuilt first, remik links it) counts in remik's cost, so
    # a shorter game goes before the pair
    publish(home, "osps", POLISH_RECORDS)
    publish(home, "remik", POLISH_RECORDS)
    again = plan.plan(["osps", "remik", "krizemkrazem"], home, lambda: 2.0)
    assert [s.game for s in again] == ["krizemkrazem", "osps", "remik"]
    text = plan.plan_text(steps)
    expected = plan.minutes(sum(plan.REFERENCE_SECONDS.values()) * 2.0)
    assert text.startswith(f"build plan: 4 games, expected {expected} in all on this machine")
    assert "worker" not in text          # no worker count given
    # the worker count is named for the games whose builders judge in workers, in the
    # plan's order
    assert "; krizemkrazem, osps and kvizovka judged in 2 worker processes;" in \
        plan.plan_text(steps, 2)
    assert "; krizemkrazem and osps judged in 2 worker processes;" in \
        plan.plan_text(steps[:2], 2)
    assert "worker" not in plan.plan_text(steps[2:3], 2)      # remik alone


def test_a_linked_game_is_not_charged_for_the_fetch_of_its_vocabulary(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Remik plays osps's vocabulary from osps's sources: built with osps, it waits for
    none of their downloads; built alone (osps comes with it), it waits for them all."""
    from lexicon.sources import fetch as fetching

    monkeypatch.setattr(plan, "last_build_seconds", lambda game, root: 60.0)
    fetches = len(fetching.sources_for("osps")) * plan.FETCH_SECONDS
    assert fetches > 0                       # nothing is in this home's cache
    both = {s.game: s.seconds for s in plan.plan(["osps", "remik"], home, lambda: 1.0)}
    assert both == {"osps": 60.0 + fetches, "remik": 60.0}
    alone = plan.plan(["remik"], home, lambda: 1.0)
    assert [(s.game, s.seconds) for s in alone] == [("remik", 60.0 + fetches)]


def test_a_full_build_here_is_the_estimate_of_the_next(home: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(plan, "_fetch_seconds", lambda game, root, fetched=frozenset(): 0.0)
    path = publish(home, "osps", POLISH_RECORDS)
    assert plan.last_build_seconds("osps", home) is None   # canaries unchecked: not full
    manifest = path / "manifest.json"
    text = manifest.read_text()
    assert '"checked": false' in text
    m = json.loads(text)
    m["canaries"]["checked"] = True
    m["build_seconds"] = 42.5
    manifest.write_text(json.dumps(m))        # read directly: no sha check on a manifest
    (step,) = plan.plan(["osps"], home, lambda: 99.0)
    assert (step.seconds, step.basis) == (42.5, "last build here")


def test_progress_lines_end_with_the_overall_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    steps = [plan.Step("osps", 600.0, "reference"), plan.Step("remik", 60.0, "reference")]
    clock = plan._Clock(steps)
    progress.set_overall(clock.overall)
    out = io.StringIO()
    try:
        with progress.Progress("osps: judging", total=2000, stream=out) as bar:
            bar.advance(1000)
    finally:
        progress.set_overall(None)
    first, last = out.getvalue().splitlines()
    assert "ETA" in first
    assert first.endswith("; osps about 10.0 min left, whole build about 11.0 min left "
                          "(game 1 of 2)")
    assert "whole build" not in last                  # the closing line says "done in"
    # a phase whose own ETA is past the game's expectation wins over it
    assert clock.game_left(phase_eta=3600.0) == 3600.0


def test_what_is_left_follows_how_long_the_games_really_take() -> None:
    steps = [plan.Step("osps", 100.0, "reference"), plan.Step("kvizovka", 200.0, "reference")]
    plan._rescale(steps[1:], 2.0)           # osps took twice its estimate: so will kvizovka
    assert [s.seconds for s in steps] == [100.0, 400.0]
    plan._rescale(steps[1:], 100.0)         # bounded
    assert steps[1].seconds == 3200.0
