"""The command-line face: ``lexicon fetch | build | releases | games | check | judge | rulings |
serve``, the queries ``blanks | pattern | anagram | hooks | extend`` and shipping
``keygen | bundle | install``.

Like the service, it only parses arguments and prints what the library returns. Exit codes
are part of the contract: 0 all words valid, 1 some word invalid, 2 a usage error (unknown
game, empty word, unreadable input), 3 a failed fetch or build, a damaged release or a
refused bundle, 4 a build or install refused because another one of the same game is
running, 5 an internal error (an exception nothing expected: a bug, or memory exhausted),
so that no crash is read as a verdict, and 141 when the output's reader stopped reading.
Which error is which is said once, by each error class's ``exit_code``
(:mod:`lexicon.errors`), and applied once, by :func:`_contract`, around every command;
how a result is shown to a person is :mod:`cli.render`.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import click
import typer
from lexicon.cli import render

from lexicon import (
    EDGE_SPACE,
    EXIT_FAILED,
    EXIT_INVALID,
    Catalog,
    InputError,
    InternalError,
    Lexicon,
    LexiconError,
    identity,
    language,
    read_history_file,
    stream_lines,
)

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


def _contract(command: Callable[..., Any]) -> Callable[..., Any]:
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


class _Typer(typer.Typer):
    """A Typer app whose every command (and callback) runs inside :func:`_contract`, so
    no command can forget the contract or decide it again."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = super().command(*args, **kwargs)
        return lambda f: register(_contract(f))

    def callback(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = super().callback(*args, **kwargs)
        return lambda f: register(_contract(f))


# plain help (no rich markup): rich read `[abc]` and `[^abc]` in `pattern --help` as style
# tags and dropped them; the README's CLI reference is this help, generated (tools/docs.py)
app = _Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
             help="Lexicon compiler and word checker for Kvizovka, Križemkražem, "
                  "Polish Scrabble (osps) and Remik słowny (remik).\n\n"
                  "Exit codes: 0 valid (found), 1 not valid (nothing found), 2 a usage "
                  "error, 3 a failed or refused operation (fetch, build, damaged or missing "
                  "release, bundle), 4 busy (another build or install of the game), 5 an "
                  "internal error (a bug or memory exhausted; one line on stderr, "
                  f"{TRACEBACK_ENV}=1 for the traceback).")


@app.command()
def games(as_json: Annotated[bool, typer.Option(
        "--json", help="one JSON object per game (as GET /v1/games)")] = False) -> None:
    """List the games, their limits and current releases."""
    cat = Catalog()
    for game in cat.games():
        p = cat.profile(game)
        rel = cat.release_or_none(game)
        if as_json:
            s = p.summary()
            s["release"] = rel.id if rel else None
            print(render.dump(s))
        else:
            print(f"{game:14} {p.name:28} {p.min_length}-{p.max_length} tiles  "
                  f"release: {rel.id if rel else '(none built)'}")


@app.command()
def fetch(source_ids: Annotated[list[str] | None, typer.Argument(
        help="source ids from sources/manifest.toml (default: all)")] = None) -> None:
    """Download and verify the pinned source dictionaries into the data directory."""
    from lexicon.sources import fetch as fetching
    specs = fetching.load_manifest()
    for sid in source_ids or list(specs):
        if sid not in specs:
            raise InputError(f"unknown source {sid!r}; known: {', '.join(specs)}",
                             code="unknown_source")
        fetching.check_installed(specs[sid])
        got = fetching.fetch(specs[sid])
        installed = fetching.verify_installed(got)
        note = f"; installed: {installed} files match the wheel" if installed else ""
        print(f"{sid:24} {specs[sid].version:14} sha256 {got.sha256[:16]}…  ok{note}")


@app.command()
def build(game_ids: Annotated[list[str], typer.Argument(help="games to build")],
          limit: Annotated[int | None, typer.Option(
              help="judge only N forms, sampled evenly over the sorted candidates (a quick smoke "
                   "build)")] = None,
          if_missing: Annotated[bool, typer.Option(
              "--if-missing", help="skip games that already have a current release (one whose "
                            "indexes are an older format is repacked)")]
          = False,
          workers: Annotated[int | None, typer.Option(
              min=1, help="processes that judge the forms (default: $LEXICON_BUILD_WORKERS, "
                          "else the machine's cores); the release is the same either way")]
          = None,
          drop_overrides: Annotated[bool, typer.Option(
              "--drop-overrides", help="build without the overrides `lexicon amend` made in "
                                       "the release being replaced (kept by default)")]
          = False) -> None:
    """Build and publish a new release for each game (atomically; the old one keeps serving
    if the build fails). The games are built shortest first, the plan and its expected
    duration on this machine are printed first, and a server running meanwhile answers
    each game as soon as it is published (503 not_ready, "being built", until then).

    A rebuild keeps every override the maintainer made in the release it replaces
    (`lexicon amend`, `audit apply` then amend), after the reviewed ones, and the plan line
    says how many; --drop-overrides builds without them."""
    from lexicon.build.pipeline import BuildContext
    from lexicon.build.plan import build_games
    build_games(game_ids, BuildContext(root=Catalog().root, limit=limit, workers=workers,
                                       drop_overrides=drop_overrides),
                if_missing=if_missing)


