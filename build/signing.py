"""Who made a bundle: ed25519 signatures over its sha256, checked against trusted keys.

A bundle's ``.sha256`` only says the bytes arrived as written: anyone who can replace the
tar can write a matching checksum (and recompute the manifest's file table). A signature
says *who* wrote them. The build machine holds a private key (``lexicon keygen``: PKCS#8
PEM, mode 0600, never copied); every server holds the public keys it trusts as ``*.pub``
files (PEM SubjectPublicKeyInfo) in ``$LEXICON_HOME/trusted-keys/``.

``lexicon bundle GAME --sign KEY`` writes ``FILE.sig`` beside the bundle: a small JSON
object with the bundle's sha256, the signing key's id (the first 16 hex digits of the
sha256 of its 32 raw public bytes) and the base64 ed25519 signature of
``lexicon-bundle-signature-1\\n<sha256 hex>``. Signing the digest, not the bytes, means the
bundle is read once (its sha256 is needed anyway); sha256 is collision-resistant, so a
signature over it binds the bytes. The prefix keeps the signature from meaning anything
else. ``lexicon install`` recomputes the sha256 and refuses a bundle whose signature is
missing (``unsigned_bundle``), made by a key it does not trust (``untrusted_key``) or that
does not verify (``bad_signature``).

The library is ``cryptography`` (pyca): ed25519 through OpenSSL, keys in the standard PEM
forms that ``openssl pkey`` reads.
"""

from __future__ import annotations

import base64
import binascii
import errno
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from lexicon import atomic, userfile
from lexicon.errors import EXIT_FAILED, EXIT_USAGE, BadBundle, LexiconError

FORMAT = "lexicon-bundle-signature-1"
SIG_SUFFIX = ".sig"
PUB_SUFFIX = ".pub"
TRUSTED_DIR = "trusted-keys"
DEFAULT_KEY = "lexicon-signing.key"
SIG_FILE_BYTES = 64 << 10     # a signature or key file is ~400 bytes: more is not one


class BadKey(LexiconError):
    """A key file that is not an ed25519 key of the expected kind (CLI exit 2; 3 for a key
    of the server's own trusted-keys directory, which the caller did not name)."""

    code = "bad_key"
    status = 400
    exit_code = EXIT_USAGE


def _message(sha256: str) -> bytes:
    return f"{FORMAT}\n{sha256}".encode("ascii")


def key_id(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.PEM,
                               serialization.PublicFormat.SubjectPublicKeyInfo)


def keygen(output: Path | None = None) -> dict[str, Any]:
    """Write a new private key to ``output`` (mode 0600) and its public key to
    ``output.pub``; never overwrites either (``key_exists``)."""
    private_path = Path(output or DEFAULT_KEY)
    public_path = private_path.with_name(private_path.name + PUB_SUFFIX)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    written: list[Path] = []
    try:
        for path in (private_path, public_path):
            if path.exists() or path.is_symlink():   # OSError: a name too long
                raise LexiconError(f"{path} exists; not overwriting a key (choose another "
                                   f"--output or move it away)", code="key_exists",
                                   detail={"path": str(path)})
        # O_EXCL: created here, with its final mode, whatever the umask: never world-readable
        _create(private_path, pem, 0o600, written)
        os.chmod(private_path, 0o600)
        _create(public_path, public_pem(key.public_key()), 0o644, written)
    except OSError as exc:   # no half pair: a private key without its .pub is removed
        for path in written:
            path.unlink(missing_ok=True)
        if isinstance(exc, FileExistsError):   # made meanwhile by someone else
            raise LexiconError(f"{exc.filename} exists; not overwriting a key",
                               code="key_exists", detail={"path": str(exc.filename)}) from None
        where = Path(exc.filename or private_path)
        said = f"cannot write the key {where} ({exc.strerror or exc}); no key was written"
        if exc.errno in _PATH_ERRORS:   # the path given is wrong: a usage error (exit 2)
            raise LexiconError(said + ": choose another --output", code="key_not_written",
                               status=400, detail={"path": str(where)}) from None
        raise LexiconError(said, code="key_not_written", status=500,   # the machine (exit 3)
                           detail={"path": str(where)}) from None
    return {"private_key": str(private_path), "public_key": str(public_path),
            "key_id": key_id(key.public_key())}


#: errors that say the path given is wrong (a usage error, exit 2), not the machine
_PATH_ERRORS = {errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.EISDIR, errno.ELOOP}


def _create(path: Path, data: bytes, mode: int, written: list[Path]) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    written.append(path)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _load(path: Path, *, private: bool) -> Ed25519PrivateKey | Ed25519PublicKey:
    kind, want = ("private", Ed25519PrivateKey) if private else ("public", Ed25519PublicKey)
    try:   # a regular file, bounded: a FIFO or /dev/zero named *.pub is refused, not read
        raw = userfile.read_bounded(path, SIG_FILE_BYTES, regular=True)
        key = (serialization.load_pem_private_key(raw, password=None) if private
               else serialization.load_pem_public_key(raw))
    except (OSError, ValueError, TypeError) as exc:   # TypeError: a passphrase-protected key
        # (ValueError: also userfile.TooLarge)
        raise BadKey(f"{path}: not a readable ed25519 {kind} key (PEM) ({exc})",
                     detail={"path": str(path)}) from exc
    if not isinstance(key, want):
        raise BadKey(f"{path}: a {type(key).__name__}, not an ed25519 {kind} key",
                     detail={"path": str(path)})
    return key


