"""A release the server stops serving lets go of everything it held: a worker that serves
for months through many publishes holds the releases it serves, not every release it ever
opened. Small real releases, real LMDB, read leases as the service takes them, the real
app in process. Nothing here waits: what is counted is objects and file descriptors."""

from __future__ import annotations

import gc
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.launch import serving

from lexicon.store import membership
from tests.conftest import POLISH_RECORDS, publish, rec


def _fds_under(path: Path, pid: int | str = "self") -> list[str]:
    """The files under ``path`` the process ``pid`` holds open."""
    where = os.path.realpath(path) + os.sep
    out = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(where):
            out.append(target)
    return out


@contextmanager
def _no_cyclic_collector() -> Iterator[None]:
    """Only reference counts free objects meanwhile: what is still alive is held, or held
    in a cycle that a server would carry until its collector happens to run."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_a_release_replaced_by_a_publish_is_freed_with_its_files_and_arrays(
        home: Path) -> None:
    first = publish(home, "osps", POLISH_RECORDS)
    with TestClient(create_app(home)) as client:   # leases taken, as in a served worker
        assert client.get("/v1/games/osps/words/kot").json()["release"] == first.name
        assert client.get("/v1/games/osps/pattern", params={"pattern": "k?t"}).status_code == 200
        catalog = client.app.state.catalog
        old = catalog.release("osps")
        assert old.guard == "lease"          # the leases are held: what a server does
        hashed = weakref.ref(membership.prepare(old))   # the big-batch arrays of the release
        release = weakref.ref(old)
        assert _fds_under(first)             # leases, the store, the tries
        del old
        second = publish(home, "osps", [*POLISH_RECORDS, rec("pies")])
        with _no_cyclic_collector():
            r = client.get("/v1/games/osps/words/pies")
            assert r.json()["release"] == second.name and r.json()["valid"]
            assert release() is None, [type(o).__name__ for o in gc.get_referrers(release())]
            assert hashed() is None
            assert _fds_under(first) == []
            assert _fds_under(second)        # the new one is served


def test_a_served_worker_closes_the_files_of_a_replaced_release(home: Path) -> None:
    """The real server (one worker on loopback): once a publish has replaced the release it
    served, the worker holds no descriptor of the old release's files, whatever else holds
    a lease (the thread that answers lease breaks looks at every lease, round after round)."""
    first = publish(home, "osps", POLISH_RECORDS)
    with serving("lexicon.service.app:create_app", home) as (base, pid), \
            httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/v1/games/osps/words/kot").json()["release"] == first.name
        health = http.get("/healthz").json()     # maps the query tries too
        assert health["guards"]["osps"] == "lease"
        assert _fds_under(first, pid)
        second = publish(home, "osps", [*POLISH_RECORDS, rec("pies")])
        assert http.get("/v1/games/osps/words/pies").json()["release"] == second.name
        assert http.get("/healthz").json()["releases"]["osps"] == second.name
        assert _fds_under(first, pid) == []
        assert _fds_under(second, pid)
