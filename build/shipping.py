"""Shipping a release: build once, bundle it into one file, install it on other machines.

A fleet of stateless game servers behind a load balancer should not each build (minutes of
CPU, gigabytes of memory, the sources fetched again): one machine builds, ``lexicon
bundle`` packs the release directory into one tar file, writes its sha256 beside it
(``FILE.sha256``, the ``sha256sum`` format) and, with ``--sign KEY``, an ed25519 signature
(``FILE.sig``, see :mod:`build.signing`); every server runs ``lexicon install FILE``.

Installing, in order, before anything is written: the bundle's sha256; its signature by a
key in ``$LEXICON_HOME/trusted-keys/`` (unless ``allow_unsigned``: a checksum proves the
bytes arrived, not who made them); then one pass over the tar (:func:`_scan`): only plain
files and directories under one release directory (no links, devices, sparse files,
absolute or ``..`` paths, repeated names), the manifest second (UTF-8 JSON naming its
release and a file table), every file listed in that table with its header's size (so a
bomb is refused from its header) and its sha256 (read, not written), no listed file
absent, at most :data:`~lexicon.store.integrity.MAX_BUNDLE_MEMBERS` members and
:data:`~lexicon.store.integrity.MAX_BUNDLE_BYTES` bytes, also enforced on the (decompressed)
stream itself and by the writer; a known game and a release id as builds make them. Then,
under the game's build lock, it unpacks into a staging directory of its own and runs the
very check a build's publish runs (:func:`build.release_writer.check_staged`: layout, hashes,
opened by the server's reader, canaries), and only then renames it into place and switches
``CURRENT``. A refused bundle changes nothing; a server keeps serving its previous release.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import secrets
import shutil
import tarfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from lexicon.build import signing
from lexicon.build.release_writer import (
    build_lock,
    canaries_checked,
    check_staged,
    remove_dead_staging,
)

from lexicon import atomic, filetable, userfile
from lexicon.errors import BadBundle, LexiconError, UnknownGame
from lexicon.game import profile as profiles
from lexicon.paths import home
from lexicon.store import integrity, published
from lexicon.store.integrity import (
    MAX_BUNDLE_BYTES,
    MAX_BUNDLE_MANIFEST_BYTES,
    MAX_BUNDLE_MEMBERS,
    read_manifest,
)
from lexicon.store.release import MANIFEST

SUFFIX = ".lexbundle.tar"
SKIP = {"lock.mdb", MANIFEST + ".tmp"}   # LMDB's reader table is per machine


__all__ = ["SUFFIX", "BadBundle", "bundle", "install"]
# tar headers, padding and the end-of-archive blocks a bundle of MAX_BUNDLE_MEMBERS holds
# beyond its files' bytes (a long name takes a pax header of its own)
HEADER_SLACK = MAX_BUNDLE_MEMBERS * 4 * tarfile.BLOCKSIZE + (1 << 20)


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
           root: Path | None = None, *, key: Path | None = None) -> dict[str, Any]:
    """Pack a published release (default: the current one) into ``output``; returns the
    bundle's path, size and sha256 (also written to ``output`` + ``.sha256``) and, with
    ``key`` (a private key from ``lexicon keygen``), the signature written to ``output`` +
    ``.sig``. The release must pass the checks an install makes: what is refused there is
    never shipped."""
    profile = profiles.load(game)
    root = root or home()
    private = signing.load_private(key) if key is not None else None   # before any work
    if release_id is None:
        release_id = published.current_id(game, root)
        if release_id is None:
            raise BadBundle(f"{game} has no current release to bundle", code="no_release",
                            status=503)
    src = published.release_path(game, release_id, root)
    check_staged(profile, src, release_id,
                 check_canaries=canaries_checked(integrity.read_manifest(src)))
    output = Path(output) if output else Path.cwd() / f"{release_id}{SUFFIX}"
    mtime = int(src.joinpath(MANIFEST).stat().st_mtime)
    with atomic.replacing(output) as tmp:
        with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
            tar.addfile(_tarinfo(tar, src, release_id, mtime))
            # the manifest first, so an installer learns the game before the big files
            for rel in [MANIFEST, *filetable.content_files(src, skip=SKIP | {MANIFEST})]:
                path = src / rel
                for parent in reversed(Path(rel).parents[:-1]):
                    name = f"{release_id}/{parent.as_posix()}"
                    if name not in tar.getnames():
                        tar.addfile(_tarinfo(tar, src / parent, name, mtime))
                with open(path, "rb") as fh:
                    tar.addfile(_tarinfo(tar, path, f"{release_id}/{rel}", mtime), fh)
        digest = filetable.sha256_file(tmp)
    sha_file = output.with_name(output.name + ".sha256")
    atomic.write_text(sha_file, f"{digest}  {output.name}\n")
    out = {"game": game, "release": release_id, "bundle": str(output),
           "sha256_file": str(sha_file), "sha256": digest, "bytes": output.stat().st_size,
           "signature": None, "key_id": None}
    sig_file = output.with_name(output.name + signing.SIG_SUFFIX)
    if private is not None:
        signed = signing.sign(output, digest, private)
        out.update(signature=signed["path"], key_id=signed["key_id"])
    else:   # a signature of an earlier bundle at this path would sign other bytes
        sig_file.unlink(missing_ok=True)
    return out


def _expected_sha256(path: Path, sha256: str | None) -> str | None:
    """The sha256 the bundle must have: ``sha256`` or the one in ``FILE.sha256`` beside
    it (None: neither)."""
    if sha256:
        return sha256.strip().lower()
    beside = path.with_name(path.name + ".sha256")
    try:   # a regular file (a FIFO would hang), bounded: a sha256sum line is ~100 bytes
        text = userfile.read_bounded(beside, 4096, regular=True).decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:   # UnicodeDecodeError, userfile.TooLarge
        raise BadBundle(f"{beside.name} cannot be read as a sha256sum line ({exc})",
                        detail={"bundle": str(path)}) from exc
    words = text.split()
    if not words:
        raise BadBundle(f"{beside.name} is empty", detail={"bundle": str(path)})
    return words[0].lower()


class _TooLarge(BadBundle):
    """The (decompressed) tar stream runs past what a bundle may hold."""


class _Bounded(io.RawIOBase):
    """A read-only view of a bundle's tar stream (decompressed when it is compressed) that
    refuses to read or seek past ``limit``: whatever the headers say, no more than that is
    ever decompressed, read into memory or written."""

    def __init__(self, fh: BinaryIO, limit: int) -> None:
        super().__init__()
        self.fh, self.limit = fh, limit

    def _over(self) -> _TooLarge:
        return _TooLarge(f"the bundle unpacks to more than {self.limit:,} bytes (tar "
                         f"headers included); a release is far smaller (MAX_BUNDLE_BYTES)",
                         detail={"limit": self.limit})

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.fh.tell()

    def seek(self, pos: int, whence: int = io.SEEK_SET) -> int:
        target = pos if whence == io.SEEK_SET else (
            self.fh.tell() + pos if whence == io.SEEK_CUR else None)
        if target is None:     # SEEK_END would decompress a whole stream to find its end
            raise io.UnsupportedOperation("seek from the end")
        if target > self.limit:
            raise self._over()
        with _stream_errors():
            return self.fh.seek(target)

    def read(self, size: int | None = -1) -> bytes:
        with _stream_errors():
            room = self.limit - self.fh.tell()
            if size is None or size < 0 or size > room:
                data = self.fh.read(room + 1)     # one byte past: does the stream go on?
                if len(data) > room:
                    raise self._over()
                return data
            return self.fh.read(size)

    def readinto(self, buf: Any) -> int:
        data = self.read(len(buf))
        buf[:len(data)] = data
        return len(data)


@contextmanager
def _stream_errors() -> Iterator[None]:
    """A damaged compressed stream (bad gzip header or CRC, truncated data, bad bzip2 or
    xz data) is a damaged bundle: tarfile's ReadError, not an OSError of this machine."""
    try:
        yield
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        raise tarfile.ReadError(f"{type(exc).__name__}: {exc}") from exc


