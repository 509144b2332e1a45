"""The HTTP API's texts about its error codes and limits, written from the library's contract.

The OpenAPI description (``/openapi.json``, ``/docs``) states every error code with its
meaning from :data:`lexicon.errors.CODES` and every limit with its value from
:data:`service.limits.ALL_LIMITS` (the value read from the constant the code enforces), and the
query endpoints state theirs the same way. Nothing here retypes a code's meaning or a
number: the README's tables are generated from the same two (``tools/docs.py``), so the
two documents and the code cannot disagree (``tests/service/test_contract.py`` checks the served
texts against both).
"""

from __future__ import annotations

from collections.abc import Iterable

from lexicon.service.limits import ALL_LIMITS

from lexicon import CODES, limit_table, limit_value, markdown_cell

#: The limits a query endpoint (blanks, pattern, anagrams, extend, hooks, prefix) holds a
#: request to, as ``module.NAME`` of :data:`service.limits.ALL_LIMITS`.
QUERY_LIMITS = ("queries.MAX_LIMIT", "queries.MAX_OFFSET", "queries.MAX_MATCHES",
                "patterns.MAX_PATTERN_CHARS", "patterns.MAX_STARS", "anagrams.MAX_RACK_TILES",
                "anagrams.MAX_BOARD_TILES", "anagrams.MAX_CHARS_PER_TILE", "anagrams.MAX_JOKERS",
                "anagrams.MAX_STEPS", "queries.MAX_PATTERN_WORK",
                "querypool.MAX_QUERY_WORKERS", "querypool.MAX_QUEUED_QUERIES",
                "querypool.MAX_QUERY_WAIT_SECONDS")

#: The codes only the queries give (beside every endpoint's: unknown_game, no_release ...).
QUERY_CODES = ("bad_pattern", "pattern_too_long", "bad_rack", "rack_too_long",
               "too_many_jokers", "result_limit", "bad_sort", "bad_length", "too_many_matches",
               "query_too_broad", "not_in_alphabet", "no_index", "busy")


def figure(name: str) -> str:
    """A limit's value (by its ``module.NAME`` in :data:`service.limits.ALL_LIMITS`) as a text
    states it (``"10,000"``), for the field and endpoint descriptions that name a number."""
    return f"{limit_value(name, ALL_LIMITS):,}"


def code_table(codes: Iterable[str] | None = None) -> str:
    """The error codes (all, or ``codes`` in that order) and their meanings, as a Markdown
    table: :data:`lexicon.errors.CODES` as it is."""
    rows = ["| code | meaning |", "|---|---|"]
    for code in sorted(CODES) if codes is None else codes:
        rows.append(f"| `{code}` | {markdown_cell(CODES[code])} |")
    return "\n".join(rows)


def api_description(intro: str) -> str:
    """The API's OpenAPI description: ``intro`` (what the API is, the error shape), then
    every error code and every limit."""
    return (f"{intro.strip()}\n\n"
            "## Error codes\n\n"
            "Every code of the contract (stable, never renamed). The codes of building and "
            "shipping come from the CLI only; the table of the docs' \"Errors and limits\" page "
            "(docs/errors-and-limits.md) gives each code's HTTP status and CLI exit code.\n\n"
            f"{code_table()}\n\n"
            "## Limits\n\n"
            "Every limit a request is held to, refused with the code given (never by "
            "cutting results short silently):\n\n"
            f"{limit_table(limits=ALL_LIMITS)}\n")


def query_limits(retry_after: int) -> str:
    """What every query endpoint's description ends with: its codes, then its limits (the
    codes' meanings speak of "the limits below")."""
    return (
        "\nThe queries' own error codes (beside every endpoint's):\n\n"
        f"{code_table(QUERY_CODES)}\n\n"
        "Limits (refused with a JSON error, never truncated silently):\n\n"
        f"{limit_table(QUERY_LIMITS, ALL_LIMITS)}\n\n"
        "To narrow a refused pattern or joker word, fix a letter at either end, tighten "
        "`min_length` / `max_length`, or pin Latin digraphs with `[lj]` / `l|j`. Beyond the "
        "query workers and their queue the answer is 503 `busy` with "
        f"`Retry-After: {retry_after}`. Positions in results (`jokers[].position`) and in "
        "errors (`detail.position`) are 1-based tile positions.\n")
