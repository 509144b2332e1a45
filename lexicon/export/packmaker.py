"""Making an offline pack in a child process, never in the process that serves.

Making a big game's pack (:func:`lexicon.export.offline.make_pack`) walks every record of
the release and builds two word graphs: a core busy for a while and hundreds of MB of
Python objects. Done on a thread of a server's worker, the interpreter lock it holds starves
the worker's other threads (uvicorn's health ping among them, which then takes the worker
for dead), and the memory it touched stays with the worker after the pack is made (the
allocator keeps it). So the pack is made by a child process (``python -m
lexicon.export.offline GAME RELEASE_DIR OUT_DIR``): :func:`run` starts it and waits for it
(a wait that holds no lock of the interpreter), and the child's memory goes back to the
system when it exits. This module is the two ends of that child, and knows nothing of
packs: :func:`run` in the parent, :func:`child` around the child's work.

The child opens the release itself (read-only, as every reader does), makes the pack, and
writes its files into a directory the parent gives (a scratch directory: the parent checks
them, then keeps them where packs are kept, so a child killed half-way leaves nothing anyone
reads). A :class:`~lexicon.errors.LexiconError` in the child (its release damaged, no
descriptor left, the words too many for a KWG) is written beside them as JSON and raised
again by :func:`run` with its code; a child that ends any other way (killed, out of memory,
a bug: its traceback goes to the server's log) is ``pack_failed``. The child ends when its
parent does: it watches the pipe its parent holds open for it.

``LEXICON_TEST_PACK_GATE`` (tests only) names a file the child opens and reads to its end
before it starts: a FIFO holds it there, at work, for as long as the test keeps the FIFO's
writing end open, so a test can ask what a server does while a pack is being made without
timing anything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lexicon.errors import EXIT_FAILED, LexiconError, PackFailed

#: tests only: a file (a FIFO) the child reads to its end before it does its work
GATE_ENV = "LEXICON_TEST_PACK_GATE"
#: what the child writes beside its output when a LexiconError stops it
ERROR_FILE = "error.json"
#: how long a client told ``pack_failed`` should wait before it asks again
RETRY_SECONDS = 5


def run(module: str, args: Sequence[str], where: Path, detail: dict[str, Any]) -> None:
    """Run ``python -m module *args`` (a child that writes its output into ``where`` under
    :func:`child`) and wait for it. Raises the child's LexiconError, or
    :class:`~lexicon.errors.PackFailed` (with ``detail``) when it ended in failure."""
    # -P: the server's working directory is not put on the child's path (a folder there
    # named like one of the project's would be imported instead)
    proc = subprocess.Popen([sys.executable, "-P", "-m", module, *args],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        status = proc.wait()
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
    if status == 0:
        return
    raise _child_error(where / ERROR_FILE) or PackFailed(
        "the offline pack could not be made: its maker "
        + (f"was killed by signal {-status}" if status < 0 else f"ended with status {status}")
        + f"; nothing was kept, ask again in {RETRY_SECONDS} s",
        retry_after=RETRY_SECONDS, detail={**detail, "status": status})


def _child_error(path: Path) -> LexiconError | None:
    """The LexiconError the child wrote to ``path``, to be raised again here; None when it
    wrote none (or only part of one)."""
    try:
        said = json.loads(path.read_text(encoding="utf-8"))
        err = LexiconError(said["message"], code=said["code"], status=said["status"],
                           detail=said["detail"], exit_code=said["exit_code"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if said.get("headers"):
        err.headers = dict(said["headers"])    # type: ignore[attr-defined]
    return err


def child(where: Path, work: Callable[[], None]) -> int:
    """The child's end: ``work()`` once the gate lets it (tests only), ending with the
    parent; its LexiconError written into ``where`` for :func:`run`. The exit status."""
    _end_with_parent()
    gate = os.environ.get(GATE_ENV)
    if gate:
        with open(gate, "rb") as fh:
            fh.read()
    try:
        work()
    except LexiconError as exc:
        said = {"code": exc.code, "message": exc.message, "status": exc.status,
                "detail": exc.detail, "exit_code": exc.exit_code,
                "headers": getattr(exc, "headers", {})}
        (where / ERROR_FILE).write_text(json.dumps(said, ensure_ascii=False),
                                        encoding="utf-8")
        return EXIT_FAILED
    return 0


def _end_with_parent() -> None:
    """End this process when its parent does: the parent never writes to our stdin, so
    reading it returns only when the parent closes it, or dies."""
    def watch() -> None:
        while os.read(0, 4096):     # the raw descriptor: no lock a shutdown could need
            pass
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
