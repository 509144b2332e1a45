"""Releases asked for by id (``?release=``) are kept open a few at a time: the most recently
used :data:`lexicon.catalog.OPEN_BY_ID`, the one pushed out closed (its file descriptors
given back) once no request can be reading it; and a process out of file descriptors is
``out_of_descriptors`` (503, retryable), never ``release_damaged``, and condemns nothing."""

from __future__ import annotations

import gc
import json
import os
import resource
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lexicon import catalog as catalog_module
from lexicon.catalog import CLOSING_BY_ID, OPEN_BY_ID, Catalog
from lexicon.errors import OutOfDescriptors
from lexicon.export import offline
from lexicon.lexicon import Lexicon
from lexicon.store import integrity, leases, published
from lexicon.store.release import Release
from tests.conftest import PackGate


def editions(home: Path, game: str, n: int) -> list[str]:
    """``n`` more published releases of ``game``: copies of its current one, each under an
    id of its own (real files, so each is opened on its own)."""
    current = published.current_path(game, home)
    assert current is not None
    ids = []
    for i in range(n):
        rid = f"{game}-20260101T0000{i:02d}Z-{i:08x}"
        shutil.copytree(current, current.parent / rid)
        manifest = current.parent / rid / integrity.MANIFEST
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["release"] = rid
        manifest.write_text(json.dumps(data), encoding="utf-8")
        ids.append(rid)
    return ids


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def limit_leaving(spare: int) -> int:
    """The descriptor limit under which this process can open ``spare`` more files: a new
    descriptor takes the lowest free number, and must be below the limit."""
    free = [os.dup(0) for _ in range(spare + 1)]     # the lowest free numbers, in order
    for fd in free:
        os.close(fd)
    return free[spare]


@pytest.fixture()
def catalog(small_releases: Path) -> Iterator[Catalog]:
    cat = Catalog(small_releases)
    yield cat
    cat.close()
    gc.collect()


def test_releases_asked_for_by_id_are_bounded(catalog: Catalog, small_releases: Path) -> None:
    ids = editions(small_releases, "osps", 4 * OPEN_BY_ID)
    catalog.lexicon("osps").check("kot")
    gc.collect()
    before = open_fds()
    catalog.lexicon("osps", ids[0]).check("kot")
    each = open_fds() - before                 # what one release opened by id holds
    assert each > 0
    for rid in ids:
        assert catalog.lexicon("osps", rid).check("kot")["release"] == rid
    deadline = time.monotonic() + 30           # the evicted are closed by a thread
    while open_fds() > before + OPEN_BY_ID * each and time.monotonic() < deadline:
        time.sleep(0.05)
    assert open_fds() <= before + OPEN_BY_ID * each, (open_fds(), before, each)
    # an evicted release asked for again is opened again, and answers
    assert catalog.lexicon("osps", ids[0]).check("kot")["valid"] is True


def test_no_file_descriptor_left_is_not_damage(catalog: Catalog, small_releases: Path) -> None:
    """Releases opened by id with 0, 1, 2 … descriptors to spare: each either answers or
    is refused ``out_of_descriptors``; none is ``release_damaged`` or condemned, and with
    descriptors again every one answers."""
    ids = editions(small_releases, "osps", 16)
    catalog.lexicon("osps").check("kot")
    gc.collect()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    outcomes: list[str] = []
    for spare, rid in enumerate(ids):
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit_leaving(spare), hard))
        try:
            catalog.lexicon("osps", rid).check("kot")
            outcomes.append("answered")
        except OutOfDescriptors as exc:
            assert exc.status == 503 and exc.headers["Retry-After"]
            outcomes.append(exc.code)
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert outcomes[0] == "out_of_descriptors" and "answered" in outcomes, outcomes
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit_leaving(0), hard))
    try:
        with pytest.raises(OutOfDescriptors):      # opening the release itself
            Release(published.release_path("osps", ids[-1], small_releases))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    for rid in ids:                         # nothing was condemned
        assert catalog.lexicon("osps", rid).check("kot")["valid"] is True
        assert not integrity.known_damage(published.release_path("osps", rid, small_releases))
    assert catalog.state("osps")["state"] == "serving"


