"""Liveness and readiness: ``GET /healthz`` and ``GET /readyz``."""

from __future__ import annotations

from typing import Any

from lexicon.service import contract, metrics
from lexicon.service.routes.declare import Routes
from lexicon.service.routes.params import CatalogOf

from lexicon import NotReady, health_status

routes = Routes(tags=["service"])


@routes.get("/healthz")
def healthz(catalog: CatalogOf) -> dict[str, Any]:
    """Liveness, and each game's state on its own: one game's damaged release never
    hides the others. ``status`` is ``ok``, ``degraded`` when some game's release
    is damaged or its query indexes cannot be read, or ``no_games`` when no game has a
    release (nothing to serve: see the data directory ``lexicon serve`` logs at its
    start); always HTTP 200: the process is alive. ``games[g].state`` is ``serving``,
    ``building`` (no release yet; a running build will publish one, ``expected_at``),
    ``no_release`` or ``damaged``;
    ``guards[g]`` how a release file shrinking under the server is kept from faulting a
    read: ``lease`` (the shrinking waits until no read is under way) or ``size_checks``
    (where the kernel refuses leases); ``metrics`` whether counters can be written."""
    states = {game: catalog.state(game) for game in catalog.games()}
    return {"status": health_status(states),
            "releases": {g: s["release"] for g, s in states.items()}, "games": states,
            "guards": {g: catalog.guard(g) for g in states},
            "metrics": metrics.write_state()}


@routes.get("/readyz", responses={
    503: {"model": contract.ErrorBody, "description": "`not_ready`: `detail` says which"}})
def readyz(catalog: CatalogOf) -> dict[str, Any]:
    """Readiness, for a load balancer: 200 only when every configured game serves a
    release that passed its sha256 check in this process (``lexicon.readiness``);
    otherwise 503 ``not_ready`` with ``detail.not_ready`` and each game's reason
    (``building`` with ``expected_at`` for a game a running build has yet to publish).
    ``metrics`` says whether this process can write its counters (``unwritable``: a
    full or read-only metrics directory); it serves either way, so readiness does not
    depend on it (every replica sharing the full filesystem would be drained)."""
    report = {**catalog.readiness(), "metrics": metrics.write_state()}
    if not report["ready"]:
        raise NotReady("not ready: " + ", ".join(
            f"{g} ({report['games'][g]['reason']})" for g in report["not_ready"]),
            detail=report)
    return report
