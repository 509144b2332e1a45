"""The cheap paths of input cleaning read every character as the plain definitions do:
:func:`inputs.scripts_in` (a table of the characters met, read by ``map``) and
:func:`inputs.normalise` (the digraph-letter translation only where one is)."""

from __future__ import annotations

import unicodedata

from lexicon.game import inputs


def _scripts(text: str) -> set[str]:
    return {s for s in map(inputs.script_of.__wrapped__, text) if s}


def test_scripts_in_reads_every_character_as_script_of() -> None:
    letters = [chr(c) for c in range(0x20, 0x3000) if not 0xD800 <= c < 0xE000]
    texts = ["".join(letters[i:i + 7]) for i in range(0, len(letters), 7)]
    texts += ["ljubav", "љубав", "ljубав", "kotª", "µm", "12-3", "", "nadživeti"]
    for text in texts + texts:     # the second time from the table
        assert inputs.scripts_in(text) == _scripts(text), text
    assert len(inputs._SCRIPTS) <= 4096
    assert inputs.scripts_in("ljубав") == {"Latn", "Cyrl"}


def test_normalise_is_nfc_with_digraph_letters_spelled_out() -> None:
    for text in ("ǆep", "ǅep", "Ǆ", "ǈubav", "ǋiva", "ǲ", "nadživeti", "kuc\u0301a", "kot"):
        expected = unicodedata.normalize("NFC", "".join(
            unicodedata.normalize("NFKC", c) if c in "ǄǅǆǇǈǉǊǋǌǱǲǳ" else c for c in text))
        assert inputs.normalise(text) == expected, text
    assert inputs.normalise("ǆep") == "džep" and inputs.normalise("kuc\u0301a") == "kuća"
