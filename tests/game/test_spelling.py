"""Properties of the one speller: normalisation, tiling and the tile notation.

Hypothesis draws the words; the reference it is held against is a brute-force enumeration
written here in a few lines (fine for the short words drawn), and the work bound counts the
speller's steps, not time.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.errors import InputError
from lexicon.game import profile as profiles
from lexicon.game.inputs import clean_word, normalise
from lexicon.game.tiles import MAX_READINGS, Speller, Work, speller

KV = speller(profiles.load("kvizovka"))
OSPS = speller(profiles.load("osps"))
SETTINGS = settings(max_examples=100, deadline=None)

#: Latin letters that make Kvizovka tiles ambiguous, plus a few plain ones and a foreign one
latin = st.text(alphabet="ljndžaeo", min_size=1, max_size=12)
#: anything the notation can hold, well-formed or not
notation = st.text(alphabet="ljndžaq|[]", min_size=1, max_size=16)
#: adversarial words up to the longest a check accepts
adversarial = st.text(alphabet="ljndž|", min_size=1, max_size=64)
typed = st.text(alphabet=st.characters(codec="utf-8"), max_size=20)


def brute_force(sp: Speller, word: str) -> list[str]:
    """Every tiling's key, multi-letter tiles tried first at each position (the reference)."""
    if not word:
        return [""]
    out = []
    for spelling in sorted(sp.ambiguous, key=len, reverse=True):
        if word.startswith(spelling):
            out += [sp.key_of(spelling) + rest for rest in brute_force(sp, word[len(spelling):])]
    return out + [sp.key_of(word[0]) + rest for rest in brute_force(sp, word[1:])]


def plain(text: str) -> str:
    return text.replace("|", "").replace("[", "").replace("]", "")


@SETTINGS
@given(latin)
def test_every_tiling_in_preference_order(word: str) -> None:
    every = brute_force(KV, word)
    assert [r.key for r in KV.readings(word, limit=len(every))] == every
    assert KV.readings(word)[0].key == KV.key_of(word) == every[0]


@SETTINGS
@given(latin, st.sets(latin, max_size=5))
def test_the_lexicon_keeps_the_tilings_it_holds(word: str, lexicon_words: set[str]) -> None:
    """With a prefix oracle, every tiling the lexicon holds is still read, in order."""
    keys = {k for w in lexicon_words for k in brute_force(KV, w)} | {brute_force(KV, word)[-1]}
    prefixes = {k[:i] for k in keys for i in range(len(k) + 1)}
    got = [r.key for r in KV.readings(word, prefixes.__contains__)]
    every = brute_force(KV, word)
    assert got[0] == every[0]
    assert [k for k in every if k in keys] == [k for k in got if k in keys]


@SETTINGS
@given(latin)
def test_a_reading_spells_the_word_back(word: str) -> None:
    for r in KV.readings(word):
        assert KV.to_latin(r.key) == word
        assert len(r.tiles) == len(r.key) and "".join(r.tiles).lower() == word


@SETTINGS
@given(latin, latin)
def test_a_break_forbids_a_tile_across_it(left: str, right: str) -> None:
    both = {r.key for r in KV.readings(left + "|" + right)}
    assert both == {a + b for a in brute_force(KV, left) for b in brute_force(KV, right)}


@SETTINGS
@given(latin, st.sampled_from(["lj", "nj", "dž"]), latin)
def test_brackets_make_one_tile(left: str, digraph: str, right: str) -> None:
    for r in KV.readings(f"{left}[{digraph}]{right}"):
        assert KV.to_latin(r.key) == left + digraph + right
        assert KV.key_of(digraph) in r.key
    assert len(KV.first(f"[{digraph}]").key) == 1


@SETTINGS
@given(notation)
def test_notation_is_read_or_refused_with_a_code(text: str) -> None:
    try:
        got = KV.readings(text)
    except InputError as exc:
        assert exc.code in ("bad_tile_notation", "empty_word")
    else:
        assert got and all(KV.to_latin(r.key) == plain(text) for r in got)


@settings(max_examples=60, deadline=None)
@given(adversarial)
def test_work_is_linear_in_the_length_whatever_the_word(word: str) -> None:
    """Steps per character stay under a constant, with no lexicon or with a lexicon that
    admits every prefix (the worst oracle)."""
    per_char = MAX_READINGS * (1 + len(KV.ambiguous)) + 2
    for known in (None, lambda _p: True):
        work = Work()
        try:
            got = KV.readings(word, known, work=work)
        except InputError:
            continue
        assert len(got) <= MAX_READINGS
        assert work.steps <= per_char * (len(word) + 1)


def test_lj_times_32_is_cheap_with_a_lexicon() -> None:
    word = "lj" * 32
    lexicon = {"љубав", "лубав", "љуљати"}
    prefixes = {k[:i] for k in lexicon for i in range(len(k) + 1)}
    work = Work()
    got = KV.readings(word, prefixes.__contains__, work=work)
    assert [r.key for r in got] == ["љ" * 32]
    assert work.steps <= 4 * len(word)


@SETTINGS
@given(typed)
def test_normalisation_is_idempotent_and_closed(text: str) -> None:
    try:
        word = clean_word(text)
    except InputError as exc:
        assert exc.code in ("empty_word", "word_too_long", "control_character",
                            "mixed_scripts")
        return
    assert clean_word(word) == word
    assert unicodedata.is_normalized("NFC", word) and word == word.lower().strip()
    assert not set(word) & set("ǄǅǆǇǈǉǊǋǌǱǲǳ")


@pytest.mark.parametrize(("typed_text", "key"), [
    ("ǉubav", "љубав"), ("Ǉubav", "љубав"), ("ǈubav", "љубав"), ("ǆep", "џеп"),
    ("ǅep", "џеп"), ("ǋiva", "њива"), ("ǌiva", "њива"), ("ǊIVA", "њива"), ("ǄEP", "џеп")])
def test_digraph_letters_are_their_two_letters(typed_text: str, key: str) -> None:
    assert KV.readings(clean_word(typed_text))[0].key == key


def test_digraph_letters_in_polish_are_two_tiles() -> None:
    assert normalise("ǳwon") == "dzwon" and OSPS.key_of(clean_word("ǲwon")) == "dzwon"


@pytest.mark.parametrize(("game", "text"), [("kvizovka", "|"), ("osps", "||"),
                                            ("krizemkrazem", "| |")])
def test_a_word_of_breaks_only_is_empty(game: str, text: str) -> None:
    with pytest.raises(InputError) as err:
        speller(profiles.load(game)).readings(clean_word(text))
    assert err.value.code == "empty_word"