def _open_stream(fh: BinaryIO) -> BinaryIO:
    """The tar stream of a bundle file: as is, or decompressed (gzip, bzip2, xz)."""
    magic = fh.read(6)
    fh.seek(0)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=fh, mode="rb")  # type: ignore[return-value]
    if magic.startswith(b"BZh"):
        return bz2.BZ2File(fh)  # type: ignore[return-value]
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(fh)  # type: ignore[return-value]
    return fh


class _Scan:
    """What one pass over a bundle's headers and data found, before anything is written."""

    def __init__(self) -> None:
        self.release_id = ""
        self.members: list[tarfile.TarInfo] = []
        self.manifest: dict[str, Any] = {}
        self.manifest_bytes = b""


def _check_member(m: tarfile.TarInfo, scan: _Scan) -> None:
    """Refuse a member that is not a plain file or directory inside the release directory,
    repeats a name, or takes the bundle past MAX_BUNDLE_MEMBERS."""
    if len(scan.members) >= MAX_BUNDLE_MEMBERS:
        raise BadBundle(f"the bundle holds more than {MAX_BUNDLE_MEMBERS:,} members; a "
                        f"release has a few dozen (MAX_BUNDLE_MEMBERS)",
                        detail={"limit": MAX_BUNDLE_MEMBERS})
    parts = m.name.split("/")
    if not scan.members:
        scan.release_id = parts[0]
        if len(parts) != 1 or not parts[0] or parts[0].startswith(".") or not m.isdir():
            raise BadBundle(f"the bundle does not start with a release directory "
                            f"({m.name[:80]!r})")
    elif (m.name.startswith("/") or parts[0] != scan.release_id
            or any(p in ("", ".", "..") for p in parts) or "\\" in m.name
            or "\x00" in m.name or not (m.isreg() or m.isdir()) or m.issparse()
            or any(m.name == seen.name for seen in scan.members)):
        raise BadBundle(f"unsafe, repeated or foreign member {m.name[:200]!r} in the "
                        f"bundle", detail={"member": m.name[:200]})


