"""A word's verdict, ``GET /v1/games/{game}/words/{word}``, and the full batch check,
``POST /v1/games/{game}/check``.

The single word's plain successful lookups are answered before the app by the word lane
(:class:`service.hotpath.WordLookup`); the route here answers the rest and documents it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import Query, Request
from fastapi.responses import Response
from lexicon.service import byid, hotpath, metrics
from lexicon.service.apidocs import figure
from lexicon.service.routes.declare import Routes
from lexicon.service.routes.params import LANG_HELP, RELEASE_HELP, CatalogOf
from pydantic import BaseModel, Field

from lexicon import MAX_BATCH, InputError

routes = Routes(tags=["check"])

CHECK_EXAMPLE = {
    "input": "zażółć", "game": "osps", "word": "zażółć", "valid": True,
    "tiles": ["Z", "A", "Ż", "Ó", "Ł", "Ć"], "score": 21, "reason": None,
    "analyses": [{"lemma": "zażółcić", "tags": "impt:sg:sec:perf", "source": "morfeusz2",
                  "gloss": "czasownik, tryb rozkazujący, 2. osoba liczby pojedynczej, "
                           "aspekt dokonany"}],
    "category": "verb", "sources": ["hunspell-pl", "wpolish"],
    "evidence": ["grade:morfeusz", "listed by the sjp.pl word list (packages hunspell-pl and "
                                   "wpolish); known to Morfeusz"],
    "meanings": [],
    "alternatives": [], "jokers_needed": [], "release": "osps-20261201T154611Z-b6b8f3a7",
}


class CheckRequest(BaseModel):
    words: list[str] = Field(..., description="words to check (at most "
                                              f"{figure('checker.MAX_BATCH')})",
                             examples=[["zażółć", "gęślą", "jaźń", "np"]])
    edge: bool = Field(False, description="Kvizovka: the word touches the board's edge "
                                          "(3-letter words allowed)")
    lang: str | None = Field(None, description=LANG_HELP)


@routes.get("/v1/games/{game}/words/{word}", response_model=None,
            openapi_extra={"parameters": hotpath.word_parameters(LANG_HELP, RELEASE_HELP)},
            responses={200: {"description": "the verdict", "content": {"application/json": {
                "example": CHECK_EXAMPLE}}},
                422: {"description": "Validation Error"}})   # as FastAPI states it
async def check_one(request: Request) -> Response:
    """Is ``word`` valid in ``game``, with reason, tiles, score and analyses.

    The plain successful lookups are answered in front of FastAPI by
    :class:`service.hotpath.WordLookup`; this route answers the rest (errors,
    malformed parameters) and documents the endpoint. Both read the path and the query
    with the same functions (``hotpath.word_target``, ``hotpath.word_query``) and
    answer with the same one (``hotpath.word_json``).
    """
    game, word = (hotpath.word_target(request.scope["path"])   # what the router matched
                  or (request.path_params["game"], request.path_params["word"]))
    edge, lang, release = hotpath.word_query(request.scope.get("query_string", b""))
    return Response(await byid.taken(release, partial(
        hotpath.word_json, request.app.state.catalog, game, word, edge=edge, lang=lang,
        release=release)), media_type="application/json")


@routes.post("/v1/games/{game}/check")
def check_batch(game: str, req: CheckRequest, catalog: CatalogOf,
                release: str | None = Query(None, description=RELEASE_HELP)
                ) -> dict[str, Any]:
    """Check up to 10,000 words; a bad word gets an ``error`` item, not a failed batch."""
    if len(req.words) > MAX_BATCH:
        raise InputError(f"{len(req.words)} words; at most {MAX_BATCH} per request",
                         code="batch_too_large", status=413)
    lex = catalog.lexicon(game, release, every_file=True)  # one release for the batch
    results = lex.check_many(req.words, edge=req.edge, lang=req.lang)
    metrics.count_verdicts(game, results)
    return {"game": game, "release": lex.release_id, "count": len(results),
            "valid": sum(1 for r in results if r.get("valid")), "results": results}
