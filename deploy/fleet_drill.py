"""The fleet drill, for real, on loopback: three replicas behind Debian's nginx, a rolling
upgrade under load, then a rollback. ``make fleet-drill`` (or
``.venv/bin/python deploy/fleet_drill.py``).

1. *Releases.* Small real releases of all four games (SYNTHETIC words published through the
   real release writer, :mod:`tools.synthetic`: a full build takes many minutes), each packed
   by :func:`bundle`; then a second osps release (other words), bundled too: bundle A and B.
2. *Replicas.* Three ``LEXICON_HOME`` directories, each filled by :func:`install` from the
   bundles alone, and three ``lexicon serve`` processes on 127.0.0.1, each ready when its
   ``/readyz`` is 200.
3. *Balancer.* nginx with ``deploy/nginx-lexicon.conf`` (only its listen address and the
   path of its upstream list changed); the upstream list is written by the readiness gate
   (:func:`upstream_lines`) from each replica's ``/readyz``.
4. *Load.* ``wrk`` through nginx: single-word lookups of words of both releases, one request
   in ten a ``POST /valid`` batch; its Lua script records every answer's status and
   ``release``. First a steady phase (the "before" figures).
5. *Rolling upgrade to B*, under load, replica by replica, the way a new image replaces a
   replica: SIGTERM (the replica closes its socket, finishes what it holds and exits;
   nginx retries the refused connections on the other replicas), install B, start,
   ``/readyz`` 200 naming B, the gate confirms it, next. The gate is not used to take the
   replica out: a reload closes nginx's idle keep-alive client connections, and a client
   that does not retry (wrk) counts each as a read error (about two per reload measured).
6. *Rollback to A*, under load, replica by replica on the live servers: install A (already
   on disk: verified and made current), ``/readyz`` names A, next.
7. *The gate*, under load: one replica's kvizovka ``CURRENT`` names a release it does not
   hold; its ``/readyz`` turns 503, the gate marks it ``down`` (nginx reloaded), it answers
   nothing while out, is repaired and taken back. The reloads' closed keep-alive client
   connections are reported (wrk read errors), not counted as failures.

Then every answer is checked twice, from wrk's record and from each replica's JSON access
log: no non-2xx, no socket error, every release id one of A and B. Prints one JSON object
per phase and a summary; exits 1 when a target is missed. Every loop is bounded in time,
every port is on 127.0.0.1, every process started here is stopped here.

``.venv/bin/python deploy/fleet_drill.py gate --upstreams FILE --reload CMD HOST:PORT ...``
is the same readiness gate for a real fleet (one pass: run it from a timer). It exits 0
after a pass, 3 when the reload command failed (the list is then put back, so the next
pass tries again).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from lexicon.service.launch import free_port  # noqa: E402

GAMES = ("osps", "remik", "kvizovka", "krizemkrazem")   # remik links the osps release
GAME = "osps"                                          # the game rolled
SITE_CONF = ROOT / "deploy" / "nginx-lexicon.conf"
SITE_LISTEN = "listen 127.0.0.1:8080;"
SITE_UPSTREAMS = "/etc/nginx/lexicon-upstreams.conf"
CHUNK_S = 3          # seconds per wrk run: a phase's p99 is its worst run's


class DrillError(RuntimeError):
    pass


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def lexicon(home: Path, *args: str) -> dict[str, Any]:
    """``lexicon ARGS`` with ``LEXICON_HOME=home``; its JSON answer."""
    proc = subprocess.run([sys.executable, "-m", "lexicon.cli.main", *args], cwd=ROOT, text=True,
                          env={**os.environ, "LEXICON_HOME": str(home)},
                          capture_output=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise DrillError(f"lexicon {' '.join(args)}: exit {proc.returncode}: "
                         f"{(proc.stderr or proc.stdout)[-1500:]}")
    return json.loads(proc.stdout)


# -- the two steps that take a release to a replica: signed bundles, as in production --------

def signing_key(work: Path) -> Path:
    """The build machine's ed25519 key (``lexicon keygen``), made once per drill; its public
    half is what every replica trusts."""
    key = work / "signing.key"
    if not key.exists():
        lexicon(work, "keygen", "-o", str(key))
    return key


def bundle(home: Path, game: str, out: Path, key: Path) -> dict[str, Any]:
    """Pack ``game``'s current release in ``home`` into ``out`` (+ ``out.sha256``), signed
    with ``key`` (+ ``out.sig``)."""
    return lexicon(home, "bundle", game, "-o", str(out), "--sign", str(key))


def install(home: Path, bundle_file: Path, key: Path, *, rollback: bool = False
            ) -> dict[str, Any]:
    """Verify ``bundle_file`` (sha256, and its signature by ``key``, which the replica
    trusts: ``key.pub`` in its ``trusted-keys/``) and make its release current in ``home``;
    a ``rollback`` to an older release says so (``--allow-downgrade``), as an operator must."""
    trusted = home / "trusted-keys"
    trusted.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(f"{key}.pub", trusted / f"{key.name}.pub")
    return lexicon(home, "install", str(bundle_file),
                   *(["--allow-downgrade"] if rollback else []))


# -- replicas, the balancer, the gate --------------------------------------------------------

class Replica:
    """One ``lexicon serve`` process with its own home, port and access log."""

    def __init__(self, name: str, home: Path, logs: Path) -> None:
        self.name, self.home = name, home
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.access_log = logs / f"{name}.access.jsonl"
        self.errors = logs / f"{name}.stderr"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.access_log, "ab") as out, open(self.errors, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "lexicon.cli.main", "serve", "--host", "127.0.0.1", "--port",
                 str(self.port), "--drain-seconds", "10"], cwd=ROOT, stdout=out, stderr=err,
                env={**os.environ, "LEXICON_HOME": str(self.home)})

    def readiness(self) -> dict[str, Any] | None:
        """The /readyz report when it is 200, else None."""
        try:
            r = httpx.get(self.url + "/readyz", timeout=10)
        except httpx.TransportError:
            return None
        return r.json() if r.status_code == 200 else None

    def wait_ready(self, release: str | None = None, timeout: float = 120) -> float:
        """Seconds until /readyz is 200 (with ``release`` serving osps, if given)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc is not None and self.proc.poll() is not None:
                raise DrillError(f"{self.name} exited: {self.errors.read_text()[-1500:]}")
            report = self.readiness()
            if report and (release is None or report["games"][GAME]["release"] == release):
                return time.monotonic() - t0
            time.sleep(0.1)
        raise DrillError(f"{self.name} not ready with {release} after {timeout} s")

    def stop(self) -> dict[str, Any]:
        """SIGTERM and wait: the exit status and how long the drain took."""
        if self.proc is None or self.proc.poll() is not None:
            return {"status": None, "seconds": 0.0}
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            status = self.proc.wait(10)
        return {"status": status, "seconds": round(time.monotonic() - t0, 3)}


