"""`lexicon export`: the words a game plays, as words / tiles / jsonl / KWG / big KWG.

The KWG and the big KWG are read back by tests/kwg_reader.py, written from wolges'
published layouts (Node: tile << 24 | accepts << 23 | end << 22 | arc; Node24: arc << 8 |
accepts << 7 | end << 6 | tile; node 0 the DAWG root, node 1 the GADDAG root, tile 0 the
separator), not with the writer's code, and must give back exactly the `words` export:
from the DAWG, and from the GADDAG at every anchor of every word.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import unicodedata
from pathlib import Path

import pytest
from click.testing import Result
from conftest import KVIZOVKA_RECORDS, POLISH_RECORDS, SmallHomes, publish, rec
from kwg_reader import Reader
from lexicon.cli.main import app
from typer.testing import CliRunner

from lexicon.catalog import Catalog
from lexicon.errors import InputError, UnknownRelease
from lexicon.export.export import export, quackle_hash
from lexicon.game.profile import load

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
def releases(home: Path, small_homes: SmallHomes) -> Path:
    """A copy in each test's home of the three games' small releases."""
    return small_homes("export", home, make=_publish)


def _publish(home: Path) -> None:
    publish(home, "osps", POLISH_RECORDS + EXTRA_POLISH)
    publish(home, "kvizovka", [*KVIZOVKA_RECORDS, rec("бор", word="bor", category="noun")])
    publish(home, "krizemkrazem", [rec("whisky", category="noun"), rec("hiša"),
                                   rec("wxyqw"), rec("wxyqwwxyqwwxy")])


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
    assert all(r["valid"] for r in cat.lexicon("osps").check_many(words))
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


# -- the KWG read back by an independent reader (tests/kwg_reader.py) -------------------

def expected_tiles(home: Path, game: str) -> set[bytes]:
    """The `words` export as tile-number strings, numbered as the stock alphabet would."""
    number = {t.canonical: i for i, t in enumerate(load(game).alphabet.engine, 1)}
    return {bytes(number[c] for c in w) for w in lines(home, game)}


@pytest.mark.parametrize("fmt", ["kwg", "kbwg"])
@pytest.mark.parametrize("game", ["osps", "kvizovka", "krizemkrazem"])
def test_kwg_dawg_and_gaddag_hold_exactly_the_words(releases: Path, tmp_path: Path,
                                                    game: str, fmt: str) -> None:
    out = tmp_path / f"{game}.{fmt}"
    p = run(releases, "export", game, "--format", fmt, "--output", str(out))
    assert p.exit_code == 0, p.output
    assert json.loads(p.output.splitlines()[-1])["format"] == fmt
    alphabet = [line.split("\t")[0] for line in
                (tmp_path / f"{game}.alphabet.txt").read_text(encoding="utf-8").splitlines()]
    assert alphabet[0] == "?"
    assert alphabet[1:] == [t.letter for t in load(game).alphabet.engine]
    expected = expected_tiles(releases, game)
    reader = Reader.open(out)
    dawg = list(reader.dawg_words(reader.root(0)))
    assert dawg == sorted(expected)                 # exactly the words, in tile order
    anchors = {(w, i) for w in expected for i in range(1, len(w) + 1)}
    paths = list(reader.gaddag_paths(reader.root(1)))
    assert len(paths) == len(anchors) and set(paths) == anchors


def test_the_two_layouts_differ_only_in_the_node_encoding(releases: Path,
                                                          tmp_path: Path) -> None:
    small, big = tmp_path / "o.kwg", tmp_path / "o.kbwg"
    run(releases, "export", "osps", "--format", "kwg", "-o", str(small))
    run(releases, "export", "osps", "--format", "kbwg", "-o", str(big))
    a = struct.unpack(f"<{small.stat().st_size // 4}I", small.read_bytes())
    b = struct.unpack(f"<{big.stat().st_size // 4}I", big.read_bytes())
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):             # Node -> Node24, field by field
        assert (x >> 24, x >> 23 & 1, x >> 22 & 1, x & 0x3FFFFF) == \
            (y & 0x3F, y >> 7 & 1, y >> 6 & 1, y >> 8)
    assert a != b


def test_too_large_for_the_kwg_points_at_the_big_kwg(releases: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A lexicon past the KWG's arc index (Polish: ~4.9M nodes) fails with the way out;
    the big KWG takes it. The limit is lowered to the tiny lexicon's size."""
    from lexicon.export import kwg
    size = len(Reader.open(kwg_file(releases, tmp_path, "osps", "kwg")).tile)
    monkeypatch.setattr(kwg, "MAX_NODES", size - 1)
    p = run(releases, "export", "osps", "--format", "kwg", "-o", str(tmp_path / "x.kwg"))
    assert p.exit_code == 3 and "kwg_too_large" in p.output and "--format kbwg" in p.output
    assert not (tmp_path / "x.kwg").exists()
    assert run(releases, "export", "osps", "--format", "kbwg",
               "-o", str(tmp_path / "x.kbwg")).exit_code == 0
    monkeypatch.setattr(kwg, "MAX_BIG_NODES", size - 1)
    p = run(releases, "export", "osps", "--format", "kbwg", "-o", str(tmp_path / "y.kbwg"))
    assert p.exit_code == 3 and "kwg_too_large" in p.output and "--dawg-only" in p.output


