"""What the routes share: the catalog and the query pool a request is answered from, and
the help texts of the parameters several routes take."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from lexicon.service.querypool import QueryPool

from lexicon import Catalog

LANG_HELP = ("language of glosses and reason texts: pl, sr, sr-Cyrl (Serbian in Cyrillic), sl "
             "or en (default: the game's "
             "players': pl for osps and remik, sr for kvizovka, sl for krizemkrazem)")


RELEASE_HELP = ("answer from this published release instead of the current one (\"valid as "
                "of edition X\"); an unknown id is `unknown_release`, 404")


async def _catalog(request: Request) -> Catalog:
    """The app's catalog (``create_app`` puts it in ``app.state``). ``async``: FastAPI
    runs a sync dependency on a worker thread, a hop per request for an attribute read."""
    return request.app.state.catalog


async def _query_pool(request: Request) -> QueryPool:
    """The app's pool for bounded pure-Python work (:mod:`service.querypool`)."""
    return request.app.state.query_pool


#: A route's parameter for the catalog that answers it (no query or path parameter).
CatalogOf = Annotated[Catalog, Depends(_catalog)]
#: A route's parameter for the queries' own workers.
PoolOf = Annotated[QueryPool, Depends(_query_pool)]
