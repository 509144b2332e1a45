"""Errors that carry a stable machine-readable code.

Every face (CLI, HTTP) turns a :class:`LexiconError` into the same JSON object
``{"code": ..., "message": ...}``, so clients can branch on ``code`` while people read
``message``. Codes are part of the public contract: never rename one.

Each class also carries the CLI's exit code beside its HTTP status, so the two faces map
an error in one place each (``cli.main`` has a single handler that reads ``exit_code``):
2 a usage error (the input, the game or the release asked for), 3 a failed or refused
operation (a fetch, a build, a damaged or missing release, a bundle), 4 busy (another
build or install of the game holds its lock: retry later), 5 an internal error (an
exception the code did not expect: a bug, or the machine out of memory). 0 and 1 are the
verdicts, so a script reading 1 as "the word is not valid" never mistakes a crash for one.
"""

from __future__ import annotations

import errno
import os

EXIT_INVALID = 1   # a word, play or query that is not valid / found nothing (not an error)
EXIT_USAGE = 2
EXIT_FAILED = 3
EXIT_BUSY = 4
EXIT_INTERNAL = 5   # an unexpected exception: never 1, which says "not valid"


class LexiconError(Exception):
    """A failure the caller can act on; ``status`` is the HTTP status a face should use,
    ``exit_code`` the CLI's. A class (or a raise) that names no exit code gets one from its
    status: a server-side failure (5xx) is ``EXIT_FAILED``, a refusal of what was asked
    (4xx) ``EXIT_USAGE``."""

    code = "lexicon_error"
    status = 400
    exit_code: int | None = None

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None,
                 detail: dict | None = None, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        if exit_code is not None:
            self.exit_code = exit_code
        elif self.exit_code is None:
            self.exit_code = EXIT_FAILED if self.status >= 500 else EXIT_USAGE
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
    exit_code = EXIT_USAGE


class UnknownGame(LexiconError):
    code = "unknown_game"
    status = 404
    exit_code = EXIT_USAGE


class NoRelease(LexiconError):
    """The game is known but no release has been built for it yet."""

    code = "no_release"
    status = 503
    exit_code = EXIT_FAILED


class Building(NoRelease):
    """The game has no release yet and a running build will publish one
    (:mod:`lexicon.store.announcements`): 503 ``not_ready``, with when it is expected, rather
    than ``no_release``'s advice to start a build. A :class:`NoRelease` because, for a
    caller, the game has no usable release either way."""

    code = "not_ready"
    status = 503
    exit_code = EXIT_FAILED


class UnknownRelease(LexiconError):
    """A release id that was never published for this game (or was removed)."""

    code = "unknown_release"
    status = 404
    exit_code = EXIT_USAGE


class ReleaseDamaged(NoRelease):
    """The game's current release exists but fails its integrity checks (a file of the
    wrong size or hash, an unreadable manifest, a bad ``CURRENT``). It is never opened:
    memory-mapping a truncated file would kill the whole process with SIGBUS. A subclass of
    :class:`NoRelease` because, for a caller, the game has no usable release either way."""

    code = "release_damaged"
    status = 503
    exit_code = EXIT_FAILED


class RulingsUnavailable(LexiconError):
    """The rulings log cannot be written or read (its path is not a directory, read-only, a
    full disk, its lock held too long by another writer). A ruling is then refused rather
    than given unrecorded (:mod:`lexicon.verdicts.rulings`); CLI exit 3."""

    code = "rulings_unavailable"
    status = 503
    exit_code = EXIT_FAILED


class NotReady(LexiconError):
    """``/readyz``: some configured game does not serve a verified release (a load balancer
    drains the replica; ``detail`` says which games and why)."""

    code = "not_ready"
    status = 503
    exit_code = EXIT_FAILED


