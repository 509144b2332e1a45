"""Carrying the verified source cache to another build machine (``lexicon sources pack``,
``lexicon sources unpack``). Here in ``build/`` rather than ``sources/`` because it reuses
the release bundle's tar rules (:mod:`build.shipping`), and sources never import build.

Why: a pinned version does not stay in the archive for ever (it migrates from unstable to
testing to stable and is then removed). A machine that fetched it keeps building from its
verified cache; a new build machine cannot download it any more. ``pack`` writes the
cache's verified artifacts (the ``.deb`` and ``.whl`` files, not their unpacked trees) into
one tar file with its sha256 beside it, like a release bundle; ``unpack`` on the new
machine checks that sha256, accepts only the members a release bundle may hold (the rules
of :func:`build.shipping.safe_members`: plain files and directories under one top directory, no
links, no absolute or ``..`` paths), verifies every artifact against the pin in
``sources/manifest.toml`` (the manifest is the last word: an artifact no pin names, or
whose sha256 differs, is refused) and fills the cache from it exactly as a download would
(:func:`sources.fetch.fetch`: unpacked, every file recorded).

Layout of the file::

    lexicon-sources/                 the one top directory
    lexicon-sources/sources.json     [{"id", "version", "artifact", "sha256"}, ...]
    lexicon-sources/<id>/<artifact>  one verified artifact per source
"""

from __future__ import annotations

import json
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lexicon.build.shipping import BadBundle, _expected_sha256, _tarinfo, safe_members
from lexicon.sources import fetch as fetching
from lexicon.sources.apt import AptConfig

from lexicon import atomic
from lexicon.errors import InputError, SourceError

TOP = "lexicon-sources"
INDEX = "sources.json"
SUFFIX = ".sources.tar"


def _verified(spec: fetching.SourceSpec, cache: Path) -> Path | None:
    """The artifact of ``spec``'s cache entry if the entry verifies, else None."""
    dest = fetching._entry(cache, spec)
    record = fetching._read_record(dest)
    if record is None or fetching.cache_problems(spec, dest, record):
        return None
    return dest / record["artifact"]


def pack(output: Path | None = None, cache: Path | None = None,
         ids: Sequence[str] | None = None, path: Path | None = None) -> dict[str, Any]:
    """Pack the verified artifacts of the manifest's sources (default: all that the cache
    holds) into ``output``; returns what was packed and what the cache lacks."""
    cache = cache or fetching.cache_dir()
    specs = fetching.load_manifest(path or fetching.MANIFEST_PATH)
    wanted = list(ids) if ids else list(specs)
    unknown = [i for i in wanted if i not in specs]
    if unknown:
        raise InputError(f"unknown source(s) {', '.join(unknown)}; known: {', '.join(specs)}",
                         code="unknown_source")
    output = Path(output) if output else Path.cwd() / f"lexicon{SUFFIX}"
    packed, missing = [], []
    with atomic.replacing(output) as tmp:
        with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar, \
                tempfile.TemporaryDirectory() as scratch:
            found = [(specs[i], _verified(specs[i], cache)) for i in wanted]
            index = [{"id": s.id, "version": s.version, "artifact": a.name,
                      "sha256": fetching.sha256_of(a)} for s, a in found if a is not None]
            missing = [s.id for s, a in found if a is None]
            index_path = Path(scratch) / INDEX
            index_path.write_text(json.dumps(index, ensure_ascii=False, indent=1),
                                  encoding="utf-8")
            tar.addfile(_tarinfo(tar, Path(scratch), TOP, 0))
            with open(index_path, "rb") as fh:
                tar.addfile(_tarinfo(tar, index_path, f"{TOP}/{INDEX}", 0), fh)
            for spec, artifact in found:
                if artifact is None:
                    continue
                tar.addfile(_tarinfo(tar, artifact.parent, f"{TOP}/{spec.id}", 0))
                with open(artifact, "rb") as fh:
                    tar.addfile(_tarinfo(tar, artifact, f"{TOP}/{spec.id}/{artifact.name}", 0),
                                fh)
                packed.append(spec.id)
        digest = fetching.sha256_of(tmp)
    sha_file = output.with_name(output.name + ".sha256")
    atomic.write_text(sha_file, f"{digest}  {output.name}\n")
    return {"file": str(output), "sha256_file": str(sha_file), "sha256": digest,
            "bytes": output.stat().st_size, "packed": packed, "not_in_cache": missing}


def unpack(file: Path, sha256: str | None = None, cache: Path | None = None,
           path: Path | None = None) -> dict[str, Any]:
    """Verify a packed cache and fill this machine's cache from it (see the module doc)."""
    file = Path(file)
    cache = cache or fetching.cache_dir()
    specs = fetching.load_manifest(path or fetching.MANIFEST_PATH)
    if not file.is_file():
        raise BadBundle(f"{file} is not a file", detail={"file": str(file)})
    expected = _expected_sha256(file, sha256)
    if expected is None:
        raise BadBundle(f"no checksum for {file.name}: put {file.name}.sha256 beside it or "
                        f"give --sha256", detail={"file": str(file)})
    actual = fetching.sha256_of(file)
    if actual != expected:
        raise BadBundle(f"{file.name}: sha256 {actual} does not match {expected}; the file is "
                        "corrupted or not the one packed",
                        detail={"file": str(file), "expected": expected, "actual": actual})
    filled, refused = [], []
    cache.mkdir(parents=True, exist_ok=True)
    with tarfile.open(file, "r:") as tar, tempfile.TemporaryDirectory(
            dir=cache, prefix=".unpack-") as staging_s:
        top, members = safe_members(tar)
        if top != TOP:
            raise BadBundle(f"{file.name} is not a packed source cache (top directory "
                            f"{top!r}, not {TOP!r})")
        tar.extractall(staging_s, members=members, filter="data")
        staging = Path(staging_s) / TOP
        try:
            index = json.loads((staging / INDEX).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BadBundle(f"{file.name}: {INDEX} cannot be read ({exc})") from exc
        if not isinstance(index, list) or not all(isinstance(i, dict) for i in index):
            raise BadBundle(f"{file.name}: {INDEX} is not a list of sources")
        for item in index:
            sid, name = str(item.get("id")), str(item.get("artifact"))
            artifact = staging / sid / Path(name).name
            spec = specs.get(sid)
            why = None
            if spec is None:
                why = "no source of that id in sources/manifest.toml"
            elif item.get("version") != spec.version:
                why = f"version {item.get('version')}, the manifest pins {spec.version}"
            elif not artifact.is_file():
                why = f"{name} is missing from the file"
            else:
                try:
                    fetching._verify(spec, artifact)
                except SourceError as exc:
                    why = exc.message
            if why is not None:
                refused.append({"id": sid, "why": why})
                continue
            assert spec is not None
            # no archive is asked: the download is the verified artifact at hand
            fetching.fetch(spec, cache, fetching.serve_file(artifact), log=lambda _m: None,
                           apt=AptConfig(cache / "apt", (), ()))
            filled.append(sid)
    return {"file": str(file), "sha256": actual, "filled": filled, "refused": refused}
