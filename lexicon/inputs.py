"""Turning what a person typed into a clean word, or a clear error.

Checks here are about the *input*, not the word: empty, too long, control characters,
Latin and Cyrillic mixed in one word. They raise :class:`InputError` with a stable code.
Anything else (a hyphen, a digit, a letter the game has no tile for) is a property of the
word and is answered by the checker as an invalid word with a reason, because a referee
asking about ``e-mail`` deserves "hyphenated" rather than "bad request".
"""

from __future__ import annotations

import unicodedata

from lexicon.errors import InputError

MAX_WORD_CHARS = 64


def script_of(ch: str) -> str | None:
    """'Latn', 'Cyrl' or None (digits, punctuation, spaces) for one character."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    if name.startswith("LATIN"):
        return "Latn"
    if name.startswith("CYRILLIC"):
        return "Cyrl"
    return "Other"


def scripts_in(text: str) -> set[str]:
    return {s for s in map(script_of, text) if s}


def clean_word(text: str, *, max_chars: int = MAX_WORD_CHARS) -> str:
    """NFC-normalised, stripped, lower-cased word; raises InputError on unusable input."""
    if text is None:
        raise InputError("no word given", code="empty_word")
    word = unicodedata.normalize("NFC", text).strip()
    if not word:
        raise InputError("the word is empty", code="empty_word")
    if len(word) > max_chars:
        raise InputError(
            f"the word is {len(word)} characters long; at most {max_chars} are accepted",
            code="word_too_long", detail={"max_chars": max_chars},
        )
    for i, ch in enumerate(word):
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise InputError(
                f"control or invisible character U+{ord(ch):04X} at position {i + 1}",
                code="control_character", detail={"position": i + 1},
            )
    scripts = scripts_in(word)
    if len(scripts) > 1:
        raise InputError(
            "the word mixes scripts (" + ", ".join(sorted(scripts)) + "); type it in one",
            code="mixed_scripts", detail={"scripts": sorted(scripts)},
        )
    # Collapse runs of white space: "pustni  ples" is the phrase "pustni ples".
    return " ".join(word.split()).lower()
