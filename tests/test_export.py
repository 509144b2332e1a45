"""`lexicon export`: the words a game plays, as words / tiles / jsonl / KWG.

The KWG is read back by a reader written here from the published layout (node = tile
<< 24 | accepts << 23 | last sibling << 22 | arc index; node 0 the DAWG root, node 1 the
GADDAG root, tile 0 the separator), not with the writer's code, and must give back exactly
the `words` export: from the DAWG, and from the GADDAG at every anchor of every word.
"""

from __future__ import annotations

import hashlib
import json
import struct
import unicodedata
from pathlib import Path

import pytest
from click.testing import Result
from conftest import KVIZOVKA_RECORDS, POLISH_RECORDS, publish, rec
from typer.testing import CliRunner

from cli.main import app
from lexicon import checker
from lexicon.catalog import Catalog
from lexicon.errors import InputError, UnknownRelease
from lexicon.export import export, quackle_hash
from lexicon.kwg import tile_numbers
from lexicon.profile import load

EXTRA_POLISH = [
    rec("a", category="conj"),                        # 1 letter: too short for osps
    rec("konstantynopolitańczykowianeczka"),          # 32 letters: too long
    rec("quiz"),                                      # q is no Polish tile
    rec("kota", tags="subst:sg:gen:m2", category="noun"),
    rec("kotami", tags="subst:pl:inst:m2", category="noun"),
    rec("akt", category="noun"),
    rec("kat", category="noun"),
]


@pytest.fixture()
def releases(home: Path) -> Path:
    publish(home, "osps", POLISH_RECORDS + EXTRA_POLISH)
    publish(home, "kvizovka", [*KVIZOVKA_RECORDS, rec("бор", word="bor", category="noun")])
    publish(home, "krizemkrazem", [rec("whisky", category="noun"), rec("hiša"),
                                   rec("wxyqw"), rec("wxyqwwxyqwwxy")])
    return home


def run(home: Path, *args: str) -> Result:
    """The CLI in-process (a subprocess per call would cost a second each)."""
    return CliRunner().invoke(app, list(args), env={"LEXICON_HOME": str(home)})


def lines(home: Path, *args: str) -> list[str]:
    p = run(home, "export", *args)
    assert p.exit_code == 0, p.output
    return p.stdout.splitlines()


def test_words_are_the_playable_valid_keys_sorted(releases: Path) -> None:
    words = lines(releases, "osps")
    assert words == sorted(["akt", "gęślą", "jaźń", "kat", "kot", "kota", "kotami", "ul",
                            "zażółć"])
    cat = Catalog(releases)
    assert all(r["valid"] for r in checker.check_many(cat, "osps", words))
    # Kvizovka in Cyrillic (one letter a tile), 3-letter words for the board's edge included
    assert lines(releases, "kvizovka") == ["бор", "кућа", "надживети", "љубав", "џеп"]
    # a word needing more jokers than the game has is not playable
    assert lines(releases, "krizemkrazem") == ["hiša", "whisky", "wxyqw"]


def test_tiles_and_jsonl(releases: Path) -> None:
    assert lines(releases, "kvizovka", "--format", "tiles")[3] == "LJ U B A V"
    rows = [json.loads(x) for x in lines(releases, "kvizovka", "--format", "jsonl")]
    assert rows[3] == {"word": "љубав", "display": "ljubav", "tiles": ["LJ", "U", "B", "A", "V"],
                       "score": 9, "category": "noun"}
    row = json.loads(lines(releases, "osps", "--format", "jsonl")[-1])
    assert row["word"] == "zażółć" and row["score"] == 21 and row["category"] == "verb"


def test_output_file_and_errors(releases: Path, tmp_path: Path) -> None:
    out = tmp_path / "osps.txt"
    p = run(releases, "export", "osps", "--output", str(out))
    assert p.exit_code == 0, p.output
    assert json.loads(p.output)["words"] == 9
    assert out.read_text(encoding="utf-8").splitlines()[0] == "akt"
    assert not list(tmp_path.glob(".*.tmp"))
    p = run(releases, "export", "osps", "--format", "pdf")
    assert p.exit_code == 2 and "bad_format" in p.output
    p = run(releases, "export", "osps", "--format", "kwg")
    assert p.exit_code == 2 and "output_required" in p.output
    p = run(releases, "export", "osps", "--release", "osps-19990101T000000Z-00000000")
    assert p.exit_code == 2 and "unknown_release" in p.output
    cat = Catalog(releases)
    with pytest.raises(UnknownRelease):
        cat.release("osps", "../kvizovka")
    with pytest.raises(InputError):
        export(load("osps"), cat.release("osps"), "xml", None)


# -- an independent KWG reader ---------------------------------------------------------

def read_kwg(path: Path) -> list[int]:
    data = path.read_bytes()
    assert len(data) % 4 == 0
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def siblings(nodes: list[int], p: int) -> list[tuple[int, bool, int]]:
    """(tile, accepts, arc) of the sibling list starting at node p."""
    out = []
    while p:
        n = nodes[p]
        out.append((n >> 24, bool(n >> 23 & 1), n & 0x3FFFFF))
        if n >> 22 & 1:
            break
        p += 1
    return out


