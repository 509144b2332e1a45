"""Judging in forked workers (build.shards): results in shard order whatever the number of
workers, and a Polish build that writes the same release with 1, 2 or 3 workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lexicon.build import shards
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.build.record_writer import split
from lexicon.build.release_writer import ReleaseWriter

from lexicon.errors import BuildError
from lexicon.game import profile as profiles
from lexicon.store import published
from lexicon.store.integrity import read_manifest
from lexicon.store.recordfile import Split
from tests.builds.test_polish_build import builder
from tests.conftest import POLISH_RECORDS, rec


def test_results_come_back_in_shard_order_from_several_processes() -> None:
    data = [f"w{i:03d}" for i in range(57)]   # loaded before the fork: the workers read it

    def task(start: int, stop: int) -> tuple[int, list[str]]:
        return os.getpid(), data[start:stop]

    spans = shards.spans(len(data), 3, chunk=100)
    assert len(spans) == 6 and spans[-1][1] == 57      # shared out, not one big chunk
    results = list(shards.ordered(task, spans, 3))
    assert [w for _pid, part in results for w in part] == data
    pids = {pid for pid, _part in results}
    assert pids and os.getpid() not in pids          # judged in the forked workers
    inline = list(shards.ordered(task, spans, 1))
    assert {pid for pid, _part in inline} == {os.getpid()}


def test_recycled_workers_give_the_same_results_in_order() -> None:
    """A worker replaced after each shard (``recycle=1``) is a fresh fork of this process:
    the results stay in shard order, judged by more processes than the pool holds."""
    data = [f"w{i:03d}" for i in range(40)]

    def task(start: int, stop: int) -> tuple[int, list[str]]:
        return os.getpid(), data[start:stop]

    spans = shards.spans(len(data), 2, chunk=5)
    results = list(shards.ordered(task, spans, 2, recycle=1))
    assert [w for _pid, part in results for w in part] == data
    assert len({pid for pid, _part in results}) == len(spans) > 2


def test_a_failing_shard_fails_the_run_at_that_shard() -> None:
    def task(start: int, stop: int) -> int:
        if start >= 20:
            raise ValueError(f"bad shard {start}")
        return start

    seen: list[int] = []
    with pytest.raises(ValueError, match="bad shard 20"):
        for start in shards.ordered(task, shards.spans(40, 2, chunk=10), 2):
            seen.append(start)
    assert seen == [0, 10]


def test_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(shards.WORKERS_ENV, "3")
    assert shards.worker_count() == 3
    assert shards.worker_count(2) == 2           # the build's own option wins
    monkeypatch.delenv(shards.WORKERS_ENV)
    assert shards.worker_count(work=10, least=100) == 1     # too little work to share
    monkeypatch.setenv(shards.WORKERS_ENV, "many")
    with pytest.raises(BuildError, match="LEXICON_BUILD_WORKERS"):
        shards.worker_count()
    with pytest.raises(BuildError, match="1 or more"):
        shards.worker_count(0)


def _content(root: Path, game: str) -> tuple[str, str, dict]:
    path = published.current_path(game, root)
    assert path is not None
    m = read_manifest(path)
    return m["content_sha256"], m["content_hash"], m["counts"]


def test_polish_build_is_the_same_release_with_1_2_and_3_workers(tmp_path: Path) -> None:
    found = {}
    for workers in (1, 2, 3):
        root = tmp_path / f"workers-{workers}"
        root.mkdir()
        b = builder("osps")
        build_game("osps", BuildContext(root=root, log=lambda _m: None, workers=workers),
                   builder=b)
        stats = [(k, n) for k, n in b.policy()["stats"].items()   # in the order counted
                 if not k.startswith("seconds_")]                 # wall times differ
        found[workers] = (*_content(root, "osps"), dict(stats), b.policy()["rejected_by_rule"],
                          stats)
    counts, stats, rejected, _order = found[1][2:]
    assert counts["valid"] > 10 and counts["rejected"] > 10 and rejected
    assert stats["generated_new_forms"] > 0          # the generation phase is sharded too
    assert found[2] == found[1] and found[3] == found[1]


def test_split_records_stage_the_same_bytes_as_records(tmp_path: Path) -> None:
    """What a judging worker sends (a record already split) is staged as the record itself
    would be, merges of spellings sharing a key included."""
    records = [*POLISH_RECORDS, rec("kot", word="Kot", valid=False, code="capitalised",
                                    message="written with a capital letter"),
               rec("kot", tags="subst:sg:nom:m2", category="noun")]
    hashes = []
    for as_split in (False, True):
        root = tmp_path / f"split-{as_split}"
        with ReleaseWriter(profiles.load("osps"), root) as writer:
            for r in records:
                writer.add(Split(r.key, r.valid, *split(r)) if as_split else r)
            path = writer.publish(sources=[], policy={}, rules=[])
            hashes.append((read_manifest(path)["content_sha256"], writer.merged))
    assert hashes[0] == hashes[1] and hashes[0][1] == 2


def test_polish_phases_end_with_count_total_and_rate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each phase of the sharded Polish build (the hunspell expansion, the judging, the
    generation, the records written) ends with one line that has a count against its total;
    the records' total is the builder's own count, exact on a build without kept lowercase
    spellings."""
    import io
    import re

    from lexicon.build import progress
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    build_game("osps", BuildContext(root=tmp_path / "home", log=lambda _m: None, workers=2),
               builder=builder("osps"))
    closing = {}
    for line in err.getvalue().splitlines():
        m = re.match(r"^(osps: [^:]+): ([\d,]+)/([\d,]+) (\w+), [\d,]+ \w+/s, done in ", line)
        if m:
            closing[m.group(1)] = (int(m.group(2).replace(",", "")),
                                   int(m.group(3).replace(",", "")), m.group(4))
    assert closing["osps: expanding hunspell-pl"] == (4, 4, "entries")    # tiny.dic
    judged = closing["osps: judging listed forms"]
    assert judged[0] == judged[1] > 10 and judged[2] == "forms"
    generated = closing["osps: generating paradigms"]
    assert generated[0] == generated[1] > 0 and generated[2] == "lemmas"
    records = closing["osps: records written"]
    assert records[0] == records[1] > judged[0]      # the listed forms and the generated
