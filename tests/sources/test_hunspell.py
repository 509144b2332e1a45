"""Tests for sources.hunspell: tiny .aff/.dic pairs written per test, exact expected sets.

Every expected set below was also checked against libhunspell's own spell checker
(``Hunspell_spell``) when the tests were written: each listed form is accepted and
the near misses named in the comments are rejected.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lexicon.sources.hunspell import (
    Aff,
    DicEntry,
    Form,
    expand,
    expand_entry,
    read_aff,
    read_dic,
)


def _write(
    tmp_path: Path, aff: str, dic: str, encoding: str = "utf-8", newline: str = "\n"
) -> tuple[Path, Path]:
    """Write the pair, with the given encoding and line ends, and return (dic, aff) paths."""
    aff_path = tmp_path / "t.aff"
    dic_path = tmp_path / "t.dic"
    aff_path.write_bytes(aff.replace("\n", newline).encode(encoding))
    dic_path.write_bytes(dic.replace("\n", newline).encode(encoding))
    return dic_path, aff_path


def _words(tmp_path: Path, aff: str, dic: str, **kwargs: str) -> set[str]:
    return {form.form for form in expand(*_write(tmp_path, aff, dic, **kwargs))}


def _paths(tmp_path: Path, aff: str, dic: str, **kwargs: str) -> set[tuple[str, tuple[str, ...]]]:
    return {(form.form, form.affixes) for form in expand(*_write(tmp_path, aff, dic, **kwargs))}


ENGLISH_AFF = """SET UTF-8
TRY esianrtolcdugmphbyfvkwz

# comment line
PFX A Y 1
PFX A   0     re         .

PFX U N 1
PFX U   0     un         .

SFX D Y 4
SFX D   0     d          e
SFX D   y     ied        [^aeiou]y
SFX D   0     ed         [^ey]
SFX D   0     ed         [aeiou]y
"""


def test_single_char_flags_conditions_strip_and_cross_product(tmp_path: Path) -> None:
    dic = "5\ntry/AD\nplay/DU\nwork/AD\nbake/D\ny/D\n"
    paths = _paths(tmp_path, ENGLISH_AFF, dic)
    assert paths == {
        ("try", ()),
        ("tried", ("D",)),  # strip y, [^aeiou]y
        ("retry", ("A",)),
        ("retried", ("A", "D")),  # both cross-product
        ("play", ()),
        ("played", ("D",)),  # [aeiou]y, not "playied"
        ("unplay", ("U",)),  # U is not cross-product: no "unplayed"
        ("work", ()),
        ("worked", ("D",)),
        ("rework", ("A",)),
        ("reworked", ("A", "D")),
        ("bake", ()),
        ("baked", ("D",)),  # condition e, not "bakeed"
        ("y", ()),  # "ied" would strip the whole word: not without FULLSTRIP
    }


def test_read_aff_structure(tmp_path: Path) -> None:
    _, aff_path = _write(tmp_path, ENGLISH_AFF, "0\n")
    aff = read_aff(aff_path)
    assert isinstance(aff, Aff)
    assert aff.flag_type == "short"
    assert set(aff.prefixes) == {"A", "U"}
    assert [a.condition for a in aff.suffixes["D"]] == ["e", "[^aeiou]y", "[^ey]", "[aeiou]y"]
    tried = aff.suffixes["D"][1]
    assert (tried.strip, tried.add, tried.cross_product) == ("y", "ied", True)
    assert aff.prefixes["U"][0].cross_product is False
    assert aff.directives["TRY"] == (("esianrtolcdugmphbyfvkwz",),)


# "do/AaBb" and "cat/Aa" with Aa = -s, Bb = un-: the same words whether the flags are
# written out (FLAG long) or given through AF aliases.
DO_CAT_FORMS = {"do", "dos", "undo", "undos", "cat", "cats"}


def test_flag_long(tmp_path: Path) -> None:
    aff = "SET UTF-8\nFLAG long\nSFX Aa Y 1\nSFX Aa 0 s .\nPFX Bb Y 1\nPFX Bb 0 un .\n"
    dic_path, aff_path = _write(tmp_path, aff, "2\ndo/AaBb\ncat/Aa\n")
    parsed = read_aff(aff_path)
    entries = list(read_dic(dic_path, parsed))
    assert entries == [
        DicEntry("do", frozenset({"Aa", "Bb"}), ()),
        DicEntry("cat", frozenset({"Aa"}), ()),
    ]
    assert {f.form for f in expand(dic_path, aff_path)} == DO_CAT_FORMS


SERBIAN_AFF = """\ufeffSET UTF-8
FLAG num

