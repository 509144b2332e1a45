"""The maintainer's audit (``lexicon audit``) on a small real osps release: the draw is
seeded and stratified, the estimates match a hand computation, ``compare`` counts the
right shares, and ``apply`` + ``amend`` give a release whose verdicts follow the labels."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from lexicon.build.amend import derive, read_overrides

from lexicon import InputError, Lexicon
from lexicon import open as open_lexicon
from lexicon.audit import sheets
from lexicon.audit.classes import evidence_class
from lexicon.audit.draw import draw
from lexicon.audit.estimate import wilson
from lexicon.store.records import Analysis, Record
from tests.conftest import KVIZOVKA_RECORDS, lexicon, publish

LETTERS = "abcdeghijklmnoprstuwyz"
MORFEUSZ = [f"mor{a}{b}" for a, b in itertools.islice(itertools.product(LETTERS, LETTERS), 30)]
ONE_LIST = [f"jed{a}" for a in LETTERS[:10]]
ABBREVIATIONS = [f"skr{a}" for a in LETTERS[:5]]
HYPHENATED = [f"my{a}-li" for a in LETTERS[:3]]


def _records() -> list[Record]:
    out = [Record(w, w, True, sources=["wpolish"], category="noun",
                  analyses=[Analysis(w, "subst:sg:nom:m3", "morfeusz2")],
                  evidence=["grade:morfeusz", f"Morfeusz: {w} subst"]) for w in MORFEUSZ]
    out += [Record(w, w, True, sources=["wpolish"], evidence=["grade:one_list", "wpolish"])
            for w in ONE_LIST]
    out += [Record(w, w, False, "abbreviation", "an abbreviation", sources=["wpolish"])
            for w in ABBREVIATIONS]
    out += [Record(w, w, False, "hyphen_or_apostrophe", "hyphenated", sources=["wpolish"])
            for w in HYPHENATED]
    return out


#: the classes of the release the audit reads: the hyphenated words, no spelling of osps's
#: tiles, are neither drawn nor weighed (no label can change their verdict)
SIZES = {"admitted:grade:morfeusz": 30, "admitted:grade:one_list": 10,
         "rejected:abbreviation": 5}


@pytest.fixture()
def osps(home: Path) -> Lexicon:
    publish(home, "osps", _records())
    return open_lexicon("osps", root=home)


def _sheet(home: Path, name: str, labelled: dict[str, tuple[str, str]],
           reviewer: str = "") -> Path:
    """A sheet as a reviewer leaves it: a row a word, its label and note."""
    s = sheets.Sheet({"game": "osps", "release": "any", "reviewer": reviewer},
                     [sheets.Row(w, label=label, note=note)
                      for w, (label, note) in labelled.items()])
    return s.write(sheets.directory(home, "osps") / f"{name}.tsv")


# -- draw ------------------------------------------------------------------------------------

def test_draw_is_seeded_and_stratified(osps: Lexicon) -> None:
    one, sizes = draw(osps.profile, osps.release, per_class=4, seed=7)
    again, _ = draw(osps.profile, osps.release, per_class=4, seed=7)
    other, _ = draw(osps.profile, osps.release, per_class=4, seed=8)
    assert sizes == SIZES
    assert [r.cells() for r in one.rows] == [r.cells() for r in again.rows]
    assert [r.word for r in one.rows] != [r.word for r in other.rows]
    per_class = {c: sum(r.cls == c for r in one.rows) for c in SIZES}
    assert per_class == {c: min(4, n) for c, n in SIZES.items()}
    for r in one.rows:      # each row says what the release says of its word
        assert r.cls == evidence_class("osps", osps.release.get(r.word))
        assert r.verdict == ("admitted" if r.cls.startswith("admitted") else "rejected")
    # every word of a class can be drawn: 40 seeds reach all 30 morfeusz words
    reached = {r.word for seed in range(40)
               for r in draw(osps.profile, osps.release, per_class=4, seed=seed)[0].rows}
    assert set(MORFEUSZ) <= reached


def test_draw_writes_a_sheet_and_never_overwrites_it(osps: Lexicon, home: Path) -> None:
    done = lexicon(home, "audit", "draw", "osps", "--per-class", "3", "--seed", "5",
                   "--name", "first")
    assert done.returncode == 0, done.stderr
    path = home / "audits" / "osps" / "first.tsv"
    assert done.stdout.splitlines()[0] == str(path)
    sheet = sheets.read(path)
    assert sheet.meta["release"] == osps.release_id and sheet.meta["seed"] == "5"
    assert len(sheet.rows) == 9 and not sheet.labelled()    # 3 of each class read
    again = lexicon(home, "audit", "draw", "osps", "--name", "first")
    assert again.returncode == 2 and "[audit_sheet_exists]" in again.stderr
    listed = lexicon(home, "audit", "list")
    assert listed.stdout.split("\t")[:3] == ["osps", "first", "9 words, 0 labelled"]


def test_draw_from_a_list_leaves_out_labelled_words(osps: Lexicon, home: Path,
                                                    tmp_path: Path) -> None:
    _sheet(home, "old", {MORFEUSZ[0]: ("Y", ""), MORFEUSZ[1]: ("N", "")})
    words = tmp_path / "frequent.txt"
    words.write_text("\n".join([*MORFEUSZ[:5], ONE_LIST[0], "nieznany", "# a comment"]) + "\n")
    out = osps.audit_draw(per_class=10, words=words, exclude_labelled=True, name="freq")
    assert out["population"] == "list frequent.txt (7 words)"
    assert out["classes"] == {"absent": 1, "admitted:grade:morfeusz": 3,
                              "admitted:grade:one_list": 1}
    rows = sheets.read(Path(out["sheet"])).rows
    assert {r.word for r in rows} == {*MORFEUSZ[2:5], ONE_LIST[0], "nieznany"}
    assert next(r.verdict for r in rows if r.word == "nieznany") == "absent"
    # a sheet kept elsewhere (a path) is left out the same way
    elsewhere = tmp_path / "kept.tsv"
    elsewhere.write_text(f"# game: osps\nword\tlabel\n{MORFEUSZ[2]}\tN\n{MORFEUSZ[3]}\t\n")
    done = lexicon(home, "audit", "draw", "osps", "--from-list", str(words), "--exclude",
                   str(elsewhere), "--name", "freq2", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["classes"]["admitted:grade:morfeusz"] == 4


# -- score -----------------------------------------------------------------------------------

def _labels() -> dict[str, tuple[str, str]]:
    """morfeusz 9 Y 1 N; one_list 2 Y, 1 N, 1 ?; abbreviation 1 Y 3 N;
    hyphenated: none; and an unlabelled row."""
    out = {w: ("Y", "") for w in MORFEUSZ[:9]}
    out[MORFEUSZ[9]] = ("N", "not a word")
    out |= {ONE_LIST[0]: ("Y", ""), ONE_LIST[1]: ("Y", ""), ONE_LIST[2]: ("N", "typo"),
            ONE_LIST[3]: ("?", "rare")}
    out |= {ABBREVIATIONS[0]: ("Y", "a noun too")}
    out |= {w: ("N", "") for w in ABBREVIATIONS[1:4]}
    out[MORFEUSZ[20]] = ("", "")
    return out


def test_wilson_is_the_textbook_interval() -> None:
    low, high = wilson(9, 10)             # the classic example: 9 of 10
    assert (round(low, 4), round(high, 4)) == (0.5958, 0.9821)
    assert wilson(30, 30)[0] == pytest.approx(0.8865, abs=1e-4)   # not [1, 1]
    assert wilson(0, 0) == (0.0, 1.0)


Z = 1.959963984540054


def wilson_by_hand(p: float, n: float) -> list[float]:
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return [round(centre - half, 4), round(centre + half, 4)]


def test_score_matches_a_hand_computation(osps: Lexicon, home: Path) -> None:
    _sheet(home, "hand", _labels())
    r = osps.audit_score(["hand"])
    # 18 labels, the ? left out: 17 read
    assert r["labelled"] == 17 and r["population"] == "release"
    assert r["doubtful"] == {"labels": 1, "counted": "out"}

    # precision: W = 30/40 and 10/40; morfeusz 9 of 10, one_list 2 of 3
    p = 0.75 * 0.9 + 0.25 * 2 / 3
    var = 0.75 ** 2 * 0.9 * 0.1 / 10 + 0.25 ** 2 * (2 / 3) * (1 / 3) / 3
    n_eff = p * (1 - p) / var
    assert r["precision"]["estimate"] == round(p, 4)
    assert r["precision"]["n_eff"] == round(n_eff, 1)
    assert r["precision"]["interval"] == wilson_by_hand(p, n_eff)
    assert r["precision"]["coverage"] == 1.0 and r["precision"]["labelled"] == 13
    # missed: abbreviation, the one rejected class read: 1 of 4, n_eff = 4
    assert r["missed"]["estimate"] == 0.25 and r["missed"]["coverage"] == 1.0
    assert r["missed"]["interval"] == wilson_by_hand(0.25, 4)
    # recall: 40 p / (40 p + 5 m); its interval from the bounds of p and m
    assert r["recall"]["estimate"] == round(40 * p / (40 * p + 5 * 0.25), 4)
    (plow, phigh), (mlow, mhigh) = r["precision"]["interval"], r["missed"]["interval"]
    assert r["recall"]["interval"] == pytest.approx(
        [40 * plow / (40 * plow + 5 * mhigh), 40 * phigh / (40 * phigh + 5 * mlow)], abs=2e-4)
    # classes, the most wrong verdicts first: one_list 10 * 1/3, morfeusz 30 * .1,
    # abbreviation 5 * .25
    classes = [(c["class"], c.get("wrong")) for c in r["classes"]]
    assert classes == [("admitted:grade:one_list", 3.3), ("admitted:grade:morfeusz", 3.0),
                       ("rejected:abbreviation", 1.2)]
    morfeusz = r["classes"][1]
    assert morfeusz["error_interval"] == [round(1 - 0.9821, 4), round(1 - 0.5958, 4)]
    assert morfeusz["wrong_interval"] == [round(30 * 0.0179, 1), round(30 * 0.4042, 1)]


def test_a_doubtful_label_may_count_half(osps: Lexicon, home: Path) -> None:
    _sheet(home, "hand", _labels())
    r = osps.audit_score(["hand"], doubtful="half")
    assert r["labelled"] == 18
    p = 0.75 * 0.9 + 0.25 * 2.5 / 4          # one_list: 2 Y, 1 N, 1 ? = 2.5 of 4
    var = 0.75 ** 2 * 0.9 * 0.1 / 10 + 0.25 ** 2 * 0.625 * 0.375 / 4
    assert r["precision"]["estimate"] == round(p, 4)
    assert r["precision"]["interval"] == wilson_by_hand(p, p * (1 - p) / var)
    with pytest.raises(InputError):
        osps.audit_score(["hand"], doubtful="twice")


def test_score_weighs_by_a_word_list(osps: Lexicon, home: Path, tmp_path: Path) -> None:
    _sheet(home, "hand", _labels())
    words = tmp_path / "ref.txt"
    words.write_text("\n".join([*MORFEUSZ[:12], *ONE_LIST[:4], "nieznany"]) + "\n")
    r = osps.audit_score(["hand"], population=words)
    assert r["precision"]["size"] == 16       # the list's admitted words only
    assert r["precision"]["estimate"] == round(12 / 16 * 0.9 + 4 / 16 * 2 / 3, 4)
    assert {c["class"]: c["size"] for c in r["classes"]}["absent"] == 1
    # a sheet stands for the list it was drawn from: its own words are the population
    own = osps.audit_score(["hand"], population=home / "audits" / "osps" / "hand.tsv")
    assert own["population"] == "list hand.tsv (19 words)"     # the unlabelled row too
    assert own["precision"]["size"] == 15 and own["missed"]["size"] == 4


def test_a_word_list_is_estimated_from_its_own_labelled_words(osps: Lexicon, home: Path,
                                                              tmp_path: Path) -> None:
    """Weighed by a word list, a class is estimated from the labelled words of that list
    only: a labelled word of the same class outside the list is no draw of the list (a
    sheet drawn from one part of a class says nothing of another part's error rate)."""
    _sheet(home, "hand", _labels())
    part = tmp_path / "part.txt"
    part.write_text("\n".join(MORFEUSZ[9:15]) + "\n")   # holds the one N label, no Y
    r = osps.audit_score(["hand"], population=part)
    morfeusz = {c["class"]: c for c in r["classes"]}[_class_of(osps, MORFEUSZ[9])]
    assert morfeusz["size"] == 6 and morfeusz["labelled"] == 1
    assert r["precision"]["estimate"] == 0.0
    assert r["labelled"] == 1 and r["outside_population"] == 16     # the ? is out


def _class_of(lex: Lexicon, word: str) -> str:
    return evidence_class(lex.profile.vocabulary, lex.release.get(word))


def test_a_game_playing_the_vocabulary_is_scored_with_its_sheets(osps: Lexicon,
                                                                  home: Path) -> None:
    """remik plays osps's vocabulary: osps's sheets score remik's release, with the same
    figures; a game of another vocabulary refuses them."""
    path = _sheet(home, "hand", _labels())
    publish(home, "remik", [])
    remik = open_lexicon("remik", root=home).audit_score(["hand"])
    own = osps.audit_score(["hand"])
    assert remik["game"] == "remik" and remik["precision"] == own["precision"]
    assert remik["missed"] == own["missed"]
    done = lexicon(home, "audit", "score", str(path), "--game", "remik")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("remik-") and "84.2%" in done.stdout
    publish(home, "kvizovka", KVIZOVKA_RECORDS)
    other = lexicon(home, "audit", "score", str(path), "--game", "kvizovka")
    assert other.returncode == 2 and "[bad_audit_sheet]" in other.stderr


def test_score_on_the_cli(osps: Lexicon, home: Path) -> None:
    path = _sheet(home, "hand", _labels())
    done = lexicon(home, "audit", "score", str(path))
    assert done.returncode == 0, done.stderr
    assert "precision (admitted words the game admits): 84.2%" in done.stdout
    lines = done.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("class"))
    assert lines[first + 1].startswith("admitted:grade:one_list")


