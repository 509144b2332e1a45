"""The front door: :class:`Lexicon`, one game's word list as one release gives it.

Start here. A :class:`Lexicon` is the main and only interface a face needs (the CLI, the
HTTP service, an engine embedding the library): open one for a game, optionally for a
published release id, and ask it questions::

    from lexicon import Lexicon

    osps = Lexicon.open("osps")                 # the current release in $LEXICON_HOME
    osps.check("zażółć")["valid"]               # the full verdict: reason, tiles, score ...
    osps.valid(["kot", "np"])                   # one boolean a word, for engines
    osps.judge(["kot", "pies"])["verdict"]      # one ruling for a play, logged
    osps.pattern("?A??K")["results"]            # queries: blanks, pattern, anagrams, hooks
    osps.release_id                             # every answer names the release it came from

Everything one Lexicon answers comes from the one release it pinned when it was opened, so
a release published meanwhile changes none of its answers nor their labels; open another
Lexicon (or ask the :class:`~lexicon.catalog.Catalog` again) to see the new one. It holds
the game's profile, its speller (how text becomes tiles) and its play rules, all built once
per process, so asking costs only the question.

Who opens them: a :class:`~lexicon.catalog.Catalog` is one ``LEXICON_HOME``; its
:meth:`~lexicon.catalog.Catalog.lexicon` hands out the cached Lexicon of a game's current
release (switching when ``CURRENT`` changes, keeping a damaged game away from the others),
and it answers what is asked of the home rather than of one release: the games, the
releases, readiness, verification, the rulings log. The service holds one Catalog for the
process and takes a Lexicon per request; :meth:`Lexicon.open` shares one Catalog per home.

The methods are thin: each calls the library module that owns the rule (``checker``,
``fastcheck``, ``judge``, ``remik``, ``queries``, ``export``, ``diff``), giving it this
Lexicon's profile and release. The names in :data:`__all__` are also what ``lexicon``
exports, and the only names the CLI and the service may import from the library
(``tests/test_layout.py``): the door, the catalog, the errors and the limits the faces
state.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import IO, Any, cast

from lexicon.catalog import Catalog
from lexicon.errors import (
    CODES,
    EXIT_FAILED,
    EXIT_INVALID,
    InputError,
    LexiconError,
    NotReady,
)
from lexicon.export import diff as diffing
from lexicon.export import export as exporting
from lexicon.export import offline
from lexicon.export.changes import class_lines
from lexicon.export.export import identity
from lexicon.game.gloss import language
from lexicon.game.inputs import EDGE_SPACE, MAX_WORD_CHARS
from lexicon.game.play import PlayRules, play_rules
from lexicon.game.profile import Profile, game_ids
from lexicon.game.tiles import Speller, speller
from lexicon.limits import limit_table, limit_value, markdown_cell
from lexicon.queries import queries
from lexicon.queries.anagrams import MAX_BOARD_TILES, MAX_CHARS_PER_TILE, MAX_RACK_TILES
from lexicon.queries.patterns import MAX_PATTERN_CHARS
from lexicon.queries.queries import DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, MAX_PATTERN_WORK
from lexicon.store.store import Release
from lexicon.verdicts import checker, fastcheck, judge, remik
from lexicon.verdicts.checker import MAX_BATCH
from lexicon.verdicts.fastcheck import MAX_WORDS
from lexicon.verdicts.judge import MAX_PLAY_WORDS
from lexicon.verdicts.remik import read_history
from lexicon.verdicts.rulings import LOCK_TIMEOUT, LockHeld

#: what ``from lexicon import X`` gives (``lexicon/__init__.py`` loads this module when one
#: is first asked for): the door, the catalog, the errors and exit codes, the limits the
#: faces state, and a few helpers that need no release
__all__ = [
    "CODES", "DEFAULT_LIMIT", "EDGE_SPACE", "EXIT_FAILED", "EXIT_INVALID", "LOCK_TIMEOUT",
    "MAX_BATCH", "MAX_BOARD_TILES", "MAX_CHARS_PER_TILE", "MAX_LIMIT", "MAX_OFFSET",
    "MAX_PATTERN_CHARS", "MAX_PATTERN_WORK", "MAX_PLAY_WORDS", "MAX_RACK_TILES",
    "MAX_WORDS", "MAX_WORD_CHARS", "OFFLINE_FORMAT", "Catalog", "InputError", "Lexicon",
    "LexiconError", "LockHeld", "NotReady", "class_lines", "game_ids", "identity", "language",
    "limit_table", "limit_value",
    "markdown_cell", "read_history",
]


class _Pinned:
    """What the library's ``(catalog, game)`` functions read from a catalog (``profile``,
    ``release``, ``root``), answered from one Lexicon's release: every lookup they make
    inside one of its methods reads the release the Lexicon pinned, whatever is published
    meanwhile. Holds the parts, not the Lexicon nor its catalog, so no reference cycle
    keeps a replaced release open until the garbage collector runs."""

    __slots__ = ("_game", "_profile", "_release", "root")

    def __init__(self, root: Path, profile: Profile, release: Release) -> None:
        self._game = profile.id
        self._profile = profile
        self._release = release
        self.root = root

    def _mine(self, game: str) -> None:
        if game != self._game:   # the door's methods pass their own game, always
            raise ValueError(f"a {self._game} Lexicon was asked about {game!r}")

    def profile(self, game: str) -> Profile:
        self._mine(game)
        return self._profile

    def release(self, game: str, release_id: str | None = None) -> Release:
        self._mine(game)
        if release_id not in (None, self._release.id):
            raise ValueError(f"a Lexicon of {self._release.id} was asked for {release_id}")
        return self._release


#: the layout of the referee page's offline pack (``static/offline.js`` reads this one)
OFFLINE_FORMAT = offline.FORMAT

#: one Catalog per home for :meth:`Lexicon.open`: one open handle per release per process
_SHARED: dict[Path, Catalog] = {}
_SHARED_LOCK = threading.Lock()


class Lexicon:
    """One game's word list as one published release gives it (see the module docstring).

    Made by a :class:`~lexicon.catalog.Catalog` (``catalog.lexicon(game)``) or by
    :meth:`open`; never per request: a Catalog makes one per release and reuses it.
    Errors are :class:`~lexicon.errors.LexiconError` with a stable ``code``.
    """

    def __init__(self, catalog: Catalog, profile: Profile, release: Release) -> None:
        self.profile = profile
        self.release = release
        self.root = catalog.root
        # weak: the catalog caches its Lexicons, and a cycle would keep closed-over
        # releases open until a garbage collection
        self._catalog = weakref.ref(catalog)
        # the library's functions take a catalog and read only profile, release and root
        self._pinned = cast(Catalog, _Pinned(catalog.root, profile, release))

    @classmethod
    def open(cls, game: str, release: str | None = None, *,
             root: Path | None = None) -> Lexicon:
        """The current release of ``game`` in ``root`` (default ``$LEXICON_HOME``), or the
        published release ``release``. Calls share one Catalog per home, so a process
        holds each release open once."""
        from lexicon.paths import home

        where = Path(root or home()).resolve()
        with _SHARED_LOCK:
            catalog = _SHARED.get(where)
            if catalog is None:
                catalog = _SHARED[where] = Catalog(where)
        return catalog.lexicon(game, release)

    # -- what it is ------------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self.profile.id

    @property
    def release_id(self) -> str:
        """The id every answer of this Lexicon names."""
        return self.release.id

    @property
    def manifest(self) -> dict[str, Any]:
        """The release's manifest: when and from what it was built, its counts and hash."""
        return self.release.manifest

    @cached_property
    def speller(self) -> Speller:
        """How text becomes the game's tiles (built once per process per profile)."""
        return speller(self.profile)

    @cached_property
    def rules(self) -> PlayRules:
        """The game's play rules: lengths, scores, jokers, the board's edge."""
        return play_rules(self.profile)

    @property
    def catalog(self) -> Catalog:
        """The catalog that opened this Lexicon (a new one on its home if it is gone)."""
        return self._catalog() or Catalog(self.root)

    def language(self, lang: str | None = None) -> str:
        """The language of glosses and reason texts: ``lang``, else the players' own;
        ``bad_lang`` for a language the project has no texts in."""
        return language(self.profile.language, lang)

    def __repr__(self) -> str:
        return f"Lexicon({self.game!r}, {self.release_id!r})"

    # -- verdicts --------------------------------------------------------------------------

    def check(self, word: str, *, edge: bool = False, lang: str | None = None
              ) -> dict[str, Any]:
        """The full verdict on one word: valid, reason, tiles, score, analyses, evidence,
        meanings, other tilings (:mod:`lexicon.verdicts.checker`). InputError for unusable text."""
        return checker.check_word(self._pinned, self.game, word, edge=edge, lang=lang)

    def check_many(self, words: Iterable[str], *, edge: bool = False,
                   lang: str | None = None) -> list[dict[str, Any]]:
        """A verdict a word; an unusable item gets an ``error`` object, not a failed batch."""
        return checker.check_many(self._pinned, self.game, words, edge=edge, lang=lang)

    def valid(self, words: Iterable[str], *, edge: bool = False) -> list[bool]:
        """Exactly ``check(w)["valid"]`` for each word, at batch speed (an unusable text
        is not valid): the engines' check (:mod:`lexicon.verdicts.fastcheck`)."""
        return fastcheck.valid_flags(self._pinned, self.game, words, edge=edge)

    def rule(self, words: Sequence[object], *, edge: bool = False, reveal: bool = False,
             lang: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """One ruling on a play, not yet logged, and the log entry :meth:`record` must
        write before the ruling may be given (:mod:`lexicon.verdicts.judge`)."""
        return judge.rule(self._pinned, self.game, words,
                          edge=edge, reveal=reveal, lang=lang)

    def record(self, ruling: dict[str, Any], entry: dict[str, Any], *,
               deadline: float | None = None) -> dict[str, Any]:
        """Log a ruling in this home's rulings log and stamp it with its time; only then
        may it be given. RulingsUnavailable (LockHeld when ``deadline`` passed with the
        lock held) when the log cannot take it."""
        return judge.record(ruling, entry, self.root, deadline=deadline)

    def judge(self, words: Sequence[object], *, edge: bool = False, reveal: bool = False,
              lang: str | None = None, log: bool = True) -> dict[str, Any]:
        """Rule on a play as a word judge does: ``stands`` or ``falls``, saying which word
        failed only with ``reveal``; logged (unless ``log`` is false) before it is given."""
        return judge.judge(self._pinned, self.game, words,
                           edge=edge, reveal=reveal, lang=lang, log=log)

    def move(self, before: object, after: object, rack: object, *, opening: bool = False,
             reopening: bool = False, variant: int = 1, history: object = None,
             reveal: bool = False, lang: str | None = None, log: bool = True
             ) -> dict[str, Any]:
        """A ruling on a Remik table move by the rule book (:mod:`lexicon.verdicts.remik`): which
        table word became which new word, its legality, points and penalty."""
        return remik.rule_move(self._pinned, before, after, rack,
                               opening=opening, reopening=reopening, variant=variant,
                               history=history, reveal=reveal, lang=lang, log=log,
                               game=self.game)

    # -- queries (:mod:`lexicon.queries.queries`): counted and paged ------------------------------

    def blanks(self, word: str, *, edge: bool = False, sort: str = "alpha",
               limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Every admissible word ``word`` can be with its jokers (``?``) filled in."""
        return queries.blanks(self._pinned, self.game, word,
                              edge=edge, sort=sort, limit=limit, offset=offset)

    def pattern(self, text: str, *, min_length: int | None = None,
                max_length: int | None = None, sort: str = "alpha",
                limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Words matching a pattern: ``?`` a tile, ``*`` a run, ``[abc]``, ``[^abc]``."""
        return queries.pattern(self._pinned, self.game, text,
                               min_length=min_length, max_length=max_length, sort=sort,
                               limit=limit, offset=offset)

    def anagrams(self, rack: str, *, board: str = "", exact: bool = False,
                 min_length: int | None = None, max_length: int | None = None,
                 sort: str = "score", limit: int = DEFAULT_LIMIT, offset: int = 0
                 ) -> dict[str, Any]:
        """Anagrams and sub-anagrams of a rack (``?`` a joker) using every board letter."""
        return queries.anagrams(self._pinned, self.game, rack,
                                board=board, exact=exact, min_length=min_length,
                                max_length=max_length, sort=sort, limit=limit,
                                offset=offset)

    def extend(self, word: str, rack: str, *, sort: str = "alpha",
               limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Remik's rebuilds of a table word with at least one rack tile."""
        return queries.extend(self._pinned, self.game, word, rack,
                              sort=sort, limit=limit, offset=offset)

    def hooks(self, word: str) -> dict[str, Any]:
        """Front and back hooks of a word, whether it is a prefix, the tiles that follow."""
        return queries.hooks(self._pinned, self.game, word)

    def prefix(self, text: str) -> dict[str, Any]:
        """Does a playable word start with ``text``, and which tiles may come next."""
        return queries.prefix(self._pinned, self.game, text)

    # -- the whole list --------------------------------------------------------------------

    def offline_pack(self, *, make: bool = True) -> offline.Pack | None:
        """The referee page's offline pack of this release (:mod:`lexicon.export.offline`):
        its rules as JSON and its words as two DAWG-only KWGs, made once per release
        (``make=False``: None when it is not made yet)."""
        return offline.pack(self.profile, self.release, self.root, make=make)

    def export(self, fmt: str, output: Path | None = None, *, stdout: IO[str] | None = None,
               dawg_only: bool = False) -> dict[str, Any]:
        """The playable words in ``fmt`` (``words``, ``tiles``, ``jsonl``, ``kwg``,
        ``kbwg``, ``engine``) to ``output`` (atomically) or ``stdout``
        (:mod:`lexicon.export.export`); what was written, for a report."""
        return exporting.export(self.profile, self.release, fmt, output, stdout,
                                dawg_only=dawg_only)

    def diff(self, old: str | None = None, *, summary: bool = False,
             samples: int = diffing.SAMPLES) -> dict[str, Any]:
        """Words added and removed from release ``old`` (default: the one this release was
        built after, else the newest published before it) to this one, by length; with
        ``summary``, the edition diff instead: counts by verdict and reason before and after,
        the changed source versions, and the added and removed words by class with
        ``samples`` of each."""
        before, _ = diffing.resolve_pair(self.catalog, self.game, old, self.release_id)
        if summary:
            return diffing.summary(self.profile, before, self.release, samples=samples)
        return diffing.diff_releases(self.profile, before, self.release)
