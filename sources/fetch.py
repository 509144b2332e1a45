"""Obtaining the pinned sources: download with the ordinary clients, verify, cache.

Debian packages come from ``apt-get download NAME=VERSION`` and are unpacked with
``dpkg-deb -x`` (nothing is installed system-wide); Python packages are downloaded as wheels
with ``pip download`` purely to verify and record their checksum, since they are installed
into the environment as ordinary dependencies. Every artifact's sha256 must match
``sources/manifest.toml``; a mismatch or a failed download is a :class:`SourceError` with a
message a person can act on.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexicon.errors import SourceError
from lexicon.integrity import sha256_file as sha256_of
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
                          raw.get("credit", ""))
        if spec.kind not in ("deb", "pypi"):
            raise SourceError(f"source {spec.id}: unknown kind {spec.kind!r}")
        specs[spec.id] = spec
    return specs


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


def fetch(spec: SourceSpec, cache: Path | None = None, run: Runner = _run) -> Fetched:
    """Download (or reuse from the cache) and verify one source."""
    cache = cache or cache_dir()
    dest = cache / spec.kind / f"{spec.package}_{spec.version.replace(':', '%3a')}"
    done = dest / ".verified"
    if done.exists():
        artifact = dest / done.read_text().strip()
        sha = _verify(spec, artifact)
        root = dest / "root" if spec.kind == "deb" else None
        return Fetched(spec, artifact, sha, root)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=".fetch-") as tmp_s:
        tmp = Path(tmp_s)
        if spec.kind == "deb":
            cmd = ["apt-get", "download", f"{spec.package}={spec.version}"]
            hint = "is the package index current? (`apt-get update`)"
        else:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "-d", str(tmp), f"{spec.package}=={spec.version}"]
            hint = "is the package registry reachable?"
        try:
            proc = run(cmd, tmp)
        except FileNotFoundError as exc:
            raise SourceError(f"{spec.id}: cannot run {cmd[0]!r} ({exc})") from exc
        files = [p for p in tmp.iterdir() if p.suffix in (".deb", ".whl")]
        if proc.returncode != 0 or not files:
            raise SourceError(
                f"{spec.id}: could not download {spec.package} {spec.version} with "
                f"{cmd[0] if spec.kind == 'deb' else 'pip'}: {_tail(proc.stderr or proc.stdout)}"
                f" ({hint})"
            )
        artifact = files[0]
        sha = _verify(spec, artifact)
        if spec.kind == "deb":
            proc = run(["dpkg-deb", "-x", str(artifact), str(tmp / "root")], tmp)
            if proc.returncode != 0:
                raise SourceError(f"{spec.id}: dpkg-deb could not unpack {artifact.name}: "
                                  f"{_tail(proc.stderr)}")
        (tmp / ".verified").write_text(artifact.name)
        if dest.exists():
            shutil.rmtree(dest)
        tmp.rename(dest)
        tmp.mkdir()  # TemporaryDirectory cleans up the (now empty) path
    return fetch(spec, cache, run)


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


def fetch_all(ids: Sequence[str] | None = None, cache: Path | None = None,
              run: Runner = _run) -> dict[str, Fetched]:
    specs = load_manifest()
    wanted = list(ids) if ids else list(specs)
    out = {}
    for sid in wanted:
        if sid not in specs:
            raise SourceError(f"unknown source {sid!r}; known: {', '.join(specs)}")
        out[sid] = fetch(specs[sid], cache, run)
    return out
