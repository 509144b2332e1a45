"""``python -m tools.export_sizes``: the engine exports of each game, their sizes, nodes,
time and peak memory, as the docs' table (``docs/figures/engine-exports.json``).

    python -m tools.export_sizes --home data [--games osps kvizovka] [--figures DIR]

Each export is the real ``lexicon export`` in a process of its own (so its peak memory is
its own, read from the kernel's accounting of the finished child): the word list (gzip -9
of it beside), the KWG, the big KWG where the KWG cannot hold the game, and the DAWG alone.
Prints one JSON object per game. ``--home`` is only read: the files go to a temporary
directory.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tools import figures

COLUMNS = ["game", "words", "`kwg` (DAWG + GADDAG)", "`kbwg`", "`--dawg-only`",
           "gzip -9 of the word list"]


def _export(home: Path, game: str, out: Path, *args: str) -> dict[str, Any]:
    """One ``lexicon export GAME ARGS -o OUT`` as a child: exit, seconds, peak RSS, the
    error code it printed, the file's bytes and nodes."""
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "export", game, *args,
                             "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "LEXICON_HOME": str(home)}, text=True)
    _pid, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read() if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    found = [w.strip("[]:") for w in err.split() if w.startswith("[")]
    size = out.stat().st_size if code == 0 else None
    return {"exit": code, "seconds": round(time.monotonic() - started, 1),
            "peak_rss_mb": round(usage.ru_maxrss / 1024), "error": found[0] if found else None,
            "bytes": size, "nodes": size // 4 if size and args[1] != "words" else None}


def measure(home: Path, game: str, tmp: Path) -> dict[str, Any]:
    words = _export(home, game, tmp / f"{game}.txt", "--format", "words")
    text = (tmp / f"{game}.txt").read_bytes()
    figure = {"figure": "engine_exports", "game": game, "words": text.count(b"\n"),
              "words_gzip9_bytes": len(gzip.compress(text, 9)), "words_export": words,
              "kwg": _export(home, game, tmp / f"{game}.kwg", "--format", "kwg")}
    if figure["kwg"]["exit"] != 0:
        figure["kbwg"] = _export(home, game, tmp / f"{game}.kbwg", "--format", "kbwg")
    fmt = "kwg" if figure["kwg"]["exit"] == 0 else "kbwg"
    figure["dawg_only"] = _export(home, game, tmp / f"{game}-dawg.{fmt}", "--format", fmt,
                                  "--dawg-only")
    return figure


def _cell(e: dict[str, Any] | None) -> str:
    if e is None:
        return ""
    if e["exit"] != 0:
        return f"does not fit (`{e['error']}`, after {e['seconds']} s and {e['peak_rss_mb']:,} MB)"
    return (f"{e['bytes'] / 1e6:.1f} MB, {e['nodes'] / 1e6:.2f}M nodes; {e['seconds']} s and "
            f"{e['peak_rss_mb']:,} MB to write")


def rows(measured: list[dict[str, Any]]) -> list[list[str]]:
    """The docs' table: a row per game."""
    return [[f["game"], f"{f['words']:,}", _cell(f["kwg"]), _cell(f.get("kbwg")),
             f"{f['dawg_only']['bytes'] / 1e6:.1f} MB" if f["dawg_only"]["bytes"] else "",
             f"{f['words_gzip9_bytes'] / 1e6:.1f} MB"] for f in measured]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path,
                        default=Path(os.environ.get("LEXICON_HOME", "data")))
    parser.add_argument("--games", nargs="+", default=["osps", "kvizovka"])
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' table there (docs/figures: make bench)")
    args = parser.parse_args(argv)
    measured = []
    with tempfile.TemporaryDirectory(prefix="lexicon-export-sizes-") as tmp:
        for game in args.games:
            figure = measure(args.home.resolve(), game, Path(tmp))
            print(json.dumps(figure, ensure_ascii=False), flush=True)
            measured.append(figure)
    if args.figures:
        figures.write(args.figures, "engine-exports", tool="tools.export_sizes",
                      columns=COLUMNS, rows=rows(measured), figures=measured, argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
