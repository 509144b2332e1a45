"""A bounded schemathesis run over every operation of small real releases on a real server:
no server error, and every answer is of a documented status, type and shape."""

from __future__ import annotations

from pathlib import Path

from tools.fuzz import _retry_after, fuzz_home, small_home


def test_schemathesis_finds_no_server_error_and_no_undocumented_answer(tmp_path: Path) -> None:
    figure = fuzz_home(small_home(tmp_path / "home"), examples=8)
    assert figure["operations"] >= 13
    assert figure["cases"] >= 150
    assert figure["server_errors"] == 0, figure["examples"]
    assert figure["check_failures"] == 0, figure["examples"]
    assert figure["by_status"].get("2xx", 0) > 0 and figure["by_status"].get("4xx", 0) > 0


def test_the_fuzzer_reads_retry_after_as_schemathesis_gives_it() -> None:
    """schemathesis maps a header's name to the list of its values: a 503 with
    Retry-After (an offline pack being made) is waited for, not a crash of the fuzzer."""
    assert _retry_after({"retry-after": ["5"]}) == "5"
    assert _retry_after({"retry-after": "5"}) == "5"
    assert _retry_after({"retry-after": []}) == ""
    assert _retry_after({}) == ""
