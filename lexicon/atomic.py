"""Writing a file so that a reader sees the old one or the whole new one, never a part.

Every file the project replaces in place (``CURRENT``, a manifest, an export, a bundle and
its signature, an imported list and its pin, a re-pinned source manifest) is written here:
to a temporary file in the same directory (so the rename stays on one file system), flushed
to disk with ``fsync`` (so a crash after the rename cannot leave an empty file under the new
name), then renamed over the target; on any failure the temporary file is removed and the
target is untouched. It lives in ``lexicon``, the lowest layer, so that ``sources``,
``build`` and the runtime may all use it (tests/project/test_layout.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
