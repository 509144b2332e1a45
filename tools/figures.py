"""The measured figures the docs show, kept as one JSON file a table (``docs/figures/``).

A benchmark tool given ``--figures DIR`` writes each table it measures as
``DIR/NAME.json`` (:func:`write`): the table's columns and rows, as the tool formats them
from its own figures, beside those figures and where they come from (the tool, the
command, the day, the machine). ``python -m tools.docs`` renders each table into its page
from that file with its provenance (:func:`render`, a generated part
``<!-- generated: figures-NAME -->``), and ``--check`` fails when a page and its files
differ. So a figure in the docs is one run's, never typed by hand, and re-running the
tool (``make bench``) is what changes it.

A file whose figures could not be measured again when the tables moved here says so in
``source`` (transcribed from the typed table it replaces, with that table's day); the
next run of its tool replaces it.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: where the docs' figures live (``make bench`` writes here)
FIGURES = ROOT / "docs" / "figures"
#: the columns of the docs' reliability table, a row of which each reliability tool writes
RELIABILITY = ["figure", "command", "result"]


def machine() -> dict[str, Any]:
    """What the figures depend on besides the code: cores, memory, system, Python, and how
    busy the machine was when they were written (the load averages)."""
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "memory_gib": memory,
            "system": f"{platform.system()} {platform.release()} {platform.machine()}",
            "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def write(folder: Path, name: str, *, tool: str, columns: Sequence[str],
          rows: Sequence[Sequence[Any]], figures: Sequence[dict[str, Any]],
          argv: Sequence[str] | None = None, note: str | None = None) -> Path:
    """Write table ``name`` (``folder/NAME.json``) as measured now by ``tool``: ``rows`` of
    cells (one per column) and the raw ``figures`` they were formatted from."""
    if any(len(row) != len(columns) for row in rows):
        raise ValueError(f"{name}: every row needs {len(columns)} cells")
    command = "python -m " + tool + "".join(
        " " + shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    data = {"table": name, "tool": tool, "command": command,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
            "source": "run", "machine": machine(), "note": note,
            "columns": list(columns), "rows": [[str(c) for c in row] for row in rows],
            "figures": list(figures)}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load(name: str, folder: Path = FIGURES) -> dict[str, Any]:
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


def provenance(data: dict[str, Any]) -> str:
    """One line saying where a table's figures come from."""
    m = data.get("machine") or {}
    where = ", ".join(x for x in (
        f"{m['cpus']} cores" if m.get("cpus") else "",
        f"{m['memory_gib']} GiB" if m.get("memory_gib") else "",
        m.get("system", ""),
        f"Python {m['python']}" if m.get("python") else "",
        "load {}".format(" / ".join(str(x) for x in m["load_average"]))
        if m.get("load_average") else "") if x)
    command = data["command"]
    if command.startswith(("python ", "lexicon ")):
        command = f"`{command}`"
    said = f"{command}, {data['date']}"
    if where:
        said += f", on {where}"
    if data["source"] != "run":
        said += f"; {data['source']}"
    return f"*Figures: {said} (`docs/figures/{data['table']}.json`).*"


def render(names: Sequence[str], folder: Path = FIGURES) -> str:
    """The table the docs show from the files ``names`` (one or more tables with the same
    columns, their rows one after another): where each comes from, then the rows."""
    data = [load(n, folder) for n in names]
    columns = data[0]["columns"]
    if any(d["columns"] != columns for d in data):
        raise ValueError(f"{', '.join(names)}: the tables' columns differ")

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    out = [provenance(d) if len(data) == 1 else "- " + provenance(d) for d in data]
    out += ["", line(columns), "|" + "---|" * len(columns)]
    out += [line(row) for d in data for row in d["rows"]]
    return "\n".join(out)


def tables(folder: Path = FIGURES) -> list[str]:
    """The names of the tables kept in ``folder``."""
    return sorted(p.stem for p in folder.glob("*.json"))
