"""The readers of the sources added for breadth (issue 17), each on a tiny file the test
writes in the real format: a MyThes thesaurus, an aspell compressed word list, FreeDict
dictd files labelled (Polish-English) and unlabelled (Croatian-English)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from lexicon.sources import aspell, freedict, mythes

# -- MyThes ------------------------------------------------------------------------------


def write_thesaurus(directory: Path, entries: list[tuple[str, list[str]]]) -> Path:
    """th_sl_SI_v2.dat (+ .idx) in ISO 8859-2, as the LibreOffice package ships it."""
    directory.mkdir(parents=True, exist_ok=True)
    dat, idx = bytearray(b"ISO8859-2\n"), ["ISO8859-2", str(len(entries))]
    for word, meanings in entries:
        idx.append(f"{word}|{len(dat)}")
        dat += f"{word}|{len(meanings)}\n".encode("iso8859-2")
        for m in meanings:
            dat += (m + "\n").encode("iso8859-2")
    (directory / "th_sl_SI_v2.dat").write_bytes(bytes(dat))
    (directory / "th_sl_SI_v2.idx").write_text("\n".join(idx) + "\n", encoding="iso8859-2")
    return directory


def test_mythes_reads_headwords_and_parts_of_speech(tmp_path: Path) -> None:
    root = write_thesaurus(tmp_path / "th", [
        ("šablona", ["(sam.)|obrazec|stereotip|vzorec"]),
        ("šaliti se", ["(gl.)|briti norce|norčevati se"]),
        ("moderna", ["(sam.)|modernizem", "(prid.)|sodoben|nov"]),
        ("šagra", ["(sam.)|cerkvanje (narečno)|shod (narečno)"]),
    ])
    entries = mythes.by_headword(root)
    assert list(entries) == ["šablona", "šaliti se", "moderna", "šagra"]
    assert entries["šablona"].meanings[0] == mythes.Meaning(
        "sam.", ("obrazec", "stereotip", "vzorec"))
    assert entries["moderna"].is_noun() and not entries["šaliti se"].is_noun()
    assert entries["moderna"].parts_of_speech == {"sam.", "prid."}
    assert entries["šagra"].meanings[0].synonyms[0] == "cerkvanje (narečno)"


def test_mythes_refuses_a_truncated_entry(tmp_path: Path) -> None:
    root = write_thesaurus(tmp_path / "th", [("šal", ["(sam.)|vic"])])
    dat = root / "th_sl_SI_v2.dat"
    dat.write_bytes(dat.read_bytes().replace(b"|1\n", b"|2\n"))
    with pytest.raises(mythes.ThesaurusError, match="announces 2 meanings"):
        mythes.read(dat)


# -- aspell --------------------------------------------------------------------------------


def word_list_compress(words: list[bytes]) -> bytes:
    """aspell's ``word-list-compress c``: count = shared prefix + 1, escaped by 0 when the
    prefix is longer than 31 bytes, then the bytes that differ."""
    out, prev = bytearray(), b""
    for w in words:
        shared = 0
        while shared < min(len(w), len(prev)) and w[shared] == prev[shared]:
            shared += 1
        if shared > 31:
            out.append(0)
        out.append(shared + 1)
        out += w[shared:]
        prev = w
    return bytes(out)


def test_aspell_reads_the_compressed_word_list(tmp_path: Path) -> None:
    long_stem = "nadpovprečnoobremenjevalnostrojnik"          # 34 letters: escaped count
    words = ["Aachen", "Aachenčan", "Aachenčana", "čaša", "čaše", long_stem,
             long_stem + "a", long_stem + "i"]
    root = tmp_path / "pkg"
    (root / "usr/share/aspell").mkdir(parents=True)
    (root / "usr/lib/aspell").mkdir(parents=True)
    data = word_list_compress([w.encode("iso8859-2") for w in words])
    assert 0 in data                                   # the escape is exercised
    (root / "usr/share/aspell/sl.cwl.gz").write_bytes(gzip.compress(data))
    (root / "usr/lib/aspell/sl.dat").write_text("name sl\ncharset iso8859-2\n")
    assert aspell.charset(root, "sl") == "iso8859-2"
    assert list(aspell.words(root, "sl")) == words


def test_aspell_refuses_a_corrupt_list() -> None:
    with pytest.raises(aspell.WordListError, match="shares 5 bytes with one of 3"):
        list(aspell.decompress(b"\x01abc\x06d"))


# -- FreeDict ------------------------------------------------------------------------------

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def dictd_number(n: int) -> str:
    digits = _B64[n % 64]
    while n >= 64:
        n //= 64
        digits = _B64[n % 64] + digits
    return digits


def write_dictd(directory: Path, name: str, bodies: list[tuple[str, str]]) -> Path:
    """NAME.index + NAME.dict.dz (gzip, which dictzip is), the metadata entry first."""
    directory.mkdir(parents=True, exist_ok=True)
    data, index = b"", []
    for head, body in [("00databaseinfo", "a test dictionary\n"), *bodies]:
        raw = body.encode()
        index.append(f"{head}\t{dictd_number(len(data))}\t{dictd_number(len(raw))}")
        data += raw
    (directory / f"{name}.dict.dz").write_bytes(gzip.compress(data))
    (directory / f"{name}.index").write_text("\n".join(index) + "\n", encoding="utf-8")
    return directory


def test_freedict_reads_labelled_polish_headwords(tmp_path: Path) -> None:
    root = write_dictd(tmp_path / "pol", "freedict-pol-eng", [
        ("ablucja", "ablucja /abˈlut͡sja/ <n, f>\nablution\n"),
        ("a cappella", "a cappella <adj>\na cappella\na cappella <adv>\na cappella\n"),
        ("drzwi", "drzwi /ˈd͡ʒvʲi/ <n, pl>\ndoor\n"),
    ])
    entries = freedict.by_headword(root)
    assert [e.labels for e in entries["a cappella"]] == [("adj",), ("adv",)]
    assert entries["drzwi"][0].pos == "n" and entries["drzwi"][0].number == "pl"
    assert "00databaseinfo" not in entries and "ablution" not in entries


def test_freedict_reads_unlabelled_croatian_headwords_only_when_asked(tmp_path: Path) -> None:
    root = write_dictd(tmp_path / "hrv", "freedict-hrv-eng", [
        ("mačka", "mačka /mˈatʃkæ/\ncat\n"),
        ("2", "2 /dvˈa/\noctal number system\n"),
        ("kuća", "kuća\nhouse\n"),          # no IPA either: still the indexed headword
    ])
    assert freedict.by_headword(root) == {}          # how the Slovenian builder reads
    entries = freedict.by_headword(root, unlabelled=True)
    assert list(entries) == ["mačka", "2", "kuća"]
    assert entries["mačka"][0].labels == () and entries["mačka"][0].pos == ""
    assert "cat" not in entries and "house" not in entries
