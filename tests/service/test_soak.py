"""The soak tool on small real releases and a real ``lexicon serve --workers 2``: it sends
every kind of traffic, publishes once, samples both workers and reports; the figures
themselves are measured on the real releases (docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon.store import published
from tests.conftest import SmallHomes
from tools import soak
from tools.figures import load


def test_the_soak_tool_reports_each_workers_memory(small_homes: SmallHomes, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    home = small_homes("queries+remik", tmp_path / "home")
    before = published.current_id("osps", home)
    listed = sorted(p.relative_to(home) for p in home.rglob("*"))
    samples = tmp_path / "samples.jsonl"
    # a minute: the first rounds of pack downloads are told pack_not_ready (and wait its
    # Retry-After) while each worker's child processes make the games' packs
    assert soak.main(["--home", str(home), "--minutes", "1", "--sample-every", "1",
                      "--publish-at", "0.1", "--pack-every", "5",
                      "--samples", str(samples), "--figures", str(tmp_path / "fig")]) == 0
    figure = json.loads(capsys.readouterr().out)
    assert figure["figure"] == "soak" and figure["server_errors"] == 0
    workers = figure["workers_mb"]
    table = load("soak", tmp_path / "fig")      # the docs' table: a row per worker, this run's
    assert table["figures"] == [figure] and len(table["rows"]) == len(workers)
    assert table["rows"][0][1] == f"{workers[0]['start_mb']:,} MB"
    assert len(figure["workers_alive_at_end"]) == 2
    assert figure["workers_restarted"] == len(workers) - 2    # a slow start is restarted
    for w in workers:
        assert 0 < w["start_mb"] <= w["peak_mb"] and w["end_mb"] <= w["peak_mb"]
    assert max(w["samples"] for w in workers) >= 10
    assert all(w["slope_mb_per_min"] is not None for w in workers if w["samples"] >= 2)
    answers = figure["answers"]
    for kind in ("lookup", "valid_batch", "check_batch", "pattern", "anagrams", "judge",
                 "remik_move", "offline", "pack_rules", "pack_words"):
        assert answers[kind].get("200", 0) > 0, (kind, answers[kind])
    assert figure["publish"]["exit"] == 0 and figure["publish"]["release"]
    # the home it was given is only read: the publish went to its scratch home
    assert published.current_id("osps", home) == before
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == listed
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    assert {r["pid"] for r in rows if "pid" in r} == {w["pid"] for w in workers}
