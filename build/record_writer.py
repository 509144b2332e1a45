"""Writing a release's record store (``records.lmdb/``): the encoder of the format that
:mod:`lexicon.store.recordfile` reads.

A builder splits each record into its shape and its own bytes (:func:`split_shared`, in the
build's worker processes); the release writer numbers the shapes and writes the store
(:func:`write_store`), and ``lexicon amend`` writes a parent's store again with a few
records replaced (:func:`amend_store`). The runtime only reads a store, so the encoder lives
on the build side; the format (the placeholders, the block size, the databases, the key
limit) is the reader's and is imported from it.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import lmdb

from lexicon.store.recordfile import (
    FORMAT,
    LEMMA_MARK,
    MAP_SIZE,
    MAX_KEY_BYTES,
    META_DB,
    NAMED_DBS,
    RECORDS_DB,
    SHAPE_BLOCK,
    SHAPES_DB,
    WORD_MARK,
    RecordStore,
    Split,
    get_varint,
)
from lexicon.store.records import Record

LONG_SUFFIX = 6             # a lemma rule's suffix longer than this is stored per record


def put_varint(n: int, out: bytearray) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def put_text(text: str, out: bytearray) -> None:
    raw = text.encode()
    put_varint(len(raw), out)
    out += raw


def _template(text: str, word: str, lemma: str | None) -> str | None:
    """``text`` with the word and the lemma as placeholders; None if it cannot round-trip."""
    if WORD_MARK in text or LEMMA_MARK in text:
        return None
    out = text.replace(word, WORD_MARK) if word else text
    if lemma:
        out = out.replace(lemma, LEMMA_MARK)
    return out


def _lemma_rule(word: str, lemma: str) -> tuple[int, str]:
    common = 0
    for a, b in zip(word, lemma, strict=False):
        if a != b:
            break
        common += 1
    return len(word) - common, lemma[common:]


_shape_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""A shape as canonical JSON: ``json.dumps`` with these options, without making an encoder
for each of the millions of records a build splits."""


def split(rec: Record) -> tuple[str, bytes]:
    """(shape as canonical JSON, payload without the shape number) of one record."""
    inline = bytearray()
    shape: dict[str, Any] = {}
    if rec.word != rec.key:
        if rec.word == rec.key.capitalize():
            shape["w"] = 1
        else:
            shape["w"] = 2
            put_text(rec.word, inline)
    lemma0 = rec.analyses[0].lemma if rec.analyses else None
    if rec.reason_code:
        shape["r"] = rec.reason_code
    if rec.reason_message is not None:
        shape["m"] = _texts([rec.reason_message], rec.word, lemma0, inline)
    if rec.analyses:
        rows = []
        for a in rec.analyses:
            cut, suffix = _lemma_rule(rec.word, a.lemma)
            row: list[Any]
            if len(suffix) > LONG_SUFFIX:
                row = [-1]
                put_text(a.lemma, inline)
            else:
                row = [cut, suffix]
            row += [a.tags, a.source]
            if a.labels:
                row.append(list(a.labels))
            rows.append(row)
        shape["a"] = rows
    if rec.sources:
        shape["s"] = rec.sources
    if rec.category:
        shape["c"] = rec.category
    if rec.evidence:
        shape["e"] = _texts(rec.evidence, rec.word, lemma0, inline)
    return _shape_text(shape), bytes(inline)


def _texts(texts: list[str], word: str, lemma: str | None, inline: bytearray) -> list[Any]:
    """Templates where the text round-trips through placeholders, else ``0`` + inline text."""
    out: list[Any] = []
    for text in texts:
        tpl = _template(text, word, lemma)
        if tpl is None:
            out.append(0)
            put_text(text, inline)
        else:
            out.append(tpl)
    return out


def encode_value(sid: int, own: bytes) -> bytes:
    """The value of a record: its shape number as a varint, then its own bytes. Staging
    (:class:`build.release_writer.ReleaseWriter`) writes the same, with provisional numbers."""
    head = bytearray()
    put_varint(sid, head)
    return bytes(head) + own


def split_shared(rec: Record, shapes: dict[str, str]) -> Split:
    """:func:`split` for a build worker to send back: equal shapes are one string in
    ``shapes`` (the shard's own), so pickling a shard writes each shape once."""
    shape, own = split(rec)
    return Split(rec.key, rec.valid, shapes.setdefault(shape, shape), own)


