"""Writing a release: stage everything, verify, then publish with one atomic rename.

A build stages records in a scratch LMDB under ``releases/<game>/.staging-*``, each value
already in the store's encoding (:mod:`lexicon.store.recordfile`: a shape number, provisional
while staging, plus the word's own bytes); only when the record store is written from it
(shapes renumbered, one pass in key order), counted, hashed and indexed
and its manifest written is the directory renamed to its
release id and ``CURRENT`` switched to it. If anything fails before that, the staging
directory is removed and the previous release keeps serving: no reader ever sees a
half-written release, and an existing release directory is never modified.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import lmdb
from lexicon.build import canaries
from lexicon.build.index_writer import Started, build_indexes, start_indexes
from lexicon.build.old_layouts import LegacyRelease, open_parent
from lexicon.build.progress import peak_rss_mb, track
from lexicon.build.record_writer import encode_value, split, write_store

from lexicon import atomic, filetable
from lexicon.errors import BuildBusy, BuildError, LexiconError, NoRelease
from lexicon.export.export import HASH_RECIPE, Identity
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.store import integrity, published
from lexicon.store.recordfile import (
    MAP_SIZE,
    MAX_KEY_BYTES,
    RECORDS_DIR,
    RecordStore,
    Split,
    get_varint,
    join,
)
from lexicon.store.records import VALID, Record
from lexicon.store.release import MANIFEST, Release

STAGED_DB = b"staged"
TXN_BATCH = 50_000
DIFF_SAMPLE = 200
#: A release's overrides (reviewed ones applied by a full build, or amend's, cumulative),
#: one JSON object a line: {"word", "key", "action", "reason"}. Kept out of the manifest,
#: which every open and every listing parses, and which a large amend's overrides would
#: grow to tens of megabytes. The manifest summarises the file (``overrides``) and lists it in its
#: file table like every other file.
OVERRIDES_FILE = "overrides.jsonl"
#: Writes a record store at the path given; returns its figures and its shape uses.
StoreWriter = Callable[[Path], tuple[dict[str, Any], dict[tuple[bool, str], int]]]
#: What an amend changed: the parent's id and, per overridden key, (valid before, now).
Changed = tuple[str, dict[str, tuple[bool, bool]]]


def write_overrides(directory: Path, entries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Write ``entries`` to ``directory/overrides.jsonl`` (no file when there are none);
    the manifest's summary of them: count, by action, file and sha256."""
    digest = hashlib.sha256()
    by_action: Counter[str] = Counter()
    path = directory / OVERRIDES_FILE
    with open(path, "wb") as fh:
        for entry in entries:
            line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
                    + "\n").encode()
            digest.update(line)
            fh.write(line)
            by_action[entry.get("action", "?")] += 1
    count = sum(by_action.values())
    if count == 0:
        path.unlink()
        return {"count": 0}
    return {"count": count, "by_action": dict(sorted(by_action.items())),
            "file": OVERRIDES_FILE, "sha256": digest.hexdigest()}


