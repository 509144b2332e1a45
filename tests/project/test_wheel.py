"""The wheel a user installs: one import name, no clash with PyPA's ``build``, and a
runtime that serves and checks releases without the build-time morphology packages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e


def _run(*cmd: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run outside the checkout, as a user would: in it, ``python -m`` would find the
    checkout's folders first."""
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env,
                          check=False, timeout=600, cwd=Path.home())


def test_the_wheel_installs_one_import_name_beside_pypa_build(small_releases: Path,
                                                              tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    made = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, ROOT)
    assert made.returncode == 0, made.stderr
    wheel = next(dist.glob("lexicon_games-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if "/" in n}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"lexicon"}
    for inside in ("lexicon/build/pipeline.py", "lexicon/cli/main.py",
                   "lexicon/service/app.py", "lexicon/sources/fetch.py",
                   "lexicon/profiles/osps.toml", "lexicon/service/static/index.html"):
        assert inside in names, inside

    # a fresh virtual environment, installed into by this pip (``--python``): seeding it
    # with a pip of its own takes longer than the rest, and pip is no part of the runtime;
    # no bytecode compiled ahead (each module compiles when it is first imported)
    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", "--without-pip", venv).returncode == 0
    py, bindir = venv / "bin" / "python", venv / "bin"
    pip = (sys.executable, "-m", "pip", "--python", py)
    # the runtime alone (no extras) beside PyPA's build frontend
    installed = _run(*pip, "install", "-q", "--no-compile", wheel, "build")
    assert installed.returncode == 0, installed.stderr
    assert _run(*pip, "show", "-q", "lexicon-games").returncode == 0
    assert _run(*pip, "show", "-q", "morfeusz2").returncode != 0
    assert _run(*pip, "show", "-q", "lemmagen3").returncode != 0

    frontend = _run(py, "-m", "build", "--version")
    assert frontend.returncode == 0 and "build" in frontend.stdout, frontend.stderr
    helped = _run(bindir / "lexicon", "--help")
    assert helped.returncode == 0 and "check" in helped.stdout, helped.stderr

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["LEXICON_HOME"] = str(small_releases)
    checked = _run(bindir / "lexicon", "check", "osps", "gęślą", "np", "--json", env=env)
    answers = [json.loads(line) for line in checked.stdout.splitlines()]
    assert [a["valid"] for a in answers] == [True, False], checked.stderr
    where = _run(py, "-c", "import lexicon.build.pipeline as p; print(p.__file__)", env=env)
    assert str(venv) in where.stdout, where.stderr
