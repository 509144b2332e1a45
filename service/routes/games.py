"""The games: ``GET /v1/games`` and ``GET /v1/games/{game}``, each game's profile, name,
release and state."""

from __future__ import annotations

from typing import Any

from fastapi import Query
from lexicon.service.routes.declare import Routes
from lexicon.service.routes.params import CatalogOf

from lexicon import Catalog, game_name, language

routes = Routes(tags=["games"])

TITLE_HELP = ("language of each game's `title` (its name for a reader of that "
              "language): pl, sr, sr-Cyrl, sl or en (default: the game's players')")


def summary(catalog: Catalog, game: str, lang: str | None) -> dict[str, Any]:
    """The game's profile summary, its name in ``lang`` and its release's state."""
    profile = catalog.profile(game)
    out = profile.summary()
    out["players_language"] = language(profile.language, None)
    out["title"] = game_name(game, profile.name, language(profile.language, lang))
    state = catalog.state(game)
    out["release"] = state["release"]
    out["state"] = state["state"]
    if state["state"] == "building":        # the page says which games are building
        out["expected_at"] = state["expected_at"]
    return out


@routes.get("/v1/games")
def games(catalog: CatalogOf, lang: str | None = Query(None, description=TITLE_HELP)
          ) -> list[dict[str, Any]]:
    """Every game's profile (tiles, values, limits), its name in ``lang`` (``title``),
    its current release and its state (``serving``, ``building``, ``no_release``,
    ``damaged``)."""
    return [summary(catalog, game, lang) for game in catalog.games()]


@routes.get("/v1/games/{game}")
def game_profile(game: str, catalog: CatalogOf,
                 lang: str | None = Query(None, description=TITLE_HELP)) -> dict[str, Any]:
    return summary(catalog, game, lang)
