"""Is this server ready to take traffic? Every configured game serves a verified release.

Liveness (``/healthz``) says the process answers; readiness says a load balancer may send it
requests. A replica that is still installing its releases, or that holds a damaged game,
must be drained rather than answer 503 for that game while its neighbours answer 200, so
readiness is all-or-nothing over the configured games.

"Verified" means the release the game serves now passed the full check of
:func:`lexicon.store.integrity.verify_release` (every file's sha256 against the manifest) in this
process, and its sizes still match on every probe (:meth:`Catalog.state`, a few ``stat``
calls). Hashing a real release reads all of it (a second or so for the largest), so the
verdict, good or bad, is remembered by the release's path and its files' stamp (inode,
size, mtime: :func:`lexicon.store.integrity.hashed_problems`) and hashed again only when a
file changes; a new release (a publish or ``lexicon install`` switching ``CURRENT``) is a
new path, hashed on the first probe that sees it. A release that fails is not served at
all from then on: every route answers 503 ``release_damaged`` for its game, and so does
``/healthz``'s state, whatever then happens to its files' inodes, sizes or times, until a
probe here hashes it again (once its files changed) and every file matches its sha256.

The configured games are every game with a profile, or the comma-separated ids in
``LEXICON_GAMES`` for a replica that serves only some of them.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from lexicon.errors import LexiconError, UnknownGame
from lexicon.game import profile as profiles
from lexicon.store import integrity
from lexicon.store.release import Release

GAMES_ENV = "LEXICON_GAMES"


class Catalog(Protocol):
    """What readiness reads of a home: the catalog (:mod:`lexicon.catalog`, which asks this
    module, so it is named by what it does, not imported)."""

    def games(self) -> list[str]: ...
    def release(self, game: str) -> Release: ...
    def state(self, game: str) -> dict[str, Any]: ...
    def reverify(self, game: str) -> bool: ...


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
    """None when the served release is hash-verified, else the error code. A release that
    fails is condemned (:meth:`lexicon.store.release.Release.condemn`): it then stops
    answering everywhere, not only here."""
    try:
        rel = catalog.release(game)
    except LexiconError as exc:
        return exc.code
    problems = integrity.hashed_problems(rel.path)
    if problems:
        return rel.condemn(problems).code
    return None


def readiness(catalog: Catalog) -> dict[str, Any]:
    """``{"ready": bool, "games": {game: {"ready", "release", "state", "reason"?}},
    "not_ready": [games]}`` over the configured games."""
    games: dict[str, dict[str, Any]] = {}
    for game in configured_games(catalog):
        state = catalog.state(game)
        if state["state"] == "damaged" and catalog.reverify(game):   # whole again
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
