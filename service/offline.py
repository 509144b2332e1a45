"""The routes that let the referee page work with no network.

* ``GET /v1/games/{game}/offline``: which release the page should keep for ``game`` and
  where its pack is (never cached: it is how a phone learns of a newer release);
* ``GET /v1/games/{game}/offline/{release}/rules`` and ``.../words``: the pack of one
  release (``Lexicon.offline_pack``: the rules as JSON, the words as two DAWG-only KWGs,
  gzip-compressed). A release never changes, so both are cached as immutable;
* ``GET /sw.js`` (the service worker, served from the root so that it may control the
  page at ``/``) and ``GET /manifest.webmanifest`` (what makes the page installable).

Nothing here decides a rule: the pack is made by the library from the game's profile.
No route waits for it on the event loop: a pack this process does not hold yet is read by
the library's own threads or made by a child process they wait for
(``Lexicon.offline_pack_job``), awaited for at most :data:`PACK_WAIT_SECONDS`, and until
then the answer is 503 ``pack_not_ready`` with ``Retry-After``, while ``/healthz`` and
every game's look-ups go on answering (``pack_failed`` when the child ended without one).
"""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from lexicon.service import byid
from lexicon.service.contract import ErrorBody

from lexicon import OFFLINE_FORMAT, Catalog, Lexicon, PackNotReady

STATIC_DIR = Path(__file__).parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"


def _links(game: str, release: str) -> dict[str, str]:
    base = f"/v1/games/{game}/offline/{release}"
    return {"rules": base + "/rules", "words": base + "/words"}


#: how long a pack route waits for a pack being read (a kept one takes well under this)
#: before it answers ``pack_not_ready``; the wait is an await, never a blocked loop
PACK_WAIT_SECONDS = 1.0
#: when a client told ``pack_not_ready`` should ask again
PACK_RETRY_SECONDS = 5


async def ready_pack(lex: Lexicon) -> Any:
    """The pack of ``lex``'s release once it is ready, waiting at most
    :data:`PACK_WAIT_SECONDS` on the event loop (an await: every other request goes on);
    ``pack_not_ready`` (503, ``Retry-After``) while the library's maker is still at it."""
    made = lex.offline_pack_job()
    if not made.done():
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(made)),
                                   PACK_WAIT_SECONDS)
        except TimeoutError:
            raise PackNotReady(
                f"the offline pack of {lex.release_id} is being made; ask again in "
                f"{PACK_RETRY_SECONDS} s", retry_after=PACK_RETRY_SECONDS,
                detail={"game": lex.profile.id, "release": lex.release_id}) from None
    return made.result()


def install(app: FastAPI, catalog: Catalog) -> None:
    """Add the offline routes (see the module docstring) to ``app``."""

    @app.get("/v1/games/{game}/offline", tags=["offline"], responses={503: {
        "model": ErrorBody, "description": "`pack_not_ready` (with `Retry-After`) while "
                                           "the pack is being made; `pack_failed` when "
                                           "its maker ended without one"}})
    async def offline_current(game: str) -> Response:
        """The release a phone should keep for ``game``, its pack's addresses and
        ``words_bytes``: what is downloaded, compressed. Asking starts the pack's making
        when it is not made yet (off the event loop) and answers at once: 503
        ``pack_not_ready`` with ``Retry-After`` until it is ready."""
        lex = catalog.lexicon(game)
        pack = await ready_pack(lex)
        body = {"game": game, "release": lex.release_id, **_links(game, lex.release_id),
                "words_bytes": len(pack.words_gzip), "format": OFFLINE_FORMAT}
        return Response(json.dumps(body), media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/v1/games/{game}/offline/{release}/rules", tags=["offline"])
    async def offline_rules(game: str, release: str) -> Response:
        """The rules of ``release``'s pack: profile, speller and play-rule tables, input
        classes and reason texts (JSON); ``pack_not_ready`` while it is being made."""
        pack = await ready_pack(await byid.taken(release, partial(catalog.lexicon, game,
                                                                  release)))
        return Response(json.dumps(pack.rules, ensure_ascii=False, separators=(",", ":")),
                        media_type="application/json", headers={"Cache-Control": IMMUTABLE})

    @app.get("/v1/games/{game}/offline/{release}/words", tags=["offline"])
    async def offline_words(game: str, release: str, request: Request) -> Response:
        """The words of ``release``'s pack: two DAWG-only KWGs (gzip when accepted);
        ``pack_not_ready`` while it is being made."""
        pack = await ready_pack(await byid.taken(release, partial(catalog.lexicon, game,
                                                                  release)))
        headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(pack.words_gzip, media_type="application/octet-stream",
                            headers=headers)
        return Response(pack.words, media_type="application/octet-stream", headers=headers)

    @app.get("/sw.js", include_in_schema=False, response_model=None)
    def service_worker() -> FileResponse:
        return FileResponse(STATIC_DIR / "sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False, response_model=None)
    def web_manifest() -> FileResponse:
        return FileResponse(STATIC_DIR / "manifest.webmanifest",
                            media_type="application/manifest+json")
