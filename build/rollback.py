"""Rolling a game back: make an older release that is still on disk current again.

A rollback is an install of a release already here (``lexicon install BUNDLE
--allow-downgrade`` without the bundle): under the game's build lock, so no build or install
of the game runs meanwhile, the release is checked exactly as a build's publish and an
install check it (:func:`build.release_writer.check_staged`: layout, every file's size and sha256,
opened by the server's reader, canaries), and only then ``CURRENT`` is switched, atomically,
the switch logged in ``CURRENT.log`` (:func:`lexicon.store.published.set_current`). A
release that fails its checks is refused and the game keeps serving what it served.

Without a release named, the release rolled back to is the newest one built before the
release being served (:func:`lexicon.store.published.built_time`), so rolling back twice
goes two releases back. Naming a release makes that one current, older or newer (undoing a
rollback).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lexicon.build.release_writer import build_lock, canaries_checked, check_staged

from lexicon.errors import LexiconError, UnknownRelease
from lexicon.game import profile as profiles
from lexicon.store import published
from lexicon.store.integrity import read_manifest


def previous_release(game: str, root: Path | None = None) -> str:
    """The newest release of ``game`` built before the one being served (any other
    readable release when the served one cannot be read). UnknownRelease when there is
    none, naming the releases there are."""
    rows = [r for r in published.list_releases(game, root) if not r.get("damaged")]
    try:
        current = published.current_id(game, root)
    except LexiconError:
        current = None
    served = next((r for r in rows if r["release"] == current), None)
    when = (published.built_time(game, {"built_at": served["built_at"],
                                       "release": served["release"]})
            if served else None)
    for row in rows:                       # newest first
        if row["release"] == current:
            continue
        built = published.built_time(game, {"built_at": row["built_at"],
                                           "release": row["release"]})
        if when is None or (built is not None and built < when):
            return row["release"]
    known = [r["release"] for r in rows][:20]
    raise UnknownRelease(f"{game} has no release built before {current} to roll back to; "
                         f"{published.known_text(game, known)}",
                         detail={"game": game, "current": current, "known": known})


def roll_back(game: str, release_id: str | None = None, root: Path | None = None
              ) -> dict[str, Any]:
    """Make ``release_id`` (default: :func:`previous_release`) the current release of
    ``game`` after checking it as an install would; returns what was done: the release
    now served, the one it replaced (``was``), the checked files."""
    profile = profiles.load(game)
    with build_lock(game, root):          # CURRENT holds still, no build publishes meanwhile
        target_id = release_id or previous_release(game, root)
        path = published.release_path(game, target_id, root)   # UnknownRelease lists them
        try:
            was = published.current_id(game, root)
        except LexiconError:
            was = None
        report = check_staged(profile, path, target_id,
                              check_canaries=canaries_checked(read_manifest(path)))
        published.set_current(game, target_id, root, by="rollback")
    return {"game": game, "release": target_id, "was": was, "current": True,
            "files_checked": report["files"], "hashed": report["hashed"],
            "log": str(published.game_dir(game, root) / published.CURRENT_LOG)}
