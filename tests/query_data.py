"""Small lexicons for the query tests: few words, chosen so each query has a known answer."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import publish, rec

POLISH = [
    rec("kot", tags="subst:sg:nom:m2", category="noun"),
    rec("kota", tags="subst:sg:gen:m2", category="noun"),
    rec("koty", tags="subst:pl:nom:m2", category="noun"),
    rec("kotek", tags="subst:sg:nom:m2", category="noun"),
    rec("kotka", tags="subst:sg:gen:m2", category="noun"),
    rec("okno", tags="subst:sg:nom:n", category="noun"),
    rec("tok", tags="subst:sg:nom:m3", category="noun"),
    rec("kto", tags="pron", category="pron"),
    rec("ok", valid=False, code="abbreviation", message="abbreviation"),
    rec("nowy", tags="adj:sg:nom:m", category="adj"),
    rec("domowy", tags="adj:sg:nom:m", category="adj"),
    rec("zażółć", lemma="zażółcić", tags="impt:sg:sec:perf", category="verb"),
    rec("jaźń", tags="subst:sg:nom:f", category="noun"),
    rec("ul", tags="subst:sg:nom:m3", category="noun"),
    rec("aaaaaaaaaaaaaa", tags="test", category="noun"),   # pathological-pattern bait
]

KRIZEMKRAZEM = [
    rec("kacin", word="Kacin", tags="Np", category="name"),
    rec("kalin", word="kalin", tags="Nc", category="noun"),
    rec("kanin", word="Kanin", tags="Np", category="name"),
    rec("karin", word="Karin", tags="Np", category="name"),
    rec("kivi", word="kivi", tags="Nc", category="noun"),
    rec("kiwi", word="kiwi", tags="Nc", category="noun"),
    rec("kajak", word="kajak", tags="Nc", category="noun"),
]

KVIZOVKA = [
    rec("љубав", word="ljubav", tags="n.f.sg.nom", category="noun"),
    rec("лубав", word="lubav", tags="test", category="noun"),      # to tell LJ from L
    rec("њива", word="njiva", tags="n.f.sg.nom", category="noun"),
    rec("надживети", word="nadživeti", tags="vblex.inf", category="verb"),
    rec("кућа", word="kuća", tags="n.f.sg.nom", category="noun"),
    rec("кући", word="kući", valid=False, code="inflected_form", message="dative"),
    rec("џеп", word="džep", tags="n.m.sg.nom", category="noun"),
    rec("коњ", word="konj", tags="n.m.sg.nom", category="noun"),
    rec("сунце", word="sunce", tags="n.n.sg.nom", category="noun"),
]


def publish_all(root: Path) -> Path:
    publish(root, "osps", POLISH)
    publish(root, "krizemkrazem", KRIZEMKRAZEM)
    publish(root, "kvizovka", KVIZOVKA)
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(home: Path) -> Iterator[str]:
    """`lexicon serve` on a free loopback port with LEXICON_HOME=home; yields its base URL."""
    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            proc.kill()
            raise RuntimeError("server did not start: " + proc.stderr.read().decode()[-2000:])
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
