"""How many nodes a release's KWG files have, counted once and kept in its home.

Whether a lexicon fits the KWG's 22-bit arc index is known only by making its graph: the
Polish GADDAG's distinct states would fit, and only the copies of shared tails the layout
writes make it too large. That takes the better part of a minute and a GB, too long to
make someone wait for a refusal, and too long to add to a build that a server is waiting
for. So each release is counted once, where nobody waits: ``lexicon build`` counts every
game it published once the last of them is published (:mod:`lexicon.build.plan`), and an
export that counted as it built the graph keeps what it found. Every export after that
reads the figure first and refuses a format too small before it reads a word.

The figures live in the home's cache (``cache/kwg/RELEASE.json``), not in the release,
whose files are fixed when it is published: a figure is derived data, and a release
brought in by a bundle is simply counted again by its first export. A figure holds for the
graph builder and the tile numbering it was counted with (:data:`RECIPE`,
:func:`tile_order`); one counted another way is not believed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.game.profile import Profile
from lexicon.paths import cache_dir
from lexicon.store.release import Release

#: the way a figure was counted: a change to the builder or the layout that changes how
#: many nodes a file has must change it, so that a figure counted the old way is not
#: believed (the export counts again)
RECIPE = 1
#: the two graphs a KWG export writes: DAWG + GADDAG, and the DAWG alone (``--dawg-only``)
PARTS = ("kwg", "dawg_only")


def tile_order(profile: Profile) -> str:
    """The engine's tile numbering as text: a figure counted for another order (a profile
    changed since) is not the count of this one's file."""
    return " ".join(t.letter for t in profile.alphabet.engine)


def _path(release: Release) -> Path:
    # a release lives at HOME/releases/GAME/ID
    return cache_dir(release.path.parents[2]) / "kwg" / f"{release.id}.json"


def read(profile: Profile, release: Release) -> dict[str, Any]:
    """The figures kept for ``release`` that hold for this code and ``profile``'s tiles:
    part -> ``{"nodes": n}`` (counted to the end) or ``{"more_than": n}`` (counting
    stopped there); empty when none is kept or what is kept does not hold."""
    try:
        kept = json.loads(_path(release).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict) or kept.get("recipe") != RECIPE \
            or kept.get("tiles") != tile_order(profile):
        return {}
    return {p: kept[p] for p in PARTS if isinstance(kept.get(p), dict)}


def known_nodes(profile: Profile, release: Release, *, gaddag: bool
                ) -> tuple[int, bool] | None:
    """The node count kept for ``release``'s KWG (``gaddag``) or DAWG-only KWG, and whether
    it is only a lower bound (the file has more than that); ``None`` when none is kept."""
    part = read(profile, release).get("kwg" if gaddag else "dawg_only", {})
    if isinstance(part.get("nodes"), int):
        return part["nodes"], False
    if isinstance(part.get("more_than"), int):
        return part["more_than"] + 1, True
    return None


def keep(profile: Profile, release: Release, **parts: dict[str, int]) -> None:
    """Keep ``parts`` (:data:`PARTS` -> ``{"nodes": n}`` or ``{"more_than": n}``) for
    ``release``, beside what is kept already. A home that cannot be written to keeps
    nothing: the figure only saves a later export its count."""
    figure = {"recipe": RECIPE, "tiles": tile_order(profile), "release": release.id,
              **read(profile, release), **parts}
    path = _path(release)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, json.dumps(figure, indent=1) + "\n")
    except OSError:
        pass
