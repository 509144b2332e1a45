"""The engines' endpoints: the six queries (``blanks``, ``pattern``, ``anagrams``,
``extend``, ``hooks``, ``prefix``) and the lean batch check (``POST .../valid``).

Each query is declared once, by :func:`query`, as the library call it makes and the
parameters it takes; the helper makes the route, which runs the call on the queries' own
workers (:mod:`service.querypool`) over one release of the game.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from fastapi import Query
from fastapi.responses import Response
from lexicon.service import apidocs, metrics, querypool
from lexicon.service.apidocs import figure
from lexicon.service.querypool import QueryPool
from lexicon.service.routes.declare import PerApp, Routes
from lexicon.service.routes.params import CatalogOf, PoolOf
from pydantic import BaseModel, Field

from lexicon import DEFAULT_LIMIT, MAX_WORDS, Catalog, InputError, Lexicon, limit_value

routes = Routes()

#: The end of every query endpoint's description: its limits and codes (service.apidocs).
QUERY_LIMITS = apidocs.query_limits(querypool.RETRY_AFTER_SECONDS)

BAD_PATTERN_EXAMPLE = {"code": "bad_pattern",
                       "message": "unclosed '[' at position 2 of 'k[ot'",
                       "detail": {"position": 2, "pattern": "k[ot"}}

SORT_HELP = "alpha (the game's alphabet), score (highest first) or length (longest first)"
PAGE_HELP = f"results per page, 1..{figure('queries.MAX_LIMIT')}"
OFFSET_HELP = "skip this many results"

Ask = Callable[..., dict[str, Any]]


def examples(**values: str) -> dict[str, dict[str, Any]]:
    """OpenAPI examples of a parameter, each named and shown as its value."""
    return {name: {"summary": value, "value": value} for name, value in values.items()}


def _error_examples(*pairs: tuple[int, dict[str, Any]]) -> dict[int | str, dict[str, Any]]:
    return {status: {"description": body["code"],
                     "content": {"application/json": {"example": body}}}
            for status, body in pairs}


def _rack_too_long(most: int) -> dict[str, Any]:
    return {"code": "rack_too_long", "message": f"the rack has {most + 1} tiles; at most {most}",
            "detail": {"max_tiles": most}}


def query(path: str, **route: Any) -> Callable[[Ask], Ask]:
    """Declare ``GET path`` from ``ask(lex, **params)``, the library call it answers with:
    the route takes the ``game`` of the path and ``ask``'s parameters after the Lexicon
    (their defaults are FastAPI's ``Query`` declarations, so the OpenAPI text is theirs),
    and answers with ``ask`` over one release of the game, on the queries' workers."""
    def declare(ask: Ask) -> Ask:
        async def endpoint(*, game: str, catalog: Catalog, pool: QueryPool,
                           **given: Any) -> dict[str, Any]:
            def run() -> dict[str, Any]:
                return ask(catalog.lexicon(game, every_file=True), **given)   # one release
            return await pool.run(run)

        # FastAPI reads a route's parameters from its endpoint's signature: the path's game,
        # then ask's own (its Query declarations), then the two dependencies; the name
        # gives the OpenAPI operation id and summary, as a hand-written endpoint's would
        keyword = inspect.Parameter.KEYWORD_ONLY
        asked = list(inspect.signature(ask, eval_str=True).parameters.values())[1:]
        endpoint.__signature__ = inspect.Signature(   # type: ignore[attr-defined]
            [inspect.Parameter("game", keyword, annotation=str),
             *(p.replace(kind=keyword) for p in asked),
             inspect.Parameter("catalog", keyword, annotation=CatalogOf),
             inspect.Parameter("pool", keyword, annotation=PoolOf)],
            return_annotation=dict[str, Any])
        endpoint.__name__ = endpoint.__qualname__ = ask.__name__
        routes.get(path, tags=["queries"], **route)(endpoint)
        return ask
    return declare


@query("/v1/games/{game}/blanks", description=(
    "Joker resolution: every admissible word the word can be with each `?` (a joker, "
    "one tile: in Kvizovka it may be LJ, NJ or DŽ) filled in, with the letter each joker "
    "stands for (`jokers[].position`, 1-based) and the score with jokers at the game's "
    "joker value. Letters only a joker can play (Križemkražem's W, X, Y, Q) count as "
    "jokers. `KA?IN` in krizemkrazem: Kacin, kalin, Kanin, Karin.\n" + QUERY_LIMITS),
    responses=_error_examples(
        (400, {"code": "too_many_jokers", "message": "'???' needs 3 jokers; Polish "
               "Scrabble (OSPS) has 2", "detail": {"max_jokers": 2}})))
def blanks_query(
    lex: Lexicon,
    word: str = Query(..., description="the word, `?` for each joker",
                      openapi_examples=examples(joker="KA?IN", two="?A?A", kvizovka="?UBAV")),
    edge: bool = Query(False, description="Kvizovka board-edge rule (3 letters)"),
    sort: str = Query("alpha", description=SORT_HELP),
    limit: int = Query(DEFAULT_LIMIT, description=PAGE_HELP),
    offset: int = Query(0, description=OFFSET_HELP),
) -> dict[str, Any]:
    return lex.blanks(word, edge=edge, sort=sort, limit=limit, offset=offset)


@query("/v1/games/{game}/pattern", description=(
    "Pattern search: `?` one tile, `*` any run of tiles, `[abc]` one of a set, "
    "`[^abc]` none of it; Latin LJ/NJ/DŽ are read every way (results pooled), `|` "
    "forbids a tile across it, `[dž]` is one tile. Counted (`count`) and paged.\n"
    + QUERY_LIMITS),
    responses=PerApp(lambda: _error_examples((400, BAD_PATTERN_EXAMPLE), (422, {
        "code": "too_many_matches",
        "message": f"the query matches more than {figure('queries.MAX_MATCHES')} words; "
                   "narrow it (fix more letters or give length bounds)",
        "detail": {"limit": limit_value("queries.MAX_MATCHES")}}))))
def pattern_query(
    lex: Lexicon,
    pattern: str = Query(..., description="the pattern",
                         openapi_examples=examples(fixed="?A??K", joker="KA?IN",
                                                   suffix="*OWY", sets="[KL]A[^R]*")),
    min_length: int | None = Query(None, description="fewest tiles (default: the "
                                                     "game's minimum)"),
    max_length: int | None = Query(None, description="most tiles (default: the "
                                                     "game's maximum)"),
    sort: str = Query("alpha", description=SORT_HELP),
    limit: int = Query(DEFAULT_LIMIT, description=PAGE_HELP),
    offset: int = Query(0, description=OFFSET_HELP),
) -> dict[str, Any]:
    return lex.pattern(pattern, min_length=min_length, max_length=max_length, sort=sort,
                       limit=limit, offset=offset)


@query("/v1/games/{game}/anagrams", description=(
    "Anagrams and sub-anagrams (at least the game's minimum length) of a rack, `?` "
    "for a joker; `board` letters must all be used by every word; `exact` keeps only "
    "words using the whole rack. Each result says which positions jokers fill, which "
    "board letters it uses and whether it uses every tile.\n" + QUERY_LIMITS),
    responses=PerApp(lambda: _error_examples((400, _rack_too_long(
        limit_value("anagrams.MAX_RACK_TILES"))))))
def anagram_query(
    lex: Lexicon,
    rack: str = Query(..., description="rack tiles; `?` is a joker; separate "
                                       "Kvizovka tiles with spaces where it matters",
                      openapi_examples=examples(plain="KOTEKAO", jokers="KOTEKAO??")),
    board: str = Query("", description="letters on the board the word must use"),
    exact: bool = Query(False, description="only words that use the whole rack"),
    min_length: int | None = Query(None, description="fewest tiles"),
    max_length: int | None = Query(None, description="most tiles"),
    sort: str = Query("score", description=SORT_HELP),
    limit: int = Query(DEFAULT_LIMIT, description=PAGE_HELP),
    offset: int = Query(0, description=OFFSET_HELP),
) -> dict[str, Any]:
    return lex.anagrams(rack, board=board, exact=exact, min_length=min_length,
                        max_length=max_length, sort=sort, limit=limit, offset=offset)


@query("/v1/games/{game}/extend", description=(
    "Remik's rebuilds: every word that uses all the tiles of the table word `word` and "
    "at least one tile of `rack`, with the rack tiles each uses (`rack_letters`), "
    "counted and paged; no word shorter than the game lets a player lay (Kvizovka's "
    "3-tile words only with `edge`). `/v1/games/remik/extend?word=KOT&rack=ARS`.\n"
    + QUERY_LIMITS))
def extend_query(
    lex: Lexicon,
    word: str = Query(..., description="the word on the table",
                      openapi_examples=examples(word="KOT")),
    rack: str = Query(..., description="the letters on the player's shelf",
                      openapi_examples=examples(rack="ARS")),
    edge: bool = Query(False, description="Kvizovka board-edge rule (3 tiles)"),
    sort: str = Query("alpha", description=SORT_HELP),
    limit: int = Query(DEFAULT_LIMIT, description=PAGE_HELP),
    offset: int = Query(0, description=OFFSET_HELP),
) -> dict[str, Any]:
    return lex.extend(word, rack, edge=edge, sort=sort, limit=limit, offset=offset)


@query("/v1/games/{game}/hooks", description=(
    "Front and back hooks: the tiles that extend the word into an admissible word "
    "(`joker_only` marks letters only a joker can play), whether it is the prefix of "
    "a longer word and which tiles may follow it."))
def hooks_query(lex: Lexicon, word: str = Query(
        ..., description="the word", openapi_examples=examples(word="KOT"))
) -> dict[str, Any]:
    return lex.hooks(word)


@query("/v1/games/{game}/prefix", description=(
    "Does a playable word start with this prefix (`is_prefix`), is it a word itself, "
    "and which tiles may come next."))
def prefix_query(lex: Lexicon, prefix: str = Query(
        ..., description="the prefix", openapi_examples=examples(prefix="KO"))
) -> dict[str, Any]:
    return lex.prefix(prefix)


class ValidRequest(BaseModel):
    words: list[str] = Field(..., description="words to check (at most "
                                              f"{figure('fastcheck.MAX_WORDS')})",
                             examples=[["zażółć", "gęślą", "jaźń", "np"]])
    edge: bool = Field(False, description="Kvizovka: the word touches the board's edge")


@routes.post("/v1/games/{game}/valid", tags=["check"], description=(
    "The lean batch check for engines: one boolean per word, exactly the `valid` of "
    f"`check`, without explanations, at up to {figure('fastcheck.MAX_WORDS')} words per "
    "request (`batch_too_large`, 413). Use `/check` for reasons, analyses and tiles."),
    responses={200: {"content": {"application/json": {"example": {
        "game": "osps", "release": "osps-…", "count": 4, "valid": 3,
        "results": [True, True, True, False]}}}}}, response_model=None)
def valid_batch(game: str, req: ValidRequest, catalog: CatalogOf) -> Response:
    if len(req.words) > MAX_WORDS:
        raise InputError(f"{len(req.words)} words; at most {MAX_WORDS:,} per "
                         f"request", code="batch_too_large", status=413)
    lex = catalog.lexicon(game, every_file=True)   # one release for the batch
    flags = lex.valid(req.words, edge=req.edge)
    metrics.count_flags(game, flags)
    body = {"game": game, "release": lex.release_id, "count": len(flags),
            "valid": sum(flags), "results": flags}
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                    media_type="application/json")
