"""One ruling for a whole play, the way a challenge is settled at the table.

Every rule book here rules on the move, not on a word: in Polish Scrabble a challenged move
stands or falls as one, and Kvizovka and Križemkražem count every word the move forms. The
field's word judges (Zyzzyva's) show one verdict and never which word failed, so that a
challenge cannot teach the challenger anything. This module keeps that promise:

* every word is checked (no early exit), against one release for the whole play;
* the answer without ``reveal`` carries the verdict, the release and the number of words,
  nothing per word, and not the words themselves;
* a word that cannot be read at all is a usage error of the *whole* request: its error names
  the kind of problem but neither the word, its position nor its length;
* with ``reveal`` (a referee settling a dispute) each word's full verdict is given;
* every ruling is appended to the day's log (:mod:`lexicon.verdicts.rulings`) before it is given;
  a ruling that cannot be logged is not given (``rulings_unavailable``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lexicon.errors import InputError
from lexicon.game.gloss import language
from lexicon.game.inputs import clean_word
from lexicon.game.profile import Profile
from lexicon.store.release import Release
from lexicon.verdicts import rulings
from lexicon.verdicts.checker import check_many, edges

MAX_PLAY_WORDS = 32   # a move forms one main word plus at most one cross word per tile

STANDS = "stands"
FALLS = "falls"


def _read_play(words: object) -> list[str]:
    """The words of the play, or an InputError that does not point at any one of them."""
    if not isinstance(words, (list, tuple)):
        raise InputError("the play must be a list of words", code="bad_play")
    if not words:
        raise InputError("the play has no words", code="empty_play")
    if len(words) > MAX_PLAY_WORDS:
        raise InputError(f"{len(words)} words; a play has at most {MAX_PLAY_WORDS}",
                         code="play_too_large", detail={"max_words": MAX_PLAY_WORDS})
    codes = set()
    for w in words:
        if not isinstance(w, str):
            codes.add("bad_play")
            continue
        try:
            clean_word(w)
        except InputError as exc:
            codes.add(exc.code)
    _refuse(codes)
    return list(words)


def _refuse(codes: set[str]) -> None:
    """One error for the whole request when some word cannot be read: the alphabetically
    first code, so it does not depend on which word came first, and a message naming none."""
    if codes:
        code = sorted(codes)[0]
        raise InputError(f"a word of the play cannot be read ({code}); correct it and ask "
                         f"again: nothing was ruled", code=code)


def judge(profile: Profile, rel: Release, words: Sequence[object], *, root: Path,
          edge: bool | Sequence[bool] = False, reveal: bool = False, lang: str | None = None,
          log: bool = True) -> dict[str, Any]:
    """Rule on a play: ``verdict`` is ``stands`` when every word is valid, else ``falls``.

    ``rel`` may be an older published release ("valid as of edition X"); the log (in
    ``root``'s rulings log) and the answer name the release that ruled. Raises InputError
    before anything is ruled or logged, and RulingsUnavailable (503) instead of a ruling
    that cannot be logged.
    """
    answer, entry = rule(profile, rel, words, edge=edge, reveal=reveal, lang=lang)
    if log:
        record(answer, entry, root)
    return answer


def rule(profile: Profile, rel: Release, words: Sequence[object], *,
         edge: bool | Sequence[bool] = False, reveal: bool = False, lang: str | None = None
         ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ruling, not yet logged, and the log entry :func:`record` must write before the
    ruling may be given (the service writes it off its event loop)."""
    game = profile.id
    language(profile.language, lang)     # a bad language is refused first
    play = _read_play(words)
    at_edge = edges(edge, len(play))      # one flag a word: the edge is a word's, not a play's
    results = check_many(profile, rel, play, edge=at_edge, lang=lang)
    # a word clean_word accepts may still not be read as tiles ("[q]", "ko[t")
    _refuse({r["error"]["code"] for r in results if "error" in r})
    release = results[0]["release"]
    stands = all(r["valid"] for r in results)
    verdict = STANDS if stands else FALLS
    answer: dict[str, Any] = {"game": game, "release": release, "verdict": verdict,
                              "valid": stands, "count": len(play)}
    if reveal:
        answer["results"] = results
    entry = {"game": game, "release": release, "words": play,
             "edge": edge if isinstance(edge, bool) else at_edge,
             "verdict": verdict, "revealed": reveal}
    return answer, entry


def record(answer: dict[str, Any], entry: dict[str, Any], root: Path | None = None, *,
           deadline: float | None = None) -> dict[str, Any]:
    """Log ``entry`` and stamp ``answer`` with its time: only then may the ruling be given.
    RulingsUnavailable when the log cannot take it (see :mod:`lexicon.verdicts.rulings`)."""
    line = rulings.append(entry, root=root, deadline=deadline)
    results = answer.pop("results", None)
    answer["time"] = line["time"]
    if results is not None:     # the per-word verdicts stay the answer's last key
        answer["results"] = results
    return answer
