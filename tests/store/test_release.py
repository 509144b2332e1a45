"""Publishing releases: immutability, atomic switch, manifests, diffs, crash safety."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lexicon.build.pipeline import BuildContext, build_game

from lexicon.catalog import Catalog
from lexicon.errors import BuildError, LexiconError
from lexicon.store import published
from tests.conftest import POLISH_RECORDS, StaticBuilder, publish, rec


def test_publish_writes_manifest_counts_and_current(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["game"] == "osps" and manifest["release"] == path.name
    assert manifest["counts"]["valid"] == 5 and manifest["counts"]["rejected"] == 2
    assert manifest["counts"]["by_reason"] == {"abbreviation": 1, "hyphen_or_apostrophe": 1}
    assert len(manifest["content_sha256"]) == 64
    assert manifest["size_bytes"] > 0 and manifest["rules_version"] == "pl-1"
    assert published.current_id("osps", home) == path.name
    assert not list((home / "releases" / "osps").glob(".staging-*"))


def test_second_release_diffs_against_the_first(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    second = publish(home, "osps", [*POLISH_RECORDS[1:], rec("pies")])
    m = json.loads((second / "manifest.json").read_text())
    assert m["previous"] == first.name
    assert m["diff"]["added"] == 1 and m["diff"]["added_sample"] == ["pies"]
    assert m["diff"]["removed"] == 1 and m["diff"]["removed_sample"] == ["zażółć"]
    assert (second / "diff-added.txt").read_text().split() == ["pies"]
    rows = published.list_releases("osps", home)
    assert [r["current"] for r in rows] == [True, False]


def test_listing_releases_parses_each_manifest_once(home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    second = publish(home, "osps", [*POLISH_RECORDS[1:], rec("pies")])
    parsed: list[str] = []
    real = published.read_manifest

    def counting(rdir: Path) -> dict:
        parsed.append(Path(rdir).name)
        return real(rdir)

    monkeypatch.setattr(published, "read_manifest", counting)
    published._SUMMARIES.clear()
    once = published.list_releases("osps", home)
    twice = published.list_releases(None, home)
    assert sorted(parsed) == sorted([first.name, second.name])     # once each, not twice
    assert once == twice and [r["current"] for r in twice] == [True, False]
    published.set_current("osps", first.name, home)    # CURRENT is read afresh, not cached
    assert [r["current"] for r in published.list_releases("osps", home)] == [False, True]
    assert len(parsed) == 2
    assert all(len(json.dumps(r)) < 2_000 for r in twice)     # a summary, not a manifest


def test_crashed_build_leaves_previous_release_serving(home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    before = sorted(p.name for p in first.rglob("*"))
    ctx = BuildContext(root=home, log=lambda _m: None)
    with pytest.raises(Exception, match="simulated crash"):
        build_game("osps", ctx, builder=StaticBuilder("osps", POLISH_RECORDS, fail_after=3))
    assert published.current_id("osps", home) == first.name
    assert sorted(p.name for p in first.rglob("*")) == before
    assert not list((home / "releases" / "osps").glob(".staging-*"))
    cat = Catalog(home)
    assert cat.release("osps").is_valid("jaźń")


def test_empty_build_is_refused(home: Path) -> None:
    ctx = BuildContext(root=home, log=lambda _m: None)
    with pytest.raises(BuildError, match="admitted no word"):
        build_game("osps", ctx, builder=StaticBuilder("osps", [rec("np", valid=False,
                                                                    code="abbreviation")]))
    assert published.current_id("osps", home) is None


def test_records_for_one_key_are_merged_valid_first(home: Path) -> None:
    path = publish(home, "osps", [
        rec("bóg", valid=False, word="Bóg", code="capitalised"),
        rec("bóg", word="bóg", tags="subst:sg:nom:m1"),
    ])
    r = Catalog(home).release("osps").get("bóg")
    assert r is not None and r.valid and r.word == "bóg"
    assert json.loads((path / "manifest.json").read_text())["policy"]["merged_spellings"] == 1


def test_two_rejected_spellings_keep_the_lowercase_reason(home: Path) -> None:
    publish(home, "osps", [
        rec("np", valid=False, word="Np", code="capitalised", message="capital"),
        rec("np", valid=False, word="np", code="abbreviation", message="reviewed list"),
        rec("kot"),
    ])
    r = Catalog(home).release("osps").get("np")
    assert r is not None and r.reason_code == "abbreviation" and r.word == "np"


def test_records_share_shapes_and_keep_every_detail(home: Path) -> None:
    records = [rec(f"kot{'a' * i}", tags="subst:sg:nom:m2", category="noun") for i in range(50)]
    records.append(rec("kotami", lemma="kot", tags="subst:pl:inst:m2", category="noun"))
    records.append(rec("psami", lemma="pies", tags="subst:pl:inst:m2", category="noun"))
    path = publish(home, "osps", records)
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["records"]["shapes"] == 3      # 50 self-lemma nouns share one shape
    rel = Catalog(home).release("osps")
    r = rel.get("kotaaa")
    assert r is not None and r.analyses[0].tags == "subst:sg:nom:m2" and r.category == "noun"
    assert r.analyses[0].lemma == "kotaaa" and r.evidence == ["test list"]
    assert rel.get("kotami").analyses[0].lemma == "kot"  # type: ignore[union-attr]
    assert rel.get("psami").analyses[0].lemma == "pies"  # type: ignore[union-attr]
    assert path.name == rel.id


def test_content_hash_covers_message_text(home: Path) -> None:
    a = publish(home, "osps", [rec("kot"), rec("np", valid=False, code="abbreviation",
                                                 message="first wording")])
    b = publish(home, "osps", [rec("kot"), rec("np", valid=False, code="abbreviation",
                                                 message="second wording")])
    ma = json.loads((a / "manifest.json").read_text())
    mb = json.loads((b / "manifest.json").read_text())
    assert ma["content_sha256"] != mb["content_sha256"]


def test_messages_naming_the_word_share_one_template(home: Path) -> None:
    publish(home, "osps", [rec("kot")] + [
        rec(f"kot{'a' * i}", valid=False, word=f"Kot{'a' * i}", code="capitalised",
            message=f"Kot{'a' * i} is written with a capital") for i in range(1, 5)]
        + [rec("psa", valid=False, code="abbreviation", message="only \x01 here")])
    rel = Catalog(home).release("osps")
    r = rel.get("kotaa")
    assert r is not None and r.word == "Kotaa"
    assert r.reason_message == "Kotaa is written with a capital"
    assert rel.get("psa").reason_message == "only \x01 here"  # type: ignore[union-attr]
    # rejected shapes are numbered after the admitted ones: the first is the commonest
    assert rel.store.shape(rel.store.valid_shapes)["m"] == ["\x01 is written with a capital"]


def _old_layout_writer() -> tuple[Any, Callable[..., bytes]]:
    """The writing half of the older ``lexicon.lmdb/`` layout, which only this test needs:
    a string table that interns as it goes, and a record's status byte + compact JSON."""
    from lexicon.build.old_layouts import StringTable

    from lexicon.store.records import REJECTED, VALID, Record

    class WritingTable(StringTable):
        def __init__(self) -> None:
            super().__init__()
            self.index: dict[str, int] = {}
            self._text_index: dict[str, int] = {}
            self._seen_once: set[str] = set()

        def id(self, text: str) -> int:
            found = self.index.get(text)
            if found is None:
                found = self.index[text] = len(self.items)
                self.items.append(text)
            return found

        def ids(self, texts: list[str] | tuple[str, ...]) -> int:
            return self.id(self.SEP.join(texts))

        def text_id_if_repeated(self, text: str) -> int | str:
            """An id in the on-demand text table for a string seen before, else the string.

            Messages and evidence are sometimes shared by millions of words ("written with a
            capital letter") and sometimes unique to one ("genitive singular of hiša"); interning
            the unique ones would only make the release bigger.
            """
            found = self._text_index.get(text)
            if found is not None:
                return found
            if text in self._seen_once:
                self._seen_once.discard(text)
                found = self._text_index[text] = len(self.lazy_items)
                self.lazy_items.append(text)
                return found
            self._seen_once.add(text)
            return text

        def dump(self) -> bytes:
            return json.dumps(self.items, ensure_ascii=False).encode()

    def encode_record(rec: Record, table: WritingTable) -> bytes:
        """Status byte + compact JSON; repeated strings become ids into ``table`` (the
        older layout, as it was written)."""
        body: dict[str, Any] = {}
        if rec.word != rec.key:
            body["w"] = rec.word
        if rec.reason_code:
            body["r"] = table.id(rec.reason_code)
            msg = table.text_id_if_repeated(rec.reason_message or "")
            body["M" if isinstance(msg, int) else "m"] = msg
        if rec.analyses:
            body["a"] = [
                [0 if a.lemma == rec.word else a.lemma, table.id(a.tags), table.id(a.source),
                 *([table.ids(a.labels)] if a.labels else [])]
                for a in rec.analyses
            ]
        if rec.sources:
            body["s"] = table.ids(rec.sources)
        if rec.category:
            body["c"] = table.id(rec.category)
        if rec.evidence:
            ev = table.text_id_if_repeated(table.SEP.join(rec.evidence))
            body["E" if isinstance(ev, int) else "e"] = ev
        head = VALID if rec.valid else REJECTED
        return head + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()

    return WritingTable(), encode_record


