"""Which work is under way, to wait for what began before a moment (:func:`since`).

A release file that another process starts to truncate is held back by a read lease
(:mod:`lexicon.store.leases`) until every read of the release that may have begun has
ended; the service knows its reads only as requests (every one passes
:class:`service.metrics.Observability`) and as query jobs (which may outlive a request whose
client went away: :class:`service.querypool.QueryPool`). Each takes a serial number on entry
and gives it back on exit: two dict operations, no lock (single operations on a dict are
atomic under the interpreter lock).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

_serials = itertools.count()
_in_flight: dict[int, None] = {}
POLL_SECONDS = 0.005


def enter() -> int:
    """A piece of work begins: its serial, for :func:`leave`."""
    serial = next(_serials)
    _in_flight[serial] = None
    return serial


def leave(serial: int) -> None:
    _in_flight.pop(serial, None)


def since() -> Callable[[float], None]:
    """A wait for every piece of work under way now: ``wait(timeout)`` returns once each
    has ended, or after ``timeout`` seconds (work that began after this call is not waited
    for, however late the wait is called)."""
    mark = next(_serials)

    def wait(timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while any(serial < mark for serial in list(_in_flight)):
            if time.monotonic() >= deadline:
                return
            time.sleep(POLL_SECONDS)

    return wait
