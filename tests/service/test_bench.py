"""The benchmark tool on small SYNTHETIC releases: it measures and writes the docs' table
from the figures it printed; the figures themselves are measured on the real releases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import bench
from tools.figures import load


def test_the_bench_tool_writes_its_table(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--synthetic", "1000", "--synthetic-home", str(tmp_path / "home"),
                       "--games", "osps", "kvizovka", "--skip", "http", "amend", "rss",
                       "judge", "--reps", "2", "--words", "400",
                       "--figures", str(tmp_path / "fig")]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    table = load("bench", tmp_path / "fig")
    assert table["figures"] == printed and table["source"] == "run"
    assert table["columns"] == ["figure", "target", "osps", "kvizovka",
                                "reference in the same run"]
    rows = {r[0]: r for r in table["rows"]}
    check = next(f for f in printed if f["figure"] == "inprocess_check")
    assert rows[f"in-process batch check, typed words, {check['words']:,} words"][2] == \
        f"{bench._per_s(check['typed_words_per_s'])} words/s"
    assert any(label.startswith("pattern `*OWY` / `*OST`") for label in rows)
    assert "release on disk (records + indexes)" in rows
