"""Is a release whole? Sizes and sha256 of its files, checked before anything maps them.

A release is memory-mapped (LMDB, marisa tries, node arrays). A mapped file that is shorter
than its contents say does not raise an error: the first read past its end kills the whole
process with SIGBUS, taking every game with it. So the manifest records the size and sha256
of every file (``files``), and:

* opening a release compares sizes (a ``stat`` per file, cheap) and refuses to map a file
  of the wrong size, and LMDB's own meta page says how long ``data.mdb`` must be, which also
  protects releases built before file tables existed;
* publishing, installing and ``lexicon verify`` compare hashes (reads every byte).

A release that fails is never opened: its game answers ``release_damaged`` (503) and the
other games keep serving.
"""

from __future__ import annotations

import json
import os
import struct
import threading
from pathlib import Path
from typing import Any

from lexicon import filetable
from lexicon.errors import OutOfDescriptors, ReleaseDamaged, out_of_descriptors
from lexicon.store import indexes as ix
from lexicon.store.recordfile import RECORDS_DIR

MANIFEST = "manifest.json"
OLD_RECORDS_DIR = "records"          # older layouts, migrated by `lexicon repack`
OLD_LMDB_DIR = "lexicon.lmdb"
FILES = "files"                       # the manifest key of the file table
NOT_CONTENT = {MANIFEST, MANIFEST + ".tmp", "lock.mdb"}   # lock.mdb: LMDB's reader table
MAPPED_SUFFIXES = ("data.mdb", ".marisa", ".bin", ".dat", ".raw", ".idx")  # what a server maps

# What an installer unpacks from one bundle (``build.shipping``), checked from the tar
# headers before anything is written and again while writing. A real release is an order of
# magnitude smaller and has a few dozen files (docs/benchmarks.md, "Figures behind the
# code"). The caps leave room for growth and refuse a gzip bomb or a tar of a million empty
# files before it fills a disk.
MAX_BUNDLE_BYTES = 2_147_483_648     # 2 GiB: bytes of all files unpacked from one bundle
MAX_BUNDLE_MEMBERS = 1_000           # files and directories in one bundle
MAX_BUNDLE_MANIFEST_BYTES = 67_108_864  # 64 MiB: its manifest.json, read into memory first

LMDB_MAGIC = 0xBEEFC0DE
# MDB_meta after the 16-byte page header (64-bit build): magic u32, version u32, address,
# mapsize, two 48-byte MDB_db (the first one's md_pad holds the page size), last_pg, txnid.
_META = struct.Struct("<II QQ I12x32x 48x QQ")
_META_OFFSET = 16


def parse_manifest(raw: bytes) -> dict[str, Any]:
    """A release manifest from its bytes; ValueError saying what is wrong (not UTF-8, not
    JSON, not an object naming its game and release, a malformed file table). One reader
    for a published release (:func:`read_manifest`) and for a bundle's, read before
    anything is unpacked (``build.shipping``)."""
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 ({exc})") from exc
    except ValueError as exc:    # JSONDecodeError
        raise ValueError(f"not JSON ({exc})") from exc
    except RecursionError as exc:  # [[[[…: json gives up past the interpreter's depth
        raise ValueError("not JSON (nested too deeply)") from exc
    if not isinstance(manifest, dict) or not all(
            isinstance(manifest.get(k), str) and manifest.get(k) for k in ("game", "release")):
        raise ValueError("not a release manifest (no game/release)")
    table = manifest.get(FILES)
    if table is not None and not (isinstance(table, dict) and all(
            _inside(rel) and isinstance(v, dict) and isinstance(v.get("size"), int)
            and isinstance(v.get("sha256"), str) for rel, v in table.items())):
        raise ValueError("malformed file table")
    return manifest


def _inside(rel: str) -> bool:
    """Is ``rel`` a path inside a release (``records.lmdb/data.mdb``), never ``..``, absolute
    or empty? A file table names what is checked and hashed: nothing outside the release."""
    parts = rel.split("/")
    return (bool(rel) and "\\" not in rel and "\x00" not in rel
            and all(p not in ("", ".", "..") for p in parts))


