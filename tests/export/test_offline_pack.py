"""The offline pack read back by an independent reader (tests/kwg_reader.py): its first KWG
is byte for byte what ``lexicon export GAME --format kwg --dawg-only`` writes, its second
holds every other record's key with its reason code, and its rules are the profile's."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
from kwg_reader import Reader

from lexicon import Catalog
from lexicon.errors import LexiconError, PackFailed
from lexicon.export import offline, packmaker
from lexicon.export.offline import make_pack, pack, tiling_sequences
from lexicon.store.records import Record
from lexicon.verdicts import remik
from tests.conftest import PackGate, lexicon, publish, rec

RECORDS = [
    rec("kot"), rec("koty"), rec("np", valid=False, code="abbreviation"),
    rec("e-mail", valid=False, code="hyphen_or_apostrophe"),
    rec("krakowa", valid=False, code="capitalised"),
    rec("a" * 16),                                 # admitted, but longer than a move lays
    rec("qwerty", valid=False, code="foreign_letters"),
]


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    root.mkdir()
    publish(root, "osps", RECORDS)
    return root


def test_admitted_words_are_the_dawg_only_export(home: Path, tmp_path: Path) -> None:
    lex = Catalog(home).lexicon("osps")
    made = make_pack(lex.profile, lex.release)
    out = tmp_path / "osps.kwg"
    assert lexicon(home, "export", "osps", "--format", "kwg", "--dawg-only",
                   "-o", str(out)).returncode == 0
    first = made.rules["words"]["admitted"]
    assert made.words[:first["bytes"]] == out.read_bytes()


def test_other_keys_carry_their_reason_code(home: Path) -> None:
    lex = Catalog(home).lexicon("osps")
    made = make_pack(lex.profile, lex.release)
    words = made.rules["words"]
    other = words["others"]
    reader = Reader(made.words[other["offset"]:other["offset"] + other["bytes"]], "kwg")
    letter = {n: c for c, n in words["numbers"].items()}
    base = len(words["numbers"])
    found = {}
    for entry in reader.dawg_words(reader.root(0)):
        *key, code = entry
        assert code > base and all(n <= base for n in key)
        found["".join(letter[n] for n in key)] = words["codes"][code - base - 1]
    records: dict[str, Record | None] = {r.key: r for r in RECORDS}
    assert found == {k: (r.reason_code if not r.valid else "")
                     for k, r in records.items() if r and (not r.valid or len(k) > 15)}
    assert set(words["foreign"]) == {"-", "q"} and other["left_out"] == 0
    # the tables are the profile's: Polish has no multi-letter tile, Ż is worth 5
    assert made.rules["speller"]["multi"] == [] and made.rules["play"]["values"]["ż"] == 5
    longer = next(s for s in made.rules["validity"]["steps"] if s["test"] == "longer")
    assert longer == {"test": "longer", "code": "too_long", "most": 15}


def test_a_game_with_multi_letter_tiles_carries_the_reasons_tiling_needs(home: Path) -> None:
    """Kvizovka: the other keys are the rejected ones holding a multi-letter tile or the
    letters it is spelled with (which tiling a Latin word turns on) and the admitted keys no
    move lays; kući's and lubav's reasons are left to the server, l|jubav's and konji's
    are carried."""
    publish(home, "kvizovka", [
        rec("љубав", word="ljubav", tags="n.f.sg.nom", category="noun"),
        rec("лубав", word="lubav", valid=False, code="unknown_lemma"),
        rec("лјубав", word="l|jubav", valid=False, code="inflected_form"),
        rec("коњи", word="konji", valid=False, code="inflected_form"),
        rec("кући", word="kući", valid=False, code="inflected_form"),
        rec("ја", word="ja", tags="prn", category="prn"),   # admitted, too short to lay
    ])
    lex = Catalog(home).lexicon("kvizovka")
    assert tiling_sequences(lex.profile) == ["дж", "лј", "нј", "љ", "њ", "џ"]
    assert tiling_sequences(Catalog(home).lexicon("osps").profile) == []
    made = make_pack(lex.profile, lex.release)
    words = made.rules["words"]
    assert (words["others"]["reasons"], words["others"]["tiling"]) == (
        "tiling", tiling_sequences(lex.profile))
    other = words["others"]
    reader = Reader(made.words[other["offset"]:other["offset"] + other["bytes"]], "kwg")
    letter = {n: c for c, n in words["numbers"].items()}
    base = len(words["numbers"])
    found = {"".join(letter[n] for n in key): words["codes"][code - base - 1] if
             words["codes"][code - base - 1] else "" for *key, code in
             reader.dawg_words(reader.root(0))}
    assert found == {"лјубав": "inflected_form", "коњи": "inflected_form", "ја": ""}
    assert "needs_server" in made.rules["reasons"]["sr"]


def test_a_pack_is_made_once_and_kept(home: Path) -> None:
    lex = Catalog(home).lexicon("osps")
    first = pack(lex.profile, lex.release, home)
    kept = home / "cache" / "offline" / "osps" / f"{lex.release.id}.bin.gz"
    assert kept.read_bytes() == first.words_gzip
    again = pack(lex.profile, lex.release, home)
    assert again is first               # this process keeps it too


@pytest.mark.parametrize("damage", ["truncated", "emptied", "other words", "older rules"])
def test_a_damaged_kept_pack_is_made_again_never_served(home: Path, damage: str) -> None:
    """A kept pack (``cache/offline/…``) whose words are cut short, emptied, or do not match
    the sha256 its rules carry is made again when it is taken from the cache: the pack
    served is whole, and the kept files are whole again."""
    lex = Catalog(home).lexicon("osps")
    good = make_pack(lex.profile, lex.release)
    where = home / "cache" / "offline" / "osps"
    where.mkdir(parents=True)
    rules_file, words_file = where / f"{lex.release.id}.json", where / f"{lex.release.id}.bin.gz"
    steps = [{**s, "least": 1} if s["test"] == "shorter" else s
             for s in good.rules["validity"]["steps"]]
    older = {**good.rules, "validity": {"steps": steps}}
    rules_file.write_text(json.dumps(older if damage == "older rules" else good.rules),
                          encoding="utf-8")
    words_file.write_bytes({"truncated": good.words_gzip[:len(good.words_gzip) // 2],
                            "emptied": b"",
                            "other words": gzip.compress(good.words[:-1] + b"\0"),
                            "older rules": good.words_gzip}[damage])
    got = pack(lex.profile, lex.release, home)
    assert got is not None
    assert got.words == good.words and gzip.decompress(got.words_gzip) == good.words
    assert got.rules == json.loads(json.dumps(good.rules))
    assert words_file.read_bytes() == good.words_gzip       # kept whole again
    assert json.loads(rules_file.read_text(encoding="utf-8")) == got.rules


def test_a_whole_kept_pack_is_taken_as_it_is(home: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """The checks of a kept pack pass a whole one: it is read, not made again."""
    lex = Catalog(home).lexicon("osps")
    good = make_pack(lex.profile, lex.release)
    where = home / "cache" / "offline" / "osps"
    where.mkdir(parents=True)
    (where / f"{lex.release.id}.json").write_text(json.dumps(good.rules), encoding="utf-8")
    (where / f"{lex.release.id}.bin.gz").write_bytes(good.words_gzip)

    def never(*_args: object) -> None:
        raise AssertionError("a whole kept pack was made again")

    monkeypatch.setattr(packmaker, "run", never)     # no child process is started
    got = pack(lex.profile, lex.release, home)
    assert got is not None and got.words == good.words


def test_a_remik_pack_carries_the_move_rules_and_is_made_again_without_them(
        home: Path) -> None:
    """Remik's pack holds the move rules lexicon.verdicts.remik writes; one kept on disk
    without them (or with other ones) is not served but made again."""
    publish(home, "remik", [])
    lex = Catalog(home).lexicon("remik")
    made = pack(lex.profile, lex.release, home)
    assert made.rules["move"] == json.loads(json.dumps(remik.offline_rules(lex.profile)))
    assert made.rules["move"]["faults"]["short"] == "too_short"
    assert made.rules["play"]["opening"] == {"doubles": ["ó", "ź", "ż"], "factor": 2}
    assert "move" not in pack(Catalog(home).lexicon("osps").profile,
                              Catalog(home).lexicon("osps").release, home).rules
    rules_file = home / "cache" / "offline" / "remik" / f"{lex.release.id}.json"
    old = {k: v for k, v in made.rules.items() if k != "move"}     # an older pack's rules
    rules_file.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    offline._KEPT.clear()
    again = pack(lex.profile, lex.release, home)
    assert again.rules["move"] == made.rules["move"]
    assert "move" in json.loads(rules_file.read_text(encoding="utf-8"))


def test_making_a_pack_leaves_the_lookups_caches_as_they_were(home: Path) -> None:
    """The pack reads every rejected key's record: with caches of its own, not those of the
    release's lookups, whose entries would live on after the pack, pinning the memory of
    the pass they were made in (a server's worker kept a pack's build)."""
    lex = Catalog(home).lexicon("osps")
    lex.check("kot")
    store = lex.release.store
    before = (store.block.cache_info().currsize, store.shape.cache_info().currsize,
              store.decoder.cache_info().currsize)
    made = make_pack(lex.profile, lex.release)
    assert made.rules["words"]["codes"] == ["", "abbreviation", "capitalised",
                                            "foreign_letters", "hyphen_or_apostrophe"]
    assert (store.block.cache_info().currsize, store.shape.cache_info().currsize,
            store.decoder.cache_info().currsize) == before
    assert lex.check("np")["reason"]["code"] == "abbreviation"    # the lookups read on


def test_a_pack_is_made_in_a_child_process(home: Path, pack_gate: PackGate) -> None:
    """The pack is made by a child of this process, which ends once it is made: its
    memory and its interpreter lock are never this process's."""
    lex = Catalog(home).lexicon("osps")
    job = lex.offline_pack_job()
    with pack_gate.maker() as maker:
        assert maker != os.getpid()
        assert _parent_of(maker) == os.getpid()
        assert not job.done()
    assert job.result(120).words == make_pack(lex.profile, lex.release).words
    assert not Path(f"/proc/{maker}").exists() or _parent_of(maker) != os.getpid()


