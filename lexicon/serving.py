"""What a server finds to serve, said at its start and by ``/healthz``.

A server started on the wrong data directory (``LEXICON_HOME`` unset outside the repository,
a typo, a directory not yet filled) would otherwise answer every game 503 and say nothing
about where it looked. :func:`startup_report` names the data directory, whether it
exists, and each game's state; :func:`startup_text` says it in one line for the log, plainly
"nothing to serve" when no game has a release. :func:`health_status` is the word
``/healthz`` gives, which is never a bare ``ok`` for a server with no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from lexicon.paths import where


class Catalog(Protocol):
    """What the report reads of a home (:class:`lexicon.catalog.Catalog`)."""

    root: Any

    def games(self) -> list[str]: ...
    def state(self, game: str) -> dict[str, Any]: ...


def health_status(states: Mapping[str, Mapping[str, Any]]) -> str:
    """``/healthz``'s ``status`` for the games' states (:meth:`Catalog.state`):
    ``degraded`` when a game's release is damaged or its query indexes cannot be read,
    ``no_games`` when no game has a release nor a build under way (nothing to serve), else
    ``ok``."""
    if any(s["state"] == "damaged" or s.get("queries", "ok") != "ok" for s in states.values()):
        return "degraded"
    if all(s["state"] == "no_release" for s in states.values()):
        return "no_games"
    return "ok"


def startup_report(catalog: Catalog) -> dict[str, Any]:
    """The data directory (as :func:`lexicon.paths.where` says it), whether it exists, and
    each game's state and release."""
    states = {game: catalog.state(game) for game in catalog.games()}
    return {"data_dir": where(catalog.root), "exists": catalog.root.is_dir(),
            "status": health_status(states),
            "games": {g: {"state": s["state"], "release": s["release"]}
                      for g, s in states.items()}}


def startup_text(report: Mapping[str, Any]) -> str:
    """One line for a person reading the server's log."""
    where_ = report["data_dir"]
    todo = "build a game into it (`lexicon build GAME`) or install a bundle (`lexicon install " \
           "BUNDLE`)"
    if not report["exists"]:
        return f"the data directory {where_} does not exist: nothing to serve; {todo}"
    if report["status"] == "no_games":
        return f"no release of any game in {where_}: nothing to serve; {todo}"
    by_state: dict[str, list[str]] = {}
    for game, row in report["games"].items():
        shown = f"{game} ({row['release']})" if row["release"] else game
        by_state.setdefault(row["state"], []).append(shown)
    parts = [f"{state.replace('_', ' ')}: {', '.join(games)}"
             for state, games in sorted(by_state.items(),
                                        key=lambda kv: kv[0] != "serving")]
    return f"data directory {where_}; " + "; ".join(parts)