@app.command()
def verify(game: Annotated[str | None, typer.Argument(
               help="the game whose current release to check (default: every game)")] = None,
           as_json: Annotated[bool, typer.Option(
               "--json", help="one JSON object per game")] = False) -> None:
    """Check the current release of each game against its manifest: every file's size and
    sha256. Exit 0 when all are whole, 3 when one is damaged (it is then not served)."""
    cat = Catalog()
    games = [game] if game else cat.games()
    for g in games:
        cat.profile(g)
    damaged = 0
    for g in games:
        try:
            row = cat.verify(g)
        except LexiconError as exc:
            damaged += 1
            row = {"game": g, "state": "damaged", "error": exc.to_json()}
        if as_json:
            print(render.dump(row))
        elif row["state"] == "ok":
            what = (f"{row['files']} files, {row['bytes'] / 1e6:.1f} MB, sha256 match"
                    if row["files"] is not None else
                    "built before file tables: only LMDB sizes checked")
            print(f"{g:14} {row['release']}  ok ({what})")
        elif row["state"] == "no_release":
            print(f"{g:14} (none built)")
        else:
            print(f"{g:14} error [{row['error']['code']}]: {row['error']['message']}")
    raise typer.Exit(EXIT_FAILED if damaged else 0)


@app.command()
def amend(game: Annotated[str, typer.Argument(help="the game whose current release to amend")],
          overrides: Annotated[str, typer.Option(
              "--overrides", help="TSV: word, add|remove, reason (one a line)")]) -> None:
    """Publish a new release from the current one with overrides applied, without judging
    the sources again (about a minute, not a build's many; atomically; the manifest names
    the parent). A game playing another's vocabulary (remik) is amended through that game."""
    from lexicon.build.amend import derive, read_overrides
    Catalog().profile(game)
    path = derive(game, overrides=read_overrides(Path(overrides)), kind="amend")
    print(path.name)


@app.command()
def repack(game: Annotated[str, typer.Argument()],
           source: Annotated[str | None, typer.Option(
               "--from", help="release directory to repack (default: the current one)")]
           = None) -> None:
    """Rewrite a release in the current compact format (one in the older LMDB layout, say)
    and publish it as a new release; no word's verdict changes."""
    from lexicon.build.amend import derive
    Catalog().profile(game)
    path = derive(game, Path(source) if source else None, kind="repack")
    print(path.name)


@app.command("releases")
def list_releases(game: Annotated[str | None, typer.Argument()] = None,
                  as_json: Annotated[bool, typer.Option(
               "--json", help="one JSON object per game")] = False) -> None:
    """List published releases, newest first; * marks the one being served."""
    cat = Catalog()
    rows = cat.releases(game)
    for r in rows:
        if as_json:
            print(render.dump(r))
        else:
            c = r["counts"]
            print(f"{'*' if r['current'] else ' '} {r['release']:40} {r['built_at']}  "
                  f"valid {c.get('valid', 0):>9,}  rejected {c.get('rejected', 0):>9,}  "
                  f"{(r['size_bytes'] or 0) / 1e6:8.1f} MB")
    if not rows and not as_json:
        print(f"no releases built yet in {cat.root} (LEXICON_HOME, else ./data); run "
              f"`lexicon build GAME`")


Lang = Annotated[str | None, typer.Option(
    help="language of glosses and reasons: pl, sr, sr-Cyrl, sl or en (default: the game's)")]


@app.command()
def check(game: Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")],
          words: Annotated[list[str] | None, typer.Argument(help="words to check")] = None,
          from_file: Annotated[str | None, typer.Option(
              "--file", help="also check the words in this file, one per line ('-': stdin); "
                             "a word that cannot be checked gets an error object; a line "
                             "that is not UTF-8 (or over 64 KiB) stops the command (exit 2) "
                             "after the verdicts of the lines before it, with an error "
                             "object naming its line")]
          = None,
          edge: Annotated[bool, typer.Option(
              "--edge", help="Kvizovka: the word touches the board's edge (3 letters allowed)")]
          = False,
          as_json: Annotated[bool, typer.Option("--json", help="one JSON object per word")]
          = False, lang: Lang = None,
          release: Annotated[str | None, typer.Option(
              "--release", help="answer from this published release (valid as of edition X)")]
          = None,
          meaning: Annotated[bool, typer.Option(
              "--meaning", help="also print what the release's dictionaries say the word "
                                "means, with each source and licence (JSON: `meanings`)")]
          = False) -> None:
    """Check words. Exit 0 if all are valid, 1 if any is not, 2 on a usage error."""
    cat = Catalog()
    try:
        _check(cat, game, words, from_file, edge, as_json, lang, release, meaning)
    finally:
        cat.close()   # in-process callers (tests, embedding) may open the release again


