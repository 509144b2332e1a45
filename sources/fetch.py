"""Obtaining the pinned sources: download with the ordinary clients, verify, cache.

Debian packages come from ``apt-get download NAME=VERSION`` through the project's private
apt configuration (:mod:`sources.apt`: every configured suite, the machine's ``/etc/apt``
untouched) and are unpacked with ``dpkg-deb -x`` (nothing is installed); Python packages
are downloaded as wheels with ``pip download`` purely to verify and record their checksum,
since they are installed into the environment as ordinary dependencies. Every artifact's
sha256 must match ``sources/manifest.toml``; a mismatch or a failed download is a
:class:`SourceError` with a message a person can act on.
"""

from __future__ import annotations

import base64
import csv
import fcntl
import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon.sources.apt import AptConfig

from lexicon.errors import SourceError
from lexicon.filetable import file_table, table_problems
from lexicon.filetable import sha256_file as sha256_of
from lexicon.paths import cache_dir

MANIFEST_PATH = Path(__file__).parent / "manifest.toml"

Runner = Callable[[Sequence[str], Path], subprocess.CompletedProcess]


@dataclass(frozen=True)
class SourceSpec:
    id: str
    kind: str
    package: str
    version: str
    sha256: str | dict[str, str]
    license: str
    contributes: str
    games: tuple[str, ...] = ()
    credit: str = ""          # authors and copyright holders, shown with every release
    suite: str = ""           # the Debian suite the pin was taken from (informative: a
    #                           version is looked for in every configured suite)
    word_list: str = ""       # the word list a package carries (sjp.pl): two packages of
    #                           one list are one witness of a form, not two


@dataclass(frozen=True)
class Archive:
    """The Debian suites a deb pin is looked for in (``[archive]`` in the manifest)."""

    suites: tuple[str, ...]
    components: tuple[str, ...] = ("main",)


@dataclass
class Fetched:
    spec: SourceSpec
    artifact: Path            # the verified .deb or .whl
    sha256: str
    root: Path | None = None  # unpacked tree of a .deb
    extra: dict[str, Any] = field(default_factory=dict)

    def manifest_entry(self) -> dict[str, Any]:
        return {
            "id": self.spec.id, "kind": self.spec.kind, "package": self.spec.package,
            "version": self.spec.version, "artifact": self.artifact.name, "sha256": self.sha256,
            "license": self.spec.license, "credit": self.spec.credit,
            "contributes": self.spec.contributes,
        }


def load_manifest(path: Path = MANIFEST_PATH) -> dict[str, SourceSpec]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    specs = {}
    for raw in data["source"]:
        spec = SourceSpec(raw["id"], raw["kind"], raw["package"], raw["version"], raw["sha256"],
                          raw["license"], raw["contributes"], tuple(raw.get("games", ())),
                          raw.get("credit", ""), raw.get("suite", ""),
                          raw.get("word_list", ""))
        if spec.kind not in ("deb", "pypi"):
            raise SourceError(f"source {spec.id}: unknown kind {spec.kind!r}")
        specs[spec.id] = spec
    return specs


def load_archive(path: Path = MANIFEST_PATH) -> Archive:
    with open(path, "rb") as fh:
        raw = tomllib.load(fh).get("archive", {})
    return Archive(tuple(raw.get("suites", ())), tuple(raw.get("components", ("main",))))


def apt_config(cache: Path | None = None, path: Path = MANIFEST_PATH) -> AptConfig:
    """The private apt configuration under ``cache/apt`` for the manifest's suites."""
    archive = load_archive(path)
    return AptConfig.for_archive((cache or cache_dir()) / "apt", archive.suites,
                                 archive.components)


def sources_for(game: str, path: Path = MANIFEST_PATH) -> list[SourceSpec]:
    return [s for s in load_manifest(path).values() if game in s.games]


def _run(cmd: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, check=False)


def _tail(text: str, n: int = 3) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip() and "is ignored" not in ln]
    return " | ".join(lines[-n:])


