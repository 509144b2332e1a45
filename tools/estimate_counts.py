"""Print a provisional tile distribution for a game, from its words.

Why: Križemkražem's rule book gives 222 letter tiles and no distribution, but an engine's
bag needs one (:func:`lexicon.export.enginepack.estimate_counts` says how it is estimated). The
printed counts go into the profile by hand, marked ``counts_provisional``, so the estimate
is reviewed and fixed in the profile instead of changing with every build.

Usage: ``python -m tools.estimate_counts krizemkrazem`` (the playable words of the current
release under ``$LEXICON_HOME``), or ``... krizemkrazem --labelled FILE.tsv`` (the forms a
hand-labelled sample, such as ``tests/data/krizemkrazem/labelled_sample.tsv``, marks
``admit``: what the profile's counts were estimated from, before a full Slovenian release
was at hand).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lexicon.catalog import Catalog
from lexicon.export.enginepack import estimate_counts
from lexicon.export.export import valid_keys


def labelled_words(path: Path) -> list[str]:
    """The forms a labelled sample admits, lower case, spaces dropped (phrases are played
    without them)."""
    rows = [ln.rstrip("\n").split("\t") for ln in path.read_text(encoding="utf-8").splitlines()
            if ln and not ln.startswith("#")]
    form, label = rows[0].index("form"), rows[0].index("label")
    return [r[form].lower().replace(" ", "") for r in rows[1:] if r[label] == "admit"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="krizemkrazem")
    parser.add_argument("--labelled", type=Path, default=None)
    args = parser.parse_args(argv)
    cat = Catalog()
    profile = cat.profile(args.game)
    if profile.total_tiles is None:
        raise SystemExit(f"{args.game}: the profile gives no total_tiles")
    if args.labelled:
        words, source = labelled_words(args.labelled), str(args.labelled)
    else:
        release = cat.release(args.game)
        words, source = list(valid_keys(profile, release)), release.id
    counts = estimate_counts(profile, words, profile.total_tiles)
    print(f"# {source}: {len(words):,} words, {sum(map(len, words)):,} letters -> "
          f"{sum(counts.values())} tiles")
    for letter, n in counts.items():
        print(f"{letter}\t{n}")


if __name__ == "__main__":
    main()