def test_bad_sheets_are_refused(osps: Lexicon, home: Path) -> None:
    path = sheets.directory(home, "osps") / "bad.tsv"
    path.parent.mkdir(parents=True)
    path.write_text("# game: osps\nword\tlabel\nkot\tmaybe\n")
    done = lexicon(home, "audit", "score", "bad")
    assert done.returncode == 2 and "[bad_audit_sheet]" in done.stderr
    assert "bad.tsv:3" in done.stderr
    other = sheets.directory(home, "kvizovka") / "k.tsv"
    other.parent.mkdir(parents=True)
    other.write_text("# game: kvizovka\nword\tlabel\nkuća\tY\n")
    path.write_text("# game: osps\nword\tlabel\nkot\tY\n")
    mixed = lexicon(home, "audit", "score", "bad", "k")
    assert mixed.returncode == 2 and "one game" in mixed.stderr
    unreviewed = lexicon(home, "audit", "apply", "bad")
    assert unreviewed.returncode == 2 and "--reviewer" in unreviewed.stderr


# -- compare ---------------------------------------------------------------------------------

def test_compare_gives_each_class_its_share(osps: Lexicon, tmp_path: Path) -> None:
    ref = tmp_path / "official.txt"
    listed = [*MORFEUSZ[:15], *ONE_LIST[:2], ABBREVIATIONS[0], "nieznany", "zzzz", "qqq"]
    ref.write_text("\n".join(listed) + "\n")
    r = osps.audit_compare(ref, samples=3)
    assert r["list_words"] == 21
    shares = {c["class"]: (c["in_list"], c["size"], c["share"]) for c in r["classes"]}
    assert shares == {"admitted:grade:morfeusz": (15, 30, 0.5),
                      "admitted:grade:one_list": (2, 10, 0.2),
                      "rejected:abbreviation": (1, 5, 0.2)}
    by = {c["class"]: c["count"] for c in r["list_by_verdict"]}
    assert by == {"admitted:grade:morfeusz": 15, "admitted:grade:one_list": 2,
                  "rejected:abbreviation": 1, "absent": 2, "unreadable": 1}
    morfeusz = r["classes"][0]
    assert set(morfeusz["samples_in_list"]) <= set(MORFEUSZ[:15])
    assert set(morfeusz["samples_not_in_list"]) <= set(MORFEUSZ[15:])
    assert len(morfeusz["samples_not_in_list"]) == 3


