"""Shared fixtures: a private LEXICON_HOME per test and small releases built for real."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from lexicon.build.pipeline import BuildContext, build_game
from typer.testing import CliRunner

from lexicon.game import profile as profiles
from lexicon.store import published
from lexicon.store.records import Analysis, Record

#: The tests' folder: one sub-folder a layer of the import graph (sources, builds, game,
#: store, verdicts, queries, export, audit, door, service, cli, page, project), the shared data
#: in ``data/``.
TESTS = Path(__file__).resolve().parent


def lexicon_process(home: Path, *args: str, stdin: str | None = None
                    ) -> subprocess.CompletedProcess:
    """``lexicon ARGS`` as a real process (the one test per face that needs a process:
    exit codes and streams as a shell sees them)."""
    env = {**os.environ, "LEXICON_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "lexicon.cli.main", *args], capture_output=True,
                          text=True, env=env, input=stdin, check=False)


def lexicon_serve(home: Path, port: int, *args: str, env: dict[str, str] | None = None,
                  stdout: Any = subprocess.DEVNULL) -> subprocess.Popen:
    """A real ``lexicon serve --port PORT ARGS`` on loopback, returned once ``/healthz``
    answers (any status); its stderr is piped. One that exits first is an AssertionError
    with what it said."""
    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port",
                             str(port), *args],
                            env={**os.environ, "LEXICON_HOME": str(home), **(env or {})},
                            stdout=stdout, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("serve did not start: " + proc.communicate()[1].decode()[-2000:])


def lexicon(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``lexicon ARGS`` in this process (Typer's runner), answered like :func:`lexicon_process`.

    What is tested is the command's mapping of library answers to output and exit codes;
    a process adds only start-up time. An exception the command did not turn into an exit
    code is raised here (``LEXICON_TRACEBACK``: not exit 5, ``internal_error``), so a bug
    cannot pass for an exit status. The exit status is read as Typer's runner reads it.
    """
    from tools.docs import cli_command  # the click command, made once

    cli, runner = cli_command(), CliRunner()
    with runner.isolation(input=stdin, env={"LEXICON_HOME": str(home),
                                            "LEXICON_TRACEBACK": "1"}) as (out, err, _both):
        try:
            cli.main(args=list(args), prog_name=runner.get_default_prog_name(cli))
            code: Any = 0
        except SystemExit as exc:
            code = 0 if exc.code is None else exc.code
            if not isinstance(code, int):
                sys.stdout.write(f"{code}\n")
                code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = (s.getvalue().decode("utf-8", "replace").replace("\r\n", "\n")
                          for s in (out, err))
    gc.collect()   # drop the releases the command opened (their shared LMDB handles close)
    return subprocess.CompletedProcess(list(args), code, stdout, stderr)


class StaticBuilder:
    """A builder that publishes the records it is given: tests the pipeline, not a language."""

    source_ids: tuple[str, ...] = ()

    def __init__(self, game: str, records: Iterable[Record], fail_after: int | None = None):
        self.game = game
        self._records = list(records)
        self.fail_after = fail_after

    def records(self, ctx: BuildContext) -> Iterable[Record]:
        for i, rec in enumerate(self._records):
            if self.fail_after is not None and i >= self.fail_after:
                raise OSError("simulated crash in the middle of a build")
            yield rec

    def policy(self) -> dict[str, Any]:
        return {"builder": "static test builder"}

    def rules(self) -> list[dict[str, str]]:
        return []


def rec(key: str, valid: bool = True, word: str | None = None, code: str | None = None,
        message: str | None = None, lemma: str | None = None, tags: str = "",
        category: str | None = None) -> Record:
    return Record(
        key=key, word=word or key, valid=valid, reason_code=code, reason_message=message,
        analyses=[Analysis(lemma or key, tags, "test")] if tags else [],
        sources=["test"], category=category, evidence=["test list"] if valid else [],
    )


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "lexicon-home"
    root.mkdir()
    monkeypatch.setenv("LEXICON_HOME", str(root))
    return root


