"""The engine queries' own bounded pool of worker threads, apart from lookups and ``/healthz``.

A pattern, blanks or anagram query is bounded in work (about a second at most, see
:class:`lexicon.queries.search.Budget` and ``anagrams.MAX_STEPS``), but it is pure Python holding
the GIL: run in FastAPI's shared thread pool (40 threads), 24 broad queries at once took
24 threads and starved everything else of the interpreter (``/healthz`` 12.6 s, a single
word 5 s). So ``pattern``, ``blanks``, ``anagrams``, ``extend``, ``hooks``, ``prefix`` and
the Remik move (``POST /v1/games/remik/move``, whose search is bounded the same way:
``remik.MAX_MOVE_STEPS``) run here:

* at most :data:`MAX_QUERY_WORKERS` at a time, in threads of their own; the single-word
  lookups (on the event loop) and the other routes (in the shared pool) compete with at
  most that many query threads for the interpreter, whatever arrives;
* at most :data:`MAX_QUEUED_QUERIES` more wait, in arrival order; a query arriving when the
  queue is full, or one that waited more than :data:`MAX_QUERY_WAIT_SECONDS` before a worker
  took it, is answered 503 ``busy`` with ``Retry-After`` at once, rather than left waiting
  behind work that will not finish soon.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from lexicon.service import inflight

from lexicon import LexiconError

MAX_QUERY_WORKERS = 2         # the machine's cores; more threads only share one GIL
MAX_QUEUED_QUERIES = 8        # waiting beyond the workers: at most ~4 s of bounded work
MAX_QUERY_WAIT_SECONDS = 5    # a query not started by then is refused (`busy`)
RETRY_AFTER_SECONDS = 1
# How long a query thread may keep the interpreter while the event loop waits for it
# (CPython's default is 5 ms). The loop gives the interpreter up at every socket call and
# must wait that long to get it back each time: a lookup during a flood made ~50 such
# waits. Only matters while threads compete; a lone thread is never interrupted.
SWITCH_INTERVAL = 0.0005

T = TypeVar("T")


class Busy(LexiconError):
    """Every query worker is taken and the queue is full (or too slow): try again soon."""

    code = "busy"
    status = 503

    def __init__(self, message: str) -> None:
        super().__init__(message, detail={"workers": MAX_QUERY_WORKERS,
                                          "max_queued": MAX_QUEUED_QUERIES,
                                          "retry_after": RETRY_AFTER_SECONDS})
        self.headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}


class QueryPool:
    """A fixed set of worker threads and a bounded, time-limited queue in front of them."""

    def __init__(self, workers: int = MAX_QUERY_WORKERS, queued: int = MAX_QUEUED_QUERIES,
                 max_wait: float = MAX_QUERY_WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` measures how long a query waited for a worker (a test turns it by
        hand: what waited too long is then a matter of order, not of the machine's load)."""
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self.workers = workers
        self.max_wait = max_wait
        self._clock = clock
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="query")
        self._slots = threading.BoundedSemaphore(workers + queued)
        self._lock = threading.Lock()
        self.admitted = 0          # running or waiting now
        self.refused = 0           # answered `busy` since the start

    def _refuse(self, message: str) -> Busy:
        with self._lock:
            self.refused += 1
        return Busy(message)

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` on a query worker (in a copy of the caller's context), awaited."""
        if not self._slots.acquire(blocking=False):
            raise self._refuse(f"all {self.workers} query workers are busy and "
                               f"{MAX_QUEUED_QUERIES} queries are waiting; retry in "
                               f"{RETRY_AFTER_SECONDS} s")
        with self._lock:
            self.admitted += 1
        queued_at = self._clock()
        context = contextvars.copy_context()

        def job() -> T:
            waited = self._clock() - queued_at
            if waited > self.max_wait:
                raise self._refuse(f"the query waited {waited:.1f} s for a worker; retry in "
                                   f"{RETRY_AFTER_SECONDS} s")
            serial = inflight.enter()   # a read lease waits for it (service.inflight)
            try:
                return context.run(fn)
            finally:
                inflight.leave(serial)

        def done(_: Future[T]) -> None:   # run, failed or cancelled before it ran
            with self._lock:
                self.admitted -= 1
            self._slots.release()

        try:
            future = self._executor.submit(job)
        except BaseException:
            done(Future())
            raise
        future.add_done_callback(done)
        # cancelling the awaiting task cancels the job too if no worker has taken it yet
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