def _expected(spec: SourceSpec, filename: str) -> str:
    if isinstance(spec.sha256, str):
        return spec.sha256
    if filename not in spec.sha256:
        raise SourceError(
            f"{spec.id}: downloaded {filename}, for which sources/manifest.toml pins no "
            f"checksum (pinned: {', '.join(spec.sha256)}). Review the file and add its sha256."
        )
    return spec.sha256[filename]


def _verify(spec: SourceSpec, artifact: Path) -> str:
    got = sha256_of(artifact)
    want = _expected(spec, artifact.name)
    if got != want:
        raise SourceError(
            f"{spec.id}: checksum mismatch for {artifact.name}: expected {want}, got {got}. "
            "The registry serves a different file than the one pinned; not using it."
        )
    return got


# -- the cache ---------------------------------------------------------------------------
# An entry is cache/<kind>/<package>_<version>/ holding the artifact, for a .deb its
# unpacked tree root/, and RECORD: JSON with the artifact's name and sha256 and the size and
# sha256 of every unpacked file. Each use re-checks all of it, so an edited .dic in the
# cache is caught, and a corrupt entry is said to be one, removed and fetched again.

RECORD = ".verified"


def _entry(cache: Path, spec: SourceSpec) -> Path:
    return cache / spec.kind / f"{spec.package}_{spec.version.replace(':', '%3a')}"


@contextmanager
def _entry_lock(dest: Path) -> Iterator[None]:
    """One process at a time checks, repairs or fills a cache entry (parallel builds share
    the cache); waits for the other rather than failing."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(dest.parent / f".{dest.name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _read_record(dest: Path) -> dict[str, Any] | None:
    """The entry's record; an entry written before file tables holds only the artifact's
    name (``files`` is then None); None when there is no entry."""
    try:
        text = (dest / RECORD).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError):
        return {"artifact": None, "files": None}
    try:
        record = json.loads(text)
    except ValueError:
        return {"artifact": text, "files": None}
    return record if isinstance(record, dict) else {"artifact": None, "files": None}


def cache_problems(spec: SourceSpec, dest: Path, record: dict[str, Any]) -> list[str]:
    """What is wrong with a cache entry (empty: nothing): the artifact against the pinned
    sha256, every unpacked file against the entry's record."""
    name = record.get("artifact")
    if not isinstance(name, str) or not name or name != Path(name).name:
        return [f"{RECORD} cannot be read"]
    artifact = dest / name
    if not artifact.is_file():
        return [f"{name}: missing"]
    try:
        want = _expected(spec, name)
    except SourceError as exc:
        return [exc.message]
    if sha256_of(artifact) != want:
        return [f"{name}: sha256 differs from the pinned one in sources/manifest.toml"]
    files = record.get("files")
    if spec.kind == "deb" and files is not None:
        if not isinstance(files, dict):
            return [f"{RECORD}: malformed file table"]
        return table_problems(dest / "root", files, where="the cache record", skip=set())
    return []


def _fill(spec: SourceSpec, dest: Path, run: Runner, cached: Path | None = None,
          apt: AptConfig | None = None) -> None:
    """Download (or take the verified ``cached`` artifact), verify, unpack, record the
    unpacked files, and replace ``dest`` with the result in one rename."""
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=".fetch-") as tmp_s:
        tmp = Path(tmp_s)
        if cached is not None:
            shutil.copy2(cached, tmp / cached.name)
        else:
            # the entry is cache/<kind>/<name>: the private apt tree is cache/apt
            _download(spec, tmp, run, apt, dest.parent.parent)
        artifact = next(p for p in sorted(tmp.iterdir()) if p.suffix in (".deb", ".whl"))
        sha = _verify(spec, artifact)
        files = None
        if spec.kind == "deb":
            proc = run(["dpkg-deb", "-x", str(artifact), str(tmp / "root")], tmp)
            if proc.returncode != 0:
                raise SourceError(f"{spec.id}: dpkg-deb could not unpack {artifact.name}: "
                                  f"{_tail(proc.stderr)}")
            files = file_table(tmp / "root", skip=set())
        record = json.dumps({"artifact": artifact.name, "sha256": sha, "files": files},
                            ensure_ascii=False)
        if cached is not None and files is not None and not table_problems(
                dest / "root", files, where="a fresh unpack", skip=set()):
            # an old entry whose tree is exactly what its verified artifact unpacks to: only
            # its record is new, so processes reading the tree meanwhile are not disturbed
            (tmp / RECORD).write_text(record)
            os.replace(tmp / RECORD, dest / RECORD)
            return
        (tmp / RECORD).write_text(record)
        if dest.exists():
            shutil.rmtree(dest)
        tmp.rename(dest)
        tmp.mkdir()  # TemporaryDirectory cleans up the (now empty) path


