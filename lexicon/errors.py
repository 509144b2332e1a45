"""Errors that carry a stable machine-readable code.

Every face (CLI, HTTP) turns a :class:`LexiconError` into the same JSON object
``{"code": ..., "message": ...}``, so clients can branch on ``code`` while people read
``message``. Codes are part of the public contract: never rename one.
"""

from __future__ import annotations


class LexiconError(Exception):
    """A failure the caller can act on; ``status`` is the HTTP status a face should use."""

    code = "lexicon_error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None,
                 detail: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.detail = detail or {}

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        return out


class InputError(LexiconError):
    """The word, pattern or request the user sent cannot be read (usage error, exit 2)."""

    code = "bad_input"
    status = 400


class UnknownGame(LexiconError):
    code = "unknown_game"
    status = 404


class NoRelease(LexiconError):
    """The game is known but no release has been built for it yet."""

    code = "no_release"
    status = 503


class UnknownRelease(LexiconError):
    """A release id that was never published for this game (or was removed)."""

    code = "unknown_release"
    status = 404


class ReleaseDamaged(NoRelease):
    """The game's current release exists but fails its integrity checks (a file of the
    wrong size or hash, an unreadable manifest, a bad ``CURRENT``). It is never opened:
    memory-mapping a truncated file would kill the whole process with SIGBUS. A subclass of
    :class:`NoRelease` because, for a caller, the game has no usable release either way."""

    code = "release_damaged"
    status = 503


class SourceError(LexiconError):
    """A source dictionary could not be fetched or failed its checksum."""

    code = "source_unavailable"
    status = 500


class BuildError(LexiconError):
    code = "build_failed"
    status = 500


class BuildBusy(BuildError):
    """Another build of the same game holds its build lock (CLI exit 4: try again later)."""

    code = "build_in_progress"
    status = 409
