"""Shipping a release: build once, bundle it into one file, install it on other machines.

A fleet of stateless game servers behind a load balancer should not each build (minutes of
CPU, gigabytes of memory, the sources fetched again): one machine builds, ``lexicon
bundle`` packs the release directory into one tar file and writes its sha256 beside it
(``FILE.sha256``, the ``sha256sum`` format), and every server runs ``lexicon install
FILE``. Installing checks the bundle's sha256, unpacks it into a staging directory of its
own (only plain files and directories under one release directory are accepted: no links,
no absolute or ``..`` paths), verifies every file against the manifest's size and sha256
table (:func:`lexicon.integrity.verify_release`), and only then renames it into place and
switches ``CURRENT``, under the game's build lock. A corrupted or tampered bundle is
refused and nothing changes; a server keeps serving its previous release.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tarfile
from pathlib import Path
from typing import Any

from build.release import build_lock, remove_dead_staging
from lexicon import integrity, releases
from lexicon import profile as profiles
from lexicon.errors import LexiconError, ReleaseDamaged
from lexicon.paths import home
from lexicon.store import MANIFEST

SUFFIX = ".lexbundle.tar"
SKIP = {"lock.mdb", MANIFEST + ".tmp"}   # LMDB's reader table is per machine


class BadBundle(LexiconError):
    """A bundle that cannot be installed: wrong checksum, unsafe or incomplete contents."""

    code = "bad_bundle"
    status = 400


def _tarinfo(tar: tarfile.TarFile, path: Path, arcname: str, mtime: int) -> tarfile.TarInfo:
    """Owner, group and time normalised, so the same release always gives the same bytes;
    only plain files and directories, which is all an installer accepts."""
    info = tar.gettarinfo(str(path), arcname)
    if info.islnk():   # a file hard-linked inside the release: ship it as a plain file
        info.type, info.linkname, info.size = tarfile.REGTYPE, "", path.stat().st_size
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mtime = mtime
    info.mode = 0o755 if info.isdir() else 0o644
    return info


def bundle(game: str, release_id: str | None = None, output: Path | None = None,
           root: Path | None = None) -> dict[str, Any]:
    """Pack a published release (default: the current one) into ``output``; returns the
    bundle's path, size and sha256 (also written to ``output`` + ``.sha256``)."""
    profiles.load(game)
    root = root or home()
    if release_id is None:
        release_id = releases.current_id(game, root)
        if release_id is None:
            raise BadBundle(f"{game} has no current release to bundle", code="no_release",
                            status=503)
    src = releases.release_path(game, release_id, root)
    integrity.verify_release(src)          # never ship a damaged release
    output = Path(output) if output else Path.cwd() / f"{release_id}{SUFFIX}"
    tmp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    mtime = int(src.joinpath(MANIFEST).stat().st_mtime)
    try:
        with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
            tar.addfile(_tarinfo(tar, src, release_id, mtime))
            # the manifest first, so an installer learns the game before the big files
            for rel in [MANIFEST, *integrity.content_files(src, skip=SKIP | {MANIFEST})]:
                path = src / rel
                for parent in reversed(Path(rel).parents[:-1]):
                    name = f"{release_id}/{parent.as_posix()}"
                    if name not in tar.getnames():
                        tar.addfile(_tarinfo(tar, src / parent, name, mtime))
                with open(path, "rb") as fh:
                    tar.addfile(_tarinfo(tar, path, f"{release_id}/{rel}", mtime), fh)
        digest = integrity.sha256_file(tmp)
        os.replace(tmp, output)
    finally:
        tmp.unlink(missing_ok=True)
    sha_file = output.with_name(output.name + ".sha256")
    sha_file.write_text(f"{digest}  {output.name}\n", encoding="utf-8")
    return {"game": game, "release": release_id, "bundle": str(output),
            "sha256_file": str(sha_file), "sha256": digest, "bytes": output.stat().st_size}


def _expected_sha256(path: Path, sha256: str | None) -> str:
    if sha256:
        return sha256.strip().lower()
    beside = path.with_name(path.name + ".sha256")
    try:
        return beside.read_text(encoding="utf-8").split()[0].lower()
    except (FileNotFoundError, IndexError) as exc:
        raise BadBundle(f"no checksum for {path.name}: put {beside.name} beside it or give "
                        f"--sha256", detail={"bundle": str(path)}) from exc


def _members(tar: tarfile.TarFile) -> tuple[str, list[tarfile.TarInfo]]:
    """The release id and the members, refusing anything but plain files and directories
    inside one top-level directory."""
    members = tar.getmembers()
    if not members:
        raise BadBundle("the bundle is empty")
    top = members[0].name.split("/", 1)[0]
    if not top or top.startswith(".") or not members[0].isdir():
        raise BadBundle(f"the bundle does not start with a release directory ({top!r})")
    for m in members:
        parts = m.name.split("/")
        if (m.name.startswith("/") or ".." in parts or parts[0] != top
                or not (m.isfile() or m.isdir())):
            raise BadBundle(f"unsafe or foreign member {m.name!r} in the bundle",
                            detail={"member": m.name})
    return top, members


def install(path: Path, *, sha256: str | None = None, make_current: bool = True,
            root: Path | None = None) -> dict[str, Any]:
    """Verify a bundle and publish its release on this machine (see the module doc)."""
    path = Path(path)
    root = root or home()
    if not path.is_file():
        raise BadBundle(f"{path} is not a file", detail={"bundle": str(path)})
    expected = _expected_sha256(path, sha256)
    actual = integrity.sha256_file(path)
    if actual != expected:
        raise BadBundle(f"{path.name}: sha256 {actual} does not match {expected}; the bundle "
                        f"is corrupted or not the one published",
                        detail={"bundle": str(path), "expected": expected, "actual": actual})
    try:
        with tarfile.open(path, "r:*") as tar:
            release_id, members = _members(tar)
            raw = tar.extractfile(f"{release_id}/{MANIFEST}")
            if raw is None:
                raise BadBundle("the bundle holds no manifest.json")
            manifest = json.load(raw)
            game = manifest.get("game")
            if manifest.get("release") != release_id:
                raise BadBundle(f"the manifest names release {manifest.get('release')!r}, "
                                f"the bundle {release_id!r}")
            profiles.load(str(game))                    # UnknownGame for a foreign game
            gdir = releases.game_dir(game, root)
            gdir.mkdir(parents=True, exist_ok=True)
            with build_lock(game, root):
                remove_dead_staging(gdir)
                target = gdir / release_id
                if target.exists():
                    integrity.verify_release(target)
                    installed = False
                else:
                    staging = gdir / f".staging-install-{secrets.token_hex(4)}-{os.getpid()}"
                    staging.mkdir()
                    try:
                        tar.extractall(staging, members=members, filter="data")
                        integrity.verify_release(staging / release_id)
                        os.rename(staging / release_id, target)
                    finally:
                        shutil.rmtree(staging, ignore_errors=True)
                    installed = True
                if make_current:
                    releases.set_current(game, release_id, root)
    except (tarfile.TarError, json.JSONDecodeError, KeyError) as exc:
        raise BadBundle(f"{path.name} is not a readable bundle: {exc}",
                        detail={"bundle": str(path)}) from exc
    except ReleaseDamaged as exc:
        raise BadBundle(f"{path.name}: the release inside fails its checks: {exc.message}",
                        detail={"bundle": str(path), **exc.detail}) from exc
    return {"game": game, "release": release_id, "installed": installed,
            "current": make_current, "sha256": actual, "path": str(target)}