# -- apply -> amend --------------------------------------------------------------------------

def test_apply_then_amend_follows_the_labels(osps: Lexicon, home: Path) -> None:
    labels = _labels()
    _sheet(home, "review", labels)
    done = lexicon(home, "audit", "apply", "review", "--reviewer", "Ana Nowak",
                   "--date", "2026-12-02")
    assert done.returncode == 0, done.stderr
    path = home / "audits" / "osps" / "review.overrides.tsv"
    assert done.stdout.splitlines()[0] == str(path)
    overrides = read_overrides(path)
    assert sorted((o.word, o.action) for o in overrides) == sorted([
        (MORFEUSZ[9], "remove"), (ONE_LIST[2], "remove"), (ABBREVIATIONS[0], "add")])
    assert {o.reason for o in overrides if o.word == ONE_LIST[2]} == {
        "audit review: reviewed by Ana Nowak on 2026-12-02: typo"}
    amended = lexicon(home, "amend", "osps", "--overrides", str(path))
    assert amended.returncode == 0, amended.stderr
    new = open_lexicon("osps", root=home)
    assert new.release_id != osps.release_id
    decided = {w: label for w, (label, _) in labels.items() if label in ("Y", "N")}
    assert new.valid(list(decided)) == [label == "Y" for label in decided.values()]
    # labels belong to words: the same sheet now finds no wrong verdict among its Y/N
    again = new.audit_score(["review"])
    wrong = {c["class"]: c["error_rate"] for c in again["classes"] if c["labelled"]}
    assert wrong["rejected:override"] == 0.0 and wrong["admitted:grade:morfeusz"] == 0.0
    assert wrong["admitted:override"] == 0.0
    # nothing left to apply
    assert new.audit_apply("review", reviewer="Ana")["add"] == 0


