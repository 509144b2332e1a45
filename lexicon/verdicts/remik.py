"""Remik słowny: one ruling on a whole move, by the rule book (seed 004).

In Remik the words lie on the table and are rebuilt move after move, so a challenge is about
the move, not a word. The players say what lay on the table before the move, what lies there
after it and what the player had on the shelf; they do not say which table word became which
new word. This module finds that out and applies the rule book:

* **opening** ("otwarcie"): one word of at least 5 letters, only from the player's own tiles;
  it scores its letters, doubled when it holds Ż, Ź or Ó;
* **re-opening** after the player laid out every tile and drew 8 ("powtórnie dokonać
  otwarcia"): one new word of at least 4 letters, only from own tiles. The rule book calls
  it an opening again, so its word is an opening word and doubles the same way;
* **a normal move**: new words of at least 3 letters (from own tiles), and table words
  rebuilt by adding at least one own letter; every tile taken from the table is laid again
  in the same move; every rebuilt word has at least 3 letters;
* **leftovers**: a table word broken by a rebuild may leave pieces on the table. A piece
  that is a word and is still listed after the move is a *remnant* (it lies where it lay:
  its letters are a run of the old word, and it needs no own letter). A group after the
  move made only of table tiles that is no word of the game (too short for one, or not a
  correct word) is a *leftover* ("zbitki liter nie stanowiące poprawnych wyrazów"), whether
  the players left it out of the table after the move or typed it as it lies: the player
  laid no tile of it, so it is never a wrong word the player laid. Leftovers go back to the
  player's shelf: variant I at 2 penalty points a letter, variant II refuses them
  (``leftover_letters``). Which tiles of a group came from the shelf and which from the
  table is what the search finds (below); a group that could be either is read as table
  tiles, which lays fewer own letters. Letters broken off a table word stay on the table
  ("zostaną graczowi na stole"): a table word is broken when a run of it still lies there
  or it gave a tile to a laid word, and its other letters are leftovers whether the
  players typed them or not, so the ruling depends on the tiles, not on the typing. Only a
  table word none of whose tiles lies anywhere after the move was taken away and not laid
  again ("zabranych ze stołu", ``table_tile_not_relaid``);
* **the reading of the tiles**: which letters of a laid word came from the shelf is the
  search's best reading unless the referee says it (``own``), and the answer's ``reading``
  says which it was;
* **arrangements** used earlier in the game may not be repeated: a table after the move
  equal (as a multiset of words) to one in the history is refused;
* **a wrong word**: the table is restored, the player draws one tile and loses 3 points.
  Word validity is the judge's (:mod:`lexicon.verdicts.judge`): one release for the whole
  move, and which word failed is named only with ``reveal``. A word refused only for its
  length is not a wrong word: the length rules ("co najmniej trzech liter", an opening's
  five, a re-opening's four) are rules of form, and a 2-letter word is taken back without
  points exactly like a 4-letter opening (see the penalty paragraph below).

The assignment of table tiles to new words is a small search (:func:`_search`): identical
words before and after are kept; each remaining word after the move is a remnant of some
table word or is formed; each formed word is new or rebuilt with one named letter from the
shelf, and the rest is counting: the table gives every letter it can, and which table word
gave which tile is a matching (:func:`_lay`). The best assignment has the fewest rule
faults, then the fewest leftovers, then the fewest own letters (tests/verdicts/test_remik.py checks
this against a brute force over every tile), then, as a preference, few pieces (a word
drawing on two table words is two pieces). Whether one exists at all is a count
per letter: when some letter is needed more often than the table and the shelf hold it,
"no assignment exists" (``tiles_not_conserved``). Whether each word after the move is a
correct word is read once, before the search, since it decides which groups of table tiles
are leftovers. The search is bounded by ``MAX_MOVE_STEPS`` units of work, each step charged
for the letters it handles, so a move of 32 words of 64 letters is refused
(``move_too_complex``) as soon as a small one would be.

A move the rule book forbids for its form (not for a word) is taken back: the tiles return
as they lay and the player draws one tile from the bank, as when the time runs out during a
rebuild ("ułożyć kostki tak, jak leżały przed jego ruchem i wziąć z banku jedną kostkę").
The rule book sets penalty points only for a wrong word (3) and for leftovers (2 a letter),
so the ruling gives none for a breach of form. Length is such a rule: the rule book states
the 3-letter minimum beside "poprawnie zbudowany" (how a word is built), and the opening's
five letters the same way; the 3 penalty points belong to "niewłaściwy wyraz", a word the
dictionary does not have, which is what a challenge asks. So a word too short for the move
and an opening too short are taken back alike; a word that is also not in the dictionary
(a 4-letter opening ``tkot``) is still a wrong word.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from lexicon import userfile
from lexicon.errors import InputError, LexiconError
from lexicon.game.gloss import language, localized_reason
from lexicon.game.inputs import clean_word, control_error, first_control, normalise
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import Speller, speller
from lexicon.store.release import Release
from lexicon.verdicts import judge as judging
from lexicon.verdicts import rulings
from lexicon.verdicts.validity import LENGTH_CODES, TOO_SHORT

MAX_MOVE_WORDS = 32       # words on the table before, or after, one move
MAX_MOVE_RACK = 60        # tiles on a player's shelves (13, and every draw since)
MAX_HISTORY = 2000        # earlier arrangements a repeated-arrangement check compares with
#: a history file's bytes (8 MiB): room for MAX_HISTORY tables of MAX_MOVE_WORDS words,
#: each of MAX_WORD_CHARS letters of up to 2 UTF-8 bytes and a separator
MAX_HISTORY_BYTES = 8_388_608
# Work units the search finding which table word became which new word may spend. A unit is
# one letter (or tile) a step of the search handles: each step is charged what it touches
# (laying out one choice of 32 words of 64 letters is ~2,000 units, not one), so the bound
# holds whatever the move's size. Measured 0.24-0.28 us of CPU a unit over every shape of
# move tried (long shuffled words, many short remnants, openings): half a second of CPU at
# most, 1-2 s of wall time when the 2 cores are shared by 9 busy processes. Counted, not
# timed: a move is refused alike on any machine, under any load.
MAX_MOVE_STEPS = 2_000_000

LEFTOVER_PENALTY = 2      # points per letter sent back to the shelf (variant I)
WRONG_WORD_PENALTY = 3    # points lost for a wrong word (and one tile drawn)
VARIANTS = (1, 2)
VARIANT_WITHOUT_LEFTOVERS = 2   # the rule book's variant II
OPENING, REOPENING, MOVE = "opening", "reopening", "move"
LEFTOVER = "leftover"     # a group of table tiles only that is no word (a placement's kind)
NAMES = {OPENING: "an opening", REOPENING: "a re-opening", MOVE: "a move"}

#: each fault by its role in the ruling -> its stable code; in the order reasons are listed
#: (stable, whatever order the faults were found in)
FAULT_CODES = {"no_assignment": "tiles_not_conserved", "not_relaid": "table_tile_not_relaid",
               "opening_own": "opening_not_own_tiles", "opening_one": "opening_one_word",
               "opening_short": "opening_too_short", "short": TOO_SHORT,
               "no_own": "no_own_letter_added", "leftovers": "leftover_letters",
               "nothing": "nothing_laid", "repeated": "repeated_arrangement",
               "wrong": "wrong_word"}
FAULTS = tuple(FAULT_CODES.values())


#: the kinds of group a placement names (the answer's ``words[].kind``)
PLACEMENT_KINDS = ("kept", "remnant", "new", "rebuilt", LEFTOVER)
OUTCOMES = {"stands": "move_stands", "wrong_word": "move_wrong_word",
            "taken_back": "move_taken_back"}
READINGS = {"said": "own_said", "assumed": "own_assumed"}


def offline_rules(profile: Profile) -> dict[str, Any]:
    """This module's rules as data, for the offline pack (``move`` in its rules): every
    limit, penalty and code the browser's move search (``service/static/remik-offline.js``)
    needs, so that it holds no rule of its own. The texts of the codes are the pack's
    ``reasons``, a word's points (the opening's doubling too) the pack's ``play`` scores."""
    return {
        "min_length": profile.min_length,
        "lengths": {OPENING: profile.opening_min_length,
                    REOPENING: profile.reopening_min_length or profile.opening_min_length},
        "kinds": [OPENING, REOPENING, MOVE], "move": MOVE,
        "variants": list(VARIANTS), "variant_without_leftovers": VARIANT_WITHOUT_LEFTOVERS,
        "leftover_penalty": LEFTOVER_PENALTY, "wrong_word_penalty": WRONG_WORD_PENALTY,
        "faults": FAULT_CODES, "length_codes": list(LENGTH_CODES),
        "placements": dict(zip(("kept", "remnant", "new", "rebuilt", "leftover"),
                               PLACEMENT_KINDS, strict=True)),
        "outcomes": OUTCOMES, "readings": READINGS,
        "verdicts": {"stands": judging.STANDS, "falls": judging.FALLS},
        "limits": {"max_steps": MAX_MOVE_STEPS, "max_words": MAX_MOVE_WORDS,
                   "max_rack": MAX_MOVE_RACK, "max_history": MAX_HISTORY},
    }


