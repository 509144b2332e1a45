"""Small lexicons for the query tests: few words, chosen so each query has a known answer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lexicon.service.launch import serving

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


@contextmanager
def running_server(home: Path) -> Iterator[str]:
    """The real app under uvicorn on a free loopback port with LEXICON_HOME=home."""
    with serving("lexicon.service.app:create_app", home) as (base, _pid):
        yield base