def test_apply_output_is_amend_input(osps: Lexicon, home: Path, tmp_path: Path) -> None:
    _sheet(home, "review", {MORFEUSZ[0]: ("N", "tab\there")}, reviewer="Jan")
    out = osps.audit_apply("review", output=tmp_path / "o.tsv")
    assert (out["add"], out["remove"]) == (0, 1)
    derive("osps", overrides=read_overrides(tmp_path / "o.tsv"), root=home)
    assert not open_lexicon("osps", root=home).valid([MORFEUSZ[0]])[0]


# -- classes ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("vocabulary", "record", "expected"), [
    ("kvizovka", Record("кућа", "kuća", True, sources=["apertium-hbs-slv", "hunspell-sr"],
                        analyses=[Analysis("kuća", "n.f.sg.nom", "apertium-hbs-slv")]),
     "admitted:apertium:apertium-hbs-slv+hunspell-sr"),
    ("kvizovka", Record("кућа", "kuća", True, sources=["hunspell-hr", "hunspell-sr"],
                        analyses=[Analysis("kuća", "n.f.sg.nom", "hunspell-hr")]),
     "admitted:slot:hunspell-hr+hunspell-sr"),
    ("kvizovka", Record("кући", "kući", False, "inflected_form"), "rejected:inflected_form"),
    ("osps", Record("kot", "kot", True, evidence=["added by override: x"]), "admitted:override"),
    ("krizemkrazem", Record("hlače", "hlače", True, category="plurale_tantum",
                            evidence=["FreeDict: hlače (n, f, pl)"]), "admitted:freedict_plural"),
    ("krizemkrazem", Record("Hotemaže", "hotemaže", True,
                            evidence=["sl_full_names.txt: a place"]),
     "admitted:list:sl_full_names.txt"),
    ("krizemkrazem", Record("Nemke", "nemke", True, category="nation_plural", evidence=[
        "nominative plural of Nemka, the feminine of an inhabitant/nation noun (masculine "
        "Nemec)"]), "admitted:inhabitant_plural_feminine"),
    ("krizemkrazem", Record("Nemci", "nemci", True, category="nation_plural", evidence=[
        "nominative plural of Nemec, an inhabitant/nation noun (feminine Nemka)"]),
     "admitted:inhabitant_plural"),
    ("krizemkrazem", Record("urin", "urin", True, category="noun", evidence=[
        "mythes-sl: urin (sam.) seč, voda; a noun beside its adjective forms (urinega, "
        "urinemu): its synonyms seč, voda are nouns"]), "admitted:thesaurus_noun_synonyms"),
    ("krizemkrazem", Record("šablona", "šablona", True, category="noun", evidence=[
        "mythes-sl: šablona (sam.) obrazec, stereotip, vzorec"]), "admitted:thesaurus"),
    ("osps", None, "absent"),
    ("osps", Record("kotłoby", "kotłoby", True, evidence=["grade:generated", "x"],
                    analyses=[Analysis("kotłować", "cond:sg:n:ter:imperf", "morfeusz2")]),
     "admitted:grade:generated:cond"),
    ("osps", Record("kot", "kot", True, evidence=["grade:generated"]),
     "admitted:grade:generated:other"),
])
def test_evidence_classes(vocabulary: str, record: Record | None, expected: str) -> None:
    assert evidence_class(vocabulary, record) == expected