SFX 1 Y 3
SFX 1 а а
SFX 1 а е
SFX 1 а ама

PFX 19 Y 1
PFX 19 0 не
"""


def test_flag_num_crlf_bom_and_missing_condition(tmp_path: Path) -> None:
    # hunspell-sr style: numbered flags, CRLF, rules without a condition column,
    # a comma-separated flag list, and a stem with a trailing space.
    dic = "3\nжена/1\nмала/1,19\nЛисак \n"
    dic_path, aff_path = _write(tmp_path, SERBIAN_AFF, dic, newline="\r\n")
    aff = read_aff(aff_path)
    assert aff.flag_type == "num"
    assert aff.suffixes["1"][0].condition == "."
    assert [e.flags for e in read_dic(dic_path, aff)] == [
        frozenset({"1"}),
        frozenset({"1", "19"}),
        frozenset(),
    ]
    assert {(f.form, f.affixes) for f in expand(dic_path, aff_path)} == {
        ("жена", ()),
        ("жена", ("1",)),  # "а" -> "а": the same word, reached through flag 1
        ("жене", ("1",)),
        ("женама", ("1",)),
        ("мала", ()),
        ("мала", ("1",)),
        ("мале", ("1",)),
        ("малама", ("1",)),
        ("немала", ("19",)),
        ("немала", ("19", "1")),
        ("немале", ("19", "1")),
        ("немалама", ("19", "1")),
        ("Лисак", ()),
    }


def test_af_aliases_with_trailing_comments(tmp_path: Path) -> None:
    # hunspell-hr writes "AF flags<TAB># n"; the comment is not a flag.
    aff = (
        "SET UTF-8\nFLAG long\nAF 2\nAF AaBb # 1\nAF Aa\t# 2\n"
        "SFX Aa Y 1\nSFX Aa 0 s .\nPFX Bb Y 1\nPFX Bb 0 un .\n"
    )
    dic_path, aff_path = _write(tmp_path, aff, "2\ndo/1\ncat/2\n")
    parsed = read_aff(aff_path)
    assert parsed.flag_aliases == (frozenset({"Aa", "Bb"}), frozenset({"Aa"}))
    assert [e.flags for e in read_dic(dic_path, parsed)] == [
        frozenset({"Aa", "Bb"}),
        frozenset({"Aa"}),
    ]
    assert {f.form for f in expand(dic_path, aff_path)} == DO_CAT_FORMS


TWOFOLD_AFF = """SET UTF-8
SFX Y Y 1
SFX Y 0 s .
SFX X Y 1
SFX X 0 able/Y .
PFX P Y 1
PFX P 0 un .
"""


def test_twofold_suffix_and_prefix(tmp_path: Path) -> None:
    # "drinks" is rejected: Y is only reachable through X's continuation flags.
    assert _paths(tmp_path, TWOFOLD_AFF, "2\ndrink/XP\nthink/X\n") == {
        ("drink", ()),
        ("drinkable", ("X",)),
        ("drinkables", ("X", "Y")),
        ("undrink", ("P",)),
        ("undrinkable", ("P", "X")),
        ("undrinkables", ("P", "X", "Y")),
        ("think", ()),
        ("thinkable", ("X",)),
        ("thinkables", ("X", "Y")),
    }


def test_twofold_suffix_needs_cross_product_for_prefix(tmp_path: Path) -> None:
    aff = TWOFOLD_AFF.replace("SFX Y Y 1", "SFX Y N 1")
    assert _words(tmp_path, aff, "1\ndrink/XP\n") == {
        "drink",
        "drinkable",
        "drinkables",
        "undrink",
        "undrinkable",  # no "undrinkables": Y is not cross-product
    }


def test_continuation_flags_enable_the_other_side(tmp_path: Path) -> None:
    prefix_enables = "SET UTF-8\nPFX P Y 1\nPFX P 0 un/S .\nSFX S Y 1\nSFX S 0 s .\n"
    assert _words(tmp_path, prefix_enables, "1\ndo/P\n") == {"do", "undo", "undos"}
    suffix_enables = "SET UTF-8\nPFX P Y 1\nPFX P 0 un .\nSFX S Y 1\nSFX S 0 s/P .\n"
    assert _words(tmp_path, suffix_enables, "1\ndo/S\n") == {"do", "dos", "undos"}


def test_needaffix_on_stem_and_on_affix(tmp_path: Path) -> None:
    aff = (
        "SET UTF-8\nNEEDAFFIX X\n"
        "SFX A Y 1\nSFX A 0 s .\n"
        "SFX B Y 1\nSFX B 0 er/XC .\n"  # "er" needs another affix after (C) or before (P)
        "SFX C Y 1\nSFX C 0 s .\n"
        "PFX P Y 1\nPFX P 0 re .\n"
    )
    assert _words(tmp_path, aff, "3\npseudo/XA\nwalk/B\nrun/BP\n") == {
        "pseudos",  # no bare "pseudo"
        "walk",
        "walkers",  # no "walker"
        "run",
        "runers",
        "rerun",
        "reruner",
        "reruners",
    }


def test_forbiddenword_and_onlyincompound(tmp_path: Path) -> None:
    aff = "SET UTF-8\nFORBIDDENWORD F\nONLYINCOMPOUND O\nSFX A Y 1\nSFX A 0 s .\n"
    dic = "5\nfoo/A\nbar/A\nfoos/F\nbaz/AF\nqux/AO\n"
    # "foos" is vetoed by its forbidden entry; baz and qux produce nothing at all.
    assert _words(tmp_path, aff, dic) == {"foo", "bar", "bars"}
    parsed = read_aff(tmp_path / "t.aff")
    assert list(expand_entry(DicEntry("baz", frozenset("AF"), ()), parsed)) == []


def test_circumfix(tmp_path: Path) -> None:
    # The Hungarian example from the Hunspell manual.
    aff = (
        "SET UTF-8\nCIRCUMFIX X\n"
        "PFX A Y 1\nPFX A 0 leg/X .\n"
        "PFX B Y 1\nPFX B 0 legesleg/X .\n"
        "SFX C Y 3\nSFX C 0 obb . +COMPARATIVE\n"
        "SFX C 0 obb/AX . +SUPERLATIVE\nSFX C 0 obb/BX . +SUPERSUPERLATIVE\n"
    )
    assert _paths(tmp_path, aff, "1\nnagy/C\n") == {
        ("nagy", ()),
        ("nagyobb", ("C",)),
        ("legnagyobb", ("A", "C")),  # never "legnagy": the prefix needs its suffix
        ("legeslegnagyobb", ("B", "C")),
    }
    parsed = read_aff(tmp_path / "t.aff")
    assert parsed.suffixes["C"][1].morph == ("+SUPERLATIVE",)


def test_circumfix_pairs_when_a_suffix_is_present(tmp_path: Path) -> None:
    aff = (
        "SET UTF-8\nCIRCUMFIX X\nPFX A Y 1\nPFX A 0 leg/X .\n"
        "SFX C Y 2\nSFX C 0 obb .\nSFX C 0 obb/X .\nSFX D Y 1\nSFX D 0 ít/X .\n"
    )
    assert _paths(tmp_path, aff, "1\nnagy/ACD\n") == {
        ("nagy", ()),
        ("legnagy", ("A",)),  # a circumfix prefix alone passes, as in libhunspell
        ("nagyobb", ("C",)),  # from the plain rule only
        ("legnagyobb", ("A", "C")),  # from the circumfix rule only
        ("legnagyít", ("A", "D")),  # never "nagyít" alone
    }


def test_condition_brackets_have_no_ranges_or_wildcards(tmp_path: Path) -> None:
    aff = "SET UTF-8\nSFX A Y 1\nSFX A 0 s [a-c]\nSFX B Y 1\nSFX B 0 z [^.]\n"
    dic = "4\nx-/A\nxa/A\nxb/A\nx./B\n"
    # "[a-c]" is the three characters a, -, c (no "xbs"); "[^.]" excludes a dot.
    assert _words(tmp_path, aff, dic) == {"x-", "x-s", "xa", "xas", "xb", "x."}


def test_dot_inside_a_literal_condition_is_any_character(tmp_path: Path) -> None:
    aff = "SET UTF-8\nSFX C Y 1\nSFX C 0 t a.c\nPFX P Y 1\nPFX P 0 q x.z\n"
    dic = "4\nabc/C\na.c/C\nxbc/C\nxyz/P\n"
    assert _words(tmp_path, aff, dic) == {"abc", "abct", "a.c", "a.ct", "xbc", "xyz", "qxyz"}


def test_complexprefixes_allow_two_prefixes(tmp_path: Path) -> None:
    aff = (
        "SET UTF-8\nCOMPLEXPREFIXES\nPFX A Y 1\nPFX A 0 re/B .\n"
        "PFX B Y 1\nPFX B 0 un .\nSFX S Y 1\nSFX S 0 s .\n"
    )
    assert _paths(tmp_path, aff, "1\ndo/AS\n") == {
        ("do", ()),
        ("dos", ("S",)),
        ("redo", ("A",)),
        ("redos", ("A", "S")),
        ("unredo", ("B", "A")),
        ("unredos", ("B", "A", "S")),
    }


def test_fullstrip(tmp_path: Path) -> None:
    aff = "SET UTF-8\nSFX A Y 1\nSFX A ab x ab\n"
    assert _words(tmp_path, aff, "2\nab/A\ncab/A\n") == {"ab", "cab", "cx"}
    assert _words(tmp_path, "SET UTF-8\nFULLSTRIP\n" + aff[10:], "2\nab/A\ncab/A\n") == {
        "ab",
        "cab",
        "cx",
        "x",
    }


def test_prefix_strip_and_condition(tmp_path: Path) -> None:
    aff = "SET UTF-8\nPFX A Y 2\nPFX A a o a\nPFX A 0 x [^a]\nSFX S Y 1\nSFX S 0 s .\n"
    assert _words(tmp_path, aff, "2\nabc/AS\nbcd/AS\n") == {
        "abc",
        "abcs",
        "obc",
        "obcs",
        "bcd",
        "bcds",
        "xbcd",
        "xbcds",
    }


def test_iso_8859_2(tmp_path: Path) -> None:
    aff = "SET ISO8859-2\nSFX M Y 2\nSFX M 0 a [^aeiou]\nSFX M 0 ta e\nPFX B Y 1\nPFX B 0 po .\n"
    dic_path, aff_path = _write(tmp_path, aff, "2\nključ/M\nžele/MB\n", encoding="iso8859-2")
    assert b"klju\xe8" in dic_path.read_bytes()  # really 8-bit on disk
    assert {f.form for f in expand(dic_path, aff_path)} == {
        "ključ",
        "ključa",
        "žele",
        "želeta",
        "požele",
        "poželeta",
    }


def test_dic_escapes_morph_fields_and_am_aliases(tmp_path: Path) -> None:
    aff = "SET UTF-8\nAM 1\nAM po:verb is:inf\nSFX A Y 1\nSFX A 0 s . 1\n"
    dic = "4\na\\/b/A\nkot/A po:noun st:kot\npies/A\tpo:noun\ngo/A\t1\n"
    dic_path, aff_path = _write(tmp_path, aff, dic)
    parsed = read_aff(aff_path)
    assert parsed.suffixes["A"][0].morph == ("po:verb", "is:inf")
    assert list(read_dic(dic_path, parsed)) == [
        DicEntry("a/b", frozenset("A"), ()),
        DicEntry("kot", frozenset("A"), ("po:noun", "st:kot")),
        DicEntry("pies", frozenset("A"), ("po:noun",)),
        DicEntry("go", frozenset("A"), ("po:verb", "is:inf")),
    ]
    forms = list(expand(dic_path, aff_path))
    assert {f.form for f in forms} == {"a/b", "a/bs", "kot", "kots", "pies", "piess", "go", "gos"}
    assert Form("kots", "kot", frozenset("A"), ("A",)) in forms


def test_expand_entry_streams_and_keeps_stem_flags(tmp_path: Path) -> None:
    _, aff_path = _write(tmp_path, ENGLISH_AFF, "0\n")
    aff = read_aff(aff_path)
    entry = DicEntry("try", frozenset("AD"), ())
    iterator = expand_entry(entry, aff)
    first = next(iterator)
    assert first == Form("try", "try", frozenset("AD"), ())
    assert all(f.stem == "try" and f.stem_flags == entry.flags for f in iterator)


def test_unknown_encoding_fails_loudly(tmp_path: Path) -> None:
    _, aff_path = _write(tmp_path, "SET NO-SUCH-CHARSET\n", "0\n")
    with pytest.raises(LookupError):
        read_aff(aff_path)
