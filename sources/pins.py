"""The maintainer's view of the pins: what is pinned, what is newer, and re-pinning.

A lexicon maintainer's yearly job is to move each source to its new edition, see what
changed, decide and publish. ``status`` lists every pin beside the newest version each
configured Debian suite offers; ``update`` downloads a chosen version through the private
apt configuration, verifies it (apt checks the signed Release file and the package's hash;
the sha256 recorded here is then the pin), puts it in the verified cache and rewrites the
pin in ``sources/manifest.toml``.

The rewrite is a targeted text edit of that one ``[[source]]`` block's ``version``,
``suite`` and ``sha256`` lines, never a re-dump of the TOML: the file's comments and layout
are the maintainers' notes and stay as written. The result is parsed again and compared
with the old manifest: exactly those three fields of that one source may differ.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from lexicon.sources import editions
from lexicon.sources import fetch as fetching
from lexicon.sources.apt import MAX_LIST_AGE, AptConfig, Offer, Runner, newest
from lexicon.sources.apt import _run as run_default

from lexicon import atomic
from lexicon.errors import InputError, SourceError


def _spec(sid: str, path: Path) -> fetching.SourceSpec:
    specs = fetching.load_manifest(path)
    if sid not in specs:
        raise InputError(f"unknown source {sid!r}; known: {', '.join(specs)}",
                         code="unknown_source")
    return specs[sid]


def status(path: Path | None = None, apt: AptConfig | None = None,
           run: Runner = run_default, refresh: bool = False) -> list[dict[str, Any]]:
    """One row per source: the pin and, for a deb, the newest version of each suite and
    whether it is newer than the pin. Indexes older than a day are fetched again
    (``refresh``: always)."""
    path = path or fetching.MANIFEST_PATH
    specs = fetching.load_manifest(path)
    apt = apt or fetching.apt_config(path=path)
    apt.update(run, max_age=None if refresh else MAX_LIST_AGE)
    offered = apt.offers_of([s.package for s in specs.values() if s.kind == "deb"], run)
    rows = []
    for spec in specs.values():
        row: dict[str, Any] = {
            "id": spec.id, "kind": spec.kind, "package": spec.package,
            "version": spec.version, "suite": spec.suite or None,
            "sha256": spec.sha256 if isinstance(spec.sha256, str) else dict(spec.sha256),
        }
        if spec.kind == "deb":
            offers = offered[spec.package]
            suites = {}
            for suite in apt.suites:
                best = newest([o.version for o in offers if o.suite == suite], run)
                suites[suite] = best
            row["suites"] = suites
            top = newest([v for v in suites.values() if v], run)
            row["newest"] = top
            row["newer"] = top is not None and top != spec.version and newest(
                [spec.version, top], run) == top
            row["pinned_in"] = sorted(o.suite for o in offers if o.version == spec.version)
        else:
            row["suites"] = None
            row["note"] = "PyPI: pinned here and in pyproject.toml; not looked up"
        rows.append(row)
    return rows


def choose(spec: fetching.SourceSpec, offers: list[Offer], version: str | None,
           suite: str | None, suites: tuple[str, ...], run: Runner = run_default) -> Offer:
    """The offer ``update`` pins: ``version`` (from ``suite`` if given), else the newest
    of ``suite``, else the newest of any configured suite."""
    if suite is not None and suite not in suites:
        raise InputError(f"{spec.id}: unknown suite {suite!r}; configured: "
                         f"{', '.join(suites)} (sources/manifest.toml [archive])")
    pool = [o for o in offers if suite is None or o.suite == suite]
    if version is not None:
        pool = [o for o in pool if o.version == version]
    if not pool:
        offered = ", ".join(f"{o.version} ({o.suite})" for o in offers) or "nothing"
        want = f"{spec.package} {version or '(newest)'}"
        raise SourceError(f"{spec.id}: {want} is not in "
                          f"{suite or 'any configured suite'}; the suites offer {offered}",
                          detail={"source": spec.id, "offered": [dataclasses.asdict(o)
                                                                 for o in offers]})
    best = newest([o.version for o in pool], run)
    # of several suites with that version, the most stable (first configured) names it
    return next(o for s in suites for o in pool if o.version == best and o.suite == s)


def update(sid: str, version: str | None = None, suite: str | None = None,
           path: Path | None = None, apt: AptConfig | None = None,
           run: Runner = run_default, cache: Path | None = None) -> dict[str, Any]:
    """Re-pin source ``sid``: download, verify, cache, rewrite its block in ``path``
    (default: sources/manifest.toml). Returns the old and new pin."""
    path = path or fetching.MANIFEST_PATH
    spec = _spec(sid, path)
    if spec.kind != "deb":
        raise InputError(f"{sid} is a PyPI source: it is pinned in pyproject.toml too, so it "
                         "is re-pinned by editing both (and `make install`)")
    cache = cache or fetching.cache_dir()
    apt = apt or fetching.apt_config(cache, path)
    new, _ = edition(spec, version, suite, apt, run, cache)
    sha = str(new.sha256)
    rewrite_pin(path, sid, version=new.version, suite=new.suite, sha256=sha)
    return {"id": sid, "package": spec.package,
            "old": {"version": spec.version, "suite": spec.suite, "sha256": spec.sha256},
            "new": {"version": new.version, "suite": new.suite, "sha256": sha},
            "changed": spec.version != new.version or spec.sha256 != sha}


def edition(spec: fetching.SourceSpec, version: str | None, suite: str | None,
            apt: AptConfig, run: Runner, cache: Path
            ) -> tuple[fetching.SourceSpec, fetching.Fetched]:
    """Another edition of a deb source (see :func:`choose`), downloaded through the
    private configuration (apt checks it against the signed Release file) and put in the
    verified cache under its own sha256; returns its spec, pinned to that sha256."""
    apt.update(run)
    offer = choose(spec, apt.offers(spec.package, run), version, suite, apt.suites, run)
    with tempfile.TemporaryDirectory(prefix=".edition-", dir=_mkdir(cache)) as tmp_s:
        tmp = Path(tmp_s)
        proc = apt.download(spec.package, offer.version, tmp, run)
        debs = sorted(tmp.glob("*.deb"))
        if proc.returncode != 0 or not debs:
            raise SourceError(f"{spec.id}: could not download {spec.package} "
                              f"{offer.version}: {fetching._tail(proc.stderr or proc.stdout)}")
        new = dataclasses.replace(spec, version=offer.version, suite=offer.suite,
                                  sha256=fetching.sha256_of(debs[0]))
        # into the verified cache now: a build from the new pin needs no second download
        got = fetching.fetch(new, cache, fetching.serve_file(debs[0], run), log=lambda _m: None,
                             apt=apt)
    return new, got


def diff(sid: str, version: str | None = None, suite: str | None = None,
         path: Path | None = None, apt: AptConfig | None = None, run: Runner = run_default,
         cache: Path | None = None, samples: int = editions.SAMPLES) -> dict[str, Any]:
    """What source ``sid``'s word list gains and loses from its pin to another edition
    (default: the newest any configured suite offers), by kind (:mod:`sources.editions`).
    Nothing in the manifest changes."""
    path = path or fetching.MANIFEST_PATH
    spec = _spec(sid, path)
    if spec.kind != "deb":
        raise InputError(f"{sid} is a PyPI source: its editions are not compared here")
    cache = cache or fetching.cache_dir()
    apt = apt or fetching.apt_config(cache, path)
    old = fetching.fetch(spec, cache, run, apt=apt)
    new_spec, new = edition(spec, version, suite, apt, run, cache)
    assert old.root is not None and new.root is not None    # deb entries are unpacked
    what, old_words = editions.word_list(old.root)
    _, new_words = editions.word_list(new.root)
    result = editions.compare(old_words, new_words, samples=samples)
    return {"source": sid, "what": what,
            "old": {"version": spec.version, "suite": spec.suite},
            "new": {"version": new_spec.version, "suite": new_spec.suite,
                    "sha256": new_spec.sha256}, **result}


def _mkdir(p: Path) -> Path:
    p.mkdir(parents=True, exist_ok=True)
    return p


# -- the text edit -----------------------------------------------------------------------

_BLOCK = re.compile(r"^\[\[source\]\]\s*$", re.M)
_TABLE = re.compile(r"^\[", re.M)


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rewrite_pin(path: Path, sid: str, *, version: str, suite: str, sha256: str) -> None:
    """Set ``version``, ``suite`` and ``sha256`` of source ``sid`` in the manifest text.

    Only the lines ``version = …``, ``suite = …`` and ``sha256 = …`` of that block are
    replaced (``suite`` is added after ``version`` when the block has none); every other
    byte of the file stays. Written atomically, after checking that the edited text parses
    and differs from the old only in those fields.
    """
    text = path.read_text(encoding="utf-8")
    starts = [m.start() for m in _BLOCK.finditer(text)]
    block = None
    for start in starts:
        # a block ends at the next table header ([[source]] or a [source.x] sub-table)
        nxt = _TABLE.search(text, text.index("\n", start) + 1)
        end = nxt.start() if nxt else len(text)
        if re.search(rf'^id\s*=\s*{re.escape(_toml_string(sid))}\s*$', text[start:end], re.M):
            block = (start, end)
            break
    if block is None:
        raise InputError(f"no [[source]] with id {sid!r} in {path}", code="unknown_source")
    start, end = block
    body = text[start:end]
    fields = {"version": version, "suite": suite, "sha256": sha256}
    for key, value in fields.items():
        line = f"{key} = {_toml_string(value)}"
        found = re.search(rf"^{key}\s*=.*$", body, re.M)
        if found is None and key == "suite":
            found = re.search(r"^version\s*=.*$", body, re.M)
            line = (found.group(0) + "\n" + line) if found else line
        if found is not None:
            body = body[:found.start()] + line + body[found.end():]
        else:
            raise SourceError(f"{path}: source {sid} has no {key} line to rewrite "
                              "(a table of wheel checksums is edited by hand)")
    new_text = text[:start] + body + text[end:]
    _check_only_pin_changed(text, new_text, sid, fields, path)
    atomic.write_text(path, new_text)


def _check_only_pin_changed(old: str, new: str, sid: str, fields: dict[str, str],
                            path: Path) -> None:
    try:
        before, after = tomllib.loads(old), tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(f"{path}: the re-pinned text does not parse ({exc}); not "
                          "written") from exc
    for src in before["source"]:
        if src["id"] == sid:
            src.update(fields)
    if before != after:
        raise SourceError(f"{path}: re-pinning {sid} would change more than its pin; "
                          "not written")