def split_all(records: Iterable[Record]) -> Iterator[Split]:
    for rec in records:
        shape, own = split(rec)
        yield Split(rec.key, rec.valid, shape, own)


def _shape_blocks(texts: list[str]) -> Iterator[tuple[bytes, bytes]]:
    """(block number, zlib block) of the numbered shape texts."""
    for b in range(0, len(texts), SHAPE_BLOCK):
        chunk = [t.encode() for t in texts[b:b + SHAPE_BLOCK]]
        head = len(chunk).to_bytes(2, "little") + array("H", map(len, chunk)).tobytes()
        yield (b // SHAPE_BLOCK).to_bytes(4, "big"), zlib.compress(head + b"".join(chunk), 9)


def _meta_value(n: int | str) -> bytes:
    return str(n).encode("ascii")


def _write(out: Path, values: Iterator[tuple[bytes, bytes]], texts: list[str],
           digest: Any, tally: Callable[[], tuple[int, int, int]]) -> dict[str, Any]:
    """Write a store: ``values`` (key order, hashed as they pass), the numbered shape
    ``texts`` and the meta; ``tally()``, asked once the values are written, is (admitted
    records, all records, admitted shapes). Returns the store's figures."""
    out.mkdir(parents=True, exist_ok=True)
    env = lmdb.open(str(out), map_size=MAP_SIZE, max_dbs=NAMED_DBS, sync=False,
                    metasync=False, lock=True)
    try:
        with env.begin(write=True) as txn:
            db = env.open_db(RECORDS_DB, txn=txn)
            txn.cursor(db).putmulti(values, append=True)
            n_valid, n_all, valid_shapes = tally()
            blocks = list(_shape_blocks(texts))
            for bkey, block in blocks:
                digest.update(bkey + len(block).to_bytes(4, "big") + block)
            txn.cursor(env.open_db(SHAPES_DB, txn=txn)).putmulti(blocks, append=True)
            meta = {b"format": FORMAT, b"rejected": n_all - n_valid,
                    b"shapes": len(texts), b"valid": n_valid, b"valid_shapes": valid_shapes}
            txn.cursor(env.open_db(META_DB, txn=txn)).putmulti(
                ((k, _meta_value(v)) for k, v in sorted(meta.items())), append=True)
        env.sync(True)
    finally:
        env.close()
    (out / "lock.mdb").unlink(missing_ok=True)   # a published store is opened lock=False
    return {"format": FORMAT, "shapes": len(texts), "valid_shapes": valid_shapes,
            "valid": n_valid, "rejected": n_all - n_valid, "sha256": digest.hexdigest(),
            "bytes": {p.name: p.stat().st_size for p in sorted(out.iterdir())}}


def write_store(records: Iterable[Split], out: Path) -> dict[str, Any]:
    """Write split ``records`` (one per key, any order) as ``out`` (an LMDB directory);
    returns its figures, ``sha256`` among them.

    Everything is collected first because shape numbers (by frequency) are known only
    once every record has been seen; records then go to LMDB in key order with
    ``append`` (dense pages, no page splits) in one transaction.
    """
    shape_ids: dict[tuple[bool, str], int] = {}
    shape_keys: list[tuple[bool, str]] = []
    keys: list[bytes] = []
    sids = array("I")
    owns: list[bytes] = []
    ordered = True
    for rec in records:
        sk = (rec.valid, rec.shape)
        sid = shape_ids.get(sk)
        if sid is None:
            sid = shape_ids[sk] = len(shape_keys)
            shape_keys.append(sk)
        k = rec.key.encode()
        if len(k) > MAX_KEY_BYTES:
            raise ValueError(f"a key of {len(k)} bytes: LMDB keys are at most {MAX_KEY_BYTES}")
        if ordered and keys and keys[-1] >= k:
            ordered = False
        keys.append(k)
        sids.append(sid)
        owns.append(rec.own)
    uses = [0] * len(shape_keys)
    for sid in sids:
        uses[sid] += 1
    # admitted shapes first (a verdict is a range), each group by frequency, ties by text
    order = sorted(range(len(shape_keys)),
                   key=lambda s: (not shape_keys[s][0], -uses[s], shape_keys[s][1]))
    final = array("I", bytes(4 * len(order)))
    for new, old in enumerate(order):
        final[old] = new
    valid_shapes = sum(1 for s in order if shape_keys[s][0])
    rows = sorted(range(len(keys)), key=keys.__getitem__) if not ordered else range(len(keys))
    for i in range(1, len(rows)) if not ordered else ():
        if keys[rows[i - 1]] == keys[rows[i]]:
            raise ValueError(f"key {keys[rows[i]].decode()!r} written twice")
    n_valid = sum(uses[s] for s in range(len(shape_keys)) if shape_keys[s][0])
    digest = hashlib.sha256()

    def values() -> Iterator[tuple[bytes, bytes]]:
        for i in rows:
            kv = (keys[i], encode_value(final[sids[i]], owns[i]))
            digest.update(len(kv[0]).to_bytes(2, "big") + kv[0]
                          + len(kv[1]).to_bytes(4, "big") + kv[1])
            yield kv

    return _write(out, values(), [shape_keys[s][1] for s in order], digest,
                  lambda: (n_valid, len(keys), valid_shapes))


def amend_store(parent: RecordStore, replaced: Iterable[Split],
                out: Path) -> tuple[dict[str, Any], dict[tuple[bool, str], int]]:
    """Write ``out`` as ``parent`` with the records of ``replaced`` put in place of (or
    beside) the parent's records of their keys; returns write_store's figures and the
    uses of every shape, ``(admitted?, shape JSON) -> records`` (what a count needs).

    An amend changes a few records of millions, so the others are copied byte for byte
    instead of being decoded and encoded again: the parent's shape numbering is kept and
    the overrides' new shapes are appended. Admitted shapes must stay numbered below
    ``valid_shapes``, so new admitted shapes shift the rejected shapes up by their number
    and only the rejected records' varints are rewritten then. The sha256 is write_store's
    recipe (keys and values in key order, then the shape blocks).
    """
    vs = parent.valid_shapes
    n_shapes = int(parent.meta["shapes"])
    texts = [parent.shape_text(s).decode() for s in range(n_shapes)]
    ids = {(s < vs, t): s for s, t in enumerate(texts)}
    new = sorted(replaced, key=lambda rec: rec.key)
    added: dict[tuple[bool, str], None] = {}        # the overrides' new shapes, in order
    for rec in new:
        sk = (rec.valid, rec.shape)
        if sk not in ids:
            added.setdefault(sk)
    new_valid = [t for ok, t in added if ok]
    new_rejected = [t for ok, t in added if not ok]
    shift = len(new_valid)
    final_texts = texts[:vs] + new_valid + texts[vs:] + new_rejected
    final = {(s < vs + shift, t): s for s, t in enumerate(final_texts)}
    pending: list[tuple[bytes, bytes, int]] = []
    for rec in new:
        k = rec.key.encode()
        if len(k) > MAX_KEY_BYTES:
            raise ValueError(f"a key of {len(k)} bytes: LMDB keys are at most {MAX_KEY_BYTES}")
        if pending and pending[-1][0] == k:
            raise ValueError(f"key {rec.key!r} written twice")
        sid = final[rec.valid, rec.shape]
        pending.append((k, encode_value(sid, rec.own), sid))
    uses = [0] * len(final_texts)
    digest = hashlib.sha256()

    def emit(k: bytes, v: bytes) -> tuple[bytes, bytes]:
        digest.update(len(k).to_bytes(2, "big") + k + len(v).to_bytes(4, "big") + v)
        return k, v

    def values() -> Iterator[tuple[bytes, bytes]]:
        i, n = 0, len(pending)
        with parent.env.begin(db=parent.db) as txn:
            for k, v in txn.cursor():
                while i < n and pending[i][0] <= k:
                    pk, pv, psid = pending[i]
                    i += 1
                    uses[psid] += 1
                    yield emit(pk, pv)
                    if pk == k:
                        break
                else:
                    b = v[0]
                    sid, pos = (b, 1) if b < 0x80 else get_varint(v, 0)
                    if shift and sid >= vs:
                        sid += shift
                        v = encode_value(sid, v[pos:])
                    uses[sid] += 1
                    yield emit(k, v)
        for pk, pv, psid in pending[i:]:
            uses[psid] += 1
            yield emit(pk, pv)

    figures = _write(out, values(), final_texts, digest,
                     lambda: (sum(uses[:vs + shift]), sum(uses), vs + shift))
    shape_uses = {(s < vs + shift, t): n for s, (t, n) in enumerate(zip(final_texts, uses,
                                                                      strict=True)) if n}
    return figures, shape_uses
