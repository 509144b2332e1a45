"""Starting an ASGI app under uvicorn in a child process on a free loopback port.

Tests use it to talk to the real server over real HTTP, and the benchmark to measure it
beside a bare Starlette app started the same way, so the comparison is fair.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx


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
    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", target, "--factory", "--host", "127.0.0.1",
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
