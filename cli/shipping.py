"""Shipping releases between machines: ``lexicon keygen | bundle | install | rollback``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from lexicon.cli import render
from lexicon.cli.options import Game


def keygen(output: Annotated[str | None, typer.Option(
        "--output", "-o", help="the private key file (default: ./lexicon-signing.key); the "
                               "public key goes beside it as FILE.pub")] = None) -> None:
    """Make an ed25519 key pair for signing bundles: the private key (mode 0600) stays on the
    build machine, FILE.pub goes into each server's $LEXICON_HOME/trusted-keys/."""

    from lexicon.build import signing
    print(render.dump(signing.keygen(Path(output) if output else None)))


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

    from lexicon.build import shipping
    print(render.dump(shipping.bundle(game, release_id, Path(output) if output else None,
                                      key=Path(sign) if sign else None)))


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

    from lexicon.build import shipping
    print(render.dump(shipping.install(Path(path), sha256=sha256, make_current=current,
                                       allow_unsigned=allow_unsigned,
                                       allow_downgrade=allow_downgrade,
                                       signature=Path(signature) if signature else None)))


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
