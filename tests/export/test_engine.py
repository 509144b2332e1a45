"""`lexicon export GAME --format engine`: a folder a move generator loads as it is.

What an engine needs and the reviewers found missing: a bag (every tile of the set with a
nonzero count; Križemkražem's counts are estimated and say so), tile numbers in the order
of the stock wolges alphabet where one exists (an engine using its own Slovene alphabet
must read our R as R), Kvizovka's three-tile edge words apart from the inside lexicon, and
the release id and content hash. The lexicon files are read with tests/kwg_reader.py.
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import Result
from conftest import KVIZOVKA_RECORDS, POLISH_RECORDS, publish, rec
from kwg_reader import Reader, WordListReader
from lexicon.cli.main import app
from typer.testing import CliRunner

from lexicon.catalog import Catalog
from lexicon.export.enginepack import estimate_counts
from lexicon.export.export import quackle_hash
from lexicon.game.profile import load

# wolges' stock alphabets (src/alphabets/polish.txt, slovene.txt), first column
WOLGES_POLISH = list("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ")
WOLGES_SLOVENE = list("ABCČDEFGHIJKLMNOPRSŠTUVZŽ")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("engine-home")
    publish(root, "osps", [*POLISH_RECORDS, rec("akt"), rec("kat")])
    publish(root, "remik", [])
    publish(root, "kvizovka", [*KVIZOVKA_RECORDS, rec("бор", word="bor", category="noun"),
                               rec("тон", word="ton", category="noun"),
                               rec("инјекција", word="injekcija", category="noun"),
                               rec("анјон", word="anjon", category="noun")])
    publish(root, "krizemkrazem", [rec("whisky", category="noun"), rec("hiša"),
                                   rec("qwxyw")])
    return root


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"LEXICON_HOME": str(home)})


def pack(home: Path, tmp: Path, game: str) -> tuple[Path, dict]:
    out = tmp / f"{game}-pack"
    p = run(home, "export", game, "--format", "engine", "-o", str(out))
    assert p.exit_code == 0, p.output
    return out, json.loads((out / "pack.json").read_text(encoding="utf-8"))


def distribution(out: Path, game: str) -> list[list[str]]:
    with open(out / f"{game}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def words(home: Path, game: str) -> list[str]:
    p = run(home, "export", game)
    assert p.exit_code == 0, p.output
    return p.stdout.splitlines()


@pytest.mark.parametrize("game", ["osps", "kvizovka", "krizemkrazem"])
def test_every_tile_of_the_set_is_in_the_bag(home: Path, tmp_path: Path, game: str) -> None:
    out, meta = pack(home, tmp_path, game)
    rows = distribution(out, game)
    profile = load(game)
    assert rows[0] == ["?", "?", str(profile.jokers.count), "0", "0"]
    assert [r[0] for r in rows[1:]] == meta["tile_order"] == \
        [t.letter for t in profile.alphabet.engine]
    alphabet = (out / f"{game}.alphabet.txt").read_text(encoding="utf-8").splitlines()
    assert [a.split("\t")[:5] for a in alphabet] == rows     # the same columns, same order
    joker_only = set(profile.jokers.extra_letters)
    for letter, lower, count, score, vowel in rows[1:]:
        assert lower == letter.lower() and vowel in ("0", "1")
        if letter in joker_only:
            assert count == "0" and score == str(profile.jokers.extra_value)
        else:
            assert int(count) > 0, f"{game}: {letter} has no tiles in the bag"
            assert int(score) > 0
    if profile.total_tiles:
        assert sum(int(r[2]) for r in rows[1:]) == profile.total_tiles
    assert meta["counts_provisional"] is (game == "krizemkrazem")
    assert ("PROVISIONAL: tile counts" in (out / "README.txt").read_text()) is \
        (game == "krizemkrazem")


def test_tile_order_follows_the_stock_wolges_alphabet(home: Path, tmp_path: Path) -> None:
    _, osps = pack(home, tmp_path, "osps")
    assert osps["tile_order"] == WOLGES_POLISH and osps["stock_alphabet"] == "polish"
    _, kk = pack(home, tmp_path, "krizemkrazem")
    order = kk["tile_order"]
    assert [x for x in order if x not in "QWXY"] == WOLGES_SLOVENE
    # the foreign letters in alphabetical place: Q after P, W X Y after V
    assert order[order.index("P") + 1] == "Q" and order[order.index("V") + 1:][:3] == \
        ["W", "X", "Y"]
    # and the lexicon really is numbered so: R is tile 19, not Q
    reader = Reader.open(tmp_path / "krizemkrazem-pack" / "krizemkrazem.kwg")
    number = {letter: i for i, letter in enumerate(order, 1)}
    got = set(reader.dawg_words(reader.root(0)))
    assert bytes(number[c] for c in "HIŠA") in got
    assert bytes(number[c] for c in "QWXYW") in got and number["R"] == 19


def test_kvizovka_edge_words_are_apart(home: Path, tmp_path: Path) -> None:
    out, meta = pack(home, tmp_path, "kvizovka")
    order = meta["tile_order"]
    number = {t.canonical: i for i, t in enumerate(load("kvizovka").alphabet.engine, 1)}
    all_words = words(home, "kvizovka")
    main = Reader.open(out / "kvizovka.kwg")
    edge = Reader.open(out / "kvizovka-edge.kwg")
    inside = set(main.dawg_words(main.root(0)))
    at_edge = set(edge.dawg_words(edge.root(0)))
    assert inside == {bytes(number[c] for c in w) for w in all_words if len(w) >= 4}
    assert at_edge == {bytes(number[c] for c in w) for w in all_words if len(w) == 3}
    assert at_edge and all(len(w) == 3 for w in at_edge)
    assert len(list(edge.gaddag_paths(edge.root(1)))) == 3 * len(at_edge)
    assert (out / "kvizovka-edge.txt").read_text(encoding="utf-8").splitlines() == \
        ["бор", "тон", "џеп"]       # džep: three tiles, the edge only; as `words` writes it
    assert meta["lexicons"]["kvizovka-edge.kwg"]["lengths"] == [3, 3]
    assert meta["lexicons"]["kvizovka.kwg"]["lengths"] == [4, 17]
    assert any("Edge words" in r and "vertically" in r for r in meta["rules"])
    assert ["LJ", "lj", "2", "3", "0"] in distribution(out, "kvizovka")   # one row a tile
    assert order.index("LJ") == order.index("L") + 1


def test_a_longest_tile_first_reader_gets_exactly_the_kvizovka_words(
        home: Path, tmp_path: Path) -> None:
    """wolges reads a word list longest tile first, never going back: with the pack's
    alphabet file (Cyrillic and one-code-point digraphs as alias labels) the `words`
    export and the pack's edge list read back as exactly the words of its two KWGs; the
    Latin spelling, which the pack never ships, is misread for N+J and D+Ž."""
    out, meta = pack(home, tmp_path, "kvizovka")
    alphabet = (out / "kvizovka.alphabet.txt").read_text(encoding="utf-8")
    reader = WordListReader(alphabet)
    main = Reader.open(out / "kvizovka.kwg")
    edge = Reader.open(out / "kvizovka-edge.kwg")
    in_graphs = set(main.dawg_words(main.root(0))) | set(edge.dawg_words(edge.root(0)))
    listed = words(home, "kvizovka")
    assert {reader.word(w) for w in listed} == in_graphs and len(listed) == len(in_graphs)
    edge_list = (out / "kvizovka-edge.txt").read_text(encoding="utf-8").splitlines()
    assert {reader.word(w) for w in edge_list} == set(edge.dawg_words(edge.root(0)))
    number = {letter: i for i, letter in enumerate(meta["tile_order"], 1)}
    assert reader.word("инјекција") == bytes(number[t] for t in
                                             ["I", "N", "J", "E", "K", "C", "I", "J", "A"])
    assert reader.word("ǉubav") == reader.word("љубав") == reader.word("ǇUBAV")
    # the trap the alias labels avoid: Latin N+J and D+Ž read as the tiles NJ and DŽ
    assert reader.word("injekcija") != reader.word("инјекција")
    assert reader.word("nadživeti") != reader.word("надживети")
    assert reader.word("nadživeti") not in in_graphs
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "longest label first" in readme and "alias" in readme
    assert "wolges' own decoder" in readme and "never" not in readme.split("KWG files")[1][:80]


def test_pack_names_its_release_and_hashes(home: Path, tmp_path: Path) -> None:
    out, meta = pack(home, tmp_path, "kvizovka")
    cat = Catalog(home)
    release = cat.release("kvizovka")
    assert meta["release"] == release.id
    assert meta["release_content_hash"] == release.manifest.get("content_hash")
    cat.close()
    listed = words(home, "kvizovka")
    assert meta["content_hash"] == quackle_hash(listed) and meta["words"] == len(listed)
    lex = meta["lexicons"]
    assert lex["kvizovka.kwg"]["words"] + lex["kvizovka-edge.kwg"]["words"] == len(listed)
    for name, f in meta["files"].items():
        data = (out / name).read_bytes()
        assert f["bytes"] == len(data) and f["sha256"] == hashlib.sha256(data).hexdigest()
    assert set(meta["files"]) | {"pack.json"} == {p.name for p in out.iterdir()}
    assert "README.txt" in meta["files"]
    assert meta["release"] in (out / "README.txt").read_text(encoding="utf-8")


def test_boards(home: Path, tmp_path: Path) -> None:
    out, _ = pack(home, tmp_path, "osps")
    b = json.loads((out / "board.json").read_text(encoding="utf-8"))
    rows = b["premiums"]
    assert b["size"] == 15 == len(rows) and all(len(r) == 15 for r in rows)
    assert b["start"] == "H8" and rows[7][7] == "-" and not b["premiums_provisional"]
    assert rows == rows[::-1] and all(r == r[::-1] for r in rows)          # symmetric
    assert ["".join(col) for col in zip(*rows, strict=True)] == rows      # and transposed
    assert sum(r.count("=") for r in rows) == 8 and sum(r.count("-") for r in rows) == 17
    assert sum(r.count('"') for r in rows) == 12 and sum(r.count("'") for r in rows) == 24
    out, _ = pack(home, tmp_path, "kvizovka")
    b = json.loads((out / "board.json").read_text(encoding="utf-8"))
    assert b["size"] == 17 and b["premiums"] is None and b["premiums_provisional"]


def test_osps_pack_takes_the_big_kwg_when_the_kwg_cannot_hold_it(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lexicon.export import kwg
    monkeypatch.setattr(kwg, "MAX_NODES", 8)
    out, meta = pack(home, tmp_path, "osps")
    assert not (out / "osps.kwg").exists()
    assert meta["lexicons"]["osps.kbwg"]["format"] == "kbwg"
    reader = Reader.open(out / "osps.kbwg")
    number = {letter: i for i, letter in enumerate(meta["tile_order"], 1)}
    assert set(reader.dawg_words(reader.root(0))) == {
        bytes(number[c.upper()] for c in w) for w in words(home, "osps")}
    assert "big KWG" in (out / "README.txt").read_text(encoding="utf-8")


def test_no_pack_without_a_distribution(home: Path, tmp_path: Path) -> None:
    p = run(home, "export", "remik", "--format", "engine", "-o", str(tmp_path / "r"))
    assert p.exit_code == 3 and "no_distribution" in p.output
    p = run(home, "export", "osps", "--format", "engine")
    assert p.exit_code == 2 and "output_required" in p.output


def test_estimated_counts_follow_the_letters_and_give_every_tile_one() -> None:
    profile = load("krizemkrazem")
    counts = estimate_counts(profile, ["aaaa", "aab", "kača"], 222)
    tiles = [t.letter for t in profile.alphabet.engine if not t.joker_only]
    assert list(counts) == tiles and sum(counts.values()) == 222
    assert min(counts.values()) == 1 and counts["A"] > counts["B"] > counts["Ž"] == 1
    assert counts["A"] == max(counts.values())
    with pytest.raises(ValueError):
        estimate_counts(profile, ["a"], 10)


def test_krizemkrazem_counts_are_what_the_stated_estimate_gives() -> None:
    """The profile's provisional counts are reproducible from what its note names."""
    from tools.estimate_counts import labelled_words
    sample = Path(__file__).parents[1] / "data" / "krizemkrazem" / "labelled_sample.tsv"
    profile = load("krizemkrazem")
    words = labelled_words(sample)
    assert len(words) == 338 and sum(map(len, words)) == 3025
    assert "338 forms" in profile.engine.counts_note and profile.engine.counts_provisional
    assert estimate_counts(profile, words, 222) == {
        t.letter: t.count for t in profile.alphabet.engine if not t.joker_only}
