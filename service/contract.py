"""The HTTP error contract, written down once: one error shape, documented in OpenAPI for
every status an operation can give, plus the transport rules every response follows.

* Every error is ``{"code", "message", "detail"?}`` (:class:`ErrorBody`). A request whose
  *form* is wrong (body not JSON, not UTF-8, fields missing or of the wrong type) is 422
  ``invalid_request``, always: FastAPI would answer an undecodable body with a bare 400, so
  that case is mapped here. 400 is kept for readable requests whose *content* is refused
  (``empty_word``, ``bad_pattern`` …), 404 for unknown games and paths, 413 for oversized
  batches, 503 when a game cannot answer (``no_release``, ``release_damaged``, ``no_index``).
* ``HEAD`` is answered wherever ``GET`` is (same status and headers, no body); any other
  method a path does not take is 405 ``method_not_allowed`` with an ``Allow`` header.
* Every HTML response carries a Content-Security-Policy with ``frame-ancestors 'none'``
  (the referee page, ``/static/*.html``, the API docs), so no other site can frame it.

The middleware is plain ASGI (no per-request objects): it sits on the single-word hot path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lexicon import (
    MAX_BATCH,
    MAX_BOARD_TILES,
    MAX_CHARS_PER_TILE,
    MAX_LIMIT,
    MAX_OFFSET,
    MAX_PATTERN_CHARS,
    MAX_RACK_TILES,
    MAX_WORD_CHARS,
    MAX_WORDS,
    game_ids,
)

# The referee page needs nothing from elsewhere; nor does the Swagger UI page
# (service/docspage.py serves its script), which starts from inline code and inline styles.
PAGE_CSP = ("default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
            "frame-ancestors 'none'")
DOCS_PATHS = ("/docs",)


class ErrorBody(BaseModel):
    """Every error the API gives (4xx and 503)."""

    code: str = Field(..., description="stable machine-readable code (never renamed)",
                      examples=["unknown_game"])
    message: str = Field(..., description="what went wrong, for people")
    detail: dict[str, Any] | list[Any] | None = Field(
        None, description="structured facts: limits, positions, the failing fields")


def error(status: int, code: str, message: str, detail: Any = None,
          headers: dict[str, str] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if detail:
        body["detail"] = detail
    return JSONResponse(body, status_code=status, headers=headers)


async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg")} for e in exc.errors()]
    return error(422, "invalid_request", "the request does not match the API", errors)


async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
    status, headers = exc.status_code, dict(exc.headers or {})
    if status == 400:  # FastAPI's only 400: a body it could not decode (not UTF-8 JSON)
        return error(422, "invalid_request",
                     "the request body is not valid JSON in UTF-8",
                     [{"loc": ["body"], "msg": str(exc.detail)}])
    if status == 404:
        return error(404, "not_found", str(exc.detail), headers=headers)
    if status == 405:
        allowed = [m.strip() for m in headers.get("Allow", "").split(",") if m.strip()]
        if "GET" in allowed and "HEAD" not in allowed:   # TransportRules answers HEAD
            allowed.append("HEAD")
        headers["Allow"] = ", ".join(allowed)
        return error(405, "method_not_allowed",
                     f"this path does not take that method; it takes {headers.get('Allow')}",
                     headers=headers)
    return error(status, "http_error", str(exc.detail), headers=headers)


class TransportRules:
    """HEAD as GET without a body, and the security headers of HTML responses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        docs = scope["path"].startswith(DOCS_PATHS)

        async def send_wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers") or []
                if any(k == b"content-type" and v.startswith(b"text/html")
                       for k, v in headers):
                    headers = [(k, v) for k, v in headers
                               if k != b"content-security-policy"]
                    headers += [(b"content-security-policy",
                                 (DOCS_CSP if docs else PAGE_CSP).encode()),
                                (b"x-frame-options", b"DENY"),
                                (b"x-content-type-options", b"nosniff")]
                    message = {**message, "headers": headers}
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_wrapped)


# -- OpenAPI: the real error shape and the numeric limits ---------------------------------

