"""`lexicon bundle` on one LEXICON_HOME, `lexicon install` on another: the signed round
trip, and every bundle that must be refused (corrupted, unsigned, signed by a stranger,
tampered with its checksums recomputed, a manifest listing no files, a release id that no
build makes, a manifest that is `[]` or not UTF-8, unsafe members, more than a bundle may
unpack) refused with a stable code and nothing changed: no release directory left, CURRENT
where it was, the server still answering."""

from __future__ import annotations

import copy
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
from collections import namedtuple
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import POLISH_RECORDS, SmallHomes, StaticBuilder, lexicon, publish, rec
from lexicon.build import shipping, signing
from lexicon.build.pipeline import BuildContext, build_game

from lexicon.catalog import Catalog
from lexicon.filetable import sha256_file
from lexicon.store import published

# every osps canary valid (and two invalid ones present): a release whose build checked them
OSPS_OK = [rec(w) for w in ("zażółć", "gęślą", "jaźń", "źdźbło", "kot", "ul", "kotek", "al",
                             "pachnęłoś", "niepodkuć")] + [
    rec("np", valid=False, code="abbreviation", message="abbreviation"),
    rec("itd", valid=False, code="abbreviation", message="abbreviation"),
]


def build(root: Path, records: list, canaries: bool | None = None) -> Path:
    ctx = BuildContext(root=root, log=lambda _m: None, canaries=canaries)
    return build_game("osps", ctx, builder=StaticBuilder("osps", records))


@pytest.fixture()
def homes(tmp_path: Path, small_homes: SmallHomes) -> dict[str, Path]:
    """A builder's home with two osps releases (the current one canary-checked, as a full
    build's is), a server home that serves an older release and trusts the builder's key,
    and the key pair: made once, a copy in each test's folder."""
    small_homes("shipping", tmp_path, make=_make_homes)
    return {"builder": tmp_path / "builder", "server": tmp_path / "server",
            "key": tmp_path / "keys" / "builder.key", "dir": tmp_path}


def _make_homes(root: Path) -> None:
    builder, server, keys = root / "builder", root / "server", root / "keys"
    for d in (builder, server, keys):
        d.mkdir()
    publish(server, "osps", POLISH_RECORDS)          # what the server serves meanwhile
    publish(builder, "osps", [rec("kot"), rec("ul")])
    build(builder, OSPS_OK, canaries=True)
    made = signing.keygen(keys / "builder.key")
    (server / "trusted-keys").mkdir()
    (server / "trusted-keys" / "builder.pub").write_bytes(Path(made["public_key"]).read_bytes())


def signed_bundle(homes: dict[str, Path], name: str = "osps.lexbundle.tar",
                  release: str | None = None) -> Path:
    out = homes["dir"] / name
    shipping.bundle("osps", release, out, root=homes["builder"], key=homes["key"])
    return out


def remake(good: Path, out: Path, *, top: str | None = None,
           edit: Callable[[str, bytes], bytes | None] = lambda _rel, data: data,
           key: Path | None = None, mode: str = "w") -> Path:
    """``good`` rewritten: the release directory renamed to ``top``, each file's bytes
    through ``edit(path inside the release, bytes)`` (None drops it), then its .sha256
    recomputed and, with ``key``, signed: what anyone who can replace the files can do."""
    with tarfile.open(good) as src, tarfile.open(out, mode, format=tarfile.PAX_FORMAT) as dst:
        for m in src.getmembers():
            first, _, rel = m.name.partition("/")
            new = copy.copy(m)
            new.name = f"{top or first}/{rel}" if rel else (top or first)
            data = None
            if m.isfile():
                data = edit(rel, src.extractfile(m).read())
                if data is None:
                    continue
                new.size = len(data)
            dst.addfile(new, io.BytesIO(data) if data is not None else None)
    digest = sha256_file(out)
    out.with_name(out.name + ".sha256").write_text(f"{digest}  {out.name}\n")
    out.with_name(out.name + ".sig").unlink(missing_ok=True)
    if key is not None:
        signing.sign(out, digest, signing.load_private(key))
    return out


def with_manifest(change: Callable[[dict], object]) -> Callable[[str, bytes], bytes | None]:
    """An ``edit`` that rewrites the manifest as JSON, changed in place by ``change``."""
    def edit(rel: str, data: bytes) -> bytes:
        if rel != "manifest.json":
            return data
        m = json.loads(data)
        change(m)
        return json.dumps(m).encode()
    return edit


