"""The compact on-disk form of a release's records: marisa key tries, shapes, blocks.

A release must explain every form it knows (reason, analyses, sources, evidence) yet stay
small: millions of Polish forms share a few thousand ways of being explained. So a record
is split in two:

* its **shape**: everything that does not depend on the word itself. A lemma is stored as
  a rule against the word (cut ``n`` letters, append a suffix: ``kotami`` -> ``kot`` is
  ``(3, "")``, shared by every noun declined like it), and a message or evidence text has
  the word and the first lemma replaced by placeholders (``"dative of \\x02"``). Shapes are
  numbered by frequency, so the commonest take one byte;
* its **payload**: the shape number as a varint, then only what is the word's own (its
  display spelling when that is not the key, a lemma no rule shares).

Keys are not stored beside their payloads: ``valid.marisa`` and ``rejected.marisa`` hold
them (memory-mapped), and a key's marisa id is its payload's position. Payloads are grouped
``BLOCK`` to a block with a header of their lengths (see :func:`write_blocks`), stored as
they are (``*.raw``: a read is a slice; inflating a zlib block cost Kvizovka 9 us a read,
twice the LMDB layout's whole lookup); shapes, read once and cached, are zlib blocks
(``*.dat``). ``*.idx`` holds the blocks' byte offsets (native uint32). The valid
trie is also the batch hot path's membership set (``indexes/words.marisa`` is a hard link
to it), so a membership test never touches a block.

Files in ``records/``: ``valid.marisa rejected.marisa valid.raw valid.idx rejected.raw
rejected.idx shapes.dat shapes.idx`` (shapes are blocks of compact JSON; releases written
earlier this session hold zlib ``valid.dat``/``rejected.dat``, still read). Every file is a
pure function of the records, so identical records give byte-identical files.
"""

from __future__ import annotations

import json
import mmap
import zlib
from array import array
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import marisa_trie

from lexicon.records import Analysis, Record

RECORDS_DIR = "records"
FORMAT = 1
BLOCK = 32                 # payloads per block: a get decompresses about 100-500 bytes
SHAPE_BLOCK = 32
WORD_MARK = "\x01"         # placeholders in a shared message/evidence template
LEMMA_MARK = "\x02"
LONG_SUFFIX = 6             # a lemma rule's suffix longer than this is stored per record
KINDS = ("valid", "rejected")
CACHE_BLOCKS = 512


# -- small codecs ------------------------------------------------------------------------

