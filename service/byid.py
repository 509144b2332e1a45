"""A release asked for by id (``?release=``, a body's ``release``) is taken off the event loop.

The catalog keeps a few releases opened by id and closes the ones it pushes out once the
requests that may read them have ended; opening one more while too many are still closing
waits for a closing (:meth:`lexicon.Catalog.lexicon`, at most a few seconds, then
``out_of_descriptors``). That wait must never hold the event loop: every other request,
``/healthz`` among them, would wait with it, and so would the requests the closings wait
for. So a coroutine that takes a release named by id does it through :func:`taken`, on a
thread; the current release (no id) is taken on the loop, as that never waits. The
single-word lookup's fast lane asks the catalog not to wait at all (``wait=False``) and
leaves such a request to its route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

T = TypeVar("T")


async def taken(release: str | None, take: Callable[[], T]) -> T:
    """``take()`` (which takes ``release`` from the catalog): at once when no release is
    named by id, else on a thread."""
    if release is None:
        return take()
    return await run_in_threadpool(take)
