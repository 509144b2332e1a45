"""The pattern-flood measuring tool on small real releases and a real server: it floods,
probes and reports; the figures themselves are measured on the real releases (README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SmallHomes
from tools import pattern_flood
from tools.figures import load, render


def test_the_flood_tool_reports_both_phases(tmp_path: Path, small_homes: SmallHomes,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    home = small_homes("queries", tmp_path / "home")
    assert pattern_flood.main(["--home", str(home), "--seconds", "1.5", "--costs",
                               "--reference-seconds", "0.5", "--clients", "4",
                               "--figures", str(tmp_path / "figures")]) == 0
    figures = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    costs = [f for f in figures if f["figure"] == "pattern_cost"]
    assert len(costs) == len(pattern_flood.COST_CASES)
    assert all(0 < c["work"] <= c["max_work"] for c in costs if isinstance(c["answer"], int))
    reference, flood = (f for f in figures if f["figure"] == "pattern_flood")
    assert (reference["flood"], flood["flood"]) == (False, True)
    for figure in (reference, flood):
        assert figure["healthz"]["n"] > 0 and figure["word"]["n"] > 0
        assert figure["probe_failures"] == {}
        assert figure["rss_mb"]["high_water"] >= figure["rss_mb"]["start"] > 0
    assert sum(flood["flood_answers"].values()) == flood["flood_latency"]["n"] > 4
    assert set(flood["flood_answers"]) <= {"200 ok", "503 busy"}   # small lexicons answer
    # the docs' tables, from this run: a row per phase and per cost case, and where from
    table = load("pattern-flood", tmp_path / "figures")
    assert table["source"] == "run" and table["tool"] == "tools.pattern_flood"
    assert [r[0] for r in table["rows"]] == ["reference, no flood", "flood"]
    assert table["rows"][1][3].startswith(f"{flood['flood_latency']['n']:,} in the window")
    assert table["figures"] == [reference, flood] and table["machine"]["cpus"]
    costs_table = load("pattern-costs", tmp_path / "figures")
    assert len(costs_table["rows"]) == len(costs)
    rendered = render(["pattern-flood"], tmp_path / "figures")
    assert "--figures" in rendered and "| reference, no flood |" in rendered
