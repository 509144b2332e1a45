"""The Remik-move flood tool on a small real release and a real server: it floods with the
heaviest moves, probes and reports; the figures themselves are measured on the real
releases (docs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon.verdicts import remik
from tests.conftest import publish, rec
from tools import remik_flood
from tools.figures import load


def test_the_remik_flood_tool_reports_both_phases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    publish(home, "remik", [rec(w) for w in ("kot", "koty", "kotek", "zażółć")])
    monkeypatch.setattr(remik, "MAX_MOVE_STEPS", 50_000)    # in this process: --costs only
    assert remik_flood.main(["--home", str(home), "--costs", "--seconds", "2",
                             "--reference-seconds", "0.5", "--clients", "2",
                             "--max-moves", "3", "--figures", str(tmp_path / "figures")]) == 0
    figures = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    costs = [f for f in figures if f["figure"] == "remik_move_cost"]
    assert [c["answer"] for c in costs] == ["move_stands"] + ["move_too_complex"] * 3
    assert costs[1]["body_bytes"] > 5000 and costs[1]["max_steps"] == 50_000
    reference, flood = (f for f in figures if f["figure"] == "remik_flood")
    assert (reference["flood"], flood["flood"]) == (False, True)
    for figure in (reference, flood):
        assert figure["healthz"]["n"] > 0 and figure["word"]["n"] > 0
        assert figure["probe_failures"] == {}
    # bounded in count: at most --max-moves sent, each refused by the server's real bound
    assert 0 < sum(flood["flood_answers"].values()) == flood["flood_latency"]["n"] <= 3
    assert set(flood["flood_answers"]) <= {"422 move_too_complex", "503 busy"}
    assert len(flood["flood_moves"]) == 3
    table = load("remik-flood", tmp_path / "figures")
    assert table["source"] == "run" and len(table["rows"]) == 2
    assert "move_too_complex" in table["rows"][1][3] and "s of CPU" in table["rows"][1][3]