def read_manifest(release_dir: Path) -> dict[str, Any]:
    """The release's manifest, or ReleaseDamaged if it is missing, unreadable or not a
    release manifest (a ``{}`` manifest must not surface as a KeyError deep in a request)."""
    path = Path(release_dir) / MANIFEST
    try:
        return parse_manifest(path.read_bytes())
    except OSError as exc:
        if out_of_descriptors(exc):        # of this process, not of the release
            raise descriptors_exhausted(release_dir) from exc
        raise damaged(release_dir, [f"{MANIFEST}: cannot be read ({exc})"]) from exc
    except ValueError as exc:
        raise damaged(release_dir, [f"{MANIFEST}: {exc}"]) from exc


def layout_files(manifest: dict[str, Any], *, store: bool = True, indexes: bool = True
                 ) -> list[str]:
    """The files a release must hold, by the layout its manifest declares: the record
    ``store`` (``records.lmdb/data.mdb``; in a release of an older layout, which only
    ``lexicon repack`` reads, ``records/`` or ``lexicon.lmdb/``), which every check reads, and
    the query ``indexes`` of the manifest's index format, and the meanings file when the
    manifest declares one (optional: older releases have none). Every one must be on
    disk and in the file table: a release whose manifest lists no files (``"files": {}``)
    has nothing that can answer, so it is never published, installed or opened."""
    table = manifest.get(FILES) or {}
    need: list[str] = []
    older = next((d for d in (OLD_RECORDS_DIR, OLD_LMDB_DIR)
                  if any(rel.startswith(d + "/") for rel in table)), None)
    if any(rel.startswith(RECORDS_DIR + "/") for rel in table) or older is None:
        older = None
    if store and older is None:
        need = [f"{RECORDS_DIR}/data.mdb"]
    elif store and older == OLD_LMDB_DIR:   # read by `lexicon repack` only (build.old_layouts)
        need = [f"{OLD_LMDB_DIR}/data.mdb"]
    elif store:   # format 1: marisa key tries, payload blocks (*.raw, or zlib *.dat)
        need = [f"{older}/{name}" for kind in ("valid", "rejected")
                for name in (f"{kind}.marisa", f"{kind}.idx")]
        need += [f"{older}/shapes.dat", f"{older}/shapes.idx"]
        for kind in ("valid", "rejected"):
            raw, dat = f"{older}/{kind}.raw", f"{older}/{kind}.dat"
            need.append(dat if dat in table and raw not in table else raw)
    entry = manifest.get("indexes")
    if indexes and isinstance(entry, dict) and entry.get("format") in ix.READABLE:
        base = entry.get("dir", ix.INDEX_DIR)
        names = [ix.WORDS, ix.FORWARD, ix.BACKWARD, ix.ALPHAGRAM_NODES, ix.ALPHAGRAM_COUNTS,
                 ix.ALPHAGRAM_RANKS, ix.ALPHAGRAM_KEYS]
        need += [f"{base}/{name}" for name in names]
    meanings = manifest.get("meanings")   # optional: only a release that declares one
    if isinstance(meanings, dict) and isinstance(meanings.get("file"), str):
        need.append(meanings["file"])
    return sorted(need)


def layout_problems(manifest: dict[str, Any], *, store: bool = True,
                    indexes: bool = True) -> list[str]:
    """What a release's file table lacks of
    :func:`layout_files`: no table at all, no readable index entry (with ``indexes``), a
    needed file not listed (empty: nothing; a listed file missing on disk is for
    :func:`size_problems`). Opening a release asks for the store only (a release whose
    indexes broke still answers checks; its queries are ``no_index``); publish, install
    and ``lexicon verify`` ask for the indexes too."""
    table = manifest.get(FILES)
    if not isinstance(table, dict):
        return [f"{MANIFEST}: no file table, so its files cannot be checked"]
    problems = []
    entry = manifest.get("indexes")
    if indexes and not (isinstance(entry, dict) and entry.get("format") in ix.READABLE
                        and isinstance(entry.get("dir", ix.INDEX_DIR), str)
                        and _inside(entry.get("dir", ix.INDEX_DIR))):
        problems.append(f"{MANIFEST}: no readable index entry (format "
                        f"{ix.FORMAT}), so its queries could not be answered")
    need = layout_files(manifest, store=store, indexes=indexes)
    unlisted = [rel for rel in need if rel not in table]
    if unlisted:
        problems.append(f"{MANIFEST} does not list {len(unlisted)} of the {len(need)} files "
                        f"the release layout needs: {', '.join(unlisted)}")
    return problems


