"""The capacity tool on a small real release and real servers: it loads each endpoint with
wrk beside bare Starlette and writes the fleet page's table from what it measured."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SmallHomes
from tools import capacity
from tools.figures import load


@pytest.mark.skipif(shutil.which("wrk") is None, reason="needs Debian's wrk (make bench)")
def test_the_capacity_tool_writes_the_fleet_table(tmp_path: Path, small_homes: SmallHomes,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    home = small_homes("queries", tmp_path / "home")
    assert capacity.main(["--home", str(home), "--seconds", "1", "--workers", "1",
                          "--figures", str(tmp_path / "fig")]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    measured = [f for f in printed if f["figure"] == "capacity"]
    table = load("capacity", tmp_path / "fig")
    assert table["figures"] == measured and len(table["rows"]) == len(measured) == 5
    assert table["columns"][1] == "1 worker: req/s (p99)"
    first = measured[0]
    assert table["rows"][0][1] == f"{first['requests_per_s'] or 0:,} ({first['p99_ms']} ms)"
