"""The files a command reads words from: a path, a pipe or (``-``) standard input, opened
as a stream of lines.
"""

from __future__ import annotations

import sys
from typing import BinaryIO

from lexicon import InputError


def open_stream(path: str) -> BinaryIO:
    """A file, a pipe or (``-``) standard input, opened to be read as a stream of lines
    (:func:`lexicon.userfile.stream_lines`); one that cannot be opened is ``bad_input``."""
    try:
        return sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}",
                         detail={"file": path}) from None


def stream_name(path: str) -> str:
    return "stdin" if path == "-" else path