def _download(spec: SourceSpec, tmp: Path, run: Runner, apt: AptConfig | None,
              cache: Path) -> None:
    if spec.kind == "deb":
        _download_deb(spec, tmp, run, apt or apt_config(cache))
        return
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "-d", str(tmp), f"{spec.package}=={spec.version}"]
    try:
        proc = run(cmd, tmp)
    except FileNotFoundError as exc:
        raise SourceError(f"{spec.id}: cannot run {cmd[0]!r} ({exc})") from exc
    if proc.returncode != 0 or not any(p.suffix == ".whl" for p in tmp.iterdir()):
        raise SourceError(
            f"{spec.id}: could not download {spec.package} {spec.version} with pip: "
            f"{_tail(proc.stderr or proc.stdout)} (is the package registry reachable?)")


def _download_deb(spec: SourceSpec, tmp: Path, run: Runner, apt: AptConfig) -> None:
    """``apt-get download NAME=VERSION`` through the private configuration, from whichever
    configured suite holds the version. Indexes are fetched when there are none, and once
    more before giving up (the version may have moved to another suite since). A version
    that no configured suite holds any longer is said to be gone, with how to go on."""
    try:
        fresh = apt.ensure_indexes(run)
        for attempt in (0, 1):
            proc = apt.download(spec.package, spec.version, tmp, run)
            if proc.returncode == 0 and any(p.suffix == ".deb" for p in tmp.iterdir()):
                return
            if attempt == 0 and not fresh:
                apt.update(run)
        offers = apt.offers(spec.package, run)
    except FileNotFoundError as exc:
        raise SourceError(f"{spec.id}: cannot run apt ({exc})") from exc
    if any(o.version == spec.version for o in offers):
        raise SourceError(f"{spec.id}: could not download {spec.package} {spec.version} with "
                          f"apt-get: {_tail(proc.stderr or proc.stdout)}")
    offered = ", ".join(f"{o.version} ({o.suite})" for o in offers) or "nothing"
    raise SourceError(
        f"{spec.id}: {spec.package} {spec.version} is in none of the configured suites "
        f"({', '.join(apt.suites)}), which offer {offered}; no verified copy of it is in the "
        f"cache. Carry the cache from a machine that has it (`lexicon sources pack` there, "
        f"`lexicon sources unpack FILE` here), or re-pin it: `lexicon sources update "
        f"{spec.id} [--version V] [--suite S]` (sources/manifest.toml), then rebuild.",
        detail={"source": spec.id, "package": spec.package, "version": spec.version,
                "suites": list(apt.suites),
                "offered": [{"suite": o.suite, "version": o.version} for o in offers]})