def test_an_evicted_release_is_not_closed_under_its_pack_maker(
        catalog: Catalog, small_releases: Path, pack_gate: PackGate) -> None:
    """A release whose offline pack is being made is in use: pushed out of the releases
    kept open by id, it is closed only once the maker is done with it (another one pushed
    out after it is closed before)."""
    ids = editions(small_releases, "osps", OPEN_BY_ID + 2)
    held = catalog.lexicon("osps", ids[0])
    job = held.offline_pack_job()
    with pack_gate.maker():                      # the maker is held at work
        second = catalog.lexicon("osps", ids[1])
        for rid in ids[2:]:                      # pushes out ids[0], then ids[1]
            catalog.lexicon("osps", rid).check("kot")
        _closed_within(second, 30)
        assert not _closed(held)                 # still open under its maker
    assert job.result(120).words == offline.make_pack(held.profile, held.release).words
    _closed_within(held, 30)                     # and closed after it


def _closed(lex: Lexicon) -> bool:
    return lex.release.store._shared is None


def _closed_within(lex: Lexicon, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not _closed(lex):
        assert time.monotonic() < deadline, "never closed"
        time.sleep(0.05)


class HeldReads:
    """The reads under way as a server's requests would be (:mod:`lexicon.store.leases`'
    ``since``): each wait taken while they are held returns only once :meth:`end` is
    called, so releases pushed out meanwhile stay closing for as long as the test wants."""

    def __init__(self) -> None:
        self.ended = threading.Event()

    def since(self) -> Callable[[float], None]:
        return lambda timeout: self.ended.wait(timeout) and None

    def end(self) -> None:
        self.ended.set()


def test_an_open_by_id_waits_for_the_closings_it_would_outrun(
        catalog: Catalog, small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the releases pushed out of those opened by id still closing (the requests that
    may read them not ended), at most CLOSING_BY_ID of them are left open beside the
    OPEN_BY_ID kept: one more waits for a closing (refused at once with ``wait=False``,
    ``out_of_descriptors`` when its wait runs out), and opens once the reads end."""
    ids = editions(small_releases, "osps", OPEN_BY_ID + CLOSING_BY_ID + 2)
    catalog.lexicon("osps").check("kot")
    gc.collect()
    before = open_fds()
    catalog.lexicon("osps", ids[0]).check("kot")
    each = open_fds() - before
    held = HeldReads()
    monkeypatch.setattr(leases, "_since", held.since)
    for rid in ids[1:OPEN_BY_ID + CLOSING_BY_ID]:     # pushes out CLOSING_BY_ID, held
        assert catalog.lexicon("osps", rid).check("kot")["release"] == rid
    assert open_fds() == before + (OPEN_BY_ID + CLOSING_BY_ID) * each
    nxt = ids[OPEN_BY_ID + CLOSING_BY_ID]
    with pytest.raises(OutOfDescriptors) as refused:
        catalog.lexicon("osps", nxt, wait=False)
    assert refused.value.status == 503 and refused.value.headers["Retry-After"]
    monkeypatch.setattr(catalog_module, "CLOSE_WAIT_SECONDS", 0.0)
    with pytest.raises(OutOfDescriptors):
        catalog.lexicon("osps", nxt)
    assert open_fds() == before + (OPEN_BY_ID + CLOSING_BY_ID) * each   # none opened
    monkeypatch.setattr(catalog_module, "CLOSE_WAIT_SECONDS", 120.0)
    answers: list[str] = []
    waiting = threading.Thread(target=lambda: answers.append(
        catalog.lexicon("osps", nxt).check("kot")["release"]))
    waiting.start()
    held.end()                                    # the requests end: the closings go on
    waiting.join(120)
    assert answers == [nxt]
    assert catalog.lexicon("osps", ids[-1]).check("kot")["valid"] is True
    for rid in ids:                               # nothing was condemned
        assert not integrity.known_damage(published.release_path("osps", rid, small_releases))