_GAME_ERRORS = {
    "400": "unusable input: `empty_word`, `word_too_long`, `control_character`, "
           "`mixed_scripts`, `bad_tile_notation`, `bad_pattern`, `rack_too_long` …",
    "404": "`unknown_game` (or `unknown_release` for a `release=` that was never published)",
    "422": "`invalid_request`: the body is not UTF-8 JSON or does not match the schema "
           "(also `too_many_matches` for a query matching too many words)",
    "503": "the game cannot answer: `no_release`, `release_damaged` (its release failed "
           "its integrity checks; other games are unaffected) or `no_index`",
}
_LANG_ERROR = "`bad_lang`: a language other than pl, sr, sr-Cyrl, sl and en"
_BATCH_ERROR = {"413": "`batch_too_large`: more words than the endpoint takes; "
                       "`body_too_large`: a body over its byte limit, refused before it is "
                       "read (see service/bodies.py: a trickling body is 408 `body_timeout`, "
                       "a big batch that waited too long for its turn 503 `too_many_batches`)"}

# (parameter name, JSON-schema keywords): the limits the library enforces, from its constants
_PARAM_LIMITS: dict[str, dict[str, int]] = {
    "word": {"maxLength": MAX_WORD_CHARS},
    "pattern": {"maxLength": MAX_PATTERN_CHARS},
    "rack": {"maxLength": MAX_RACK_TILES * MAX_CHARS_PER_TILE},
    "board": {"maxLength": MAX_BOARD_TILES * MAX_CHARS_PER_TILE},
    "limit": {"minimum": 1, "maximum": MAX_LIMIT},
    "offset": {"minimum": 0, "maximum": MAX_OFFSET},
}
_BODY_LIMITS = {"CheckRequest": MAX_BATCH, "ValidRequest": MAX_WORDS}


def _error_response(description: str, existing: dict[str, Any] | None) -> dict[str, Any]:
    out = dict(existing or {})
    out.setdefault("description", description)
    content = out.setdefault("content", {}).setdefault("application/json", {})
    content["schema"] = {"$ref": "#/components/schemas/ErrorBody"}
    return out


def document_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """An ``app.openapi`` that states the error contract on every operation."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version,
                             description=app.description, routes=app.routes)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
        schemas["ErrorBody"] = ErrorBody.model_json_schema()
        for name, most in _BODY_LIMITS.items():
            words = schemas.get(name, {}).get("properties", {}).get("words")
            if words is not None:
                words["maxItems"] = most
        for path, operations in schema.get("paths", {}).items():
            for method, op in operations.items():
                responses = op.setdefault("responses", {})
                wanted: dict[str, str] = {}
                if "{game}" in path or "parameters" in op or "requestBody" in op:
                    wanted["422"] = _GAME_ERRORS["422"]
                if "{game}" in path or path.startswith("/v1/games/"):   # /v1/games/remik/move
                    wanted.update(_GAME_ERRORS)
                elif any(p.get("name") == "game" for p in op.get("parameters", [])):
                    wanted["404"] = _GAME_ERRORS["404"]
                if any(p.get("name") == "lang" for p in op.get("parameters", [])):
                    wanted.setdefault("400", _LANG_ERROR)    # /v1/games?lang=
                if method == "post" and path.endswith(("/check", "/valid")):
                    wanted.update(_BATCH_ERROR)
                for status, description in wanted.items():
                    responses[status] = _error_response(description, responses.get(status))
                for param in op.get("parameters", []):
                    limits = _PARAM_LIMITS.get(param.get("name"))
                    if limits:
                        param.setdefault("schema", {}).update(limits)
                    if param.get("name") == "game":   # any other id is 404 unknown_game
                        param.setdefault("schema", {})["enum"] = list(game_ids())
        app.openapi_schema = schema
        return schema

    return openapi


def install(app: FastAPI) -> None:
    """Apply the contract to ``app``: handlers, transport rules, documented errors."""
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_middleware(TransportRules)
    app.openapi = document_errors(app)  # type: ignore[method-assign]
