"""Writing a file so that a reader sees the old one or the whole new one, never a part; and
reading a file given by a user without trusting what it is (:func:`read_bounded`).

Every file the project replaces in place (``CURRENT``, a manifest, an export, a bundle and
its signature, an imported list and its pin, a re-pinned source manifest) is written here:
to a temporary file in the same directory (so the rename stays on one file system), flushed
to disk with ``fsync`` (so a crash after the rename cannot leave an empty file under the new
name), then renamed over the target; on any failure the temporary file is removed and the
target is untouched. It lives in ``lexicon``, the lowest layer, so that ``sources``,
``build`` and the runtime may all use it (tests/project/test_layout.py).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def temp_name(path: Path) -> Path:
    """The temporary name beside ``path``: hidden, and this process's own."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """``with replacing(target) as tmp:`` write ``tmp`` (by any means: a tar, a stream);
    when the block ends without an exception, ``tmp`` is synced and renamed to ``target``.
    An exception leaves ``target`` as it was and removes ``tmp``."""
    path = Path(path)
    tmp = temp_name(path)
    try:
        yield tmp
        _fsync(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_bytes(path: Path | str, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically."""
    with replacing(path) as tmp:
        tmp.write_bytes(data)


def write_text(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8, newlines as given) atomically."""
    write_bytes(path, text.encode("utf-8"))


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
    is an ``OSError`` (``EINVAL``) naming the file."""
    if not isinstance(source, (str, Path)):
        return _read_at_most(source, limit, getattr(source, "name", "the input"))
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | (os.O_NONBLOCK if regular else 0)
    fd = os.open(source, flags)
    try:
        if regular and not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(source))
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        return _read_at_most(fh, limit, str(source))
