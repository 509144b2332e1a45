"""The documentation follows the code: the generated tables and CLI reference are current,
no code or limit is undocumented, and the pages build with Sphinx in strict mode (a broken
link or a page left out of the contents fails)."""

from __future__ import annotations

import importlib
import re

import pytest

from lexicon.errors import CODES
from tools import docs


def test_every_raised_error_code_is_documented_and_no_other() -> None:
    raised = set(docs.raised_codes())
    assert raised - set(CODES) == set(), "add these to lexicon.errors.CODES"
    assert set(CODES) - raised == set(), "no code raises these any more"


def test_every_limit_is_documented() -> None:
    assert docs.defined_limits() == set(docs.LIMITS)


def test_the_generated_pages_are_current() -> None:
    assert set(docs.PAGES) == set(docs.TABLES)
    for page, (current, wanted) in docs.pages().items():
        assert wanted == current, f"{page.name}: run `python -m tools.docs`"
    assert docs.main(["--check"]) == 0


def test_a_new_code_or_a_changed_limit_makes_the_page_stale(monkeypatch, capsys) -> None:
    current = docs.PAGES["error-codes"].read_text(encoding="utf-8")
    monkeypatch.setitem(CODES, "brand_new_code", "what it means")
    assert "brand_new_code" in docs.render(current, ("error-codes",))
    assert docs.main(["--check"]) == 1
    assert "errors-and-limits.md is stale" in capsys.readouterr().err
    monkeypatch.delitem(CODES, "brand_new_code")
    monkeypatch.setattr("lexicon.game.inputs.MAX_WORD_CHARS", 65)
    assert "| `inputs.MAX_WORD_CHARS` | 65 |" in docs.render(current, ("limits",))
    with pytest.raises(SystemExit, match="no '<!-- generated: cli-reference -->'"):
        docs.render(current, ("cli-reference",))     # a page that lost its markers


