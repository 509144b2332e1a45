"""The engine and referee queries (:mod:`lexicon.queries.queries`): ``lexicon blanks |
pattern | anagram | extend | hooks``.

Exit codes: 0 something found, 1 nothing found, 2 a refused query (bad pattern or rack,
a limit), 3 no release or no index for the game.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated

import typer
from lexicon.cli import render
from lexicon.cli.options import Game

from lexicon import EXIT_INVALID, Catalog, Lexicon


def _lexicon(game: str) -> Lexicon:
    """The current release of ``game``, for one query."""
    return Catalog().lexicon(game)


def _query(run: Callable[[], dict], as_json: bool, show: Callable[[dict], str],
           found: Callable[[dict], bool]) -> None:
    result = run()
    print(render.dump(result) if as_json else show(result))
    sys.stdout.flush()
    raise typer.Exit(0 if found(result) else EXIT_INVALID)


Sort = Annotated[str, typer.Option(help="alpha, score or length")]


Limit = Annotated[int, typer.Option(help="results per page (at most 500)")]


Offset = Annotated[int, typer.Option(help="skip this many results")]


AsJson = Annotated[bool, typer.Option("--json", help="print the JSON the HTTP API returns")]


def blanks(game: Game,
           word: Annotated[str, typer.Argument(help="a word with jokers as '?', e.g. KA?IN")],
           edge: Annotated[bool, typer.Option("--edge", help="Kvizovka board-edge rule")]
           = False, sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
           as_json: AsJson = False) -> None:
    """Every admissible word a word with jokers can be, and what each joker stands for."""
    _query(lambda: _lexicon(game).blanks(word, edge=edge, sort=sort, limit=limit,
                                         offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


def pattern(game: Game,
            text: Annotated[str, typer.Argument(
                metavar="PATTERN", help="? one tile, * any run, [abc] a set, [^abc] not")],
            min_length: Annotated[int | None, typer.Option(help="fewest tiles")] = None,
            max_length: Annotated[int | None, typer.Option(help="most tiles")] = None,
            sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
            as_json: AsJson = False) -> None:
    """Words matching a pattern, counted and paged."""
    _query(lambda: _lexicon(game).pattern(text, min_length=min_length,
                                          max_length=max_length, sort=sort, limit=limit,
                                          offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


def anagram(game: Game,
            rack: Annotated[str, typer.Argument(help="the rack's tiles, '?' for a joker")],
            board: Annotated[str, typer.Option(
                help="letters on the board the word must use")] = "",
            exact: Annotated[bool, typer.Option(
                "--exact", help="only words that use the whole rack")] = False,
            min_length: Annotated[int | None, typer.Option(help="fewest tiles")] = None,
            max_length: Annotated[int | None, typer.Option(help="most tiles")] = None,
            sort: Sort = "score", limit: Limit = 50, offset: Offset = 0,
            as_json: AsJson = False) -> None:
    """Anagrams and sub-anagrams of a rack (plus jokers and board letters)."""
    _query(lambda: _lexicon(game).anagrams(rack, board=board, exact=exact,
                                           min_length=min_length, max_length=max_length,
                                           sort=sort, limit=limit, offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


def extend(game: Game,
           word: Annotated[str, typer.Argument(help="the word on the table")],
           rack: Annotated[str, typer.Argument(help="the letters on the player's shelf")],
           edge: Annotated[bool, typer.Option(
               "--edge", help="Kvizovka: the new word touches the board's edge (3 tiles "
                              "allowed)")] = False,
           sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
           as_json: AsJson = False) -> None:
    """Remik's rebuilds: every word using all the letters of a table word plus at least one
    rack letter, with the rack letters each uses. No word shorter than the game lets a
    player lay is offered."""
    _query(lambda: _lexicon(game).extend(word, rack, edge=edge, sort=sort, limit=limit,
                                         offset=offset),
           as_json, render.rebuilds_listing,
           lambda r: r["count"] > 0)


def hooks(game: Game, word: Annotated[str, typer.Argument(help="a word or a prefix")],
          as_json: AsJson = False) -> None:
    """Tiles that extend a word at the front or back, and whether it is a prefix."""
    _query(lambda: _lexicon(game).hooks(word), as_json, render.hooks_text,
           lambda r: bool(r["front"] or r["back"]))