def read_release_overrides(release_dir: Path, manifest: dict[str, Any]) -> Iterator[dict]:
    """A published release's overrides, in the order they were applied: from its
    ``overrides.jsonl``, or from the manifest's list for a release written before the
    file existed."""
    summary = manifest.get("overrides")
    if isinstance(summary, list):           # the older layout
        yield from summary
        return
    if not isinstance(summary, dict) or not summary.get("file"):
        return
    with open(Path(release_dir) / summary["file"], encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def as_record(item: Record | Split) -> Record:
    """A staged item as a :class:`Record` (a :class:`Split` is decoded): for the few steps
    that read records, such as an official list applied on the way to the writer."""
    if isinstance(item, Split):
        return join(item.key, item.valid, json.loads(item.shape), item.own, 0)
    return item


def _dir_size(path: Path) -> int:
    """Bytes on disk under ``path``; a hard-linked file counts once."""
    seen: dict[tuple[int, int], int] = {}
    for p in path.rglob("*"):
        if p.is_file():
            st = p.stat()
            seen[(st.st_dev, st.st_ino)] = st.st_size
    return sum(seen.values())


class _Counter:
    """Counts by verdict, reason, category and source while records stream past.

    Counted per shape (see :mod:`lexicon.store.recordfile`): the verdict-relevant fields are all
    in a record's shape, so a few thousand shapes are read instead of millions of records.
    """

    def __init__(self) -> None:
        self.uses: Counter[tuple[bool, str]] = Counter()

    def feed(self, records: Iterable[Split]) -> Iterator[Split]:
        uses = self.uses
        for rec in records:
            uses[rec.valid, rec.shape] += 1
            yield rec

    def counts(self) -> dict[str, Any]:
        by_reason: Counter[str] = Counter()
        by_category: Counter[str] = Counter()
        by_source: Counter[str] = Counter()
        valid = rejected = 0
        for (ok, text), n in self.uses.items():
            shape = json.loads(text)
            if ok:
                valid += n
                by_category[shape.get("c") or "uncategorised"] += n
                for src in shape.get("s", ()):
                    by_source[src] += n
            else:
                rejected += n
                by_reason[shape.get("r") or "unknown"] += n
        return {
            "records": valid + rejected,
            "valid": valid,
            "rejected": rejected,
            "by_reason": dict(sorted(by_reason.items(), key=lambda kv: (-kv[1], kv[0]))),
            "valid_by_category": dict(sorted(by_category.items(),
                                             key=lambda kv: (-kv[1], kv[0]))),
            "valid_by_source": dict(sorted(by_source.items(), key=lambda kv: (-kv[1], kv[0]))),
        }


def playable_identity(profile: Profile, keys: Iterable[str]) -> Identity:
    """The Quackle hash and counts by length of the playable words among the admitted
    ``keys`` (the manifest's ``content_hash`` and ``counts_by_length``): what
    ``lexicon export GAME`` prints, hashed."""
    identity = Identity()
    for key in play_rules(profile).playable(keys):
        identity.add(key)
    return identity


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


LOCK_FILE = ".build.lock"

#: The build locks this process holds (open descriptors).
_HELD_LOCKS: set[int] = set()


def _close_build_locks_in_child() -> None:
    """A forked child (a judging worker, an index writer) closes its copies of the build
    locks: an ``flock`` lasts while any descriptor of it is open, so a child that outlived a
    killed build would keep the game locked."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_close_build_locks_in_child)


@contextmanager
def build_lock(game: str, root: Path | None = None) -> Iterator[None]:
    """Hold the game's build lock for a whole build: two builds of one game would race for
    ``CURRENT``, so the second fails at once with BuildBusy (CLI exit 4) instead of waiting.
    An ``flock``: the kernel drops it when its holder dies, so a killed build never leaves
    the game locked (its forked children close their copies of it)."""
    gdir = published.game_dir(game, root)
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
        _HELD_LOCKS.add(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        _HELD_LOCKS.discard(fd)
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


def canaries_checked(manifest: dict[str, Any]) -> bool:
    """Did the build that wrote ``manifest`` check its canaries (a full build, or an amend
    or link of one)? Then whoever publishes it again (an install) checks them too."""
    return bool((manifest.get("canaries") or {}).get("checked"))


def check_staged(profile: Profile, path: Path, release_id: str, *,
                 check_canaries: bool) -> dict[str, Any]:
    """Everything a release must pass before ``CURRENT`` may name it: one check for a
    build's publish (:meth:`ReleaseWriter.publish_manifest`) and an installed bundle
    (``build.shipping``), so an install can never publish what a build would not.

    In order: ``release_id`` is an id of the game (as :meth:`ReleaseWriter._unique_id`
    makes them, see :func:`lexicon.store.published.is_release_id`) and the manifest names it and
    the game; every file the layout needs is present and in the file table
    (:func:`lexicon.store.integrity.layout_problems`); every file's size and sha256 match and no
    file is unlisted (:func:`lexicon.store.integrity.verify_release`); the release opens through
    the server's own reader (:class:`~lexicon.store.release.Release`, its query indexes mapped) and
    the canary words are looked up in it, and must hold when ``check_canaries``.
    Raises ReleaseDamaged (or CanaryFailed) naming every problem; returns verify's report.
    """
    manifest = integrity.read_manifest(path)
    problems = []
    if not published.is_release_id(profile.id, release_id):
        problems.append(f"{release_id[:80]!r} is not a release id of {profile.id} "
                        f"({profile.id}-YYYYMMDDTHHMMSSZ-<8 hex digits>[-N])")
    if manifest["game"] != profile.id:
        problems.append(f"{MANIFEST}: a release of {manifest['game'][:40]!r}, not {profile.id}")
    if manifest["release"] != release_id:
        problems.append(f"{MANIFEST}: names release {manifest['release'][:80]!r}, its "
                        f"directory is {release_id[:80]!r}")
    problems += integrity.layout_problems(manifest)
    if problems:
        raise integrity.damaged(path, problems, manifest)
    report = integrity.verify_release(path)   # re-read: what is published is what was hashed
    try:
        rel = Release(path)
    except LexiconError:
        raise
    except Exception as exc:   # an untrusted release must not crash its installer
        raise integrity.damaged(path, [f"cannot be opened ({type(exc).__name__}: {exc})"],
                                manifest) from exc
    try:
        rel.indexes  # noqa: B018  (maps the query tries: NoIndex if they cannot be read)
        if check_canaries:
            canaries.check(profile, rel)
        else:        # still looked up: the store must answer, whatever the verdicts
            unreadable = [b for b in canaries.flipped(profile, rel) if "error" in b]
            if unreadable:
                raise integrity.damaged(path, [f"{b['word']}: {b['error']['message']}"
                                               for b in unreadable], manifest)
    except LexiconError:
        raise
    except Exception as exc:
        raise integrity.damaged(path, [f"cannot be read ({type(exc).__name__}: {exc})"],
                                manifest) from exc
    finally:
        rel.close()
    return report


class ReleaseWriter:
    """Collects records for one game and publishes them as a new release."""

    def __init__(self, profile: Profile, root: Path | None = None) -> None:
        self.profile = profile
        self.root = root
        self.game_dir = published.game_dir(profile.id, root)
        self.game_dir.mkdir(parents=True, exist_ok=True)
        remove_dead_staging(self.game_dir)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        # unique even for two builds in one process and one second; the pid stays last
        self.staging = self.game_dir / f".staging-{stamp}-{secrets.token_hex(4)}-{os.getpid()}"
        self.staging.mkdir()
        self._raw = self.staging / "raw.lmdb"
        self.env = lmdb.open(str(self._raw), map_size=MAP_SIZE, max_dbs=1, sync=False,
                             metasync=False, writemap=False)
        self.db = self.env.open_db(STAGED_DB)
        # provisional shape numbers of the staged values: (admitted?, shape JSON) -> number;
        # the store renumbers them by frequency when it is written
        self._shape_ids: dict[tuple[bool, str], int] = {}
        self._shapes: list[tuple[bool, str]] = []
        self._txn: lmdb.Transaction | None = None
        self._pending = 0
        self.started = time.monotonic()
        self.check_canaries = False   # full builds check the profile's canaries (pipeline)
        self.merged = 0
        self._early: Started | None = None    # indexes started before the records were written
        # writes the meanings file into the staging directory and returns its manifest
        # entry (build.meanings_writer: set by a build, an amend); None: the release has none
        self.meanings: Callable[[Path, RecordStore], dict[str, Any]] | None = None

    # -- writing -------------------------------------------------------------------------
    def _begin(self) -> lmdb.Transaction:
        if self._txn is None:
            self._txn = self.env.begin(write=True, db=self.db)
        return self._txn

    def _shape_id(self, valid: bool, shape: str) -> int:
        sk = (valid, shape)
        sid = self._shape_ids.get(sk)
        if sid is None:
            sid = self._shape_ids[sk] = len(self._shapes)
            self._shapes.append(sk)
        return sid

    def _encode(self, record: Record) -> bytes:
        shape, own = split(record)
        return encode_value(self._shape_id(record.valid, shape), own)

    def _decode(self, key: str, raw: bytes) -> Record:
        sid, pos = get_varint(raw, 0)
        valid, shape = self._shapes[sid]
        return join(key, valid, json.loads(shape), raw, pos)

    def add(self, record: Record | Split) -> None:
        """Stage one record; a :class:`Split` (a record already cut into shape and own
        bytes, as judging workers send them: build.shards) is staged without decoding,
        unless its key was staged before and the two must be merged."""
        txn = self._begin()
        k = record.key.encode()
        if len(k) > MAX_KEY_BYTES:  # LMDB's key limit; no playable word comes close
            return
        old = txn.get(k)
        if isinstance(record, Split):
            if old is None:
                value = encode_value(self._shape_id(record.valid, record.shape), record.own)
            else:
                value = self._encode(self._decode(record.key, old).merge(as_record(record)))
                self.merged += 1
        else:
            if old is not None:
                record = self._decode(record.key, old).merge(record)
                self.merged += 1
            value = self._encode(record)
        txn.put(k, value)
        self._pending += 1
        if self._pending >= TXN_BATCH:
            txn.commit()
            self._txn = None
            self._pending = 0

    def staged(self, key: str) -> Record | None:
        """The record staged for ``key`` so far (None: no builder judged it)."""
        raw = self._begin().get(key.encode())
        return self._decode(key, bytes(raw)) if raw is not None else None

    def replace(self, record: Record) -> None:
        """Stage ``record`` in place of whatever is staged for its key (an override)."""
        self._begin().put(record.key.encode(), self._encode(record))

    def add_all(self, records: Iterable[Record | Split]) -> None:
        for rec in records:
            self.add(rec)

    # -- publishing ----------------------------------------------------------------------
    def _staged(self) -> Iterator[Split]:
        """The staged records in key order as the store keeps them (one per key: merges
        are done), not decoded: only the provisional shape number is looked up."""
        shapes = self._shapes
        with self.env.begin(db=self.db) as txn:
            total = txn.stat(self.db)["entries"]
            for k, v in track(txn.cursor(), f"{self.profile.id}: writing the release",
                              total=total, unit="records", every=20_000):
                sid, pos = get_varint(v, 0)
                valid, shape = shapes[sid]
                yield Split(k.decode(), valid, shape, bytes(v[pos:]))

    def _diff_current(self, new_keys: Callable[[], Iterable[str]],
                      changed: Changed | None = None) -> dict[str, Any]:
        """:meth:`_diff` against the game's current release, opened for it alone."""
        try:
            prev_path = published.current_path(self.profile.id, self.root)
            # an older layout too: a repack's diff is against the release it migrates
            previous = open_parent(prev_path) if prev_path else None
        except NoRelease:  # a damaged current release: rebuilding is how it gets fixed
            previous = None
        try:
            return self._diff(previous, new_keys, self.staging, changed)
        finally:
            if previous:
                previous.close()

    def _diff(self, previous: Release | LegacyRelease | None,
              new_keys: Callable[[], Iterable[str]], out_dir: Path,
              changed: Changed | None = None) -> dict[str, Any]:
        """Which keys became valid or stopped being valid since ``previous``; ``new_keys``
        gives the new release's admitted keys, asked only when they are needed.
        ``changed``, when ``previous`` is the release it names, says so already: an amend
        of it changes no key but the overridden ones (two sets of millions of keys spared)."""
        if previous is None:
            return {"previous": None}
        if changed is not None and changed[0] == previous.id:
            added = sorted(k for k, (was, now) in changed[1].items() if now and not was)
            removed = sorted(k for k, (was, now) in changed[1].items() if was and not now)
        else:
            new = set(new_keys())
            old = {k for k, raw in previous.iter_records(valid_only=True) if raw[:1] == VALID}
            added = sorted(new - old)
            removed = sorted(old - new)
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

    def _unique_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``-3`` … when the same content was already published in
        the same second (the game's build lock makes check-then-rename safe)."""
        rid, n = base, 1
        while (self.game_dir / rid).exists():
            n += 1
            rid = f"{base}-{n}"
        return rid

    def name(self, content: str) -> tuple[str, datetime]:
        """A new release's id and build time: ``<game>-<UTC second>-<content[:8]>``, made
        unique by :meth:`_unique_id`. Every kind of release (a build, an amend, a repack,
        a linked one such as remik's) is named here, so two published in one second get
        distinct ids (``-2``) whatever wrote them."""
        built_at = datetime.now(UTC)
        return self._unique_id(f"{self.profile.id}-{built_at:%Y%m%dT%H%M%SZ}-"
                               f"{content[:8]}"), built_at

    def manifest(self, release_id: str, built_at: datetime, content: str,
                 identity: Identity, fields: dict[str, Any]) -> dict[str, Any]:
        """The manifest: the fields every release carries (game, id, time, rules, profile,
        content hashes, canaries, build figures), assembled here once, around ``fields``,
        the ones its kind says (sources and counts, or the vocabulary it links)."""
        return {
            "game": self.profile.id,
            "release": release_id,
            "built_at": built_at.isoformat(timespec="microseconds"),
            "rules_version": self.profile.rules_version,
            "profile": self.profile.summary(),
            "content_sha256": content,
            "content_hash": identity.content_hash,
            "content_hash_recipe": HASH_RECIPE,
            "counts_by_length": identity.result()["counts_by_length"],
            "canaries": {**canaries.spec(self.profile), "checked": self.check_canaries},
            **fields,
            "build_seconds": round(time.monotonic() - self.started, 1),
            "peak_rss_mb": peak_rss_mb(),
        }

    def publish(self, *, sources: list[dict[str, Any]], policy: dict[str, Any],
                rules: list[dict[str, str]], records: Iterable[Split] | None = None,
                extra: dict[str, Any] | None = None, identity: Identity | None = None,
                valid_keys: Iterable[str] | None = None,
                overrides: Iterable[dict[str, Any]] = (),
                store: StoreWriter | None = None, changed: Changed | None = None) -> Path:
        """Write the record store, count, hash, index, and publish atomically.

        ``records`` (one per key, split as the store keeps them) replaces what was added
        to the writer: a repack or an amend passes a parent release's records straight
        through, without staging or decoding them.
        ``extra`` goes into the manifest as is (an amend's parent);
        ``overrides`` (every override the release carries, its parent's first) go to the
        release's ``overrides.jsonl``, summarised in the manifest;
        ``identity``, when given, is the playable words' hash already known (an amend
        derives it from its parent's) instead of one computed over every word.
        ``valid_keys``, when known before the records are written (an amend's), lets the
        alphagram indexes be built in a forked child meanwhile (checked against the store).
        ``store``, when given, writes the record store itself (an amend copies its parent's,
        :func:`build.record_writer.amend_store`) and returns its figures and the uses of
        its shapes, which the counts are made of; ``changed`` (the parent's id, key ->
        (valid before, valid now)) is the diff when the parent is the current release.
        The writer's ``meanings`` hook, when set (``build.meanings_writer``), writes the meanings
        file for the lemmas the store admits; the manifest's ``meanings`` entry is its.
        """
        figures, counts = self._write_records(records, valid_keys, store)
        content = figures["sha256"]   # of keys and values: a pure function of the records
        release_id, built_at = self.name(content)
        self.env.close()
        shutil.rmtree(self._raw)
        identity, diff, meanings = self._read_back(identity, changed)
        store_dir = self.staging / RECORDS_DIR
        indexes = build_indexes(self.profile, store_dir, self.staging, self._early)
        manifest = self.manifest(release_id, built_at, content, identity, {
            "sources": sources,
            "rules": rules,
            "policy": policy,
            "counts": counts,
            "records": figures,
            "diff": diff,
            "previous": diff.get("previous"),
            "indexes": indexes,
            "overrides": write_overrides(self.staging, overrides),
            **({"meanings": meanings} if meanings is not None else {}),
            **(extra or {}),
        })
        manifest["size_bytes"] = _dir_size(self.staging)
        return self.publish_manifest(release_id, manifest)

    def _write_records(self, records: Iterable[Split] | None,
                       valid_keys: Iterable[str] | None, store: StoreWriter | None
                       ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The record store written into the staging folder (see :meth:`publish`): its
        figures and the release's counts. A build that admitted no word stops here."""
        if self._txn is not None:
            self._txn.commit()
            self._txn = None
        self.env.sync(True)
        counter = _Counter()
        store_dir = self.staging / RECORDS_DIR
        staged = self._staged() if records is None else records
        # the writer's abort (a failed publish) stops this child with the staging
        self._early = (start_indexes(self.profile, valid_keys, self.staging)
                       if valid_keys is not None else None)
        if store is None:
            figures = write_store(counter.feed(staged), store_dir)
        else:
            figures, uses = store(store_dir)
            counter.uses.update(uses)
        counts = counter.counts()
        if counts["valid"] == 0:
            raise BuildError(f"{self.profile.id}: the build admitted no word; not publishing")
        return figures, counts

    def _read_back(self, identity: Identity | None, changed: Changed | None
                   ) -> tuple[Identity, dict[str, Any], dict[str, Any] | None]:
        """What is read back from the written store: the playable words' identity (unless
        known), the diff and the meanings. The store is read by each step on its own
        mapping, unmapped after it: a whole scan maps every page of it, and the diff's scan
        of the previous release would otherwise stack its pages on the new store's."""
        store_dir = self.staging / RECORDS_DIR
        valid: list[str] | None = None

        def admitted() -> list[str]:
            """The admitted keys, scanned once for the identity and the diff together."""
            nonlocal valid
            if valid is None:
                with closing(RecordStore(store_dir)) as written:
                    valid = list(written.valid_keys())
            return valid

        if identity is None:  # the playable words' Quackle hash and counts by length
            identity = playable_identity(self.profile, admitted())
        diff = self._diff_current(admitted, changed)
        valid = None
        meanings = None
        if self.meanings:
            with closing(RecordStore(store_dir)) as written:
                meanings = self.meanings(self.staging, written)
        return identity, diff, meanings

    def discard_staged_records(self) -> None:
        """Drop the scratch LMDB: this release's files come from elsewhere (build.linked)."""
        if self._txn is not None:
            self._txn.abort()
            self._txn = None
        self.env.close()
        shutil.rmtree(self._raw)

    def publish_manifest(self, release_id: str, manifest: dict[str, Any]) -> Path:
        """Write the manifest (with the file table), verify, rename, switch CURRENT."""
        # size + sha256 of every file: checked when opened (sizes), published, installed
        # and by `lexicon verify` (hashes); see lexicon.store.integrity
        manifest[integrity.FILES] = filetable.file_table(self.staging, skip=integrity.NOT_CONTENT)
        atomic.write_text(self.staging / MANIFEST,
                          json.dumps(manifest, ensure_ascii=False, indent=2))
        target = self.game_dir / release_id
        if target.exists():  # _unique_id chose a free name; a release is never overwritten
            raise BuildError(f"release {release_id} already exists; not overwriting it")
        check_staged(self.profile, self.staging, release_id,
                     check_canaries=self.check_canaries)
        os.rename(self.staging, target)
        published.set_current(self.profile.id, release_id, self.root)
        return target

    def abort(self) -> None:
        if self._early is not None:     # no child left writing into a discarded staging
            self._early.cancel()
        try:
            if self._txn is not None:
                self._txn.abort()
            self.env.close()
        except (lmdb.Error, AttributeError):
            pass
        shutil.rmtree(self.staging, ignore_errors=True)

    def __enter__(self) -> ReleaseWriter:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if et is not None or (self.staging.exists() and not (self.staging / MANIFEST).exists()):
            self.abort()
