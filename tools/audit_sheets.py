"""The hand-labelled samples of ``tests/data/`` as audit sheets (``lexicon audit``).

Why a converter: those samples were labelled before the audit had a sheet format, each in a
layout of its own (``admit``/``reject``, ``admissible``/``not_admissible``, ``1``/``0``,
the right or wrong of a verdict change), and read by one-off tools. As sheets their labels
score any release with ``lexicon audit score``, and ``lexicon audit apply`` turns them into
overrides. The sheets are committed under ``tests/data/audits/GAME/`` and a test checks
they are what this converter makes of the samples, so neither drifts from the other.

Each sheet holds what its name says; its header names the sample file, how the words were
drawn and from which release. Labels map ``admit``/``admissible``/``1`` to ``Y``,
``reject``/``not_admissible``/``0`` to ``N`` and ``doubt``/``doubtful`` to ``?``.

Usage: ``python -m tools.audit_sheets [--out DIR]`` (default: ``tests/data/audits``; give
``$LEXICON_HOME/audits`` to have ``lexicon audit list`` show them).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lexicon.audit.sheets import Row, Sheet

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
OUT = DATA / "audits"
LABELS = {"admit": "Y", "admissible": "Y", "1": "Y", "reject": "N", "not_admissible": "N",
          "0": "N", "doubt": "?", "doubtful": "?"}


@dataclass(frozen=True)
class Sample:
    """One sheet: which rows of which file, and what the sheet says of them."""

    game: str
    name: str
    file: str                              # under tests/data/
    drawn: str                             # how the words were drawn (the file's own words)
    release: str = "see the sample file"
    word: str = "word"
    label: str = "label"
    note: tuple[str, ...] = ("note",)      # columns joined into the note
    keep: Callable[[dict[str, str]], bool] = lambda _row: True
    columns: tuple[str, ...] = ()          # for a file whose header row is a comment
    label_of: Callable[[dict[str, str]], str] | None = None


def _rule_round(row: dict[str, str]) -> str:
    """Issue 17's labels judge a verdict change (right/wrong), not the word: a right loss
    or a wrong gain is a word the game does not admit."""
    if row["label"] == "doubtful":
        return "?"
    gained = row["change"].startswith("gained")
    return "Y" if gained == (row["label"] == "right") else "N"


SL, SL_FREQ = "krizemkrazem/labelled_sample.tsv", "krizemkrazem/labelled_frequent.tsv"
SL_COLUMNS = dict(word="form", note=("note", "sample", "phase"))
SAMPLES = (
    Sample("krizemkrazem", "uniform-forms", SL, "samples A (dev) and C (held-out): uniform "
           "over all hunspell-sl forms", keep=lambda r: r["sample"] in ("A", "C"), **SL_COLUMNS),
    Sample("krizemkrazem", "self-lemma-forms", SL, "samples B (dev) and D (held-out): uniform "
           "over the hunspell-sl forms LemmaGen lemmatises to themselves",
           keep=lambda r: r["sample"] in ("B", "D"), **SL_COLUMNS),
    Sample("krizemkrazem", "admitted-uniform", SL, "sample E: uniform over a build's "
           "admitted records", keep=lambda r: r["sample"] == "E", **SL_COLUMNS),
    Sample("krizemkrazem", "frequent-words", SL_FREQ, "samples F and G: uniform over the "
           "30,000 most frequent Slovenian words of wordfreq 3.1.1 (4+ letters)",
           release="krizemkrazem-20261201T204740Z-e15fb670", **SL_COLUMNS),
    Sample("kvizovka", "admitted-before-negation-vetoes",
           "kvizovka/labelled_admitted_before_negation_vetoes.tsv",
           "150 uniform over the admitted words (seed 1)",
           release="kvizovka-20261201T211951Z-0f2634c4"),
    Sample("kvizovka", "admitted-after-negation-vetoes",
           "kvizovka/labelled_admitted_after_negation_vetoes.tsv",
           "150 uniform over the admitted words (seed 2612)",
           release="kvizovka-20261201T220808Z-55be5134"),
    Sample("kvizovka", "admitted-second-labeller",
           "kvizovka/labelled_admitted_second_labeller.tsv",
           "150 uniform over the exported words (seed 1201), a second labeller",
           release="kvizovka-20261201T223905Z-e1116a03"),
    Sample("kvizovka", "removed-intransitive-participle",
           "kvizovka/labelled_intransitive_participle_removed.tsv",
           "40 of the words the veto intransitive_participle removed (seed 17)",
           release="kvizovka-20261201T225547Z-8deb68e1"),
    Sample("kvizovka", "removed-negation-vetoes", "kvizovka/labelled_negation_vetoes_removed.tsv",
           "40 a class of the words negated_relational, negated_participle, "
           "infinitive_as_adjective (and the unshipped negated_ni) reject (seed 26)",
           release="kvizovka-20261201T211951Z-0f2634c4", note=("class", "note")),
    Sample("kvizovka", "changed-verdicts-of-a-rule-round", "kvizovka/labelled_rule_changes.tsv",
           "200 of the 3,953 words whose verdict a rule round changed (seed 171); the label "
           "says whether the new verdict is right", columns=("word", "change", "label"),
           note=("change",), label_of=_rule_round),
    Sample("osps", "random-admitted-morfeusz", "polish/labelled_morfeusz.tsv",
           "60 uniform over the admitted words with a Morfeusz reading (seed 80)",
           note=("note", "tags")),
    Sample("osps", "random-admitted-listing-only", "polish/labelled_listing_only.tsv",
           "320 uniform over the admitted words with no Morfeusz reading (seed 8)",
           release="osps-20261201T044616Z-9291317c", note=("note", "grade")),
    Sample("osps", "generated-forms", "polish/labelled_generated.tsv",
           "100 uniform over the forms Morfeusz generates from admitted lemmas that no list "
           "has (seed 88)", note=("note", "tags")),
    Sample("osps", "removed-generated-and-one-list-negations", "polish/labelled_removed.tsv",
           "uniform over the generated forms outside the kept slots and the one-list nie- "
           "forms of one-list bases that a policy removed (seed 22)",
           columns=("word", "why_removed", "tag", "lemma", "label"),
           note=("why_removed", "tag")),
)


def tsv_rows(path: Path, columns: tuple[str, ...] = ()) -> Iterator[dict[str, str]]:
    """A labelled TSV's rows by column name: ``columns``, else its first line's; blank and
    ``#`` lines skipped."""
    header = list(columns) or None
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        if header is None:
            header = parts
            continue
        yield dict(zip(header, parts, strict=False))


def sheet(s: Sample) -> Sheet:
    rows = []
    for r in tsv_rows(DATA / s.file, s.columns):
        if not s.keep(r):
            continue
        label = s.label_of(r) if s.label_of else LABELS[r[s.label].strip()]
        note = "; ".join(v for c in s.note if (v := r.get(c, "").strip()))
        rows.append(Row(r[s.word].strip(), label=label, note=note))
    meta = {"game": s.game, "release": s.release, "drawn": "by hand, before the audit",
            "population": s.drawn,
            "source": f"tests/data/{s.file}", "reviewer": "see the sample file", "reviewed": ""}
    return Sheet(meta, rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="write GAME/NAME.tsv here")
    args = ap.parse_args(argv)
    for s in SAMPLES:
        path = sheet(s).write(args.out / s.game / f"{s.name}.tsv", overwrite=True)
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