# -- the labelled samples of tests/data as sheets (tools/audit_sheets.py) --------------------

def test_committed_sheets_are_the_converted_samples(tmp_path: Path) -> None:
    from tools import audit_sheets

    assert audit_sheets.main(["--out", str(tmp_path)]) == 0
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.tsv"))
    committed = audit_sheets.OUT
    # beside the converted samples, sheets drawn with `lexicon audit draw` (or from a
    # rule's words before it existed) and labelled as drawn
    drawn = sorted(p.relative_to(committed) for p in committed.rglob("*.tsv")
                   if p.relative_to(committed) not in made)
    assert made and all(sheets.read(committed / rel).meta.get("drawn", "").startswith("2026")
                        and sheets.read(committed / rel).meta.get("seed") for rel in drawn)
    for rel in made:
        assert (tmp_path / rel).read_text() == (committed / rel).read_text(), rel
    # every label kept: Križemkražem's samples hold 434 admit, 1,332 reject, 34 doubt
    counts = {"Y": 0, "N": 0, "?": 0}
    for rel in made:
        if rel.parts[0] != "krizemkrazem":
            continue
        for r in sheets.read(committed / rel).rows:
            counts[r.label] += 1
    assert counts == {"Y": 434, "N": 1332, "?": 34}
    # issue 17 labels a verdict change: a right loss is N, a wrong loss is Y
    rows = {r.word: r for r in sheets.read(committed / "kvizovka" /
                                           "changed-verdicts-of-a-rule-round.tsv").rows}
    assert rows["varajući"].label == "N" and rows["nemisleći"].label == "?"


