"""The referee page's offline scripts hold no rule of their own: what a word's validity turns
on (reason codes, length limits, joker counts, tile letters, the hyphens) reaches
``service/static/offline.js`` as the pack's data (lexicon.verdicts.validity writes the steps),
and Remik's codes reach ``remik-offline.js`` as the pack's ``move`` data. A literal written
into either file would be a second copy of a rule that a change to the profiles or the
decision would leave behind; this test reads every string and number literal of the
scripts and fails on one.

The agreement of the page with the server on real releases is tests/page/test_offline.py's
and test_remik_offline.py's (real Chromium)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lexicon.export.offline import NEEDS_SERVER
from lexicon.game import inputs, tiles
from lexicon.game import profile as profiles
from lexicon.game.play import OPENING_FACTOR
from lexicon.game.reasons import REASONS
from lexicon.verdicts import judge, remik
from lexicon.verdicts.validity import HYPHENS, UNKNOWN, validity

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"
GAMES = [profiles.load(g) for g in ("osps", "kvizovka", "krizemkrazem", "remik")]


def literals(source: str) -> tuple[list[str], list[str], list[str]]:
    """The string literals (escapes read), the fixed parts of template strings (a message's
    words) and the numeric literals of a script, comments and regular expressions left out;
    a number that
    is a hexadecimal literal or the right operand of a shift or a bitwise ``&`` (a binary
    layout's field, not a rule) is left out too."""
    strings: list[str] = []
    parts: list[str] = []
    code: list[str] = []          # the code outside strings, comments and regexes
    i, n = 0, len(source)
    depth: list[int] = []         # open ``${`` of template strings, by brace depth
    braces = 0
    template = False

    def read_string(i: int, quote: str) -> int:
        out = []
        while source[i] != quote:
            if quote == "`" and source.startswith("${", i):
                break
            if source[i] == "\\":
                nxt = source[i + 1]
                if nxt == "u":
                    if source[i + 2] == "{":
                        end = source.index("}", i)
                        out.append(chr(int(source[i + 3:end], 16)))
                        i = end + 1
                        continue
                    out.append(chr(int(source[i + 2:i + 6], 16)))
                    i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                i += 2
                continue
            out.append(source[i])
            i += 1
        (parts if quote == "`" else strings).append("".join(out))
        return i

    while i < n:
        c = source[i]
        if template:
            i = read_string(i, "`")
            if source[i] == "`":
                template = False
                i += 1
            else:                                        # ``${``: code until its ``}``
                template = False
                depth.append(braces)
                i += 2
            continue
        if source.startswith("//", i):
            i = source.index("\n", i)
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if c in "'\"":
            i = read_string(i + 1, c) + 1
            continue
        if c == "`":
            template = True
            i += 1
            continue
        if c == "/":
            before = "".join(code).rstrip()
            if not before or before[-1] in "(,=:[!&|?{};" or before.endswith("return"):
                j, klass = i + 1, False                  # a regular expression literal
                while klass or source[j] != "/":
                    if source[j] == "\\":
                        j += 1
                    elif source[j] == "[":
                        klass = True
                    elif source[j] == "]":
                        klass = False
                    j += 1
                i = j + 1
                while i < n and source[i].isalpha():
                    i += 1
                code.append(" /re/ ")
                continue
        if c == "{":
            braces += 1
        elif c == "}":
            if depth and depth[-1] == braces:
                depth.pop()
                template = True
                i += 1
                continue
            braces -= 1
        code.append(c)
        i += 1
    text = "".join(code)
    numbers = [m.group(2) for m in re.finditer(
        r"(>>>|>>|<<|&)?\s*(?<![\w$.])(0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?)", text)
        if not m.group(1) and not m.group(2).lower().startswith("0x")]
    return strings, parts, numbers


def _reason_codes() -> set[str]:
    return {*REASONS, UNKNOWN, NEEDS_SERVER, *remik.FAULT_CODES.values(),
            *(s.code for p in GAMES for s in validity(p).steps)}


def _tile_facts() -> set[str]:
    facts = set(HYPHENS)
    for p in GAMES:
        for t in p.tiles:
            facts |= {t.letter.lower(), t.spelling.lower(), t.canonical}
    return facts


def _rule_numbers() -> set[int]:
    found = {inputs.MAX_WORD_CHARS, tiles.MAX_READINGS, judge.MAX_PLAY_WORDS, OPENING_FACTOR}
    for p in GAMES:
        found |= {p.min_length, p.max_length, p.jokers.count}
        found |= {v for v in (p.edge_min_length, p.opening_min_length,
                              p.reopening_min_length) if v is not None}
    return found - {0, 1}


@pytest.mark.parametrize("script", ["offline.js", "remik-offline.js"])
def test_the_offline_scripts_write_no_reason_code_or_tile(script: str) -> None:
    strings, parts, _numbers = literals((STATIC / script).read_text(encoding="utf-8"))
    assert strings and parts, "the reader found no string literal"
    assert not set(strings) & _reason_codes(), "reason codes written into " + script
    assert not {w for p in parts for w in re.findall(r"[a-z_]+", p)
                if "_" in w} & _reason_codes(), "reason codes in messages of " + script
    facts = _tile_facts()
    assert not {s for s in strings if s.lower() in facts}, "tile facts written into " + script
    non_ascii = {c for c in facts if len(c) == 1 and not c.isascii()}
    assert not {s for s in strings + parts if non_ascii & set(s)}, (
        "tile letters written into " + script)


def test_offline_js_writes_no_limit_of_the_rules() -> None:
    """No number of the profiles' or the verdicts' limits (lengths, jokers, characters, the
    readings, a play's words, the opening's factor) is written in offline.js."""
    _strings, _parts, numbers = literals((STATIC / "offline.js").read_text(encoding="utf-8"))
    assert numbers, "the reader found no number"
    assert not {int(float(x)) for x in numbers} & _rule_numbers()


def test_the_reader_finds_what_a_rule_would_look_like() -> None:
    """The scan itself: a code, a limit and a tile written the way a rule would be are
    found; the same words in comments, regular expressions and bit fields are not."""
    source = (
        "// too_short 4\n/* too_long 17 */\nconst r = /-'/gu;\n"
        "const x = n >>> 24 & 0x3f;\n"
        "if (n < 4) return \"too_short\";\n"
        "const t = `${'hyphen_or_apostrophe'} and ${n + 17} \\u2019`;\n"
        "if (c === 'ż') return null;\n")
    strings, parts, numbers = literals(source)
    assert {"too_short", "hyphen_or_apostrophe", "ż"} <= set(strings)
    assert "\u2019" in "".join(parts)
    assert sorted(numbers) == ["17", "4"]
