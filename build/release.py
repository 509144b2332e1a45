"""Writing a release: stage everything, verify, then publish with one atomic rename.

A build writes into ``releases/<game>/.staging-*``; only when the LMDB file is complete,
compacted, counted, hashed and its manifest written is the directory renamed to its
release id and ``CURRENT`` switched to it. If anything fails before that, the staging
directory is removed and the previous release keeps serving: no reader ever sees a
half-written release, and an existing release directory is never modified.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import secrets
import shutil
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import lmdb

from build import canaries
from build.indexes import build_indexes
from build.progress import track
from lexicon import integrity, releases
from lexicon.errors import BuildBusy, BuildError, NoRelease
from lexicon.export import HASH_RECIPE, Identity
from lexicon.play import play_rules
from lexicon.profile import Profile
from lexicon.records import VALID, Record, StringTable
from lexicon.store import (
    FORMS_DB,
    LMDB_DIR,
    MANIFEST,
    STRINGS_DB,
    STRINGS_KEY,
    TEXTS_DB,
    Release,
)

MAP_SIZE = 64 << 30          # address space only; the file grows as needed
TXN_BATCH = 50_000
DIFF_SAMPLE = 200


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def canonical_bytes(rec: Record) -> bytes:
    """One record as the content hash sees it: every field spelled out, no storage ids.

    The hash covers what a release answers, not how its bytes happen to be laid out (string
    ids depend on the order a builder emitted records), so two builds that answer every
    word the same way have the same ``content_sha256``.
    """
    body = {"key": rec.key, "word": rec.word, "valid": rec.valid,
            "reason": [rec.reason_code, rec.reason_message],
            "analyses": [a.to_json() for a in rec.analyses], "sources": rec.sources,
            "category": rec.category, "evidence": rec.evidence}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def peak_rss_mb() -> float:
    """Peak resident memory of this process (and finished children), in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, kids) / 1024, 1)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


LOCK_FILE = ".build.lock"


@contextmanager
def build_lock(game: str, root: Path | None = None) -> Iterator[None]:
    """Hold the game's build lock for a whole build: two builds of one game would race for
    ``CURRENT``, so the second fails at once with BuildBusy (CLI exit 4) instead of waiting.
    An ``flock``: the kernel drops it when its holder dies, so a killed build never leaves
    the game locked."""
    gdir = releases.game_dir(game, root)
    gdir.mkdir(parents=True, exist_ok=True)
    fd = os.open(gdir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            raise BuildBusy(
                f"another build of {game} is running (pid {holder}); wait for it to finish",
                detail={"game": game, "pid": holder}) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)   # releases the flock


def remove_dead_staging(game_dir: Path) -> list[Path]:
    """Delete staging directories left by builds that were killed (their pid is gone)."""
    removed = []
    for d in game_dir.glob(".staging-*"):
        try:
            pid = int(d.name.rsplit("-", 1)[1])
        except ValueError:
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


