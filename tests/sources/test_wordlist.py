"""Tests for sources.wordlist: plain word lists and reviewed `entry  # reason` lists."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from lexicon.sources.wordlist import (
    LISTS_DIR,
    ReviewedListError,
    read_reviewed_entries,
    read_reviewed_list,
    read_wordlist,
)

ABBREVIATIONS = Path(__file__).resolve().parents[2] / "sources" / "lists" / "pl_abbreviations.txt"


def write(tmp_path: Path, text: str, name: str = "list.txt", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_read_wordlist_strips_skips_blanks_and_comments(tmp_path: Path) -> None:
    path = write(tmp_path, "# header\n  kot \n\n\tpies\r\n   \n# another\nżółw\n")
    assert list(read_wordlist(path)) == ["kot", "pies", "żółw"]


def test_read_wordlist_normalises_to_nfc(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "zażółć")
    assert decomposed != "zażółć"
    path = write(tmp_path, decomposed + "\n")
    (word,) = list(read_wordlist(path))
    assert word == "zażółć"
    assert unicodedata.is_normalized("NFC", word)


def test_read_wordlist_drops_bom_and_keeps_order_and_duplicates(tmp_path: Path) -> None:
    path = write(tmp_path, "\ufeffb\na\nb\n")
    assert list(read_wordlist(path)) == ["b", "a", "b"]


def test_read_wordlist_other_encoding(tmp_path: Path) -> None:
    path = write(tmp_path, "gęś\nłoś\n", encoding="iso-8859-2")
    assert list(read_wordlist(path, encoding="iso-8859-2")) == ["gęś", "łoś"]


def test_read_reviewed_list_parses_entries_and_reasons(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# header comment\n\n"
        "np  # skrót: na przykład\n"
        "kg\t#symbol: kilogram [Morfeusz: brev]\n"
        "   # indented comment\n"
        "mgr # skrót # with a second hash\n",
    )
    assert read_reviewed_list(path) == {
        "np": "skrót: na przykład",
        "kg": "symbol: kilogram [Morfeusz: brev]",
        "mgr": "skrót # with a second hash",
    }


def test_read_reviewed_list_rejects_duplicates_with_line_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "np  # a\n\ntzw  # b\nnp  # c\n")
    with pytest.raises(
        ReviewedListError, match=r"list\.txt:4: duplicate entry 'np' \(first on line 1\)"
    ):
        read_reviewed_list(path)


def test_read_reviewed_list_duplicates_are_detected_after_nfc(tmp_path: Path) -> None:
    path = write(tmp_path, "żółw  # a\n" + unicodedata.normalize("NFD", "żółw") + "  # b\n")
    with pytest.raises(ReviewedListError, match="duplicate"):
        read_reviewed_list(path)


@pytest.mark.parametrize("line", ["np\n", "np  #\n", "np  #   \n"])
def test_read_reviewed_list_requires_a_reason(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, "# ok\n" + line)
    with pytest.raises(ReviewedListError, match=r":2: entry 'np' has no reason"):
        read_reviewed_list(path)


@pytest.mark.parametrize("line", ["na przykład  # two words\n", "  # \n"])
def test_read_reviewed_list_requires_exactly_one_entry(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, line)
    if line.strip().startswith("#"):
        assert read_reviewed_list(path) == {}  # a comment line, not an empty entry
    else:
        with pytest.raises(ReviewedListError, match="exactly one entry"):
            read_reviewed_list(path)


def test_shipped_polish_abbreviation_list_is_well_formed() -> None:
    entries = read_reviewed_list(ABBREVIATIONS)
    assert len(entries) > 300
    polish_letters = set("aąbcćdeęfghijklłmnńoóprsśtuwyzźż")
    for entry in entries:
        assert entry == entry.lower() and set(entry) <= polish_letters, entry
        assert len(entry) >= 2, entry
    for abbreviation in ("np", "tzw", "kg", "km", "dr", "mgr", "pkt", "itd", "itp", "wg", "mgra"):
        assert abbreviation in entries, abbreviation


@pytest.mark.parametrize(
    "word",
    # Real words that look like abbreviations; excluding them would break the game.
    [
        "ku",
        "by",
        "ad",
        "ach",
        "ha",
        "oj",
        "ej",
        "hm",
        "pst",
        "sza",
        "brr",
        "min",
        "ok",
        "cal",
        "oz",
        "ul",
        "drze",
    ],
)
def test_shipped_polish_abbreviation_list_keeps_real_words(word: str) -> None:
    assert word not in read_reviewed_list(ABBREVIATIONS)


@pytest.mark.parametrize(("text", "ok"), [
    ("Tone Pavček  # full name\n", True),
    ("Tone  Pavček  # double space\n", False),
    ("Tone\tPavček  # tab\n", False),
])
def test_reviewed_phrases_use_single_spaces(tmp_path: Path, text: str, ok: bool) -> None:
    path = write(tmp_path, text)
    if ok:
        (entry,) = read_reviewed_entries(path, phrases=True)
        assert (entry.entry, entry.reason, entry.file, entry.line) == (
            "Tone Pavček", "full name", path.name, 1)
    else:
        with pytest.raises(ReviewedListError, match="single spaces"):
            read_reviewed_entries(path, phrases=True)


def test_every_shipped_list_is_read_by_the_one_reader() -> None:
    """Every game's reviewed list (pl_, hbs_, sl_) has a reason on every entry."""
    files = sorted(LISTS_DIR.glob("*.txt"))
    assert {f.name.split("_", 1)[0] for f in files} >= {"pl", "hbs", "sl"}
    for f in files:
        entries = read_reviewed_entries(f, phrases=f.name.startswith("sl_"))
        assert all(e.reason for e in entries), f
