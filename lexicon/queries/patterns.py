"""The pattern language, parsed into tile slots and compiled into a matcher that cannot run away.

Syntax (case-insensitive; Kvizovka patterns may be Latin or Cyrillic):

* a letter is that tile; Latin multi-letter tiles (LJ, NJ, DŽ) are read every possible way,
  as in a check, and the results of all readings are pooled; ``|`` forbids a tile across
  it (``kon|j*``);
* ``?`` is one tile, any tile (in a blanks query: a joker);
* ``*`` is any run of tiles, possibly empty;
* ``[abc]`` is one tile out of a set, ``[^abc]`` one tile not in it. Inside brackets Latin
  multi-letter tiles are read greedily (``[dž]`` is the tile DŽ, the same notation a check
  uses to force one tile); a comma separates tiles where it matters (``[d,ž]``).

Every fault raises :class:`~lexicon.errors.InputError` with code ``bad_pattern`` and the
1-based ``detail.position`` of the offending character.

The matcher is a regular expression, but never one written by the user: it is generated
from the parsed slots, using only character classes of tiles, and each ``*`` becomes an
atomic lazy group ``(?>T*?segment)``. Glob matching is decided by placing every segment
between stars at its leftmost possible position, so the atomic groups never need to give
anything back, and a match costs O(key length x pattern length) whatever the pattern:
``*a*a*a*a*a*a*a*b`` cannot backtrack exponentially.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from lexicon.errors import InputError
from lexicon.game.inputs import EDGE_SPACE, control_error, first_control, normalise
from lexicon.game.profile import Profile
from lexicon.game.tiles import MAX_READINGS, PrefixOracle, speller

MAX_PATTERN_CHARS = 64
MAX_STARS = 8
META = "?*[]"


@dataclass(frozen=True)
class Slot:
    """One tile position: the tiles allowed there (None: any tile)."""

    tiles: frozenset[str] | None
    joker: bool = False       # written as '?': in a blanks query, a joker fills it


STAR = "*"
Element = Slot | str   # a Slot or STAR


@dataclass(frozen=True)
class Compiled:
    """One reading of a pattern, ready to run."""

    elements: tuple[Element, ...]
    regex: re.Pattern[str]

    @property
    def has_star(self) -> bool:
        return STAR in self.elements

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(e for e in self.elements if isinstance(e, Slot))

    @property
    def head(self) -> tuple[Slot, ...]:
        """The slots before the first star (all of them when there is none)."""
        out = []
        for e in self.elements:
            if e == STAR:
                break
            out.append(e)
        return tuple(out)  # type: ignore[arg-type]

    @property
    def tail(self) -> tuple[Slot, ...]:
        """The slots after the last star (empty when there is none)."""
        if not self.has_star:
            return ()
        out: list[Slot] = []
        for e in reversed(self.elements):
            if e == STAR:
                break
            out.append(e)  # type: ignore[arg-type]
        return tuple(reversed(out))

    def matches(self, key: str) -> bool:
        return self.regex.match(key) is not None


@dataclass(frozen=True)
class Pattern:
    """A parsed pattern: one compiled reading per tiling of its Latin digraphs."""

    text: str
    readings: tuple[Compiled, ...]


def _fault(message: str, position: int, pattern: str) -> InputError:
    return InputError(f"{message} at position {position} of {pattern!r}", code="bad_pattern",
                      detail={"position": position, "pattern": pattern})


def _set_tiles(profile: Profile, body: str, start: int, pattern: str) -> frozenset[str]:
    """The tiles listed in a bracket body (``start``: 1-based position of its first char)."""
    out: set[str] = set()
    for offset, item in _items(body):
        for i, ch in enumerate(item):
            if speller(profile).tile(ch) is None:
                raise _fault(f"{ch!r} is not a tile of {profile.name}", start + offset + i,
                             pattern)
        # the greedy reading: multi-letter tiles wherever they fit ([dž] is DŽ)
        out.update(speller(profile).first(item).key)
    if not out:
        raise _fault("empty set '[]'", start - 1, pattern)
    return frozenset(out)


def _items(body: str) -> list[tuple[int, str]]:
    """Comma- or space-separated runs of a bracket body, with their offsets."""
    out: list[tuple[int, str]] = []
    start = 0
    for i, ch in enumerate(body + ","):
        if ch in ", ":
            if i > start:
                out.append((start, body[start:i]))
            start = i + 1
    return out


def _tokens(profile: Profile, pattern: str, *, stars: bool, sets: bool
            ) -> list[tuple[str, object]]:
    """('run', text) | ('any', None) | ('star', None) | ('set', frozenset) tokens."""
    tokens: list[tuple[str, object]] = []
    run = ""
    i = 0
    n_stars = 0

    def flush() -> None:
        nonlocal run
        if run.strip("|"):
            tokens.append(("run", run))
        run = ""

    while i < len(pattern):
        ch = pattern[i]
        pos = i + 1
        if ch == "?":
            flush()
            tokens.append(("any", None))
        elif ch == "*":
            if not stars:
                raise _fault("'*' is not allowed here (use a pattern query)", pos, pattern)
            flush()
            if not tokens or tokens[-1][0] != "star":
                n_stars += 1
                if n_stars > MAX_STARS:
                    raise _fault(f"more than {MAX_STARS} '*'", pos, pattern)
                tokens.append(("star", None))
        elif ch == "[":
            end = pattern.find("]", i + 1)
            nested = pattern.find("[", i + 1)
            if end == -1:
                raise _fault("unclosed '['", pos, pattern)
            if nested != -1 and nested < end:
                raise _fault("'[' inside a set", nested + 1, pattern)
            flush()
            body = pattern[i + 1:end]
            negate = body.startswith("^")
            if negate:
                body = body[1:]
            chosen = _set_tiles(profile, body, pos + 1 + int(negate), pattern)
            if len(chosen) > 1 and not sets:
                raise _fault("a set of tiles is not allowed here; '[..]' may hold one tile",
                             pos, pattern)
            if negate:
                chosen = frozenset(profile.by_canonical) - chosen
                if not chosen:
                    raise _fault("the set excludes every tile", pos, pattern)
            tokens.append(("set", chosen))
            i = end
        elif ch == "]":
            raise _fault("']' without '['", pos, pattern)
        elif ch == "|" or speller(profile).tile(ch) is not None:
            run += ch
        elif ch.isspace() and profile.phrases:
            pass   # "pustni ples" is played without the space
        else:
            raise _fault(f"{ch!r} is not a tile of {profile.name} nor one of ? * [ ]",
                         pos, pattern)
        i += 1
    flush()
    return tokens


def _regex(profile: Profile, elements: tuple[Element, ...]) -> re.Pattern[str]:
    """The bounded matcher for one reading (see the module docstring for why it is safe)."""
    tile_class = "[" + "".join(re.escape(c) for c in profile.alphabet.labels) + "]"

    def cls(slot: Slot) -> str:
        if slot.tiles is None:
            return tile_class
        if len(slot.tiles) == 1:
            return re.escape(next(iter(slot.tiles)))
        return "[" + "".join(re.escape(c) for c in sorted(slot.tiles)) + "]"

    segments: list[list[str]] = [[]]
    for e in elements:
        if e == STAR:
            segments.append([])
        else:
            segments[-1].append(cls(e))  # type: ignore[arg-type]
    if len(segments) == 1:
        return re.compile("".join(segments[0]) + r"\Z")
    parts = ["".join(segments[0])]
    for middle in segments[1:-1]:
        if middle:
            parts.append(f"(?>{tile_class}*?{''.join(middle)})")
    parts.append(f"{tile_class}*{''.join(segments[-1])}" + r"\Z")
    return re.compile("".join(parts))


def parse(profile: Profile, text: str, *, stars: bool = True, sets: bool = True,
          known: PrefixOracle | None = None) -> Pattern:
    """Parse ``text`` for ``profile``; ``stars``/``sets`` off for a word with jokers.

    ``known`` (the release's prefix oracle): a run of letters that starts the pattern keeps
    only the tilings some key starts with, as a checked word does; later runs sit at no
    known offset and keep every tiling (at most :data:`MAX_READINGS`).
    """
    if text is None or not text.strip(EDGE_SPACE):
        raise InputError("the pattern is empty", code="bad_pattern", detail={"position": 0})
    pattern = normalise(text).strip(EDGE_SPACE).lower()
    if (bad := first_control(pattern)) is not None:    # never stripped or read as a space
        raise control_error(pattern, bad, " of the pattern")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise InputError(f"the pattern is {len(pattern)} characters long; at most "
                         f"{MAX_PATTERN_CHARS} are accepted", code="pattern_too_long",
                         detail={"max_chars": MAX_PATTERN_CHARS})
    tokens = _tokens(profile, pattern, stars=stars, sets=sets)
    if not tokens:
        raise InputError("the pattern holds no tile (only '|')", code="bad_pattern",
                         detail={"position": 0})
    options: list[list[tuple[Element, ...]]] = []
    for at, (kind, value) in enumerate(tokens):
        if kind == "run":
            tilings = set(speller(profile).keys(str(value), known if at == 0 else None))
            options.append([tuple(Slot(frozenset(c)) for c in key) for key in sorted(tilings)])
        elif kind == "any":
            options.append([(Slot(None, joker=True),)])
        elif kind == "set":
            options.append([(Slot(value),)])  # type: ignore[arg-type]
        else:
            options.append([(STAR,)])
    variants = []
    for combo in product(*options):
        elements = tuple(e for part in combo for e in part)
        variants.append(Compiled(elements, _regex(profile, elements)))
        if len(variants) >= MAX_READINGS:
            break
    return Pattern(pattern, tuple(variants))
