"""Reading a file a user hands over (an overrides file, an audit sheet, a word list, the
words to check, a Remik history, a signature) without trusting what it is.

Every such read is bounded: a file is read at most to its limit (:func:`read_bounded`), so
``/dev/zero`` or a huge file is refused with a code before it fills memory; a file read
whole must be a regular file (a FIFO with no writer would block for good, a device never
ends), and each of its lines is at most :data:`MAX_LINE_BYTES`. Lines end at ``\\n`` (or
``\\r\\n``) only, as a spreadsheet and Python's ``csv`` read them: U+2028, U+2029, U+0085,
a form feed or a vertical tab inside a line (which ``str.splitlines`` would split at) stay
in it, where the reader's own check of its fields refuses or keeps them. A stream (``check
--file -``, a pipe) is read a line at a time (:func:`stream_lines`), each line bounded.

It lives in ``lexicon``, the lowest layer, so that ``build`` and the runtime read alike.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from lexicon.errors import InputError

#: a file read whole (a word list, a sheet, an overrides file): room for a reference list
#: of every word of the biggest game several times over
MAX_FILE_BYTES = 268_435_456      # 256 MiB
#: one line of any file a user hands over: far past a word, a sheet row with its evidence
#: and note, or an override's reason
MAX_LINE_BYTES = 65_536           # 64 KiB


class TooLarge(ValueError):
    """A file that holds more than the bytes its reader takes (:func:`read_bounded`)."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__(f"{name} holds more than {limit:,} bytes")
        self.limit = limit


def _read_at_most(fh: BinaryIO, limit: int, name: str) -> bytes:
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(name, limit)
    return data


def read_bounded(source: Path | str | BinaryIO, limit: int, *, regular: bool = False
                 ) -> bytes:
    """The bytes of ``source`` (a path, or an open binary stream such as stdin), at most
    ``limit``: one byte more raises :class:`TooLarge`, so ``/dev/zero`` or a huge file
    never fills memory. With ``regular`` the path must name a regular file (after its
    symlinks): it is opened non-blocking, so a FIFO with no writer is refused at once
    instead of hanging, and a device (``/dev/zero``) is refused before it is read; either
    is an ``OSError`` (``EINVAL``) naming the file. A regular file whose size is over the
    limit is refused before any of it is read."""
    if not isinstance(source, (str, Path)):
        return _read_at_most(source, limit, getattr(source, "name", "the input"))
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | (os.O_NONBLOCK if regular else 0)
    fd = os.open(source, flags)
    try:
        info = os.fstat(fd)
        if regular and not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(source))
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise TooLarge(str(source), limit)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        return _read_at_most(fh, limit, str(source))


def read_file(path: Path | str, error: type[InputError], what: str, *,
              limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``. Refused as ``error``
    (with its code) naming the file when it cannot be read; with a code of its own when it
    is not a regular file (``not_a_regular_file``: a FIFO, a device, a directory) or holds
    more than ``limit`` bytes (``file_too_large``), before it is read."""
    detail: dict[str, object] = {"file": str(path)}
    try:
        return read_bounded(path, limit, regular=True)
    except TooLarge:
        raise error(f"{path} holds more than {limit:,} bytes; {what} is read whole, up to "
                    "that", code="file_too_large",
                    detail={**detail, "max_bytes": limit}) from None
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.EISDIR):
            raise error(f"{path} is not a regular file (a FIFO, a device, a directory); "
                        f"{what} is read from a file", code="not_a_regular_file",
                        detail=detail) from None
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}",
                    detail=detail) from None


def read_lines(path: Path | str, error: type[InputError], what: str, *,
               limit: int = MAX_FILE_BYTES) -> list[str]:
    """The lines of the text file ``path`` (:func:`read_file`; UTF-8, its BOM dropped,
    each line without its ``\\n`` or ``\\r\\n``). Refused as ``error`` (with its code)
    naming the file: one that is not UTF-8 (the line and byte offset of the first bad
    byte); with a code of its own, a line longer than :data:`MAX_LINE_BYTES`
    (``line_too_long``)."""
    detail: dict[str, object] = {"file": str(path)}
    data = read_file(path, error, what, limit=limit)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()            # the line break that ends the last line starts none
    offset = 0
    out = []
    for n, raw in enumerate(lines, 1):
        if len(raw.removesuffix(b"\r")) > MAX_LINE_BYTES:
            raise error(f"{path}:{n}: a line of more than {MAX_LINE_BYTES:,} bytes; {what} "
                        "holds one entry a line", code="line_too_long",
                        detail={**detail, "line": n, "max_line_bytes": MAX_LINE_BYTES})
        out.append(_decode(raw, n, offset, path, error, what, None))
        offset += len(raw) + 1
    if out:
        out[0] = out[0].removeprefix("\ufeff")   # a BOM is no part of a word
    return out


def _decode(raw: bytes, n: int, offset: int, name: Path | str, error: type[InputError],
            what: str, code: str | None) -> str:
    """One line as text, without its ``\\r``; not UTF-8 is ``error`` (with ``code``, else
    its own) naming the line and the file's byte offset of the bad byte."""
    try:
        return raw.decode("utf-8").removesuffix("\r")
    except UnicodeDecodeError as exc:    # a binary file, or another encoding
        at = offset + exc.start
        raise error(f"{name}:{n}: not UTF-8 text (byte offset {at:,} of the file); {what} "
                    "is UTF-8 text", code=code,
                    detail={"file": str(name), "line": n, "offset": at}) from None


def stream_lines(fh: BinaryIO, name: str, what: str) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of a binary stream (a file, a pipe, stdin;
    UTF-8, a BOM at its start dropped, as :func:`read_lines` drops it), read a line at a
    time so that memory stays bounded whatever the stream's size; a line longer than
    :data:`MAX_LINE_BYTES` (``/dev/zero``) is ``line_too_long`` and one that is not UTF-8
    ``bad_encoding`` (its line and byte offset), each raised where it stands, after the
    lines before it were given."""
    offset = 0
    for n, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 2), b""), 1):
        body = raw.removesuffix(b"\n")
        if len(body.removesuffix(b"\r")) > MAX_LINE_BYTES:
            raise InputError(f"{name}:{n}: a line of more than {MAX_LINE_BYTES:,} bytes; "
                             f"{what} holds one a line", code="line_too_long",
                             detail={"file": name, "line": n,
                                     "max_line_bytes": MAX_LINE_BYTES})
        text = _decode(body, n, offset, name, InputError, what, "bad_encoding")
        yield n, text.removeprefix("\ufeff") if n == 1 else text   # a BOM is no part of a word
        offset += len(raw)