def safe_members(tar: tarfile.TarFile) -> tuple[str, list[tarfile.TarInfo]]:
    """The top directory and members of a tar that follows a bundle's member rules (plain
    files and directories under one top directory, no links, no absolute, ``..`` or
    repeated names, at most MAX_BUNDLE_MEMBERS), for other files carried the same way
    (:mod:`build.source_pack`); BadBundle otherwise."""
    scan = _Scan()
    for m in tar:
        _check_member(m, scan)
        scan.members.append(m)
    if not scan.members:
        raise BadBundle("the file is empty")
    return scan.release_id, scan.members


def _read_manifest(tar: tarfile.TarFile, m: tarfile.TarInfo, scan: _Scan) -> None:
    """The manifest, the bundle's second member (``lexicon bundle`` writes it first), read
    (at most MAX_BUNDLE_MANIFEST_BYTES) and parsed: its file table judges every later
    member as its header arrives."""
    name = f"{scan.release_id}/{MANIFEST}"
    if m.name != name or not m.isreg():
        raise BadBundle(f"the bundle's second member is {m.name[:80]!r}, not its {name}")
    if m.size > MAX_BUNDLE_MANIFEST_BYTES:
        raise BadBundle(f"{name} is {m.size:,} bytes, more than a manifest may be "
                        f"({MAX_BUNDLE_MANIFEST_BYTES:,}, MAX_BUNDLE_MANIFEST_BYTES)",
                        detail={"limit": MAX_BUNDLE_MANIFEST_BYTES})
    fh = tar.extractfile(m)
    assert fh is not None    # a regular file
    raw = fh.read(MAX_BUNDLE_MANIFEST_BYTES + 1)
    try:
        manifest = integrity.parse_manifest(raw)
    except ValueError as exc:
        raise BadBundle(f"the bundle's {MANIFEST} cannot be used: {exc}",
                        detail={"member": name}) from exc
    if manifest["release"] != scan.release_id:
        raise BadBundle(f"the manifest names release {manifest['release'][:80]!r}, the "
                        f"bundle {scan.release_id[:80]!r}")
    if not isinstance(manifest.get(integrity.FILES), dict):
        raise BadBundle(f"the bundle's {MANIFEST} has no file table: its files cannot be "
                        f"checked")
    scan.manifest, scan.manifest_bytes = manifest, raw