def test_a_release_in_the_older_lmdb_layout_is_read_by_repack_only(home: Path) -> None:
    import lmdb
    from lexicon.build.amend import derive
    from lexicon.build.old_layouts import (
        FORMS_DB,
        LMDB_DIR,
        STRINGS_DB,
        STRINGS_KEY,
        TEXTS_DB,
        open_parent,
    )

    from lexicon.errors import ReleaseDamaged
    from lexicon.store.release import Release

    path = home / "releases" / "osps" / "old"
    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps({"game": "osps", "release": "old"}))
    table, encode_record = _old_layout_writer()
    env = lmdb.open(str(path / LMDB_DIR), max_dbs=4)
    with env.begin(write=True) as txn:
        for r in POLISH_RECORDS:
            txn.put(r.key.encode(), encode_record(r, table),
                    db=env.open_db(FORMS_DB, txn=txn))
        txn.put(STRINGS_KEY, table.dump(), db=env.open_db(STRINGS_DB, txn=txn))
        for i, text in enumerate(table.lazy_items):
            txn.put(i.to_bytes(4, "big"), text.encode(), db=env.open_db(TEXTS_DB, txn=txn))
    env.close()
    with pytest.raises(ReleaseDamaged, match="lexicon repack osps"):
        Release(path)             # the runtime reads one layout
    rel = open_parent(path)      # the build side reads the older one, to migrate it
    assert rel.get("zażółć") == POLISH_RECORDS[0]
    assert rel.is_valid("kot") and not rel.is_valid("np")
    assert sorted(r.key for r in rel.records()) == sorted(r.key for r in POLISH_RECORDS)
    rel.close()
    new = Release(derive("osps", path, root=home, kind="repack"))
    assert new.get("zażółć") == POLISH_RECORDS[0]
    assert new.is_valid("kot") and not new.is_valid("np")
    assert sorted(r.key for r in new.records()) == sorted(r.key for r in POLISH_RECORDS)
    new.close()