def publish(root: Path, game: str, records: Iterable[Record]) -> Path:
    """Publish ``records`` as ``game``'s release; a game that plays another game's
    vocabulary (remik) links that game's release instead (build/linked.py), publishing
    ``records`` for the vocabulary game first when it has no release."""
    ctx = BuildContext(root=root, log=lambda _m: None)
    vocabulary = profiles.load(game).vocabulary
    if vocabulary != game:
        if published.current_path(vocabulary, root) is None:
            publish(root, vocabulary, records)
        return build_game(game, ctx)
    return build_game(game, ctx, builder=StaticBuilder(game, records))


POLISH_RECORDS = [
    rec("zażółć", lemma="zażółcić", tags="impt:sg:sec:perf", category="verb"),
    rec("gęślą", lemma="gęśl", tags="subst:sg:inst:f", category="noun"),
    rec("jaźń", lemma="jaźń", tags="subst:sg:nom:f", category="noun"),
    rec("np", valid=False, code="abbreviation", message="abbreviation (Morfeusz: brev:pun)"),
    rec("e-mail", valid=False, code="hyphen_or_apostrophe", message="hyphenated"),
    rec("kot", tags="subst:sg:nom:m2", category="noun"),
    rec("ul", tags="subst:sg:nom:m3", category="noun"),
]

KVIZOVKA_RECORDS = [
    rec("љубав", word="ljubav", tags="n.f.sg.nom", category="noun"),
    rec("надживети", word="nadživeti", tags="vblex.inf", category="verb"),
    rec("кућа", word="kuća", tags="n.f.sg.nom", category="noun"),
    rec("кући", word="kući", valid=False, code="inflected_form",
        message="noun kuća in dative/locative singular; only nominative is admitted"),
    rec("џеп", word="džep", tags="n.m.sg.nom", category="noun"),
]


def copy_home(src: Path, dst: Path) -> Path:
    """``src``'s files copied into ``dst`` (made if need be), sharing nothing with ``src``;
    files hard-linked to each other inside ``src`` stay linked (a linked release holds its
    vocabulary's files, build/linked.py)."""
    dst.mkdir(parents=True, exist_ok=True)
    copied: dict[tuple[int, int], Path] = {}
    for path in sorted(src.rglob("*")):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(exist_ok=True)
            continue
        st = path.stat()
        first = copied.get((st.st_dev, st.st_ino))
        if first is not None:
            os.link(first, target)
        else:
            shutil.copy2(path, target)
            copied[st.st_dev, st.st_ino] = target
    return dst


def _small(root: Path) -> None:
    publish(root, "osps", POLISH_RECORDS)
    publish(root, "kvizovka", KVIZOVKA_RECORDS)


def _queries(root: Path, remik: bool = False) -> None:
    from tests.query_data import publish_all

    publish_all(root)
    if remik:
        publish(root, "remik", [])        # links the osps release: all four games serve


#: The small homes a test file may ask :func:`small_homes` for by name, and how each is
#: published (for real, by the release writer). A file with a home of its own names it
#: and passes its own ``make``.
HOMES: dict[str, Callable[[Path], object]] = {
    "osps": lambda root: publish(root, "osps", POLISH_RECORDS),
    "small": _small,                                      # osps and kvizovka
    "queries": _queries,                                  # tests/query_data.py's three
    "queries+remik": lambda root: _queries(root, remik=True),
}


class SmallHomes:
    """Each small home published once per worker (a pytest process) and handed out as a
    copy: a test may publish, log, damage or serve from its copy, and no other test sees
    it. Copying a small home takes milliseconds; publishing it, the build pipeline."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self._factory = factory
        self._made: dict[str, Path] = {}

    def __call__(self, name: str, dst: Path | None = None,
                 make: Callable[[Path], object] | None = None) -> Path:
        """A copy of home ``name`` in ``dst`` (a new temporary folder without one)."""
        if name not in self._made:
            root = self._factory.mktemp(f"made-{name}")
            (make or HOMES[name])(root)
            self._made[name] = root
        return copy_home(self._made[name], dst or self._factory.mktemp(name))


@pytest.fixture(scope="session")
def small_homes(tmp_path_factory: pytest.TempPathFactory) -> SmallHomes:
    return SmallHomes(tmp_path_factory)


@pytest.fixture()
def small_releases(home: Path, small_homes: SmallHomes) -> Path:
    """osps and kvizovka published in the test's own ``home``."""
    return small_homes("small", home)