def upstream_lines(states: dict[str, bool]) -> str:
    """nginx ``server`` lines for ``{host:port: ready}``: a replica not ready is ``down``."""
    return "".join(f"server {addr} max_fails=1 fail_timeout=2s{'' if ready else ' down'};\n"
                   for addr, ready in states.items())


def probe(addr: str) -> bool:
    try:
        return httpx.get(f"http://{addr}/readyz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


class Nginx:
    """Debian's nginx in the foreground, under a prefix of its own, with the site file."""

    def __init__(self, work: Path, replicas: list[Replica]) -> None:
        self.work, self.replicas = work, replicas
        self.port = free_port()
        self.upstreams = work / "upstreams.conf"
        self.conf = work / "nginx.conf"
        site = SITE_CONF.read_text(encoding="utf-8")
        for old, new in ((SITE_LISTEN, f"listen 127.0.0.1:{self.port};"),
                         (SITE_UPSTREAMS, str(self.upstreams))):
            if old not in site:
                raise DrillError(f"{SITE_CONF.name} no longer holds {old!r}")
            site = site.replace(old, new)
        (work / "site.conf").write_text(site, encoding="utf-8")
        temp = work / "temp"
        temp.mkdir()
        temp.chmod(0o1777)             # the workers run as nobody when the master is root
        temps = "".join(f"    {kind}_temp_path {temp}/{kind};\n"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # the workers run as this user, so that they can write a big request body into
        # the work directory's temp (nobody, nginx's default, cannot reach a private one)
        user = pwd.getpwuid(os.geteuid()).pw_name
        self.conf.write_text(
            f"{'user ' + user + ';' if os.geteuid() == 0 else ''}\n"
            f"worker_processes 1;\ndaemon off;\npid {work}/nginx.pid;\n"
            f"error_log {work}/nginx-error.log warn;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log off;\n{temps}    include {work}/site.conf;\n}}\n",
            encoding="utf-8")
        self.proc: subprocess.Popen | None = None
        self.states: dict[str, bool] = {}
        self.reloads = 0

    def _cmd(self, *args: str) -> list[str]:
        return ["nginx", "-p", str(self.work), "-c", str(self.conf), *args]

    def start(self) -> None:
        self.write({f"127.0.0.1:{r.port}": probe(f"127.0.0.1:{r.port}")
                    for r in self.replicas})
        subprocess.run(self._cmd("-t", "-q"), check=True, timeout=30)
        self.proc = subprocess.Popen(self._cmd(), stderr=subprocess.PIPE)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 20:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=2)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise DrillError("nginx did not start: " + (self.work / "nginx-error.log").read_text())

    def write(self, states: dict[str, bool]) -> None:
        self.upstreams.write_text(upstream_lines(states), encoding="utf-8")
        self.states = dict(states)

    def _workers(self) -> list[int]:
        assert self.proc is not None
        kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in kids.read_text().split()] if kids.exists() else []

    def gate(self, out: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """The readiness gate: probe every replica (those in ``out`` are kept out), rewrite
        the upstream list and reload nginx when it changed; return once the old workers
        have finished their requests and exited."""
        states = {f"127.0.0.1:{r.port}": r.name not in out and probe(f"127.0.0.1:{r.port}")
                  for r in self.replicas}
        if states == self.states:
            return
        old = set(self._workers())
        self.write(states)
        subprocess.run(self._cmd("-s", "reload"), check=True, timeout=30,
                       stderr=subprocess.DEVNULL)
        self.reloads += 1
        t0 = time.monotonic()
        while time.monotonic() - t0 < 10 and old & set(self._workers()):
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)      # graceful: finish, then exit
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# -- load ------------------------------------------------------------------------------------