def unchanged(server: Path, before: str | None) -> None:
    """The refused bundle left nothing: the same release directories, CURRENT, and the
    server still answers with its old release."""
    gdir = server / "releases" / "osps"
    assert sorted(p.name for p in gdir.iterdir() if not p.name.startswith(".build")
                  and p.name != published.CURRENT_LOG) == \
        sorted([before, "CURRENT"]), "a directory was left behind"
    assert published.current_id("osps", server) == before
    cat = Catalog(server)
    try:
        assert cat.state("osps")["state"] == "serving"
        assert cat.release("osps").id == before
    finally:
        cat.close()


def refused(server: Path, bundle: Path, code: str, *args: str, text: str = "") -> str:
    """``lexicon install BUNDLE ARGS`` exits 3 with ``code`` and changes nothing (the
    in-process runner re-raises any exception: a traceback fails here)."""
    before = published.current_id("osps", server)
    p = lexicon(server, "install", str(bundle), *args)
    assert p.returncode == 3, (p.stdout, p.stderr)
    assert f"error [{code}]" in p.stderr, p.stderr
    assert text in p.stderr, p.stderr
    unchanged(server, before)
    return p.stderr


# -- the round trip ----------------------------------------------------------------------

def current_log(game: str, root: Path | None = None) -> list[dict]:
    """The switches of ``CURRENT`` logged for ``game``, oldest first (a line that is not
    JSON, a torn write, is skipped)."""
    try:
        text = (published.game_dir(game, root) / published.CURRENT_LOG).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def test_keygen_sign_and_install_between_two_homes(homes: dict[str, Path]) -> None:
    builder, server, tmp = homes["builder"], homes["server"], homes["dir"]
    (tmp / "k").mkdir()
    p = lexicon(builder, "keygen", "--output", str(tmp / "k" / "fleet.key"))
    assert p.returncode == 0, p.stderr
    made = json.loads(p.stdout)
    assert stat.S_IMODE(os.stat(made["private_key"]).st_mode) == 0o600
    assert made["public_key"] == str(tmp / "k" / "fleet.key.pub")
    assert "BEGIN PUBLIC KEY" in Path(made["public_key"]).read_text()
    assert len(made["key_id"]) == 16
    # a second keygen never overwrites a key
    p = lexicon(builder, "keygen", "--output", str(tmp / "k" / "fleet.key"))
    assert p.returncode == 2 and "error [key_exists]" in p.stderr
    out = tmp / "osps.lexbundle.tar"
    p = lexicon(builder, "bundle", "osps", "-o", str(out), "--sign", made["private_key"])
    assert p.returncode == 0, p.stderr
    info = json.loads(p.stdout)
    rid = published.current_id("osps", builder)
    assert info["release"] == rid and info["key_id"] == made["key_id"]
    assert (tmp / "osps.lexbundle.tar.sha256").read_text().split() == [info["sha256"],
                                                                      out.name]
    sig = json.loads(Path(info["signature"]).read_text())
    assert sig["sha256"] == info["sha256"] and sig["key_id"] == made["key_id"]
    # the server trusts the builder's key only: copy this one's public key in, then install
    refused(server, out, "untrusted_key", text=made["key_id"])
    (server / "trusted-keys" / "fleet.pub").write_bytes(Path(made["public_key"]).read_bytes())
    p = lexicon(server, "install", str(out))
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["installed"] is True and got["signature"]["key_id"] == made["key_id"]
    assert published.current_id("osps", server) == rid
    # the installed release answers exactly as the built one
    assert lexicon(server, "export", "osps").stdout == lexicon(builder, "export", "osps").stdout
    p = lexicon(server, "check", "osps", "zażółć", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["release"] == rid
    assert lexicon(server, "verify", "osps").returncode == 0
    # installing again is harmless; bundling again gives the same bytes and signature
    assert json.loads(lexicon(server, "install", str(out)).stdout)["installed"] is False
    again = shipping.bundle("osps", rid, tmp / "again.tar", root=builder,
                            key=Path(made["private_key"]))
    assert again["sha256"] == info["sha256"]
    assert json.loads(Path(again["signature"]).read_text())["signature"] == sig["signature"]


def test_an_older_release_ships_without_becoming_current(homes: dict[str, Path]) -> None:
    builder, server = homes["builder"], homes["server"]
    before = published.current_id("osps", server)
    old = [r["release"] for r in published.list_releases("osps", builder)][-1]
    bundle = signed_bundle(homes, "old.tar", old)
    bundle.with_name("old.tar.sha256").unlink()     # the signature carries the sha256
    got = shipping.install(bundle, make_current=False, root=server)
    assert got["release"] == old and got["installed"]
    assert published.current_id("osps", server) == before


def test_a_replayed_older_bundle_needs_allow_downgrade(homes: dict[str, Path]) -> None:
    """The server serves the builder's newest release; the older one, correctly signed,
    replayed, is refused (CURRENT stays, its words keep their verdicts) until an operator
    rolls back with --allow-downgrade."""
    server = homes["server"]
    newest = published.current_id("osps", homes["builder"])
    old = [r["release"] for r in published.list_releases("osps", homes["builder"])][-1]
    assert old != newest
    assert lexicon(server, "install", str(signed_bundle(homes, "new.tar"))).returncode == 0
    assert published.current_id("osps", server) == newest
    replay = signed_bundle(homes, "old.tar", old)
    p = lexicon(server, "install", str(replay))
    assert p.returncode == 3 and "error [older_release]" in p.stderr, p.stderr
    assert newest in p.stderr and old in p.stderr and "--allow-downgrade" in p.stderr
    assert not (server / "releases" / "osps" / old).exists()      # nothing unpacked
    assert "older_release" not in json.dumps(shipping.install(      # not served: no downgrade
        replay, make_current=False, root=server))
    assert published.current_id("osps", server) == newest
    assert lexicon(server, "check", "osps", "zażółć").returncode == 0
    p = lexicon(server, "install", str(replay), "--allow-downgrade")
    assert p.returncode == 0, p.stderr
    assert published.current_id("osps", server) == old
    assert lexicon(server, "check", "osps", "zażółć").returncode == 1   # the old edition's
    # forward again needs nothing
    assert lexicon(server, "install", str(signed_bundle(homes, "new.tar"))).returncode == 0
    assert published.current_id("osps", server) == newest


def test_the_shipping_snippet_of_the_docs_runs_as_written(homes: dict[str, Path]) -> None:
    """docs/releases.md's shipping block, line by line in bash (``set -e``), on a fresh
    ``HOME`` (no ``~/.lexicon`` yet): the build machine is the builder's home, whose
    published release stands in for the block's ``lexicon build`` (minutes on real
    sources); ``/srv/lexicon`` is the server's home, which serves an older release."""
    builder, server, work = homes["builder"], homes["server"], homes["dir"] / "work"
    work.mkdir()
    (homes["dir"] / "home").mkdir()
    text = (Path(__file__).parents[2] / "docs" / "releases.md").read_text(encoding="utf-8")
    section = text.split("## Shipping a release to a fleet", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    lexicon_bin = Path(sys.executable).parent / "lexicon"
    lines = [line for line in block.group(1).splitlines()
             if not line.startswith(".venv/bin/lexicon build ")]
    assert len(lines) == len(block.group(1).splitlines()) - 1   # only the build is left out
    script = ("set -euo pipefail\n" + "\n".join(lines)).replace(
        "/srv/lexicon", str(server)).replace(".venv/bin/lexicon", str(lexicon_bin))
    p = subprocess.run(["bash", "-c", script], cwd=work, capture_output=True, text=True,
                       env={**os.environ, "HOME": str(homes["dir"] / "home"),
                            "LEXICON_HOME": str(builder)}, timeout=300, check=False)
    assert p.returncode == 0, (p.stdout, p.stderr)
    newest = published.current_id("osps", builder)
    assert (server / "trusted-keys" / "fleet.pub").is_file()
    log = current_log("osps", server)
    assert [(e["by"], e["release"]) for e in log][-2:] == [("install", newest),
                                                           ("rollback", log[-1]["release"])]
    assert log[-1]["was"] == newest and published.current_id("osps", server) != newest


def test_rollback_serves_the_previous_or_a_named_release_checked_and_logged(
        homes: dict[str, Path]) -> None:
    """`lexicon rollback GAME` serves the release built before the current one, `lexicon
    rollback GAME RELEASE` the one named (forward too); each switch is checked as an
    install is, atomic, and logged in CURRENT.log; with nothing older, or a release that
    is not there, the error names the releases there are."""
    builder = homes["builder"]
    newest, old = [r["release"] for r in published.list_releases("osps", builder)]
    assert published.current_id("osps", builder) == newest
    assert lexicon(builder, "check", "osps", "zażółć").returncode == 0
    p = lexicon(builder, "rollback", "osps")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["release"] == old and got["was"] == newest and got["hashed"] is True
    assert published.current_id("osps", builder) == old
    assert lexicon(builder, "check", "osps", "zażółć").returncode == 1   # the old edition's
    last = current_log("osps", builder)[-1]
    assert (last["release"], last["was"], last["by"]) == (old, newest, "rollback")
    p = lexicon(builder, "rollback", "osps")                # nothing older is left
    assert p.returncode == 2 and "error [unknown_release]" in p.stderr, p.stderr
    assert newest in p.stderr and old in p.stderr
    p = lexicon(builder, "rollback", "osps", "osps-20990101T000000Z-00000000")
    assert p.returncode == 2 and "error [unknown_release]" in p.stderr
    assert newest in p.stderr and old in p.stderr          # the releases there are
    assert lexicon(builder, "rollback", "osps", newest).returncode == 0   # forward again
    assert published.current_id("osps", builder) == newest
    assert [e["by"] for e in current_log("osps", builder)][-2:] == ["rollback"] * 2


def test_rollback_to_a_damaged_release_is_refused(homes: dict[str, Path]) -> None:
    builder = homes["builder"]
    newest, old = [r["release"] for r in published.list_releases("osps", builder)]
    data = builder / "releases" / "osps" / old / "records.lmdb" / "data.mdb"
    with open(data, "r+b") as fh:                         # same size, one byte changed
        fh.seek(4096)
        byte = fh.read(1)
        fh.seek(4096)
        fh.write(bytes([byte[0] ^ 0xFF]))
    p = lexicon(builder, "rollback", "osps")
    assert p.returncode == 3 and "error [release_damaged]" in p.stderr, p.stderr
    assert published.current_id("osps", builder) == newest
    assert lexicon(builder, "check", "osps", "zażółć").returncode == 0


def test_key_signature_and_checksum_files_that_are_no_regular_file_are_refused(
        homes: dict[str, Path]) -> None:
    """A FIFO named FILE.sig, FILE.sha256 or *.pub is refused at once (never waited on), and
    /dev/zero linked as a trusted key is refused before it is read. An alarm turns a
    regression (an install blocked opening a FIFO) into a failure, not a hung run."""
    def hung(_signum: int, _frame: object) -> None:
        raise TimeoutError("install blocked on a FIFO")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    try:
        _refuse_special_files(homes)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _refuse_special_files(homes: dict[str, Path]) -> None:
    server = homes["server"]
    for suffix, code in ((".sig", "bad_signature"), (".sha256", "bad_bundle")):
        bundle = signed_bundle(homes)
        beside = bundle.with_name(bundle.name + suffix)
        beside.unlink()
        os.mkfifo(beside)               # opened, it would block: refused before it is read
        refused(server, bundle, code, text="not a regular file")
        beside.unlink()
    bundle = signed_bundle(homes)
    trusted = server / "trusted-keys"
    (trusted / "zero.pub").symlink_to("/dev/zero")
    refused(server, bundle, "bad_key", text="not a regular file")
    (trusted / "zero.pub").unlink()
    os.mkfifo(trusted / "fifo.pub")
    refused(server, bundle, "bad_key", text="not a regular file")
    (trusted / "fifo.pub").unlink()
    big = trusted / "big.pub"        # a regular file, read no further than a key may be long
    big.write_bytes(b"-" * (signing.SIG_FILE_BYTES + 1))
    refused(server, bundle, "bad_key", text="more than")


def test_a_disk_too_small_is_refused_before_writing(homes: dict[str, Path],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = signed_bundle(homes)
    monkeypatch.setattr(shipping.shutil, "disk_usage",
                        lambda _p: shutil_usage(total=1 << 30, used=1 << 30, free=1000))
    refused(homes["server"], bundle, "install_failed", text="1,000 free")


def test_unsigned_bundles_need_allow_unsigned(homes: dict[str, Path]) -> None:
    builder, server, tmp = homes["builder"], homes["server"], homes["dir"]
    out = tmp / "plain.tar"
    assert lexicon(builder, "bundle", "osps", "-o", str(out)).returncode == 0
    assert not out.with_name("plain.tar.sig").exists()
    refused(server, out, "unsigned_bundle", text="--allow-unsigned")
    p = lexicon(server, "install", str(out), "--allow-unsigned")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["signature"] is None and got["allow_unsigned"] is True
    assert published.current_id("osps", server) == published.current_id("osps", builder)


def test_a_corrupted_bundle_is_refused(homes: dict[str, Path]) -> None:
    bundle = signed_bundle(homes)
    data = bytearray(bundle.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bundle.write_bytes(bytes(data))
    refused(homes["server"], bundle, "bad_bundle", text="does not match")
    refused(homes["server"], bundle, "bad_bundle", "--allow-unsigned", text="does not match")


# -- authenticity ------------------------------------------------------------------------

def _swap_records(homes: dict[str, Path]) -> Callable[[str, bytes], bytes | None]:
    """An ``edit`` replacing the record files by those of another build (one more valid
    word, ``kotka``) and the manifest's file table to match."""
    other = homes["dir"] / "other"
    other.mkdir()
    forged = build(other, [*OSPS_OK, rec("kotka")])

    def edit(rel: str, data: bytes) -> bytes:
        if rel.startswith("records.lmdb/"):
            return (forged / rel).read_bytes()
        if rel == "manifest.json":
            m = json.loads(data)
            for name in list(m["files"]):
                if name.startswith("records.lmdb/"):
                    m["files"][name] = {"size": (forged / name).stat().st_size,
                                        "sha256": sha256_file(forged / name)}
            return json.dumps(m).encode()
        return data
    return edit


def test_a_tampered_bundle_with_recomputed_checksums_is_refused_by_its_signature(
        homes: dict[str, Path], tmp_path: Path) -> None:
    """A changed record file, its manifest's table and its .sha256 recomputed: every
    checksum agrees, so only the signature can tell (the issue's reproducer)."""
    server = homes["server"]
    good = signed_bundle(homes)
    forge = _swap_records(homes)
    bad = remake(good, tmp_path / "bad.tar", edit=forge)
    (tmp_path / "bad.tar.sig").write_bytes((tmp_path / "osps.lexbundle.tar.sig").read_bytes())
    refused(server, bad, "bad_signature", text="signs another bundle")
    # the forger signs it with a key of their own: not one this server trusts
    signing.keygen(tmp_path / "forger.key")
    remake(good, bad, edit=forge, key=tmp_path / "forger.key")
    refused(server, bad, "untrusted_key")
    # a signature blob for the right sha256 that the trusted key did not make
    sig = json.loads((tmp_path / "bad.tar.sig").read_text())
    trusted = json.loads((tmp_path / "osps.lexbundle.tar.sig").read_text())
    sig["key_id"] = trusted["key_id"]
    (tmp_path / "bad.tar.sig").write_text(json.dumps(sig))
    refused(server, bad, "bad_signature", text="does not verify")
    for junk in (b"\xff\xfe", b"[]", b"{}"):
        (tmp_path / "bad.tar.sig").write_bytes(junk)
        refused(server, bad, "bad_signature", text="not a bundle signature")
    # without the signature check the checksums alone let it through, and it serves the
    # forged word: which is what --allow-unsigned knowingly accepts
    assert shipping.install(bad, root=server, allow_unsigned=True)["installed"]
    assert json.loads(lexicon(server, "check", "osps", "kotka", "--json").stdout)["valid"]


def test_bad_key_files_are_refused(homes: dict[str, Path], tmp_path: Path) -> None:
    junk = tmp_path / "junk.key"
    junk.write_text("not a key\n")
    p = lexicon(homes["builder"], "bundle", "osps", "-o", str(tmp_path / "x.tar"),
                "--sign", str(junk))
    assert p.returncode == 2 and "error [bad_key]" in p.stderr
    assert not (tmp_path / "x.tar").exists()
    p = lexicon(homes["builder"], "bundle", "osps", "-o", str(tmp_path / "x.tar"),
                "--sign", str(homes["key"]) + ".pub")     # a public key cannot sign
    assert p.returncode == 2 and "error [bad_key]" in p.stderr
    bundle = signed_bundle(homes)
    (homes["server"] / "trusted-keys" / "stray.pub").write_text("hello\n")
    refused(homes["server"], bundle, "bad_key", text="stray.pub")


# -- bundles that would break serving, signed or not ---------------------------------------

def test_a_manifest_listing_no_files_is_refused(homes: dict[str, Path], tmp_path: Path) -> None:
    """The issue's reproducer: only a manifest, with `"files": {}` (it used to install and
    make every osps request a 500). Refused even when a trusted key signed it."""
    good = signed_bundle(homes)

    def only_manifest(rel: str, data: bytes) -> bytes | None:
        if rel != "manifest.json":
            return None
        m = json.loads(data)
        m["files"] = {}
        return json.dumps(m).encode()
    bad = remake(good, tmp_path / "empty.tar", edit=only_manifest, key=homes["key"])
    refused(homes["server"], bad, "bad_bundle",
            text="does not list 8 of the 8 files the release layout needs")
    # the files present but the table emptied: refused from the headers
    bad = remake(good, tmp_path / "empty2.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m.update(files={})))
    refused(homes["server"], bad, "bad_bundle", text="manifest.json does not list it")
    # a needed file missing from both the tar and the table
    def drop(rel: str, data: bytes) -> bytes | None:
        if rel == "indexes/forward.marisa":
            return None
        if rel == "manifest.json":
            m = json.loads(data)
            del m["files"]["indexes/forward.marisa"]
            return json.dumps(m).encode()
        return data
    bad = remake(good, tmp_path / "noindex.tar", edit=drop, key=homes["key"])
    refused(homes["server"], bad, "bad_bundle", text="indexes/forward.marisa")
    # a member the table does not list, or of another size: refused from the headers
    bad = remake(good, tmp_path / "extra.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m["files"].pop("records.lmdb/data.mdb")))
    refused(homes["server"], bad, "bad_bundle", text="'records.lmdb/data.mdb' is")
    bad = remake(good, tmp_path / "grown.tar", key=homes["key"],
                 edit=lambda rel, data: data + b"x" if rel == "records.lmdb/data.mdb" else data)
    refused(homes["server"], bad, "bad_bundle", text="says")
    bad = remake(good, tmp_path / "notable.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m.pop("files")))
    refused(homes["server"], bad, "bad_bundle", text="no file table")


def test_verify_says_a_release_listing_no_files_is_damaged(homes: dict[str, Path]) -> None:
    """`lexicon verify` said ok for the issue's `"files": {}` release: it no longer does."""
    path = published.current_path("osps", homes["server"])
    m = json.loads((path / "manifest.json").read_text())
    m["files"] = {}
    (path / "manifest.json").write_text(json.dumps(m))
    for d in ("records.lmdb", "indexes"):            # only the manifest, as in the bundle
        shutil.rmtree(path / d)
    p = lexicon(homes["server"], "verify", "osps")
    assert p.returncode == 3 and "files the release layout needs" in p.stdout + p.stderr
    # and a server answers 503 release_damaged for that game, not 500 for everything
    from fastapi.testclient import TestClient
    from lexicon.service.app import create_app
    with TestClient(create_app(homes["server"]), raise_server_exceptions=False) as client:
        r = client.get("/v1/games/osps/words/kot")
        assert r.status_code == 503 and r.json()["code"] == "release_damaged"
        assert client.get("/healthz").status_code in (200, 503)
        assert client.get("/v1/games").status_code == 200


@pytest.mark.parametrize("top", ["evil", "osps-evil", "remik-20261201T094325Z-b6b8f3a7",
                                 "osps-20261201T094325Z-b6b8f3a7-x", "osps-2026"])
def test_a_release_id_no_build_makes_is_refused(homes: dict[str, Path], tmp_path: Path,
                                               top: str) -> None:
    good = signed_bundle(homes)
    bad = remake(good, tmp_path / "evil.tar", top=top, key=homes["key"],
                 edit=with_manifest(lambda m: m.update(release=top)))
    refused(homes["server"], bad, "bad_bundle", text="is not a release id of osps")
    assert not (homes["server"] / "releases" / "osps" / top).exists()


def test_a_valid_id_with_a_suffix_installs(homes: dict[str, Path], tmp_path: Path) -> None:
    good = signed_bundle(homes)
    top = published.current_id("osps", homes["builder"]) + "-2"
    bundle = remake(good, tmp_path / "two.tar", top=top, key=homes["key"],
                    edit=with_manifest(lambda m: m.update(release=top)))
    assert shipping.install(bundle, root=homes["server"])["release"] == top
    assert published.current_id("osps", homes["server"]) == top


def test_a_release_of_another_game_or_a_mismatched_manifest_is_refused(
        homes: dict[str, Path], tmp_path: Path) -> None:
    good = signed_bundle(homes)
    bad = remake(good, tmp_path / "g.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m.update(game="nosuchgame")))
    refused(homes["server"], bad, "bad_bundle", text="does not know")
    bad = remake(good, tmp_path / "r.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m.update(
                     release="osps-20261201T094325Z-b6b8f3a7")))
    refused(homes["server"], bad, "bad_bundle", text="the manifest names release")


def test_a_release_whose_canaries_flip_is_refused(homes: dict[str, Path],
                                                 tmp_path: Path) -> None:
    """A build that checked its canaries says so; the install checks them again, on the
    release it unpacked, with the checker that answers players."""
    builder = homes["builder"]
    lost = build(builder, [r for r in OSPS_OK if r.key != "jaźń"])   # not checked: publishes
    good = signed_bundle(homes, "lost.tar", lost.name)
    bad = remake(good, tmp_path / "checked.tar", key=homes["key"],
                 edit=with_manifest(lambda m: m["canaries"].update(checked=True)))
    refused(homes["server"], bad, "bad_bundle", text="canary_failed")


# -- hostile files -----------------------------------------------------------------------

@pytest.mark.parametrize(("body", "text"), [
    (b"[]", "not a release manifest"), (b"\xff\xfe{\x00", "not UTF-8"),
    (b"{\"game\": ", "not JSON"), (b"[" * 100_000, "not JSON"), (b"{}", "no game/release")])
def test_an_unreadable_manifest_is_bad_bundle(homes: dict[str, Path], tmp_path: Path,
                                             body: bytes, text: str) -> None:
    good = signed_bundle(homes)
    bad = remake(good, tmp_path / "m.tar", key=homes["key"],
                 edit=lambda rel, data: body if rel == "manifest.json" else data)
    refused(homes["server"], bad, "bad_bundle", text=text)
    refused(homes["server"], bad, "bad_bundle", "--allow-unsigned", text=text)


def _tar(path: Path, entries: list[tuple[tarfile.TarInfo, bytes | None]],
         mode: str = "w") -> Path:
    with tarfile.open(path, mode, format=tarfile.PAX_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    path.with_name(path.name + ".sha256").write_text(f"{sha256_file(path)}  {path.name}\n")
    return path


def _info(name: str, size: int = 0, kind: bytes = tarfile.REGTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.size = kind, size
    return info


TOP = "osps-20261201T094325Z-b6b8f3a7"
shutil_usage = namedtuple("shutil_usage", "total used free")


def _head(files: dict[str, tuple[int, str]] | None = None
          ) -> list[tuple[tarfile.TarInfo, bytes | None]]:
    """A bundle's first two members: the release directory and a manifest whose table
    lists ``files`` ({path: (size, sha256)})."""
    body = json.dumps({"game": "osps", "release": TOP, "files": {
        rel: {"size": n, "sha256": h} for rel, (n, h) in (files or {}).items()}}).encode()
    return [(_info(TOP, kind=tarfile.DIRTYPE), None),
            (_info(f"{TOP}/manifest.json", len(body)), body)]


def _listed(data: bytes) -> tuple[int, str]:
    return len(data), hashlib.sha256(data).hexdigest()


def test_unsafe_repeated_and_foreign_members_are_refused(homes: dict[str, Path],
                                                        tmp_path: Path) -> None:
    server = homes["server"]
    link = _info(f"{TOP}/manifest.json", kind=tarfile.SYMTYPE)
    link.linkname = "/etc/passwd"
    cases = {
        "link": [(_info(TOP, kind=tarfile.DIRTYPE), None), (link, None)],
        "dotdot": [*_head(), (_info(f"{TOP}/../x", 1), b"x")],
        "foreign": [*_head(), (_info("other/x", 1), b"x")],
        "twice": [*_head({"a": _listed(b"a")}), (_info(f"{TOP}/a", 1), b"a"),
                  (_info(f"{TOP}/a", 1), b"a")],
        "fifo": [*_head(), (_info(f"{TOP}/p", kind=tarfile.FIFOTYPE), None)],
    }
    for name, entries in cases.items():
        bad = _tar(tmp_path / f"{name}.tar", entries)
        refused(server, bad, "bad_bundle", "--allow-unsigned", text="unsafe, repeated or foreign")
    not_tar = tmp_path / "x.tar"
    not_tar.write_bytes(b"hello")
    with pytest.raises(shipping.BadBundle, match="not a readable bundle"):
        shipping.install(not_tar, sha256=sha256_file(not_tar), root=server,
                         allow_unsigned=True)
    with pytest.raises(shipping.BadBundle, match="no checksum"):
        shipping.install(not_tar, root=server, allow_unsigned=True)
    broken = tmp_path / "broken.tar.gz"      # a gzip stream cut short
    whole = gzip.compress(signed_bundle(homes).read_bytes())
    broken.write_bytes(whole[:len(whole) // 2])
    with pytest.raises(shipping.BadBundle, match="not a readable bundle"):
        shipping.install(broken, sha256=sha256_file(broken), root=server, allow_unsigned=True)


def _disk_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def test_a_header_declaring_more_than_a_bundle_may_unpack_is_refused_before_writing(
        homes: dict[str, Path], tmp_path: Path) -> None:
    """A 3 GiB member declared (and listed) in a bundle of a few hundred bytes, against the
    real limit: refused from the header, before its data is read, let alone written."""
    server = homes["server"]
    data = b"".join(info.tobuf(tarfile.PAX_FORMAT) + (body or b"") + b"\0" * (
        -len(body or b"") % 512) for info, body in _head({"records.lmdb/data.mdb": (3 << 30,
                                                                                "0" * 64)}))
    data += _info(f"{TOP}/records.lmdb/data.mdb", 3 << 30).tobuf(tarfile.PAX_FORMAT)
    bomb = tmp_path / "bomb.tar.gz"
    bomb.write_bytes(gzip.compress(data + b"\0" * 4096))
    before = _disk_bytes(server)
    with pytest.raises(shipping.BadBundle, match="MAX_BUNDLE_BYTES"):
        shipping.install(bomb, sha256=sha256_file(bomb), root=server, allow_unsigned=True)
    assert _disk_bytes(server) - before < 4096
    unchanged(server, published.current_id("osps", server))


def test_a_gzip_bomb_is_refused_with_little_written(homes: dict[str, Path], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A 32 MiB member gzipped to ~32 KB: over a 4 MiB cap (the real cap is 2 GiB: the same
    code, a test-sized stream) it is refused from its header; under the cap, its bytes are
    hashed against the manifest before any is written. Either way nothing is written."""
    server = homes["server"]
    monkeypatch.setattr(shipping, "MAX_BUNDLE_BYTES", 4 << 20)
    monkeypatch.setattr(shipping, "HEADER_SLACK", 64 << 10)
    zeros = 32 << 20
    listed = {"records.lmdb/data.mdb": (zeros, "0" * 64)}    # the size it says, not its hash
    entries = [*_head(listed), (_info(f"{TOP}/records.lmdb/data.mdb", zeros), b"\0" * zeros)]
    bomb = _tar(tmp_path / "bomb.tar.gz", entries, mode="w:gz")
    assert bomb.stat().st_size < 100_000
    before = _disk_bytes(server)
    err = refused(server, bomb, "bad_bundle", "--allow-unsigned", text="MAX_BUNDLE_BYTES")
    assert "more than 4,194,304" in err
    assert _disk_bytes(server) - before < 4096
    monkeypatch.setattr(shipping, "MAX_BUNDLE_BYTES", 64 << 20)
    refused(server, bomb, "bad_bundle", "--allow-unsigned", text="does not have the sha256")
    assert _disk_bytes(server) - before < 4096
    # the stream itself is bounded too: a reader never gets past the cap, whatever the
    # headers said (here: none were read)
    with open(bomb, "rb") as raw:
        stream = shipping._Bounded(shipping._open_stream(raw), 1 << 20)
        with pytest.raises(shipping.BadBundle, match="more than 1,048,576"):
            while stream.read(1 << 16):
                pass


def test_unpacking_counts_every_byte_written(homes: dict[str, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer enforces the cap on what it writes, not on what the headers said."""
    bundle = _tar(tmp_path / "two.tar", [
        (_info(TOP, kind=tarfile.DIRTYPE), None),
        (_info(f"{TOP}/a", 3000), b"a" * 3000), (_info(f"{TOP}/b", 3000), b"b" * 3000)])
    with tarfile.open(bundle) as tar:
        members = tar.getmembers()
        monkeypatch.setattr(shipping, "MAX_BUNDLE_BYTES", 5000)   # after the header check
        dest = tmp_path / "dest"
        dest.mkdir()
        with pytest.raises(shipping.BadBundle, match="past 5,000 bytes"):
            shipping._unpack(tar, members, dest)
    assert _disk_bytes(dest) <= 5000


def test_too_many_members_or_too_big_a_manifest_is_refused(
        homes: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = homes["server"]
    monkeypatch.setattr(shipping, "MAX_BUNDLE_MEMBERS", 20)
    files = {f"f{i}": _listed(b"") for i in range(30)}
    many = _tar(tmp_path / "many.tar", [*_head(files)] +
                [(_info(f"{TOP}/{rel}"), b"") for rel in files])
    refused(server, many, "bad_bundle", "--allow-unsigned", text="MAX_BUNDLE_MEMBERS")
    monkeypatch.setattr(shipping, "MAX_BUNDLE_MANIFEST_BYTES", 100)
    big = _tar(tmp_path / "big.tar", [(_info(TOP, kind=tarfile.DIRTYPE), None),
                                      (_info(f"{TOP}/manifest.json", 200), b" " * 200)])
    refused(server, big, "bad_bundle", "--allow-unsigned", text="MAX_BUNDLE_MANIFEST_BYTES")


def test_a_manifest_out_of_place_or_a_listed_file_absent_is_refused(
        homes: dict[str, Path], tmp_path: Path) -> None:
    server = homes["server"]
    late = _tar(tmp_path / "late.tar", [(_info(TOP, kind=tarfile.DIRTYPE), None),
                                        (_info(f"{TOP}/a", 1), b"a"), *_head()[1:]])
    refused(server, late, "bad_bundle", "--allow-unsigned", text="second member")
    absent = _tar(tmp_path / "absent.tar", _head({"records.lmdb/data.mdb": _listed(b"x")}))
    refused(server, absent, "bad_bundle", "--allow-unsigned", text="lacks 1 file")


def test_install_as_a_process_exits_3_without_a_traceback(homes: dict[str, Path],
                                                         tmp_path: Path) -> None:
    from conftest import lexicon_process
    good = signed_bundle(homes)
    bad = remake(good, tmp_path / "m.tar", key=homes["key"],
                 edit=lambda rel, data: b"[]" if rel == "manifest.json" else data)
    p = lexicon_process(homes["server"], "install", str(bad))
    assert p.returncode == 3 and "error [bad_bundle]" in p.stderr
    assert "Traceback" not in p.stderr