def test_build_if_missing_rewrites_a_release_whose_indexes_are_an_older_format(
        home: Path) -> None:
    """An upgraded machine: `make serve`'s `build --if-missing` keeps a current release,
    but one whose query indexes this code no longer reads is repacked (remik linked
    again), so its queries answer instead of `no_index`; every verdict is kept."""
    from tests.conftest import lexicon

    publish(home, "osps", POLISH_RECORDS)
    publish(home, "remik", POLISH_RECORDS)
    before = {g: Catalog(home).release(g).id for g in ("osps", "remik")}
    for game, rid in before.items():          # as a release of index format 7 looks
        path = home / "releases" / game / rid / "manifest.json"
        manifest = json.loads(path.read_text())
        manifest["indexes"]["format"] = 7
        path.write_text(json.dumps(manifest))
    with pytest.raises(LexiconError) as err:
        Catalog(home).lexicon("osps").anagrams("kota")
    assert err.value.code == "no_index" and "lexicon repack" in err.value.message

    done = lexicon(home, "build", "--if-missing", "osps", "remik")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("its indexes are in format 7, this code reads 8") == 2
    cat = Catalog(home)
    after = {g: cat.release(g).id for g in ("osps", "remik")}
    assert all(after[g] != before[g] for g in after)
    assert cat.release("osps").manifest["repack"]["parent"] == before["osps"]
    assert cat.lexicon("osps").anagrams("kota")["count"] >= 1
    assert cat.lexicon("remik").anagrams("kota")["count"] >= 1
    again = lexicon(home, "build", "--if-missing", "osps", "remik")
    assert again.stdout.count("exists; skipped") == 2
