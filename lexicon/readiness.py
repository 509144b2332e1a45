"""Is this server ready to take traffic? Every configured game serves a verified release.

Liveness (``/healthz``) says the process answers; readiness says a load balancer may send it
requests. A replica that is still installing its releases, or that holds a damaged game,
must be drained rather than answer 503 for that game while its neighbours answer 200, so
readiness is all-or-nothing over the configured games.

"Verified" means the release the game serves now passed the full check of
:func:`lexicon.store.integrity.verify_release` (every file's sha256 against the manifest) in this
process, once, and its sizes still match on every probe (:meth:`Catalog.state`, a few
``stat`` calls). Hashing a real release reads all of it (osps: 142 MB, about a second), so a
release is hashed once per process and remembered by its path: releases are immutable, and
a new release (a publish or ``lexicon install`` switching ``CURRENT``) is a new path, hashed
on the first probe that sees it.

The configured games are every game with a profile, or the comma-separated ids in
``LEXICON_GAMES`` for a replica that serves only some of them.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError, UnknownGame
from lexicon.game import profile as profiles
from lexicon.store import integrity

GAMES_ENV = "LEXICON_GAMES"

_verified: set[str] = set()      # release directories whose sha256 table matched
_lock = threading.Lock()         # one hashing at a time: probes arrive concurrently


def configured_games(catalog: Catalog) -> list[str]:
    """The games this server must serve to be ready (``LEXICON_GAMES`` or all)."""
    raw = os.environ.get(GAMES_ENV, "").strip()
    if not raw:
        return catalog.games()
    games = [g.strip() for g in raw.split(",") if g.strip()]
    known = set(profiles.game_ids())
    unknown = [g for g in games if g not in known]
    if unknown:
        raise UnknownGame(f"{GAMES_ENV} names unknown games: {', '.join(unknown)}",
                          detail={"games": unknown})
    return games


def _verified_once(catalog: Catalog, game: str) -> str | None:
    """None when the served release is hash-verified, else the error code."""
    try:
        rel = catalog.release(game)
    except LexiconError as exc:
        return exc.code
    key = os.fspath(rel.path)
    if key in _verified:
        return None
    with _lock:
        if key not in _verified:
            try:
                integrity.verify_release(rel.path)
            except LexiconError as exc:
                return exc.code
            _verified.add(key)
    return None


def readiness(catalog: Catalog) -> dict[str, Any]:
    """``{"ready": bool, "games": {game: {"ready", "release", "state", "reason"?}},
    "not_ready": [games]}`` over the configured games."""
    games: dict[str, dict[str, Any]] = {}
    for game in configured_games(catalog):
        state = catalog.state(game)
        row: dict[str, Any] = {"state": state["state"], "release": state["release"]}
        if state["state"] == "building":      # named apart: it will serve by itself
            row["reason"] = "building"
            row["expected_at"] = state["expected_at"]
        elif state["state"] != "serving":
            row["reason"] = state["error"]["code"]
        elif state.get("queries", "ok") != "ok":
            row["reason"] = state["queries"]
        else:
            problem = _verified_once(catalog, game)
            if problem is not None:
                row["reason"] = problem
        row["ready"] = "reason" not in row
        games[game] = row
    not_ready = [g for g, row in games.items() if not row["ready"]]
    return {"ready": not not_ready, "not_ready": not_ready, "games": games}