class MoveTooComplex(LexiconError):
    """The assignment search would need more than ``MAX_MOVE_STEPS`` steps."""

    code = "move_too_complex"
    status = 422


# -- reading the move ----------------------------------------------------------------------

@dataclass(frozen=True)
class Word:
    text: str      # as cleaned (lower case)
    key: str       # canonical tiles, one code point each


def _words(profile: Profile, value: object, what: str) -> list[Word]:
    if value is None:
        return []
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)) or not all(isinstance(w, str) for w in value):
        raise InputError(f"the table {what} the move must be a list of words",
                         code="bad_move")
    if len(value) > MAX_MOVE_WORDS:
        raise InputError(f"{len(value)} words on the table {what} the move; at most "
                         f"{MAX_MOVE_WORDS}", code="move_too_large",
                         detail={"max_words": MAX_MOVE_WORDS})
    spell = speller(profile)
    out = []
    for w in value:
        text = clean_word(w)
        out.append(Word(text, spell.first(text).key))
    return out


def _rack(profile: Profile, text: object) -> Counter[str]:
    """The shelf's tiles; spaces and commas may separate them; Remik has no jokers."""
    if text is None:
        return Counter()
    if not isinstance(text, str):
        raise InputError("the rack must be text (its letters)", code="bad_rack")
    letters = "".join(normalise(text).lower().replace(",", " ").split())
    if (bad := first_control(letters)) is not None:   # NUL, U+200B: not a mistyped tile
        raise control_error(letters, bad, " of the rack")
    if len(letters) > MAX_MOVE_RACK:
        raise InputError(f"the rack has {len(letters)} letters; at most {MAX_MOVE_RACK}",
                         code="move_too_large", detail={"max_rack": MAX_MOVE_RACK})
    spell = speller(profile)
    for i, ch in enumerate(letters):
        if spell.tile(ch) is None:
            raise InputError(f"{ch!r} (position {i + 1} of the rack) is not a tile of "
                             f"{profile.name}", code="bad_rack", detail={"position": i + 1})
    return Counter(spell.first(letters).key) if letters else Counter()