def put_varint(n: int, out: bytearray) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def get_varint(buf: bytes, pos: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7


def put_text(text: str, out: bytearray) -> None:
    raw = text.encode()
    put_varint(len(raw), out)
    out += raw


def get_text(buf: bytes, pos: int) -> tuple[str, int]:
    n, pos = get_varint(buf, pos)
    return buf[pos:pos + n].decode(), pos + n


def _template(text: str, word: str, lemma: str | None) -> str | None:
    """``text`` with the word and the lemma as placeholders; None if it cannot round-trip."""
    if WORD_MARK in text or LEMMA_MARK in text:
        return None
    out = text.replace(word, WORD_MARK) if word else text
    if lemma:
        out = out.replace(lemma, LEMMA_MARK)
    return out


def _fill(template: str, word: str, lemma: str | None) -> str:
    if lemma is not None:
        template = template.replace(LEMMA_MARK, lemma)
    return template.replace(WORD_MARK, word)


def _lemma_rule(word: str, lemma: str) -> tuple[int, str]:
    common = 0
    for a, b in zip(word, lemma, strict=False):
        if a != b:
            break
        common += 1
    return len(word) - common, lemma[common:]


# -- splitting a record into shape + payload ------------------------------------------------

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
    return json.dumps(shape, ensure_ascii=False, separators=(",", ":")), bytes(inline)


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


def join(key: str, valid: bool, shape: dict[str, Any], payload: bytes, pos: int) -> Record:
    """The inverse of :func:`split`: ``payload[pos:]`` is the record's inline part."""
    mode = shape.get("w", 0)
    if mode == 0:
        word = key
    elif mode == 1:
        word = key.capitalize()
    else:
        word, pos = get_text(payload, pos)
    pending_msg = shape.get("m")
    # inline texts are written message first, then lemmas, then evidence: keep that order
    message: str | None = None
    msg_parts: list[Any] = []
    if pending_msg is not None:
        for part in pending_msg:
            if part == 0:
                text, pos = get_text(payload, pos)
                msg_parts.append((text,))
            else:
                msg_parts.append(part)
    analyses = []
    for row in shape.get("a", ()):
        if row[0] == -1:
            lemma, pos = get_text(payload, pos)
            rest = row[1:]
        else:
            cut, suffix = row[0], row[1]
            lemma = (word[:-cut] if cut else word) + suffix
            rest = row[2:]
        labels = tuple(rest[2]) if len(rest) > 2 else ()
        analyses.append(Analysis(lemma, rest[0], rest[1], labels))
    lemma0 = analyses[0].lemma if analyses else None
    if pending_msg is not None:
        message = "".join(p[0] if isinstance(p, tuple) else _fill(p, word, lemma0)
                          for p in msg_parts)
    evidence = []
    for part in shape.get("e", ()):
        if part == 0:
            text, pos = get_text(payload, pos)
            evidence.append(text)
        else:
            evidence.append(_fill(part, word, lemma0))
    return Record(key=key, word=word, valid=valid, reason_code=shape.get("r"),
                  reason_message=message, analyses=analyses,
                  sources=list(shape.get("s", ())), category=shape.get("c"),
                  evidence=evidence)


# -- block files ----------------------------------------------------------------------------

def write_blocks(payloads: Iterable[bytes], path: Path, per_block: int,
                 compress: bool = True) -> None:
    """``path.dat``: zlib blocks of ``per_block`` payloads (``path.raw`` uncompressed);
    ``path.idx``: their offsets.

    A zlib block is the count (uint16) and the payload lengths (uint16 each), then the
    payloads. A raw block is the count (one byte), the width of a length (1 or 2 bytes:
    2 only when a payload of the block is 255 bytes or more), the lengths, the payloads.
    """
    offsets = array("I", [0])
    with open(path.with_suffix(".dat" if compress else ".raw"), "wb") as fh:
        pending: list[bytes] = []

        def flush() -> None:
            if compress:
                lengths = array("H", map(len, pending))
                head = len(pending).to_bytes(2, "little") + lengths.tobytes()
                block = zlib.compress(head + b"".join(pending), 9)
            else:
                wide = max(map(len, pending)) >= 0xFF
                lengths = array("H" if wide else "B", map(len, pending))
                block = bytes((len(pending), 2 if wide else 1)) + lengths.tobytes() + \
                    b"".join(pending)
            fh.write(block)
            if offsets[-1] + len(block) >= 1 << 32:
                raise OverflowError(f"{path.name}: more than 4 GiB of records")
            offsets.append(offsets[-1] + len(block))
            pending.clear()

        for payload in payloads:
            if len(payload) > 0xFFFF:
                raise ValueError(f"{path.name}: a record of {len(payload)} bytes")
            pending.append(payload)
            if len(pending) == per_block:
                flush()
        if pending:
            flush()
    with open(path.with_suffix(".idx"), "wb") as fh:
        offsets.tofile(fh)


class BlockFile:
    """Reads payload ``i`` of a block file (memory-mapped; recent blocks cached)."""

    def __init__(self, path: Path) -> None:
        self._maps: list[mmap.mmap] = []
        self.compressed = path.with_suffix(".dat").exists() or \
            not path.with_suffix(".raw").exists()
        suffix = ".dat" if self.compressed else ".raw"
        self.data = self._map(path.with_suffix(suffix))
        idx = self._map(path.with_suffix(".idx"))
        if len(idx) % 4 or (len(idx) // 4 or 1) - 1 > len(self.data) or (
                len(idx) and int.from_bytes(idx[-4:], "little") != len(self.data)):
            said = int.from_bytes(idx[-4:], "little") if len(idx) >= 4 else "?"
            problem = f"{path.name}{suffix}: {len(self.data)} bytes, its index says {said}"
            self.close()
            raise ValueError(problem)
        self.offsets = memoryview(idx).cast("I")
        self.block = lru_cache(maxsize=CACHE_BLOCKS)(self._block)
        # every block but the last holds the same number of payloads: the first one says
        # how many, so a reader needs no constant of the writer's
        self.per_block = len(self._block(0)[1]) if len(self) else 1

    def _map(self, path: Path) -> mmap.mmap | bytes:
        with open(path, "rb") as fh:
            if fh.seek(0, 2) == 0:
                return b""
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        self._maps.append(mapped)
        return mapped

    def __len__(self) -> int:
        return max(len(self.offsets) - 1, 0)

    def _block(self, b: int) -> tuple[bytes, array]:
        raw = self.data[self.offsets[b]:self.offsets[b + 1]]
        if not self.compressed:
            n, width = raw[0], raw[1]
            lengths = array("B" if width == 1 else "H")
            lengths.frombytes(raw[2:2 + n * width])
            return raw[2 + n * width:], lengths
        raw = zlib.decompress(raw)
        n = int.from_bytes(raw[:2], "little")
        lengths = array("H")
        lengths.frombytes(raw[2:2 + 2 * n])
        return raw[2 + 2 * n:], lengths

    def payload(self, i: int) -> bytes:
        data, lengths = self.block(i // self.per_block)
        j = i % self.per_block
        start = sum(lengths[:j])
        return data[start:start + lengths[j]]

    def payloads(self) -> Iterator[bytes]:
        """Every payload in order (a full scan: export, amend, diff)."""
        for b in range(len(self)):
            data, lengths = self._block(b)
            at = 0
            for n in lengths:
                yield data[at:at + n]
                at += n

    def close(self) -> None:
        if hasattr(self, "offsets"):
            self.offsets.release()
        for m in self._maps:
            m.close()


# -- writing and reading a whole store -----------------------------------------------------

class Split(NamedTuple):
    """A record as the store keeps it: key, verdict, shape (JSON text), own bytes."""

    key: str
    valid: bool
    shape: str
    own: bytes


def split_all(records: Iterable[Record]) -> Iterator[Split]:
    for rec in records:
        shape, own = split(rec)
        yield Split(rec.key, rec.valid, shape, own)


def write_store(records: Iterable[Split], out: Path) -> dict[str, Any]:
    """Write split ``records`` (one per key) as a record store in ``out``; returns figures.

    Everything is collected first because a payload's place is its key's marisa id, known
    only once the trie of all keys is built; shapes are then numbered by frequency (ties by
    their text) so the output is the same for the same records in any order.
    """
    out.mkdir(parents=True, exist_ok=True)
    shape_ids: dict[str, int] = {}
    shape_texts: list[str] = []
    keys: dict[str, list[str]] = {k: [] for k in KINDS}
    shapes: dict[str, array] = {k: array("I") for k in KINDS}
    inline: dict[str, list[bytes]] = {k: [] for k in KINDS}
    for rec in records:
        shape, own = rec.shape, rec.own
        sid = shape_ids.get(shape)
        if sid is None:
            sid = shape_ids[shape] = len(shape_texts)
            shape_texts.append(shape)
        kind = KINDS[0] if rec.valid else KINDS[1]
        keys[kind].append(rec.key)
        shapes[kind].append(sid)
        inline[kind].append(own)
    uses = [0] * len(shape_texts)
    for kind in KINDS:
        for sid in shapes[kind]:
            uses[sid] += 1
    order = sorted(range(len(shape_texts)), key=lambda s: (-uses[s], shape_texts[s]))
    final = array("I", bytes(4 * len(order)))
    for new, old in enumerate(order):
        final[old] = new
    write_blocks((shape_texts[s].encode() for s in order), out / "shapes", SHAPE_BLOCK)
    figures: dict[str, Any] = {"format": FORMAT, "shapes": len(order)}
    for kind in KINDS:
        trie = marisa_trie.Trie(keys[kind])
        trie.save(str(out / f"{kind}.marisa"))
        placed: list[bytes] = [b""] * len(keys[kind])
        for key, sid, own in zip(keys[kind], shapes[kind], inline[kind], strict=True):
            head = bytearray()
            put_varint(final[sid], head)
            placed[trie[key]] = bytes(head) + own
        # uncompressed: a read then costs a slice, not an inflate (Kvizovka: 9 us a block)
        write_blocks(placed, out / kind, BLOCK, compress=False)
        figures[kind] = len(placed)
        del trie, placed
    figures["bytes"] = {p.name: p.stat().st_size for p in sorted(out.iterdir())}
    return figures


class RecordStore:
    """A release's records, read in place (see the module docstring for the layout)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.valid = marisa_trie.Trie().mmap(str(self.path / "valid.marisa"))
        self.rejected = marisa_trie.Trie().mmap(str(self.path / "rejected.marisa"))
        self.valid_blocks = BlockFile(self.path / "valid")
        self.rejected_blocks = BlockFile(self.path / "rejected")
        self.shape_blocks = BlockFile(self.path / "shapes")
        self.shape = lru_cache(maxsize=16384)(self._shape)

    def _shape(self, sid: int) -> dict[str, Any]:
        return json.loads(self.shape_blocks.payload(sid))

    def _record(self, key: str, valid: bool, payload: bytes) -> Record:
        sid, pos = get_varint(payload, 0)
        return join(key, valid, self.shape(sid), payload, pos)

    def get(self, key: str) -> Record | None:
        i = self.valid.get(key)
        if i is not None:
            return self._record(key, True, self.valid_blocks.payload(i))
        i = self.rejected.get(key)
        if i is not None:
            return self._record(key, False, self.rejected_blocks.payload(i))
        return None

    def __len__(self) -> int:
        return len(self.valid) + len(self.rejected)

    def has_prefix(self, prefix: str) -> bool:
        """Does some key, valid or rejected, start with ``prefix``? (Kvizovka's tiler)"""
        return (next(self.valid.iterkeys(prefix), None) is not None
                or next(self.rejected.iterkeys(prefix), None) is not None)

    def keys(self, valid: bool = True, prefix: str = "") -> list[str]:
        """Keys of one kind starting with ``prefix``, sorted (marisa ids are not in order)."""
        trie = self.valid if valid else self.rejected
        return sorted(trie.keys(prefix))

    def splits(self, valid: bool) -> Iterator[Split]:
        """Every record of one kind as stored, without decoding it (amend, repack)."""
        trie = self.valid if valid else self.rejected
        blocks = self.valid_blocks if valid else self.rejected_blocks
        texts: dict[int, str] = {}
        restore = trie.restore_key
        for i, payload in enumerate(blocks.payloads()):
            sid, pos = get_varint(payload, 0)
            shape = texts.get(sid)
            if shape is None:
                shape = texts[sid] = self.shape_blocks.payload(sid).decode()
            yield Split(restore(i), valid, shape, payload[pos:])

    def records(self, valid: bool) -> Iterator[Record]:
        """Every record of one kind, in marisa id order (a full scan, block by block)."""
        trie = self.valid if valid else self.rejected
        blocks = self.valid_blocks if valid else self.rejected_blocks
        for i, payload in enumerate(blocks.payloads()):
            yield self._record(trie.restore_key(i), valid, payload)

    def close(self) -> None:
        for blocks in (self.valid_blocks, self.rejected_blocks, self.shape_blocks):
            blocks.close()
