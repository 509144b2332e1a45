"""The published releases: ``GET /v1/releases``."""

from __future__ import annotations

from typing import Any

from lexicon.service.routes.declare import Routes
from lexicon.service.routes.params import CatalogOf

routes = Routes(tags=["releases"])


@routes.get("/v1/releases")
def list_releases(catalog: CatalogOf, game: str | None = None) -> list[dict[str, Any]]:
    """Every published release, newest first, with counts; ``current`` marks the served one."""
    return catalog.releases(game)