def _check_file(tar: tarfile.TarFile, m: tarfile.TarInfo, scan: _Scan, total: int) -> int:
    """A release file: listed in the table with its header's size (refused from the header,
    before its data is read), within MAX_BUNDLE_BYTES, and of the table's sha256 (read,
    never written). Returns the bundle's bytes so far."""
    rel = m.name.partition("/")[2]
    want = scan.manifest[integrity.FILES].get(rel)
    if want is None or want["size"] != m.size:
        said = "does not list it" if want is None else f"says {want['size']:,} bytes"
        raise BadBundle(f"the bundle's {rel[:80]!r} is {m.size:,} bytes and its {MANIFEST} "
                        f"{said}", detail={"member": m.name[:200]})
    total += m.size
    if total > MAX_BUNDLE_BYTES:
        raise BadBundle(f"the bundle's members add up to more than {MAX_BUNDLE_BYTES:,} "
                        f"bytes (at {m.name[:80]!r}, {m.size:,} bytes); a release is far "
                        f"smaller (MAX_BUNDLE_BYTES)",
                        detail={"limit": MAX_BUNDLE_BYTES, "member": m.name[:200]})
    digest = hashlib.sha256()
    fh = tar.extractfile(m)
    assert fh is not None
    while chunk := fh.read(1 << 20):
        digest.update(chunk)
    if digest.hexdigest() != want["sha256"]:
        raise BadBundle(f"the bundle's {rel[:80]!r} does not have the sha256 its {MANIFEST} "
                        f"lists", detail={"member": m.name[:200]})
    return total


def _scan(tar: tarfile.TarFile) -> _Scan:
    """One pass over the bundle, header by header, writing nothing: every member safe,
    the manifest readable, every file listed in its table with the same size (checked
    from the header, so a bomb is refused before its data is read) and the same sha256,
    every listed file present, and no more than MAX_BUNDLE_MEMBERS / MAX_BUNDLE_BYTES."""
    scan = _Scan()
    total = 0
    for m in tar:
        _check_member(m, scan)
        if len(scan.members) == 1:
            _read_manifest(tar, m, scan)
        elif m.isreg():
            total = _check_file(tar, m, scan, total)
        scan.members.append(m)
    if not scan.members:
        raise BadBundle("the bundle is empty")
    if len(scan.members) == 1:
        raise BadBundle(f"the bundle holds no {scan.release_id}/{MANIFEST}")
    held = {m.name.partition("/")[2] for m in scan.members}
    absent = sorted(set(scan.manifest[integrity.FILES]) - held)
    if absent:
        raise BadBundle(f"the bundle lacks {len(absent)} file(s) its {MANIFEST} lists: "
                        f"{', '.join(a[:80] for a in absent[:5])}", detail={"absent": absent})
    return scan


def _unpack(tar: tarfile.TarFile, members: list[tarfile.TarInfo], dest: Path) -> int:
    """Write the members under ``dest`` (which must be new and empty), counting every byte:
    a member never gets more than its header's size, the bundle never more than
    MAX_BUNDLE_BYTES, whatever the stream holds. Returns the bytes written."""
    written = 0
    for m in members:
        path = dest.joinpath(*m.name.split("/"))
        if m.isdir():
            path.mkdir(mode=0o755, exist_ok=True)
            continue
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        src = tar.extractfile(m)
        assert src is not None
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            got = 0
            while chunk := src.read(1 << 20):
                got += len(chunk)
                written += len(chunk)
                if got > m.size or written > MAX_BUNDLE_BYTES:
                    raise BadBundle(f"{m.name[:80]!r} unpacks past its header's size or the "
                                    f"bundle past {MAX_BUNDLE_BYTES:,} bytes; refused",
                                    detail={"member": m.name[:200],
                                            "limit": MAX_BUNDLE_BYTES})
                out.write(chunk)
        if got != m.size:
            raise BadBundle(f"{m.name[:80]!r} is shorter than its header says")
    return written


