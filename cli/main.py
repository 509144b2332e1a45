"""The command-line face: the ``lexicon`` app, every command in the order ``lexicon --help``
lists them.

Like the service, it only parses arguments and prints what the library returns; each
command lives with its kind (:mod:`cli.releases`, :mod:`cli.verdicts`, :mod:`cli.serve`,
:mod:`cli.queries`, :mod:`cli.shipping`, :mod:`cli.sources`, :mod:`cli.audit`), every one
runs inside the CLI's contract (:mod:`cli.contract`: exit codes and error lines), and how a
result is shown to a person is :mod:`cli.render`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lexicon.cli import audit, queries, releases, serve, shipping, sources, verdicts
from lexicon.cli.contract import TRACEBACK_ENV, Commands

# plain help (no rich markup): rich read `[abc]` and `[^abc]` in `pattern --help` as style
# tags and dropped them; the README's CLI reference is this help, generated (tools/docs.py)
app = Commands(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
               help="Lexicon compiler and word checker for Kvizovka, Križemkražem, "
                    "Polish Scrabble (osps) and Remik słowny (remik).\n\n"
                    "Exit codes: 0 valid (found), 1 not valid (nothing found), 2 a usage "
                    "error, 3 a failed or refused operation (fetch, build, damaged or missing "
                    "release, bundle), 4 busy (another build or install of the game), 5 an "
                    "internal error (a bug or memory exhausted; one line on stderr, "
                    f"{TRACEBACK_ENV}=1 for the traceback).")

#: Every command's name and function, in the order the help lists them.
COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("games", releases.games), ("fetch", sources.fetch), ("build", releases.build),
    ("verify", releases.verify), ("amend", releases.amend), ("repack", releases.repack),
    ("releases", releases.list_releases), ("check", verdicts.check),
    ("judge", verdicts.judge), ("rulings", verdicts.list_rulings), ("serve", serve.serve),
    ("blanks", queries.blanks), ("pattern", queries.pattern), ("anagram", queries.anagram),
    ("extend", queries.extend), ("hooks", queries.hooks), ("export", releases.export),
    ("diff", releases.diff), ("keygen", shipping.keygen), ("bundle", shipping.bundle),
    ("install", shipping.install), ("rollback", shipping.rollback),
    ("import", sources.import_list), ("hash", sources.hash_list),
)
for name, command in COMMANDS:
    app.command(name)(command)
app.add_typer(sources.app, name="sources")
app.add_typer(audit.app, name="audit")

if __name__ == "__main__":
    app()