LUA = r"""
local paths = {%PATHS%}
local batch = [==[%BATCH%]==]
statuses, releases = {}, {}   -- globals: thread:get reads only those
local threads = {}
local i = 0
setup = function(thread) table.insert(threads, thread) end
request = function()
  i = i + 1
  if i % 10 == 0 then
    return wrk.format("POST", "/v1/games/osps/valid",
                      {["Content-Type"] = "application/json"}, batch)
  end
  return wrk.format("GET", paths[i % #paths + 1])
end
response = function(status, headers, body)
  statuses[tostring(status)] = (statuses[tostring(status)] or 0) + 1
  local rel = string.match(body, '"release":"([^"]+)"') or "none"
  releases[rel] = (releases[rel] or 0) + 1
end
done = function(summary, latency, requests)
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do io.write("STATUS\t", k, "\t", v, "\n") end
    for k, v in pairs(t:get("releases")) do io.write("RELEASE\t", k, "\t", v, "\n") end
  end
  io.write(string.format("LATENCY\t%d\t%d\t%d\n", latency:percentile(50),
                         latency:percentile(99), latency.max))
  io.write(string.format("TOTAL\t%d\n", summary.requests))
end
"""


def wrk_chunk(base: str, script: Path, seconds: int, connections: int) -> dict[str, Any]:
    """One ``wrk`` run: statuses, releases, socket errors, p50/p99/max in ms."""
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout",
                          "10s", "-s", str(script), base], capture_output=True, text=True,
                         timeout=seconds + 60, check=False).stdout
    row: dict[str, Any] = {"statuses": Counter(), "releases": Counter(), "requests": 0,
                           "socket_errors": Counter()}
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] in ("STATUS", "RELEASE"):
            row["statuses" if parts[0] == "STATUS" else "releases"][parts[1]] += int(parts[2])
        elif parts[0] == "LATENCY":
            row["p50_ms"], row["p99_ms"], row["max_ms"] = (int(x) / 1000 for x in parts[1:])
        elif parts[0] == "TOTAL":
            row["requests"] = int(parts[1])
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), "
                       r"timeout (\d+)", out)
    if errors:
        row["socket_errors"].update(dict(zip(("connect", "read", "write", "timeout"),
                                             map(int, errors.groups()), strict=True)))
    return row


