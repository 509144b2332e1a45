"""The releases: ``lexicon games | build | verify | amend | repack | releases | export |
diff``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from lexicon.cli import render
from lexicon.cli.options import Game

from lexicon import EXIT_FAILED, Catalog, LexiconError


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


Release = Annotated[str | None, typer.Option(
    "--release", help="a published release id (default: the current one)")]


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
