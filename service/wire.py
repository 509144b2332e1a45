"""The HTTP/1.1 parser's own refusals, in the API's error shape.

uvicorn answers a request its parser (h11) cannot read with a plain-text 400, "Invalid
HTTP request received.", before any of the app runs. The commonest such request is a word
typed into a URL by hand and sent as raw UTF-8 (``curl .../words/kót``): HTTP allows only
printable ASCII in the request line, so the bytes must be percent-encoded. That answer is
given here in the shape every other bad input gets, JSON with a stable ``code``
(``bad_request``) and a message that says how to send the word. :class:`JsonErrorsH11Protocol`
is uvicorn's h11 protocol with that one answer changed, on top of the bound on a request
head's time (:class:`service.heads.HeadTimeoutProtocol`); ``lexicon serve`` and the tests'
servers run it (``http=`` of uvicorn's config, :data:`PROTOCOL`).
"""

from __future__ import annotations

import json

import h11
from lexicon.service.heads import HeadTimeoutProtocol

#: The protocol class as uvicorn's ``--http`` / ``http=`` takes it (an import string: the
#: worker processes import it themselves).
PROTOCOL = "lexicon.service.wire:JsonErrorsH11Protocol"

BAD_REQUEST_MESSAGE = (
    "the HTTP request cannot be read: its request line or a header breaks HTTP/1.1, most "
    "often a byte that is not printable ASCII in the path or the query (a word typed "
    "as-is); send words percent-encoded as UTF-8 (curl -G --data-urlencode, or any HTTP "
    "library's URL encoding)")


def _error(status: int, code: str, message: str) -> bytes:
    """An error body in the API's shape (:func:`service.contract.error`'s, as bytes)."""
    del status   # said by the response line; named here as every error helper names it
    return json.dumps({"code": code, "message": message}).encode()


BAD_REQUEST_BODY = _error(400, "bad_request", BAD_REQUEST_MESSAGE)


class JsonErrorsH11Protocol(HeadTimeoutProtocol):
    """uvicorn's h11 protocol, its request heads bounded in time, whose answer to an
    unreadable request is the API's JSON."""

    def send_400_response(self, msg: str) -> None:
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(BAD_REQUEST_BODY)).encode()),
                   (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=BAD_REQUEST_BODY), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()
