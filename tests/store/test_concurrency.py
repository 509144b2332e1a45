"""Publishing while serving, and builds racing builds: one open per release, one release per
answer, one build per game, unique ids, smoke samples that admit words."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import lexicon.build.release_writer as release_mod
import pytest
from lexicon.build.context import smoke_sample
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.build.release_writer import build_lock

from lexicon.catalog import Catalog
from lexicon.errors import BuildBusy
from lexicon.store import published
from tests.conftest import POLISH_RECORDS, StaticBuilder, publish, rec

WITH_PIES = [*POLISH_RECORDS, rec("pies", tags="subst:sg:nom:m2", category="noun")]


def test_threads_checking_while_releases_are_published(home: Path) -> None:
    """Six threads check words while a seventh publishes six releases that alternately
    do and do not hold "pies": no error, and every answer agrees with the release it names
    (a release's manifest says whether it holds "pies": 6 valid words instead of 5)."""
    publish(home, "osps", POLISH_RECORDS)
    cat = Catalog(home)
    stop = threading.Event()
    errors: list[BaseException] = []
    answers = [0]

    def checking() -> None:
        try:
            while not stop.is_set():
                lex = cat.lexicon("osps", every_file=True)   # one release for all three
                rel = lex.release
                flags = lex.valid(["pies", "kot", "np"])
                one = lex.check("pies")
                batch = lex.check_many(["pies", "jaźń"])
                has_pies = rel.manifest["counts"]["valid"] == 6
                assert flags == [has_pies, True, False]
                assert one["valid"] == has_pies and one["release"] == rel.id
                assert [r["release"] for r in batch] == [rel.id, rel.id]
                assert batch[0]["valid"] == has_pies
                answers[0] += 1
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=checking) for _ in range(6)]
    for t in threads:
        t.start()
    try:
        for i in range(6):
            publish(home, "osps", WITH_PIES if i % 2 == 0 else POLISH_RECORDS)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors, errors[0]
    assert answers[0] > 6
    assert cat.release("osps").manifest["counts"]["valid"] == 5


def test_a_release_is_opened_once_by_racing_threads(home: Path) -> None:
    publish(home, "osps", POLISH_RECORDS)
    cat = Catalog(home)
    barrier = threading.Barrier(8)
    got: list[object] = []

    def ask() -> None:
        barrier.wait()
        rel = cat.release("osps")
        rel.indexes  # noqa: B018
        got.append(rel)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(r is got[0] for r in got)


class _SameSecond(datetime):
    @classmethod
    def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
        return datetime(2026, 12, 1, 5, 0, 0, tzinfo=UTC)


def test_two_builds_in_the_same_second_get_two_ids(home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(release_mod, "datetime", _SameSecond)
    first = publish(home, "osps", POLISH_RECORDS)
    second = publish(home, "osps", POLISH_RECORDS)
    third = publish(home, "osps", POLISH_RECORDS)
    assert second.name == first.name + "-2" and third.name == first.name + "-3"
    assert published.current_id("osps", home) == third.name
    assert Catalog(home).release("osps").id == third.name


def test_a_second_build_of_one_game_is_refused(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    ctx = BuildContext(root=home, log=lambda _m: None)
    with build_lock("osps", home):
        with pytest.raises(BuildBusy, match=f"another build of osps is running .pid {os.getpid()}"):
            build_game("osps", ctx, builder=StaticBuilder("osps", WITH_PIES))
        publish(home, "kvizovka", [rec("кућа", word="kuća")])   # other games build freely
        cli = subprocess.run([sys.executable, "-m", "lexicon.cli.main", "build", "osps"],
                             capture_output=True, text=True, timeout=60, check=False,
                             env={**os.environ, "LEXICON_HOME": str(home)})
        assert cli.returncode == 4, cli.stderr
        assert "error [build_in_progress]: another build of osps is running" in cli.stderr
    assert published.current_id("osps", home) == first.name
    publish(home, "osps", WITH_PIES)        # the lock is free again


def test_smoke_sample_spreads_over_the_alphabet() -> None:
    words = sorted(["Ala", "Bob", "Ewa", *(f"{c}{i:03d}" for c in "abcdefghij"
                                          for i in range(30))])
    sample = smoke_sample(words, 20)
    assert sample == smoke_sample(words, 20) and len(sample) == 20
    assert {w[0] for w in sample} >= set("abcdefghij")
    assert sum(w[0].isupper() for w in sample) <= 1
    assert smoke_sample(words, None) == words and smoke_sample(words, 10_000) == words
    assert smoke_sample(words, 0) == []


def test_two_remik_links_in_the_same_second_get_two_ids(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Remik's linked releases are named by the same writer as a build's (issue 18): the
    README's ``-2`` promise holds for them too, and both manifests name their own id."""
    import json
    publish(home, "osps", POLISH_RECORDS)
    monkeypatch.setattr(release_mod, "datetime", _SameSecond)
    first = publish(home, "remik", POLISH_RECORDS)
    second = publish(home, "remik", POLISH_RECORDS)
    assert second.name == first.name + "-2"
    for path in (first, second):
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["release"] == path.name and manifest["game"] == "remik"
    assert Catalog(home).release("remik").id == second.name


HOLD_AND_FORK = """
import os, sys, time
from pathlib import Path
from lexicon.build.release_writer import build_lock
with build_lock("osps", Path(sys.argv[1])):
    child = os.fork()
    if child == 0:               # a judging worker that outlives the build
        time.sleep(60)
        os._exit(0)
    print(child, flush=True)
    time.sleep(60)
"""


def test_a_killed_build_leaves_no_lock_in_the_children_it_forked(home: Path) -> None:
    """The build lock ends with the build: a forked child still running after its build
    was killed does not hold the game locked."""
    import signal

    build = subprocess.Popen([sys.executable, "-c", HOLD_AND_FORK, str(home)],
                             stdout=subprocess.PIPE, text=True)
    child = int(build.stdout.readline())
    try:
        with pytest.raises(BuildBusy), build_lock("osps", home):   # held while it lives
            pass
        build.send_signal(signal.SIGKILL)
        build.wait(timeout=30)
        os.kill(child, 0)                          # the child lives on
        with build_lock("osps", home):             # and the lock is free
            pass
    finally:
        build.kill()
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