def test_the_pages_build_strictly(tmp_path) -> None:
    """Sphinx with warnings as errors builds every page of ``docs/`` (``docs/pending/``
    aside), and every page is in the contents."""
    built = docs.build_site(tmp_path / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    pages = {p.relative_to(docs.DOCS).with_suffix("") for p in docs.DOCS.rglob("*.md")
             if "pending" not in p.parts}
    assert pages and all((tmp_path / "site" / f"{p}.html").is_file() for p in pages)
    assert not (tmp_path / "site" / "pending").exists()
    for page in pages:       # one title a page: a second `# ` is a second entry in the contents
        text = re.sub(r"```.*?```", "", (docs.DOCS / f"{page}.md").read_text(), flags=re.S)
        assert len(re.findall(r"^# ", text, re.M)) == 1, page


def test_a_broken_link_or_a_stray_page_fails_the_build(tmp_path) -> None:
    """A link to a missing page, a link to a missing heading and a page outside the
    contents each fail the strict build, each named in its output (one build of a copy
    holding all three: Sphinx goes on past the first warning)."""
    import shutil
    copy = tmp_path / "docs"
    shutil.copytree(docs.DOCS, copy, ignore=shutil.ignore_patterns("pending", "_build"))
    page = copy / "library.md"
    page.write_text(page.read_text() + "\nSee [nothing](no-such-page.md) and "
                    "[no heading](cli.md#no-such-heading).\n")
    (copy / "stray.md").write_text("# A page no contents lists\n")
    built = docs.build_site(tmp_path / "site", source=copy, builder="dummy")
    assert built.returncode != 0
    out = built.stdout + built.stderr
    assert "'no-such-page.md'" in out and "'no-such-heading'" in out, out
    assert "stray.md: WARNING: document isn't included in any toctree" in out, out


# -- the OpenAPI texts: written from CODES and LIMITS, never retyped ------------------------

def _spec(root) -> dict:
    from fastapi.testclient import TestClient
    from lexicon.service.app import create_app
    with TestClient(create_app(root)) as client:
        return client.get("/openapi.json").json()


def _texts(node: object):
    """Every description and summary in an OpenAPI document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield value
            else:
                yield from _texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from _texts(value)


def test_openapi_states_every_code_and_limit_as_the_library_does(home) -> None:
    """``/openapi.json`` lists every code with its ``CODES`` meaning and every limit with
    its ``LIMITS`` text and the value its constant holds; each query endpoint its own."""
    from lexicon.service import apidocs

    from lexicon.limits import markdown_cell
    from tools.docs import LIMITS
    spec = _spec(home)
    described = spec["info"]["description"]
    for code, meaning in CODES.items():
        assert f"| `{code}` | {markdown_cell(meaning)} |" in described, code
    for (module, name), (what, _code) in LIMITS.items():
        value = getattr(importlib.import_module(module), name)
        row = f"| `{module.rsplit('.', 1)[1]}.{name}` | {value:,} | {markdown_cell(what)} |"
        assert row in described, name
    for query in ("blanks", "pattern", "anagrams", "extend"):
        text = spec["paths"][f"/v1/games/{{game}}/{query}"]["get"]["description"]
        assert apidocs.limit_table(apidocs.QUERY_LIMITS, LIMITS) in text
        assert apidocs.code_table(apidocs.QUERY_CODES) in text
    assert "| `queries.MAX_MATCHES` | 50,000 |" in apidocs.query_limits(1)


def test_a_changed_limit_or_meaning_changes_the_openapi_text(home, monkeypatch) -> None:
    from lexicon.service import apidocs, app  # noqa: F401 (imported before the patch: the service
    # reads some limits once, at import, and must keep the real ones for the other tests)
    monkeypatch.setattr("lexicon.verdicts.checker.MAX_BATCH", 777)
    monkeypatch.setitem(CODES, "bad_sort", "a sort nobody asked for")
    described = _spec(home)["info"]["description"]
    assert "| `checker.MAX_BATCH` | 777 |" in described
    assert "| `bad_sort` | a sort nobody asked for |" in described
    assert apidocs.figure("checker.MAX_BATCH") == "777"
    monkeypatch.setattr("lexicon.queries.queries.MAX_MATCHES", 12_345)
    assert "| `queries.MAX_MATCHES` | 12,345 |" in apidocs.query_limits(1)


def test_every_number_and_code_the_openapi_texts_state_is_the_contracts(home) -> None:
    """A limit a text names ("at most 32", "up to 100,000", "1..500") is the value of a
    limit the code holds, and every code an error response or example names is in
    ``CODES``: a number or a code typed into a description would drift."""
    import re

    from tools.docs import LIMITS
    spec = _spec(home)
    values = {getattr(importlib.import_module(m), n) for m, n in LIMITS}
    stated = [int(n.replace(",", "")) for text in _texts(spec)
              for n in re.findall(r"(?:at most|up to|1\.\.)\s*(\d[\d,]*)", text)]
    assert stated and set(stated) <= values
    named = set()
    for ops in spec["paths"].values():
        for op in ops.values():
            for status, response in op.get("responses", {}).items():
                if int(status) >= 400:
                    named |= set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`",
                                            response.get("description", "")))
                    example = response.get("content", {}).get(
                        "application/json", {}).get("example", {})
                    if "code" in example:
                        named.add(example["code"])
    assert {"unknown_game", "bad_pattern", "batch_too_large"} <= named
    assert named <= set(CODES)


def test_the_openapi_error_examples_are_what_the_api_answers(small_releases,
                                                             monkeypatch) -> None:
    """Each error example of a query endpoint is the real answer to its request, message
    and detail included, on a tiny real release (whose 7 words match more than a limit of
    2 matches: the example follows the limit too)."""
    from fastapi.testclient import TestClient
    from lexicon.service.app import create_app
    monkeypatch.setattr("lexicon.queries.queries.MAX_MATCHES", 2)
    asked = {("/v1/games/{game}/pattern", "422"): "/v1/games/osps/pattern?pattern=*",
             ("/v1/games/{game}/pattern", "400"): "/v1/games/osps/pattern?pattern=k[ot",
             ("/v1/games/{game}/blanks", "400"): "/v1/games/osps/blanks?word=???",
             ("/v1/games/{game}/anagrams", "400"):
                 "/v1/games/osps/anagrams?rack=" + "k" * 16}
    with TestClient(create_app(small_releases)) as client:
        spec = client.get("/openapi.json").json()
        for (path, status), url in asked.items():
            example = spec["paths"][path]["get"]["responses"][status]["content"][
                "application/json"]["example"]
            got = client.get(url)
            assert (got.status_code, got.json()) == (int(status), example), url


# -- the README: short, and every link it gives leads somewhere --------------------------------

def test_the_readme_is_short_and_its_links_resolve() -> None:
    """The README is the front page (what it is, the two commands, one example per face,
    where to go next), at most 300 lines; the reference lives in ``docs/``. Every relative
    link it gives names a file of the repository (Sphinx checks the pages' own links)."""
    import re

    text = docs.README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert len(local) >= 15
    missing = [link for link in local if not (docs.ROOT / link).exists()]
    assert missing == []
    for face in ("make serve", "make test", "lexicon serve", "```python", "curl ", "$ lexicon "):
        assert face in text, face


def test_the_changelog_has_unreleased_on_top_and_the_current_version() -> None:
    import re

    import lexicon

    version = lexicon.__version__          # stated once; pyproject.toml reads it from there
    headings = re.findall(r"^## (.+)$", (docs.ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings[0] == "Unreleased" and version in headings[1:], headings