def test_generated_slots_are_the_builders() -> None:
    """The audit names a generated Polish form's slot as the builder does (it may not
    import the builder: lexicon never imports build)."""
    from lexicon.build.games.osps.evidence import GENERATED_SLOTS

    from lexicon.game.slots import generated_slot

    tags = ["praet:sg:n:pri:perf", "cond:pl:m1:sec:imperf", "ger:sg:nom:n:imperf:neg",
            "ger:sg:nom:n:imperf:aff", "subst:sg:nom:m3", "praet:sg:f:perf"]
    assert {generated_slot(t) for t in tags} == {*GENERATED_SLOTS, None}


# -- what a sheet's name and cells may hold --------------------------------------------------

HEADER = "# game: osps\n# reviewer: Ana\nword\tclass\tverdict\treason\tevidence\tlabel\tnote\n"


def test_a_sheet_name_cannot_add_override_lines(osps: Lexicon, home: Path) -> None:
    """A sheet's file name holding a line break and tabs once became override lines of its
    own in the file ``apply`` wrote (``amend`` then removed a word no label asked for);
    every text of the file is written so that ``amend`` reads back only the labels."""
    victim = MORFEUSZ[1]
    path = home / "audits" / "osps" / f"evil\n{victim}\tremove\tinjected\n.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{ABBREVIATIONS[0]}\t\t\t\t\tY\tshort\n", encoding="utf-8")
    done = lexicon(home, "audit", "apply", str(path), "--date", "2026-12-04", "--json")
    assert done.returncode == 0, done.stderr
    written = Path(json.loads(done.stdout)["overrides"])
    overrides = read_overrides(written)
    assert [(o.word, o.action) for o in overrides] == [(ABBREVIATIONS[0], "add")]
    assert overrides[0].reason == (f"audit evil {victim} remove injected : reviewed by Ana "
                                   "on 2026-12-04: short")
    amended = lexicon(home, "amend", "osps", "--overrides", str(written))
    assert amended.returncode == 0, amended.stderr
    assert open_lexicon("osps", root=home).valid([victim, ABBREVIATIONS[0]]) == [True, True]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b"])