def dawg_words(nodes: list[int], p: int, prefix: tuple[int, ...] = ()) -> set[tuple[int, ...]]:
    found = set()
    for tile, accepts, arc in siblings(nodes, p):
        word = (*prefix, tile)
        if accepts:
            found.add(word)
        found |= dawg_words(nodes, arc, word)
    return found


def gaddag_paths(nodes: list[int], p: int, rev: tuple[int, ...] = ()
                 ) -> set[tuple[tuple[int, ...], int]]:
    """(word, anchor) for every GADDAG path: ``rev`` read right to left, then after the
    separator the DAWG read forwards."""
    found = set()
    for tile, accepts, arc in siblings(nodes, p):
        if tile == 0:
            left = tuple(reversed(rev))
            found |= {(left + rest, len(left)) for rest in dawg_words(nodes, arc)}
            continue
        path = (*rev, tile)
        if accepts:
            found.add((tuple(reversed(path)), len(path)))
        found |= gaddag_paths(nodes, arc, path)
    return found


@pytest.mark.parametrize("game", ["osps", "kvizovka", "krizemkrazem"])
def test_kwg_dawg_and_gaddag_hold_exactly_the_words(releases: Path, tmp_path: Path,
                                                    game: str) -> None:
    out = tmp_path / f"{game}.kwg"
    p = run(releases, "export", game, "--format", "kwg", "--output", str(out))
    assert p.exit_code == 0, p.output
    alphabet = [line.split("\t")[0] for line in
                (tmp_path / f"{game}.alphabet.txt").read_text(encoding="utf-8").splitlines()]
    assert alphabet[0] == "?"
    profile = load(game)
    number = {t.canonical: i for i, t in enumerate(profile.tiles, 1)}
    assert alphabet[1:] == [t.letter for t in profile.tiles]
    expected = {tuple(number[c] for c in w) for w in lines(releases, game)}
    nodes = read_kwg(out)
    assert nodes[0] >> 22 & 1 and nodes[1] >> 22 & 1      # the two roots
    assert dawg_words(nodes, nodes[0] & 0x3FFFFF) == expected
    anchors = {(w, i) for w in expected for i in range(1, len(w) + 1)}
    assert gaddag_paths(nodes, nodes[1] & 0x3FFFFF) == anchors


def test_dawg_only_kwg_has_one_root(releases: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.kwg"
    p = run(releases, "export", "osps", "--format", "kwg", "--dawg-only", "-o", str(out))
    assert p.exit_code == 0, p.output
    nodes = read_kwg(out)
    number = tile_numbers(load("osps"))
    assert dawg_words(nodes, nodes[0] & 0x3FFFFF) == {
        tuple(number[c] for c in w) for w in lines(releases, "osps")}
    # node 1 is an ordinary DAWG node, not a second root list of its own
    assert len(nodes) < len(read_kwg_of(releases, tmp_path, "osps"))


def read_kwg_of(home: Path, tmp_path: Path, game: str) -> list[int]:
    out = tmp_path / f"{game}-full.kwg"
    assert run(home, "export", game, "--format", "kwg", "-o", str(out)).exit_code == 0
    return read_kwg(out)


def test_kvizovka_digraphs_are_single_tiles_in_the_kwg(releases: Path, tmp_path: Path) -> None:
    out = tmp_path / "k.kwg"
    run(releases, "export", "kvizovka", "--format", "kwg", "-o", str(out))
    nodes = read_kwg(out)
    alphabet = (tmp_path / "k.alphabet.txt").read_text(encoding="utf-8").splitlines()
    letter = {i: row.split("\t")[0] for i, row in enumerate(alphabet)}
    words = {"".join(letter[t] + "·" for t in w) for w in dawg_words(nodes, nodes[0] & 0x3FFFFF)}
    assert "LJ·U·B·A·V·" in words and "DŽ·E·P·" in words


def test_dawg_shares_suffixes(releases: Path, tmp_path: Path) -> None:
    """kat and akt end the same way as kot: a minimal DAWG stores the tail once."""
    publish(releases, "osps", [rec(w) for w in ("kat", "kot", "lat", "lot", "mat", "mot")])
    out = tmp_path / "o.kwg"
    run(releases, "export", "osps", "--format", "kwg", "-o", str(out))
    nodes = read_kwg(out)
    number = tile_numbers(load("osps"))
    assert dawg_words(nodes, nodes[0] & 0x3FFFFF) == {
        tuple(number[c] for c in w) for w in ("kat", "kot", "lat", "lot", "mat", "mot")}
    # root list (k, l, m) + one shared (a, o) list + one shared (t) list in the DAWG part
    root = siblings(nodes, nodes[0] & 0x3FFFFF)
    assert len({arc for _, _, arc in root}) == 1


def test_quackle_hash_is_the_xor_of_md5_digests_of_nfc_words() -> None:
    def md5(w: str) -> int:
        return int(hashlib.md5(w.encode()).hexdigest(), 16)

    assert quackle_hash(["kot"]) == hashlib.md5(b"kot").hexdigest()
    assert quackle_hash(["kot", "ul"]) == quackle_hash(["ul", "kot"]) == \
        f"{md5('kot') ^ md5('ul'):032x}"
    assert quackle_hash([unicodedata.normalize("NFD", "zażółć")]) == quackle_hash(["zażółć"])
    assert quackle_hash([]) == "0" * 32