def _check(cat: Catalog, game: str, words: list[str] | None, from_file: str | None,
           edge: bool, as_json: bool, lang: str | None, release: str | None,
           meaning: bool = False) -> None:
    shown = language(cat.profile(game).language, lang)   # a bad --lang before a missing release
    lex = cat.lexicon(game, release)            # one release answers every word
    if not words and from_file is None:
        raise InputError("give words to check, or --file", code="empty_word")
    out = sys.stdout
    all_valid = True

    def show(results: list[dict[str, Any]]) -> None:
        nonlocal all_valid
        for r in results:
            all_valid = all_valid and bool(r["valid"])
            text = render.dump(r) if as_json else render.human(r, shown)
            out.write(text + (render.meaning_lines(r) if meaning and not as_json else "") + "\n")
        out.flush()

    show([lex.check(w, edge=edge, lang=lang) for w in words or []])
    if from_file is not None:
        for chunk in _word_chunks(from_file):
            show(lex.check_many(chunk, edge=edge, lang=lang))
    raise typer.Exit(0 if all_valid else EXIT_INVALID)


#: lines checked at a time from ``check --file``: a word list of any size is read in
#: bounded memory, and verdicts appear while the rest is still being read
FILE_CHUNK = 2048


def _word_chunks(from_file: str) -> Iterator[list[str]]:
    """The file's words, a chunk at a time (one line at a time from a terminal, so a
    referee typing words sees each verdict at once), each line read bounded
    (:func:`lexicon.userfile.stream_lines`): a file, a pipe or stdin of any size is read
    in bounded memory. A line of white space only is skipped; one of U+0085 or \\v is a
    word (the checker refuses it). A line that is not UTF-8 (``bad_encoding``) or too
    long (``line_too_long``) stops the command with exit 2 at that line, after the
    verdicts of every line before it."""
    with _open_stream(from_file) as fh:
        size = 1 if fh.isatty() else FILE_CHUNK
        chunk: list[str] = []
        try:
            for _n, line in stream_lines(fh, _stream_name(from_file), "a word list"):
                if line.strip(EDGE_SPACE):
                    chunk.append(line)
                if len(chunk) >= size:
                    yield chunk
                    chunk = []
        except OSError as exc:
            raise InputError(f"cannot read {from_file}: {exc.strerror or exc}",
                             detail={"file": from_file}) from None
        except LexiconError:
            if chunk:
                yield chunk     # the verdicts up to the line that stops the command
            raise
        if chunk:
            yield chunk


def _open_stream(path: str) -> BinaryIO:
    """A file, a pipe or (``-``) standard input, opened to be read as a stream of lines
    (:func:`lexicon.userfile.stream_lines`); one that cannot be opened is ``bad_input``."""
    try:
        return sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}",
                         detail={"file": path}) from None


def _stream_name(path: str) -> str:
    return "stdin" if path == "-" else path


def _edge_flags(edge: bool, positions: list[int] | None, count: int) -> bool | list[bool]:
    """``--edge`` for the whole play, or ``--edge-word N`` for the words that touch it."""
    if not positions:
        return edge
    if edge or any(not 1 <= n <= count for n in positions):
        raise InputError(f"--edge-word takes word numbers 1..{count}, and not with --edge",
                         code="bad_play")
    return [n in positions for n in range(1, count + 1)]


@app.command()
def judge(game: Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")],
          words: Annotated[list[str] | None, typer.Argument(
              help="every word the play forms (not with --after)")] = None,
          edge: Annotated[bool, typer.Option(
              "--edge", help="Kvizovka: every word of the play touches the board's edge "
                             "(3 letters allowed)")] = False,
          edge_word: Annotated[list[int] | None, typer.Option(
              "--edge-word", help="Kvizovka: the Nth word (1 = the first) touches the "
                                  "board's edge; repeat for each such word")] = None,
          reveal: Annotated[bool, typer.Option(
              "--reveal", help="also show each word's verdict (settling a dispute)")] = False,
          as_json: Annotated[bool, typer.Option("--json", help="the ruling as one JSON object")]
          = False, lang: Lang = None,
          release: Annotated[str | None, typer.Option(
              "--release", help="rule with this published release (valid as of edition X)")]
          = None,
          before: Annotated[str | None, typer.Option(
              "--before", help="remik move: the table's words before it (spaces or commas)")]
          = None,
          after: Annotated[str | None, typer.Option(
              "--after", help="remik move: the table's words after it; rules on the move")]
          = None,
          rack: Annotated[str, typer.Option(
              "--rack", help="remik move: the letters on the player's shelf")] = "",
          opening: Annotated[bool, typer.Option(
              "--opening", help="remik move: the player's opening (5 letters, own tiles)")]
          = False,
          reopening: Annotated[bool, typer.Option(
              "--reopening", help="remik move: a re-opening after laying out every tile "
                                  "(4 letters, own tiles)")] = False,
          variant: Annotated[int, typer.Option(
              "--variant", help="remik move: rule-book variant 1 (leftovers back to the "
                                "shelf, 2 points a letter) or 2 (no leftovers)")] = 1,
          history: Annotated[str | None, typer.Option(
              "--history", help="remik move: earlier tables, one a line ('-': stdin); the "
                                "move may not repeat one")] = None,
          own: Annotated[list[str] | None, typer.Option(
              "--own", help="remik move: WORD=LETTERS, the letters of a laid word that came "
                            "from the shelf, as the referee saw it (WORD= for none); "
                            "repeat for each word")] = None) -> None:
    """One ruling for a whole play: exit 0 if it stands, 1 if it falls (which word failed is
    not said unless --reveal), 2 on a usage error, 3 when no release is built or the ruling
    cannot be logged (it is then not given). Every ruling is logged (see `lexicon rulings`).

    With --after (Remik) it rules on the move: which table word became which new word, the
    rule book's checks (opening, re-opening, rebuilds, leftovers, repeated arrangements),
    the points and the penalty."""
    move = after is not None or before is not None
    if move:
        if words:
            raise InputError("give the words of a play, or a move with --before/--after, "
                             "not both", code="bad_move")
        if after is None:
            raise InputError("a move needs --after: the table's words after it",
                             code="bad_move")
        earlier = (None if history is None else
                   read_history_file(sys.stdin.buffer if history == "-" else history))
    cat = Catalog()
    shown = language(cat.profile(game).language, lang)   # a bad --lang before a missing release
    lex = cat.lexicon(game, release)            # one release rules the play
    if move:
        ruling = lex.move(before, after, rack, opening=opening, reopening=reopening,
                          variant=variant, history=earlier, own=_own_pairs(own),
                          reveal=reveal, lang=lang)
    else:
        ruling = lex.judge(words or [], edge=_edge_flags(edge, edge_word, len(words or [])),
                           reveal=reveal, lang=lang)
    if as_json:
        print(render.dump(ruling))
    else:
        print(render.move_text(ruling, shown) if move else render.ruling_text(ruling, shown))
    sys.stdout.flush()
    raise typer.Exit(0 if ruling["valid"] else EXIT_INVALID)