def test_a_killed_maker_leaves_no_pack(home: Path, pack_gate: PackGate,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A maker killed at work is ``pack_failed`` (503, Retry-After): no pack file is left
    where packs are kept; the failure is told to the next asker, even one that was not
    waiting when the maker died, and once its Retry-After has passed the next ask makes
    the pack whole."""
    lex = Catalog(home).lexicon("osps")
    job = lex.offline_pack_job()
    with pack_gate.maker() as maker:
        os.kill(maker, signal.SIGKILL)
    with pytest.raises(PackFailed) as failed:
        job.result(120)
    assert failed.value.code == "pack_failed" and failed.value.status == 503
    retry = int(failed.value.headers["Retry-After"])
    assert retry > 0
    kept = home / "cache" / "offline" / "osps"
    assert not kept.exists() or not list(kept.iterdir())
    name = (str(home), "osps", lex.release_id)
    deadline = time.monotonic() + 60
    while name not in offline._FAILED:              # the job's own end has been seen
        assert time.monotonic() < deadline
        time.sleep(0.01)
    for _ in range(2):                              # told, not started again unseen
        assert lex.offline_pack_job() is job
    clock = offline._clock
    monkeypatch.setattr(offline, "_clock", lambda: clock() + retry)
    again = lex.offline_pack_job()
    assert again is not job
    with pack_gate.maker():
        pass
    assert again.result(120).words == make_pack(lex.profile, lex.release).words
    assert sorted(p.name for p in kept.iterdir()) == [f"{lex.release_id}.bin.gz",
                                                      f"{lex.release_id}.json"]


def test_an_error_in_the_maker_keeps_its_code(home: Path, pack_gate: PackGate) -> None:
    """A LexiconError in the child reaches the caller with its code: a release whose store
    is gone when the maker opens it is ``release_damaged``, not a failed pack."""
    lex = Catalog(home).lexicon("osps")
    job = lex.offline_pack_job()
    with pack_gate.maker():
        shutil.rmtree(lex.release.path / "records.lmdb")
    with pytest.raises(LexiconError) as failed:
        job.result(120)
    assert failed.value.code == "release_damaged", failed.value.to_json()


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_the_maker_imports_the_library_not_the_working_directory(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server run from a directory that holds a folder named ``lexicon`` still makes
    packs: the child does not put the working directory on its path."""
    decoy = tmp_path / "cwd" / "lexicon"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise SystemExit('the decoy was imported')\n",
                                       encoding="utf-8")
    monkeypatch.chdir(decoy.parent)
    lex = Catalog(home).lexicon("osps")
    assert lex.offline_pack_job().result(120).words == make_pack(lex.profile,
                                                                 lex.release).words
