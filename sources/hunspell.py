"""Read Hunspell ``.aff``/``.dic`` files and expand every entry to its full forms.

This is "unmunch" in Python. We need it because Debian's ``unmunch`` does not
understand numbered flags (``FLAG num``) and prints nothing for Serbian, and because
the lexicon compiler wants to know *how* each form was made (which stem, which
stem flags, which affixes), not just the word.

The module is meant to be read: it explains the parts of the format it relies on.
It is modelled on spylls (a documented Python port of Hunspell) but only does
generation, and it follows Hunspell's own rules for which combinations are legal.

The format in brief
===================

A dictionary is two files.

``.dic`` -- the stems::

    308298                 <- first line: (approximate) number of entries
    kot/NOs                <- stem "kot" with flags N, O, s
    a\\/b/X                 <- "\\/" is a literal slash inside the stem
    word/AB po:noun st:x   <- morphological fields after the flags (space + "xx:")
    word/AB<TAB>anything   <- or after a TAB (the old separator)

``.aff`` -- what the flags mean. Lines we interpret:

``SET enc``
    Character encoding of both files (``UTF-8``, ``ISO8859-2``, ...).
``FLAG type``
    How flag strings are written: default one character per flag; ``long`` two
    characters per flag; ``num`` decimal numbers separated by commas;
    ``UTF-8`` one Unicode character per flag.
``AF n`` + n lines ``AF flags``
    Flag aliases: a ``.dic`` entry (or an affix continuation) may write ``7``
    instead of the 7th flag string (1-based).
``AM n`` + n lines ``AM fields``
    The same for morphological fields.
``PFX``/``SFX`` blocks
    A header ``SFX flag cross_product count`` (``cross_product`` is ``Y`` or ``N``),
    then ``count`` rules ``SFX flag strip add[/cont] [condition [morph...]]``.
    ``strip`` (``0`` = nothing) is removed from the word, ``add`` (``0`` = nothing)
    is appended (prepended for ``PFX``), ``condition`` is a tiny pattern that the
    *end* of the word (start, for prefixes) must match: literal characters, ``.``
    for any character and ``[abc]`` / ``[^abc]`` classes -- nothing else is
    special, ``[a-z]`` is the three characters ``a``, ``-``, ``z``. A missing
    condition means ``.`` (hunspell-sr writes none at all). ``cont`` are
    *continuation flags*: flags that become available once this affix is applied
    (a second suffix, a prefix, or one of the special flags below).
``NEEDAFFIX``/``PSEUDOROOT``, ``FORBIDDENWORD``, ``ONLYINCOMPOUND``, ``CIRCUMFIX``
    Special flags, see :func:`expand_entry`.
``COMPLEXPREFIXES``
    Two prefixes may be stacked instead of two suffixes.
``FULLSTRIP``
    A rule may strip the whole word.

All other directives (``TRY``, ``KEY``, ``REP``, ``COMPOUND*``, ...) are kept raw in
:attr:`Aff.directives` but do not affect generation. Compounding is *not*
generated: it would be an unbounded set of words.

Generation rules (what Hunspell would accept, produced forwards)
================================================================

For an entry ``stem/flags``:

* the bare stem, unless it carries ``NEEDAFFIX``;
* ``stem + S`` for every suffix rule S whose flag is in the stem's flags;
* ``S2`` on top of that (*twofold suffix*) if S2's flag is in S's continuation flags;
* ``P + stem`` for every prefix rule P whose flag is in the stem's flags;
* ``P + stem + S`` (and ``P + stem + S + S2``) when P and all suffixes are
  cross-product (``Y``); P's flag may come from the stem or a suffix's continuation
  flags, and S's flag from the stem or P's continuation flags;
* with ``COMPLEXPREFIXES``: ``P2 + P + stem [+ S]`` instead of twofold suffixes.

Suffixes are applied first and the prefix goes on the suffixed word, because that
is the order in which Hunspell checks prefix conditions. A rule applies only if the
word ends (starts) with ``strip``, matches the condition, and is longer than
``strip`` (unless ``FULLSTRIP``). Entries flagged ``FORBIDDENWORD`` or
``ONLYINCOMPOUND`` produce nothing (Hunspell rejects them, affixed or not, outside
compounds), and :func:`expand` drops any form that equals a forbidden stem. An affix whose
continuation flags contain ``ONLYINCOMPOUND`` is never used; one marked
``NEEDAFFIX`` is used only together with another affix; ``CIRCUMFIX`` affixes
come in pairs (a circumfix suffix needs a circumfix prefix, and a circumfix prefix
combined with a suffix needs it to be a circumfix one -- though, as in Hunspell, a
circumfix prefix on its own is allowed).
"""