def _forget_counts(home: Path) -> None:
    """Drop every KWG node count kept in ``home`` (:mod:`lexicon.export.kwgfigures`): the
    next export counts as it builds the graph."""
    shutil.rmtree(home / "cache" / "kwg", ignore_errors=True)


def test_a_kwg_too_large_fails_as_soon_as_that_is_known(releases: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A release with no node count kept is counted as the graph is built, and the build
    stops the moment the count passes the format's limit: with a limit the
    DAWG alone passes, the GADDAG is never started; with one only the GADDAG passes, it
    stops before its end and nothing is laid out or encoded. Either way the message
    points at the big KWG and the DAWG alone."""
    from lexicon.catalog import Catalog
    from lexicon.export import kwg
    from lexicon.game import profile as profiles

    profile = profiles.load("osps")
    cat = Catalog(releases)
    try:
        release = cat.release("osps")
        said: list[str] = []
        dawg_only = kwg.export_kwg(profile, release, tmp_path / "d.kwg", said.append,
                                   gaddag=False)["nodes"]
        full = len(Reader.open(kwg_file(releases, tmp_path, "osps", "kwg")).tile)
        for limit, stage in ((dawg_only - 2, "dawg"), (dawg_only + 2, "gaddag"),
                             (full - 1, "gaddag")):
            monkeypatch.setattr(kwg, "MAX_NODES", limit)
            said.clear()
            _forget_counts(releases)
            with pytest.raises(kwg.KwgTooLarge) as err:
                kwg.export_kwg(profile, release, tmp_path / "x.kwg", said.append)
            assert err.value.detail["stage"] == stage and err.value.detail["at_least"]
            assert err.value.detail["counted"] == "export"
            assert "--format kbwg" in err.value.message
            assert "--dawg-only" in err.value.message
            assert f"more than {limit:,} nodes" in err.value.message
            made = [m.split(":")[0] for m in said]
            assert made == ["osps", "dawg"][:1 if stage == "dawg" else 2], said
            assert not (tmp_path / "x.kwg").exists()
    finally:
        cat.close()


class _Work:
    """What an export did before it answered: the words it read, the graph states it
    made and the GADDAG entries it generated (the real functions, counted)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from lexicon.export import kwg

        self.words = self.states = self.entries = 0
        encode, make_state, entries = kwg.encode_words, kwg._StateMaker.make_state, \
            kwg.gaddag_entries

        def counted_encode(*a: object) -> list[bytes]:
            out = encode(*a)  # type: ignore[arg-type]
            self.words += len(out)
            return out

        def counted_state(sm: object, *a: object) -> int:
            before = len(sm.tile)  # type: ignore[attr-defined]
            head = make_state(sm, *a)  # type: ignore[arg-type]
            self.states += len(sm.tile) - before  # type: ignore[attr-defined]
            return head

        def counted_entries(*a: object) -> object:
            for entry in entries(*a):  # type: ignore[arg-type]
                self.entries += 1
                yield entry

        monkeypatch.setattr(kwg, "encode_words", counted_encode)
        monkeypatch.setattr(kwg._StateMaker, "make_state", counted_state)
        monkeypatch.setattr(kwg, "gaddag_entries", counted_entries)


def _count(home: Path, game: str) -> dict[str, dict[str, int]]:
    """Count ``game``'s KWG nodes as a build does once it has published
    (:func:`lexicon.export.kwg.count_release`), and keep them in ``home``."""
    from lexicon.export import kwg

    cat = Catalog(home)
    try:
        return kwg.count_release(load(game), cat.release(game))
    finally:
        cat.close()


def test_the_kept_count_is_the_nodes_each_kwg_export_writes(releases: Path,
                                                            tmp_path: Path) -> None:
    """The count a build keeps is made with the export's own builder: exactly the nodes
    of the `kwg` and the `--dawg-only` files."""
    for game in ("osps", "kvizovka", "krizemkrazem"):
        figure = _count(releases, game)
        _forget_counts(releases)       # the exports below count again on their own
        assert figure["kwg"]["nodes"] == len(Reader.open(kwg_file(releases, tmp_path, game,
                                                                  "kwg")).tile), game
        assert figure["dawg_only"]["nodes"] == len(Reader.open(kwg_file(
            releases, tmp_path, game, "kwg", "--dawg-only")).tile), game


def test_a_build_counts_each_game_once_every_game_is_published(home: Path) -> None:
    """`lexicon build` counts the KWG nodes of every game it published, after the last one
    (no game waits for a count), and keeps them where the exports look."""
    from conftest import StaticBuilder
    from lexicon.build.pipeline import BuildContext
    from lexicon.build.plan import build_games

    from lexicon.export import kwgfigures

    said: list[str] = []
    ctx = BuildContext(root=home, log=said.append)
    build_games(["osps", "kvizovka"], ctx, factor=lambda: 1.0, say=lambda _m: None,
                builders={"osps": StaticBuilder("osps", POLISH_RECORDS),
                          "kvizovka": StaticBuilder("kvizovka", KVIZOVKA_RECORDS)})
    published = [i for i, m in enumerate(said) if "published in" in m]
    counted = [i for i, m in enumerate(said) if "KWG nodes counted" in m]
    assert len(published) == 2 and len(counted) == 2 and max(published) < min(counted)
    cat = Catalog(home)
    try:
        for game in ("osps", "kvizovka"):
            nodes = kwgfigures.known_nodes(load(game), cat.release(game), gaddag=True)
            assert nodes is not None and nodes[0] > 2 and not nodes[1]
    finally:
        cat.close()


@pytest.mark.parametrize("fmt", ["kwg", "kbwg"])
def test_a_release_too_large_for_the_format_is_refused_before_a_word_is_read(
        releases: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """Once the release's nodes are counted, an export in a format that cannot hold them
    is refused before any work: no word read, no state made, no GADDAG entry generated
    (the format's limit lowered below the tiny lexicon's count). The message names the
    count, where it comes from and the way out."""
    from lexicon.export import kwg

    size = _count(releases, "osps")["kwg"]["nodes"]
    monkeypatch.setattr(kwg, "MAX_BIG_NODES" if fmt == "kbwg" else "MAX_NODES", size - 1)
    work = _Work(monkeypatch)
    p = run(releases, "export", "osps", "--format", fmt, "-o", str(tmp_path / f"x.{fmt}"))
    assert p.exit_code == 3 and "kwg_too_large" in p.output, p.output
    assert (work.words, work.states, work.entries) == (0, 0, 0)
    assert f"{size:,} nodes (counted once for this release)" in p.output
    assert "--dawg-only" in p.output
    assert ("--format kbwg" in p.output) == (fmt == "kwg")
    assert not (tmp_path / f"x.{fmt}").exists()
    # the DAWG alone still fits: its own count says so, and it is written
    assert run(releases, "export", "osps", "--format", fmt, "--dawg-only",
               "-o", str(tmp_path / f"d.{fmt}")).exit_code == 0
    assert work.words and work.states and not work.entries


def test_an_export_that_counted_keeps_what_it_found(releases: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With no count kept, the first export counts as it builds and stops at the limit;
    it keeps that, so the second is refused before a word is read."""
    from lexicon.export import kwg

    size = len(Reader.open(kwg_file(releases, tmp_path, "osps", "kwg")).tile)
    _forget_counts(releases)
    monkeypatch.setattr(kwg, "MAX_NODES", size - 1)
    work = _Work(monkeypatch)
    first = run(releases, "export", "osps", "--format", "kwg", "-o", str(tmp_path / "x.kwg"))
    assert first.exit_code == 3 and "stopped counting there" in first.output, first.output
    assert work.words and work.entries
    work.words = work.states = work.entries = 0
    again = run(releases, "export", "osps", "--format", "kwg", "-o", str(tmp_path / "x.kwg"))
    assert again.exit_code == 3 and "counted once for this release" in again.output
    assert (work.words, work.states, work.entries) == (0, 0, 0)


def test_a_count_of_another_recipe_or_tile_order_is_not_believed(releases: Path) -> None:
    """The count holds for the builder and the tile numbering it was made with: a figure
    counted another way, or for another order, is not read (the export counts), and a
    count stopped at the cap is a lower bound past it."""
    from lexicon.export import kwgfigures

    profile = load("osps")
    figure = _count(releases, "osps")
    kept = releases / "cache" / "kwg"
    path = next(kept.iterdir())
    saved = json.loads(path.read_text(encoding="utf-8"))
    cat = Catalog(releases)
    try:
        release = cat.release("osps")
        assert kwgfigures.known_nodes(profile, release, gaddag=True) == \
            (figure["kwg"]["nodes"], False)
        for changed in ({"recipe": kwgfigures.RECIPE + 1}, {"tiles": "B A"}):
            path.write_text(json.dumps({**saved, **changed}), encoding="utf-8")
            assert kwgfigures.known_nodes(profile, release, gaddag=True) is None
        path.write_text(json.dumps({**saved, "kwg": {"more_than": 99}}), encoding="utf-8")
        assert kwgfigures.known_nodes(profile, release, gaddag=True) == (100, True)
        assert kwgfigures.known_nodes(profile, release, gaddag=False) == \
            (figure["dawg_only"]["nodes"], False)
    finally:
        cat.close()


#: sibling lists (b t w z), (c t w z), (d t w z) that share the tail (t w z) but are no
#: tails of each other: the layout writes that tail after each of them
SHARED_TAILS = ["kab", "kat", "kaw", "kaz", "mac", "mat", "maw", "maz", "lad", "lat", "law",
                "laz"]


def test_the_build_counts_the_nodes_the_layout_writes(releases: Path) -> None:
    """The count the build keeps as it makes states is the laid-out file's size, copies of
    shared tails included, for every game's words and for lists made to share tails."""
    from lexicon.export import kwg
    from lexicon.export.playable import valid_keys
    from lexicon.game import profile as profiles

    cat = Catalog(releases)
    try:
        sets = [kwg.encode_words(profiles.load(g), valid_keys(profiles.load(g), cat.release(g)))
                for g in ("osps", "kvizovka", "krizemkrazem")]
    finally:
        cat.close()
    sets.append(kwg.encode_words(profiles.load("osps"), SHARED_TAILS))
    for words in sets:
        for gaddag in (True, False):
            graph = kwg.Graph(words, gaddag=gaddag)
            assert graph.size == len(graph.roots) + graph.sm.nodes


def test_a_kwg_over_the_limit_only_by_its_copies_fails_before_the_layout(
        releases: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lexicon whose distinct states fit but whose copies of shared tails do not (as the
    Polish GADDAG: 4.1M states, 4.9M nodes) is refused while the graph is built (no count
    kept): nothing laid out or encoded, the way out named. (A count of states alone, with
    one node for each copy, would pass this one and find it too large only once it was
    laid out.)"""
    from lexicon.export import kwg

    publish(releases, "osps", [rec(w) for w in SHARED_TAILS])
    size = len(Reader.open(kwg_file(releases, tmp_path, "osps", "kwg")).tile)
    laid_out: list[int] = []
    real_layout = kwg._layout
    monkeypatch.setattr(kwg, "_layout", lambda *a: laid_out.append(1) or real_layout(*a))
    monkeypatch.setattr(kwg, "MAX_NODES", size - 1)
    _forget_counts(releases)
    p = run(releases, "export", "osps", "--format", "kwg", "-o", str(tmp_path / "x.kwg"))
    assert p.exit_code == 3 and "kwg_too_large" in p.output and "--format kbwg" in p.output
    assert f"more than {size - 1:,} nodes" in p.output
    assert not laid_out
    assert not (tmp_path / "x.kwg").exists()


def kwg_file(home: Path, tmp_path: Path, game: str, fmt: str, *extra: str) -> Path:
    out = tmp_path / f"{game}-{fmt}{'-'.join(extra)}.{fmt}"
    p = run(home, "export", game, "--format", fmt, "-o", str(out), *extra)
    assert p.exit_code == 0, p.output
    return out


@pytest.mark.parametrize("fmt", ["kwg", "kbwg"])
def test_dawg_only_kwg_has_one_root(releases: Path, tmp_path: Path, fmt: str) -> None:
    reader = Reader.open(kwg_file(releases, tmp_path, "osps", fmt, "--dawg-only"))
    assert set(reader.dawg_words(reader.root(0))) == expected_tiles(releases, "osps")
    # node 1 is an ordinary DAWG node, not a second root list of its own
    assert reader.size < Reader.open(kwg_file(releases, tmp_path, "osps", fmt)).size


def test_kvizovka_digraphs_are_single_tiles_in_the_kwg(releases: Path, tmp_path: Path) -> None:
    out = kwg_file(releases, tmp_path, "kvizovka", "kwg")
    reader = Reader.open(out)
    alphabet = out.with_suffix(".alphabet.txt").read_text(encoding="utf-8").splitlines()
    letter = {i: row.split("\t")[0] for i, row in enumerate(alphabet)}
    words = {"".join(letter[t] + "·" for t in w) for w in reader.dawg_words(reader.root(0))}
    assert "LJ·U·B·A·V·" in words and "DŽ·E·P·" in words


def test_dawg_shares_suffixes(releases: Path, tmp_path: Path) -> None:
    """kat and akt end the same way as kot: a minimal DAWG stores the tail once."""
    publish(releases, "osps", [rec(w) for w in ("kat", "kot", "lat", "lot", "mat", "mot")])
    reader = Reader.open(kwg_file(releases, tmp_path, "osps", "kwg"))
    number = load("osps").alphabet.numbers
    assert set(reader.dawg_words(reader.root(0))) == {
        bytes(number[c] for c in w) for w in ("kat", "kot", "lat", "lot", "mat", "mot")}
    # root list (k, l, m) + one shared (a, o) list + one shared (t) list in the DAWG part
    root = reader.siblings(reader.root(0))
    assert len({arc for _, _, arc in root}) == 1


def test_quackle_hash_is_the_xor_of_md5_digests_of_nfc_words() -> None:
    def md5(w: str) -> int:
        return int(hashlib.md5(w.encode()).hexdigest(), 16)

    assert quackle_hash(["kot"]) == hashlib.md5(b"kot").hexdigest()
    assert quackle_hash(["kot", "ul"]) == quackle_hash(["ul", "kot"]) == \
        f"{md5('kot') ^ md5('ul'):032x}"
    assert quackle_hash([unicodedata.normalize("NFD", "zażółć")]) == quackle_hash(["zażółć"])
    assert quackle_hash([]) == "0" * 32


@pytest.mark.parametrize(("game", "listing"), [("osps", "words"), ("kvizovka", "tiles")])
def test_reader_script_checks_an_export_word_for_word(releases: Path, tmp_path: Path,
                                                      game: str, listing: str) -> None:
    """The check run on the full Polish release (README): DAWG and GADDAG against a list."""
    from kwg_reader import check_file
    out = kwg_file(releases, tmp_path, game, "kbwg")
    listed = tmp_path / f"{game}.txt"
    assert run(releases, "export", game, "--format", listing, "-o", str(listed)).exit_code == 0
    alphabet = out.with_suffix(".alphabet.txt")
    got = check_file(out, listed, alphabet)
    assert got["dawg_equal"] and got["gaddag_equal"] and got["words"] == len(lines(releases, game))
    listed.write_text(listed.read_text(encoding="utf-8").splitlines()[0] + "\n",
                      encoding="utf-8")                 # one word only: both must differ
    got = check_file(out, listed, alphabet)
    assert not got["dawg_equal"] and not got["gaddag_equal"]


def test_the_export_modules_import_one_way() -> None:
    """export picks a writer (kwg, enginepack); the writers take the words and their hash
    from lexicon.export.playable, never from export, and nothing imports inside a function to
    dodge a cycle."""
    import ast

    base = Path(__file__).resolve().parents[2] / "lexicon" / "export"
    modules = ("export", "kwg", "enginepack", "playable")
    imports: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((base / f"{name}.py").read_text(encoding="utf-8"))
        top = set(tree.body)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = ({a.name for a in node.names} if isinstance(node, ast.Import) else
                         {node.module or ""} | {f"{node.module}.{a.name}" for a in node.names})
                local = {m.removeprefix("lexicon.export.") for m in found} & set(modules)
                assert node in top or not local, f"{name} imports {local} inside a function"
                imports.setdefault(name, set()).update(local)
    assert imports["export"] >= {"kwg", "enginepack", "playable"}
    for writer in ("kwg", "enginepack", "playable"):
        assert "export" not in imports.get(writer, set()), writer
    assert not imports.get("playable", set()) & {"kwg", "enginepack"}


def test_the_export_sizes_tool_writes_the_docs_table(releases: Path, tmp_path: Path) -> None:
    """tools.export_sizes runs the real exports in processes of their own and writes the
    engine-formats page's table from them: a row per game, sizes as the files have them."""
    from tools import export_sizes
    from tools.figures import load

    assert export_sizes.main(["--home", str(releases), "--games", "osps", "kvizovka",
                              "--figures", str(tmp_path / "fig")]) == 0
    table = load("engine-exports", tmp_path / "fig")
    assert [r[0] for r in table["rows"]] == ["osps", "kvizovka"]
    osps = table["figures"][0]
    assert osps["kwg"]["exit"] == 0 and "kbwg" not in osps
    assert osps["kwg"]["nodes"] == len(Reader.open(kwg_file(releases, tmp_path, "osps",
                                                             "kwg")).tile)
    assert osps["words"] == len(lines(releases, "osps", "--format", "words"))
    assert table["rows"][0][2].startswith(f"{osps['kwg']['bytes'] / 1e6:.1f} MB")
