"""Every ``MAX_*`` limit of the runtime, described once: what it bounds, and the error code a
request over it gets.

Two texts are written from :data:`LIMITS`, each value read from the constant the code
enforces: the README's limit table (``python -m tools.docs``) and the limits the HTTP API's
OpenAPI description states (``service/apidocs.py``). So neither can state a limit the code
does not hold, and neither retypes a number; ``tests/project/test_docs.py`` fails when a ``MAX_*``
constant of the library or the service is missing from the tables. A face's own limits
(the service's bodies and query pool) live with that face, in a table of the same shape
that it passes in (``limits=``): the library names no face.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

#: (module, constant) -> what it bounds, and the code a request over it gets ("—": none,
#: the request waits or is never refused).
Limits = dict[tuple[str, str], tuple[str, str]]

LIMITS: Limits = {
    ("lexicon.game.inputs", "MAX_WORD_CHARS"): ("characters in a checked word", "word_too_long"),
    ("lexicon.verdicts.checker", "MAX_BATCH"): ("words per `check` batch", "batch_too_large"),
    ("lexicon.verdicts.fastcheck", "MAX_WORDS"): ("words per `valid` batch", "batch_too_large"),
    ("lexicon.verdicts.judge", "MAX_PLAY_WORDS"): ("words in one judged play", "play_too_large"),
    ("lexicon.game.tiles", "MAX_READINGS"):
        ("tilings of a Latin word kept per position and reported (more are never read)", "—"),
    ("lexicon.queries.patterns", "MAX_PATTERN_CHARS"): ("characters in a pattern",
                                                      "pattern_too_long"),
    ("lexicon.queries.patterns", "MAX_STARS"): ("`*` in a pattern", "bad_pattern"),
    ("lexicon.queries.queries", "MAX_LIMIT"): ("results per page", "result_limit"),
    ("lexicon.queries.queries", "MAX_OFFSET"): ("first result of a page", "result_limit"),
    ("lexicon.queries.queries", "MAX_MATCHES"): ("words a pattern or blanks query may match",
                                         "too_many_matches"),
    ("lexicon.queries.anagrams", "MAX_RACK_TILES"): ("tiles on a rack", "rack_too_long"),
    ("lexicon.queries.anagrams", "MAX_BOARD_TILES"): ("board letters an anagram must use",
                                              "rack_too_long"),
    ("lexicon.queries.anagrams", "MAX_CHARS_PER_TILE"):
        ("characters per tile of rack or board text (the longest tile written `[dž]` and "
         "its separator `, `), read before the tiles",
         "rack_too_long"),
    ("lexicon.queries.anagrams", "MAX_JOKERS"): ("jokers in an anagram query (never more than the "
                                         "game has)", "too_many_jokers"),
    ("lexicon.queries.anagrams", "MAX_STEPS"): ("trie steps an anagram query may walk",
                                        "query_too_broad"),
    ("lexicon.verdicts.remik", "MAX_MOVE_WORDS"):
        ("words on the table before, or after, a Remik move", "move_too_large"),
    ("lexicon.verdicts.remik", "MAX_MOVE_RACK"): ("letters on a Remik player's shelves",
                                        "move_too_large"),
    ("lexicon.verdicts.remik", "MAX_HISTORY"):
        ("earlier arrangements a Remik move is compared with", "move_too_large"),
    ("lexicon.userfile", "MAX_FILE_BYTES"):
        ("bytes of a file the CLI reads whole (`amend --overrides`, an audit sheet, `audit "
         "compare`'s list, `audit draw --from-list`, `audit score --population`, `import`)",
         "file_too_large"),
    ("lexicon.userfile", "MAX_LINE_BYTES"):
        ("bytes of one line of a file the CLI reads (and of `check --file`'s and `hash`'s "
         "input)",
         "line_too_long"),
    ("lexicon.verdicts.remik", "MAX_HISTORY_BYTES"):
        ("bytes of a `judge --history` file (read no further)", "move_too_large"),
    ("lexicon.verdicts.remik", "MAX_MOVE_STEPS"):
        ("units of work (a letter or tile a step handles; ~0.25 µs each on a quiet core, "
         "~1 µs under heavy load) a Remik move's search, assigning table words to new "
         "words, may spend", "move_too_complex"),
    ("lexicon.queries.queries", "MAX_PATTERN_WORK"):
        ("work units (~0.5 µs each: trie probe 4, key enumerated 1, regex run 1) a pattern "
         "or blanks query may spend over all its readings", "query_too_broad"),
    ("lexicon.audit.draw", "MAX_PER_CLASS"):
        ("words `lexicon audit draw` takes from each evidence class", "bad_input"),
    ("lexicon.export.kwg", "MAX_NODES"): ("nodes of an exported KWG (its 22-bit arc index)",
                                   "kwg_too_large"),
    ("lexicon.store.integrity", "MAX_BUNDLE_BYTES"):
        ("bytes `lexicon install` unpacks from one bundle (headers and stream)", "bad_bundle"),
    ("lexicon.store.integrity", "MAX_BUNDLE_MEMBERS"): ("files and directories in one bundle",
                                                 "bad_bundle"),
    ("lexicon.store.integrity", "MAX_BUNDLE_MANIFEST_BYTES"):
        ("bytes of a bundle's manifest, read before anything is unpacked", "bad_bundle"),
    ("lexicon.export.kwg", "MAX_BIG_NODES"): ("nodes of an exported big KWG (`kbwg`, its 24-bit "
                                       "arc index)", "kwg_too_large"),
    ("lexicon.export.kwg", "MAX_BIG_TILE"): ("tile numbers of a big KWG (6 bits)", "kwg_too_large"),
    ("lexicon.store.recordfile", "MAX_KEY_BYTES"):
        ("UTF-8 bytes of a record's key (LMDB allows 511); a build drops a longer form, no "
         "playable word comes close", "—"),
}


def _read(module: str, name: str) -> int | float:
    return getattr(importlib.import_module(module), name)


def _short(module: str, name: str) -> str:
    """How the texts name a limit: ``queries.MAX_LIMIT`` for ``lexicon.queries.queries``'s."""
    return f"{module.rsplit('.', 1)[1]}.{name}"


def limit_value(name: str, limits: Limits = LIMITS) -> int | float:
    """A limit by its short name (``"checker.MAX_BATCH"``) as the code holds it now: read
    at the time of asking, never copied. A name ``limits`` lacks is a KeyError."""
    for module, constant in limits:
        if _short(module, constant) == name:
            return _read(module, constant)
    raise KeyError(f"{name} is not a limit of the table asked")


def markdown_cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def limit_table(names: Iterable[str] | None = None, limits: Limits = LIMITS) -> str:
    """The limits as a Markdown table (limit, value, what it bounds, the code over it), in
    the order of ``limits`` (default the library's); ``names`` (``"queries.MAX_LIMIT"``)
    keeps only those."""
    wanted = set(names) if names is not None else None
    rows = ["| limit | value | bounds | over it |", "|---|---|---|---|"]
    for (module, name), (what, code) in limits.items():
        short = _short(module, name)
        if wanted is not None and short not in wanted:
            continue
        over = f"`{code}`" if code != "—" else "—"
        rows.append(f"| `{short}` | {_read(module, name):,} | {markdown_cell(what)} | {over} |")
    return "\n".join(rows)
