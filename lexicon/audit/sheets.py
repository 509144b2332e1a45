"""The labelling sheet: a TSV a reviewer fills in, kept under ``$LEXICON_HOME/audits/GAME/``.

A sheet is ``#`` header lines (``# key: value``: the game, the release it was drawn from,
when, the seed, the size per class, the population, the reviewer and review date once
known), then a header row and one row a word::

    word  class  verdict  reason  evidence  label  note

``label`` is what the reviewer says of the *word* under the rule book: ``Y`` (a word the
game admits), ``N`` (one it does not), ``?`` (doubtful: counted as half a ``Y``), or empty
(not yet labelled). Labels belong to words, not verdicts, so a sheet drawn from one release
scores any later one; the class, verdict and evidence columns only record what the release
drawn from said, for the reviewer's eyes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.errors import InputError
from lexicon.game.inputs import first_control
from lexicon.userfile import read_lines

COLUMNS = ("word", "class", "verdict", "reason", "evidence", "label", "note")
#: a label's weight as a "the game admits it" count: a doubtful word is half of one
LABELS = {"Y": 1.0, "N": 0.0, "?": 0.5}
AUDITS_DIR = "audits"
SUFFIX = ".tsv"


class SheetError(InputError):
    """An audit sheet (or a word list given to the audit) that cannot be read."""

    code = "bad_audit_sheet"
    status = 400


@dataclass
class Row:
    word: str
    cls: str = ""
    verdict: str = ""
    reason: str = ""
    evidence: str = ""
    label: str = ""
    note: str = ""

    @property
    def admissible(self) -> float:
        """The label as a count of "the game admits it" (1, 0 or 0.5)."""
        return LABELS[self.label]

    def cells(self) -> list[str]:
        return [cell(v) for v in (self.word, self.cls, self.verdict, self.reason,
                                  self.evidence, self.label, self.note)]


@dataclass
class Sheet:
    meta: dict[str, str]
    rows: list[Row] = field(default_factory=list)
    path: Path | None = None

    @property
    def game(self) -> str:
        return self.meta.get("game", "")

    @property
    def name(self) -> str:
        return self.path.name.removesuffix(SUFFIX) if self.path else ""

    def labelled(self) -> list[Row]:
        return [r for r in self.rows if r.label]

    def text(self) -> str:
        lines = ["# lexicon audit sheet: label each word Y (the game admits it), "
                 "N (it does not) or ? (doubtful)"]
        lines += [f"# {k}: {cell(v)}" for k, v in self.meta.items()]
        lines.append("\t".join(COLUMNS))
        lines += ["\t".join(r.cells()) for r in self.rows]
        return "\n".join(lines) + "\n"

    def write(self, path: Path, *, overwrite: bool = False) -> Path:
        """Write the sheet atomically; an existing sheet (labels!) is never overwritten
        unless asked."""
        if path.exists() and not overwrite:
            raise InputError(f"{path} exists; a sheet holding labels is never overwritten "
                             "(give another --name)", code="audit_sheet_exists",
                             detail={"file": str(path)})
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, self.text())
        self.path = path
        return path

    def summary(self) -> dict[str, Any]:
        """What ``lexicon audit list`` shows of a sheet."""
        return {"name": self.name, "game": self.game, "path": str(self.path),
                "release": self.meta.get("release", ""), "rows": len(self.rows),
                "labelled": len(self.labelled()),
                "population": self.meta.get("population", ""),
                "reviewer": self.meta.get("reviewer", "")}


def cell(value: object) -> str:
    """One TSV cell: no tab, no line break (evidence texts can hold neither)."""
    return " ".join(str(value or "").split())


def read(path: Path) -> Sheet:
    """A sheet from its file (:func:`lexicon.userfile.read_lines`: bounded, a row ending at
    ``\\n`` or ``\\r\\n`` only, as a spreadsheet writes it); a bad label or row is reported
    with its line number."""
    path = Path(path)
    meta: dict[str, str] = {}
    rows: list[Row] = []
    header: list[str] | None = None
    for n, raw in enumerate(read_lines(path, SheetError, "an audit sheet"), 1):
        if not raw.strip():
            continue
        if raw.startswith("#"):
            key, sep, value = raw[1:].partition(":")
            if sep and header is None and key.strip().isidentifier():
                meta[key.strip()] = value.strip()
            continue
        parts = [p.strip() for p in raw.split("\t")]
        if header is None:
            header = parts
            if "word" not in header or "label" not in header:
                raise SheetError(f"{path}:{n}: the header row must name the columns "
                                 f"(at least word and label; a sheet has {', '.join(COLUMNS)})",
                                 detail={"file": str(path), "line": n})
            continue
        got = dict(zip(header, parts, strict=False))
        word = got.get("word", "")
        label = got.get("label", "").upper()
        if not word or first_control(word) is not None:
            raise SheetError(f"{path}:{n}: no word, or a control character in it",
                             detail={"file": str(path), "line": n})
        if label and label not in LABELS:
            raise SheetError(f"{path}:{n}: label {got.get('label')!r} is none of Y, N, ? "
                             "(or empty: not labelled)", detail={"file": str(path), "line": n})
        rows.append(Row(word, got.get("class", ""), got.get("verdict", ""),
                        got.get("reason", ""), got.get("evidence", ""), label,
                        got.get("note", "")))
    if header is None:
        raise SheetError(f"{path}: no header row; not an audit sheet", detail={"file": str(path)})
    return Sheet(meta, rows, path)


def directory(root: Path, game: str) -> Path:
    return Path(root) / AUDITS_DIR / game


def locate(root: Path, name: str | Path) -> Path:
    """A sheet given as a path, or by its name under ``audits/*/`` of the home."""
    path = Path(name)
    if path.is_file():
        return path
    stem = str(name).removesuffix(SUFFIX)
    found = sorted((Path(root) / AUDITS_DIR).glob(f"*/{stem}{SUFFIX}"))
    if len(found) == 1:
        return found[0]
    why = ("no such file, nor a sheet of that name" if not found
           else "a name of several games' sheets")
    raise SheetError(f"{name}: {why} in {Path(root) / AUDITS_DIR}", detail={"sheet": str(name)})