def _history(profile: Profile, value: object) -> list[Counter[str]]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise InputError("the history must be a list of earlier tables (lists of words)",
                         code="bad_move")
    if len(value) > MAX_HISTORY:
        raise InputError(f"{len(value)} earlier arrangements; at most {MAX_HISTORY}",
                         code="move_too_large", detail={"max_history": MAX_HISTORY})
    for n, table in enumerate(value, 1):
        if table is None:     # never an empty table: that is [] (an unfilled slot, a bug)
            raise InputError(f"earlier arrangement {n} of the history is null; an empty "
                             f"table is [], each earlier table a list of words",
                             code="bad_move", detail={"history_item": n})
    return [Counter(w.key for w in _words(profile, table, "in the history of"))
            for table in value]


def read_history(text: str) -> list[list[str]]:
    """A history file: one earlier table a line, its words separated by spaces or commas;
    blank lines and lines starting with ``#`` are skipped. A line ends at ``\n`` or
    ``\r\n`` only, as every file the CLI reads (:mod:`lexicon.userfile`): a U+2028 or a
    form feed inside a line is white space between words, never a table of its own."""
    return [line.replace(",", " ").split() for line in text.split("\n")
            if line.strip() and not line.lstrip().startswith("#")]


def read_history_file(source: str | Path | BinaryIO) -> list[list[str]]:
    """:func:`read_history` of a file (or stdin) read at most ``MAX_HISTORY_BYTES`` bytes:
    a bigger one (``/dev/zero``) is ``move_too_large`` before it fills memory; one that
    cannot be read, or is not UTF-8, is ``bad_move``."""
    name = source if isinstance(source, (str, Path)) else "stdin"
    try:
        raw = userfile.read_bounded(source, MAX_HISTORY_BYTES)
    except userfile.TooLarge:
        raise InputError(f"the history file {name} holds more than {MAX_HISTORY_BYTES:,} "
                         f"bytes ({MAX_HISTORY} tables of {MAX_MOVE_WORDS} words at most)",
                         code="move_too_large",
                         detail={"max_bytes": MAX_HISTORY_BYTES}) from None
    except OSError as exc:
        raise InputError(f"cannot read the history file {name}: {exc.strerror or exc}",
                         code="bad_move") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the history file {name} is not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start})", code="bad_move") from None
    return read_history(text)


# -- the assignment ------------------------------------------------------------------------

@dataclass
class Placement:
    """Where one word after the move came from."""

    after: int                                   # index in the after-table
    kind: str                                    # kept | remnant | new | rebuilt | leftover
    taken: dict[int, Counter[str]] = field(default_factory=dict)  # before index -> letters
    own: Counter[str] = field(default_factory=Counter)


@dataclass
class Assignment:
    placements: list[Placement]
    leftovers: dict[int, Counter[str]]           # before index -> letters back to the shelf
    not_relaid: dict[int, Counter[str]]          # before index -> letters taken, not relaid
    faults: dict[str, list[str]]                 # code -> details (English)
    cost: tuple[int, int, int, int]


@dataclass
class _Search:
    before: list[Word]
    after: list[Word]
    rack: Counter[str]
    kind: str
    variant: int
    min_length: int
    opening_length: int
    steps: int = 0
    letters: dict[int, dict[str, int]] = field(default_factory=dict)   # after word -> counts
    #: after word -> is it a correct word of the game (the judge's verdict, read before the
    #: search): a group of table tiles only that is none is a leftover (unknown: a word)
    valid: dict[int, bool] = field(default_factory=dict)
    #: after word -> the letters the referee said it took from the shelf (only that reading)
    own_said: dict[int, Counter[str]] = field(default_factory=dict)
    least: tuple[int, int, int, int] = (0, 0, 0, 0)
    best: Assignment | None = None

    def step(self, cost: int = 1) -> None:
        """Charge ``cost`` units of work (letters or tiles handled); past the bound the move
        is refused, before the work is done."""
        self.steps += cost
        if self.steps > MAX_MOVE_STEPS:
            raise MoveTooComplex(f"finding which table word became which new word needs "
                                 f"more than {MAX_MOVE_STEPS:,} units of work; rule on "
                                 f"fewer words at a time", detail={"max_steps": MAX_MOVE_STEPS})


def _kept(before: list[Word], after: list[Word]) -> tuple[dict[int, int], list[int], list[int]]:
    """Identical words before and after are the same word left in place: after -> before."""
    free: dict[str, list[int]] = {}
    for i, w in enumerate(before):
        free.setdefault(w.key, []).append(i)
    kept: dict[int, int] = {}
    for j, w in enumerate(after):
        if free.get(w.key):
            kept[j] = free[w.key].pop(0)
    rest_b = [i for i in range(len(before)) if i not in kept.values()]
    rest_a = [j for j in range(len(after)) if j not in kept]
    return kept, rest_b, rest_a


