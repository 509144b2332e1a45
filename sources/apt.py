"""A private apt configuration: any configured Debian suite, without touching ``/etc/apt``.

Why: ``apt-get download NAME=VERSION`` only sees the suites of the machine's own sources
list. A pin moves between suites over its life (a new edition enters unstable, migrates to
testing, becomes stable, and one day leaves the archive), so a build machine on one release
must be able to fetch a pin from another suite, and a maintainer must see what each suite
offers (``lexicon sources``). Changing the machine's apt configuration for that would change
what the machine installs; so the project keeps its own, used only for ``apt-get update``,
``apt-cache madison`` and ``apt-get download``, never for installing anything.

The configuration lives under ``$LEXICON_HOME/cache/apt``::

    etc/sources.list        one line per configured suite (sources/manifest.toml [archive])
    etc/apt.conf            read after the machine's apt.conf.d: clears its update hooks
    etc/*.d/                empty: none of the machine's lists, pins or trusted keys
    state/lists/            the suites' package indexes, written by `apt-get update`
    state/status            empty: what the machine has installed does not matter here
    cache/                  apt's binary caches
    updated                 when the indexes were last updated, and for which sources.list

The mirror is the machine's own: the URI of its first Debian entry in
``/etc/apt/sources.list.d/*.sources`` or ``/etc/apt/sources.list`` (``LEXICON_APT_MIRROR``
overrides it), reused with the configured suite names, so no archive address is written in
the project. Signatures are checked by apt itself against the keyring of Debian's
``debian-archive-keyring`` package (``signed-by=``); the pin's sha256 is the last word on
the downloaded file (:mod:`sources.fetch`).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lexicon import atomic
from lexicon.errors import SourceError

Runner = Callable[[Sequence[str], Path], subprocess.CompletedProcess]

KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")   # debian-archive-keyring
SYSTEM_SOURCES = (Path("/etc/apt/sources.list.d"), Path("/etc/apt/sources.list"))
MIRROR_ENV = "LEXICON_APT_MIRROR"
MAX_LIST_AGE = 24 * 3600.0   # `lexicon sources` refreshes indexes older than a day
# Read (``-c``) after the machine's own apt.conf.d, whose settings (proxies, validity
# checks) describe how this machine reaches its archive and are kept; its hooks are not:
# a hook run after `apt-get update` would act on the machine's caches, not on this tree.
HOOKS_CLEARED = "".join(f"#clear {name};\n" for name in (
    "APT::Update::Pre-Invoke", "APT::Update::Post-Invoke", "APT::Update::Post-Invoke-Success",
    "DPkg::Pre-Invoke", "DPkg::Post-Invoke", "DPkg::Pre-Install-Pkgs"))


def _run(cmd: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, check=False)


# -- the machine's mirror ----------------------------------------------------------------

def _deb822_entries(text: str) -> Iterator[tuple[str, list[str]]]:
    """(URI, suites) of every ``Types: deb`` stanza of a deb822 ``.sources`` file."""
    for stanza in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line or line[:1].isspace():
                continue
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes") != "no":
            for uri in fields.get("uris", "").split():
                yield uri, fields.get("suites", "").split()


def _one_line_entries(text: str) -> Iterator[tuple[str, list[str]]]:
    """(URI, [suite]) of every ``deb [options] URI suite components`` line."""
    for line in text.splitlines():
        words = re.sub(r"\[[^]]*\]", " ", line.split("#", 1)[0]).split()
        if len(words) >= 3 and words[0] == "deb":
            yield words[1], [words[2]]


def system_mirror(paths: Sequence[Path] = SYSTEM_SOURCES) -> str:
    """The URI of the machine's main Debian archive: the first entry with a plain suite
    (``bookworm``, not ``bookworm-security`` or ``-updates``, which live elsewhere or hold
    only updates)."""
    override = os.environ.get(MIRROR_ENV)
    if override:
        return override
    files: list[Path] = []
    for p in paths:
        files += sorted(p.glob("*.sources")) + sorted(p.glob("*.list")) if p.is_dir() else [p]
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except OSError:
            continue
        entries = _deb822_entries(text) if f.suffix == ".sources" else _one_line_entries(text)
        for uri, suites in entries:
            if any("-" not in s and "/" not in s for s in suites):
                return uri.rstrip("/")
    raise SourceError(
        "no Debian archive entry in the machine's apt sources "
        f"({', '.join(str(p) for p in paths)}) to learn the mirror from; set {MIRROR_ENV} "
        "to the archive's URI")


# -- the private configuration -----------------------------------------------------------

@dataclass(frozen=True)
class Offer:
    """One version of a package in one suite, as ``apt-cache madison`` reports it."""

    suite: str
    version: str


@dataclass(frozen=True)
class AptConfig:
    """The private apt tree at ``root`` with ``lines`` as its sources list."""

    root: Path
    suites: tuple[str, ...]
    lines: tuple[str, ...]

    @classmethod
    def for_archive(cls, root: Path, suites: Sequence[str], components: Sequence[str],
                    mirror: str | None = None, keyring: Path = KEYRING) -> AptConfig:
        """The configuration for the Debian ``suites`` on the machine's mirror."""
        if not keyring.is_file():
            raise SourceError(f"{keyring} is missing: install Debian's debian-archive-keyring "
                              "package (`make system-deps`)")
        uri = mirror or system_mirror()
        lines = tuple(f"deb [signed-by={keyring}] {uri} {s} {' '.join(components)}"
                      for s in suites)
        return cls(Path(root), tuple(suites), lines)

    # -- files -------------------------------------------------------------------------
    def options(self) -> list[str]:
        """The ``-o`` options that point apt at this tree and nowhere else."""
        r, etc = self.root, self.root / "etc"
        settings = {
            "Dir::Etc": etc, "Dir::Etc::sourcelist": etc / "sources.list",
            "Dir::Etc::sourceparts": etc / "sources.list.d",
            "Dir::Etc::preferences": etc / "preferences",
            "Dir::Etc::preferencesparts": etc / "preferences.d",
            "Dir::Etc::trusted": etc / "trusted.gpg",
            "Dir::Etc::trustedparts": etc / "trusted.gpg.d",
            "Dir::State": r / "state", "Dir::State::lists": r / "state/lists",
            "Dir::State::status": r / "state/status", "Dir::Cache": r / "cache",
            # the machine may switch apt's binary caches off (container images do): here
            # they make each apt-cache call a read of one file, not a parse of every index
            "Dir::Cache::pkgcache": "pkgcache.bin", "Dir::Cache::srcpkgcache": "srcpkgcache.bin",
            "Acquire::Languages": "none",
        }
        return ["-c", str(etc / "apt.conf"),
                *(arg for k, v in settings.items() for arg in ("-o", f"{k}={v}"))]

    def _sources_text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def prepare(self) -> None:
        """Create the tree; a changed sources list makes the indexes stale."""
        etc = self.root / "etc"
        for d in (etc / "sources.list.d", etc / "preferences.d", etc / "trusted.gpg.d",
                  self.root / "state/lists/partial", self.root / "cache/archives/partial"):
            d.mkdir(parents=True, exist_ok=True)
        (etc / "apt.conf").write_text(HOOKS_CLEARED, encoding="utf-8")
        status = self.root / "state/status"
        if not status.exists():
            status.touch()
        sources = etc / "sources.list"
        text = self._sources_text()
        if not sources.exists() or sources.read_text(encoding="utf-8") != text:
            atomic.write_text(sources, text)

    def _stamp(self) -> str:
        return hashlib.sha256(self._sources_text().encode()).hexdigest()

    def updated_at(self) -> float | None:
        """When the indexes of the current sources list were fetched (None: never)."""
        try:
            record = json.loads((self.root / "updated").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(record, dict) or record.get("sources") != self._stamp():
            return None
        at = record.get("at")
        return float(at) if isinstance(at, (int, float)) else None

    @contextmanager
    def _lock(self) -> Iterator[None]:
        """One `apt-get update` at a time (parallel builds share the tree)."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    # -- apt ---------------------------------------------------------------------------
    def update(self, run: Runner = _run, max_age: float | None = None) -> None:
        """``apt-get update`` of the private indexes, unless they are younger than
        ``max_age`` seconds (None: always). A suite apt cannot fetch or verify is an error
        that names it in apt's words."""
        self.prepare()
        with self._lock():
            at = self.updated_at()
            if max_age is not None and at is not None and time.time() - at < max_age:
                return
            cmd = ["apt-get", *self.options(), "-q", "update"]
            try:
                proc = run(cmd, self.root)
            except FileNotFoundError as exc:
                raise SourceError(f"cannot run apt-get ({exc})") from exc
            problems = [ln for ln in (proc.stderr or "").splitlines()
                        if ln.startswith(("E:", "Err:")) or "NO_PUBKEY" in ln]
            if proc.returncode != 0 or problems:
                raise SourceError(
                    "apt-get update of the private configuration "
                    f"({self.root / 'etc/sources.list'}) failed: "
                    f"{' | '.join(problems[-3:]) or (proc.stderr or '').strip()[-300:]}")
            (self.root / "updated").write_text(
                json.dumps({"at": time.time(), "sources": self._stamp()}), encoding="utf-8")

    def ensure_indexes(self, run: Runner = _run) -> bool:
        """Update the indexes if they were never fetched; True when this call fetched."""
        self.prepare()
        if self.updated_at() is None:
            # any age will do: a parallel build may have fetched them while this one waited
            self.update(run, max_age=float("inf"))
            return True
        return False

    def offers(self, package: str, run: Runner = _run) -> list[Offer]:
        """Every version of ``package`` in the configured suites (``apt-cache madison``)."""
        return self.offers_of([package], run)[package]

    def offers_of(self, packages: Sequence[str], run: Runner = _run) -> dict[str, list[Offer]]:
        """:meth:`offers` of several packages with one ``apt-cache`` call."""
        out: dict[str, list[Offer]] = {p: [] for p in packages}
        if not packages:
            return out
        proc = run(["apt-cache", *self.options(), "madison", *packages], self.root)
        for line in (proc.stdout or "").splitlines():
            # "wpolish | 20260301-1 | URI sid/main amd64 Packages"
            cells = [c.strip() for c in line.split("|")]
            if len(cells) != 3 or cells[0] not in out:
                continue
            where = cells[2].split()
            suite = where[1].split("/", 1)[0] if len(where) > 1 else ""
            if suite in self.suites:
                out[cells[0]].append(Offer(suite, cells[1]))
        return out

    def download(self, package: str, version: str, dest: Path,
                 run: Runner = _run) -> subprocess.CompletedProcess:
        """``apt-get download package=version`` into ``dest`` (from whichever configured
        suite holds that version)."""
        return run(["apt-get", *self.options(), "-q", "download", f"{package}={version}"],
                   dest)


def newest(versions: Sequence[str], run: Runner = _run) -> str | None:
    """The highest of Debian ``versions`` by dpkg's own ordering (``dpkg --compare-versions``:
    epochs, ``~``, the revision; a string comparison gets ``1:7.5.0-1`` against
    ``1:25.2.3-1`` wrong)."""
    best: str | None = None
    for v in versions:
        if best is None or run(["dpkg", "--compare-versions", v, "gt", best],
                               Path.cwd()).returncode == 0:
            best = v
    return best
