"""Rulings on whole plays: the word judge (``POST /v1/games/{game}/judge``) and Remik's
move (``POST /v1/games/remik/move``)."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from fastapi.responses import Response
from lexicon.service import byid
from lexicon.service.apidocs import figure
from lexicon.service.routes.declare import Routes
from lexicon.service.routes.params import LANG_HELP, RELEASE_HELP, CatalogOf, PoolOf
from pydantic import BaseModel, Field

from lexicon import LOCK_TIMEOUT, LockHeld

routes = Routes(tags=["check"])


class JudgeRequest(BaseModel):
    # Items are not typed ``str`` here: a validation error would name the bad item's index,
    # telling the challenger which word is in doubt. lexicon.verdicts.judge refuses bad items with
    # one error for the whole play.
    words: list[Any] = Field(..., description="every word the play forms (at most "
                                              f"{figure('judge.MAX_PLAY_WORDS')})",
                             examples=[["zażółć", "gęślą"]])
    # a list is checked by the library (``bad_play``), like the words
    edge: bool | list[Any] = Field(False, description=(
        "Kvizovka's board-edge rule: `true` when every word of the play touches the edge, "
        "or one flag a word, in the order of `words` (`[false, true]`: only the second "
        "word touches it)"), examples=[[False, True]])
    reveal: bool = Field(False, description="give each word's verdict (settling a dispute)")
    lang: str | None = Field(None, description=LANG_HELP)
    release: str | None = Field(None, description=RELEASE_HELP)


#: The threads that write rulings: apart from the server's pool, so rulings waiting for a
#: stuck log lock can hold up neither the event loop nor the sync endpoints (``/healthz``).
_RULINGS_WRITERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="rulings")


@routes.post("/v1/games/{game}/judge", description=(
    "One ruling for a whole play, as a word judge gives it: `verdict` is `stands` when "
    "every word is valid and `falls` otherwise, with the release and the number of "
    "words, and nothing that says which word failed (the words are not echoed; an "
    "unreadable word is an error of the whole request that names no word). With "
    "`reveal` each word's full verdict is in `results`. Every ruling is logged "
    "(`lexicon rulings`) before it is given: when the log cannot take it the answer is "
    "503 `rulings_unavailable` and no verdict is given."),
    responses={200: {"content": {"application/json": {"example": {
        "game": "osps", "release": "osps-…", "verdict": "falls", "valid": False,
        "count": 2, "time": "2026-12-01T05:00:00.000Z"}}}}}, response_model=None)
async def judge_play(game: str, req: JudgeRequest, catalog: CatalogOf) -> Response:
    # async, like the single-word lookup: the verdict is a few lookups on the loop, and
    # so is the log line while its lock is free (a thread hop would cost more than the
    # whole ruling); a lock held by another writer is waited for by a rulings thread, by
    # a deadline counted from now, never on the loop
    deadline = time.monotonic() + LOCK_TIMEOUT
    lex = await byid.taken(req.release, partial(   # judges, labels the ruling
        catalog.lexicon, game, req.release, every_file=True))
    ruling, entry = lex.rule(req.words, edge=req.edge, reveal=req.reveal, lang=req.lang)
    try:   # the lock is free in the common case: one non-blocking try on the loop
        lex.record(ruling, entry, deadline=0.0)
    except LockHeld:   # held by another writer: wait for it off the loop
        await asyncio.get_running_loop().run_in_executor(
            _RULINGS_WRITERS, partial(lex.record, ruling, entry, deadline=deadline))
    return Response(json.dumps(ruling, ensure_ascii=False, separators=(",", ":")),
                    media_type="application/json")


_MOVE_WORDS = figure("remik.MAX_MOVE_WORDS")


class MoveRequest(BaseModel):
    # Word items are not typed ``str``, as in JudgeRequest: lexicon.verdicts.remik refuses a
    # bad item with one error (``bad_move``) rather than a validation error pointing at it.
    before: list[Any] = Field([], description="the table's words before the move "
                                              f"(at most {_MOVE_WORDS})",
                              examples=[["kotek", "dom"]])
    after: list[Any] = Field(..., description="the table's words after the move "
                                             f"(at most {_MOVE_WORDS})",
                             examples=[["koty", "dom"]])
    rack: str = Field("", description="the letters on the player's shelf before the move",
                      examples=["ya"])
    opening: bool = Field(False, description="the player's opening: one word of at least 5 "
                                             "letters from own tiles")
    reopening: bool = Field(False, description="a re-opening after laying out every tile: "
                                               "one word of at least 4 letters, own tiles")
    variant: int = Field(1, description="rule-book variant: 1 (leftover letters go back to "
                                        "the shelf, 2 penalty points each) or 2 (none allowed)")
    history: list[Any] = Field([], description="earlier tables of the game (lists of words); "
                                               "the move may not repeat one")
    own: dict[str, Any] | None = Field(
        None, description="the letters of a laid word that came from the player's shelf, as "
                          "the referee saw it (`{\"kot\": \"k\"}`; `\"\"` for none); words not "
                          "named are read as the ruling finds best (`reading` says which)",
        examples=[{"kot": "kot"}])
    reveal: bool = Field(False, description="give each word's verdict (settling a dispute)")
    lang: str | None = Field(None, description=LANG_HELP)
    release: str | None = Field(None, description=RELEASE_HELP)


@routes.post("/v1/games/remik/move", description=(
    "A ruling on a Remik move by the rule book: which table word became which new word "
    "(`words[].kind`: `kept`, `remnant`, `new`, `rebuilt`, with `from` and `own`), "
    "whether the move's form is legal (`form_legal`, with `reasons`: `tiles_not_conserved` "
    "when no assignment exists, `table_tile_not_relaid`, `no_own_letter_added`, "
    "`too_short`, `opening_too_short`, `opening_not_own_tiles`, `opening_one_word`, "
    "`leftover_letters` (variant II), `nothing_laid`, `repeated_arrangement`), whether "
    "its words are correct (`words_valid`, the judge's verdict; a wrong word is named "
    "only with `reveal`: `wrong_word`), the `points`, the `penalty` (2 a letter sent "
    "back to the shelf in variant I, `to_shelf`; 3 for a wrong word) and the `outcome`. "
    "A group of table tiles only that is no word is a leftover (`words[].kind` "
    "`leftover`), never a wrong word. `valid` (and `verdict`) say whether the move "
    "stands; `reading` says whether the letters from the shelf are the referee's "
    "(`own`: `own_said`) or the ruling's reading (`own_assumed`). The search is bounded "
    "(`move_too_complex`) and runs on the queries' workers (503 `busy` when they are all "
    "taken)."),
    responses={200: {"content": {"application/json": {"example": {
        "game": "remik", "release": "osps-…", "kind": "move", "variant": 1,
        "form_legal": True, "words_valid": True, "valid": True, "verdict": "stands",
        "reasons": [], "reading": {"code": "own_assumed", "message": "…"},
        "words": [{"word": "koty", "kind": "rebuilt", "from": [
            {"word": "kotek", "letters": ["K", "O", "T"]}], "own": ["Y"], "points": 4}],
        "to_shelf": ["E", "K"], "points": 4, "penalty": 4, "total": 0}}}}})
async def remik_move(req: MoveRequest, catalog: CatalogOf, pool: PoolOf) -> dict[str, Any]:
    """Remik's table: a ruling on a whole move (``Lexicon.move``)."""
    def run() -> dict[str, Any]:
        lex = catalog.lexicon("remik", req.release, every_file=True)  # the whole move
        return lex.move(req.before, req.after, req.rack, opening=req.opening,
                        reopening=req.reopening, variant=req.variant,
                        history=req.history, own=req.own, reveal=req.reveal,
                        lang=req.lang)
    # a move's search is bounded work (about a second at most) in pure Python: it runs
    # on the queries' own workers, never in the shared pool beside /healthz and lookups
    return await pool.run(run)
