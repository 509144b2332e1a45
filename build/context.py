"""What a builder is handed: the build's root, its fetched sources, where to log, its limits.

Its own module so that builders depend on it and nothing else of the pipeline: the
pipeline (:mod:`build.pipeline`) finds a game's builder through :mod:`build.games`, hands it
a :class:`BuildContext` and writes what it yields; a builder never imports the pipeline.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from lexicon.sources import fetch as fetching

from lexicon.errors import BuildError

T = TypeVar("T")


def log_to_stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def nobody_counts(_n: int) -> None:
    """``BuildContext.expect_records`` outside a build's writing phase."""


@dataclass
class BuildContext:
    root: Path
    fetched: dict[str, fetching.Fetched] = field(default_factory=dict)
    log: Callable[[str], None] = log_to_stderr
    limit: int | None = None   # judge only N candidate forms, sampled evenly (smoke builds)
    # processes that judge the candidates (build.shards); None: $LEXICON_BUILD_WORKERS, else
    # the machine's cores. The release is the same bytes whatever the number.
    workers: int | None = None
    # check the profile's canary words before publishing; None: only on a full build of
    # the real sources (a smoke build or a test's tiny word list lacks them)
    canaries: bool | None = None
    # build without the amend overrides of the release this build replaces (a rebuild keeps
    # them unless the maintainer says so: ``lexicon build --drop-overrides``)
    drop_overrides: bool = False
    # a builder that learns how many records it will yield says so here (``add_total`` of
    # the "records written" bar during a build), so the bar has a total and an ETA
    expect_records: Callable[[int], None] = field(default=nobody_counts, repr=False)

    def source_root(self, source_id: str) -> Path:
        fetched = self.fetched.get(source_id)
        if fetched is None or fetched.root is None:
            raise BuildError(f"source {source_id!r} was not fetched for this build")
        return fetched.root


def smoke_sample(items: Sequence[T], limit: int | None) -> list[T]:
    """``limit`` items evenly spaced over ``items`` (all of them when ``limit`` is None or
    not smaller). A smoke build (``--limit N``) judges such a sample of the sorted
    candidates: the first N in code-point order would be capitalised words, digits and
    punctuation, which a game rejects, so a smoke build would admit nothing. Deterministic:
    the same candidates give the same sample."""
    items = list(items)
    if limit is None or limit >= len(items):
        return items
    if limit <= 0:
        return []
    return [items[i * len(items) // limit] for i in range(limit)]