def _same_manifest(target: Path, manifest_bytes: bytes) -> bool:
    try:
        return (target / MANIFEST).read_bytes() == manifest_bytes
    except OSError:
        return False


def install(path: Path, *, sha256: str | None = None, make_current: bool = True,
            root: Path | None = None, allow_unsigned: bool = False,
            signature: Path | None = None, trusted_keys: Path | None = None,
            allow_downgrade: bool = False) -> dict[str, Any]:
    """Verify a bundle and publish its release on this machine (see the module doc).

    ``sha256``: the expected digest (default: ``FILE.sha256`` beside it; with a trusted
    signature, which carries the digest, it may be absent). ``signature``: the signature
    file (default ``FILE.sig``); ``trusted_keys``: the directory of trusted ``*.pub`` keys
    (default ``$LEXICON_HOME/trusted-keys``). ``allow_unsigned`` skips the signature check,
    and nothing else. A release built before the one being served does not become current
    (``older_release``: a replayed old bundle, even one correctly signed, would bring back
    words the newer edition removed) unless ``allow_downgrade`` says an operator means to
    roll back. Raises :class:`BadBundle` (codes ``bad_bundle``, ``unsigned_bundle``,
    ``untrusted_key``, ``bad_signature``, ``older_release``) with nothing changed.
    """
    path = Path(path)
    root = root or home()
    if not path.is_file():
        raise BadBundle(f"{path} is not a file", detail={"bundle": str(path)})
    if path.stat().st_size > MAX_BUNDLE_BYTES + HEADER_SLACK:
        raise BadBundle(f"{path.name} is {path.stat().st_size:,} bytes, more than a bundle "
                        f"may unpack ({MAX_BUNDLE_BYTES:,}, MAX_BUNDLE_BYTES)",
                        detail={"bundle": str(path), "limit": MAX_BUNDLE_BYTES})
    expected = _expected_sha256(path, sha256)
    actual = filetable.sha256_file(path)
    if expected is not None and actual != expected:
        raise BadBundle(f"{path.name}: sha256 {actual} does not match {expected}; the bundle "
                        f"is corrupted or not the one published",
                        detail={"bundle": str(path), "expected": expected, "actual": actual})
    signed = None
    if not allow_unsigned:
        signed = signing.verify(path, actual, signature,
                                trusted_keys or root / signing.TRUSTED_DIR)
    elif expected is None:
        beside = path.with_name(path.name + ".sha256")
        raise BadBundle(f"no checksum for {path.name}: put {beside.name} beside it or give "
                        f"--sha256", detail={"bundle": str(path)})
    try:
        with open(path, "rb") as raw, \
                tarfile.open(fileobj=_Bounded(_open_stream(raw),  # type: ignore[arg-type]
                                              MAX_BUNDLE_BYTES + HEADER_SLACK),
                             mode="r:") as tar:
            scan = _scan(tar)
            result = _publish(tar, scan, make_current, root, allow_downgrade)
    except tarfile.TarError as exc:   # a damaged stream too: _Bounded says ReadError
        raise BadBundle(f"{path.name} is not a readable bundle: {exc}",
                        detail={"bundle": str(path)}) from exc
    except OSError as exc:            # writing the staging directory: not the bundle's fault
        raise LexiconError(f"{path.name} could not be installed: {exc}; nothing changed",
                           code="install_failed", status=500,
                           detail={"bundle": str(path)}) from exc
    return {**result, "sha256": actual, "signature": signed, "allow_unsigned": allow_unsigned}


