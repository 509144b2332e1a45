"""Amending a release with overrides, reviewed overrides in full builds, and repacking."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lexicon.build import amend
from lexicon.build.release_writer import read_release_overrides

from lexicon.catalog import Catalog
from lexicon.export.export import identity
from lexicon.game.play import play_rules
from lexicon.store import published
from tests.conftest import POLISH_RECORDS, publish, rec


def _manifest(path: Path) -> dict:
    return json.loads((path / "manifest.json").read_text())


def _overrides(tmp: Path, lines: list[str]) -> Path:
    path = tmp / "fix.tsv"
    path.write_text("# maintainer's fixes\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_amend_applies_overrides_with_their_reasons(home: Path, tmp_path: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    fix = _overrides(tmp_path, ["kot\tremove\tnot in edition 2026 (ruling 7)",
                                "np\tadd\tadmitted by ruling 9",
                                "Pies\tadd\tmissing from every source"])
    second = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    assert published.current_id("osps", home) == second.name != first.name
    cat = Catalog(home)
    kot = cat.lexicon("osps").check("kot")
    assert not kot["valid"]
    assert kot["reason"]["code"] == "override"
    assert kot["reason"]["detail"] == "not in edition 2026 (ruling 7)"   # the stored message
    assert kot["analyses"][0]["tags"] == "subst:sg:nom:m2"     # what the parent knew stays
    np_ = cat.lexicon("osps").check("np")
    assert np_["valid"] and np_["evidence"] == ["added by override: admitted by ruling 9"]
    pies = cat.lexicon("osps").check("pies")
    assert pies["valid"] and pies["sources"] == ["override"]
    zaz = cat.lexicon("osps").check("zażółć")             # untouched words unchanged
    assert zaz["valid"] and zaz["analyses"][0]["lemma"] == "zażółcić"
    m = _manifest(second)
    assert m["amend"]["parent"] == first.name
    assert m["amend"]["parent_content_sha256"] == _manifest(first)["content_sha256"]
    assert [(o["key"], o["action"]) for o in read_release_overrides(second, m)] == [
        ("kot", "remove"), ("np", "add"), ("pies", "add")]
    assert m["amend"]["overrides"] == 3 and m["overrides"]["count"] == 3
    assert m["diff"]["added_sample"] == ["np", "pies"] and m["diff"]["removed_sample"] == ["kot"]
    assert m["counts"]["by_reason"]["override"] == 1
    # the Quackle hash, updated from the parent's by the changed words, is the full one
    rel = cat.release("osps")
    full = identity(k for k, _raw in rel.iter_records(valid_only=True)
                    if play_rules(cat.profile("osps")).is_playable(k))
    assert (m["content_hash"], m["counts_by_length"]) == (full["content_hash"],
                                                          full["counts_by_length"])


@pytest.mark.parametrize(("line", "problem"), [
    ("kot\tdelete\twhy", "action 'delete' is not add or remove"),
    ("kot\tremove", "expected three tab-separated fields"),
    ("kot\tremove\t ", "expected three tab-separated fields"),
])
def test_a_bad_overrides_line_names_its_line(tmp_path: Path, line: str, problem: str) -> None:
    fix = _overrides(tmp_path, ["kot\tadd\tfine", line])
    with pytest.raises(amend.OverridesError, match=problem) as err:
        amend.read_overrides(fix)
    assert err.value.code == "bad_overrides" and err.value.detail["line"] == 3


def test_amend_cli_publishes_and_rejects_bad_files(home: Path, tmp_path: Path) -> None:
    publish(home, "osps", POLISH_RECORDS)
    cli = [sys.executable, "-m", "lexicon.cli.main"]
    bad = _overrides(tmp_path, ["kot\tdelete\twhy"])
    run = subprocess.run([*cli, "amend", "osps", "--overrides", str(bad)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "bad_overrides" in run.stderr
    good = _overrides(tmp_path, ["ul\tremove\tan abbreviation after all"])
    run = subprocess.run([*cli, "amend", "osps", "--overrides", str(good)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == published.current_id("osps", home)
    check = subprocess.run([*cli, "check", "osps", "ul", "--json"], capture_output=True,
                           text=True, check=False)
    assert check.returncode == 1 and '"code": "override"' in check.stdout


@pytest.mark.parametrize("command", [["amend", "remik", "--overrides"], ["repack", "remik"]])
def test_amending_a_linked_game_is_a_usage_error(home: Path, tmp_path: Path,
                                                 command: list[str]) -> None:
    """remik plays osps's words: amending or repacking remik itself is a usage error (exit
    2, ``linked_game``) that says what to amend instead, not a failed build (exit 3)."""
    from tests.conftest import lexicon
    publish(home, "osps", POLISH_RECORDS)
    args = [*command, str(_overrides(tmp_path, ["kot\tremove\twhy"]))] \
        if command[0] == "amend" else command
    p = lexicon(home, *args)
    assert p.returncode == 2 and "error [linked_game]" in p.stderr, p.stderr
    assert f"{command[0]} osps" in p.stderr


def test_full_builds_apply_reviewed_overrides(home: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "osps.tsv").write_text("jaźń\tremove\treviewed: not in edition 2026\n"
                                       "wg\tadd\treviewed: ruling 3\n", encoding="utf-8")
    monkeypatch.setattr(amend, "OVERRIDES_DIR", tmp_path)
    path = publish(home, "osps", POLISH_RECORDS)
    rel = Catalog(home).release("osps")
    jazn = rel.get("jaźń")
    assert jazn is not None and not jazn.valid and jazn.reason_code == "override"
    assert rel.is_valid("wg") and rel.is_valid("kot")
    assert [o["word"] for o in read_release_overrides(path, _manifest(path))] == ["jaźń", "wg"]


def test_the_shipped_overrides_files_are_valid() -> None:
    for game in ("osps", "kvizovka", "krizemkrazem"):     # remik plays osps's words
        assert (amend.OVERRIDES_DIR / f"{game}.tsv").exists()
        amend.reviewed_overrides(game)        # raises on a malformed line


def test_repack_keeps_every_answer_and_the_content_hash(home: Path) -> None:
    records = [*POLISH_RECORDS, rec("Bóg".lower(), valid=False, word="Bóg", code="capitalised",
                                    message="Bóg: only with a capital")]
    first = publish(home, "osps", records)
    time.sleep(1.1)     # release ids carry the second; same content in the same second
    second = amend.derive("osps", first, root=home, kind="repack")
    assert _manifest(second)["content_sha256"] == _manifest(first)["content_sha256"]
    assert _manifest(second)["repack"]["parent"] == first.name
    rel = Catalog(home).release("osps")
    for r in records:
        assert rel.get(r.key) == r


def test_indexes_built_during_an_amend_equal_ones_built_after(home: Path, tmp_path: Path) -> None:
    # amend starts the alphagram indexes from its parent's keys changed by the overrides
    # while the records are written; they must be exactly what the records give
    from lexicon.build.index_writer import build_indexes

    publish(home, "osps", POLISH_RECORDS)
    fix = _overrides(tmp_path, ["kot\tremove\truling 7", "pies\tadd\truling 8",
                                "np\tadd\truling 9"])
    new = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    again = tmp_path / "again"
    again.mkdir()
    figures = build_indexes(Catalog(home).profile("osps"), new / "records.lmdb", again)
    built = sorted(p.relative_to(new / "indexes") for p in (new / "indexes").rglob("*"))
    assert built == sorted(p.relative_to(again / "indexes")
                           for p in (again / "indexes").rglob("*"))
    for name in built:
        assert (new / "indexes" / name).read_bytes() == (again / "indexes" / name).read_bytes()
    assert _manifest(new)["indexes"]["playable_keys"] == figures["playable_keys"]
    cat = Catalog(home)
    words = {m["word"] for m in cat.lexicon("osps").anagrams("tokeipsn")["results"]}
    assert "pies" in words and "kot" not in words


def test_indexes_started_for_other_keys_are_refused(home: Path, tmp_path: Path) -> None:
    from lexicon.build.index_writer import build_indexes, start_indexes

    from lexicon.errors import BuildError

    first = publish(home, "osps", POLISH_RECORDS)
    profile = Catalog(home).profile("osps")
    early = start_indexes(profile, ["kot"], tmp_path)
    with pytest.raises(BuildError, match="started for 1 valid keys"):
        build_indexes(profile, first / "records.lmdb", tmp_path, early)
    assert not early.child.is_alive()


def _letters(n: int) -> list[str]:
    """``n`` distinct words of Polish tiles (a, b, …, ab, …), none in POLISH_RECORDS'
    way."""
    alphabet = "abcdefghijklmnoprstuwyz"
    out = []
    for i in range(n):
        word = ""
        i += len(alphabet) ** 2          # at least three letters
        while i:
            i, d = divmod(i, len(alphabet))
            word = alphabet[d] + word
        out.append(word)
    return out


def test_many_overrides_stay_out_of_the_manifest(home: Path, tmp_path: Path) -> None:
    from lexicon.build.release_writer import OVERRIDES_FILE

    from lexicon import filetable
    from lexicon.store import integrity

    publish(home, "osps", POLISH_RECORDS)
    words = _letters(20_000)
    fix = _overrides(tmp_path, [f"{w}\t{'add' if i % 2 else 'remove'}\truling {i}"
                                for i, w in enumerate(words)])
    first = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    size = (first / "manifest.json").stat().st_size
    m = _manifest(first)
    # the profile and the diff's 200-key samples, whatever the count (listed twice, 20,000
    # overrides made a 4.6 MB manifest)
    assert size < 16_000, size
    assert m["overrides"]["count"] == 20_000 and m["amend"]["overrides"] == 20_000
    assert m["overrides"]["by_action"] == {"add": 10_000, "remove": 10_000}
    table = m[integrity.FILES][OVERRIDES_FILE]     # listed and hashed like every file
    assert table["sha256"] == m["overrides"]["sha256"] == filetable.sha256_file(
        first / OVERRIDES_FILE)
    integrity.verify_release(first)
    # a second amend carries its parent's overrides, then its own
    fix2 = _overrides(tmp_path, ["kot\tremove\truling 20001"])
    second = amend.derive("osps", overrides=amend.read_overrides(fix2), root=home)
    m2 = _manifest(second)
    carried = list(read_release_overrides(second, m2))
    assert len(carried) == m2["overrides"]["count"] == 20_001 and m2["amend"]["overrides"] == 1
    assert carried[0]["key"] == sorted(words)[0] and carried[-1]["key"] == "kot"
    assert (second / "manifest.json").stat().st_size < 16_000
    cat = Catalog(home)
    assert cat.lexicon("osps").check(words[1])["valid"]
    assert cat.lexicon("osps").check(words[0])["reason"]["code"] == "override"


def test_overrides_of_a_release_in_the_older_layout_are_read_from_its_manifest() -> None:

    old = {"overrides": [{"word": "kot", "key": "kot", "action": "remove", "reason": "r"}]}
    assert list(read_release_overrides(Path("/nonexistent"), old)) == old["overrides"]
    assert list(read_release_overrides(Path("/nonexistent"), {"overrides": {"count": 0}})) == []


@pytest.mark.parametrize(("content", "problem"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xd8", "not UTF-8"),
    ("kot\tremove\tr\u00f3wnie".encode("cp1250"), "not UTF-8"),
    (b"k\x00ot\tremove\truling 7\n", "control or invisible"),
    (b"kot\tremove\truling\x07 7\n", "control or invisible"),
])
def test_a_binary_or_foreign_overrides_file_is_bad_overrides(home: Path, tmp_path: Path,
                                                             content: bytes,
                                                             problem: str) -> None:
    from tests.conftest import lexicon_process

    first = publish(home, "osps", POLISH_RECORDS)
    bad = tmp_path / "fix.tsv"
    bad.write_bytes(content)
    with pytest.raises(amend.OverridesError, match=problem):
        amend.read_overrides(bad)
    run = lexicon_process(home, "amend", "osps", "--overrides", str(bad))
    assert run.returncode == 2 and "error [bad_overrides]" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert published.current_id("osps", home) == first.name           # nothing published
    assert [p.name for p in first.parent.iterdir() if not p.name.startswith(".")
            and p.name not in ("CURRENT", published.CURRENT_LOG)] == [first.name]


def test_a_bom_is_no_part_of_the_first_override(tmp_path: Path) -> None:
    fix = tmp_path / "fix.tsv"
    fix.write_bytes("\ufeffkot\tremove\truling 7\n".encode())
    assert [o.word for o in amend.read_overrides(fix)] == ["kot"]


def _raw_store(release: Path) -> tuple[dict[str, bytes], list[str], int, dict[str, str]]:
    """A release's LMDB store read with the binding alone: key -> value, the shape texts
    in number order, ``valid_shapes`` and the meta."""
    import zlib

    import lmdb

    from lexicon.store.recordfile import SHAPE_BLOCK, get_varint
    env = lmdb.open(str(release / "records.lmdb"), readonly=True, lock=False, max_dbs=3)
    try:
        with env.begin() as txn:
            values = {bytes(k).decode(): bytes(v)
                      for k, v in txn.cursor(env.open_db(b"records", txn=txn))}
            meta = {bytes(k).decode(): bytes(v).decode()
                    for k, v in txn.cursor(env.open_db(b"meta", txn=txn))}
            texts: list[str] = []
            for _k, block in txn.cursor(env.open_db(b"shapes", txn=txn)):
                data = zlib.decompress(bytes(block))
                n = int.from_bytes(data[:2], "little")
                at = 2 + 2 * n
                for i in range(n):
                    size = int.from_bytes(data[2 + 2 * i:4 + 2 * i], "little")
                    texts.append(data[at:at + size].decode())
                    at += size
                assert n <= SHAPE_BLOCK
    finally:
        env.close()
    assert len(texts) == int(meta["shapes"])
    assert all(get_varint(v, 0)[0] < len(texts) for v in values.values())
    return values, texts, int(meta["valid_shapes"]), meta


def test_an_amend_copies_the_untouched_records_byte_for_byte(home: Path,
                                                             tmp_path: Path) -> None:
    """An amend copies its parent's store: an untouched record's LMDB value is the
    parent's, byte for byte, when no override brings a new admitted shape; when one does
    (a word no source knows, admitted by override), the rejected shapes move up past it
    and a rejected record's value differs only by its shape number, its shape text and
    own bytes the same. Counts and the diff are the overrides' only."""
    from lexicon.store.recordfile import get_varint
    first = publish(home, "osps", POLISH_RECORDS)
    # a remove only: every other value byte for byte
    second = amend.derive("osps", overrides=amend.read_overrides(
        _overrides(tmp_path, ["kot\tremove\truling 7"])), root=home)
    old, old_texts, old_vs, _ = _raw_store(first)
    mid, mid_texts, mid_vs, _ = _raw_store(second)
    assert mid_vs == old_vs and mid_texts[:len(old_texts)] == old_texts
    assert {k: v for k, v in mid.items() if k != "kot"} == {
        k: v for k, v in old.items() if k != "kot"}
    assert mid["kot"] != old["kot"]
    # an added word with a new admitted shape: the rejected records are renumbered
    (tmp_path / "more").mkdir()
    third = amend.derive("osps", overrides=amend.read_overrides(
        _overrides(tmp_path / "more", ["Pies\tadd\tmissing from every source"])), root=home)
    new, new_texts, new_vs, meta = _raw_store(third)
    assert new_vs == mid_vs + 1 and len(new_texts) == len(mid_texts) + 1
    assert new_texts[:mid_vs] == mid_texts[:mid_vs]
    assert new_texts[new_vs:] == mid_texts[mid_vs:]          # shifted, in the same order
    assert set(new) == set(mid) | {"pies"}
    rejected = 0
    for key, value in mid.items():
        sid, pos = get_varint(value, 0)
        if sid < mid_vs:
            assert new[key] == value, key
        else:
            rejected += 1
            nsid, npos = get_varint(new[key], 0)
            assert (nsid, new_texts[nsid], new[key][npos:]) == (sid + 1, mid_texts[sid],
                                                                value[pos:]), key
    assert rejected == 3                                   # np, e-mail, kot
    assert get_varint(new["pies"], 0)[0] == mid_vs         # the appended admitted shape
    cat = Catalog(home)
    assert cat.release("osps").id == third.name
    pies = cat.lexicon("osps").check("pies")
    assert pies["valid"] and pies["sources"] == ["override"]
    assert pies["evidence"] == ["added by override: missing from every source"]
    for word in ("np", "e-mail", "kot"):                   # still rejected, reasons kept
        assert not cat.lexicon("osps").check(word)["valid"], word
    assert cat.lexicon("osps").check("kot")["reason"]["code"] == "override"
    assert cat.lexicon("osps").check("zażółć")["analyses"][0]["lemma"] == "zażółcić"
    m = _manifest(third)
    assert (meta["valid"], meta["rejected"]) == ("5", "3")
    assert (m["counts"]["valid"], m["counts"]["rejected"]) == (5, 3)
    assert m["counts"]["by_reason"] == {"abbreviation": 1, "hyphen_or_apostrophe": 1,
                                        "override": 1}
    assert m["counts"]["valid_by_source"]["override"] == 1
    assert m["records"]["valid_shapes"] == new_vs
    assert m["diff"]["previous"] == second.name
    assert (m["diff"]["added_sample"], m["diff"]["removed_sample"]) == (["pies"], [])
    # the same records written from scratch have the same verdicts and counts
    assert [(r.key, r.valid) for r in cat.release("osps").records()] == sorted(
        [(r.key, r.valid) for r in POLISH_RECORDS if r.key != "kot"]
        + [("kot", False), ("pies", True)])