class Load(threading.Thread):
    """``wrk`` through nginx in back-to-back runs of ``chunk`` seconds until :meth:`finish`
    (or ``limit`` seconds), recording every answer's status and release. Latency is given
    per run: ``p99_ms`` is the worst run's p99 (``p99_ms_median`` the median run's), so a
    phase's figure covers that phase and not the steady load around it."""

    def __init__(self, base: str, script: Path, limit: float, chunk: int = CHUNK_S,
                 connections: int = 8) -> None:
        super().__init__(daemon=True)
        self.base, self.script, self.limit, self.chunk = base, script, limit, chunk
        self.connections = connections
        self._enough = threading.Event()
        self.chunks: list[dict[str, Any]] = []
        self.elapsed = 0.0

    def run(self) -> None:
        t0 = time.monotonic()
        while not self._enough.is_set() and time.monotonic() - t0 < self.limit:
            self.chunks.append(wrk_chunk(self.base, self.script, self.chunk,
                                         self.connections))
        self.elapsed = time.monotonic() - t0

    def finish(self) -> dict[str, Any]:
        """Stop after the current run; the phase's figures."""
        self._enough.set()
        self.join()
        statuses: Counter[str] = sum((c["statuses"] for c in self.chunks), Counter())
        errors: Counter[str] = sum((c["socket_errors"] for c in self.chunks), Counter())
        p99s = sorted(c["p99_ms"] for c in self.chunks if "p99_ms" in c)
        requests = sum(c["requests"] for c in self.chunks)
        return {
            "requests": requests, "seconds": round(self.elapsed, 1),
            "requests_per_s": round(requests / self.elapsed) if self.elapsed else None,
            "statuses": dict(statuses),
            "non_2xx": sum(n for s, n in statuses.items() if not s.startswith("2")),
            "socket_errors": sum(errors.values()), "socket_error_kinds": dict(errors),
            "releases": dict(sum((c["releases"] for c in self.chunks), Counter())),
            "p99_ms": p99s[-1] if p99s else None,
            "p99_ms_median": p99s[len(p99s) // 2] if p99s else None,
            "p50_ms_median": sorted(c["p50_ms"] for c in self.chunks if "p50_ms" in c)[
                len(p99s) // 2] if p99s else None,
            "max_ms": max((c["max_ms"] for c in self.chunks if "max_ms" in c), default=None),
            "wrk_runs": len(self.chunks)}


def load_script(work: Path, words: list[str]) -> Path:
    paths = ",".join(json.dumps(f"/v1/games/{GAME}/words/{urllib.parse.quote(w)}")
                     for w in words)
    batch = json.dumps({"words": words[:20]}, ensure_ascii=False)
    script = work / "load.lua"
    script.write_text(LUA.replace("%PATHS%", paths).replace("%BATCH%", batch),
                      encoding="utf-8")
    return script


def access_releases(replicas: list[Replica]) -> tuple[Counter[str], int]:
    """Releases named by the replicas' access lines of the rolled game, and the count of
    non-2xx lines of that game."""
    seen: Counter[str] = Counter()
    bad = 0
    for r in replicas:
        for line in r.access_log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["game"] == GAME:
                seen[row["release"]] += 1
                bad += not 200 <= row["status"] < 300
    return seen, bad


# -- the drill -------------------------------------------------------------------------------

def make_releases(work: Path, words: int) -> tuple[dict[str, Path], Path, list[str]]:
    """Bundles of every game's release A, the bundle of osps release B, and load words."""
    from tools.synthetic import publish_synthetic, synthetic_keys
    build_home = work / "build-home"
    build_home.mkdir()
    bundles = work / "bundles"
    bundles.mkdir()
    first: dict[str, Path] = {}
    key = signing_key(work)
    with contextlib.redirect_stdout(sys.stderr):    # build progress: stdout is the figures
        for game in GAMES:
            publish_synthetic(build_home, game, words if game == GAME else max(500, words // 8))
            first[game] = bundles / f"{game}-A.lexbundle.tar"
            bundle(build_home, game, first[game], key)
        publish_synthetic(build_home, GAME, words, seed=2)
    second = bundles / f"{GAME}-B.lexbundle.tar"
    bundle(build_home, GAME, second, key)
    mixed = [w for pair in zip(list(synthetic_keys(GAME, 300, seed=1)),
                               list(synthetic_keys(GAME, 300, seed=2)), strict=True)
             for w in pair] + ["qqqq", "xyzzy"]
    return first, second, mixed


def roll(base: str, script: Path, replicas: list[Replica],
         step: Callable[[Replica], dict[str, Any]]) -> dict[str, Any]:
    """``step`` on each replica in turn (each waits for its readiness) under load that starts
    a second before the first step and stops with the last (at most 300 s)."""
    during = Load(base, script, 300)
    during.start()
    time.sleep(1)
    steps = []
    t_roll = time.monotonic()
    for r in replicas:
        t0 = time.monotonic()
        steps.append({"replica": r.name, **step(r), "step_s": round(time.monotonic() - t0, 2)})
    row: dict[str, Any] = {"seconds": round(time.monotonic() - t_roll, 2), "steps": steps,
                           "outlasted_load": not during.is_alive()}
    row["load"] = during.finish()
    return row


def _game_lines(replica: Replica) -> int:
    """How many requests of the rolled game the replica has answered so far."""
    return sum(f'"game":"{GAME}"' in line for line in
               replica.access_log.read_text(encoding="utf-8").splitlines())


def gate_drill(base: str, script: Path, nginx: Nginx, r: Replica) -> dict[str, Any]:
    """Under load: point one replica's kvizovka ``CURRENT`` at a release it does not hold
    (as a half-finished copy would), run the gate (its /readyz is 503: marked ``down``, nginx
    reloaded), check it gets no request while out, repair it, run the gate again."""
    load = Load(base, script, 120)
    load.start()
    time.sleep(1)
    current = r.home / "releases" / "kvizovka" / "CURRENT"
    saved = current.read_text(encoding="utf-8")
    staged = current.with_name("CURRENT.drill")
    staged.write_text("kvizovka-not-installed\n", encoding="utf-8")
    os.replace(staged, current)
    reloads = nginx.reloads
    nginx.gate()
    marked_down = nginx.states.get(f"127.0.0.1:{r.port}") is False
    readyz = httpx.get(r.url + "/readyz", timeout=10)
    out_at = _game_lines(r)
    time.sleep(4)
    answered_while_out = _game_lines(r) - out_at
    staged.write_text(saved, encoding="utf-8")
    os.replace(staged, current)
    nginx.gate()
    time.sleep(2)
    back = _game_lines(r)
    time.sleep(2)
    row = {"replica": r.name, "readyz_while_damaged": readyz.status_code,
           "not_ready": readyz.json().get("detail", {}).get("not_ready"),
           "marked_down": marked_down,
           "answered_while_out": answered_while_out,
           "answered_after_back": _game_lines(r) - back,
           "nginx_reloads": nginx.reloads - reloads}
    row["load"] = load.finish()
    return row


def run_drill(work: Path, words: int, steady: int) -> int:
    t_start = time.monotonic()
    replicas: list[Replica] = []
    nginx: Nginx | None = None
    reloads = 0
    try:
        _log(f"releases (SYNTHETIC, {words:,} osps words) and bundles under {work}")
        first, second, load_words = make_releases(work, words)
        ids = {name: _bundle_release(path) for name, path in
               (("A", first[GAME]), ("B", second))}
        logs = work / "logs"
        logs.mkdir()
        for n in range(3):
            home = work / f"replica-{n + 1}"
            home.mkdir()
            for game in GAMES:
                install(home, first[game], signing_key(work))
            replicas.append(Replica(f"replica-{n + 1}", home, logs))
        _log("starting three replicas")
        for r in replicas:
            r.start()
        start_s = max(r.wait_ready(ids["A"]) for r in replicas)
        nginx = Nginx(work, replicas)
        nginx.start()
        base = f"http://127.0.0.1:{nginx.port}"
        script = load_script(work, load_words)
        rows: dict[str, Any] = {"setup": {
            "replicas": [r.url for r in replicas], "nginx": base, "release_a": ids["A"],
            "release_b": ids["B"], "replica_start_s": round(start_s, 2),
            "setup_s": round(time.monotonic() - t_start, 1)}}
        _log(f"steady load through nginx for {steady} s")
        before = Load(base, script, steady)
        before.start()
        before.join()
        rows["before"] = before.finish()

        def replace(r: Replica) -> dict[str, Any]:
            """A new image's way: drain (nginx retries refused connections on the others),
            install B, start, ready with B, confirmed by the gate."""
            drained = r.stop()
            installed = install(r.home, second, signing_key(work))
            r.start()
            ready = r.wait_ready(ids["B"])
            nginx.gate()
            return {"drain": drained, "installed": installed["release"],
                    "ready_s": round(ready, 2)}

        def switch_back(r: Replica) -> dict[str, Any]:
            """On the live replica: install A (on disk already: verified, made current)."""
            installed = install(r.home, first[GAME], signing_key(work), rollback=True)
            return {"installed": installed["release"],
                    "ready_s": round(r.wait_ready(ids["A"]), 2)}

        _log(f"rolling upgrade to {ids['B']} under load")
        rows["roll"] = roll(base, script, replicas, replace)
        _log(f"rollback to {ids['A']} under load")
        rows["rollback"] = roll(base, script, replicas, switch_back)
        _log("a damaged game on one replica: the gate drains it, then takes it back")
        rows["gate"] = gate_drill(base, script, nginx, replicas[1])
    finally:
        if nginx is not None:
            reloads = nginx.reloads
            nginx.stop()
        for r in replicas:
            r.stop()
    seen, bad_lines = access_releases(replicas)
    allowed = {ids["A"], ids["B"]}
    loads = [rows["before"], rows["roll"]["load"], rows["rollback"]["load"]]
    answered: Counter[str] = Counter()
    for load in [*loads, rows["gate"]["load"]]:
        answered.update(load["releases"])
    checks = {
        "non_2xx": sum(x["non_2xx"] for x in loads),
        "socket_errors": sum(x["socket_errors"] for x in loads),
        "answers_from_other_releases": sum(n for rel, n in answered.items()
                                           if rel not in allowed),
        "access_lines_from_other_releases": sum(n for rel, n in seen.items()
                                                if rel not in allowed),
        "access_lines_non_2xx": bad_lines,
        "load_windows_outlasted": int(rows["roll"]["outlasted_load"])
                                  + int(rows["rollback"]["outlasted_load"]),
        "gate_non_2xx": rows["gate"]["load"]["non_2xx"],
        "gate_readyz_not_503": int(rows["gate"]["readyz_while_damaged"] != 503),
        "gate_not_marked_down": int(not rows["gate"]["marked_down"]),
        "gate_answered_while_out": rows["gate"]["answered_while_out"],
        "gate_not_back": int(rows["gate"]["answered_after_back"] == 0),
    }
    rows["checks"] = {**checks, "answers_by_release": dict(answered),
                      "access_lines_by_release": dict(seen), "nginx_reloads": reloads,
                      "drill_s": round(time.monotonic() - t_start, 1),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}
    for phase, row in rows.items():
        print(json.dumps({"phase": phase, **row}, ensure_ascii=False))
    total = sum(x["requests"] or 0 for x in [*loads, rows["gate"]["load"]])
    print(f"\nfleet drill: {total:,} requests through nginx to 3 replicas; "
          f"non-2xx {checks['non_2xx']}, socket errors {checks['socket_errors']}, answers "
          f"from a release other than A or B {checks['answers_from_other_releases']}; "
          f"p99 before {rows['before']['p99_ms']} ms, during the roll "
          f"{rows['roll']['load']['p99_ms']} ms, during the rollback "
          f"{rows['rollback']['load']['p99_ms']} ms (worst {CHUNK_S} s "
          f"wrk run of each phase); roll {rows['roll']['seconds']} s, "
          f"rollback {rows['rollback']['seconds']} s; a replica with a damaged game: "
          f"/readyz {rows['gate']['readyz_while_damaged']}, answered "
          f"{rows['gate']['answered_while_out']} requests while gated out, non-2xx "
          f"{rows['gate']['load']['non_2xx']} (socket errors from its "
          f"{rows['gate']['nginx_reloads']} nginx reloads: "
          f"{rows['gate']['load']['socket_errors']}); load average "
          f"{rows['checks']['load_average']}", file=sys.stderr)
    failed = [name for name, n in checks.items() if n]
    if failed:
        print("fleet drill: FAILED: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


def _bundle_release(path: Path) -> str:
    """The release id inside a bundle (its top directory)."""
    import tarfile
    with tarfile.open(path) as tar:
        return tar.next().name.split("/", 1)[0]  # type: ignore[union-attr]


class GateError(RuntimeError):
    """The gate could not do its pass (the reload failed, the list cannot be written)."""


def gate_once(upstreams: Path, reload_cmd: str, addrs: list[str]) -> dict[str, bool]:
    """One pass of the readiness gate for a real fleet: probe, rewrite, reload if changed.

    When the reload fails the upstream list is put back as it was, so that the next pass
    finds it changed and reloads again (a list rewritten but never loaded would otherwise
    look current for ever); the failure is a :class:`GateError` saying what ran and how it
    ended."""
    states = {addr: probe(addr) for addr in addrs}
    text = upstream_lines(states)
    try:
        old = upstreams.read_text(encoding="utf-8") if upstreams.exists() else None
        if old == text:
            return states
        upstreams.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GateError(f"cannot write the upstream list {upstreams}: {exc.strerror or exc}"
                        ) from None
    try:
        done = subprocess.run(reload_cmd, shell=True, timeout=60, capture_output=True,
                              text=True, check=False)
        failed = (f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}"
                  if done.returncode else None)
    except subprocess.TimeoutExpired:
        failed = "no answer within 60 s"
    if failed:
        if old is None:
            upstreams.unlink(missing_ok=True)
        else:
            upstreams.write_text(old, encoding="utf-8")
        raise GateError(f"the reload command {reload_cmd!r} failed ({failed}); the upstream "
                        f"list {upstreams} is left as it was. Give the command that reloads "
                        f"your nginx with --reload (default: systemctl reload nginx; without "
                        f"systemd: --reload 'nginx -s reload')")
    return states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    drill = sub.add_parser("drill", help="run the whole drill on loopback (the default)")
    drill.add_argument("--words", type=int, default=20_000, help="osps words per release")
    drill.add_argument("--steady", type=int, default=10, help="seconds of load before")
    drill.add_argument("--keep", action="store_true", help="keep the work directory")
    gate = sub.add_parser("gate", help="one pass of the readiness gate for a real fleet")
    gate.add_argument("--upstreams", type=Path, required=True,
                      help="the upstream list nginx includes (rewritten when it changes)")
    gate.add_argument("--reload", default="systemctl reload nginx",
                      help="shell command that reloads nginx after the list changed (default: "
                           "%(default)s; 'nginx -s reload' without systemd). It fails: exit 3, "
                           "the list put back")
    gate.add_argument("replicas", nargs="+", metavar="HOST:PORT")
    args = parser.parse_args(argv if argv is not None else (sys.argv[1:] or ["drill"]))
    if args.command == "gate":
        try:
            print(json.dumps(gate_once(args.upstreams, args.reload, args.replicas)))
        except GateError as exc:
            print(f"gate: {exc}", file=sys.stderr)
            return 3
        return 0
    for tool in ("nginx", "wrk"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (make fleet-drill installs it)")
    work = Path(tempfile.mkdtemp(prefix="lexicon-fleet-"))
    try:
        return run_drill(work, args.words, args.steady)
    finally:
        if args.keep:
            _log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
