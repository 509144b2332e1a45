"""The HTTP face: a thin FastAPI layer over :mod:`lexicon.checker` and friends.

Nothing here decides anything about words; it parses requests, calls the library and turns
:class:`~lexicon.errors.LexiconError` into JSON errors with a stable ``code``. Bad input is
answered with a 4xx and that JSON, never a 500.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from lexicon import checker, releases
from lexicon.catalog import Catalog
from lexicon.errors import InputError, LexiconError

API_DESCRIPTION = """
Word validation for Kvizovka, Križemkražem, Polish Scrabble (`osps`) and Remik słowny
(`remik`). Every answer names the release that gave it.

Errors are JSON objects `{"code": ..., "message": ...}` with a stable `code`:
`unknown_game`, `no_release`, `empty_word`, `word_too_long`, `control_character`,
`mixed_scripts`, `bad_tile_notation`, `batch_too_large`, `invalid_request`, `not_found`.

Kvizovka input may be Latin or Cyrillic; `[dž]` forces one tile and `|` forbids a tile
across it (`nad|živeti`). Limits: a word has at most 64 characters; a batch at most
10,000 words.
"""


class CheckRequest(BaseModel):
    words: list[str] = Field(..., description="words to check (at most 10,000)",
                             examples=[["zażółć", "gęślą", "jaźń", "np"]])
    edge: bool = Field(False, description="Kvizovka: the word touches the board's edge "
                                          "(3-letter words allowed)")


def _error(status: int, code: str, message: str, detail: Any = None) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if detail:
        body["detail"] = detail
    return JSONResponse(body, status_code=status)


def create_app(root: Path | None = None) -> FastAPI:
    catalog = Catalog(root)
    app = FastAPI(title="Lexicon", version="0.1.0", description=API_DESCRIPTION)
    app.state.catalog = catalog

    @app.exception_handler(LexiconError)
    async def lexicon_error(_: Request, exc: LexiconError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg")} for e in exc.errors()]
        return _error(422, "invalid_request", "the request does not match the API", errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def internal_error(_: Request, exc: Exception) -> JSONResponse:
        return _error(500, "internal_error", f"{type(exc).__name__}: the server failed")

    @app.get("/healthz", tags=["service"])
    def healthz() -> dict[str, Any]:
        """Liveness, and which release each game serves (null where none is built)."""
        rels = {}
        for game in catalog.games():
            rel = catalog.release_or_none(game)
            rels[game] = rel.id if rel else None
        return {"status": "ok", "releases": rels}

    @app.get("/v1/games", tags=["games"])
    def games() -> list[dict[str, Any]]:
        """Every game's profile (tiles, values, limits) and its current release."""
        out = []
        for game in catalog.games():
            summary = catalog.profile(game).summary()
            rel = catalog.release_or_none(game)
            summary["release"] = rel.id if rel else None
            out.append(summary)
        return out

    @app.get("/v1/games/{game}", tags=["games"])
    def game_profile(game: str) -> dict[str, Any]:
        summary = catalog.profile(game).summary()
        rel = catalog.release_or_none(game)
        summary["release"] = rel.id if rel else None
        return summary

    @app.get("/v1/games/{game}/words/{word}", tags=["check"])
    def check_one(game: str, word: str,
                  edge: bool = Query(False, description="Kvizovka board-edge rule")) -> dict:
        """Is ``word`` valid in ``game``, with reason, tiles, score and analyses."""
        return checker.check_word(catalog, game, word, edge=edge)

    @app.post("/v1/games/{game}/check", tags=["check"])
    def check_batch(game: str, req: CheckRequest) -> dict[str, Any]:
        """Check up to 10,000 words; a bad word gets an ``error`` item, not a failed batch."""
        if len(req.words) > checker.MAX_BATCH:
            raise InputError(f"{len(req.words)} words; at most {checker.MAX_BATCH} per request",
                             code="batch_too_large", status=413)
        results = checker.check_many(catalog, game, req.words, edge=req.edge)
        rel = catalog.release(game)
        return {"game": game, "release": rel.id, "count": len(results),
                "valid": sum(1 for r in results if r.get("valid")), "results": results}

    @app.get("/v1/releases", tags=["releases"])
    def list_releases(game: str | None = None) -> list[dict[str, Any]]:
        """Every published release, newest first, with counts; ``current`` marks the served one."""
        if game is not None:
            catalog.profile(game)
        return releases.list_releases(game, catalog.root)

    return app


app = create_app()
