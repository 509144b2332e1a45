"""The sources and lists a build reads: ``lexicon fetch | import | hash`` and the
``lexicon sources`` group (the pins: list, re-pin, diff, carry the cache; :mod:`sources.pins`,
:mod:`sources.editions`, :mod:`build.source_pack`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from lexicon.cli import render
from lexicon.cli.contract import Commands
from lexicon.cli.options import Game
from lexicon.cli.streams import open_stream, stream_name

from lexicon import EXIT_FAILED, Catalog, InputError, identity, stream_lines


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


def hash_list(path: Annotated[str, typer.Argument(
        help="a word list, one word a line ('-': stdin), e.g. from `lexicon export`")]) -> None:
    """Quackle's order-independent content hash and counts by length of a plain word list
    (compare with a manifest's `content_hash`)."""
    with open_stream(path) as fh:
        words = dict.fromkeys(w for _n, ln in stream_lines(fh, stream_name(path), "a word list")
                              if (w := ln.strip()))
    print(render.dump(identity(words)))


app = Commands(no_args_is_help=False, invoke_without_command=True, rich_markup_mode=None,
                     help="The pinned sources: list, re-pin, diff, carry the cache.")


SourcesJson = Annotated[bool, typer.Option("--json", help="JSON: one object per line")]


SourceSuite = Annotated[str | None, typer.Option(help="take it from this configured suite")]


@app.callback()
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


@app.command("update")
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


@app.command("diff")
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


@app.command("pack")
def sources_pack(source_ids: Annotated[list[str] | None, typer.Argument(
                     help="source ids (default: every source the cache holds)")] = None,
                 output: Annotated[str | None, typer.Option(
                     "--output", "-o", help="the file (default: lexicon.sources.tar)")]
                 = None) -> None:
    """Pack the verified cache's artifacts into one file (+ FILE.sha256 beside it), to
    carry pins that have left the archive to another build machine."""
    from lexicon.build import source_pack
    print(render.dump(source_pack.pack(Path(output) if output else None, ids=source_ids)))


@app.command("unpack")
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
