"""The audit (:mod:`lexicon.audit`, through the door): the ``lexicon audit`` group."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from lexicon.cli import render
from lexicon.cli.contract import Commands

from lexicon import Catalog

app = Commands(no_args_is_help=True, rich_markup_mode=None,
                   help="Measure a release by labelled samples: draw a sheet, score it, "
                        "compare with a reference list, turn labels into overrides.")


AuditJson = Annotated[bool, typer.Option("--json", help="the result as one JSON object")]


AuditRelease = Annotated[str | None, typer.Option(
    "--release", help="a published release id (default: the current one)")]


@app.command("draw")
def audit_draw(game: Annotated[str, typer.Argument(help="the game whose release to sample")],
               per_class: Annotated[int, typer.Option(
                   "--per-class", help="words drawn from each evidence class")] = 20,
               seed: Annotated[int, typer.Option(help="the random seed (same seed, same "
                                                      "release: same sheet)")] = 0,
               words: Annotated[str | None, typer.Option(
                   "--from-list", help="draw from this word list (one word a line, e.g. a "
                                       "corpus's most frequent words) instead of the "
                                       "release's keys")] = None,
               exclude_labelled: Annotated[bool, typer.Option(
                   "--exclude-labelled", help="leave out words labelled in the game's "
                                              "sheets")] = False,
               exclude: Annotated[list[str] | None, typer.Option(
                   "--exclude", metavar="SHEET", help="leave out the words labelled in this "
                                                      "sheet (repeatable)")] = None,
               name: Annotated[str | None, typer.Option(
                   help="the sheet's name (default: release, list and seed)")] = None,
               release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Draw a seeded stratified sample of a release by evidence class and write it as a
    labelling sheet under $LEXICON_HOME/audits/GAME/."""
    out = Catalog().lexicon(game, release).audit_draw(
        per_class=per_class, seed=seed, words=Path(words) if words else None,
        exclude_labelled=exclude_labelled, exclude=exclude or (), name=name)
    print(render.dump(out) if as_json else render.audit_drawn(out))


@app.command("score")
def audit_score(sheets: Annotated[list[str], typer.Argument(
                    metavar="SHEET...", help="labelled sheets (paths or names), oldest first")],
                population: Annotated[str | None, typer.Option(
                    "--population", help="weigh by this word list's words instead of the "
                                         "release's")] = None,
                doubtful: Annotated[str, typer.Option(
                    help="a '?' label: left out of the counts (out) or counted as half "
                         "(half)")] = "out",
                game: Annotated[str | None, typer.Option(
                    "--game", help="score this game's release (default: the sheets' "
                                   "game); a game playing the sheets' game's vocabulary, "
                                   "as remik plays osps's")] = None,
                release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Precision, missed share and recall of a release (any release: labels belong to
    words) by class and overall, class-size weighted, with 95% Wilson intervals; classes
    ranked by the wrong verdicts they are estimated to hold."""
    cat = Catalog()
    out = cat.lexicon(game or cat.audit_game(sheets), release).audit_score(
        sheets, population=Path(population) if population else None, doubtful=doubtful)
    print(render.dump(out) if as_json else render.audit_score(out))


@app.command("compare")
def audit_compare(game: Annotated[str, typer.Argument()],
                  words: Annotated[str, typer.Argument(
                      metavar="LIST", help="a reference word list, one word a line")],
                  samples: Annotated[int, typer.Option(help="samples per class")] = 12,
                  release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """A release against a reference list: the share of each evidence class found in the
    list, and the list's words by verdict and reason code, with samples."""
    out = Catalog().lexicon(game, release).audit_compare(Path(words), samples=samples)
    print(render.dump(out) if as_json else render.audit_compare(out))


@app.command("apply")
def audit_apply(sheet: Annotated[str, typer.Argument(help="a reviewed sheet")],
                reviewer: Annotated[str | None, typer.Option(
                    help="who reviewed it (default: the sheet's '# reviewer:' line)")] = None,
                date: Annotated[str | None, typer.Option(
                    help="the review's date (default: the sheet's, else today)")] = None,
                output: Annotated[str | None, typer.Option(
                    "--output", "-o", help="the overrides file (default: beside the sheet)")]
                = None,
                release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Write the labels the release disagrees with as an overrides file; `lexicon amend
    GAME --overrides FILE` then publishes a release that follows them."""
    game = Catalog().audit_game([sheet])
    out = Catalog().lexicon(game, release).audit_apply(
        sheet, reviewer=reviewer, date=date, output=Path(output) if output else None)
    print(render.dump(out) if as_json else render.audit_applied(out))


@app.command("list")
def audit_list(game: Annotated[str | None, typer.Argument()] = None,
               as_json: AuditJson = False) -> None:
    """The audit sheets under $LEXICON_HOME/audits/, with their size, labels and the
    release each was drawn from."""
    for s in Catalog().audit_sheets(game):
        print(render.dump(s) if as_json else render.audit_sheet_row(s))
