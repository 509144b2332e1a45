"""A bounded schemathesis run against a real server: every operation of the OpenAPI schema,
generated requests, each answer checked against the schema.

Prints (and returns) one figure: cases tried, responses by status class, server errors
(5xx), check failures (an undocumented status, a wrong content type, a body that does not
match the documented schema), the worst latency and the server's RSS before and after.

    python -m tools.fuzz                    # small test releases, 200 cases per operation
    python -m tools.fuzz --examples 1000 --home DIR   # releases already built under DIR

The test suite runs the same function with a small budget (tests/service/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from lexicon.service.launch import serving
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tools import figures

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
CHECKS_NEGATIVE = [not_a_server_error, content_type_conformance, response_schema_conformance]


#: a 503 with ``Retry-After`` (an offline pack being made, a game being built) is asked
#: again as a client would, at most this many times, waiting at most MAX_RETRY_WAIT seconds
RETRIES = 6
MAX_RETRY_WAIT = 5


def rss_mb(pid: int) -> float:
    """Resident memory of a process, from /proc (MiB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _retry_after(headers: Any) -> str:
    """The Retry-After header of a schemathesis response, whose headers map a name to the
    list of its values (a plain mapping gives the value itself); "" when there is none."""
    value = headers.get("retry-after") or ""
    if isinstance(value, list | tuple):
        value = value[0] if value else ""
    return value if isinstance(value, str) else ""


def fuzz(base: str, pid: int, *, examples: int = 200,
         modes: tuple[GenerationMode, ...] = tuple(GenerationMode)) -> dict[str, Any]:
    """Run every operation of the server's schema up to ``examples`` times per mode
    (positive: valid by the schema; negative: violating it)."""
    schema = schemathesis.openapi.from_url(base + "/openapi.json")
    rss_before = rss_mb(pid)
    statuses: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    server_errors: list[dict[str, Any]] = []
    worst = (0.0, "")
    cases = 0
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        for mode in modes:  # the loop body runs run() before the next mode: no late binding
            # negative data (wrong types, missing fields, out-of-range values) must be a
            # documented 4xx: every check but "status is documented" stays on for it
            checks = CHECKS if mode is GenerationMode.POSITIVE else CHECKS_NEGATIVE

            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case: schemathesis.Case) -> None:
                nonlocal cases, worst
                started = time.perf_counter()
                response = case.call(base_url=base, timeout=60)
                for _ in range(RETRIES):    # a client honours a documented Retry-After
                    wait = _retry_after(response.headers)
                    if response.status_code != 503 or not wait.isdigit():
                        break
                    time.sleep(min(int(wait), MAX_RETRY_WAIT))
                    response = case.call(base_url=base, timeout=60)
                took = time.perf_counter() - started
                cases += 1
                statuses[f"{response.status_code // 100}xx"] += 1
                label = f"{case.method} {case.formatted_path}"
                if took > worst[0]:
                    worst = (took, label)
                if response.status_code >= 500:
                    server_errors.append({"case": label, "status": response.status_code,
                                          "body": response.text[:300]})
                try:
                    case.validate_response(response, checks=checks)  # noqa: B023
                except (Exception, BaseExceptionGroup) as exc:  # record it, keep fuzzing
                    failures.append({"case": label, "mode": mode.value,  # noqa: B023
                                     "status": response.status_code,
                                     "failure": str(exc).strip().splitlines()[0][:300]})

            try:
                run()
            except Unsatisfiable:   # nothing to make negative (an operation without input)
                continue
    return {
        "figure": "fuzz", "tool": "schemathesis " + schemathesis.SCHEMATHESIS_VERSION,
        "operations": operations, "cases": cases, "by_status": dict(sorted(statuses.items())),
        "server_errors": len(server_errors), "check_failures": len(failures),
        "worst_latency_ms": round(worst[0] * 1000, 1), "worst_case": worst[1],
        "rss_mb_before": rss_before, "rss_mb_after": rss_mb(pid),
        "examples": (server_errors + failures)[:10],
    }


def fuzz_home(home: Path, *, examples: int = 200) -> dict[str, Any]:
    """Start the real app on loopback over the releases under ``home`` and fuzz it."""
    with serving("lexicon.service.app:create_app", home) as (base, pid):
        httpx.get(base + "/healthz", timeout=30)
        return {**fuzz(base, pid, examples=examples), "modes": ["positive", "negative"]}


def small_home(root: Path) -> Path:
    """Small real releases of all four games (the query tests' lexicons; remik plays the
    Polish one), so that any 5xx is a fault, not a game left unbuilt."""
    from tests.conftest import publish
    from tests.query_data import POLISH, publish_all
    publish_all(root)
    publish(root, "remik", POLISH)
    return root




def row(figure: dict[str, Any], command: str) -> list[str]:
    """The docs' reliability row of one fuzz run."""
    by = figure["by_status"]
    kinds = {}
    for status, n in by.items():
        kinds[f"{str(status)[0]}xx"] = kinds.get(f"{str(status)[0]}xx", 0) + n
    split = ", ".join(f"{n:,} {k}" for k, n in sorted(kinds.items()))
    return ["API fuzz, positive and negative cases, every operation", f"`{command}`",
            f"{figure['cases']:,} cases ({split}), **{figure['server_errors']} server errors, "
            f"{figure['check_failures']} schema check failures**; worst latency "
            f"{figure['worst_latency_ms']:,} ms"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200, help="cases per operation")
    parser.add_argument("--home", type=Path, help="a LEXICON_HOME with releases (default: "
                        "small test releases in a temporary directory)")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' row there (docs/figures)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or small_home(Path(tmp))
        figure = fuzz_home(home, examples=args.examples)
        print(json.dumps(figure, ensure_ascii=False))
    if args.figures:
        figures.write(args.figures, "fuzz", tool="tools.fuzz", columns=figures.RELIABILITY,
                      rows=[row(figure, f"python -m tools.fuzz --examples {args.examples}")],
                      figures=[figure], argv=argv)


if __name__ == "__main__":
    main()
