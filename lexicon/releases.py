"""Which releases exist and which one is current, per game.

Layout under ``$LEXICON_HOME/releases/<game>/``: one directory per release id and a
``CURRENT`` file naming the one to serve. Publishing a release is a directory rename
followed by an atomic replace of ``CURRENT``, so readers see either the old release or the
new one, never a mixture.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from lexicon.errors import UnknownRelease
from lexicon.paths import releases_dir
from lexicon.store import MANIFEST

CURRENT = "CURRENT"


def game_dir(game: str, root: Path | None = None) -> Path:
    return releases_dir(root) / game


def current_id(game: str, root: Path | None = None) -> str | None:
    try:
        text = (game_dir(game, root) / CURRENT).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return text or None


def current_path(game: str, root: Path | None = None) -> Path | None:
    rid = current_id(game, root)
    if rid is None:
        return None
    path = game_dir(game, root) / rid
    return path if (path / MANIFEST).exists() else None


def release_path(game: str, release_id: str, root: Path | None = None) -> Path:
    """The directory of a published release of ``game``, current or older.

    Raises :class:`UnknownRelease` (404) for an id that is not a published release of this
    game; ids are directory names, so anything that is not a plain name is refused first.
    """
    gdir = game_dir(game, root)
    if (not release_id or "/" in release_id or "\\" in release_id
            or release_id.startswith(".") or not (gdir / release_id / MANIFEST).is_file()):
        known = [r["release"] for r in list_releases(game, root)][:20]
        raise UnknownRelease(f"{game} has no published release {release_id!r}",
                             detail={"game": game, "release": release_id, "known": known})
    return gdir / release_id


def set_current(game: str, release_id: str, root: Path | None = None) -> None:
    """Point ``CURRENT`` at ``release_id`` atomically (write a temp file, then rename)."""
    gdir = game_dir(game, root)
    tmp = gdir / f".{CURRENT}.{os.getpid()}.tmp"
    tmp.write_text(release_id + "\n", encoding="utf-8")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, gdir / CURRENT)


def list_releases(game: str | None = None, root: Path | None = None) -> list[dict[str, Any]]:
    """Manifests (abridged) of every published release, newest first per game."""
    base = releases_dir(root)
    if not base.exists():
        return []
    games = [game] if game else sorted(p.name for p in base.iterdir() if p.is_dir())
    out: list[dict[str, Any]] = []
    for g in games:
        gdir = base / g
        if not gdir.is_dir():
            continue
        cur = current_id(g, root)
        rows = []
        for rdir in gdir.iterdir():
            if rdir.name.startswith(".") or not (rdir / MANIFEST).exists():
                continue
            m = json.loads((rdir / MANIFEST).read_text(encoding="utf-8"))
            rows.append({
                "game": g,
                "release": m["release"],
                "current": m["release"] == cur,
                "built_at": m.get("built_at"),
                "rules_version": m.get("rules_version"),
                "counts": m.get("counts", {}),
                "size_bytes": m.get("size_bytes"),
                "content_sha256": m.get("content_sha256"),
                "previous": m.get("previous"),
                "path": str(rdir),
            })
        rows.sort(key=lambda r: r["built_at"] or "", reverse=True)
        out += rows
    return out