def test_a_sheet_row_ends_at_a_line_feed_only(osps: Lexicon, home: Path,
                                              separator: str) -> None:
    """A note holding a Unicode line or paragraph separator, NEL, a form feed or a vertical
    tab is one cell, as a spreadsheet and Python's csv read it: no labelled row hides in
    it (``str.splitlines`` made one, and ``apply`` removed its word)."""
    hidden = f"{MORFEUSZ[1]}\t\t\t\t\tN\thidden"
    path = home / "audits" / "osps" / "notes.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{ONE_LIST[0]}\t\t\t\t\tY\tfine{separator}{hidden}\r\n"
                    f"{MORFEUSZ[2]}\t\t\t\t\tN\tgone\n", encoding="utf-8")
    rows = sheets.read(path).rows
    assert [(r.word, r.label) for r in rows] == [(ONE_LIST[0], "Y"), (MORFEUSZ[2], "N")]
    assert rows[0].note == f"fine{separator}{MORFEUSZ[1]}"
    done = lexicon(home, "audit", "apply", "notes", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["labelled"], out["add"], out["remove"]) == (2, 0, 1)
    assert [o.word for o in read_overrides(Path(out["overrides"]))] == [MORFEUSZ[2]]


def test_apply_writes_only_what_amend_accepts(osps: Lexicon, home: Path) -> None:
    """A note holding a NUL or a zero-width character (copied from elsewhere) reaches the
    reason without them, so ``amend`` takes the file ``apply`` wrote (it refused it)."""
    path = home / "audits" / "osps" / "invisible.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{MORFEUSZ[0]}\t\t\t\t\tN\tno\x00t a\u200b wo\u2028rd\n",
                    encoding="utf-8")
    done = lexicon(home, "audit", "apply", "invisible", "--date", "2026-12-04")
    assert done.returncode == 0, done.stderr
    written = Path(done.stdout.splitlines()[0])
    assert [o.reason for o in read_overrides(written)] == [
        "audit invisible: reviewed by Ana on 2026-12-04: not a wo rd"]
    amended = lexicon(home, "amend", "osps", "--overrides", str(written))
    assert amended.returncode == 0, amended.stderr
    verdict = open_lexicon("osps", root=home).check(MORFEUSZ[0])
    assert not verdict["valid"] and verdict["reason"]["code"] == "override"


def test_every_word_a_draw_writes_is_one_score_reads(home: Path) -> None:
    """A draw leaves out the words that are no spelling of the game's tiles (osps's
    hyphenated words and those with a ``v``: ``hyphen_or_apostrophe``,
    ``foreign_letters``), which ``score`` cannot read and no label can change; a sheet
    drawn and labelled whole is read whole (it came back partly "not read")."""
    foreign = [Record(w, w, False, "foreign_letters", "a v", sources=["wpolish"])
               for w in ("vat", "volt")]
    publish(home, "osps", [*_records(), *foreign])
    done = lexicon(home, "audit", "draw", "osps", "--per-class", "50", "--name", "all",
                   "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["classes"] == SIZES
    path = Path(json.loads(done.stdout)["sheet"])
    drawn = sheets.read(path)
    assert {r.word for r in drawn.rows}.isdisjoint({*HYPHENATED, "vat", "volt"})
    for r in drawn.rows:
        r.label = "Y"
    drawn.write(path, overwrite=True)
    scored = lexicon(home, "audit", "score", "all", "--json")
    assert scored.returncode == 0, scored.stderr
    out = json.loads(scored.stdout)
    assert (out["labelled"], out["not_read"]) == (len(drawn.rows), 0)
    assert {c["class"]: c["size"] for c in out["classes"]} == SIZES
