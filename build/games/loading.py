"""Bulk loading without the cyclic garbage collector: shared by the builders that read
millions of long-lived objects (Kvizovka's apertium walk and hunspell slots, Križemkražem's
sources).

Why: CPython's cyclic collector runs every few hundred net allocations, and each run of an
older generation walks every object that survived so far. A builder's load creates tens of
millions of dicts, tuples and small records that all survive until the build ends, so the
collector's walks grow with the heap and take a large share of the loading's CPU. None of
these objects are in reference cycles (they are freed by their reference counts when the
builder goes), so nothing is lost by not looking for cycles while they are made. What the
loading created is then handed to the oldest generation in one move (``gc.freeze`` then
``gc.unfreeze``), instead of being walked by the next young collections one generation at a
time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside the block (restored as it was after)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()      # everything alive now: into the permanent generation ...
        gc.unfreeze()    # ... and back into the oldest one, not walked by young collections
        if enabled:
            gc.enable()
