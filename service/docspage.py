"""The API's documentation page, ``/docs`` (Swagger UI), served whole by the service itself.

Its script and style sheet come from the ``fastapi-offline`` package, which bundles Swagger
UI for exactly this; its icon is the referee page's. So the page works in a hall with no
internet, and a reader's browser asks no other host for anything: the page's
Content-Security-Policy (:data:`service.contract.DOCS_CSP`) allows only this origin. Swagger
UI's validator badge, which would ask a public validator about the schema, is switched off.
There is no ReDoc page: ReDoc draws its own logo from its makers' site whatever it is told.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

#: The bundled Swagger UI files (swagger-ui-bundle.js, swagger-ui.css) as the package ships
#: them.
ASSETS = Path(fastapi_offline.__file__).parent / "static"
#: Where the service serves them.
ASSETS_PATH = "/apidocs-assets"
#: The pages' icon: the referee page's (``service/static``, mounted at ``/static``).
ICON = "/static/icon.svg"


def install(app: FastAPI, docs_url: str = "/docs") -> None:
    """Serve the page and its assets from ``app`` (created with ``docs_url=None`` and
    ``redoc_url=None``, so FastAPI's CDN-loading pages are not there too)."""
    app.mount(ASSETS_PATH, StaticFiles(directory=ASSETS), name="apidocs-assets")
    title = app.title

    @app.get(docs_url, include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title=f"{title} - Swagger UI",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css", swagger_favicon_url=ICON,
            swagger_ui_parameters={"validatorUrl": None})