def _rebuild(home: Path, *, drop: bool = False) -> tuple[Path, str]:
    """``lexicon build osps`` (the plan, its line, the pipeline) of the same records: the
    published release and the plan line."""
    from lexicon.build.pipeline import BuildContext
    from lexicon.build.plan import build_games

    from tests.conftest import StaticBuilder

    said: list[str] = []
    ctx = BuildContext(root=home, log=said.append)
    ctx.drop_overrides = drop
    (path,) = build_games(["osps"], ctx,
                          builders={"osps": StaticBuilder("osps", POLISH_RECORDS)},
                          say=lambda _line: None, factor=lambda: 1.0)
    return path, next(line for line in said if line.startswith("build plan:"))


def test_a_rebuild_keeps_the_overrides_of_the_release_it_replaces(home: Path,
                                                                  tmp_path: Path) -> None:
    """Amended, then rebuilt from its sources: the maintainer's overrides are kept (the
    plan says so), again on the next rebuild, and dropped only when the maintainer says
    so (``--drop-overrides``)."""
    publish(home, "osps", POLISH_RECORDS)
    fix = _overrides(tmp_path, ["kot\tremove\tnot in edition 2026 (ruling 7)",
                                "Pies\tadd\truling 9"])
    amended = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)

    def verdicts() -> tuple[dict, dict]:
        lex = Catalog(home).lexicon("osps")
        return lex.check("kot"), lex.check("pies")

    for _ in range(2):                    # the kept overrides are kept again by the next
        replaced = published.current_id("osps", home)
        time.sleep(1.1)     # release ids carry the second
        rebuilt, line = _rebuild(home)
        assert rebuilt.name != replaced
        assert f"; osps keeps the 2 overrides of {replaced} (--drop-overrides drops them)" \
            in line
        kot, pies = verdicts()
        assert not kot["valid"] and kot["reason"]["code"] == "override"
        assert kot["reason"]["detail"] == "not in edition 2026 (ruling 7)"
        assert pies["valid"] and pies["evidence"] == ["added by override: ruling 9"]
        kept = [(o["key"], o["action"], o["origin"])
                for o in read_release_overrides(rebuilt, _manifest(rebuilt))
                if o["origin"] == "amend"]
        assert kept == [("kot", "remove", "amend"), ("pies", "add", "amend")]
    assert replaced != amended.name
    time.sleep(1.1)
    dropped, line = _rebuild(home, drop=True)
    assert "; osps drops the 2 overrides of " in line and "(--drop-overrides)" in line
    kot, pies = verdicts()
    assert kot["valid"] and not pies["valid"]
    assert all(o["origin"] == "reviewed"
               for o in read_release_overrides(dropped, _manifest(dropped)))
    time.sleep(1.1)
    _path, line = _rebuild(home)          # nothing left to keep: the plan says nothing
    assert "overrides" not in line


def test_a_rebuild_takes_reviewed_overrides_from_the_reviewed_file_as_it_is_now(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewed override the reviewers have since withdrawn is not carried over by the
    rebuild as if a maintainer had made it."""
    reviewed = tmp_path / "osps.tsv"
    reviewed.write_text("jaźń\tremove\treviewed: not in edition 2026\n", encoding="utf-8")
    monkeypatch.setattr(amend, "OVERRIDES_DIR", tmp_path)
    publish(home, "osps", POLISH_RECORDS)
    assert not Catalog(home).lexicon("osps").check("jaźń")["valid"]
    reviewed.write_text("# none\n", encoding="utf-8")
    time.sleep(1.1)
    _path, line = _rebuild(home)
    assert "overrides" not in line
    assert Catalog(home).lexicon("osps").check("jaźń")["valid"]
