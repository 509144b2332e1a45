"""Print a provisional tile distribution for a game from its current release.

Why: Križemkražem's rule book gives 222 letter tiles and no distribution, but an engine's
bag needs one (:func:`lexicon.enginepack.estimate_counts` says how it is estimated). The
printed counts go into the profile by hand, marked ``counts_provisional``, so the estimate
is reviewed and fixed in the profile instead of changing with every build.

Usage: ``python -m tools.estimate_counts krizemkrazem`` (reads ``$LEXICON_HOME``).
"""

from __future__ import annotations

import sys

from lexicon.catalog import Catalog
from lexicon.enginepack import estimate_counts
from lexicon.export import valid_keys


def main(game: str) -> None:
    cat = Catalog()
    profile = cat.profile(game)
    release = cat.release(game)
    total = profile.total_tiles
    if total is None:
        raise SystemExit(f"{game}: the profile gives no total_tiles")
    counts = estimate_counts(profile, valid_keys(profile, release), total)
    print(f"# {release.id}: {sum(counts.values())} tiles")
    for letter, n in counts.items():
        print(f"{letter}\t{n}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "krizemkrazem")
