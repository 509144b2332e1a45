"""The README's generated tables follow the code: no code or limit undocumented, none stale."""

from __future__ import annotations

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
    monkeypatch.setattr("lexicon.inputs.MAX_WORD_CHARS", 65)
    assert "| `inputs.MAX_WORD_CHARS` | 65 |" in docs.render(current)


def test_the_readme_check_answer_has_the_fields_of_a_real_one(home) -> None:
    """The README's `check` answer (and the OpenAPI example) list the fields a check of a
    tiny real release answers with, `meanings` included: a new field is documented."""
    import json
    import re

    from lexicon import checker
    from lexicon.catalog import Catalog
    from service.app import CHECK_EXAMPLE
    from tests.conftest import POLISH_RECORDS, publish

    text = docs.README.read_text(encoding="utf-8")
    block = re.search(r"A `check` answer[^\n]*\n\n```json\n(.*?)```", text, re.S).group(1)
    example = json.loads(block.replace("…", ""))
    publish(home, "osps", POLISH_RECORDS)
    cat = Catalog(home)
    real = checker.check_word(cat, "osps", "zażółć")
    cat.close()
    assert set(example) == set(real) == set(CHECK_EXAMPLE)
    assert example["meanings"] == real["meanings"] == []    # no dictionary in this build


def test_the_tables_exit_codes_are_what_the_classes_exit_with() -> None:
    """The README's CLI exit column is read from the syntax; each error class, made for
    real, exits (``exit_code``) with one of the codes the table gives it."""
    import importlib

    from lexicon.errors import LexiconError
    for module in ("build.amend", "build.canaries", "build.signing", "build.shipping",
                   "lexicon.anagrams", "lexicon.indexes", "lexicon.kwg", "lexicon.remik",
                   "lexicon.search"):
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
