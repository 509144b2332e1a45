"""The command line's contract, applied once around every command: which error is which
exit code and what is printed for it.

Exit codes are part of the contract: 0 all words valid, 1 some word invalid, 2 a usage
error (unknown game, empty word, unreadable input), 3 a failed fetch or build, a damaged
release or a refused bundle, 4 a build or install refused because another one of the same
game is running, 5 an internal error (an exception nothing expected: a bug, or memory
exhausted), so that no crash is read as a verdict, and 141 when the output's reader stopped
reading. Which error is which is said once, by each error class's ``exit_code``
(:mod:`lexicon.errors`), and applied once, by :func:`guard`, which every command of a
:class:`Commands` app runs inside.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import click
import typer

from lexicon import EXIT_FAILED, InternalError, LexiconError

#: set (to anything but empty) to let an unexpected exception's traceback through, for a
#: bug report; by default the CLI prints one line and exits 5
TRACEBACK_ENV = "LEXICON_TRACEBACK"


def _internal(exc: BaseException) -> InternalError:
    """An unexpected exception as one line: its type and the first line of its message."""
    text = (str(exc).strip().splitlines() or [""])[0][:200]
    return InternalError(f"internal error, not a verdict: {type(exc).__name__}"
                         f"{': ' + text if text else ''} (a bug, or the machine ran out of "
                         f"memory; {TRACEBACK_ENV}=1 shows the traceback)",
                         detail={"exception": type(exc).__name__})


def guard(command: Callable[..., Any]) -> Callable[..., Any]:
    """The CLI's one error handler: a :class:`LexiconError` leaving a command prints
    ``error [code]: message`` on stderr (and, under ``--json``, ``{"error": ...}`` on
    stdout) and exits with the error's own ``exit_code``; any other exception (a bug, a
    ``MemoryError``) is ``internal_error``, exit 5, never 1 (a word not valid). Never a
    traceback, unless :data:`TRACEBACK_ENV` asks for one."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return command(*args, **kwargs)
            finally:
                sys.stdout.flush()   # a reader gone is found here, not at interpreter exit
        except LexiconError as exc:
            error = exc
        except BrokenPipeError:
            _reader_gone()
        except (typer.Exit, typer.Abort, click.exceptions.Exit, click.exceptions.Abort,
                click.ClickException):
            raise   # the verdicts' exit codes, Ctrl-C, usage errors: not failures
        except Exception as exc:
            if os.environ.get(TRACEBACK_ENV):
                raise
            error = _internal(exc)
        if kwargs.get("as_json"):
            print(json.dumps({"error": error.to_json()}, ensure_ascii=False))
        sys.stdout.flush()
        typer.echo(f"error [{error.code}]: {error.message}", err=True)
        raise typer.Exit(error.exit_code or EXIT_FAILED) from None
    return run


#: the exit status of a command whose reader stopped reading (``lexicon export … | head``):
#: the shell's own for a process ended by SIGPIPE (128 + 13), so a pipeline reads it as the
#: usual early end of a reader, and never as a verdict or an internal error
EXIT_READER_GONE = 141


def _reader_gone() -> None:
    """The output's reader went away: stop quietly. Standard output is pointed at
    /dev/null first, so the interpreter's own flush at exit cannot fail a second time."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None   # not a file (an in-process runner): nothing is flushed at exit
    if fd is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    raise typer.Exit(EXIT_READER_GONE)


class Commands(typer.Typer):
    """A Typer app whose every command (and callback) runs inside :func:`guard`, so
    no command can forget the contract or decide it again."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = super().command(*args, **kwargs)
        return lambda f: register(guard(f))

    def callback(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = super().callback(*args, **kwargs)
        return lambda f: register(guard(f))
