"""Request heads: a connection waiting for one is cut off after a bound, as bodies are.

uvicorn times out only the idle time between requests (``timeout_keep_alive``), and only
from the end of an answer until the next byte: a connection that sends nothing at all, or
sends a request head a line at a time, is never timed out, and ASGI middleware
(:mod:`service.bodies`) cannot help, since it runs only once the head is whole. A few
hundred such clients hold every descriptor of a ``lexicon serve`` with no proxy in front,
and ``/healthz`` itself cannot be reached.

:class:`HeadTimeoutProtocol` is uvicorn's h11 protocol with one timer more: from the moment
the server starts waiting for a request head (the connection is made, or the previous
answer is complete) the whole head must arrive within :data:`MAX_HEAD_SECONDS`, however
slowly its bytes come; otherwise the connection is closed. Once the head is whole the
timer stops; the body then has the bounds of :mod:`service.bodies`, and an answer may
take as long as it takes. ``lexicon serve --head-timeout`` sets the bound.
"""

from __future__ import annotations

import asyncio
import os

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a whole request head may take to arrive (nginx's ``client_header_timeout``
#: default is 60 s; a real client sends its head in one packet).
MAX_HEAD_SECONDS = 10
#: The environment variable ``serve`` passes the bound in to its worker processes.
HEAD_TIMEOUT_ENV = "LEXICON_HEAD_TIMEOUT"


def head_seconds() -> float:
    """The bound in force: ``LEXICON_HEAD_TIMEOUT`` if it is a positive number, else
    :data:`MAX_HEAD_SECONDS`."""
    try:
        value = float(os.environ.get(HEAD_TIMEOUT_ENV, ""))
    except ValueError:
        return float(MAX_HEAD_SECONDS)
    return value if value > 0 else float(MAX_HEAD_SECONDS)


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, a request head bounded in time (see the module doc)."""

    head_timeout_task: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.head_seconds = head_seconds()
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:
            self._stop_head_timer()        # the head is whole: the body has its own bounds

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE:
            self._wait_for_head()          # the next request's head, on a kept-alive one

    def _wait_for_head(self) -> None:
        if self.head_timeout_task is None and not self.transport.is_closing():
            self.head_timeout_task = self.loop.call_later(self.head_seconds,
                                                          self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self.head_timeout_task is not None:
            self.head_timeout_task.cancel()
            self.head_timeout_task = None

    def _head_timed_out(self) -> None:
        self.head_timeout_task = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
