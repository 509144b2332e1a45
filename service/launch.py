"""Starting an ASGI app under uvicorn in a child process on a free loopback port.

Tests use it to talk to the real server over real HTTP, and the benchmark to measure it
beside a bare Starlette app started the same way, so the comparison is fair.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from lexicon.service.wire import PROTOCOL
from uvicorn.supervisors.multiprocess import Multiprocess


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(target: str, home: Path, *, ready_path: str = "/healthz",
            timeout: float = 60.0) -> Iterator[tuple[str, int]]:
    """uvicorn running the app factory ``target`` with LEXICON_HOME=home: (base URL, pid).

    The server counts as up once ``ready_path`` answers at all (any status).
    """
    import httpx  # a test and benchmark client: not needed to serve (`run`)

    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", target, "--factory", "--http", PROTOCOL,
         "--host", "127.0.0.1",
         "--port", str(port), "--workers", "1", "--log-level", "warning", "--no-access-log"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            try:
                httpx.get(base + ready_path, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            proc.kill()
        if proc.poll() is not None:
            raise RuntimeError("server did not start: " + proc.stderr.read().decode()[-2000:])
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()



class NoDelayConfig(uvicorn.Config):
    """uvicorn's config, its listening socket with TCP_NODELAY (see :func:`run`); at module
    level: the worker processes unpickle it. In a worker process, loading it also ties the
    worker's life to its manager's (:func:`follow_parent`)."""

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def load(self) -> None:
        if not self.loaded and multiprocessing.parent_process() is not None:
            follow_parent()
        super().load()


PR_SET_PDEATHSIG = 1   # linux/prctl.h


ORPHAN_POLL_SECONDS = 0.25


def follow_parent() -> None:
    """In a worker: SIGTERM (a drain, then exit) when the manager dies, however it dies.

    A manager killed by SIGKILL runs no handler: without this its workers would go on
    holding the port (a restarted service could not bind it) and the metrics directory that
    only the manager removes (the workers remove it at their shutdown:
    :func:`service.metrics.remove_orphaned_dir`). The kernel sends the signal
    (``PR_SET_PDEATHSIG``); a thread watching the parent pid sends it where ``prctl`` is
    missing or the manager died before the call."""
    manager = multiprocessing.parent_process()
    manager_pid = manager.pid if manager is not None else os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):   # not Linux: the watcher below signals
        pass

    def watch() -> None:
        while os.getppid() == manager_pid:
            time.sleep(ORPHAN_POLL_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)   # again, harmlessly, when prctl sent it

    threading.Thread(target=watch, name="manager-watch", daemon=True).start()


class DrainingMultiprocess(Multiprocess):
    """uvicorn's process manager, closing its own copy of the listening socket as the drain
    starts: the workers close theirs on SIGTERM, but while the manager held one the kernel
    went on queueing new connections that no process would accept (they waited out the
    drain and were then reset). Closed, new connections are refused at once, as with one
    process."""

    def terminate_all(self) -> None:
        for sock in self.sockets:
            sock.close()
        super().terminate_all()


def run(app: str, *, host: str, port: int, workers: int, **options: Any) -> None:
    """``uvicorn.run(app, factory=True, ...)``, with Nagle's algorithm off in worker mode.

    With ``workers > 1`` uvicorn binds the socket itself as ``socket.socket(family)``, whose
    ``proto`` is 0, and asyncio sets TCP_NODELAY only on sockets whose ``proto`` is TCP: so
    every answer on a kept-alive connection (headers and body are two writes) would wait for the
    client's delayed ACK (tens of milliseconds, bare Starlette alike). Set on the listening
    socket, Linux gives TCP_NODELAY to every accepted connection. Every connection runs
    :data:`service.wire.PROTOCOL`, whatever HTTP parser is installed: its request head
    bounded in time (:mod:`service.heads`), an unreadable request answered in the API's
    JSON.
    """
    config = NoDelayConfig(app, factory=True, host=host, port=port, workers=workers,
                           http=PROTOCOL, **options)
    if config.workers > 1:
        DrainingMultiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        server = uvicorn.Server(config)
        server.run()
        if not server.started:
            sys.exit(3)    # uvicorn's STARTUP_FAILURE
