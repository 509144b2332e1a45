"""What a source's word list gains and loses between two editions, before any rebuild.

A maintainer moving a pin to a new edition must see what changes: how many spellings come
and go, and above all which *kinds* of change, because a kind is decided once (a rule, a
profile switch, a reviewed list), not word by word. Between two editions of the Polish
list, for instance, most removed forms fall in two kinds (docs/sources.md): names of
inhabitants written with a capital letter after the 2026 spelling reform (``moskwianin`` ->
``Moskwianin``) and nouns in *-skość* derived from place-name adjectives, which sjp.pl
deleted.

A kind is a :class:`ChangeClass`: a name, a sentence, the side it applies to and a small
predicate over one spelling and the whole change. Adding a kind is adding one to
``CLASSES``. Every spelling is counted in the first class whose predicate holds, or as
unclassified.

What a source's "word list" is depends on what its package holds, found by content, one
small reader each (:data:`READERS`): a plain list under ``usr/share/dict``, hunspell
``.dic``/``.aff`` pairs (expanded), dictd headwords, MyThes headwords, an aspell list, the
surfaces of apertium generators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from lexicon.changes import SAMPLES, class_lines, sample
from lexicon.errors import SourceError
from lexicon.game.shapes import skosc_derivation

Side = Literal["added", "removed"]


# -- the word list of an unpacked package --------------------------------------------------

def _plain_lists(root: Path) -> Iterator[str]:
    from lexicon.sources.wordlist import read_wordlist
    for path in sorted((root / "usr/share/dict").glob("*")):
        if path.is_file() and not path.name.startswith("README"):
            yield from read_wordlist(path)


def _hunspell_forms(root: Path) -> Iterator[str]:
    from lexicon.sources.hunspell import expand
    for dic in sorted(root.rglob("*.dic")):
        aff = dic.with_suffix(".aff")
        if aff.exists() and not dic.is_symlink():
            yield from (f.form for f in expand(dic, aff))


def _dictd_headwords(root: Path) -> Iterator[str]:
    from lexicon.sources import freedict
    yield from freedict.by_headword(root, unlabelled=True)


def _thesaurus_headwords(root: Path) -> Iterator[str]:
    from lexicon.sources import mythes
    yield from mythes.by_headword(root)


def _aspell_words(root: Path) -> Iterator[str]:
    from lexicon.sources import aspell
    path = aspell.find_file(root)
    yield from aspell.read_words(path, aspell.charset(root, path.name.split(".")[0]))


def _generator_surfaces(root: Path) -> Iterator[str]:
    from lexicon.sources.lttoolbox import iter_pairs
    for path in sorted(root.rglob("*.autogen.bin")):
        yield from (surface for surface, _ in iter_pairs(path, "output"))


#: (what the package holds, how its words are read), tried in order; the first that holds
READERS: list[tuple[str, Callable[[Path], bool], Callable[[Path], Iterator[str]]]] = [
    ("plain word list (usr/share/dict)", lambda r: any((r / "usr/share/dict").glob("*")),
     _plain_lists),
    ("hunspell forms (.dic/.aff, expanded)", lambda r: any(r.rglob("*.aff")), _hunspell_forms),
    ("dictd headwords (FreeDict)", lambda r: any(r.rglob("*.index")), _dictd_headwords),
    ("MyThes headwords", lambda r: any(r.rglob("th_*.dat")), _thesaurus_headwords),
    ("aspell word list (.cwl)", lambda r: any(r.rglob("*.cwl*")), _aspell_words),
    ("apertium generator surfaces", lambda r: any(r.rglob("*.autogen.bin")),
     _generator_surfaces),
]


def word_list(root: Path) -> tuple[str, set[str]]:
    """What kind of list an unpacked package holds, and its spellings."""
    for what, holds, read in READERS:
        if holds(root):
            return what, set(read(root))
    raise SourceError(f"{root}: no word list this project can read (plain list, hunspell, "
                      "dictd, MyThes, aspell, apertium generators)")


# -- kinds of change -----------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """Both editions' spellings, with the lower-case index the predicates need."""

    added: frozenset[str]
    removed: frozenset[str]

    def lower_added(self) -> dict[str, list[str]]:
        return _by_lower(self.added)

    def lower_removed(self) -> dict[str, list[str]]:
        return _by_lower(self.removed)


