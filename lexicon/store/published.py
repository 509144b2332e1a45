"""Which releases exist and which one is current, per game.

Layout under ``$LEXICON_HOME/releases/<game>/``: one directory per release id and a
``CURRENT`` file naming the one to serve. Publishing a release is a directory rename
followed by an atomic replace of ``CURRENT``, so readers see either the old release or the
new one, never a mixture.
"""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.errors import (
    LexiconError,
    OutOfDescriptors,
    ReleaseDamaged,
    UnknownRelease,
    out_of_descriptors,
)
from lexicon.game.inputs import printable
from lexicon.paths import releases_dir
from lexicon.store.integrity import MANIFEST, read_manifest

CURRENT = "CURRENT"
#: What follows ``GAME-`` in a release id as builds make them (build/release_writer.py,
#: build/linked.py): the UTC build second, the first 8 hex digits of the content hash, and
#: ``-2``, ``-3`` … when the same content was published twice in one second.
RELEASE_ID_TAIL = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}(?:-[1-9][0-9]{0,5})?")


def game_dir(game: str, root: Path | None = None) -> Path:
    return releases_dir(root) / game


def is_release_name(game: str, name: str) -> bool:
    """Could ``name`` be a release directory of ``game``? A plain name in the game's own
    directory (``osps-…``): never a path, so CURRENT cannot point into another game."""
    return (name.startswith(game + "-") and name == os.path.basename(name)
            and "\\" not in name and "\x00" not in name and name not in (".", ".."))


def is_release_id(game: str, name: str) -> bool:
    """Is ``name`` an id a build of ``game`` could have made (``osps-20261201T094325Z-
    b6b8f3a7``, maybe with ``-2``)? Stricter than :func:`is_release_name`, which still reads
    ``CURRENT`` files naming directories made by hand: an installed bundle must carry an id
    of this form, so ``evil``, ``osps-evil`` or a path is never published."""
    return (isinstance(name, str) and name.startswith(game + "-")
            and RELEASE_ID_TAIL.fullmatch(name, len(game) + 1) is not None)


def built_time(game: str, manifest: dict[str, Any]) -> datetime | None:
    """When a release was built, which orders the releases of a game by age: the
    manifest's ``built_at`` (to the microsecond), else the UTC second its id carries; None
    for a release that says neither (a directory made by hand)."""
    try:
        stamp = datetime.fromisoformat(str(manifest.get("built_at")))
        return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)
    except ValueError:
        rid = str(manifest.get("release", ""))
        if not is_release_id(game, rid):
            return None
        return datetime.strptime(rid[len(game) + 1:][:16], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)


def current_id(game: str, root: Path | None = None) -> str | None:
    """The release id CURRENT names (None: nothing published). A CURRENT that cannot be
    read, is not UTF-8 or names something other than a release of this game is
    ReleaseDamaged: that game answers 503, the others are not affected."""
    path = game_dir(game, root) / CURRENT
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        if out_of_descriptors(exc):
            raise OutOfDescriptors(f"{game}: no file descriptor left to read {CURRENT} "
                                   f"with; ask again shortly", detail={"game": game}) from exc
        raise ReleaseDamaged(f"{game}: {CURRENT} cannot be read ({exc.strerror}); point it "
                             f"at a release with `lexicon build {game}`",
                             detail={"game": game, "path": str(path)}) from exc
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise ReleaseDamaged(f"{game}: {CURRENT} is not UTF-8 text",
                             detail={"game": game, "path": str(path)}) from exc
    if not text:
        return None
    if not is_release_name(game, text):
        raise ReleaseDamaged(f"{game}: {CURRENT} names {text[:80]!r}, which is not a release "
                             f"directory of {game}", detail={"game": game, "path": str(path)})
    return text


def current_path(game: str, root: Path | None = None) -> Path | None:
    """The directory of the current release (None: nothing published yet)."""
    rid = current_id(game, root)
    if rid is None:
        return None
    path = game_dir(game, root) / rid
    if not (path / MANIFEST).is_file():
        raise ReleaseDamaged(f"{game}: {CURRENT} names {rid}, but there is no such release",
                             detail={"game": game, "release": rid})
    return path


