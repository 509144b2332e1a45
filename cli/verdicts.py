"""Words and plays: ``lexicon check | judge | rulings``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated, Any

import typer
from lexicon.cli import render
from lexicon.cli.streams import open_stream, stream_name

from lexicon import (
    EDGE_SPACE,
    EXIT_INVALID,
    Catalog,
    InputError,
    LexiconError,
    language,
    read_history_file,
    stream_lines,
)

Lang = Annotated[str | None, typer.Option(
    help="language of glosses and reasons: pl, sr, sr-Cyrl, sl or en (default: the game's)")]


def check(game: Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")],
          words: Annotated[list[str] | None, typer.Argument(help="words to check")] = None,
          from_file: Annotated[str | None, typer.Option(
              "--file", help="also check the words in this file, one per line ('-': stdin); "
                             "a word that cannot be checked gets an error object; a line "
                             "that is not UTF-8 (or over 64 KiB) stops the command (exit 2) "
                             "after the verdicts of the lines before it, with an error "
                             "object naming its line")]
          = None,
          edge: Annotated[bool, typer.Option(
              "--edge", help="Kvizovka: the word touches the board's edge (3 letters allowed)")]
          = False,
          as_json: Annotated[bool, typer.Option("--json", help="one JSON object per word")]
          = False, lang: Lang = None,
          release: Annotated[str | None, typer.Option(
              "--release", help="answer from this published release (valid as of edition X)")]
          = None,
          meaning: Annotated[bool, typer.Option(
              "--meaning", help="also print what the release's dictionaries say the word "
                                "means, with each source and licence (JSON: `meanings`)")]
          = False) -> None:
    """Check words. Exit 0 if all are valid, 1 if any is not, 2 on a usage error."""
    cat = Catalog()
    try:
        _check(cat, game, words, from_file, edge, as_json, lang, release, meaning)
    finally:
        cat.close()   # in-process callers (tests, embedding) may open the release again


def _check(cat: Catalog, game: str, words: list[str] | None, from_file: str | None,
           edge: bool, as_json: bool, lang: str | None, release: str | None,
           meaning: bool = False) -> None:
    shown = language(cat.profile(game).language, lang)   # a bad --lang before a missing release
    lex = cat.lexicon(game, release)            # one release answers every word
    if not words and from_file is None:
        raise InputError("give words to check, or --file", code="empty_word")
    out = sys.stdout
    all_valid = True

    def show(results: list[dict[str, Any]]) -> None:
        nonlocal all_valid
        for r in results:
            all_valid = all_valid and bool(r["valid"])
            text = render.dump(r) if as_json else render.human(r, shown)
            out.write(text + (render.meaning_lines(r) if meaning and not as_json else "") + "\n")
        out.flush()

    show([lex.check(w, edge=edge, lang=lang) for w in words or []])
    if from_file is not None:
        for chunk in _word_chunks(from_file):
            show(lex.check_many(chunk, edge=edge, lang=lang))
    raise typer.Exit(0 if all_valid else EXIT_INVALID)


#: lines checked at a time from ``check --file``: a word list of any size is read in
#: bounded memory, and verdicts appear while the rest is still being read
FILE_CHUNK = 2048


def _word_chunks(from_file: str) -> Iterator[list[str]]:
    """The file's words, a chunk at a time (one line at a time from a terminal, so a
    referee typing words sees each verdict at once), each line read bounded
    (:func:`lexicon.userfile.stream_lines`): a file, a pipe or stdin of any size is read
    in bounded memory. A line of white space only is skipped; one of U+0085 or \\v is a
    word (the checker refuses it). A line that is not UTF-8 (``bad_encoding``) or too
    long (``line_too_long``) stops the command with exit 2 at that line, after the
    verdicts of every line before it."""
    with open_stream(from_file) as fh:
        size = 1 if fh.isatty() else FILE_CHUNK
        chunk: list[str] = []
        try:
            for _n, line in stream_lines(fh, stream_name(from_file), "a word list"):
                if line.strip(EDGE_SPACE):
                    chunk.append(line)
                if len(chunk) >= size:
                    yield chunk
                    chunk = []
        except OSError as exc:
            raise InputError(f"cannot read {from_file}: {exc.strerror or exc}",
                             detail={"file": from_file}) from None
        except LexiconError:
            if chunk:
                yield chunk     # the verdicts up to the line that stops the command
            raise
        if chunk:
            yield chunk


def _edge_flags(edge: bool, positions: list[int] | None, count: int) -> bool | list[bool]:
    """``--edge`` for the whole play, or ``--edge-word N`` for the words that touch it."""
    if not positions:
        return edge
    if edge or any(not 1 <= n <= count for n in positions):
        raise InputError(f"--edge-word takes word numbers 1..{count}, and not with --edge",
                         code="bad_play")
    return [n in positions for n in range(1, count + 1)]


def judge(game: Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")],
          words: Annotated[list[str] | None, typer.Argument(
              help="every word the play forms (not with --after)")] = None,
          edge: Annotated[bool, typer.Option(
              "--edge", help="Kvizovka: every word of the play touches the board's edge "
                             "(3 letters allowed)")] = False,
          edge_word: Annotated[list[int] | None, typer.Option(
              "--edge-word", help="Kvizovka: the Nth word (1 = the first) touches the "
                                  "board's edge; repeat for each such word")] = None,
          reveal: Annotated[bool, typer.Option(
              "--reveal", help="also show each word's verdict (settling a dispute)")] = False,
          as_json: Annotated[bool, typer.Option("--json", help="the ruling as one JSON object")]
          = False, lang: Lang = None,
          release: Annotated[str | None, typer.Option(
              "--release", help="rule with this published release (valid as of edition X)")]
          = None,
          before: Annotated[str | None, typer.Option(
              "--before", help="remik move: the table's words before it (spaces or commas)")]
          = None,
          after: Annotated[str | None, typer.Option(
              "--after", help="remik move: the table's words after it; rules on the move")]
          = None,
          rack: Annotated[str, typer.Option(
              "--rack", help="remik move: the letters on the player's shelf")] = "",
          opening: Annotated[bool, typer.Option(
              "--opening", help="remik move: the player's opening (5 letters, own tiles)")]
          = False,
          reopening: Annotated[bool, typer.Option(
              "--reopening", help="remik move: a re-opening after laying out every tile "
                                  "(4 letters, own tiles)")] = False,
          variant: Annotated[int, typer.Option(
              "--variant", help="remik move: rule-book variant 1 (leftovers back to the "
                                "shelf, 2 points a letter) or 2 (no leftovers)")] = 1,
          history: Annotated[str | None, typer.Option(
              "--history", help="remik move: earlier tables, one a line ('-': stdin); the "
                                "move may not repeat one")] = None,
          own: Annotated[list[str] | None, typer.Option(
              "--own", help="remik move: WORD=LETTERS, the letters of a laid word that came "
                            "from the shelf, as the referee saw it (WORD= for none); "
                            "repeat for each word")] = None) -> None:
    """One ruling for a whole play: exit 0 if it stands, 1 if it falls (which word failed is
    not said unless --reveal), 2 on a usage error, 3 when no release is built or the ruling
    cannot be logged (it is then not given). Every ruling is logged (see `lexicon rulings`).

    With --after (Remik) it rules on the move: which table word became which new word, the
    rule book's checks (opening, re-opening, rebuilds, leftovers, repeated arrangements),
    the points and the penalty."""
    move = after is not None or before is not None
    if move:
        if words:
            raise InputError("give the words of a play, or a move with --before/--after, "
                             "not both", code="bad_move")
        if after is None:
            raise InputError("a move needs --after: the table's words after it",
                             code="bad_move")
        earlier = (None if history is None else
                   read_history_file(sys.stdin.buffer if history == "-" else history))
    cat = Catalog()
    shown = language(cat.profile(game).language, lang)   # a bad --lang before a missing release
    lex = cat.lexicon(game, release)            # one release rules the play
    if move:
        ruling = lex.move(before, after, rack, opening=opening, reopening=reopening,
                          variant=variant, history=earlier, own=_own_pairs(own),
                          reveal=reveal, lang=lang)
    else:
        ruling = lex.judge(words or [], edge=_edge_flags(edge, edge_word, len(words or [])),
                           reveal=reveal, lang=lang)
    if as_json:
        print(render.dump(ruling))
    else:
        print(render.move_text(ruling, shown) if move else render.ruling_text(ruling, shown))
    sys.stdout.flush()
    raise typer.Exit(0 if ruling["valid"] else EXIT_INVALID)


def _own_pairs(pairs: list[str] | None) -> dict[str, str] | None:
    """``--own WORD=LETTERS`` options as the library's ``own`` mapping."""
    if not pairs:
        return None
    out: dict[str, str] = {}
    for pair in pairs:
        word, eq, letters = pair.partition("=")
        if not eq or not word.strip():
            raise InputError(f"--own {pair!r}: give WORD=LETTERS (the letters of WORD that "
                             f"came from the shelf)", code="bad_move")
        out[word.strip()] = letters.strip()
    return out


def list_rulings(date: Annotated[str | None, typer.Option(
                     help="the UTC day, YYYY-MM-DD (default: today)")] = None,
                 as_json: Annotated[bool, typer.Option("--json", help="one JSON object per "
                                                                     "ruling")] = False) -> None:
    """The rulings given on one day, oldest first; damaged lines (a disk that filled up
    mid-line) are skipped and counted. Exit 2 for a malformed --date, 3 when the log cannot
    be read."""
    day, log = Catalog().rulings(date)
    for r in log.rulings:
        if as_json:
            print(render.dump(r))
        else:
            print(render.ruling_line(r))
    if not log.rulings and not as_json:
        print(f"no rulings on {day.isoformat()}")
    if log.damaged:
        n = len(log.damaged)
        note = (f"{n} damaged line{'s' if n != 1 else ''} skipped (line{'s' if n != 1 else ''} "
                f"{', '.join(map(str, log.damaged[:10]))}{', …' if n > 10 else ''})")
        if as_json:     # one more object, told apart from a ruling by having no "time"
            print(render.dump({"damaged_lines": n, "lines": log.damaged}))
            typer.echo(note, err=True)
        else:
            print(note)