def _refuse_downgrade(game: str, manifest: dict[str, Any], root: Path) -> None:
    """Refuse to make the bundle's release current when the release being served was
    built later (:func:`~lexicon.store.published.built_time`). A current release that cannot
    be read, or says nothing of its age, has nothing to compare: installing then goes ahead
    (and replaces it)."""
    try:
        current = published.current_path(game, root)
        served = published.built_time(game, read_manifest(current)) if current else None
    except LexiconError:
        return
    offered = published.built_time(game, manifest)
    if current is not None and served is not None and offered is not None \
            and offered < served:
        release_id = manifest["release"]
        raise BadBundle(f"{release_id} was built before {current.name}, the release this "
                        f"server serves; installing it would take the game back to an older "
                        f"edition. Roll back knowingly with --allow-downgrade, or install "
                        f"it without serving it (--no-current)", code="older_release",
                        detail={"release": release_id, "current": current.name})


def _publish(tar: tarfile.TarFile, scan: _Scan, make_current: bool, root: Path,
             allow_downgrade: bool = False) -> dict[str, Any]:
    """Unpack, check as a build's publish does, rename into place, switch CURRENT: under
    the game's build lock, so no build or other install of the game runs meanwhile."""
    manifest, release_id, members = scan.manifest, scan.release_id, scan.members
    game = manifest["game"]
    try:
        profile = profiles.load(game)
    except UnknownGame as exc:
        raise BadBundle(f"the bundle holds a release of {game[:40]!r}, a game this server "
                        f"does not know", detail={"game": game[:40]}) from exc
    if not published.is_release_id(game, release_id):
        raise BadBundle(f"{release_id[:80]!r} is not a release id of {game} (builds name "
                        f"them {game}-YYYYMMDDTHHMMSSZ-<8 hex digits>[-N])",
                        detail={"release": release_id[:80]})
    missing = integrity.layout_problems(manifest)    # check_staged asks again, on disk
    if missing:
        raise BadBundle(f"the release inside cannot be served: {'; '.join(missing)}",
                        detail={"problems": missing})
    check_canaries = canaries_checked(manifest)
    gdir = published.game_dir(game, root)
    gdir.mkdir(parents=True, exist_ok=True)
    need = sum(m.size for m in members if m.isreg())
    free = shutil.disk_usage(gdir).free
    if need > free:
        raise LexiconError(f"{release_id} needs {need:,} bytes and {gdir} has {free:,} free; "
                           f"nothing was written", code="install_failed", status=500,
                           detail={"need": need, "free": free})
    with build_lock(game, root):
        if make_current and not allow_downgrade:   # under the lock: CURRENT holds still
            _refuse_downgrade(game, manifest, root)
        remove_dead_staging(gdir)
        target = gdir / release_id
        try:
            if target.exists():
                if not _same_manifest(target, scan.manifest_bytes):
                    raise BadBundle(f"a different release {release_id} is already installed "
                                    f"here; not replacing it", detail={"release": release_id})
                check_staged(profile, target, release_id, check_canaries=check_canaries)
                installed = False
            else:
                staging = gdir / f".staging-install-{secrets.token_hex(4)}-{os.getpid()}"
                staging.mkdir()
                try:
                    _unpack(tar, members, staging)
                    check_staged(profile, staging / release_id, release_id,
                                 check_canaries=check_canaries)
                    os.rename(staging / release_id, target)
                finally:
                    shutil.rmtree(staging, ignore_errors=True)
                installed = True
        except BadBundle:
            raise
        except LexiconError as exc:   # ReleaseDamaged, CanaryFailed, NoIndex: publish's refusals
            problems = exc.detail.get("problems") or [exc.message]
            shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more"
                                               if len(problems) > 5 else "")
            raise BadBundle(f"the release inside fails the checks a build's publish makes "
                            f"({exc.code}): {shown}",
                            detail={"cause": exc.code, **exc.detail}) from exc
        if make_current:
            published.set_current(game, release_id, root, by="install")
    return {"game": game, "release": release_id, "installed": installed,
            "current": make_current, "path": str(target)}