def _remnant_choices(s: _Search, rest_b: list[int], rest_a: list[int]
                     ) -> Iterator[dict[int, tuple[int, int]]]:
    """Every way of reading some after-words as remnants: after -> (before, start), one at
    a time (a move with many short words has millions, never all held at once). The reading
    with no remnant comes first."""
    s.step(len(rest_a) * sum(len(s.before[i].key) for i in rest_b))
    options = {j: [(i, k) for i in rest_b
                   for k in range(len(s.before[i].key) - len(s.after[j].key) + 1)
                   if len(s.after[j].key) < len(s.before[i].key)
                   and s.before[i].key.startswith(s.after[j].key, k)
                   and not s.own_said.get(j)]     # a word said to hold own letters
               for j in rest_a}
    spans: dict[int, list[tuple[int, int]]] = {}

    def choose(n: int, chosen: dict[int, tuple[int, int]]
               ) -> Iterator[dict[int, tuple[int, int]]]:
        if n == len(rest_a):
            s.step(1 + len(chosen))
            yield dict(chosen)
            return
        j = rest_a[n]
        s.step()
        yield from choose(n + 1, chosen)
        width = len(s.after[j].key)
        for i, k in options[j]:
            held = spans.setdefault(i, [])
            s.step(2 + len(held))
            if any(k < e and b < k + width for b, e in held):
                continue
            held.append((k, k + width))
            chosen[j] = (i, k)
            yield from choose(n + 1, chosen)
            del chosen[j]
            held.pop()

    yield from choose(0, {})


def _missing(s: _Search, rest_b: list[int], formed: list[int]) -> Counter[str]:
    """Letters the formed words need beyond what the table words and the shelf hold."""
    need = Counter("".join(s.after[j].key for j in formed))
    have = Counter("".join(s.before[i].key for i in rest_b)) + s.rack
    return need - have


def _search(s: _Search) -> Assignment | None:
    kept, rest_b, rest_a = _kept(s.before, s.after)
    s.letters = {j: dict(Counter(s.after[j].key)) for j in rest_a}
    if _missing(s, rest_b, rest_a):
        return None                                   # no assignment exists
    # a lower bound of the cost: no fault, no leftover, only the own letters the table
    # cannot give (remnants take the same letters from both sides, so it holds for them
    # too), and one piece for each table word (each gives a tile, or it is a fault)
    need = Counter("".join(s.after[j].key for j in rest_a))
    have = Counter("".join(s.before[i].key for i in rest_b))
    s.least = (0, 0, sum((need - have).values()), len(rest_b))
    for remnants in _remnant_choices(s, rest_b, rest_a):
        if _spread(s, kept, rest_b, rest_a, remnants):
            break
    return s.best


def _spread(s: _Search, kept: dict[int, int], rest_b: list[int], rest_a: list[int],
            remnants: dict[int, tuple[int, int]]) -> bool:
    """Try every way of forming the remaining words: each is new (all own letters) or
    rebuilt, with one of its letters named to come from the shelf (or none: a rebuild that
    adds nothing, which the rules refuse but a ruling must be able to find). Given those
    choices, taking as many tiles from the table as fit is always best (fewer own letters,
    fewer leftovers), so the rest is counting (:func:`_lay`). True: nothing can be better."""
    formed = [j for j in rest_a if j not in remnants]
    s.step(sum(len(s.before[i].key) for i in rest_b)
           + 2 * sum(len(s.after[j].key) for j in formed))
    avail: dict[int, Counter[str]] = {}
    for i in rest_b:
        key = s.before[i].key
        covered = {k + d for j, (b, k) in remnants.items() if b == i
                   for d in range(len(s.after[j].key))}
        avail[i] = Counter(c for n, c in enumerate(key) if n not in covered)
    on_table: Counter[str] = Counter()
    for c in avail.values():
        on_table += c
    if Counter("".join(s.after[j].key for j in formed)) - (on_table + s.rack):
        return False
    options: list[list[tuple[bool, str | None]]] = []
    for j in formed:
        letters = sorted(set(s.after[j].key))
        choice: list[tuple[bool, str | None]] = []
        if j in s.own_said:       # the referee said it: new, or rebuilt with those letters
            said = "".join(sorted(s.own_said[j].elements()))
            options.append([(False, None)] if len(said) == len(s.after[j].key)
                           else [(True, said or None)])
            continue
        if any(on_table[c] for c in letters):
            choice += [(True, c) for c in letters if s.rack[c]]
        choice.append((False, None))
        if any(on_table[c] for c in letters):
            choice.append((True, None))
        options.append(choice)
    chosen: list[tuple[bool, str | None]] = []
    gives_for: dict[tuple, dict] = {}
    forced: Counter[str] = Counter()         # letters the choices so far take from the shelf

    def choose(n: int) -> bool:
        s.step()
        if n == len(formed):
            return _lay(s, kept, rest_b, remnants, avail, on_table, formed, chosen, gives_for)
        word = s.after[formed[n]].key
        for option in options[n]:
            rebuilt, named = option
            own = word if not rebuilt else named or ""
            s.step(1 + len(own))
            forced.update(own)
            if all(forced[c] <= s.rack[c] for c in own):
                chosen.append(option)
                done = choose(n + 1)
                chosen.pop()
            else:
                done = False
            forced.subtract(own)
            if done:
                return True
        return False

    return choose(0)