class RetryLater(LexiconError):
    """A 503 that says when to ask again: ``Retry-After`` and ``detail.retry_after``."""

    status = 503
    exit_code = EXIT_FAILED

    def __init__(self, message: str, *, retry_after: int, detail: dict | None = None) -> None:
        super().__init__(message, detail={**(detail or {}), "retry_after": retry_after})
        self.headers = {"Retry-After": str(retry_after)}


class PackNotReady(RetryLater):
    """The offline pack of a release is still being read or made (a big game's first pack
    takes a while): nothing waits for it, the client asks again after ``Retry-After``."""

    code = "pack_not_ready"


class PackFailed(RetryLater):
    """The process that makes an offline pack ended without one (killed, out of memory, a
    bug): nothing was kept, the server is as it was; the failure is told to the next asker,
    and the first ask after ``Retry-After`` tries again."""

    code = "pack_failed"


class OutOfDescriptors(LexiconError):
    """This process (or the whole system) has no file descriptor left to open a release
    with (``EMFILE``, ``ENFILE``): the release is not damaged and is not condemned; the
    request is refused for now, to be tried again after ``Retry-After``."""

    code = "out_of_descriptors"
    status = 503
    exit_code = EXIT_FAILED
    retry_after = 1

    def __init__(self, message: str, *, detail: dict | None = None) -> None:
        super().__init__(message, detail={**(detail or {}), "retry_after": self.retry_after})
        self.headers = {"Retry-After": str(self.retry_after)}


def out_of_descriptors(exc: BaseException) -> bool:
    """Did ``exc`` (or what it was raised from) fail for want of a file descriptor? Such a
    failure says nothing of the file asked for: it must never be taken for damage. LMDB
    reports the errno as text, so its errors are matched on the system's own message."""
    texts = {os.strerror(errno.EMFILE), os.strerror(errno.ENFILE)}
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in (errno.EMFILE, errno.ENFILE):
            return True
        if any(t in str(seen) for t in texts):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class SourceError(LexiconError):
    """A source dictionary could not be fetched or failed its checksum."""

    code = "source_unavailable"
    status = 500
    exit_code = EXIT_FAILED


class BuildError(LexiconError):
    code = "build_failed"
    status = 500
    exit_code = EXIT_FAILED


class BadBundle(LexiconError):
    """A bundle ``lexicon install`` refuses: wrong checksum, missing or bad signature, unsafe
    or oversized contents, or a release inside that fails the checks a build's publish makes.
    Nothing is installed and ``CURRENT`` does not move (CLI exit 3)."""

    code = "bad_bundle"
    status = 400
    exit_code = EXIT_FAILED


class InternalError(LexiconError):
    """An exception no code path expected (a bug, ``MemoryError``), as a face reports it: the
    CLI prints one line and exits :data:`EXIT_INTERNAL`, the service answers 500; never a
    verdict's exit code, never a traceback."""

    code = "internal_error"
    status = 500
    exit_code = EXIT_INTERNAL


class BuildBusy(BuildError):
    """Another build of the same game holds its build lock (CLI exit 4: try again later)."""

    code = "build_in_progress"
    status = 409
    exit_code = EXIT_BUSY


