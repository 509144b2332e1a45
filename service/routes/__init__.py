"""The HTTP routes, one module per resource, each a list of routes
(:class:`service.routes.declare.Routes`) over plain functions that take the catalog from
the request (:mod:`service.routes.params`):

* :mod:`~service.routes.ops`: liveness and readiness (``/healthz``, ``/readyz``);
* :mod:`~service.routes.games`: the games' profiles (``/v1/games``);
* :mod:`~service.routes.words`: a word's verdict and the full batch check;
* :mod:`~service.routes.releases`: the published releases;
* :mod:`~service.routes.queries`: the engines' queries (``blanks`` ... ``prefix``, one helper
  for all six) and the lean batch check;
* :mod:`~service.routes.plays`: rulings on whole plays (the judge, Remik's move);
* :mod:`~service.routes.page`: the referee page and its files.

:func:`install` adds them in the order the API documents them; the API docs page
(:mod:`service.docspage`) and the offline routes (:mod:`service.offline`) follow.
"""

from __future__ import annotations

from fastapi import FastAPI
from lexicon.service import docspage, offline
from lexicon.service.routes import games, ops, page, plays, queries, releases, words

from lexicon import Catalog


def install(app: FastAPI, catalog: Catalog) -> None:
    """Every route of the service on ``app``, whose ``state`` holds ``catalog`` and the
    queries' pool (:func:`service.app.create_app`)."""
    for module in (ops, games, words, releases, queries, plays):
        module.routes.install(app)
    page.install(app)
    docspage.install(app)   # /docs and its assets, nothing from elsewhere
    offline.install(app, catalog)   # the page with no network (service/offline.py)