def release_path(game: str, release_id: str, root: Path | None = None) -> Path:
    """The directory of a published release of ``game``, current or older.

    Raises :class:`UnknownRelease` (404) for an id that is not a published release of this
    game; ids are directory names, so anything that is not a plain name is refused first,
    and an id the filesystem cannot even look up (longer than a name may be, a NUL, a lone
    surrogate, any other OSError) is unknown too, never a server error.
    """
    gdir = game_dir(game, root)
    try:
        found = (bool(release_id) and "/" not in release_id and "\\" not in release_id
                 and "\x00" not in release_id and not release_id.startswith(".")
                 and len(os.fsencode(release_id)) <= 255
                 and (gdir / release_id / MANIFEST).is_file())
    except (OSError, ValueError):     # ENAMETOOLONG, EACCES, EIO…; UnicodeEncodeError
        found = False
    if not found:
        known = [r["release"] for r in list_releases(game, root)][:20]
        shown = printable(release_id)
        raise UnknownRelease(f"{game} has no published release {release_id[:100]!r}; "
                             f"{known_text(game, known)}",
                             detail={"game": game, "release": shown, "known": known})
    return gdir / release_id


#: Every switch of ``CURRENT`` (a build's or amend's publish, an install, a rollback), one
#: JSON line each, beside it: what an operator reads to see which release served when.
CURRENT_LOG = "CURRENT.log"


def known_text(game: str, known: list[str]) -> str:
    """The releases of ``game`` there are, as an error message says them (newest first)."""
    return (f"its releases, newest first: {', '.join(known)}" if known else
            f"it has none here (`lexicon build {game}` or `lexicon install BUNDLE`)")


def set_current(game: str, release_id: str, root: Path | None = None, *,
                by: str = "publish") -> None:
    """Point ``CURRENT`` at ``release_id`` atomically (write a temp file, then rename), and
    log the switch in :data:`CURRENT_LOG`: when, from which release (``was``, None for the
    first), to which, and ``by`` what (``publish``, ``install``, ``rollback``)."""
    try:
        was = current_id(game, root)
    except LexiconError:        # a damaged CURRENT is being replaced: it named nothing
        was = None
    gdir = game_dir(game, root)
    atomic.write_text(gdir / CURRENT, release_id + "\n")
    line = json.dumps({"at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "release": release_id, "was": was, "by": by,
                       "pid": os.getpid()}) + "\n"
    # one write of one short line in append mode: concurrent writers never interleave
    fd = os.open(gdir / CURRENT_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


#: Release summaries by release directory, with the manifest's (inode, size, mtime) they
#: were read from: a published release never changes, so ``/v1/releases`` parses each
#: manifest once per process instead of every manifest on every call (a large manifest
#: takes long to parse). A replaced manifest (a new inode or size) is read again.
_SUMMARIES: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def _summary(game: str, rdir: Path) -> dict[str, Any] | None:
    """A release's small summary (None: no manifest), cached; see :data:`_SUMMARIES`."""
    try:
        st = (rdir / MANIFEST).stat()
    except OSError:
        return None
    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
    cached = _SUMMARIES.get(str(rdir))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        m = read_manifest(rdir)
    except ReleaseDamaged as exc:       # not cached: a repaired release is read again
        return {"game": game, "release": rdir.name, "built_at": None, "counts": {},
                "size_bytes": None, "damaged": exc.message, "path": str(rdir)}
    row = {
        "game": game,
        "release": m["release"],
        "built_at": m.get("built_at"),
        "rules_version": m.get("rules_version"),
        "counts": m.get("counts", {}),
        "size_bytes": m.get("size_bytes"),
        "content_sha256": m.get("content_sha256"),
        "previous": m.get("previous"),
        "path": str(rdir),
    }
    _SUMMARIES[str(rdir)] = (stamp, row)
    return row


def list_releases(game: str | None = None, root: Path | None = None) -> list[dict[str, Any]]:
    """Summaries of every published release, newest first per game (``current`` marks
    the one ``CURRENT`` names, read afresh on every call)."""
    base = releases_dir(root)
    if not base.exists():
        return []
    games = [game] if game else sorted(p.name for p in base.iterdir() if p.is_dir())
    out: list[dict[str, Any]] = []
    for g in games:
        gdir = base / g
        if not gdir.is_dir():
            continue
        try:
            cur = current_id(g, root)
        except LexiconError:
            cur = None
        rows = []
        for rdir in gdir.iterdir():
            if rdir.name.startswith("."):
                continue
            row = _summary(g, rdir)
            if row is not None:
                rows.append({"game": g, "release": row["release"],
                             "current": row["release"] == cur, **row})
        rows.sort(key=lambda r: r["built_at"] or "", reverse=True)
        out += rows
    return out
