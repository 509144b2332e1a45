"""Judging in worker processes: sorted candidates cut into shards, each judged in a forked
worker, the results handed back in shard order.

A build's hot loop (a form's readings, its verdict, its record) is the same pure function
of one candidate and what the sources say. The sources take seconds to minutes to load and
gigabytes to hold, so they are loaded once, before the workers start: the workers are
*forked* from the loaded process and read them as they are (copy-on-write pages; the
garbage collector's objects are frozen first, so walking them does not copy them).
Only the shard's bounds go to a worker and only its results come back.

Results come back in shard order whatever the number of workers, and a task sees exactly
the candidates of its shard, so a build with 1, 2 or 8 workers writes the same bytes;
the one-worker case runs the tasks in this process, without a pool. At most
``2 × workers`` shards are in flight, so results wait in memory for a few shards only
while the consumer (the release writer) catches up.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator
from typing import TypeVar

from lexicon.errors import BuildError

R = TypeVar("R")
WORKERS_ENV = "LEXICON_BUILD_WORKERS"
"""How many processes judge a build's candidates (default: the machine's cores)."""
IN_FLIGHT = 2      # shards queued per worker, so none waits while the consumer reads

_TASKS: dict[int, Callable[[int, int], object]] = {}
"""The tasks of the running pools, by id: set before the fork, so the workers inherit the
task itself (a bound method over loaded sources) and only ``(id, start, stop)`` is sent."""


def worker_count(requested: int | None = None, work: int | None = None,
                 least: int = 1) -> int:
    """The workers a build uses: ``requested``, else ``$LEXICON_BUILD_WORKERS``, else the
    machine's cores, but no more than give each at least ``least`` of ``work`` items
    (starting a worker costs more than a few items save). A bad value is refused, not
    silently replaced."""
    raw: object = requested
    where = "workers"
    if raw is None:
        raw = os.environ.get(WORKERS_ENV) or None
        where = WORKERS_ENV
    if raw is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else os.cpu_count() or 1
        if work is not None:
            cores = min(cores, work // max(least, 1))
        return max(cores, 1)
    try:
        n = int(str(raw))
    except ValueError:
        n = 0
    if n < 1:
        raise BuildError(f"{where} = {raw!r}: expected a whole number of worker processes, "
                         "1 or more")
    return n


def spans(total: int, workers: int, chunk: int, least: int = 1) -> list[tuple[int, int]]:
    """``[start, stop)`` shards covering ``range(total)``: ``chunk`` long, shorter when that
    leaves a worker idle (at least ``least`` each), so small inputs are shared out too."""
    size = max(min(chunk, -(-total // (workers * IN_FLIGHT)) if workers > 1 else chunk),
               least, 1)
    return [(i, min(i + size, total)) for i in range(0, total, size)]


def _run(token: int, start: int, stop: int) -> object:
    return _TASKS[token](start, stop)


def ordered(task: Callable[[int, int], R], shards: list[tuple[int, int]],
            workers: int, recycle: int | None = None) -> Iterator[R]:
    """``task(start, stop)`` of every shard, yielded in shard order; run in ``workers``
    forked processes (in this one when ``workers`` is 1 or there is one shard).

    ``task`` must depend only on its shard and on what was loaded before this call (the
    workers are forked here), and return something picklable. An exception in a worker
    is raised here, at its shard; closing the iterator early stops the workers.

    ``recycle``: a worker is replaced by a fresh fork after that many shards. Reading a
    loaded object writes its reference count, so a worker copies every page it reads
    from; one that judged every key of a big build would end up holding its own copy of
    most of the evidence. None: a worker lives as long as the pool.
    """
    if workers <= 1 or len(shards) <= 1:
        for start, stop in shards:
            yield task(start, stop)
        return
    token = id(task)
    _TASKS[token] = task
    gc.collect()
    gc.freeze()       # the loaded objects stay in pages the workers share
    try:
        with multiprocessing.get_context("fork").Pool(workers,
                                                     maxtasksperchild=recycle) as pool:
            queue = iter(shards)
            waiting = deque(pool.apply_async(_run, (token, *span))
                            for span in itertools.islice(queue, workers * IN_FLIGHT))
            while waiting:
                result = waiting.popleft().get()
                span = next(queue, None)
                if span is not None:
                    waiting.append(pool.apply_async(_run, (token, *span)))
                yield result   # type: ignore[misc]
    finally:
        gc.unfreeze()
        _TASKS.pop(token, None)
