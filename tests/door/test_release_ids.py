"""A ``release=`` id the filesystem cannot even look up is ``unknown_release`` (404, CLI
exit 2), never a 500 or a traceback (issue 16, finding 4): longer than a file name may be
(ENAMETOOLONG), a NUL, a lone surrogate, or any other OSError of the lookup."""

from __future__ import annotations

import errno
import json
import pathlib
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app

from lexicon.catalog import Catalog
from lexicon.errors import UnknownRelease
from tests.conftest import lexicon

LONG = "osps-" + "x" * 300                   # ENAMETOOLONG
LONG_BYTES = "osps-" + "ż" * 130             # 135 characters, 265 bytes
NUL = "osps-20261201T000000Z-0\x00"
SURROGATE = "osps-\ud800"
UNREADABLE = "osps-unreadable"               # the lookup itself fails (see _lookup_fails)
# what a URL can carry (a lone surrogate cannot be percent-encoded as UTF-8)
IN_URLS = [LONG, LONG_BYTES, NUL, UNREADABLE]


@pytest.fixture(autouse=True)
def _lookup_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lookup that fails with some other OSError (EACCES; EIO from a failing disk)."""
    real = pathlib.Path.is_file

    def is_file(self: pathlib.Path) -> bool:
        if UNREADABLE in str(self):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(pathlib.Path, "is_file", is_file)


def route_only(app: object) -> object:
    """The app without its single-word fast lane: the declared route answers everything."""
    app.lane.enabled = False                    # type: ignore[attr-defined]
    return app


@pytest.mark.parametrize("rid", [LONG, LONG_BYTES, NUL, SURROGATE, UNREADABLE])
def test_the_library_says_unknown_release(small_releases: Path, rid: str) -> None:
    with pytest.raises(UnknownRelease) as got:
        Catalog(small_releases).release("osps", rid)
    body = json.dumps(got.value.to_json(), ensure_ascii=False).encode()   # can be sent
    assert got.value.status == 404 and b"unknown_release" in body


@pytest.mark.parametrize("lane", [True, False], ids=["fast-lane", "route"])
def test_http_answers_404_on_every_endpoint(small_releases: Path, lane: bool) -> None:
    app = create_app(small_releases)
    client = TestClient(app if lane else route_only(app), raise_server_exceptions=False)
    for rid in IN_URLS:
        q = quote(rid, safe="")
        for r in (client.get(f"/v1/games/osps/words/kot?release={q}"),
                  client.post(f"/v1/games/osps/check?release={q}", json={"words": ["kot"]})):
            assert r.status_code == 404, (rid, r.text)
            assert r.json()["code"] == "unknown_release"
    for rid in [*IN_URLS, SURROGATE]:
        body = json.dumps({"words": ["kot"], "release": rid})     # \ud800 escaped, as JSON
        r = client.post("/v1/games/osps/judge", content=body,
                        headers={"content-type": "application/json"})
        assert r.status_code == 404, (rid, r.text)
        assert r.json()["code"] == "unknown_release"
    # the ids that exist still answer
    rid = client.get("/v1/games/osps/words/kot").json()["release"]
    assert client.get(f"/v1/games/osps/words/kot?release={rid}").status_code == 200


@pytest.mark.parametrize("rid", [LONG, LONG_BYTES, NUL, SURROGATE, UNREADABLE])
def test_the_cli_exits_2(small_releases: Path, rid: str) -> None:
    for args in (["check", "osps", "kot", "--release", rid],
                 ["judge", "osps", "kot", "--release", rid, "--json"]):
        p = lexicon(small_releases, *args)      # re-raises anything not turned into an exit
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert "error [unknown_release]" in p.stderr
    p = lexicon(small_releases, "check", "osps", "kot", "--release", rid, "--json")
    assert json.loads(p.stdout)["error"]["code"] == "unknown_release"
