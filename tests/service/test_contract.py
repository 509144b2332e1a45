"""The HTTP error contract: one error shape for every failure, documented in OpenAPI with the
numeric limits; HEAD wherever GET is; a CSP with frame-ancestors on every HTML page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.contract import PAGE_CSP

from lexicon.queries import queries
from lexicon.verdicts import checker, fastcheck
from tests.conftest import SmallHomes


@pytest.fixture(scope="module")
def client(small_homes: SmallHomes) -> Iterator[TestClient]:
    with TestClient(create_app(small_homes("osps"))) as c:
        yield c


@pytest.mark.parametrize("body", [b'{"words": [', b'{"words": ["\xff"]}', b"\xff\xfe",
                                  b'{"words": "kot"}', b"[]", b""])
@pytest.mark.parametrize("path", ["/v1/games/osps/check", "/v1/games/osps/valid",
                                  "/v1/games/osps/judge"])
def test_an_unreadable_body_is_422_invalid_request(client: TestClient, path: str,
                                                   body: bytes) -> None:
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_request" and r.json()["message"]


def test_head_is_answered_wherever_get_is(client: TestClient) -> None:
    for path in ("/healthz", "/", "/static/index.html", "/v1/games/osps/words/kot",
                 "/v1/games/osps/pattern?pattern=k?t", "/openapi.json"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == get.headers[
            "content-type"]
    r = client.head("/v1/games/osps/check")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    r = client.delete("/healthz")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert r.json()["code"] == "method_not_allowed"


def test_every_html_response_forbids_framing(client: TestClient) -> None:
    for path in ("/", "/static/index.html"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == PAGE_CSP
        assert "frame-ancestors 'none'" in PAGE_CSP and r.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in client.get("/docs").headers["content-security-policy"]
    assert "content-security-policy" not in client.get("/healthz").headers


def test_the_api_docs_page_loads_everything_from_the_service(client: TestClient) -> None:
    """Every URL ``/docs`` names (script, style sheet, icon, the schema) is this server's
    own and answers 200; the page's CSP lets the browser ask no other host. There is no
    ReDoc page (it would draw its logo from elsewhere)."""
    r = client.get("/docs")
    assert r.status_code == 200
    urls = set(re.findall(r"""(?:src|href)=["']([^"']+)["']""", r.text))
    urls |= set(re.findall(r"""url: *["']([^"']+)["']""", r.text))
    assert any(u.endswith(".js") for u in urls) and "/openapi.json" in urls, urls
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        assert client.get(url).status_code == 200, url
    assert "://" not in r.text.replace("http://www.w3.org", ""), "a URL of another host"
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "http" not in csp and "*" not in csp
    assert client.get("/redoc").status_code == 404


def test_openapi_shows_the_real_errors_and_limits(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    text = str(spec)
    assert "HTTPValidationError" not in text
    error = spec["components"]["schemas"]["ErrorBody"]
    assert set(error["required"]) == {"code", "message"}
    ref = {"$ref": "#/components/schemas/ErrorBody"}
    game_ops = [(p, m, op) for p, ops in spec["paths"].items() for m, op in ops.items()
                if p.startswith("/v1/games/{game}")]
    assert len(game_ops) >= 9
    for path, method, op in game_ops:
        for status in ("400", "404", "422", "503"):
            assert op["responses"][status]["content"]["application/json"]["schema"] == ref, (
                path, method, status)
    for path in ("/v1/games/{game}/check", "/v1/games/{game}/valid"):
        assert spec["paths"][path]["post"]["responses"]["413"]["content"][
            "application/json"]["schema"] == ref
    schemas = spec["components"]["schemas"]
    assert schemas["CheckRequest"]["properties"]["words"]["maxItems"] == checker.MAX_BATCH
    assert schemas["ValidRequest"]["properties"]["words"]["maxItems"] == fastcheck.MAX_WORDS
    params = {p["name"]: p["schema"] for p in
              spec["paths"]["/v1/games/{game}/pattern"]["get"]["parameters"]}
    assert params["limit"]["maximum"] == queries.MAX_LIMIT
    assert params["offset"]["maximum"] == queries.MAX_OFFSET
    assert params["pattern"]["maxLength"] == 64
    # the documented shape is the real one
    r = client.get("/v1/games/chess/words/kot")
    assert r.status_code == 404 and set(r.json()) <= set(error["properties"])
