"""The arguments the commands of several modules take alike."""

from __future__ import annotations

from typing import Annotated

import typer

Game = Annotated[str, typer.Argument(help="osps, remik, kvizovka, krizemkrazem")]
