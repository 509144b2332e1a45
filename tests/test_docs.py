"""The README's generated tables follow the code: no code or limit undocumented, none stale."""

from __future__ import annotations

import importlib

from lexicon.errors import CODES
from tools import docs


def test_every_raised_error_code_is_documented_and_no_other() -> None:
    raised = set(docs.raised_codes())
    assert raised - set(CODES) == set(), "add these to lexicon.errors.CODES"
    assert set(CODES) - raised == set(), "no code raises these any more"


def test_every_limit_is_documented() -> None:
    assert docs.defined_limits() == set(docs.LIMITS)


def test_the_readme_tables_are_current() -> None:
    current = docs.README.read_text(encoding="utf-8")
    assert docs.render(current) == current, "run `python -m tools.docs`"
    assert docs.main(["--check"]) == 0


def test_a_new_code_or_a_changed_limit_makes_the_readme_stale(monkeypatch) -> None:
    current = docs.README.read_text(encoding="utf-8")
    monkeypatch.setitem(CODES, "brand_new_code", "what it means")
    assert "brand_new_code" in docs.render(current)
    monkeypatch.delitem(CODES, "brand_new_code")
    monkeypatch.setattr("lexicon.game.inputs.MAX_WORD_CHARS", 65)
    assert "| `inputs.MAX_WORD_CHARS` | 65 |" in docs.render(current)


def test_the_readme_check_answer_has_the_fields_of_a_real_one(home) -> None:
    """The README's `check` answer (and the OpenAPI example) list the fields a check of a
    tiny real release answers with, `meanings` included: a new field is documented."""
    import json
    import re

    from lexicon.catalog import Catalog
    from service.app import CHECK_EXAMPLE
    from tests.conftest import POLISH_RECORDS, publish

    text = docs.README.read_text(encoding="utf-8")
    block = re.search(r"A `check` answer[^\n]*\n\n```json\n(.*?)```", text, re.S).group(1)
    example = json.loads(block.replace("…", ""))
    publish(home, "osps", POLISH_RECORDS)
    cat = Catalog(home)
    real = cat.lexicon("osps").check("zażółć")
    cat.close()
    assert set(example) == set(real) == set(CHECK_EXAMPLE)
    assert example["meanings"] == real["meanings"] == []    # no dictionary in this build


def test_the_tables_exit_codes_are_what_the_classes_exit_with() -> None:
    """The README's CLI exit column is read from the syntax; each error class, made for
    real, exits (``exit_code``) with one of the codes the table gives it."""
    import importlib

    from lexicon.errors import LexiconError
    for module in ("build.amend", "build.canaries", "build.signing", "build.shipping",
                   "lexicon.queries.anagrams", "lexicon.store.indexes", "lexicon.export.kwg",
                   "lexicon.verdicts.remik", "lexicon.queries.search"):
        importlib.import_module(module)
    exits = docs.exit_codes()
    todo, seen = [LexiconError], []
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.startswith(("lexicon", "build", "sources")) and \
                not cls.__name__.startswith("_"):
            seen.append(cls.__name__)
            assert cls("x").exit_code in exits[cls.code], cls
    assert {"BadKey", "NoDistribution", "BuildBusy", "InputError"} <= set(seen)
    assert exits["unknown_game"] == {2} and exits["build_in_progress"] == {4}
    assert exits["bad_key"] == {2, 3} and "busy" not in exits     # busy: the service only


def test_the_cli_reference_is_every_commands_help() -> None:
    """The README's CLI reference holds each command's real ``--help``: every command of
    the app (the ``sources`` subcommands too), its usage line and each option it takes."""
    text = docs.README.read_text(encoding="utf-8")
    paths = docs.command_paths()
    assert ["check"] in paths and ["sources", "pack"] in paths and [] in paths
    for path in paths:
        shown = docs.command_help(path)
        assert f"**`{' '.join(['lexicon', *path])}`**\n\n```text\n{shown}\n```" in text
        assert shown.startswith(f"Usage: {' '.join(['lexicon', *path])}")
    build = docs.command_help(["build"])
    assert "sampled evenly" in " ".join(build.split()) and "first N" not in build
    # plain help: rich markup read these as style tags and dropped them
    assert "[abc] a set, [^abc] not" in docs.command_help(["pattern"])


def test_a_new_command_or_option_makes_the_cli_reference_stale(monkeypatch) -> None:
    import typer

    from cli.main import app
    monkeypatch.setattr(app, "registered_commands", list(app.registered_commands))

    @app.command("brand-new")
    def brand_new(shiny: bool = typer.Option(False, "--shiny", help="a new option")) -> None:
        """A command the README does not know yet."""

    rendered = docs.render(docs.README.read_text(encoding="utf-8"))
    assert "**`lexicon brand-new`**" in rendered
    assert "--shiny" in rendered and "a new option" in rendered


# -- the OpenAPI texts: written from CODES and LIMITS, never retyped ------------------------

def _spec(root) -> dict:
    from fastapi.testclient import TestClient

    from service.app import create_app
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
    from lexicon.limits import markdown_cell
    from service import apidocs
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
    from service import apidocs
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

    from service.app import create_app
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