def _by_lower(words: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for w in words:
        out.setdefault(w.lower(), []).append(w)
    return out


@dataclass(frozen=True)
class ChangeClass:
    name: str
    side: Side
    description: str
    test: Callable[[str, Change, dict[str, dict[str, list[str]]]], bool]


def _capitalised(w: str, _c: Change, idx: dict[str, dict[str, list[str]]]) -> bool:
    """A lower-case spelling that went, while a capitalised spelling of it came."""
    return w == w.lower() and any(a != w for a in idx["added"].get(w, ()))


def _lowercased(w: str, _c: Change, idx: dict[str, dict[str, list[str]]]) -> bool:
    """A capitalised spelling that went, while its lower-case spelling came."""
    return w != w.lower() and w.lower() in idx["added"].get(w.lower(), ())


def _newly_capitalised(w: str, _c: Change, idx: dict[str, dict[str, list[str]]]) -> bool:
    """The added side of :func:`_capitalised`."""
    return w != w.lower() and w.lower() in idx["removed"].get(w.lower(), ())


def _newly_lowercase(w: str, _c: Change, idx: dict[str, dict[str, list[str]]]) -> bool:
    return w == w.lower() and any(r != w for r in idx["removed"].get(w, ()))


def _skosc(w: str, _c: Change, _idx: dict[str, dict[str, list[str]]]) -> bool:
    return skosc_derivation(w)


CLASSES: list[ChangeClass] = [
    ChangeClass("capitalised", "removed", "only the capitalisation changed: the lower-case "
                "spelling went, a capitalised one came (moskwianin -> Moskwianin)",
                _capitalised),
    ChangeClass("lowercased", "removed", "only the capitalisation changed: a capitalised "
                "spelling went, its lower-case one came", _lowercased),
    ChangeClass("skosc_derivation", "removed", "a noun in -skość/-ckość or one of its forms, "
                "derived from a -ski/-cki adjective, mostly of a place name (bełchatowskość)",
                _skosc),
    ChangeClass("capitalised", "added", "the capitalised spelling of a lower-case one that "
                "went (Moskwianin)", _newly_capitalised),
    ChangeClass("lowercased", "added", "the lower-case spelling of a capitalised one that "
                "went", _newly_lowercase),
    ChangeClass("skosc_derivation", "added", "a noun in -skość/-ckość or one of its forms",
                _skosc),
]


def compare(old: set[str], new: set[str], classes: list[ChangeClass] | None = None,
            samples: int = SAMPLES) -> dict[str, Any]:
    """Counts, classes and samples of what ``new`` adds to and removes from ``old``."""
    change = Change(frozenset(new - old), frozenset(old - new))
    idx = {"added": change.lower_added(), "removed": change.lower_removed()}
    out: dict[str, Any] = {"old_count": len(old), "new_count": len(new)}
    for side in ("added", "removed"):
        words = change.added if side == "added" else change.removed
        buckets: dict[str, list[str]] = {}
        for w in words:
            name = next((k.name for k in classes or CLASSES
                         if k.side == side and k.test(w, change, idx)), "unclassified")
            buckets.setdefault(name, []).append(w)
        described = {k.name: k.description for k in classes or CLASSES if k.side == side}
        out[side] = {
            "count": len(words),
            "classes": {name: {"count": len(ws), "description": described.get(
                name, "none of the classes above"), "samples": sample(ws, samples)}
                for name, ws in sorted(buckets.items(), key=lambda kv: -len(kv[1]))},
        }
    return out


def as_text(result: dict[str, Any]) -> str:
    head = (f"{result['source']}: {result['old']['version']} -> {result['new']['version']} "
            f"({result['what']}): {result['old_count']:,} -> {result['new_count']:,} spellings")
    lines = [head]
    for side in ("added", "removed"):
        part = result[side]
        lines.append(f"  {side}: {part['count']:,}")
        lines += class_lines(part["classes"], "    ")
    return "\n".join(lines)