def load_private(path: Path) -> Ed25519PrivateKey:
    """The signing key ``lexicon keygen`` wrote (PKCS#8 PEM, unencrypted)."""
    key = _load(path, private=True)
    assert isinstance(key, Ed25519PrivateKey)
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    """A public key as ``lexicon keygen`` wrote it (``KEY.pub``, PEM)."""
    key = _load(path, private=False)
    assert isinstance(key, Ed25519PublicKey)
    return key


def sign(bundle: Path, sha256: str, key: Ed25519PrivateKey) -> dict[str, Any]:
    """Write ``bundle.sig`` for a bundle whose sha256 is ``sha256``; returns its fields."""
    sig = {"format": FORMAT, "algorithm": "ed25519", "key_id": key_id(key.public_key()),
           "bundle": Path(bundle).name, "sha256": sha256,
           "signature": base64.b64encode(key.sign(_message(sha256))).decode("ascii")}
    path = Path(bundle).with_name(Path(bundle).name + SIG_SUFFIX)
    atomic.write_text(path, json.dumps(sig, indent=1) + "\n")
    return {**sig, "path": str(path)}


def trusted_keys(directory: Path) -> dict[str, tuple[Path, Ed25519PublicKey]]:
    """The trusted public keys, by key id: every ``*.pub`` file of ``directory``. One that
    is not an ed25519 public key is an error (``bad_key``), not silently ignored."""
    out: dict[str, tuple[Path, Ed25519PublicKey]] = {}
    if not Path(directory).is_dir():
        return out
    for path in sorted(Path(directory).glob("*" + PUB_SUFFIX)):
        try:
            key = load_public(path)
        except BadKey as exc:   # the server's own key, not what was asked: install fails (3)
            raise BadKey(exc.message, detail=exc.detail, exit_code=EXIT_FAILED) from exc
        out[key_id(key)] = (path, key)
    return out


def _about(bundle: Path, **detail: Any) -> dict[str, Any]:
    return {"bundle": str(bundle), **detail}


def verify(bundle: Path, sha256: str, signature: Path | None, trusted_dir: Path
           ) -> dict[str, Any]:
    """Check the signature of a bundle whose bytes hash to ``sha256`` (computed by the
    caller) against the keys in ``trusted_dir``; returns the key's id and file."""
    name = Path(bundle).name
    sig_path = Path(signature) if signature else Path(bundle).with_name(name + SIG_SUFFIX)
    where = {"signature": str(sig_path)}
    try:   # a regular file only (a FIFO would hang the install), read bounded
        raw = userfile.read_bounded(sig_path, SIG_FILE_BYTES, regular=True)
    except FileNotFoundError:
        raise BadBundle(f"{name} is not signed: no {sig_path.name} beside it. Sign bundles "
                        f"with `lexicon bundle GAME --sign KEY`, or install an unsigned one "
                        f"knowingly with --allow-unsigned", code="unsigned_bundle",
                        detail=_about(bundle, **where)) from None
    except OSError as exc:
        raise BadBundle(f"{sig_path} cannot be read ({exc.strerror})", code="bad_signature",
                        detail=_about(bundle, **where)) from exc
    except userfile.TooLarge as exc:
        raise BadBundle(f"{sig_path.name} is not a bundle signature ({exc})",
                        code="bad_signature", detail=_about(bundle, **where)) from None
    try:
        sig = json.loads(raw.decode("utf-8"))
        if not isinstance(sig, dict) or sig.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} object")
        claimed, kid = sig.get("sha256"), sig.get("key_id")
        if not (isinstance(claimed, str) and isinstance(kid, str)):
            raise ValueError("no sha256 or key_id")
        blob = base64.b64decode(str(sig.get("signature", "")), validate=True)
    except (ValueError, binascii.Error) as exc:   # UnicodeDecodeError, JSONDecodeError too
        raise BadBundle(f"{sig_path.name} is not a bundle signature ({exc})",
                        code="bad_signature", detail=_about(bundle, **where)) from exc
    if claimed != sha256:
        raise BadBundle(f"{sig_path.name} signs another bundle (sha256 {claimed[:64]}), not "
                        f"this one ({sha256})", code="bad_signature",
                        detail=_about(bundle, signed_sha256=claimed[:64], sha256=sha256,
                                      **where))
    keys = trusted_keys(trusted_dir)
    if kid not in keys:
        raise BadBundle(f"{name} is signed by key {kid[:32]}, which this server does not "
                        f"trust: put its public key (`lexicon keygen` wrote it as KEY.pub) "
                        f"in {trusted_dir}/ ({len(keys)} trusted now)", code="untrusted_key",
                        detail=_about(bundle, key_id=kid[:32], trusted=sorted(keys),
                                      trusted_dir=str(trusted_dir)))
    path, key = keys[kid]
    try:
        key.verify(blob, _message(sha256))
    except InvalidSignature:
        raise BadBundle(f"the signature of {name} does not verify with trusted key {kid} "
                        f"({path.name}): the bundle or its signature was altered",
                        code="bad_signature", detail=_about(bundle, key_id=kid, **where)
                        ) from None
    return {"key_id": kid, "trusted_key": str(path), **where}