def load(root: Path, names: Sequence[str | Path]) -> list[Sheet]:
    """The sheets named (paths or names), all of one game."""
    if not names:
        raise SheetError("no sheet given")
    sheets = [read(locate(root, n)) for n in names]
    games = sorted({s.game for s in sheets})
    if len(games) != 1 or not games[0]:
        raise SheetError(f"the sheets must be of one game (they name {games or 'none'})",
                         detail={"games": games})
    return sheets


def labels(sheets: list[Sheet]) -> dict[str, Row]:
    """Every labelled word of the sheets, by word as written (a later sheet's label of the
    same word wins: sheets are given oldest first)."""
    out: dict[str, Row] = {}
    for s in sheets:
        for r in s.labelled():
            out[r.word] = r
    return out


def listing(root: Path, game: str | None = None) -> list[dict[str, Any]]:
    """Every sheet under the home's ``audits/`` (of ``game``), with its size and release."""
    base = Path(root) / AUDITS_DIR
    pattern = f"{game}/*{SUFFIX}" if game else f"*/*{SUFFIX}"
    out = []
    for path in sorted(base.glob(pattern)):
        if path.name.endswith(".overrides" + SUFFIX):
            continue
        try:
            out.append(read(path).summary())
        except SheetError as exc:
            out.append({"name": path.name.removesuffix(SUFFIX), "game": path.parent.name,
                        "path": str(path), "error": exc.message})
    return out


def word_list(path: Path) -> list[str]:
    """A word list a maintainer supplies (a reference list, a corpus's frequent words): one
    word a line, the first tab-separated field; ``#`` lines and blank lines skipped; order
    kept, repeats dropped. A sheet is a list too: its words (a sheet drawn uniformly from a
    list stands for that list when the list itself is not at hand)."""
    lines = [raw for raw in read_lines(path, SheetError, "a word list")
             if raw.strip() and not raw.startswith("#")]
    if lines and {"word", "label"} <= {c.strip() for c in lines[0].split("\t")}:
        return list(dict.fromkeys(r.word for r in read(path).rows))
    return list(dict.fromkeys(w for raw in lines if (w := raw.split("\t", 1)[0].strip())))