class PackGate:
    """Holds the child processes that make offline packs at their start, for as long as a
    test wants (:mod:`lexicon.export.packmaker`'s ``LEXICON_TEST_PACK_GATE``: a FIFO each
    child reads to its end before it makes the pack). Set the variable (:attr:`env`) in
    the process whose packs are made, or in the server's environment, before they start.

    ``with gate.maker() as pid:`` returns once a maker is at the gate (its pid) and lets
    it go on when the block ends: the FIFO's writing end opens only once a reader has it
    open, and the reader's read ends when the writing end is closed. No sleeps."""

    WAIT = 120.0      # the bound on a maker that never comes: a failure, not a clock

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.env = {"LEXICON_TEST_PACK_GATE": str(path)}

    @contextmanager
    def maker(self) -> Iterator[int]:
        opened: list[int] = []
        opener = threading.Thread(target=lambda: opened.append(
            os.open(self.path, os.O_WRONLY | os.O_CLOEXEC)))
        opener.start()
        opener.join(self.WAIT)
        if not opened:          # never came: let the opener go, and fail
            os.close(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK))
            opener.join()
            os.close(opened[0])
            raise AssertionError("no pack maker came to the gate")
        try:
            yield self.reader()
        finally:
            os.close(opened[0])

    def reader(self) -> int:
        """The pid of the process (not this one) that has the gate open now. /proc is read
        again until it shows one (a process's descriptors can be listed while one of
        them closes: that descriptor is skipped, not the process), within :attr:`WAIT`."""
        target = os.fspath(self.path)
        deadline = time.monotonic() + self.WAIT
        while time.monotonic() < deadline:
            for proc in Path("/proc").iterdir():
                if proc.name.isdigit() and int(proc.name) != os.getpid() \
                        and target in _open_files(proc):
                    return int(proc.name)
            time.sleep(0.01)
        raise AssertionError("no process holds the gate")


def _open_files(proc: Path) -> set[str]:
    """What the process ``proc`` (a /proc entry) has open now, as far as it can be read."""
    found: set[str] = set()
    try:
        fds = list((proc / "fd").iterdir())
    except OSError:
        return found
    for fd in fds:
        try:
            found.add(os.readlink(fd))
        except OSError:
            continue
    return found


@pytest.fixture()
def pack_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PackGate:
    """A :class:`PackGate` whose variable is set in this process's environment (so in
    every server or maker started from here on)."""
    gate = PackGate(tmp_path / "pack-gate")
    for name, value in gate.env.items():
        monkeypatch.setenv(name, value)
    return gate


#: The test files that drive something whole from outside, slow to set up: a real browser,
#: real servers on loopback (floods, drains, workers, a full metrics filesystem), apt
#: against a local repository, a wheel in a fresh virtual environment, the fuzzer. They are
#: marked ``e2e``, so ``pytest -m "not e2e"`` is the quick loop over the library, the
#: rules and the faces in process; ``make test`` runs them all. Paths are relative to
#: ``tests/``.
E2E_FILES = frozenset({
    "page/test_apidocs.py", "page/test_offline.py", "page/test_offline_afresh.py",
    "page/test_referee_page.py", "page/test_remik_offline.py",
    "project/test_wheel.py",
    "service/test_bench.py", "service/test_bodies.py", "service/test_building.py",
    "service/test_capacity.py", "service/test_damaged_release.py",
    "service/test_heads.py",
    "service/test_fuzz.py", "service/test_metrics.py", "service/test_metrics_safety.py",
    "service/test_offline_routes.py",
    "service/test_ops.py", "service/test_pattern_flood.py", "service/test_remik_flood.py",
    "service/test_soak.py",
    "sources/test_fetch.py", "sources/test_sources.py", "store/test_concurrency.py",
})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.relative_to(TESTS).as_posix() in E2E_FILES:
            item.add_marker(pytest.mark.e2e)
