"""Turning what a person typed into a clean word, or a clear error.

Checks here are about the *input*, not the word: empty, too long, control characters,
Latin and Cyrillic mixed in one word. They raise :class:`InputError` with a stable code.
Anything else (a hyphen, a digit, a letter the game has no tile for) is a property of the
word and is answered by the checker as an invalid word with a reason, because a referee
asking about ``e-mail`` deserves "hyphenated" rather than "bad request".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from lexicon.errors import InputError

MAX_WORD_CHARS = 64

#: The white space a typed word, pattern or rack may carry at either end, and which is
#: stripped: Unicode's space separators (a plain space, a no-break space copied from a web
#: page) and the tab, line feed and carriage return a form, a terminal or a file leaves.
#: Python's ``str.strip()`` strips more (U+0085 NEL, U+001C..U+001F, vertical tab, form
#: feed, U+2028/U+2029): those are control characters, refused wherever they stand.
EDGE_SPACE = "\t\n\r" + "".join(
    c for c in map(chr, range(0x3001)) if unicodedata.category(c) == "Zs")

#: Categories refused anywhere in typed text: controls, format (invisible) characters,
#: surrogates, private use, unassigned, line and paragraph separators.
_REFUSED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))

#: Unicode's one-character digraphs (Ǆ ǅ ǆ, Ǉ ǈ ǉ, Ǌ ǋ ǌ, Ǳ ǲ ǳ) are two letters in every
#: game: DŽ, LJ and NJ are Kvizovka tiles, dz is two Polish tiles. Their compatibility
#: decomposition is taken, and nothing else of NFKC (which would also fold ² or ﬁ).
_DIGRAPH_LETTERS = str.maketrans({
    c: unicodedata.normalize("NFKC", c)
    for c in map(chr, [*range(0x01C4, 0x01CD), *range(0x01F1, 0x01F4)])})


_DIGRAPH_LETTER = re.compile("[" + "".join(map(chr, _DIGRAPH_LETTERS)) + "]")


def normalise(text: str) -> str:
    """The one normalisation of typed text (words, patterns, racks): NFC, digraph letters
    spelled as their two letters. The translation only where there is one of them: with
    a dict table, ``str.translate`` reads a non-ASCII text a character at a time, and
    that was most of the time a typed Latin Kvizovka word took to clean."""
    if _DIGRAPH_LETTER.search(text) is not None:
        text = text.translate(_DIGRAPH_LETTERS)
    return unicodedata.normalize("NFC", text)


def printable(text: object) -> object:
    """``text`` as it may be echoed back in JSON: a lone surrogate becomes ``\\udXXX``."""
    if isinstance(text, str):
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


@lru_cache(maxsize=4096)
def script_of(ch: str) -> str | None:
    """'Latn', 'Cyrl' or None (digits, punctuation, spaces) for one character (cached: a
    Unicode name lookup per character was a tenth of a single-word lookup's time)."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    if name.startswith("LATIN"):
        return "Latn"
    if name.startswith("CYRILLIC"):
        return "Cyrl"
    return "Other"


#: :func:`script_of` of the characters met so far (up to 4096 of them): read a whole word
#: at a time by ``map`` at C speed, where the cached function costs a call a character
_SCRIPTS: dict[str, str | None] = {}


def scripts_in(text: str) -> set[str]:
    try:
        found = set(map(_SCRIPTS.__getitem__, text))
    except KeyError:
        found = set(map(script_of, text))
        for ch in text:
            if len(_SCRIPTS) >= 4096:
                break
            _SCRIPTS[ch] = script_of(ch)
    found.discard(None)
    return found  # type: ignore[return-value]


def refused(ch: str) -> bool:
    """Whether one character is a control or invisible one (what :func:`first_control`
    looks for)."""
    return unicodedata.category(ch) in _REFUSED


def first_control(text: str) -> int | None:
    """The index of the first control or invisible character of ``text`` (None: none)."""
    if text.isprintable():   # no character of any refused category (nor of Zs): one C pass
        return None
    for i, ch in enumerate(text):
        if unicodedata.category(ch) in _REFUSED:
            return i
    return None


def control_error(text: str, i: int, what: str = "") -> InputError:
    return InputError(f"control or invisible character U+{ord(text[i]):04X} at position "
                      f"{i + 1}{what}", code="control_character", detail={"position": i + 1})


def clean_word(text: str, *, max_chars: int = MAX_WORD_CHARS) -> str:
    """NFC-normalised, lower-cased word, stripped of :data:`EDGE_SPACE` only; raises
    InputError on unusable input."""
    if text is None:
        raise InputError("no word given", code="empty_word")
    if not isinstance(text, str):    # a library caller's list item, a JSON number
        raise InputError(f"a word must be text, not {type(text).__name__}",
                         code="invalid_request", status=422)
    word = normalise(text).strip(EDGE_SPACE)
    if not word:
        raise InputError("the word is empty", code="empty_word")
    if len(word) > max_chars:
        raise InputError(
            f"the word is {len(word)} characters long; at most {max_chars} are accepted",
            code="word_too_long", detail={"max_chars": max_chars},
        )
    bad = first_control(word)
    if bad is not None:
        raise control_error(word, bad)
    if not word.replace("|", "").strip():     # '|' is tile notation, not a letter
        raise InputError("the word holds no tile (only '|')", code="empty_word")
    scripts = scripts_in(word)
    if len(scripts) > 1:
        raise InputError(
            "the word mixes scripts (" + ", ".join(sorted(scripts)) + "); type it in one",
            code="mixed_scripts", detail={"scripts": sorted(scripts)},
        )
    # Collapse runs of white space: "pustni  ples" is the phrase "pustni ples".
    return " ".join(word.split()).lower()