#: Every error code a face answers with, and what it means. Codes are public contract
#: (never renamed); the README's table is generated from this and from the code that raises
#: each one (``python -m tools.docs``), and a test fails when a raised code is missing here.
CODES: dict[str, str] = {
    # the word, pattern, rack or request cannot be read (CLI exit 2)
    "bad_input": "the input cannot be read (the generic input error)",
    "bad_request": "the HTTP request itself cannot be read, most often a raw non-ASCII byte "
                   "in the path or query: percent-encode words as UTF-8",
    "linked_game": "the game plays another game's vocabulary (remik plays osps's): amend or "
                   "repack that game, then build this one to link it",
    "empty_word": "no word given, or a word of `|` only",
    "word_too_long": "the word is longer than the limit below",
    "control_character": "a control, invisible or unpaired-surrogate character",
    "mixed_scripts": "Latin and Cyrillic letters in one word",
    "bad_tile_notation": "a malformed `[..]` or `|`, or `[..]` around no tile of the game",
    "not_in_alphabet": "a hooks/prefix word holding a character no tile carries",
    "bad_pattern": "a malformed pattern (`detail.position` points at the fault)",
    "pattern_too_long": "a pattern longer than the limit below",
    "bad_rack": "a rack or board letter that is no tile, or a joker where none may be",
    "rack_too_long": "more rack tiles, board letters or characters than the limits below",
    "too_many_jokers": "more jokers than the game has (or than an anagram query takes)",
    "bad_length": "length bounds outside 1 <= min <= max <= 64",
    "bad_sort": "a sort other than `alpha`, `score`, `length`",
    "result_limit": "`limit` or `offset` outside the limits below",
    "bad_lang": "a gloss language the service has no glosses for",
    "bad_play": "a judged play that is not a list of words",
    "empty_play": "a judged play with no words",
    "play_too_large": "a judged play with more words than the limit below",
    "bad_move": "a Remik move whose tables, rack, variant or history cannot be read",
    "move_too_large": "a Remik move with more words, rack letters or history than the limits below",
    "bad_format": "an export format that does not exist",
    "output_required": "a binary or folder export (`kwg`, `kbwg`, `engine`) without `--output`",
    "bad_date": "a rulings date that is not YYYY-MM-DD",
    "no_previous_release": "`lexicon diff` with no earlier release to compare with",
    "unknown_source": "`lexicon fetch` of a source the manifest does not list",
    "bad_encoding": "a request path or query that is not UTF-8 once percent-decoded; a line "
                    "of `check --file` that is not UTF-8 (`detail.line`, and `detail.offset`: "
                    "the byte offset in the file of the first bad byte)",
    "not_a_regular_file": "a file given to the CLI to be read whole (a word list, an audit "
                          "sheet, an overrides file, a list to import) that is a FIFO, a "
                          "device or a directory: refused before it is read",
    "file_too_large": "a file given to the CLI that holds more bytes than the limit below: "
                      "refused before it fills memory",
    "line_too_long": "a line of a file given to the CLI (or of the input of `check --file -`, "
                     "`hash -`) longer than the limit below",
    "invalid_request": "the request body is not UTF-8 JSON or does not match the schema",
    "batch_too_large": "more words in one batch than the limits below",
    "body_too_large": "a request body over the limits below, refused before it is read "
                      "(from `Content-Length`, or as a chunked body arrives)",
    "body_timeout": "a request body that sent nothing for, or took longer than, the limits "
                    "below (the connection is closed)",
    "too_many_batches": "more big batches than the limit below at once, and this one "
                        "waited its limit: retry after `Retry-After` seconds",
    # the query is readable but would cost too much
    "too_many_matches": "a pattern or blanks query matching more words than the limit below",
    "query_too_broad": "a query that would do more work than the limits below: an anagram walk "
                       "past its trie steps, a pattern or blanks search (every reading of "
                       "its Latin digraphs counted) past its work units",
    "move_too_complex": "a Remik move whose assignment search needs more units of work "
                        "(letters its steps handle) than the limit below",
    # what was asked for does not exist
    "unknown_game": "no such game",
    "unknown_release": "a `release=` id that was never published for the game",
    "not_found": "no such path",
    "method_not_allowed": "the path does not take that method (the `Allow` header says which)",
    # the game cannot answer (CLI exit 3)
    "no_release": "no release of the game has been built yet",
    "release_damaged": "the game's release fails its integrity checks and is not served",
    "no_index": "the release's query indexes are missing or unreadable",
    "rulings_unavailable": "the rulings log cannot be written (or read); the ruling is not "
                           "given, so no verdict goes unrecorded (CLI exit 3)",
    "not_ready": "`/readyz`: some configured game serves no verified release (`detail.not_ready`); "
                 "or a game whose first release a running build has not published yet "
                 "(`detail.state` is `building`, `detail.expected_at` when it should be)",
    "pack_not_ready": "the game's offline pack is still being read or made (a big game's "
                      "first pack takes a while); nothing waits for it: ask again after "
                      "`Retry-After` seconds",
    "pack_failed": "the process that makes the game's offline pack ended without one "
                   "(killed, out of memory); nothing was kept: ask again after "
                   "`Retry-After` seconds",
    "out_of_descriptors": "the server has no file descriptor left to open a release with, "
                          "or a release asked for by id waited its limit for the releases "
                          "pushed out before it to close; the release is not damaged: ask "
                          "again after `Retry-After` seconds",
    "busy": "a query (pattern, blanks, anagrams, extend, hooks, prefix) found every query worker "
            "taken and the queue full, or waited too long for one; `Retry-After` says when "
            "to try again (lookups, batches and `/healthz` never get it)",
    # building and shipping
    "metrics_dir_unusable": "`lexicon serve`: `PROMETHEUS_MULTIPROC_DIR` is no directory, cannot "
                            "be written, or holds files other than metrics files (exit 3)",
    "metrics_dir_in_use": "`lexicon serve`: a running server uses `PROMETHEUS_MULTIPROC_DIR` (it "
                          "holds the directory's lock); its files are left alone (exit 4)",
    "build_failed": "a build failed; the previous release keeps serving",
    "build_in_progress": "another build of the same game holds its lock (CLI exit 4)",
    "source_unavailable": "a source could not be fetched or failed its checksum",
    "tool_missing": "a system tool a build needs (`lt-print`) is not installed",
    "kwg_too_large": "the lexicon has more nodes than a KWG file can address",
    "no_distribution": "an engine export of a game whose tile counts are unknown (remik)",
    "bad_import_mode": "`lexicon import` with a mode other than restrict, admit, annotate",
    "bad_bundle": "`lexicon install` refused a bundle: checksum, unreadable manifest, unsafe or "
                  "oversized contents, or a release that fails publish's checks",
    "unsigned_bundle": "`lexicon install` of a bundle with no signature (`FILE.sig`) "
                       "without `--allow-unsigned`",
    "older_release": "`lexicon install` of a release built before the one being served, "
                     "without `--allow-downgrade` (or `--no-current`); nothing changed",
    "untrusted_key": "a bundle signed by a key that is not in `$LEXICON_HOME/trusted-keys/`",
    "bad_signature": "a bundle signature that does not verify, or is of another bundle",
    "bad_key": "a signing or trusted key file that is not an ed25519 key",
    "key_exists": "`lexicon keygen` would overwrite an existing key file",
    "key_not_written": "`lexicon keygen` could not write the key pair (a missing directory, a "
                       "name too long: exit 2; permissions, a full disk: exit 3); no key is "
                       "left behind",
    "install_failed": "`lexicon install` could not write the release (disk full, "
                      "permissions); nothing changed",
    "canary_failed": "a build flipped a profile's canary word; the release is not published",
    "bad_overrides": "an overrides file (`lexicon amend`) that is not UTF-8 text, or a line "
                     "of it that cannot be applied; nothing is published",
    "bad_import": "`lexicon import` of a list that is not UTF-8 or holds a line that can be "
                  "no word of the game (control character, too long, no tile of the game, "
                  "ambiguous Latin Kvizovka tiles); nothing is stored",
    "bad_audit_sheet": "an audit sheet or word list (`lexicon audit`) that cannot be read: not "
                       "UTF-8, no header row, a label other than Y, N, ?, sheets of several "
                       "games, no reviewer for `audit apply`",
    "audit_sheet_exists": "`lexicon audit draw` would overwrite an existing sheet (and its labels)",
    # the catch-alls: never expected, documented so that a client can still branch on them
    "lexicon_error": "a library error without a more specific code",
    "http_error": "an HTTP-level refusal without a more specific code",
    "internal_error": "a bug: the server or the command failed (reported, never by design; "
                      "CLI exit 5, never the exit code of a verdict)",
}