def lmdb_required_size(data_mdb: Path) -> int | None:
    """How many bytes LMDB's newest meta page says ``data.mdb`` holds (None: unreadable)."""
    try:
        with open(data_mdb, "rb") as fh:
            head = fh.read(_META_OFFSET + _META.size)
            if len(head) < _META_OFFSET + _META.size:
                return None
            first = _META.unpack_from(head, _META_OFFSET)
            magic, _version, _addr, _mapsize, psize, last_pg, txnid = first
            if magic != LMDB_MAGIC or psize < 512 or psize & (psize - 1):
                return None
            fh.seek(psize)
            other = fh.read(_META_OFFSET + _META.size)
    except OSError as exc:
        if out_of_descriptors(exc):
            raise                  # of this process, not of the file
        return None
    if len(other) == _META_OFFSET + _META.size:
        second = _META.unpack_from(other, _META_OFFSET)
        if second[0] == LMDB_MAGIC and second[6] > txnid:
            last_pg = second[5]
    return (last_pg + 1) * psize


def size_problems(release_dir: Path, manifest: dict[str, Any]) -> list[str]:
    """What is wrong with the sizes of a release's files (empty: nothing). A stat per file
    plus two LMDB meta pages, so it runs every time a release is opened."""
    base = Path(release_dir)
    # the record store listed (a "files": {} manifest with no store is damage, not a
    # release with nothing to check); a release built before tables existed has none
    problems = ([] if manifest.get(FILES) is None
                else layout_problems(manifest, indexes=False))
    for rel, want in sorted((manifest.get(FILES) or {}).items()):
        try:
            have = (base / rel).stat().st_size
        except OSError:
            problems.append(f"{rel}: missing")
            continue
        if have != want["size"]:
            problems.append(f"{rel}: {have} bytes, the manifest says {want['size']}")
    for data in sorted(base.rglob("data.mdb")):
        rel = data.relative_to(base).as_posix()
        if any(p.startswith(rel + ":") for p in problems):
            continue
        need = lmdb_required_size(data)
        have = data.stat().st_size
        if need is None:
            problems.append(f"{rel}: not an LMDB file (no valid meta page)")
        elif have < need:
            problems.append(f"{rel}: {have} bytes, LMDB needs {need} (truncated)")
    return problems


def hash_problems(release_dir: Path, manifest: dict[str, Any]) -> list[str]:
    """Files whose sha256 differs from the manifest, and files the manifest does not list."""
    return filetable.table_problems(Path(release_dir), manifest.get(FILES) or {},
                                    where="the manifest", skip=NOT_CONTENT)


def verify_release(path: Path, *, hashes: bool = True) -> dict[str, Any]:
    """Check a release directory: manifest, the files its layout needs, sizes and (by
    default) every file's sha256.

    Returns a small report (``release``, ``game``, ``files``, ``bytes``, ``hashed``);
    raises :class:`ReleaseDamaged` listing every problem found. Used at publish, by
    ``lexicon verify`` and by installers of shipped releases. A release built before file
    tables existed has ``files: null``: only its LMDB structure can be checked.
    """
    path = Path(path)
    if not path.is_dir():
        raise damaged(path, [f"{path} is not a release directory"])
    manifest = read_manifest(path)
    table = manifest.get(FILES)
    problems = size_problems(path, manifest) + (   # the store's part: size_problems
        layout_problems(manifest, store=False) if table is not None else [])
    if hashes and table is not None and not problems:
        problems = hash_problems(path, manifest)
    if problems:
        raise damaged(path, problems, manifest)
    return {"release": manifest["release"], "game": manifest["game"], "path": str(path),
            "files": None if table is None else len(table),
            "bytes": None if table is None else sum(v["size"] for v in table.values()),
            "hashed": bool(hashes and table is not None)}


# -- what this process found of each release's files ---------------------------------------

Stamp = tuple[tuple[str, int, int, int], ...]
_verdicts: dict[str, tuple[Stamp, list[str]]] = {}   # release dir -> (stamp, problems)
#: release dir -> why it was condemned: kept until the release verifies again, whatever
#: happens to its files' inodes, sizes or times (a write that condemned it moves them)
_condemned: dict[str, list[str]] = {}
_verdicts_lock = threading.Lock()                   # one hashing at a time


