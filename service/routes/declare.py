"""How a resource module declares its routes: :class:`Routes`, a list of FastAPI route
declarations made at import and added to an app by :meth:`Routes.install`.

Not FastAPI's ``APIRouter``: ``include_router`` adds a router as one nested route that
matches the request a second time, and the request's metrics label
(:class:`service.metrics.Observability`) and the HEAD and 405 rules
(:mod:`service.contract`) read the app's own flat list of routes. Here each route is added
with ``app.add_api_route``, exactly as ``@app.get`` adds it, so the app's dependencies and
its OpenAPI text are the same as if the route had been declared on the app. An option that
quotes a limit is given as :class:`PerApp`, made when the route is added: the text follows
the limit in force when the app is made, as the error it documents does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

Endpoint = Callable[..., Any]


class PerApp:
    """A route option made by ``make()`` each time the route is added to an app."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Routes:
    """Route declarations of one resource; ``defaults`` (``tags``, say) apply to each."""

    def __init__(self, **defaults: Any) -> None:
        self.defaults = defaults
        self.declared: list[tuple[str, Endpoint, dict[str, Any]]] = []

    def route(self, path: str, methods: list[str], **options: Any
              ) -> Callable[[Endpoint], Endpoint]:
        """Declare ``endpoint`` for ``methods`` on ``path`` (``options`` as ``@app.get``'s)."""
        def declare(endpoint: Endpoint) -> Endpoint:
            self.declared.append((path, endpoint,
                                  {**self.defaults, "methods": methods, **options}))
            return endpoint
        return declare

    def get(self, path: str, **options: Any) -> Callable[[Endpoint], Endpoint]:
        return self.route(path, ["GET"], **options)

    def post(self, path: str, **options: Any) -> Callable[[Endpoint], Endpoint]:
        return self.route(path, ["POST"], **options)

    def install(self, app: FastAPI) -> None:
        """Add every declared route to ``app``, in the order they were declared."""
        for path, endpoint, options in self.declared:
            made = {name: value.make() if isinstance(value, PerApp) else value
                    for name, value in options.items()}
            app.add_api_route(path, endpoint, **made)