def _own_pairs(pairs: list[str] | None) -> dict[str, str] | None:
    """``--own WORD=LETTERS`` options as the library's ``own`` mapping."""
    if not pairs:
        return None
    out: dict[str, str] = {}
    for pair in pairs:
        word, eq, letters = pair.partition("=")
        if not eq or not word.strip():
            raise InputError(f"--own {pair!r}: give WORD=LETTERS (the letters of WORD that "
                             f"came from the shelf)", code="bad_move")
        out[word.strip()] = letters.strip()
    return out


@app.command("rulings")
def list_rulings(date: Annotated[str | None, typer.Option(
                     help="the UTC day, YYYY-MM-DD (default: today)")] = None,
                 as_json: Annotated[bool, typer.Option("--json", help="one JSON object per "
                                                                     "ruling")] = False) -> None:
    """The rulings given on one day, oldest first; damaged lines (a disk that filled up
    mid-line) are skipped and counted. Exit 2 for a malformed --date, 3 when the log cannot
    be read."""
    day, log = Catalog().rulings(date)
    for r in log.rulings:
        if as_json:
            print(render.dump(r))
        else:
            print(render.ruling_line(r))
    if not log.rulings and not as_json:
        print(f"no rulings on {day.isoformat()}")
    if log.damaged:
        n = len(log.damaged)
        note = (f"{n} damaged line{'s' if n != 1 else ''} skipped (line{'s' if n != 1 else ''} "
                f"{', '.join(map(str, log.damaged[:10]))}{', …' if n > 10 else ''})")
        if as_json:     # one more object, told apart from a ruling by having no "time"
            print(render.dump({"damaged_lines": n, "lines": log.damaged}))
            typer.echo(note, err=True)
        else:
            print(note)


@app.command()
def serve(host: str = "127.0.0.1", port: int = 8000,
          workers: Annotated[int, typer.Option(help="uvicorn worker processes")] = 1,
          drain_seconds: Annotated[float, typer.Option(
              help="on SIGTERM, how long requests in flight may take to finish")] = 30.0,
          access_log: Annotated[bool, typer.Option(
              "--access-log/--no-access-log",
              help="one JSON line a request on stdout")] = True,
          head_timeout: Annotated[float | None, typer.Option(
              min=0.1, help="seconds a request head may take to arrive (from the connection, "
                            "or the previous answer) before the connection is closed "
                            "(default 10)")] = None,
          build_games: Annotated[list[str] | None, typer.Option(
              "--build", help="build this game if it has no release (repeatable), in a "
                              "`lexicon build --if-missing` process started beside the server: "
                              "each game is served as soon as it is published, and answers "
                              "503 not_ready (being built) until then")] = None) -> None:
    """Serve the HTTP API (OpenAPI docs at /docs; /healthz liveness, /readyz readiness).

    With --build, the missing games are built by a child process while the server answers
    the ones that are ready (`make serve`); the build's progress goes to stderr, and it runs
    to its end even if the server is stopped first (a release is published atomically).

    SIGTERM drains: the listening socket closes at once (a load balancer moves new requests
    to other replicas), requests in flight finish, idle connections close, and the process
    exits (by the re-raised SIGTERM, a clean stop for systemd); requests still running
    after --drain-seconds are cut.

    With --workers N, uvicorn's process manager runs N processes on one socket (the releases
    are memory-mapped: they share the page cache) and /metrics sums every worker's counts
    through PROMETHEUS_MULTIPROC_DIR (a fresh directory, or the given one emptied; refused,
    exit 4, while another running server uses it)."""
    import os

    from lexicon.service import heads, launch, metrics
    if workers > 1 or os.environ.get(metrics.MULTIPROC_ENV):
        metrics.prepare_multiprocess()      # before any worker records a value
    os.environ[metrics.ACCESS_LOG_ENV] = "1" if access_log else "0"
    if head_timeout is not None:
        os.environ[heads.HEAD_TIMEOUT_ENV] = str(head_timeout)   # read by every worker
    if build_games:
        for g in build_games:
            Catalog().profile(g)       # an unknown game is refused before anything starts
        import subprocess
        subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "build", "--if-missing",
                          *build_games], stdout=sys.stderr)
    # where it looks and what it found, before anything else: a server on the wrong data
    # directory answers every game 503, which says nothing of why. The catalog is closed
    # before the app opens its own (LMDB opens an environment once per process).
    from lexicon import startup_report, startup_text
    found = Catalog()
    try:
        typer.echo(f"lexicon serve: {startup_text(startup_report(found))}", err=True)
    finally:
        found.close()
    launch.run("lexicon.service.app:create_app", host=host, port=port, workers=workers,
               log_level="info", access_log=False, timeout_graceful_shutdown=drain_seconds)


