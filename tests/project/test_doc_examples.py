"""Every shell and Python block of ``docs/`` says how it is checked (``tools/doc_examples.py``):
run by the tests on their small releases, run by ``make docs-full`` on the built releases,
or not run for a reason it gives. The ``sh`` blocks marked ``run`` run here, as written,
from a scratch folder with ``.venv`` in it, against small real releases (osps and Kvizovka,
and Remik linked to osps, with the words the Remik page's moves lay); the ``console`` and
``curl`` ones run in ``test_readme.py``, the ``python`` ones in ``tests/door/test_door.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

from lexicon.store import published
from tests.conftest import POLISH_RECORDS, SmallHomes, publish, rec
from tests.verdicts.test_remik_docs import WORDS as REMIK_WORDS
from tools.doc_examples import (
    CHECKED_FENCES,
    KINDS,
    ROOT,
    Block,
    all_blocks,
    blocks,
    linked_copy,
    run_block,
)


def test_every_code_block_of_the_docs_says_how_it_is_checked() -> None:
    found = all_blocks()
    assert len(found) >= 10
    unmarked = [b.where for b in found if b.kind is None]
    assert not unmarked, f"blocks with no <!-- example: run|full-data-NAME|not-run: why -->: " \
                         f"{unmarked}"
    for block in found:
        assert block.kind in KINDS, block.where
        assert block.kind != "not-run" or len(block.reason or "") >= 10, block.where
        assert block.fence != "python" or block.kind in ("run", "not-run"), block.where
    kinds = {b.kind for b in found}
    assert {"run", "full-data", "not-run"} <= kinds


def test_an_unmarked_or_unknown_block_is_found() -> None:
    page = Path(__file__)
    text = ("x\n\n```sh\nls\n```\n\n<!-- example: run-a -->\n```console\n$ ls\n```\n"
            "<!-- example: not-run: it needs a person -->\n\n```python\npass\n```\n"
            "<!-- example: full-data-b -->\n\n\nnot the line before\n```bash\nls\n```\n"
            "<!-- example: check-json -->\n```sh\nls\n```\n```json\n{}\n```\n")
    got = [(b.fence, b.kind, b.name, b.reason) for b in blocks(page, text)]
    assert got == [("sh", None, None, None), ("console", "run", "run-a", None),
                   ("python", "not-run", None, "it needs a person"),
                   ("bash", None, None, None), ("sh", None, "check-json", None)]
    assert "json" not in CHECKED_FENCES


def _home(small_homes: SmallHomes, dst: Path) -> Path:
    def make(root: Path) -> None:
        small_homes("small", root)
        publish(root, "osps", [*POLISH_RECORDS, *(rec(w) for w in REMIK_WORDS if w != "kot")])
        publish(root, "remik", [])      # linked to the osps release
    return small_homes("doc-examples", dst, make=make)


def test_the_docs_shell_examples_run_on_small_releases(tmp_path: Path,
                                                      small_homes: SmallHomes) -> None:
    home = _home(small_homes, tmp_path / "home")
    ran = [b for b in all_blocks() if b.kind == "run" and b.fence in ("sh", "shell", "bash")]
    assert ran
    for n, block in enumerate(ran):
        assert run_block(block, home, tmp_path / f"scratch-{n}") == []
    assert (tmp_path / "scratch-0" / "osps.txt").read_text(encoding="utf-8").split()


def test_a_drifted_shell_example_fails(tmp_path: Path, small_homes: SmallHomes) -> None:
    """An option the CLI lacks, a game with no release, and output other than shown fail."""
    home = _home(small_homes, tmp_path / "home")
    page = Path(__file__)

    def failures(fence: str, body: str) -> list[str]:
        block = Block(page, 1, fence, body, "run", "run-x", None)
        return run_block(block, home, tmp_path / "scratch")

    assert failures("sh", ".venv/bin/lexicon export osps --colour\n")
    assert failures("sh", ".venv/bin/lexicon export krizemkrazem > k.txt\n")
    assert failures("sh", "printf x | grep -q y\n")          # any other command: exit 0 only
    assert failures("sh", ".venv/bin/lexicon judge osps kot np\n") == []   # falls: exit 1
    assert failures("console", "$ lexicon judge osps kot\nFALLS  1 word   release osps-…\n")
    assert failures("console", "$ lexicon judge osps kot\nSTANDS  1 word   release osps-…\n") \
        == []
    assert failures("sh", "# a comment\n.venv/bin/lexicon export osps \\\n  -o o.txt\n") == []


def test_the_full_data_examples_never_write_the_home(tmp_path: Path,
                                                     small_homes: SmallHomes) -> None:
    """``make docs-full`` runs on a hard-linked copy: a release published, a ruling logged
    and a sheet drawn there leave the home's files as they were."""
    home = _home(small_homes, tmp_path / "home")
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    copy = linked_copy(home, tmp_path / "copy")
    body = ("printf 'zyzuń\\tadd\\truling 9/2026\\n' > fix.tsv\n"
            ".venv/bin/lexicon amend osps --overrides fix.tsv\n"
            ".venv/bin/lexicon judge osps kot\n"
            ".venv/bin/lexicon audit draw osps --per-class 2 --seed 1\n")
    block = Block(Path(__file__), 1, "sh", body, "full-data", "full-data-x", None)
    assert run_block(block, copy, tmp_path / "scratch") == []
    assert published.current_id("osps", copy) != published.current_id("osps", home)
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == before


def test_every_table_of_measured_figures_comes_from_a_runs_json() -> None:
    """Each table of the benchmarks page (and the export sizes) is rendered from the JSON a
    benchmark run wrote (docs/figures/, tools.figures), never typed: it lies inside a
    generated ``figures-`` part, and every file it shows says which tool and command made
    its figures, when, on what machine, and whether they were measured or transcribed."""
    from tools.docs import FIGURE_TABLES
    from tools.figures import load

    for page in ("benchmarks.md",):
        lines = (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()
        heads = [n for n, line in enumerate(lines)
                 if line.startswith("| ") and not lines[n - 1].startswith("|")]
        assert heads
        for n in heads:
            opened = [m for m in range(n) if lines[m].startswith("<!-- generated: ")]
            assert opened and lines[opened[-1]].startswith("<!-- generated: figures-"), \
                f"docs/{page}:{n + 1}: a table of figures outside a generated figures part"
            assert not any(lines[m].startswith("<!-- /generated: ")
                           for m in range(opened[-1], n)), f"docs/{page}:{n + 1}"
    for _page, files in FIGURE_TABLES.values():
        for name in files:
            data = load(name)
            assert data["table"] == name and data["tool"] and data["command"]
            assert data["source"] == "run" or data["source"].startswith("transcribed from")
            assert re.fullmatch(r"\d{4}-\d\d-\d\d|undated", data["date"])
            assert data["machine"]["cpus"] and data["rows"]
