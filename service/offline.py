"""The routes that let the referee page work with no network.

* ``GET /v1/games/{game}/offline``: which release the page should keep for ``game`` and
  where its pack is (never cached: it is how a phone learns of a newer release);
* ``GET /v1/games/{game}/offline/{release}/rules`` and ``.../words``: the pack of one
  release (``Lexicon.offline_pack``: the rules as JSON, the words as two DAWG-only KWGs,
  gzip-compressed). A release never changes, so both are cached as immutable;
* ``GET /sw.js`` (the service worker, served from the root so that it may control the
  page at ``/``) and ``GET /manifest.webmanifest`` (what makes the page installable).

Nothing here decides a rule: the pack is made by the library from the game's profile.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response

from lexicon import OFFLINE_FORMAT, Catalog

STATIC_DIR = Path(__file__).parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"


def _links(game: str, release: str) -> dict[str, str]:
    base = f"/v1/games/{game}/offline/{release}"
    return {"rules": base + "/rules", "words": base + "/words"}


def install(app: FastAPI, catalog: Catalog) -> None:
    """Add the offline routes (see the module docstring) to ``app``."""

    async def pack_of(game: str, release: str | None) -> Any:
        lex = catalog.lexicon(game, release)
        # made once per release (a cache file); the first request for a big game builds
        # two DAWGs, off the event loop
        return lex, await asyncio.get_running_loop().run_in_executor(None, lex.offline_pack)

    @app.get("/v1/games/{game}/offline", tags=["offline"])
    async def offline_current(game: str) -> Response:
        """The release a phone should keep for ``game``, its pack's addresses and, once the
        pack is made (the first download of the release makes it), ``words_bytes``: what
        is downloaded, compressed. Asking never makes a pack."""
        lex = catalog.lexicon(game)
        pack = lex.offline_pack(make=False)
        body = {"game": game, "release": lex.release_id, **_links(game, lex.release_id),
                "words_bytes": len(pack.words_gzip) if pack else None, "format": OFFLINE_FORMAT}
        return Response(json.dumps(body), media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/v1/games/{game}/offline/{release}/rules", tags=["offline"])
    async def offline_rules(game: str, release: str) -> Response:
        """The rules of ``release``'s pack: profile, speller and play-rule tables, input
        classes and reason texts (JSON)."""
        _lex, pack = await pack_of(game, release)
        return Response(json.dumps(pack.rules, ensure_ascii=False, separators=(",", ":")),
                        media_type="application/json", headers={"Cache-Control": IMMUTABLE})

    @app.get("/v1/games/{game}/offline/{release}/words", tags=["offline"])
    async def offline_words(game: str, release: str, request: Request) -> Response:
        """The words of ``release``'s pack: two DAWG-only KWGs (gzip when accepted)."""
        _lex, pack = await pack_of(game, release)
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
