"""The front door: :class:`Lexicon`, one game's word list as one release gives it.

Start here. A :class:`Lexicon` is the main and only interface a face needs (the CLI, the
HTTP service, an engine embedding the library): open one for a game, optionally for a
published release id, and ask it questions::

    import lexicon

    osps = lexicon.open("osps")                 # the current release in $LEXICON_HOME
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
process and takes a Lexicon per request; :func:`lexicon.open` shares one Catalog per home.
The catalog sits above this module: a Lexicon is plain data (a profile, a release, the home
whose rulings log it writes) and knows no catalog.

The methods are thin: each calls the library module that owns the rule (``checker``,
``fastcheck``, ``judge``, ``remik``, ``queries``, ``export``, ``diff``), giving it this
Lexicon's profile and release (and its home, where a ruling is logged). The package's
public names (``lexicon.__all__``: this class, the catalog, the errors and the limits the
faces state) are the only names the CLI and the service may import from the library
(``tests/project/test_layout.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lexicon.export import diff as diffing
from lexicon.export import export as exporting
from lexicon.export import offline
from lexicon.game.gloss import language
from lexicon.game.play import PlayRules, play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import Speller, speller
from lexicon.queries import queries
from lexicon.queries.queries import DEFAULT_LIMIT
from lexicon.store.release import Release
from lexicon.verdicts import checker, fastcheck, judge, remik

if TYPE_CHECKING:
    from lexicon.audit.sheets import Sheet


class Lexicon:
    """One game's word list as one published release gives it (see the module docstring).

    Made by a :class:`~lexicon.catalog.Catalog` (``catalog.lexicon(game)``) or by
    :func:`lexicon.open`; never per request: a Catalog makes one per release and reuses it.
    Errors are :class:`~lexicon.errors.LexiconError` with a stable ``code``.
    """

    def __init__(self, profile: Profile, release: Release, root: Path, *,
                 opener: Callable[[str], Lexicon] | None = None) -> None:
        self.profile = profile
        self.release = release
        self.root = root            # the home whose rulings log this Lexicon's rulings go to
        # how to open another release of this game (an older one, for diff): the catalog's,
        # which holds each release open once per process
        self._opener = opener

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
        return checker.check_word(self.profile, self.release, word, edge=edge, lang=lang)

    def check_many(self, words: Iterable[str], *, edge: bool = False,
                   lang: str | None = None) -> list[dict[str, Any]]:
        """A verdict a word; an unusable item gets an ``error`` object, not a failed batch."""
        return checker.check_many(self.profile, self.release, words, edge=edge, lang=lang)

    def valid(self, words: Iterable[str], *, edge: bool = False) -> list[bool]:
        """Exactly ``check(w)["valid"]`` for each word, at batch speed (an unusable text
        is not valid): the engines' check (:mod:`lexicon.verdicts.fastcheck`)."""
        return fastcheck.valid_flags(self.profile, self.release, words, edge=edge)

    def rule(self, words: Sequence[object], *, edge: bool | Sequence[bool] = False,
             reveal: bool = False, lang: str | None = None
             ) -> tuple[dict[str, Any], dict[str, Any]]:
        """One ruling on a play, not yet logged, and the log entry :meth:`record` must
        write before the ruling may be given (:mod:`lexicon.verdicts.judge`)."""
        return judge.rule(self.profile, self.release, words,
                          edge=edge, reveal=reveal, lang=lang)

    def record(self, ruling: dict[str, Any], entry: dict[str, Any], *,
               deadline: float | None = None) -> dict[str, Any]:
        """Log a ruling in this home's rulings log and stamp it with its time; only then
        may it be given. RulingsUnavailable (LockHeld when ``deadline`` passed with the
        lock held) when the log cannot take it."""
        return judge.record(ruling, entry, self.root, deadline=deadline)

    def judge(self, words: Sequence[object], *, edge: bool | Sequence[bool] = False,
              reveal: bool = False, lang: str | None = None, log: bool = True
              ) -> dict[str, Any]:
        """Rule on a play as a word judge does: ``stands`` or ``falls``, saying which word
        failed only with ``reveal``; logged (unless ``log`` is false) before it is given.
        ``edge``: one flag for the play, or one a word (the words that touch the edge)."""
        return judge.judge(self.profile, self.release, words, root=self.root,
                           edge=edge, reveal=reveal, lang=lang, log=log)

    def move(self, before: object, after: object, rack: object, *, opening: bool = False,
             reopening: bool = False, variant: int = 1, history: object = None,
             own: object = None, reveal: bool = False, lang: str | None = None,
             log: bool = True) -> dict[str, Any]:
        """A ruling on a Remik table move by the rule book (:mod:`lexicon.verdicts.remik`): which
        table word became which new word, its legality, points and penalty. ``own``: the
        letters of a laid word that came from the shelf, when the referee saw it
        (``{"kot": "k"}``)."""
        return remik.rule_move(self.profile, self.release, before, after, rack,
                               root=self.root, opening=opening, reopening=reopening,
                               variant=variant, history=history, own=own, reveal=reveal,
                               lang=lang,
                               log=log)

    # -- queries (:mod:`lexicon.queries.queries`): counted and paged ------------------------------

    def blanks(self, word: str, *, edge: bool = False, sort: str = "alpha",
               limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Every admissible word ``word`` can be with its jokers (``?``) filled in."""
        return queries.blanks(self.profile, self.release, word,
                              edge=edge, sort=sort, limit=limit, offset=offset)

    def pattern(self, text: str, *, min_length: int | None = None,
                max_length: int | None = None, sort: str = "alpha",
                limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Words matching a pattern: ``?`` a tile, ``*`` a run, ``[abc]``, ``[^abc]``."""
        return queries.pattern(self.profile, self.release, text,
                               min_length=min_length, max_length=max_length, sort=sort,
                               limit=limit, offset=offset)

    def anagrams(self, rack: str, *, board: str = "", exact: bool = False,
                 min_length: int | None = None, max_length: int | None = None,
                 sort: str = "score", limit: int = DEFAULT_LIMIT, offset: int = 0
                 ) -> dict[str, Any]:
        """Anagrams and sub-anagrams of a rack (``?`` a joker) using every board letter."""
        return queries.anagrams(self.profile, self.release, rack,
                                board=board, exact=exact, min_length=min_length,
                                max_length=max_length, sort=sort, limit=limit,
                                offset=offset)

    def extend(self, word: str, rack: str, *, edge: bool = False, sort: str = "alpha",
               limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
        """Remik's rebuilds of a table word with at least one rack tile (none shorter than
        the game's minimum; ``edge``: Kvizovka's 3-tile words at the board's edge)."""
        return queries.extend(self.profile, self.release, word, rack, edge=edge,
                              sort=sort, limit=limit, offset=offset)

    def hooks(self, word: str) -> dict[str, Any]:
        """Front and back hooks of a word, whether it is a prefix, the tiles that follow."""
        return queries.hooks(self.profile, self.release, word)

    def prefix(self, text: str) -> dict[str, Any]:
        """Does a playable word start with ``text``, and which tiles may come next."""
        return queries.prefix(self.profile, self.release, text)

    # -- the maintainer's audit (:mod:`lexicon.audit`) -------------------------------

    def audit_draw(self, *, per_class: int = 20, seed: int = 0, words: Path | None = None,
                   exclude_labelled: bool = False, exclude: Sequence[str | Path] = (),
                   name: str | None = None) -> dict[str, Any]:
        """A seeded stratified sample of this release (or of the word list ``words``) by
        evidence class, written as a labelling sheet under ``audits/GAME/``; the words
        labelled in the sheets ``exclude`` (all the game's: ``exclude_labelled``) left
        out."""
        from lexicon.audit.draw import draw_sheet

        return draw_sheet(self.root, self.profile, self.release, per_class=per_class,
                          seed=seed, words=words, exclude_labelled=exclude_labelled,
                          exclude=exclude, name=name)

    def audit_score(self, sheets: Sequence[str | Path], *, population: Path | None = None,
                    doubtful: str = "out") -> dict[str, Any]:
        """Precision, missed share and recall of this release, by class and overall, with
        95% intervals, from the labels of ``sheets`` (weighted by the release's class
        sizes, or by those of the word list ``population``); a ``?`` label left ``out``
        or counted as ``half``."""
        from lexicon.audit import sheets as sheet_files
        from lexicon.audit.estimate import score

        read = self._audit_sheets(sheets)
        words = sheet_files.word_list(population) if population else None
        return score(self.profile, self.release, read, population=words,
                     list_name=population.name if population else "", doubtful=doubtful)

    def audit_compare(self, words: Path, *, samples: int = diffing.SAMPLES) -> dict[str, Any]:
        """This release against a reference list: each class's share in the list, the
        list's words by verdict and reason, with ``samples`` of each."""
        from lexicon.audit.compare import compare
        from lexicon.audit.sheets import word_list

        return compare(self.profile, self.release, word_list(words), list_name=words.name,
                       samples=samples)

    def audit_apply(self, sheet: str | Path, *, reviewer: str | None = None,
                    date: str | None = None, output: Path | None = None) -> dict[str, Any]:
        """The sheet's labels this release disagrees with, as an overrides file for
        ``lexicon amend`` (reason: the sheet, the reviewer, the date)."""
        from lexicon.audit.overrides import write

        return write(self.root, self.profile, self.release, self._audit_sheets([sheet])[0],
                     reviewer=reviewer, date=date, output=output)

    def _audit_sheets(self, names: Sequence[str | Path]) -> list[Sheet]:
        """The sheets named (paths or names under ``audits/``): of this game, or of the
        game whose vocabulary it plays (remik is scored with osps's sheets: labels belong
        to words), else ``bad_audit_sheet``."""
        from lexicon.audit.sheets import SheetError, load

        read = load(self.root, list(names))
        if read[0].game not in (self.game, self.profile.vocabulary):
            raise SheetError(f"the sheets are of {read[0].game}, not {self.game}",
                             detail={"game": read[0].game})
        return read

    # -- the whole list --------------------------------------------------------------------

    def offline_pack(self, *, make: bool = True) -> offline.Pack | None:
        """The referee page's offline pack of this release (:mod:`lexicon.export.offline`):
        its rules as JSON and its words as two DAWG-only KWGs, made once per release,
        waiting for it (``make=False``: None unless this process holds it already; that
        asks no lock, no disk and no maker)."""
        return offline.pack(self.profile, self.release, self.root, make=make)

    def offline_pack_job(self) -> Future[offline.Pack]:
        """:meth:`offline_pack` as a future, never waited for here: done at once when this
        process holds the pack, else the one job that reads the kept pack (checked against
        its sha256) or has a child process make it. What an event loop asks."""
        return offline.job(self.profile, self.release, self.root)

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
        old_id = diffing.previous_id(self.root, self.release, old)
        if self._opener is None:
            raise ValueError("a Lexicon made without an opener cannot open another release")
        before = self._opener(old_id).release
        if summary:
            return diffing.summary(self.profile, before, self.release, samples=samples)
        return diffing.diff_releases(self.profile, before, self.release)
