"""Request bodies: refused over a size before they are read, timed out when they trickle,
and big batches admitted a few at a time.

Plain ASGI in front of FastAPI, which reads a whole body into memory and parses it before
any route code runs: a huge body would take the server to gigabytes before the route's
``batch_too_large``, a client that announced a big body and sent a few bytes would hold its
connection and task forever, and a few clients sending 100,000-word ``/valid`` batches at
once would take the server past its memory budget. So, for every request that carries a
body:

* a ``Content-Length`` over the path's limit is 413 ``body_too_large`` at once, before a
  byte is read (and before uvicorn sends ``100 Continue``); a chunked body is counted as it
  arrives and refused the same way when it passes the limit;
* a body that makes no progress for :data:`MAX_BODY_IDLE_SECONDS`, or is not complete after
  :data:`MAX_BODY_SECONDS`, is 408 ``body_timeout``;
* a big ``/check`` or ``/valid`` batch (a body over :data:`BIG_BATCH_BYTES` for its path,
  or of unknown length) waits for one of :data:`MAX_BIG_BATCHES` permits before its body
  is read, so the memory of parsing and answering it is held by at most that many requests;
  one that has waited :data:`MAX_BATCH_WAIT_SECONDS` is 503 ``too_many_batches`` with
  ``Retry-After``. Small batches (an engine's usual few thousand words) never wait.

Every refusal closes the connection (``Connection: close``): the rest of a refused body is
never read. The limits are sized from the largest legitimate request: 100,000 words of 64
letters, each letter two bytes in UTF-8 (Polish, Cyrillic), is 13.1 MB of JSON
(``tests/service/test_bodies.py`` measures it), so ``/valid`` takes 16 MiB; ``/check`` 10,000 such
words, 1.3 MB, so 2 MiB; every other body (a judged play of 32 words) 64 KiB. A realistic
100,000-word osps batch is about 1.7 MB.
"""

from __future__ import annotations

import asyncio
import json
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Bytes of a request body on any path but the batches (a judged play: 32 words).
MAX_BODY_BYTES = 65_536              # 64 KiB
#: Bytes of a ``POST /check`` body (10,000 words of 64 two-byte letters: 1.3 MB).
MAX_CHECK_BODY_BYTES = 2_097_152  # 2 MiB
#: Bytes of a ``POST /valid`` body (100,000 words of 64 two-byte letters: 13.1 MB).
MAX_VALID_BODY_BYTES = 16_777_216  # 16 MiB
#: Seconds a body may go without a byte arriving.
MAX_BODY_IDLE_SECONDS = 10
#: Seconds a whole body may take to arrive.
MAX_BODY_SECONDS = 60
#: Big ``/check`` and ``/valid`` batches parsed and answered at once.
MAX_BIG_BATCHES = 2
#: Seconds a big batch waits for a permit before it is refused.
MAX_BATCH_WAIT_SECONDS = 30

#: A batch body larger than this (per path) is big: about 20,000 ``/valid`` words or 2,500
#: ``/check`` words (a ``/check`` answer explains every word, so it costs more per word).
BIG_BATCH_BYTES = {"valid": 256 * 1024, "check": 32 * 1024}
RETRY_AFTER_SECONDS = 2

_BATCH = re.compile(r"^/v1/games/[^/]+/(check|valid)$")
_LIMITS = {"valid": MAX_VALID_BODY_BYTES, "check": MAX_CHECK_BODY_BYTES}


def largest_body() -> int:
    """The largest request body any path takes: what a proxy in front of the service must
    let through (``deploy/nginx-lexicon.conf`` is written from it by ``python -m
    tools.docs``), so that a body the service would take is never refused before it."""
    return max(MAX_BODY_BYTES, MAX_CHECK_BODY_BYTES, MAX_VALID_BODY_BYTES)


def _error(status: int, code: str, message: str, detail: dict,
           headers: tuple[tuple[bytes, bytes], ...] = ()) -> tuple[Message, Message]:
    """The two messages of a refusal in the API's error shape; it closes the connection."""
    body = json.dumps({"code": code, "message": message, "detail": detail}).encode()
    start = {"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *headers]}
    return start, {"type": "http.response.body", "body": body, "more_body": False}


class BodyLimits:
    """The size, time and concurrency bounds of request bodies (see the module doc).

    The numbers are read from this module when the middleware is built, so a test can
    start a server with shorter ones.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.idle = MAX_BODY_IDLE_SECONDS
        self.deadline = MAX_BODY_SECONDS
        self.wait = MAX_BATCH_WAIT_SECONDS
        self.limits = {"": MAX_BODY_BYTES, **_LIMITS}
        self.big = dict(BIG_BATCH_BYTES)
        self.most = MAX_BIG_BATCHES
        self.permits = asyncio.Semaphore(self.most)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = int(value)        # uvicorn has refused a malformed one already
            elif name == b"transfer-encoding":
                chunked = True
        if not chunked and not length:     # no body: nothing to bound (the hot path)
            await self.app(scope, receive, send)
            return
        batch = _BATCH.match(scope["path"]) if scope["method"] == "POST" else None
        kind = batch.group(1) if batch else ""
        limit = self.limits[kind]
        if length is not None and length > limit:
            await _send(send, _error(413, "body_too_large", f"the request body is {length:,} "
                               f"bytes; this path takes at most {limit:,}", {"max_bytes": limit}))
            return
        big = bool(kind) and (length is None or length > self.big[kind])
        if big:
            try:
                async with asyncio.timeout(self.wait):   # no permit is lost to a late wake
                    await self.permits.acquire()
            except TimeoutError:
                await _send(send, _error(
                    503, "too_many_batches", f"{self.most} big batches are being "
                    f"answered and this one waited {self.wait} s; retry, or send smaller "
                    "batches", {"retry_after": RETRY_AFTER_SECONDS},
                    ((b"retry-after", str(RETRY_AFTER_SECONDS).encode()),)))
                return
        try:
            body = await self._read(receive, send, limit)
            if body is None:
                return
            await self.app(scope, _replay(body, receive), send)
        finally:
            if big:
                self.permits.release()

    async def _read(self, receive: Receive, send: Send, limit: int) -> bytes | None:
        """The whole body, or None when it was refused (or the client left)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.deadline
        chunks: list[bytes] = []
        size = 0
        while True:
            wait = min(self.idle, end - loop.time())
            try:
                async with asyncio.timeout(max(wait, 0)):
                    message = await receive()
            except TimeoutError:
                late = loop.time() >= end
                await _send(send, _error(
                    408, "body_timeout",
                    (f"the request body did not arrive within {self.deadline} s" if late else
                     f"no byte of the request body arrived for {self.idle} s"),
                    {"received_bytes": size, "idle_seconds": self.idle,
                     "deadline_seconds": self.deadline}))
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send(send, _error(413, "body_too_large", f"the request body passed "
                                   f"{limit:,} bytes, the most this path takes",
                                   {"max_bytes": limit}))
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

async def _send(send: Send, messages: tuple[Message, Message]) -> None:
    for message in messages:
        await send(message)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then whatever the client sends."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