def _lay(s: _Search, kept: dict[int, int], rest_b: list[int],
         remnants: dict[int, tuple[int, int]], avail: dict[int, Counter[str]],
         on_table: Counter[str], formed: list[int],
         chosen: list[tuple[bool, str | None]], gives_for: dict[tuple, dict]) -> bool:
    """Lay the formed words as ``chosen`` says: the table gives every letter it can, the
    shelf the rest; then which table word gave which tile (``gives_for`` keeps that per
    letter totals: many choices take the same totals from the table)."""
    # every pass below walks each formed word's letters: about 8 passes in all
    s.step(8 * sum(len(s.letters[j]) for j in formed) + len(on_table))
    room: dict[int, dict[str, int]] = {}
    for j, (rebuilt, named) in zip(formed, chosen, strict=True):
        r = dict(s.letters[j]) if rebuilt else {}
        for c in named or "":        # one named letter, or the letters the referee said
            r[c] -= 1
        room[j] = r
    capacity: dict[str, int] = {}
    for r in room.values():
        for c, n in r.items():
            capacity[c] = capacity.get(c, 0) + n
    table = {c: m for c, n in capacity.items() if (m := min(on_table[c], n)) > 0}
    need: dict[str, int] = {}
    for j in formed:
        for c, n in s.letters[j].items():
            need[c] = need.get(c, 0) + n
    if any(n - table.get(c, 0) > s.rack[c] for c, n in need.items()):
        return False                                   # the shelf cannot give the rest
    key = tuple(sorted(table.items()))
    gives = gives_for.get(key)
    if gives is None:
        gives = gives_for[key] = _gives(s, rest_b, avail, table)
    # words: first one table tile to each rebuilt word, then as many as fit
    parts: dict[int, dict[str, int]] = {j: {} for j in formed}
    left = dict(table)
    for j in formed:
        c = next((c for c in sorted(room[j]) if room[j][c] and left.get(c)), None)
        if c is not None:
            parts[j][c] = 1
            left[c] -= 1
    for j in formed:
        for c in sorted(room[j]):
            g = min(left.get(c, 0), room[j][c] - parts[j].get(c, 0))
            if g > 0:
                parts[j][c] = parts[j].get(c, 0) + g
                left[c] -= g
    own = {j: {c: n - parts[j].get(c, 0) for c, n in s.letters[j].items()
               if n > parts[j].get(c, 0)} for j in formed}
    return _leaf(s, kept, rest_b, remnants, avail, gives, parts, own)


def _gives(s: _Search, rest_b: list[int], avail: dict[int, Counter[str]],
           table: dict[str, int]) -> dict[int, Counter[str]]:
    """How many tiles of each letter each table word gives, ``table`` in all. Each table
    word should give one (else it was taken and not laid again); the table words that can
    give one form a matroid, so taking them smallest first leaves the fewest letters over
    (a matching by augmenting paths, a letter holding as many as the table gives)."""
    holders: dict[str, list[int]] = {c: [] for c in table}

    def augment(i: int, seen: set[str]) -> bool:
        s.step(len(avail[i]))
        for c in avail[i]:
            if c in holders and c not in seen:
                seen.add(c)
                if len(holders[c]) < table[c]:
                    holders[c].append(i)
                    return True
                s.step(len(holders[c]))
                for n, h in enumerate(holders[c]):
                    if augment(h, seen):
                        holders[c][n] = i
                        return True
        return False

    for i in sorted(rest_b, key=lambda i: (sum(avail[i].values()), i)):
        augment(i, set())
    gives = {i: Counter() for i in rest_b}
    for c, held in holders.items():
        for i in held:
            gives[i][c] += 1
    s.step(2 * len(table) * len(rest_b))
    for c in sorted(table):
        extra = table[c] - sum(g[c] for g in gives.values())
        for i in sorted(rest_b, key=lambda i: (not gives[i], i)):
            g = min(extra, avail[i][c] - gives[i][c])
            if g > 0:
                gives[i][c] += g
                extra -= g
    return gives


def _taken(s: _Search, rest_b: list[int], gives: dict[int, Counter[str]],
           parts: dict[int, dict[str, int]]) -> dict[int, dict[int, Counter[str]]]:
    """Which word got which table word's tiles."""
    s.step(sum(sum(g.values()) for g in gives.values()) + len(parts))
    taken: dict[int, dict[int, Counter[str]]] = {j: {} for j in parts}
    pool = {c: [i for i in rest_b for _ in range(gives[i][c])]
            for c in {c for g in gives.values() for c in g}}
    for j, part in parts.items():
        for c, n in sorted(part.items()):
            for i in pool[c][:n]:
                taken[j].setdefault(i, Counter())[c] += 1
            pool[c] = pool[c][n:]
    return taken