def serve_file(artifact: Path, run: Runner = _run) -> Runner:
    """A runner whose download (``apt-get download``, ``pip download``) hands over an
    artifact already at hand; every other command (``dpkg-deb``) runs with ``run``. With it,
    :func:`fetch` fills a cache entry from a file exactly as from a download: verified
    against the pin, unpacked, every file recorded."""
    def serve(cmd: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
        if "download" in cmd:
            shutil.copy2(artifact, Path(cwd) / artifact.name)
            return subprocess.CompletedProcess(list(cmd), 0, "", "")
        return run(cmd, cwd)
    return serve


def _warn(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def is_cached(spec: SourceSpec, cache: Path | None = None) -> bool:
    """Does the cache hold an entry for ``spec`` (not verified here: :func:`fetch` does
    that on use)? A build's time estimate counts a download for each source that has none."""
    return _read_record(_entry(cache or cache_dir(), spec)) is not None


def fetch(spec: SourceSpec, cache: Path | None = None, run: Runner = _run,
          log: Callable[[str], None] = _warn, apt: AptConfig | None = None) -> Fetched:
    """Download (or reuse from the cache) and verify one source.

    A cached entry is re-verified on every use: the artifact against its pinned sha256 and
    every unpacked file against the entry's record. A corrupt entry is named as such in
    ``log``, removed and fetched again; an entry written before file tables is unpacked
    again from its verified artifact to record them (no download). A verified entry is used
    without asking apt anything, so a pin that has left the archive keeps building here.
    ``apt`` defaults to the private configuration under ``cache/apt``.
    """
    cache = cache or cache_dir()
    dest = _entry(cache, spec)
    with _entry_lock(dest):
        record = _read_record(dest)
        corrupt: list[str] = []
        if record is not None:
            corrupt = cache_problems(spec, dest, record)
            if not corrupt and spec.kind == "deb" and record.get("files") is None:
                _fill(spec, dest, run, cached=dest / record["artifact"])
            if corrupt:
                log(f"{spec.id}: the cache entry {dest} is corrupt "
                    f"({'; '.join(corrupt[:3])}); removing it and fetching again")
                shutil.rmtree(dest)
        if record is None or corrupt:
            try:
                _fill(spec, dest, run, apt=apt)
            except SourceError as exc:
                if not corrupt:
                    raise
                raise SourceError(
                    f"{spec.id}: the cache entry was corrupt ({'; '.join(corrupt[:3])}) and "
                    f"was removed; fetching it again failed: {exc.message}") from exc
        record = _read_record(dest) or {}
        artifact = dest / record["artifact"]
        root = dest / "root" if spec.kind == "deb" else None
        # verified above against the pin (a record from before file tables has no sha256)
        return Fetched(spec, artifact, _expected(spec, artifact.name), root)


def check_installed(spec: SourceSpec) -> None:
    """A pypi source must be installed at the pinned version, since the build imports it."""
    if spec.kind != "pypi":
        return
    try:
        have = importlib.metadata.version(spec.package)
    except importlib.metadata.PackageNotFoundError as exc:
        raise SourceError(
            f"{spec.id}: {spec.package} is not installed; run `make install`") from exc
    if have != spec.version:
        raise SourceError(f"{spec.id}: {spec.package} {have} is installed but the manifest pins "
                          f"{spec.version}")


def verify_installed(fetched: Fetched) -> int:
    """The installed files of a pypi source are byte for byte those of the pinned wheel.

    The build imports the package pip installed, not the wheel ``fetch`` verified, so each
    file the verified wheel's RECORD lists (its sha256, which the wheel's pinned hash
    covers) is hashed where it is installed. This checks what will actually run, on every
    build, also after installation (``pip install --require-hashes`` would only check the
    download at install time). ``.dist-info`` files are skipped: pip rewrites them.
    Returns the number of files checked; raises SourceError naming the files that differ.
    """
    spec = fetched.spec
    if spec.kind != "pypi":
        return 0
    check_installed(spec)
    dist = importlib.metadata.distribution(spec.package)
    with zipfile.ZipFile(fetched.artifact) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(wheel.read(name).decode("utf-8"))))
    checked, differ = 0, []
    for row in rows:
        if len(row) < 2 or not row[1] or ".dist-info/" in row[0] or ".data/scripts/" in row[0]:
            continue
        algo, _, want = row[1].partition("=")
        try:
            data = Path(str(dist.locate_file(row[0]))).read_bytes()
        except OSError:
            differ.append(f"{row[0]}: missing")
            continue
        got = base64.urlsafe_b64encode(hashlib.new(algo, data).digest()).rstrip(b"=").decode()
        checked += 1
        if got != want:
            differ.append(f"{row[0]}: {algo} differs")
    if differ:
        raise SourceError(
            f"{spec.id}: the installed {spec.package} {spec.version} is not the pinned wheel "
            f"{fetched.artifact.name} ({'; '.join(differ[:3])}); reinstall it "
            f"(`pip install --force-reinstall --no-deps {fetched.artifact}`)",
            detail={"files": differ})
    return checked