from __future__ import annotations

import codecs
import logging
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

__all__ = [
    "Aff",
    "Affix",
    "DicEntry",
    "Form",
    "expand",
    "expand_entry",
    "read_aff",
    "read_dic",
]

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------
# Data model
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Affix:
    """One ``PFX``/``SFX`` rule line.

    Kept close to the file so callers can inspect it (e.g. to see which endings a
    flag class produces when mapping flags to parts of speech).
    """

    kind: str  # "PFX" or "SFX"
    flag: str
    cross_product: bool  # from the block header: may combine with the other kind
    strip: str  # removed from the word before adding ("" for "0")
    add: str  # appended (SFX) or prepended (PFX) ("" for "0")
    condition: str  # Hunspell pattern the word's end (start for PFX) must match
    cont_flags: frozenset[str]  # continuation flags after "add/"
    morph: tuple[str, ...]  # morphological fields after the condition


@dataclass(frozen=True)
class Aff:
    """A parsed ``.aff`` file.

    The affix tables are exposed as read-only mappings ``flag -> rules`` for
    inspection; generation uses a compiled form built once in ``__post_init__``
    (conditions turned into regexes or ``endswith`` checks) so that expanding
    millions of forms never re-parses a condition.
    """

    encoding: str  # Python codec name for both files
    flag_type: str  # "short", "long", "num" or "UTF-8"
    flag_aliases: tuple[frozenset[str], ...]  # AF table; index 0 is alias "1"
    morph_aliases: tuple[tuple[str, ...], ...]  # AM table; index 0 is alias "1"
    prefixes: Mapping[str, tuple[Affix, ...]]
    suffixes: Mapping[str, tuple[Affix, ...]]
    needaffix: str | None = None
    forbiddenword: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    keepcase: str | None = None
    complexprefixes: bool = False
    fullstrip: bool = False
    # Every other directive, raw: name -> tuple of argument tuples (one per line).
    directives: Mapping[str, tuple[tuple[str, ...], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    _compiled: _Compiled = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen dataclass: the compiled tables are derived data, set once here.
        object.__setattr__(self, "_compiled", _Compiled(self))

    def decode_flags(self, text: str, *, allow_alias: bool = True) -> frozenset[str]:
        """Turn a flag string from the files into a set of flag names.

        Flag names are strings in every ``FLAG`` mode (``"A"``, ``"Aa"``, ``"1332"``)
        so callers never need to know the mode. With an ``AF`` table, a number is
        an alias (1-based) for a whole flag string.
        """
        if allow_alias and self.flag_aliases and text.isdigit():
            index = int(text)
            if 1 <= index <= len(self.flag_aliases):
                return self.flag_aliases[index - 1]
            log.warning("flag alias %s out of range (AF has %d)", text, len(self.flag_aliases))
            return frozenset()
        return frozenset(_split_flags(text, self.flag_type))


@dataclass(frozen=True, slots=True)
class DicEntry:
    """One ``.dic`` line: a stem, its flags and optional morphological fields."""

    stem: str
    flags: frozenset[str]
    morph: tuple[str, ...]  # morphological fields from .dic, may be empty


@dataclass(frozen=True, slots=True)
class Form:
    """A generated word form and how it was made."""

    form: str
    stem: str  # the .dic stem it came from
    stem_flags: frozenset[str]  # the stem's flags (callers map flag classes to parts of speech)
    # flags of the affixes applied, in order (prefix first), empty for the bare stem;
    # suffixes inner-first, so a twofold suffix gives (..., inner, outer)
    affixes: tuple[str, ...]


# --------------------------------------------------------------------------------------
# Small helpers: encodings, flags, conditions
# --------------------------------------------------------------------------------------

# Hunspell's SET names that Python's codec registry does not know by that spelling.
_ENCODING_FIXES = {
    "TIS620-2533": "tis-620",
    "ISCII-DEVANAGARI": "iscii",  # no Python codec; lookup below fails loudly
}


def _python_encoding(name: str) -> str:
    """Map a Hunspell ``SET`` value to a Python codec name (``ISO8859-2`` -> ``iso8859_2``).

    Why: Hunspell accepts names such as ``microsoft-cp1251`` that Python spells
    differently; failing here is better than silently decoding with the wrong table.
    """
    raw = name.strip()
    fixed = _ENCODING_FIXES.get(raw.upper(), raw)
    if fixed.lower().startswith("microsoft-"):
        fixed = fixed[len("microsoft-") :]
    return codecs.lookup(fixed).name


def _split_flags(text: str, flag_type: str) -> list[str]:
    """Split a flag string according to ``FLAG`` (see module docstring)."""
    if flag_type == "long":
        if len(text) % 2:
            log.warning("odd-length long flag string %r; last character used alone", text)
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    if flag_type == "num":
        return [part.strip() for part in text.split(",") if part.strip()]
    return list(text)  # "short" and "UTF-8": one (decoded) character per flag


def _condition_elements(condition: str) -> list[str]:
    """Split a Hunspell condition into elements, each matching exactly one character.

    ``"[^aeiou]y"`` -> ``["[^aeiou]", "y"]``. Each element becomes a regex atom;
    only ``.`` and ``[...]`` are special, everything else is a literal.
    """
    elements: list[str] = []
    i = 0
    while i < len(condition):
        char = condition[i]
        if char == "[":
            end = condition.find("]", i + 1)
            if end == -1:  # unterminated class: Hunspell takes the rest as the class
                end = len(condition)
            body = condition[i + 1 : end]
            negated = body.startswith("^")
            members = body[1:] if negated else body
            atom = "[" + ("^" if negated else "") + "".join(_escape_in_class(c) for c in members)
            elements.append(atom + "]")
            i = end + 1
        elif char == ".":
            elements.append(".")
            i += 1
        else:
            elements.append(re.escape(char))
            i += 1
    return elements


def _escape_in_class(char: str) -> str:
    """Escape a character for use inside a regex ``[...]`` (``-``, ``]``, ``\\``, ``^``)."""
    return "\\" + char if char in "\\]-^[" else char


WordTest = Callable[[str], bool]


def _compile_test(kind: str, strip: str, condition: str, fullstrip: bool) -> WordTest:
    """Build the check "may this rule apply to ``word``?" for one (strip, condition).

    Why a closure per rule group: the check runs millions of times, so the common
    cases (``.``, a plain literal) become ``len``/``endswith`` calls and only real
    character classes use a compiled regex, anchored at the right end.
    """
    elements = _condition_elements(condition)
    n = len(elements)
    # Hunspell: the word must be longer than strip (FULLSTRIP: may equal it) and at
    # least as long as the condition.
    min_len = max(n, len(strip) + (0 if fullstrip else 1))
    suffix = kind == "SFX"
    if all(e == "." for e in elements):
        if not strip:
            return lambda word: len(word) >= min_len
        if suffix:
            return lambda word: len(word) >= min_len and word.endswith(strip)
        return lambda word: len(word) >= min_len and word.startswith(strip)
    if all(e != "." and (len(e) == 1 or (e[0] == "\\" and len(e) == 2)) for e in elements):
        literal = "".join(e[-1] for e in elements)
        if suffix:
            if literal.endswith(strip):
                return lambda word: len(word) >= min_len and word.endswith(literal)
            return lambda word: (
                len(word) >= min_len and word.endswith(literal) and word.endswith(strip)
            )
        if literal.startswith(strip):
            return lambda word: len(word) >= min_len and word.startswith(literal)
        return lambda word: (
            len(word) >= min_len and word.startswith(literal) and word.startswith(strip)
        )
    pattern = re.compile("".join(elements), re.DOTALL)
    if suffix:
        fullmatch = pattern.fullmatch
        return lambda word: (
            len(word) >= min_len
            and word.endswith(strip)
            and fullmatch(word, len(word) - n) is not None
        )
    match = pattern.match
    return lambda word: len(word) >= min_len and word.startswith(strip) and match(word) is not None


# --------------------------------------------------------------------------------------
# Compiled affix tables
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rule:
    """An affix rule reduced to what generation needs, with special flags pre-tested."""

    add: str
    affix: Affix
    flag: str
    cross: bool  # cross-product: may combine with an affix of the other kind
    cont: frozenset[str]  # continuation flags
    needaffix: bool  # cont flags include NEEDAFFIX: needs another affix too
    circumfix: bool  # cont flags include CIRCUMFIX: must pair with another circumfix
    test: WordTest  # shared with the rule's group
    strip_len: int
    # (self,): the suffix chain made of this rule alone, built once instead of per form
    alone: tuple[_Rule, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class _Group:
    """Rules of one flag sharing (strip, condition): the condition is tested once."""

    test: WordTest
    strip_len: int
    rules: tuple[_Rule, ...]
    # What the word's edge character (last for SFX, first for PFX) may be:
    # None = anything, (False, chars) = one of chars, (True, chars) = none of chars.
    edge: tuple[bool, frozenset[str]] | None


class _FlagTable:
    """The groups of one affix flag, indexed by the word's edge character.

    Why: a Polish verb flag has 442 rules in ~60 condition groups, but a given
    word's last letter rules out almost all of them. ``by_char[c]`` lists the
    groups that can match a word whose edge is ``c``; ``other`` those that can
    match an edge character no group names explicitly (``.`` and ``[^...]``).
    """

    __slots__ = ("by_char", "groups", "other", "suffix")

    def __init__(self, groups: tuple[_Group, ...], suffix: bool) -> None:
        self.groups = groups
        self.suffix = suffix
        named = {c for g in groups if g.edge and not g.edge[0] for c in g.edge[1]}
        self.other = tuple(g for g in groups if g.edge is None or g.edge[0])
        self.by_char: dict[str, tuple[_Group, ...]] = {
            c: tuple(g for g in groups if g.edge is None or ((c in g.edge[1]) != g.edge[0]))
            for c in named
        }

    def apply(self, word: str) -> Iterator[tuple[str, _Rule]]:
        """Yield (new word, rule) for every rule of this flag that applies to ``word``."""
        if self.suffix:
            for group in self.by_char.get(word[-1:], self.other):
                if group.test(word):
                    base = word[: len(word) - group.strip_len] if group.strip_len else word
                    for rule in group.rules:
                        yield base + rule.add, rule
        else:
            for group in self.by_char.get(word[:1], self.other):
                if group.test(word):
                    base = word[group.strip_len :]
                    for rule in group.rules:
                        yield rule.add + base, rule


def _edge(kind: str, strip: str, condition: str) -> tuple[bool, frozenset[str]] | None:
    """The constraint a rule puts on the word's edge character (see :class:`_Group`)."""
    elements = _condition_elements(condition)
    element = (elements[-1] if kind == "SFX" else elements[0]) if elements else "."
    if element == ".":
        edge: tuple[bool, frozenset[str]] | None = None
    elif element.startswith("["):
        negated = element.startswith("[^")
        body = element[2 if negated else 1 : -1]
        edge = (negated, frozenset(re.sub(r"\\(.)", r"\1", body)))
    else:
        edge = (False, frozenset(element[-1]))
    if strip:  # the word must also end (start) with strip
        char = strip[-1] if kind == "SFX" else strip[0]
        if edge is None or (char in edge[1]) != edge[0]:
            edge = (False, frozenset(char))
        else:
            edge = (False, frozenset())  # contradictory: never applies
    return edge


class _Compiled:
    """Per-flag rule tables for fast generation, built once per :class:`Aff`."""

    __slots__ = ("circumfix_used", "has_cont", "needaffix_used", "prefixes", "suffixes")

    def __init__(self, aff: Aff) -> None:
        self.prefixes = self._tables(aff, aff.prefixes, suffix=False)
        self.suffixes = self._tables(aff, aff.suffixes, suffix=True)
        rules = [
            rule
            for tables in (self.prefixes, self.suffixes)
            for table in tables.values()
            for group in table.groups
            for rule in group.rules
        ]
        self.has_cont = any(rule.cont for rule in rules)
        self.needaffix_used = any(rule.needaffix for rule in rules)
        self.circumfix_used = any(rule.circumfix for rule in rules)

    @staticmethod
    def _tables(
        aff: Aff, table: Mapping[str, tuple[Affix, ...]], suffix: bool
    ) -> dict[str, _FlagTable]:
        compiled: dict[str, _FlagTable] = {}
        for flag, affixes in table.items():
            by_key: dict[tuple[str, str], list[_Rule]] = {}
            tests: dict[tuple[str, str], WordTest] = {}
            for affix in affixes:
                cont = affix.cont_flags
                if aff.onlyincompound is not None and aff.onlyincompound in cont:
                    continue  # only valid inside compounds, which we do not generate
                key = (affix.strip, affix.condition)
                test = tests.get(key)
                if test is None:
                    test = tests[key] = _compile_test(
                        affix.kind, affix.strip, affix.condition, aff.fullstrip
                    )
                rule = _Rule(
                    add=affix.add,
                    affix=affix,
                    flag=flag,
                    cross=affix.cross_product,
                    cont=cont,
                    needaffix=aff.needaffix is not None and aff.needaffix in cont,
                    circumfix=aff.circumfix is not None and aff.circumfix in cont,
                    test=test,
                    strip_len=len(affix.strip),
                )
                object.__setattr__(rule, "alone", (rule,))
                by_key.setdefault(key, []).append(rule)
            kind = "SFX" if suffix else "PFX"
            groups = tuple(
                _Group(
                    test=tests[key],
                    strip_len=len(key[0]),
                    rules=tuple(rules),
                    edge=_edge(kind, key[0], key[1]),
                )
                for key, rules in by_key.items()
            )
            compiled[flag] = _FlagTable(groups, suffix)
        return compiled


# --------------------------------------------------------------------------------------
# Reading .aff
# --------------------------------------------------------------------------------------

_FLAG_DIRECTIVES = {
    "NEEDAFFIX": "needaffix",
    "PSEUDOROOT": "needaffix",  # old name of NEEDAFFIX
    "FORBIDDENWORD": "forbiddenword",
    "ONLYINCOMPOUND": "onlyincompound",
    "CIRCUMFIX": "circumfix",
    "KEEPCASE": "keepcase",
}


def _split_lines(text: str) -> list[str]:
    """Split on ``\\n``/``\\r\\n`` only.

    Why not ``str.splitlines``: it also breaks on U+0085 and U+2028, which can be
    real characters after decoding an 8-bit file.
    """
    return [line.rstrip("\r") for line in text.split("\n")]


def _strip_comment(tokens: list[str], keep: int) -> list[str]:
    """Drop a trailing ``# comment`` after the first ``keep`` tokens.

    hunspell-hr writes ``AF ZZ<TAB># 1`` and ``SFX SX ci aca vci<TAB># Križevaca``;
    the comment is not part of the data.
    """
    for i in range(keep, len(tokens)):
        if tokens[i].startswith("#"):
            return tokens[:i]
    return tokens


def read_aff(path: Path) -> Aff:
    """Parse an ``.aff`` file (any Hunspell encoding, BOM and CRLF tolerated)."""
    encoding, text = _aff_text(path)
    reader = _AffReader(path)
    for lineno, line in enumerate(_split_lines(text), start=1):
        reader.line(lineno, line)
    return reader.aff(encoding)


def _aff_text(path: Path) -> tuple[str, str]:
    """The file's encoding (its ``SET``, else ISO 8859-1) and its text, BOM dropped."""
    raw = Path(path).read_bytes()
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    # SET must be known before decoding; it is ASCII, so find it in the bytes.
    match = re.search(rb"^[ \t]*SET[ \t]+(\S+)", raw, re.MULTILINE)
    encoding = _python_encoding(match.group(1).decode("ascii")) if match else "iso8859_1"
    return encoding, raw.decode(encoding)


@dataclass
class _AffReader:
    """What an ``.aff`` file has said so far, read a line at a time (:meth:`line`): a
    directive may depend on an earlier one (``FLAG`` on how flags are written, an affix
    rule on its block's header, an alias on the ``AF``/``AM`` tables)."""

    path: Path
    flag_type: str = "short"
    flag_aliases: list[frozenset[str]] = field(default_factory=list)
    morph_aliases: list[tuple[str, ...]] = field(default_factory=list)
    prefixes: dict[str, list[Affix]] = field(default_factory=dict)
    suffixes: dict[str, list[Affix]] = field(default_factory=dict)
    special: dict[str, str] = field(default_factory=dict)
    complexprefixes: bool = False
    fullstrip: bool = False
    directives: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    alias_headers: set[str] = field(default_factory=set)  # "AF"/"AM" once their count was read
    #: (kind, flag) -> (cross_product, rules still expected in the open block)
    blocks: dict[tuple[str, str], tuple[bool, int]] = field(default_factory=dict)

    def flags_of(self, text: str) -> frozenset[str]:
        """Continuation flags, which may be AF aliases too (Hunspell treats them alike)."""
        if self.flag_aliases and text.isdigit():
            index = int(text)
            if 1 <= index <= len(self.flag_aliases):
                return self.flag_aliases[index - 1]
            log.warning("%s: continuation alias %s out of range", self.path, text)
            return frozenset()
        return frozenset(_split_flags(text, self.flag_type))

    def line(self, lineno: int, line: str) -> None:
        """Take one line of the file into account."""
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            return
        name = tokens[0]
        if name == "SET":
            return
        if name == "FLAG" and len(tokens) > 1:
            self.flag_type = {"long": "long", "num": "num", "utf-8": "UTF-8"}.get(
                tokens[1].lower(), "short"
            )
        elif name == "AF" and len(tokens) > 1:
            # The first "AF n" line is the count; every later one is an alias.
            if "AF" in self.alias_headers:
                self.flag_aliases.append(frozenset(_split_flags(tokens[1], self.flag_type)))
            else:
                self.alias_headers.add("AF")
        elif name == "AM" and len(tokens) > 1:
            if "AM" in self.alias_headers:
                self.morph_aliases.append(tuple(_strip_comment(tokens[1:], 1)))
            else:
                self.alias_headers.add("AM")
        elif name in ("PFX", "SFX") and len(tokens) >= 4:
            self.affix_line(name, tokens, lineno, line)
        elif name in _FLAG_DIRECTIVES and len(tokens) > 1:
            self.special[_FLAG_DIRECTIVES[name]] = next(
                iter(_split_flags(tokens[1], self.flag_type)), tokens[1]
            )
        elif name == "COMPLEXPREFIXES":
            self.complexprefixes = True
        elif name == "FULLSTRIP":
            self.fullstrip = True
        else:
            self.directives.setdefault(name, []).append(tuple(tokens[1:]))

    def affix_line(self, name: str, tokens: list[str], lineno: int, line: str) -> None:
        """A ``PFX``/``SFX`` line: a block's header, or one rule of the open block."""
        flag = next(iter(_split_flags(tokens[1], self.flag_type)), tokens[1])
        key = (name, flag)
        table = self.prefixes if name == "PFX" else self.suffixes
        cross, remaining = self.blocks.get(key, (False, 0))
        if remaining == 0:
            # Header: "SFX flag Y|N count".
            if tokens[2] not in ("Y", "N") or not tokens[3].isdigit():
                log.warning("%s:%d: bad affix header %r", self.path, lineno, line)
                return
            self.blocks[key] = (tokens[2] == "Y", int(tokens[3]))
            table.setdefault(flag, [])
            return
        self.blocks[key] = (cross, remaining - 1)
        tokens = _strip_comment(tokens, 4)
        strip = "" if tokens[2] == "0" else tokens[2]
        add, _, cont = tokens[3].partition("/")
        add = "" if add == "0" else add
        condition = tokens[4] if len(tokens) > 4 else "."
        morph = tuple(tokens[5:])
        if self.morph_aliases and len(morph) == 1 and morph[0].isdigit():
            index = int(morph[0])
            if 1 <= index <= len(self.morph_aliases):
                morph = self.morph_aliases[index - 1]
        affix = Affix(
            kind=name,
            flag=flag,
            cross_product=cross,
            strip=strip,
            add=add,
            condition=condition,
            cont_flags=self.flags_of(cont) if cont else frozenset(),
            morph=morph,
        )
        rules = table.setdefault(flag, [])
        if affix not in rules:  # hunspell-hr defines "PFX UB" twice, identically
            rules.append(affix)

    def aff(self, encoding: str) -> Aff:
        """Everything read, as the frozen :class:`Aff`."""
        return Aff(
            encoding=encoding,
            flag_type=self.flag_type,
            flag_aliases=tuple(self.flag_aliases),
            morph_aliases=tuple(self.morph_aliases),
            prefixes=MappingProxyType({k: tuple(v) for k, v in self.prefixes.items()}),
            suffixes=MappingProxyType({k: tuple(v) for k, v in self.suffixes.items()}),
            complexprefixes=self.complexprefixes,
            fullstrip=self.fullstrip,
            directives=MappingProxyType({k: tuple(v) for k, v in self.directives.items()}),
            **self.special,
        )


# --------------------------------------------------------------------------------------
# Reading .dic
# --------------------------------------------------------------------------------------

# Hunspell starts the morphological part at whitespace followed by two characters
# and a colon ("kot/N po:noun"), or at the first TAB, whichever comes first.
_MORPH_START = re.compile(r"[ \t]..:")


def read_dic(path: Path, aff: Aff) -> Iterator[DicEntry]:
    """Stream the entries of a ``.dic`` file, decoded with the ``.aff``'s ``SET``.

    The first line (the entry count) is skipped if numeric. Stems are stripped of
    surrounding whitespace (hunspell-sr has ``Лисак `` with a trailing space); a
    ``/`` at position 0 or escaped as ``\\/`` belongs to the stem.
    """
    flag_cache: dict[str, frozenset[str]] = {"": frozenset()}
    with open(path, encoding=aff.encoding, newline="") as handle:
        first = True
        for line in handle:
            line = line.rstrip("\r\n")
            if first:
                first = False
                line = line.lstrip("\ufeff")
                if line.strip().isdigit():
                    continue
            if not line.strip():
                continue
            morph: tuple[str, ...] = ()
            cut = -1
            found = _MORPH_START.search(line, 1)
            if found:
                cut = found.start()
            tab = line.find("\t")
            if tab != -1 and (cut == -1 or tab < cut):
                cut = tab
            if cut != -1:
                morph = tuple(line[cut:].split())
                line = line[:cut]
                if aff.morph_aliases and len(morph) == 1 and morph[0].isdigit():
                    index = int(morph[0])
                    if 1 <= index <= len(aff.morph_aliases):
                        morph = aff.morph_aliases[index - 1]
            slash = line.find("/", 1)
            while slash != -1 and line[slash - 1] == "\\":
                line = line[: slash - 1] + line[slash:]  # "\/" -> "/"
                slash = line.find("/", slash)
            if slash == -1:
                stem, flag_text = line, ""
            else:
                stem, flag_text = line[:slash], line[slash + 1 :].strip()
            stem = stem.strip()
            if not stem:
                continue
            flags = flag_cache.get(flag_text)
            if flags is None:
                flags = flag_cache[flag_text] = aff.decode_flags(flag_text)
            yield DicEntry(stem=stem, flags=flags, morph=morph)


# --------------------------------------------------------------------------------------
# Expansion
# --------------------------------------------------------------------------------------

# A chain of suffixes applied to the stem: (resulting word, rules inner-first).
_Chain = tuple[str, tuple[_Rule, ...]]


def _suffix_chains(
    compiled: _Compiled, word: str, flags: Iterable[str], twofold: bool
) -> Iterator[_Chain]:
    """One suffix from ``flags``, and (if ``twofold``) a second from its continuation."""
    tables = compiled.suffixes
    for flag in flags:
        table = tables.get(flag)
        if table is None:
            continue
        for form, rule in table.apply(word):
            yield form, rule.alone
            if twofold and rule.cont:
                for flag2 in sorted(rule.cont):
                    table2 = tables.get(flag2)
                    if table2 is not None:
                        for form2, rule2 in table2.apply(form):
                            yield form2, (rule, rule2)


def _valid(
    stem_needs_affix: bool, prefixes: tuple[_Rule, ...], suffixes: tuple[_Rule, ...]
) -> bool:
    """Hunspell's NEEDAFFIX and CIRCUMFIX constraints for a finished combination.

    NEEDAFFIX (on the stem or on an affix) means "not a word by itself": at least
    one applied affix must be an ordinary one. CIRCUMFIX: when there is a suffix,
    circumfix affixes must appear on both sides or not at all. A circumfix prefix
    with no suffix is accepted, because Hunspell only tests circumfixes while
    checking a suffix (libhunspell 1.7 accepts "leg+nagy" if the stem has the flag).
    """
    rules = prefixes + suffixes
    if not rules:
        return not stem_needs_affix
    if (stem_needs_affix or any(r.needaffix for r in rules)) and all(r.needaffix for r in rules):
        return False
    if not suffixes:
        return True
    return any(r.circumfix for r in prefixes) == any(r.circumfix for r in suffixes)


class _Emitter:
    """Builds :class:`Form` objects for one entry, skipping exact repeats and
    combinations that break NEEDAFFIX/CIRCUMFIX (checked only if the .aff uses them)."""

    __slots__ = ("check", "flags", "needs_affix", "seen", "stem")

    def __init__(self, entry: DicEntry, needs_affix: bool, check: bool) -> None:
        self.stem = entry.stem
        self.flags = entry.flags
        self.needs_affix = needs_affix
        self.check = check
        self.seen: set[tuple[str, tuple[str, ...]]] = set()

    def __call__(self, form: str, pfx: tuple[_Rule, ...], sfx: tuple[_Rule, ...]) -> Form | None:
        if self.check and not _valid(self.needs_affix, pfx, sfx):
            return None
        if not pfx and len(sfx) == 1:
            affixes: tuple[str, ...] = (sfx[0].flag,)
        else:
            affixes = tuple(r.flag for r in pfx) + tuple(r.flag for r in sfx)
        key = (form, affixes)
        if key in self.seen:
            return None
        self.seen.add(key)
        return Form(form=form, stem=self.stem, stem_flags=self.flags, affixes=affixes)


def expand_entry(entry: DicEntry, aff: Aff) -> Iterator[Form]:
    """Yield every form of one ``.dic`` entry (see the module docstring for the rules).

    Identical ``Form`` values (same word from the same affix flags) are yielded
    once; the same word reached by different affix flags is yielded once per path
    so callers can see every analysis. Flags are tried in sorted order, so the forms
    come out in the same order in every process (builds are reproducible).
    """
    flags = entry.flags
    if aff.forbiddenword is not None and aff.forbiddenword in flags:
        return
    if aff.onlyincompound is not None and aff.onlyincompound in flags:
        return  # Hunspell rejects such a stem outside compounds, affixed or not
    compiled = aff._compiled
    stem = entry.stem
    needs_affix = aff.needaffix is not None and aff.needaffix in flags
    emit = _Emitter(
        entry, needs_affix, needs_affix or compiled.needaffix_used or compiled.circumfix_used
    )
    prefix_tables = compiled.prefixes
    suffix_tables = compiled.suffixes
    twofold = compiled.has_cont and not aff.complexprefixes
    stem_prefix_flags = [f for f in sorted(flags) if f in prefix_tables]

    # 1. The bare stem.
    if not needs_affix:
        made = emit(stem, (), ())
        if made:
            yield made

    # 2. Suffix chains from the stem's own flags, alone and under a prefix. The
    #    prefix may come from the stem or from a suffix's continuation flags.
    stem_suffix_flags = [f for f in sorted(flags) if f in suffix_tables]
    for form, sfx in _suffix_chains(compiled, stem, stem_suffix_flags, twofold):
        made = emit(form, (), sfx)
        if made:
            yield made
        if not prefix_tables or not all(r.cross for r in sfx):
            continue
        if compiled.has_cont:
            pflags: Iterable[str] = [
                f for f in sorted(flags.union(*(r.cont for r in sfx))) if f in prefix_tables
            ]
        else:
            pflags = stem_prefix_flags
        for pflag in pflags:
            for pform, pfx in prefix_tables[pflag].apply(form):
                if pfx.cross:
                    yield from _with_prefix(aff, emit, pform, pfx.alone, sfx)

    # 3. Prefixes on the bare stem; and suffixes that only the prefix's
    #    continuation flags allow (the prefix goes on the suffixed word).
    for pflag in stem_prefix_flags:
        for pform, pfx in prefix_tables[pflag].apply(stem):
            yield from _with_prefix(aff, emit, pform, pfx.alone, ())
            extra = [f for f in sorted(pfx.cont) if f in suffix_tables and f not in flags]
            if not extra or not pfx.cross:
                continue
            for form, sfx in _suffix_chains(compiled, stem, extra, twofold):
                if all(r.cross for r in sfx) and pfx.test(form):
                    pform2 = pfx.add + form[pfx.strip_len :]
                    yield from _with_prefix(aff, emit, pform2, pfx.alone, sfx)


def _with_prefix(
    aff: Aff, emit: _Emitter, form: str, pfx: tuple[_Rule, ...], sfx: tuple[_Rule, ...]
) -> Iterator[Form]:
    """Emit a prefixed form, and with COMPLEXPREFIXES a second (outer) prefix on it."""
    made = emit(form, pfx, sfx)
    if made:
        yield made
    if aff.complexprefixes and len(pfx) == 1:
        inner = pfx[0]
        for flag2 in sorted(inner.cont):
            table = aff._compiled.prefixes.get(flag2)
            if table is None:
                continue
            for form2, outer in table.apply(form):
                if not sfx or outer.cross:
                    yield from _with_prefix(aff, emit, form2, (outer, inner), sfx)


def declared_entries(dic_path: Path) -> int | None:
    """The entry count a ``.dic`` file declares on its first line (None if it has none).

    Hunspell takes it as a size hint only, so it may be a little off; a progress bar takes
    it as the total of a walk over the entries."""
    with open(dic_path, "rb") as handle:
        first = handle.readline().lstrip(b"\xef\xbb\xbf").strip()
    return int(first) if first.isdigit() else None


ENTRY_BATCH = 1000   # entries between two ``on_entries`` calls of :func:`expand`


def expand(dic_path: Path, aff_path: Path,
           on_entries: Callable[[int], None] | None = None) -> Iterator[Form]:
    """Stream every form of a dictionary.

    If the ``.aff`` declares ``FORBIDDENWORD``, a first quick pass over the
    ``.dic`` collects forbidden stems, and forms equal to one are dropped: in
    Hunspell a forbidden entry vetoes that word even if another stem generates it.
    ``on_entries(n)`` is told every ``ENTRY_BATCH`` entries how many were expanded since
    its last call (a build's progress, against :func:`declared_entries`).
    """
    aff = read_aff(aff_path)
    forbidden: set[str] = set()
    if aff.forbiddenword is not None:
        forbidden = {e.stem for e in read_dic(dic_path, aff) if aff.forbiddenword in e.flags}
    pending = 0
    for entry in read_dic(dic_path, aff):
        if forbidden:
            for form in expand_entry(entry, aff):
                if form.form not in forbidden:
                    yield form
        else:
            yield from expand_entry(entry, aff)
        pending += 1
        if on_entries is not None and pending >= ENTRY_BATCH:
            on_entries(pending)
            pending = 0
    if on_entries is not None and pending:
        on_entries(pending)


def _main(argv: list[str]) -> int:
    """``python -m sources.hunspell DIC AFF [--print]``: count (or print) the forms."""
    if len(argv) < 2:
        print(_main.__doc__, file=sys.stderr)
        return 2
    start = time.perf_counter()
    total = 0
    unique: set[str] = set()
    printing = "--print" in argv[2:]
    for form in expand(Path(argv[0]), Path(argv[1])):
        total += 1
        if printing:
            print(form.form)
        else:
            unique.add(form.form)
    elapsed = time.perf_counter() - start
    if not printing:
        print(f"forms={total} unique={len(unique)} seconds={elapsed:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
