"""The referee page: ``GET /`` and its files under ``/static`` (plain HTML, CSS and JS from
``service/static``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from lexicon.service.routes.declare import Routes

STATIC_DIR = Path(__file__).parent.parent / "static"

routes = Routes()


@routes.get("/", include_in_schema=False, response_model=None)
def referee_page() -> FileResponse:
    # the Content-Security-Policy of every HTML response is set by contract.TransportRules
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


def install(app: FastAPI) -> None:
    """The page's files and the page (a mount is the app's own: a router cannot carry it)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    routes.install(app)