def _leaf(s: _Search, kept: dict[int, int], rest_b: list[int],
          remnants: dict[int, tuple[int, int]], avail: dict[int, Counter[str]],
          gives: dict[int, Counter[str]], parts: dict[int, dict[str, int]],
          own: dict[int, dict[str, int]]) -> bool:
    """Score one complete assignment; True stops the search (nothing can be better).

    A group after the move made only of table tiles (a remnant, or a group the table alone
    gave) that is no word of the game is a leftover (:func:`_leftover`): its letters go back
    to the shelf like the letters no group lists, and it is never a word the player laid."""
    s.step(sum(len(avail[i]) for i in rest_b) + len(parts) + len(remnants))
    faults: dict[str, list[str]] = {}

    def fault(code: str, detail: str) -> None:
        faults.setdefault(code, []).append(detail)

    leftovers: dict[int, Counter[str]] = {}
    not_relaid: dict[int, Counter[str]] = {}
    for j, said in s.own_said.items():       # the referee said which letters came from
        if j in parts and Counter(own[j]) != said:     # the shelf: only that reading
            return False
    broken = {i for i, _k in remnants.values()}     # a run of it still lies on the table
    for i in rest_b:
        rest = avail[i] - gives[i]
        if not gives[i] and i not in broken:
            if rest:
                not_relaid[i] = rest
                fault(FAULT_CODES["not_relaid"], f"{s.before[i].text}: "
                      f"{''.join(sorted(rest.elements()))} taken and not laid again")
        elif rest:
            leftovers[i] = rest
    groups = {j: Counter(s.after[j].key) for j in remnants if _leftover(s, j)}
    groups.update({j: Counter(parts[j]) for j in parts if not own[j] and _leftover(s, j)})
    n_left = sum(sum(c.values()) for c in (*leftovers.values(), *groups.values()))
    if n_left and s.variant == VARIANT_WITHOUT_LEFTOVERS:
        fault(FAULT_CODES["leftovers"], f"{n_left} letters would stay on the table as no word")
    formed = [j for j in parts if j not in groups]
    n_own = sum(sum(c.values()) for c in own.values())
    if s.kind == MOVE:
        for j in formed:
            w = s.after[j]
            if len(w.key) < s.min_length:
                fault(FAULT_CODES["short"],
                      f"{w.text}: {len(w.key)} letters; {s.min_length} required")
            if parts[j] and not own[j]:
                fault(FAULT_CODES["no_own"], f"{w.text}: rebuilt from table tiles only")
        if not n_own:
            fault(FAULT_CODES["nothing"], "no letter from the player's shelf was laid")
    else:
        if rest_b or any(parts[j] for j in parts):
            fault(FAULT_CODES["opening_own"], f"{NAMES[s.kind]} lays its word from the "
                  "player's own tiles only and leaves the table as it lay")
        if len(parts) + len(remnants) != 1:
            fault(FAULT_CODES["opening_one"], f"{NAMES[s.kind]} lays one word; this move lays "
                  f"{len(parts) + len(remnants)}")
        for j in formed:
            w = s.after[j]
            if len(w.key) < s.opening_length:
                fault(FAULT_CODES["opening_short"], f"{w.text}: {len(w.key)} letters; "
                      f"{NAMES[s.kind]} needs {s.opening_length}")
    head = (sum(len(v) for v in faults.values()), n_left, n_own)
    if s.best is not None and head > s.best.cost[:3]:
        return False                         # the pieces cannot make up for it
    taken = _taken(s, rest_b, gives, parts)
    pieces = sum(len(t) for t in taken.values())
    cost = (*head, pieces)
    if s.best is None or cost < s.best.cost:
        placements = [Placement(j, "kept", {i: Counter(s.before[i].key)})
                      for j, i in kept.items()]
        placements += [Placement(j, LEFTOVER if j in groups else "remnant",
                                 {i: Counter(s.after[j].key)})
                       for j, (i, _k) in remnants.items()]
        placements += [Placement(j, LEFTOVER if j in groups else
                                 "rebuilt" if taken[j] else "new", taken[j], Counter(own[j]))
                       for j in parts]
        placements.sort(key=lambda p: p.after)
        s.best = Assignment(placements, leftovers, not_relaid, faults, cost)
    return cost == s.least


def _leftover(s: _Search, j: int) -> bool:
    """Is the group ``j``, made only of table tiles, no word of the game (too short for one,
    or not a correct word)? Then it is a leftover, not a word."""
    return len(s.after[j].key) < s.min_length or not s.valid.get(j, True)


# -- the ruling ----------------------------------------------------------------------------

def _checked(profile: Profile, rel: Release, words: list[Word], rest_a: list[int], *,
             lang: str) -> dict[int, dict[str, Any]]:
    """Every word the move may lay or leave (after -> its full verdict), checked once before
    the search, which needs to know which groups of table tiles are words. Not logged: the
    move is (:func:`_record`). A word that cannot be read as tiles refuses the whole move
    without naming it, as the judge does."""
    if not rest_a:
        return {}
    checked, _entry = judging.rule(profile, rel, [words[j].text for j in rest_a],
                                   reveal=True, lang=lang)
    return dict(zip(rest_a, checked["results"], strict=True))


def _length_only(result: dict[str, Any]) -> bool:
    """The judge refused the word for its length alone: a rule of form (``too_short``,
    ``opening_too_short``), which takes the move back, not a wrong word that costs 3."""
    reason = result.get("reason") or {}
    return not result["valid"] and reason.get("code") in LENGTH_CODES


def _record(answer: dict[str, Any], entry: dict[str, Any], root: Path) -> None:
    """Log the move before it is ruled (a ruling that cannot be logged is not given) and
    stamp the answer, and its judge's part, with the line's time."""
    line = rulings.append(entry, root=root)
    answer["time"] = line["time"]
    if "judge" in answer:
        results = answer["judge"].pop("results", None)
        answer["judge"]["time"] = line["time"]
        if results is not None:      # the per-word verdicts stay last, as the judge gives them
            answer["judge"]["results"] = results


