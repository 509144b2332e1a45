"""One builder per game (or language): candidate forms, their evidence, the game's rules.

Where to start reading: :mod:`build.rulebook` says how every game decides a word (vetoes,
admissions returning typed evidence, explanations, a last word). Then one game's package,
in this order: ``book.py`` (its rule book: the whole decision, in the order it is made),
``evidence.py`` (what the sources say about one spelling, as typed values), ``builder.py``
(sources -> evidence -> rules -> one record per key). Data lives apart from the algorithms:
reviewed lists in ``sources/lists/``, tiles in ``lexicon/profiles/``, ending tables in the
packages' own modules (``krizemkrazem/morph.py``, ``kvizovka/analysis.py``).

* :mod:`build.games.kvizovka`: Serbian/Croatian, apertium generators + hunspell-sr/-hr;
* :mod:`build.games.krizemkrazem`: Slovenian, hunspell-sl + apertium analyser + FreeDict +
  LemmaGen;
* :mod:`build.games.osps`: Polish (osps and remik), wpolish + hunspell-pl + Morfeusz 2.

Every builder has one shape (:class:`GameBuilder`): a class built from explicit inputs (the
real packages, or a test's tiny files) whose :meth:`~GameBuilder.records` reads all of its
evidence first, then judges every key once by its rule book (a book that depends on the
evidence, Kvizovka's reflexive-only verbs, is made only once the evidence is complete);
``policy()`` and ``rules()`` describe, for the manifest, the book it judged with. Each
game's package exports a ``builder(ctx)`` factory over the fetched sources, registered in
:data:`BUILDERS`. A builder knows nothing of the pipeline: it is handed a
:class:`~build.context.BuildContext` and yields records; what happens to them after the
rules (official lists, reviewed overrides, canaries: :mod:`build.overruling`) and how they
are written (:mod:`build.release_writer`) is the pipeline's.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any, Protocol

from lexicon.build.context import BuildContext

from lexicon.errors import BuildError
from lexicon.store.records import Record

#: game id -> the package whose ``builder(ctx)`` builds it. A game's package is imported
#: only when that game is built: each needs its own analysers (Morfeusz 2 for osps,
#: LemmaGen for krizemkrazem), and a machine building one game need not install the others'.
BUILDERS: dict[str, str] = {
    "osps": "lexicon.build.games.osps",
    "kvizovka": "lexicon.build.games.kvizovka",
    "krizemkrazem": "lexicon.build.games.krizemkrazem",
}

#: the games whose builders judge their forms in worker processes (:mod:`build.shards`);
#: the build plan names them with the number of workers
SHARDED: frozenset[str] = frozenset({"osps", "krizemkrazem", "kvizovka"})


class GameBuilder(Protocol):
    game: str
    source_ids: tuple[str, ...]

    def records(self, ctx: BuildContext) -> Iterable[Record]: ...

    def policy(self) -> dict[str, Any]: ...

    def rules(self) -> list[dict[str, str]]: ...


def builder_for(game: str, ctx: BuildContext) -> GameBuilder:
    """The registered builder of ``game`` over the sources fetched into ``ctx``."""
    package = BUILDERS.get(game)
    if package is None:
        raise BuildError(f"no builder for game {game!r}")
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:
        raise BuildError(f"the {game} builder is not available yet ({exc.name})") from exc
    made: GameBuilder = module.builder(ctx)
    return made
