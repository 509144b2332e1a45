"""The worst case of reading a Latin Kvizovka word: cost per word, beside a plain word.

``python -m tools.tiling_cost [--home LEXICON_HOME]`` prints one JSON object per figure:
a word of n ``lj`` (2^n tilings), read by :meth:`lexicon.game.tiles.Speller.readings` against the
current Kvizovka release's keys (the checker's oracle, and the words trie the batch path
uses), and with no lexicon at all (build time); beside it, in the same run, a plain word of
the same length (one tiling, the reference). Steps are counted by the speller itself, so
the linear bound can be read off without trusting a clock. Then what a client pays: a full
``check`` (with its alternatives and body size) and a ``valid`` batch, per word.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from lexicon.catalog import Catalog
from lexicon.game.tiles import PrefixOracle, Work, speller


def _per_word(read: Callable[[], object], budget: float = 0.3) -> float:
    """Microseconds per call, averaged over about ``budget`` seconds of calls."""
    n, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < budget:
        read()
        n += 1
    return elapsed / n * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=None, help="LEXICON_HOME to read")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32])
    args = parser.parse_args(argv)
    catalog = Catalog(args.home)
    profile = catalog.profile("kvizovka")
    rel = catalog.release("kvizovka")
    spell = speller(profile)
    oracles: dict[str, PrefixOracle | None] = {
        "release keys (check)": rel.has_prefix,
        "words trie (valid batch)": rel.indexes.has_prefix,
        "no lexicon (build time)": None,
    }
    for n in args.sizes:
        for name, word in (("lj", "lj" * n), ("plain", "a" * (2 * n))):
            for oracle_name, known in oracles.items():
                work = Work()
                found = spell.readings(word, known, work=work)
                us = _per_word(lambda w=word, k=known: spell.readings(w, k))
                print(json.dumps({"word": f"{name} x{n}" if name == "lj" else f"a x{2 * n}",
                                  "chars": len(word), "oracle": oracle_name,
                                  "readings": len(found), "steps": work.steps,
                                  "us_per_word": round(us, 1), "release": rel.id},
                                 ensure_ascii=False))
            verdict = catalog.lexicon("kvizovka").check(word)
            print(json.dumps({
                "word": f"{name} x{n}" if name == "lj" else f"a x{2 * n}", "chars": len(word),
                "check_us_per_word": round(_per_word(
                    lambda w=word: catalog.lexicon("kvizovka").check(w)), 1),
                "check_alternatives": len(verdict["alternatives"]),
                "check_body_bytes": len(json.dumps(verdict, ensure_ascii=False)),
                "valid_us_per_word": round(_per_word(
                    lambda w=word: catalog.lexicon("kvizovka").valid([w] * 100)) / 100,
                    1)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