def _own_said(profile: Profile, after: list[Word], rest_a: list[int], shelf: Counter[str],
              value: object) -> dict[int, Counter[str]]:
    """The referee's word on where tiles came from: ``{word: letters}``, the letters of a
    word laid by the move that came from the player's shelf (``""``: all from the table;
    the whole word: a new word). After-index -> those letters, for every occurrence of the
    word among the words the move lays."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise InputError("own must map a word of the table after the move to the letters "
                         "of it taken from the shelf", code="bad_move")
    spell = speller(profile)
    out: dict[int, Counter[str]] = {}
    for word, letters in value.items():
        key = spell.first(clean_word(word)).key
        targets = [j for j in rest_a if after[j].key == key]
        if not targets:
            raise InputError(f"{word!r} is not a word the move lays (it is not on the table "
                             f"after the move, or lies there as it lay before)",
                             code="bad_move", detail={"own": word})
        mine = _rack(profile, letters)
        if mine - Counter(key):
            raise InputError(f"{word!r} has no {''.join(sorted((mine - Counter(key)).elements()))}"
                             f" to take from the shelf", code="bad_move", detail={"own": word})
        if mine - shelf:
            raise InputError(f"the shelf holds no {''.join(sorted((mine - shelf).elements()))}"
                             f" for {word!r}", code="bad_move", detail={"own": word})
        out.update((j, mine) for j in targets)
    return out


def _reading(found: Assignment | None, said: dict[int, Counter[str]], lang: str
             ) -> dict[str, str] | None:
    """Which reading of the tiles the ruling took: the referee's (``own_said``) or, for a
    word laid whose own letters were not said, the search's (``own_assumed``: fewest rule
    faults, then fewest letters back to the shelf, then fewest own letters)."""
    if found is None:
        return None
    laid = [p.after for p in found.placements if p.kind in ("new", "rebuilt")]
    if not laid:
        return None
    unsaid = [j for j in laid if j not in said]
    return localized_reason(READINGS["assumed" if unsaid else "said"], None, lang)


@dataclass
class _Move:
    """A move as read: the request's tables, shelf and history checked, the words it may lay
    judged, nothing searched yet."""

    kind: str                                    # opening | reopening | move
    variant: int
    before: list[Word]
    after: list[Word]
    shelf: Counter[str]
    earlier: list[Counter[str]]                  # the history's tables
    opening_length: int
    rest_b: list[int]                            # before words not kept as they lay
    rest_a: list[int]                            # after words not kept: the ones laid
    said: dict[int, Counter[str]]                # after index -> own letters said
    checked: dict[int, dict[str, Any]]           # after index -> the judge's verdict


def _read_move(profile: Profile, rel: Release, before: object, after: object, rack: object,
               *, opening: bool, reopening: bool, variant: int, history: object,
               own: object, lang: str) -> _Move:
    """The read step: refuse a move that cannot be read (InputError), then judge every word
    it may lay."""
    if opening and reopening:
        raise InputError("a move is an opening or a re-opening, not both", code="bad_move")
    if variant not in VARIANTS:
        raise InputError(f"variant {variant!r}; the rule book has variants 1 and 2",
                         code="bad_move", detail={"variants": list(VARIANTS)})
    if profile.opening_min_length is None:
        raise InputError(f"{profile.name} has no table moves to rule on", code="bad_move")
    kind = OPENING if opening else REOPENING if reopening else MOVE
    table_before = _words(profile, before, "before")
    table_after = _words(profile, after, "after")
    shelf = _rack(profile, rack)
    earlier = _history(profile, history)
    opening_length = (profile.reopening_min_length if reopening else None) or \
        profile.opening_min_length
    _, rest_b, rest_a = _kept(table_before, table_after)
    said = _own_said(profile, table_after, rest_a, shelf, own)
    return _Move(kind, variant, table_before, table_after, shelf, earlier, opening_length,
                 rest_b, rest_a, said, _checked(profile, rel, table_after, rest_a, lang=lang))


def _search_move(profile: Profile, move: _Move
                 ) -> tuple[Assignment | None, dict[str, list[str]], list[int]]:
    """The search step: the best assignment of tiles (None when none exists), the faults of
    the move's form (code -> details) and the after-indexes of the words it lays."""
    search = _Search(move.before, move.after, move.shelf, move.kind, move.variant,
                     profile.min_length, move.opening_length,
                     valid={j: r["valid"] for j, r in move.checked.items()},
                     own_said=move.said)
    found = _search(search)
    faults: dict[str, list[str]]
    if found is None and move.said and not _missing(search, move.rest_b, move.rest_a):
        faults = {FAULT_CODES["no_assignment"]: ["no assignment exists with the letters said to "
                                          "come from the shelf: the table before the move "
                                          "does not hold the rest"]}
        laid = move.rest_a
    elif found is None:
        missing = _missing(search, move.rest_b, move.rest_a)
        letters = ", ".join(profile.by_canonical[c].letter if c in profile.by_canonical
                            else c for c in sorted(missing.elements()))
        faults = {FAULT_CODES["no_assignment"]: [f"no assignment exists: the table after the move "
                                          f"needs {letters} beyond the table tiles and the "
                                          f"rack"]}
        laid = move.rest_a
    else:
        faults = dict(found.faults)
        laid = [p.after for p in found.placements if p.kind not in ("kept", LEFTOVER)]
    after_set = Counter(w.key for w in move.after)
    for n, table in enumerate(move.earlier, 1):
        if table == after_set:
            faults.setdefault(FAULT_CODES["repeated"], []).append(
                f"the table after the move is arrangement {n} of the history")
            break
    return found, faults, laid


