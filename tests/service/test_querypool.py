"""The queries' own bounded pool: a fixed number of workers, a bounded queue, `busy` beyond it,
and lookups and /healthz answered while every query worker is taken."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.querypool import Busy, QueryPool

from tests.conftest import SmallHomes


def test_pool_runs_at_most_its_workers_and_refuses_past_its_queue() -> None:
    pool = QueryPool(workers=2, queued=1, max_wait=60)
    release = threading.Event()
    started = threading.Semaphore(0)
    running: list[str] = []
    lock = threading.Lock()
    most = [0]

    def blocked() -> str:
        with lock:
            running.append(threading.current_thread().name)
            most[0] = max(most[0], len(running))
        started.release()
        release.wait(60)
        with lock:
            running.pop()
        return "done"

    async def scenario() -> list[object]:
        tasks = [asyncio.ensure_future(pool.run(blocked)) for _ in range(3)]   # 2 run, 1 waits
        for _ in range(2):                           # both workers are at work
            assert await asyncio.to_thread(started.acquire, True, 60)
        with pytest.raises(Busy) as caught:
            await pool.run(blocked)                  # a fourth: the queue is full
        assert caught.value.status == 503 and caught.value.headers == {"Retry-After": "1"}
        assert pool.admitted == 3 and pool.refused == 1
        release.set()
        return list(await asyncio.gather(*tasks))

    assert asyncio.run(scenario()) == ["done"] * 3
    assert most[0] == 2 and pool.admitted == 0       # every slot given back
    assert asyncio.run(pool.run(lambda: 42)) == 42
    pool.close()


class HandClock:
    """A clock the test turns: the pool's measure of how long a query waited."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_query_that_waited_too_long_is_refused_and_failures_give_their_slot_back() -> None:
    """A query that a worker takes only after ``max_wait`` has passed on the pool's clock
    is refused ``busy``; one taken before is run, however late the machine runs it."""
    clock = HandClock()
    pool = QueryPool(workers=1, queued=1, max_wait=5, clock=clock)
    release = threading.Event()
    started = threading.Event()

    def first_job() -> bool:
        started.set()
        return release.wait(60)

    async def scenario() -> None:
        first = asyncio.ensure_future(pool.run(first_job))
        assert await asyncio.to_thread(started.wait, 60)      # the worker has it
        second = asyncio.ensure_future(pool.run(lambda: "never run"))
        await asyncio.sleep(0)                      # the second is queued behind it
        clock.now += 6                              # ... past max_wait
        release.set()
        assert await first is True
        with pytest.raises(Busy, match="waited"):
            await second

        def failing() -> None:
            raise ValueError("a bug")
        with pytest.raises(ValueError):
            await pool.run(failing)

    asyncio.run(scenario())
    assert pool.admitted == 0 and pool.refused == 1
    pool.close()


@pytest.fixture()
def api(tmp_path: Path, small_homes: SmallHomes) -> Iterator[TestClient]:
    with TestClient(create_app(small_homes("queries", tmp_path / "home")),
                    raise_server_exceptions=False) as client:
        yield client


def test_queries_answer_busy_while_lookups_and_healthz_still_answer(api: TestClient) -> None:
    """Every query worker taken and no room to wait: a query is 503 `busy` with Retry-After
    at once, while a single word, a batch and /healthz answer as usual."""
    pool = QueryPool(workers=1, queued=0)
    api.app.state.query_pool = pool                       # type: ignore[attr-defined]
    release = threading.Event()
    started = threading.Event()

    def held() -> bool:
        started.set()
        return release.wait(60)

    holder = threading.Thread(target=lambda: asyncio.run(pool.run(held)))
    holder.start()
    try:
        assert started.wait(60)                  # the one worker is taken
        for path, params in (("pattern", {"pattern": "*o*"}), ("blanks", {"word": "ko?"}),
                             ("anagrams", {"rack": "kot"}), ("hooks", {"word": "kot"}),
                             ("prefix", {"prefix": "ko"})):
            r = api.get(f"/v1/games/osps/{path}", params=params)
            assert r.status_code == 503 and r.json()["code"] == "busy", path
            assert r.headers["retry-after"] == "1"
        assert api.get("/healthz").status_code == 200
        assert api.get("/v1/games/osps/words/kot").json()["valid"] is True
        assert api.post("/v1/games/osps/valid", json={"words": ["kot"]}).status_code == 200
    finally:
        release.set()
        holder.join()
    r = api.get("/v1/games/osps/pattern", params={"pattern": "*owy"})
    assert r.status_code == 200 and r.json()["count"] == 2
    pool.close()