# -- engine and referee queries (lexicon.queries.queries) ------------------------------------------
# Exit codes: 0 something found, 1 nothing found, 2 a refused query (bad pattern or rack,
# a limit), 3 no release or no index for the game.

def _lexicon(game: str) -> Lexicon:
    """The current release of ``game``, for one query."""
    return Catalog().lexicon(game)


def _query(run: Callable[[], dict], as_json: bool, show: Callable[[dict], str],
           found: Callable[[dict], bool]) -> None:
    result = run()
    print(render.dump(result) if as_json else show(result))
    sys.stdout.flush()
    raise typer.Exit(0 if found(result) else EXIT_INVALID)


Game = Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")]
Sort = Annotated[str, typer.Option(help="alpha, score or length")]
Limit = Annotated[int, typer.Option(help="results per page (at most 500)")]
Offset = Annotated[int, typer.Option(help="skip this many results")]
AsJson = Annotated[bool, typer.Option("--json", help="print the JSON the HTTP API returns")]


@app.command()
def blanks(game: Game,
           word: Annotated[str, typer.Argument(help="a word with jokers as '?', e.g. KA?IN")],
           edge: Annotated[bool, typer.Option("--edge", help="Kvizovka board-edge rule")]
           = False, sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
           as_json: AsJson = False) -> None:
    """Every admissible word a word with jokers can be, and what each joker stands for."""
    _query(lambda: _lexicon(game).blanks(word, edge=edge, sort=sort, limit=limit,
                                         offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


@app.command()
def pattern(game: Game,
            text: Annotated[str, typer.Argument(
                metavar="PATTERN", help="? one tile, * any run, [abc] a set, [^abc] not")],
            min_length: Annotated[int | None, typer.Option(help="fewest tiles")] = None,
            max_length: Annotated[int | None, typer.Option(help="most tiles")] = None,
            sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
            as_json: AsJson = False) -> None:
    """Words matching a pattern, counted and paged."""
    _query(lambda: _lexicon(game).pattern(text, min_length=min_length,
                                          max_length=max_length, sort=sort, limit=limit,
                                          offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


@app.command()
def anagram(game: Game,
            rack: Annotated[str, typer.Argument(help="the rack's tiles, '?' for a joker")],
            board: Annotated[str, typer.Option(
                help="letters on the board the word must use")] = "",
            exact: Annotated[bool, typer.Option(
                "--exact", help="only words that use the whole rack")] = False,
            min_length: Annotated[int | None, typer.Option(help="fewest tiles")] = None,
            max_length: Annotated[int | None, typer.Option(help="most tiles")] = None,
            sort: Sort = "score", limit: Limit = 50, offset: Offset = 0,
            as_json: AsJson = False) -> None:
    """Anagrams and sub-anagrams of a rack (plus jokers and board letters)."""
    _query(lambda: _lexicon(game).anagrams(rack, board=board, exact=exact,
                                           min_length=min_length, max_length=max_length,
                                           sort=sort, limit=limit, offset=offset),
           as_json, render.listing, lambda r: r["count"] > 0)


@app.command()
def extend(game: Game,
           word: Annotated[str, typer.Argument(help="the word on the table")],
           rack: Annotated[str, typer.Argument(help="the letters on the player's shelf")],
           edge: Annotated[bool, typer.Option(
               "--edge", help="Kvizovka: the new word touches the board's edge (3 tiles "
                              "allowed)")] = False,
           sort: Sort = "alpha", limit: Limit = 50, offset: Offset = 0,
           as_json: AsJson = False) -> None:
    """Remik's rebuilds: every word using all the letters of a table word plus at least one
    rack letter, with the rack letters each uses. No word shorter than the game lets a
    player lay is offered."""
    _query(lambda: _lexicon(game).extend(word, rack, edge=edge, sort=sort, limit=limit,
                                         offset=offset),
           as_json, render.rebuilds_listing,
           lambda r: r["count"] > 0)


@app.command()
def hooks(game: Game, word: Annotated[str, typer.Argument(help="a word or a prefix")],
          as_json: AsJson = False) -> None:
    """Tiles that extend a word at the front or back, and whether it is a prefix."""
    _query(lambda: _lexicon(game).hooks(word), as_json, render.hooks_text,
           lambda r: bool(r["front"] or r["back"]))


# -- maintainers: export, identity, diffs, shipping (lexicon.export.export, lexicon.shipping) ------

Release = Annotated[str | None, typer.Option(
    "--release", help="a published release id (default: the current one)")]


@app.command()
def export(game: Game,
           fmt: Annotated[str, typer.Option(
               "--format", help="words | tiles | jsonl | kwg (wolges DAWG+GADDAG) | kbwg (wolges' "
               "big KWG) | engine (a folder an engine loads: lexicon, alphabet, "
               "distribution, board, rules)")] = "words",
           output: Annotated[str | None, typer.Option(
               "--output", "-o", help="write to this file (atomically); kwg and kbwg "
               "require it, engine takes a folder")]
           = None,
           release: Release = None,
           dawg_only: Annotated[bool, typer.Option(
               "--dawg-only", help="kwg, kbwg: the DAWG alone (node 0), as wolges' DawgOnly")]
           = False) -> None:
    """The words valid in a game (its play rules applied), sorted, for engines and tools."""
    cat = Catalog()
    try:
        result = cat.lexicon(game, release).export(fmt, Path(output) if output else None,
                                                   stdout=sys.stdout, dawg_only=dawg_only)
    finally:
        cat.close()
    sys.stdout.flush()
    if output:
        typer.echo(render.dump(result), err=True)


@app.command()
def diff(game: Game,
         old: Annotated[str | None, typer.Argument(
             help="the older release id (default: the one NEW was built after)")] = None,
         new: Annotated[str | None, typer.Argument(
             help="the newer release id (default: the current release)")] = None,
         as_json: Annotated[bool, typer.Option(
             "--json", help="print the diff as one JSON object (the CLI's own: the HTTP API "
                            "has no diff)")] = False,
         summary: Annotated[bool, typer.Option(
             "--summary", help="the edition diff: counts by verdict and reason before and "
             "after, added and removed words by class with samples, not every word")] = False,
         samples: Annotated[int, typer.Option(
             "--samples", min=1, max=200, help="--summary: samples per class")] = 12) -> None:
    """Words added and removed between two releases, by length (what an edition publishes)."""
    cat = Catalog()
    try:
        result = cat.lexicon(game, new).diff(old, summary=summary, samples=samples)
    finally:
        cat.close()
    if as_json:
        print(render.dump(result))
    else:
        print(render.summary_text(result) if summary else render.diff_text(result))


@app.command()
def keygen(output: Annotated[str | None, typer.Option(
        "--output", "-o", help="the private key file (default: ./lexicon-signing.key); the "
                               "public key goes beside it as FILE.pub")] = None) -> None:
    """Make an ed25519 key pair for signing bundles: the private key (mode 0600) stays on the
    build machine, FILE.pub goes into each server's $LEXICON_HOME/trusted-keys/."""
    from pathlib import Path

    from lexicon.build import signing
    print(render.dump(signing.keygen(Path(output) if output else None)))


@app.command()
def bundle(game: Game,
           release_id: Annotated[str | None, typer.Argument(
               metavar="RELEASE", help="a published release id (default: the current one)")]
           = None,
           output: Annotated[str | None, typer.Option(
               "--output", "-o", help="the bundle file (default: RELEASE.lexbundle.tar)")]
           = None,
           sign: Annotated[str | None, typer.Option(
               "--sign", metavar="KEY",
               help="sign it with this private key (`lexicon keygen`): writes FILE.sig")]
           = None) -> None:
    """Pack a release into one file (+ FILE.sha256, and FILE.sig with --sign) for
    `lexicon install`."""
    from pathlib import Path

    from lexicon.build import shipping
    print(render.dump(shipping.bundle(game, release_id, Path(output) if output else None,
                                      key=Path(sign) if sign else None)))


@app.command()
def install(path: Annotated[str, typer.Argument(metavar="BUNDLE", help="a .lexbundle.tar")],
            sha256: Annotated[str | None, typer.Option(
                help="the expected sha256 (default: read from BUNDLE.sha256 beside it)")]
            = None,
            signature: Annotated[str | None, typer.Option(
                metavar="SIG", help="the signature file (default: BUNDLE.sig beside it)")]
            = None,
            allow_unsigned: Annotated[bool, typer.Option(
                "--allow-unsigned",
                help="install without checking who signed it (sha256, contents and the "
                     "release are still checked)")] = False,
            current: Annotated[bool, typer.Option(
                "--current/--no-current", help="serve it (switch CURRENT) once installed")]
            = True,
            allow_downgrade: Annotated[bool, typer.Option(
                "--allow-downgrade",
                help="serve it even if it was built before the release being served (a "
                     "rollback); without it such a bundle is refused (older_release)")]
            = False) -> None:
    """Verify a bundle (sha256, a signature by a key in $LEXICON_HOME/trusted-keys/, its
    contents, then the release as a build's publish does) and publish it atomically."""
    from pathlib import Path

    from lexicon.build import shipping
    print(render.dump(shipping.install(Path(path), sha256=sha256, make_current=current,
                                       allow_unsigned=allow_unsigned,
                                       allow_downgrade=allow_downgrade,
                                       signature=Path(signature) if signature else None)))


@app.command()
def rollback(game: Game,
             release_id: Annotated[str | None, typer.Argument(
                 metavar="RELEASE", help="the release to serve (default: the newest one "
                                         "built before the one being served)")] = None
             ) -> None:
    """Serve an older release of GAME again: check it as `install` does (sizes, sha256,
    opened, canaries), then switch CURRENT atomically and log the switch in
    releases/GAME/CURRENT.log. A release that fails its checks is refused, nothing changed."""
    from lexicon.build.rollback import roll_back
    print(render.dump(roll_back(game, release_id)))


@app.command("import")
def import_list(game: Game,
                path: Annotated[str, typer.Argument(
                    metavar="FILE", help="the authoritative list, one word a line")],
                mode: Annotated[str, typer.Option(
                    help="restrict (only its words valid) | admit (its words valid) | "
                         "annotate (evidence only)")] = "restrict",
                name: Annotated[str | None, typer.Option(
                    help="the list's name in evidence and manifests (default: file stem)")]
                = None,
                licence: Annotated[str, typer.Option("--licence", help="its licence")] = "",
                credit: Annotated[str, typer.Option(help="the credit its authors ask for")]
                = "") -> None:
    """Pin an authoritative word list by sha256; the game's next build applies it."""
    from pathlib import Path

    from lexicon.build import official_lists
    pin = official_lists.import_list(Catalog().profile(game), Path(path), mode, name=name,
                              license=licence, credit=credit)
    print(render.dump(pin))


@app.command("hash")
def hash_list(path: Annotated[str, typer.Argument(
        help="a word list, one word a line ('-': stdin), e.g. from `lexicon export`")]) -> None:
    """Quackle's order-independent content hash and counts by length of a plain word list
    (compare with a manifest's `content_hash`)."""
    with _open_stream(path) as fh:
        words = dict.fromkeys(w for _n, ln in stream_lines(fh, _stream_name(path), "a word list")
                              if (w := ln.strip()))
    print(render.dump(identity(words)))


# -- maintainers: the pinned sources (sources.pins, sources.editions, build.source_pack) -------

sources_app = _Typer(no_args_is_help=False, invoke_without_command=True, rich_markup_mode=None,
                     help="The pinned sources: list, re-pin, diff, carry the cache.")
app.add_typer(sources_app, name="sources")


SourcesJson = Annotated[bool, typer.Option("--json", help="JSON: one object per line")]
SourceSuite = Annotated[str | None, typer.Option(help="take it from this configured suite")]


@sources_app.callback()
def sources_list(ctx: typer.Context,
                 refresh: Annotated[bool, typer.Option(
                     "--refresh", help="fetch the suites' indexes again (else: when older "
                                       "than a day)")] = False,
                 as_json: SourcesJson = False) -> None:
    """Every source: its pin (version, suite, sha256) and the newest version each
    configured Debian suite offers."""
    if ctx.invoked_subcommand is not None:
        return
    from lexicon.sources import pins
    for r in pins.status(refresh=refresh):
        print(render.dump(r) if as_json else render.source_row(r))


@sources_app.command("update")
def sources_update(name: Annotated[str, typer.Argument(help="a source id")],
                   version: Annotated[str | None, typer.Option(
                       help="pin this version (default: the newest offered)")] = None,
                   suite: SourceSuite = None,
                   as_json: SourcesJson = False) -> None:
    """Download and verify a version and rewrite the source's pin (version, suite, sha256)
    in sources/manifest.toml; the next build uses it."""
    from lexicon.sources import pins
    out = pins.update(name, version=version, suite=suite)
    print(render.dump(out) if as_json else render.source_update(name, out))


@sources_app.command("diff")
def sources_diff(name: Annotated[str, typer.Argument(help="a source id")],
                 version: Annotated[str | None, typer.Option(
                     help="compare with this version (default: the newest offered)")] = None,
                 suite: SourceSuite = None,
                 samples: Annotated[int, typer.Option(help="samples per class")] = 12,
                 as_json: SourcesJson = False) -> None:
    """What the source's word list gains and loses against its pin: counts, classes of
    change (capitalisation moves, removed -skość derivations, ...) and samples. Nothing is
    re-pinned or rebuilt."""
    from lexicon.sources import editions, pins
    result = pins.diff(name, version=version, suite=suite, samples=samples)
    print(render.dump(result) if as_json else editions.as_text(result))


@sources_app.command("pack")
def sources_pack(source_ids: Annotated[list[str] | None, typer.Argument(
                     help="source ids (default: every source the cache holds)")] = None,
                 output: Annotated[str | None, typer.Option(
                     "--output", "-o", help="the file (default: lexicon.sources.tar)")]
                 = None) -> None:
    """Pack the verified cache's artifacts into one file (+ FILE.sha256 beside it), to
    carry pins that have left the archive to another build machine."""
    from lexicon.build import source_pack
    print(render.dump(source_pack.pack(Path(output) if output else None, ids=source_ids)))


@sources_app.command("unpack")
def sources_unpack(path: Annotated[str, typer.Argument(metavar="FILE",
                                                       help="a packed source cache")],
                   sha256: Annotated[str | None, typer.Option(
                       help="the expected sha256 (default: read from FILE.sha256)")] = None
                   ) -> None:
    """Verify a packed cache (its sha256, safe members, every artifact against its pin)
    and fill this machine's cache from it. Exit 3 if anything was refused."""
    from lexicon.build import source_pack
    out = source_pack.unpack(Path(path), sha256=sha256)
    print(render.dump(out))
    raise typer.Exit(EXIT_FAILED if out["refused"] else 0)



# -- maintainers: the audit (lexicon.audit, through the door) -------------------------------

audit_app = _Typer(no_args_is_help=True, rich_markup_mode=None,
                   help="Measure a release by labelled samples: draw a sheet, score it, "
                        "compare with a reference list, turn labels into overrides.")
app.add_typer(audit_app, name="audit")

AuditJson = Annotated[bool, typer.Option("--json", help="the result as one JSON object")]
AuditRelease = Annotated[str | None, typer.Option(
    "--release", help="a published release id (default: the current one)")]


@audit_app.command("draw")
def audit_draw(game: Annotated[str, typer.Argument(help="the game whose release to sample")],
               per_class: Annotated[int, typer.Option(
                   "--per-class", help="words drawn from each evidence class")] = 20,
               seed: Annotated[int, typer.Option(help="the random seed (same seed, same "
                                                      "release: same sheet)")] = 0,
               words: Annotated[str | None, typer.Option(
                   "--from-list", help="draw from this word list (one word a line, e.g. a "
                                       "corpus's most frequent words) instead of the "
                                       "release's keys")] = None,
               exclude_labelled: Annotated[bool, typer.Option(
                   "--exclude-labelled", help="leave out words labelled in the game's "
                                              "sheets")] = False,
               exclude: Annotated[list[str] | None, typer.Option(
                   "--exclude", metavar="SHEET", help="leave out the words labelled in this "
                                                      "sheet (repeatable)")] = None,
               name: Annotated[str | None, typer.Option(
                   help="the sheet's name (default: release, list and seed)")] = None,
               release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Draw a seeded stratified sample of a release by evidence class and write it as a
    labelling sheet under $LEXICON_HOME/audits/GAME/."""
    out = Catalog().lexicon(game, release).audit_draw(
        per_class=per_class, seed=seed, words=Path(words) if words else None,
        exclude_labelled=exclude_labelled, exclude=exclude or (), name=name)
    print(render.dump(out) if as_json else render.audit_drawn(out))


@audit_app.command("score")
def audit_score(sheets: Annotated[list[str], typer.Argument(
                    metavar="SHEET...", help="labelled sheets (paths or names), oldest first")],
                population: Annotated[str | None, typer.Option(
                    "--population", help="weigh by this word list's words instead of the "
                                         "release's")] = None,
                doubtful: Annotated[str, typer.Option(
                    help="a '?' label: left out of the counts (out) or counted as half "
                         "(half)")] = "out",
                game: Annotated[str | None, typer.Option(
                    "--game", help="score this game's release (default: the sheets' "
                                   "game); a game playing the sheets' game's vocabulary, "
                                   "as remik plays osps's")] = None,
                release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Precision, missed share and recall of a release (any release: labels belong to
    words) by class and overall, class-size weighted, with 95% Wilson intervals; classes
    ranked by the wrong verdicts they are estimated to hold."""
    cat = Catalog()
    out = cat.lexicon(game or cat.audit_game(sheets), release).audit_score(
        sheets, population=Path(population) if population else None, doubtful=doubtful)
    print(render.dump(out) if as_json else render.audit_score(out))


@audit_app.command("compare")
def audit_compare(game: Annotated[str, typer.Argument()],
                  words: Annotated[str, typer.Argument(
                      metavar="LIST", help="a reference word list, one word a line")],
                  samples: Annotated[int, typer.Option(help="samples per class")] = 12,
                  release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """A release against a reference list: the share of each evidence class found in the
    list, and the list's words by verdict and reason code, with samples."""
    out = Catalog().lexicon(game, release).audit_compare(Path(words), samples=samples)
    print(render.dump(out) if as_json else render.audit_compare(out))


@audit_app.command("apply")
def audit_apply(sheet: Annotated[str, typer.Argument(help="a reviewed sheet")],
                reviewer: Annotated[str | None, typer.Option(
                    help="who reviewed it (default: the sheet's '# reviewer:' line)")] = None,
                date: Annotated[str | None, typer.Option(
                    help="the review's date (default: the sheet's, else today)")] = None,
                output: Annotated[str | None, typer.Option(
                    "--output", "-o", help="the overrides file (default: beside the sheet)")]
                = None,
                release: AuditRelease = None, as_json: AuditJson = False) -> None:
    """Write the labels the release disagrees with as an overrides file; `lexicon amend
    GAME --overrides FILE` then publishes a release that follows them."""
    game = Catalog().audit_game([sheet])
    out = Catalog().lexicon(game, release).audit_apply(
        sheet, reviewer=reviewer, date=date, output=Path(output) if output else None)
    print(render.dump(out) if as_json else render.audit_applied(out))


@audit_app.command("list")
def audit_list(game: Annotated[str | None, typer.Argument()] = None,
               as_json: AuditJson = False) -> None:
    """The audit sheets under $LEXICON_HOME/audits/, with their size, labels and the
    release each was drawn from."""
    for s in Catalog().audit_sheets(game):
        print(render.dump(s) if as_json else render.audit_sheet_row(s))

if __name__ == "__main__":
    app()