def _placed(profile: Profile, move: _Move, found: Assignment | None
            ) -> tuple[list[dict[str, Any]], int, list[str]]:
    """Part of the score step: each word of the table after the move as the assignment
    placed it (with its points when laid), the points, and the tiles back to the shelf."""
    rules = play_rules(profile)
    spell = speller(profile)
    words: list[dict[str, Any]] = []
    points = 0
    back: Counter[str] = Counter()          # tiles back to the shelf
    if found is not None:
        for p in found.placements:
            w = move.after[p.after]
            item: dict[str, Any] = {"word": w.text, "kind": p.kind}
            if p.kind != "new":
                item["from"] = [{"word": move.before[i].text, "letters": _letters(spell, c)}
                                for i, c in sorted(p.taken.items())]
            if p.kind in ("new", "rebuilt"):
                item["own"] = _letters(spell, p.own)
                item["points"] = rules.word_points(w.key, opening=move.kind != MOVE) or 0
                points += item["points"]
            elif p.kind == LEFTOVER:
                back.update(w.key)
            words.append(item)
        for c in found.leftovers.values():
            back.update(c)
    return words, points, _letters(spell, back)


def _letters(spell: Speller, tiles: Counter[str]) -> list[str]:
    """The tiles of a multiset of canonical letters, in order, as the answer shows them."""
    return list(spell.tiles_of("".join(sorted(tiles.elements()))))


def _score(profile: Profile, rel: Release, move: _Move, found: Assignment | None,
           faults: dict[str, list[str]], laid: list[int], *, reveal: bool, lang: str
           ) -> tuple[dict[str, Any], list[int]]:
    """The score step: the answer (form, words, points, penalty, outcome) and the
    after-indexes of the words the judge ruled on."""
    form_legal = not faults
    judged = [j for j in laid if not _length_only(move.checked[j])]
    words_valid = all(move.checked[j]["valid"] for j in judged) if judged else None
    if words_valid is False:      # which word is wrong only the judge's ``reveal`` says
        faults[FAULT_CODES["wrong"]] = []
    reasons = [localized_reason(code, "; ".join(faults[code]) or None, lang)
               for code in FAULTS if code in faults]
    words, points, to_shelf = _placed(profile, move, found)
    stands = form_legal and words_valid is not False
    if words_valid is False:
        outcome, points, penalty = OUTCOMES["wrong_word"], 0, WRONG_WORD_PENALTY
        to_shelf = []
    elif not form_legal:
        outcome, points, penalty = OUTCOMES["taken_back"], 0, 0
        to_shelf = []
    else:
        outcome, penalty = OUTCOMES["stands"], LEFTOVER_PENALTY * len(to_shelf)
    answer: dict[str, Any] = {
        "game": profile.id, "release": rel.id,
        "kind": move.kind, "variant": move.variant, "form_legal": form_legal,
        "words_valid": words_valid, "valid": stands,
        "verdict": judging.STANDS if stands else judging.FALLS,
        "reasons": reasons, "reading": _reading(found, move.said, lang),
        "words": words, "to_shelf": to_shelf,
        "points": points, "penalty": penalty, "total": points - penalty,
        "outcome": localized_reason(outcome, None, lang),
    }
    if found is None:
        answer["assignment"] = None
    if judged:
        answer["judge"] = {"verdict": judging.STANDS if words_valid else judging.FALLS,
                           "valid": words_valid, "count": len(judged)}
        if reveal:
            answer["judge"]["results"] = [move.checked[j] for j in judged]
    return answer, judged


def _log_entry(profile: Profile, move: _Move, answer: dict[str, Any], judged: list[int],
               reveal: bool) -> dict[str, Any]:
    """The log step's line: the move as read and its ruling, the words judged."""
    return {"game": profile.id, "release": answer["release"],
            "words": [move.after[j].text for j in judged], "edge": False,
            "verdict": answer["verdict"], "revealed": reveal,
            "move": {"kind": move.kind, "variant": move.variant,
                     "before": [w.text for w in move.before],
                     "after": [w.text for w in move.after],
                     "rack": _letters(speller(profile), move.shelf),
                     "form_legal": answer["form_legal"], "words_valid": answer["words_valid"],
                     "outcome": answer["outcome"]["code"],
                     "points": answer["points"], "penalty": answer["penalty"],
                     "total": answer["total"], "to_shelf": answer["to_shelf"],
                     "reasons": [r["code"] for r in answer["reasons"]]}}


def rule_move(profile: Profile, rel: Release, before: object, after: object, rack: object,
              *, root: Path, opening: bool = False, reopening: bool = False,
              variant: int = 1, history: object = None, own: object = None,
              reveal: bool = False, lang: str | None = None, log: bool = True
              ) -> dict[str, Any]:
    """Rule on one Remik move (see the module docstring) from ``rel``, logged in ``root``'s
    rulings log: read, search, score and log, one step each. ``own`` maps a word the move
    lays to the letters of it the player took from the shelf, as the referee saw it
    (:func:`_own_said`); the words it does not name are read as the search finds best
    (``reading`` in the answer says which). Raises InputError for a move that cannot be
    read and MoveTooComplex when the search is too long, before anything is ruled or
    logged; RulingsUnavailable instead of a ruling that cannot be logged."""
    lang = language(profile.language, lang)
    move = _read_move(profile, rel, before, after, rack, opening=opening,
                      reopening=reopening, variant=variant, history=history, own=own,
                      lang=lang)
    found, faults, laid = _search_move(profile, move)
    answer, judged = _score(profile, rel, move, found, faults, laid, reveal=reveal, lang=lang)
    if log:
        _record(answer, _log_entry(profile, move, answer, judged, reveal), root)
    return answer