class ReleaseWriter:
    """Collects records for one game and publishes them as a new release."""

    def __init__(self, profile: Profile, root: Path | None = None) -> None:
        self.profile = profile
        self.root = root
        self.game_dir = releases.game_dir(profile.id, root)
        self.game_dir.mkdir(parents=True, exist_ok=True)
        remove_dead_staging(self.game_dir)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        # unique even for two builds in one process and one second; the pid stays last
        self.staging = self.game_dir / f".staging-{stamp}-{secrets.token_hex(4)}-{os.getpid()}"
        self.staging.mkdir()
        self._raw = self.staging / "raw.lmdb"
        self.env = lmdb.open(str(self._raw), map_size=MAP_SIZE, max_dbs=4, sync=False,
                             metasync=False, writemap=False)
        self.db = self.env.open_db(FORMS_DB)
        self.table = StringTable()
        self._txn: lmdb.Transaction | None = None
        self._pending = 0
        self.started = time.monotonic()
        self.check_canaries = False   # full builds check the profile's canaries (pipeline)
        self.merged = 0

    # -- writing -------------------------------------------------------------------------
    def _begin(self) -> lmdb.Transaction:
        if self._txn is None:
            self._txn = self.env.begin(write=True, db=self.db)
        return self._txn

    def add(self, record: Record) -> None:
        txn = self._begin()
        k = record.key.encode()
        if len(k) > 500:  # LMDB's key limit is 511 bytes; no playable word comes close
            return
        old = txn.get(k)
        if old is not None:
            record = Record.decode(record.key, old, self.table).merge(record)
            self.merged += 1
        txn.put(k, record.encode(self.table))
        self._pending += 1
        if self._pending >= TXN_BATCH:
            txn.commit()
            self._txn = None
            self._pending = 0

    def add_all(self, records: Iterable[Record]) -> None:
        for rec in records:
            self.add(rec)

    # -- publishing ----------------------------------------------------------------------
    def _scan(self) -> tuple[dict[str, Any], str]:
        """Counts by verdict, reason, category and source, and the content hash."""
        digest = hashlib.sha256()
        by_reason: Counter[str] = Counter()
        by_category: Counter[str] = Counter()
        by_source: Counter[str] = Counter()
        valid = rejected = 0
        self.identity = Identity()   # the playable words' Quackle hash and counts by length
        with self.env.begin(db=self.db) as txn:
            total = txn.stat(self.db)["entries"]
            for k, v in track(txn.cursor(), f"{self.profile.id}: counting and hashing",
                              total=total, unit="records", every=20_000):
                rec = Record.decode(k.decode(), v, self.table)
                digest.update(canonical_bytes(rec))
                if rec.valid:
                    valid += 1
                    if play_rules(self.profile).is_playable(rec.key):
                        self.identity.add(rec.key)
                    by_category[rec.category or "uncategorised"] += 1
                    for s in rec.sources:
                        by_source[s] += 1
                else:
                    rejected += 1
                    by_reason[rec.reason_code or "unknown"] += 1
        counts = {
            "records": valid + rejected,
            "valid": valid,
            "rejected": rejected,
            "by_reason": dict(by_reason.most_common()),
            "valid_by_category": dict(by_category.most_common()),
            "valid_by_source": dict(by_source.most_common()),
        }
        return counts, digest.hexdigest()

    def _diff(self, previous: Release | None, out_dir: Path) -> dict[str, Any]:
        """Which keys became valid, stopped being valid, or changed reason since ``previous``."""
        if previous is None:
            return {"previous": None}

        with self.env.begin(db=self.db) as txn:
            new: dict[bytes, bytes] = {}  # key -> status byte
            for k, v in txn.cursor():
                new[bytes(k)] = bytes(v[:1])
        added, removed = [], []
        for key, raw in previous.iter_records():
            was = raw[:1] == VALID
            now = new.pop(key.encode(), None)
            is_valid = now == VALID
            if was and not is_valid:
                removed.append(key)
            elif is_valid and not was:
                added.append(key)
        added += [k.decode() for k, v in new.items() if v == VALID]
        added.sort()
        removed.sort()
        (out_dir / "diff-added.txt").write_text("\n".join(added) + "\n", encoding="utf-8")
        (out_dir / "diff-removed.txt").write_text("\n".join(removed) + "\n", encoding="utf-8")
        return {
            "previous": previous.id,
            "added": len(added),
            "removed": len(removed),
            "added_sample": added[:DIFF_SAMPLE],
            "removed_sample": removed[:DIFF_SAMPLE],
            "files": ["diff-added.txt", "diff-removed.txt"],
        }

    def _write_final(self, path: Path) -> None:
        """Copy the staged records in key order with ``append=True``: LMDB then fills every
        page, where the staging database (random inserts, merges) leaves pages half empty;
        the release is about 40% smaller than an ``env.copy(compact=True)``."""
        path.mkdir()
        out = lmdb.open(str(path), map_size=MAP_SIZE, max_dbs=4, sync=False, metasync=False)
        forms = out.open_db(FORMS_DB)
        strings = out.open_db(STRINGS_DB)
        with self.env.begin(db=self.db) as src:
            txn = out.begin(write=True, db=forms)
            total = src.stat(self.db)["entries"]
            rows = track(src.cursor(), f"{self.profile.id}: writing the release", total=total,
                         unit="records", every=20_000)
            for n, (k, v) in enumerate(rows, 1):
                txn.put(k, v, append=True)
                if n % 500_000 == 0:
                    txn.commit()
                    txn = out.begin(write=True, db=forms)
            txn.put(STRINGS_KEY, self.table.dump(), db=strings)
            texts = out.open_db(TEXTS_DB, txn=txn)
            for i, text in enumerate(self.table.lazy_items):
                txn.put(i.to_bytes(4, "big"), text.encode(), db=texts, append=True)
            txn.commit()
        out.sync(True)
        out.close()

    def _unique_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``-3`` … when the same content was already published in
        the same second (the game's build lock makes check-then-rename safe)."""
        rid, n = base, 1
        while (self.game_dir / rid).exists():
            n += 1
            rid = f"{base}-{n}"
        return rid

    def publish(self, *, sources: list[dict[str, Any]], policy: dict[str, Any],
                rules: list[dict[str, str]]) -> Path:
        if self._txn is not None:
            self._txn.commit()
            self._txn = None
        self.env.sync(True)
        counts, content = self._scan()
        if counts["valid"] == 0:
            raise BuildError(f"{self.profile.id}: the build admitted no word; not publishing")
        built_at = datetime.now(UTC)
        release_id = self._unique_id(f"{self.profile.id}-{built_at:%Y%m%dT%H%M%SZ}-"
                                     f"{content[:8]}")
        final_lmdb = self.staging / LMDB_DIR
        self._write_final(final_lmdb)
        try:
            prev_path = releases.current_path(self.profile.id, self.root)
            previous = Release(prev_path) if prev_path else None
        except NoRelease:  # a damaged current release: rebuilding is how it gets fixed
            previous = None
        try:
            diff = self._diff(previous, self.staging)
        finally:
            if previous:
                previous.close()
        self.env.close()
        shutil.rmtree(self._raw)
        indexes = build_indexes(self.profile, final_lmdb, self.staging)
        manifest = {
            "game": self.profile.id,
            "release": release_id,
            "built_at": built_at.isoformat(timespec="microseconds"),
            "rules_version": self.profile.rules_version,
            "profile": self.profile.summary(),
            "sources": sources,
            "rules": rules,
            "policy": policy,
            "counts": counts,
            "content_sha256": content,
            "content_hash": self.identity.content_hash,
            "content_hash_recipe": HASH_RECIPE,
            "counts_by_length": self.identity.result()["counts_by_length"],
            "canaries": {**canaries.spec(self.profile), "checked": self.check_canaries},
            "diff": diff,
            "previous": diff.get("previous"),
            "indexes": indexes,
            "build_seconds": round(time.monotonic() - self.started, 1),
            "peak_rss_mb": peak_rss_mb(),
        }
        manifest["size_bytes"] = _dir_size(self.staging)
        # size + sha256 of every file: checked when opened (sizes), published, installed
        # and by `lexicon verify` (hashes); see lexicon.integrity
        manifest[integrity.FILES] = integrity.file_table(self.staging)
        tmp = self.staging / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
        os.replace(tmp, self.staging / MANIFEST)
        if self.check_canaries:
            canaries.check(self.profile, self.staging)
        target = self.game_dir / release_id
        if target.exists():  # _unique_id chose a free name; a release is never overwritten
            raise BuildError(f"release {release_id} already exists; not overwriting it")
        integrity.verify_release(self.staging)  # re-read: what is published is what was hashed
        os.rename(self.staging, target)
        releases.set_current(self.profile.id, release_id, self.root)
        return target

    def abort(self) -> None:
        try:
            if self._txn is not None:
                self._txn.abort()
            self.env.close()
        except lmdb.Error:
            pass
        shutil.rmtree(self.staging, ignore_errors=True)

    def __enter__(self) -> ReleaseWriter:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if et is not None or (self.staging.exists() and not (self.staging / MANIFEST).exists()):
            self.abort()