def stamp(release_dir: Path) -> Stamp:
    """The release's files as they are now, (name, inode, size, mtime) each: any rewrite of
    one, in place or by a new file, changes it. A few ``stat`` calls, no reading."""
    base = Path(release_dir)
    out = []
    try:
        names = [MANIFEST, *filetable.content_files(base, skip=NOT_CONTENT)]
    except OSError:
        return ()
    for rel in names:
        try:
            st = os.stat(base / rel)
        except OSError:
            continue
        out.append((rel, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


def hashed_problems(release_dir: Path) -> list[str]:
    """What :func:`verify_release` finds in the release (``[]``: whole), hashed once per
    version of its files: a probe that asks again (``/readyz``, every few seconds) gets the
    remembered verdict, the good one and the bad one alike, until a file changes. A
    condemned release that verifies here is condemned no longer (:func:`known_damage`)."""
    key = os.fspath(release_dir)
    now = stamp(release_dir)
    known = _verdicts.get(key)
    if known is not None and known[0] == now:
        return known[1]
    with _verdicts_lock:
        known = _verdicts.get(key)
        if known is not None and known[0] == now:
            return known[1]
        try:
            verify_release(release_dir)
            problems: list[str] = []
        except ReleaseDamaged as exc:
            if out_of_descriptors(exc):
                raise descriptors_exhausted(release_dir) from exc
            problems = list(exc.detail.get("problems") or [exc.message])
        except OSError as exc:      # a file that could not be opened to hash it
            if out_of_descriptors(exc):
                raise descriptors_exhausted(release_dir) from exc
            problems = [f"{exc.filename or release_dir}: cannot be read ({exc.strerror})"]
        _verdicts[key] = (now, problems)
        if not problems:
            _condemned.pop(key, None)
    return problems


def remember_damage(release_dir: Path, problems: list[str]) -> None:
    """A release found damaged (its hash check failed, a read of it did, one of its files
    was opened for writing): refused, whatever reopens it, until it verifies again
    (:func:`hashed_problems`). Its files' stamp is no proof: the very write that condemned
    it moves their times, and bytes put back by hand may not be the published ones."""
    key = os.fspath(release_dir)
    with _verdicts_lock:
        _condemned[key] = list(problems)
        _verdicts[key] = (stamp(release_dir), list(problems))


def known_damage(release_dir: Path) -> list[str]:
    """Why the release was condemned in this process (``[]``: it is not), until it
    verifies again."""
    return list(_condemned.get(os.fspath(release_dir), []))


def verify_condemned(release_dir: Path) -> bool:
    """Hash a condemned release again (only when its files changed since it was last
    hashed): True when it now verifies, and so is condemned no longer."""
    return bool(known_damage(release_dir)) and not hashed_problems(release_dir)


def mapped_sizes(release_dir: Path, manifest: dict[str, Any]) -> list[tuple[str, int]]:
    """(path, size) of every memory-mapped file, to re-check a release a server holds: a
    file truncated under a running server must become a 503, not a SIGBUS. Sizes come from
    the file table, or from the disk at open for a release that has none."""
    base = Path(release_dir)
    table = manifest.get(FILES)
    if table is not None:
        return [(os.fspath(base / rel), meta["size"]) for rel, meta in table.items()
                if rel.endswith(MAPPED_SUFFIXES)]
    return [(os.fspath(p), p.stat().st_size) for p in base.rglob("*")
            if p.is_file() and p.name.endswith(MAPPED_SUFFIXES)]


def descriptors_exhausted(path: Path) -> OutOfDescriptors:
    """The error of a release that could not be opened or read for want of a file
    descriptor: a fact of this process, never damage of the release."""
    return OutOfDescriptors(
        f"no file descriptor left to read release {Path(path).name} with; it is not "
        f"damaged: ask again shortly", detail={"release": Path(path).name})


def damaged(path: Path, problems: list[str],
             manifest: dict[str, Any] | None = None) -> ReleaseDamaged:
    name = (manifest or {}).get("release") or Path(path).name
    shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more"
                                       if len(problems) > 5 else "")
    return ReleaseDamaged(
        f"release {name} is damaged and is not served: {shown}. Rebuild the game "
        f"(`lexicon build {(manifest or {}).get('game') or 'GAME'}`) or point CURRENT at "
        f"a good release",
        detail={"release": name, "path": str(path), "problems": problems})
