"""Precision and recall of the Križemkražem decision against the hand-labelled sample.

Why a module: the labels in ``tests/data/krizemkrazem/labelled_sample.tsv`` outlive one
build. Re-running this against a new release shows at once whether a change to the rules
or the sources moved the measured quality, instead of trusting the numbers of the release
the sample was first labelled on.

The sample is stratified. Uniform samples (A, C) draw from all hunspell-sl forms; samples
B and D only from the forms LemmaGen lemmatises to themselves ("self-lemma", ~10% of forms
but most nominatives), to get enough positives. Estimates over the whole expansion weight
each stratum by its size (recorded in the file header). A and B were labelled first and
used while developing the rules ("dev"); C and D were labelled afterwards, before their
verdicts were looked at ("held-out"), and are the honest numbers.

Samples F and G (``labelled_frequent.tsv``) are frequent words instead (wordfreq's
Slovenian list): the population a referee meets and the reviewers sample; they carry a
third label, "doubt" (foreign names no Slovenian source lists), that counts nowhere.

Usage: ``python -m tools.sl_measure [SAMPLE.tsv ...]`` (default: both files; reads the
current release of krizemkrazem under ``$LEXICON_HOME``).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lexicon.catalog import Catalog
from lexicon.game.tiles import speller
from lexicon.store.release import Release

_STRATUM = re.compile(r"^# stratum (\S+) (\d+)$")
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "krizemkrazem"
DEFAULT = DATA / "labelled_sample.tsv"
#: frequent words (the population the reviewers' sample is drawn from): samples F and G
FREQUENT = DATA / "labelled_frequent.tsv"


@dataclass
class Row:
    sample: str
    phase: str       # dev | held-out
    stratum: str     # self-lemma | other
    form: str
    label: str       # admit | reject (what a referee should answer for these tiles)
    system: str      # admit | reject (the verdict when the row was written)


def read_sample(path: Path) -> tuple[list[Row], dict[str, int]]:
    """Rows and the stratum sizes from ``# stratum NAME SIZE`` header lines."""
    from tools.audit_sheets import tsv_rows

    sizes = {m.group(1): int(m.group(2))
             for line in path.read_text(encoding="utf-8").splitlines()
             if (m := _STRATUM.match(line))}
    rows = [Row(rec["sample"], rec["phase"], rec["stratum"], rec["form"], rec["label"],
                rec["system"]) for rec in tsv_rows(path)]
    return rows, sizes


def verdicts(rows: list[Row], release: Release) -> list[Row]:
    """The same rows with ``system`` taken from ``release`` (key-level, as played)."""
    from lexicon.game import profile as profiles

    prof = profiles.load("krizemkrazem")
    out = []
    for r in rows:
        rec = release.get(speller(prof).key_of(r.form.lower()))
        out.append(Row(r.sample, r.phase, r.stratum, r.form, r.label,
                       "admit" if rec is not None and rec.valid else "reject"))
    return out


def confusion(rows: list[Row]) -> tuple[int, int, int, int]:
    c = Counter((r.label, r.system) for r in rows)
    return (c[("admit", "admit")], c[("reject", "admit")], c[("admit", "reject")],
            c[("reject", "reject")])


def stratified(rows: list[Row], sizes: dict[str, int]) -> tuple[float, float]:
    """(precision, recall) over the whole expansion, each stratum weighted by its size."""
    tp = fp = fn = 0.0
    for stratum, size in sizes.items():
        part = [r for r in rows if r.stratum == stratum]
        if not part:
            continue
        a, b, c, _ = confusion(part)
        w = size / len(part)
        tp, fp, fn = tp + a * w, fp + b * w, fn + c * w
    return (tp / (tp + fp) if tp + fp else float("nan"),
            tp / (tp + fn) if tp + fn else float("nan"))


def report(rows: list[Row], sizes: dict[str, int]) -> str:
    lines = []
    for sample in sorted({r.sample for r in rows}):
        part = [r for r in rows if r.sample == sample]
        tp, fp, fn, tn = confusion(part)
        p = tp / (tp + fp) if tp + fp else float("nan")
        rc = tp / (tp + fn) if tp + fn else float("nan")
        lines.append(f"sample {sample} ({part[0].phase}, n={len(part)}): TP={tp} FP={fp} "
                     f"FN={fn} TN={tn} precision={p:.3f} recall={rc:.3f}")
    for phase in ("dev", "held-out"):
        part = [r for r in rows if r.phase == phase]
        if part and sizes:
            p, rc = stratified(part, sizes)
            lines.append(f"{phase}: stratified over {sum(sizes.values()):,} forms "
                         f"(n={len(part)}): precision={p:.3f} recall={rc:.3f}")
    part = [r for r in rows if r.phase == "frequent"]
    if part:
        tp, fp, fn, _ = confusion(part)
        doubts = Counter(r.system for r in part if r.label == "doubt")
        lines.append(f"frequent words, pooled (n={len(part)}): precision={tp / (tp + fp):.3f} "
                     f"recall={tp / (tp + fn):.3f}; doubtful labels left out: "
                     f"{doubts['admit']} admitted, {doubts['reject']} rejected")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    paths = [Path(a) for a in args] or [DEFAULT, FREQUENT]
    release = Catalog().release("krizemkrazem")
    for path in paths:
        rows, sizes = read_sample(path)
        print(f"{path.name}, as labelled (verdicts stored in the file):")
        print(report(rows, sizes))
        print(f"{path.name}, against the current release {release.id}:")
        print(report(verdicts(rows, release), sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
