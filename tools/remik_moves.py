"""Remik moves drawn from a word list, for comparing two rulings of the same move.

    python -m tools.remik_moves --count 600 --seed 39 > moves.json

:func:`draw` makes moves of every shape the rule book rules on, from the words of a small
release: rebuilds (a table word gains own letters, in any place), new words, letters broken
off a table word (typed as they lie, or left out), remnants, wrong words, words too short,
tiles the table and the shelf do not hold, openings and re-openings (with Ż, Ź, Ó or not,
long enough or not), the variants, a repeated arrangement, and the referee's word on which
letters came from the shelf. Each move is a dict of ``Lexicon.move``'s arguments (and the
HTTP body's fields). The page test (tests/page/test_remik_offline.py) rules each one on the
server and in the browser; tests/data/remik-moves.json is a corpus of them with their
rulings, which the Python ruling and the browser's both must give.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any

#: the words of the corpus's release: Polish words, and near-words no Polish word list has
WORDS = ["kot", "kota", "koty", "kotek", "kotka", "kotki", "tok", "kto", "okno", "okna",
         "dom", "domy", "domek", "lis", "lisy", "las", "lasy", "ara", "kotara", "pasta",
         "pasy", "nowy", "domowy", "zażółć", "jaźń", "żaba", "żaby", "róża", "róże", "źle",
         "mak", "maki", "rak", "raki", "ser", "sery", "sen", "nos", "nosy", "sok", "soki",
         "kret", "krety", "motyl", "lato", "tama", "mama", "tata", "kasa", "kosa", "osa"]
REJECTED = ["tkot", "okot", "domk", "lisk", "otk", "nosk", "rako", "mokt"]
LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
#: moves that cannot be read: each face refuses them with the same code
UNREADABLE: list[dict[str, Any]] = [
    {"before": ["kot"], "after": ["koty"], "rack": "yq"},                 # bad_rack
    {"before": ["kot"], "after": ["koty"], "rack": "y\u200b"},           # control_character
    {"before": ["kot"], "after": ["koty"], "rack": "y", "variant": 3},   # bad_move
    {"after": ["kotek"], "rack": "kotek", "opening": True, "reopening": True},
    {"before": ["kot"], "after": ["kot", ""], "rack": "y"},              # empty_word
    {"before": ["kot"], "after": ["kot"] * 33, "rack": "y"},             # move_too_large
    {"before": ["domek"], "after": ["dom", "kot"], "rack": "kot", "own": {"las": "l"}},
    {"before": ["domek"], "after": ["dom", "kot"], "rack": "kot", "own": {"kot": "kk"}},
    {"before": ["kot"], "after": ["koty"], "rack": "y", "history": [["las"], None]},
]


def _insert(rng: random.Random, word: str, letters: str) -> str:
    out = list(word)
    for c in letters:
        out.insert(rng.randint(0, len(out)), c)
    return "".join(out)


def _shelf(rng: random.Random, need: str, extra: int) -> str:
    tiles = list(need) + [rng.choice(LETTERS) for _ in range(extra)]
    rng.shuffle(tiles)
    return "".join(tiles)


def _grown(rng: random.Random, table: list[str], pool: list[str]) -> tuple[int, str] | None:
    """A table word's place and a longer word of ``pool`` holding all its letters (the
    word it is rebuilt into), or None when ``pool`` has none."""
    i = rng.randrange(len(table))
    target = [w for w in pool if len(w) > len(table[i]) and not (_count(table[i]) - _count(w))]
    return (i, rng.choice(target)) if target else None


def draw(count: int, seed: int, words: list[str] | None = None) -> list[dict[str, Any]]:
    """``count`` moves (see the module docstring), the same for the same ``seed``."""
    rng = random.Random(seed)
    words = words or WORDS
    vocab = [*words, *REJECTED]
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        shape = rng.randrange(10)
        table = rng.sample(words, rng.randint(1, 3))
        move: dict[str, Any] = {}
        if shape == 0:        # an opening or re-opening: one word from the shelf
            word = rng.choice(vocab)
            rest = rng.sample(words, rng.randint(0, 2))
            extra = [rng.choice(words)] if rng.random() < 0.15 else []
            move = {"before": rest, "after": [*rest, word, *extra],
                    "rack": _shelf(rng, word + "".join(extra), rng.randint(0, 3)),
                    rng.choice(["opening", "reopening"]): True}
        elif shape in (1, 2):  # a table word rebuilt by adding own letters
            grown = _grown(rng, table, vocab)
            if grown is None:
                continue
            i, new = grown
            own = "".join((_count(new) - _count(table[i])).elements())
            move = {"before": table, "after": [*table[:i], new, *table[i + 1:]],
                    "rack": _shelf(rng, own, rng.randint(0, 2))}
        elif shape == 3:      # a new word from the shelf beside the table
            word = rng.choice(vocab)
            move = {"before": table, "after": [*table, word],
                    "rack": _shelf(rng, word, rng.randint(0, 2))}
        elif shape in (4, 5):  # letters broken off a table word: typed or left out
            longer = [w for w in table if len(w) >= 4]
            if not longer:
                continue
            w = rng.choice(longer)
            cut = rng.randint(2, len(w) - 1)
            piece, rest = w[:cut], w[cut:]
            if rng.random() < 0.5:
                piece, rest = w[len(w) - cut:], w[:len(w) - cut]
            word = rng.choice(vocab)
            after = [x for x in table if x != w] + [piece, word]
            if rng.random() < 0.5:
                after.append(rest if rng.random() < 0.7 else "".join(rng.sample(rest, len(rest))))
            move = {"before": table, "after": after,
                    "rack": _shelf(rng, word, rng.randint(0, 2))}
        elif shape == 6:      # a table word's letters taken into a new word with own ones
            w = rng.choice(table)
            target = [x for x in vocab if set(x) & set(w) and x != w]
            if not target:
                continue
            new = rng.choice(target)
            give = _count(new) & _count(w)
            own = "".join((_count(new) - give).elements())
            left = "".join((_count(w) - give).elements())
            after = [x for x in table if x != w] + [new]
            if left and rng.random() < 0.5:
                after.append(left)
            move = {"before": table, "after": after, "rack": _shelf(rng, own, rng.randint(0, 2))}
        elif shape == 7:      # anything: random words after, a random shelf
            after = rng.sample(vocab, rng.randint(1, 3))
            move = {"before": table, "after": after,
                    "rack": "".join(rng.choice(LETTERS) for _ in range(rng.randint(0, 6)))}
        elif shape == 8:      # a word too short, or a table tile left out
            w = rng.choice(table)
            after = [x for x in table if x != w] if rng.random() < 0.5 else [*table, w[:2]]
            move = {"before": table, "after": after or [rng.choice(words)],
                    "rack": _shelf(rng, w[:2], rng.randint(0, 2))}
        else:                 # the referee says where a laid word's letters came from
            grown = _grown(rng, table, words)
            if grown is None:
                continue
            i, new = grown
            rack = "".join(rng.sample(new, len(new)))
            mine = "".join(rng.sample(new, rng.randint(0, len(new))))
            move = {"before": table, "after": [*table[:i], new, *table[i + 1:]], "rack": rack,
                    "own": {new: mine}}
        if rng.random() < 0.3:
            move["variant"] = 2
        if rng.random() < 0.08:
            move["history"] = [list(move["after"])] if rng.random() < 0.7 else [["kot"]]
        moves.append(move)
    return moves + [dict(m) for m in UNREADABLE]


def project(ruling: dict[str, Any]) -> dict[str, Any]:
    """What two rulings of one move must share: everything but the release, the log's time
    and the English details of the reasons (which only the server writes); an error by its
    code."""
    if "error" in ruling:
        error = ruling["error"]
        return {"error": error["code"] if isinstance(error, dict) else error}
    keep = ("kind", "variant", "form_legal", "words_valid", "valid", "verdict", "words",
            "to_shelf", "points", "penalty", "total")
    out = {k: ruling[k] for k in keep}
    out["reasons"] = [[r["code"], r["message"]] for r in ruling["reasons"]]
    out["outcome"] = [ruling["outcome"]["code"], ruling["outcome"]["message"]]
    out["reading"] = ruling["reading"] and ruling["reading"]["code"]
    judge = ruling.get("judge")
    out["judge"] = judge and [judge["verdict"], judge["valid"], judge["count"]]
    return out


def _count(word: str) -> Counter[str]:
    return Counter(word)


def records() -> list[Any]:
    """The corpus's release: :data:`WORDS` admitted, :data:`REJECTED` not."""
    from tests.conftest import rec

    return ([rec(w) for w in WORDS]
            + [rec(w, valid=False, code="unknown", message="not a word") for w in REJECTED])


def rule(lex: Any, move: dict[str, Any], lang: str = "pl") -> dict[str, Any]:
    """The library's ruling of ``move`` (not logged), or ``{"error": {"code": ...}}``."""
    from lexicon.errors import LexiconError

    args = {k: v for k, v in move.items() if k not in ("before", "after", "rack")}
    try:
        return lex.move(move.get("before"), move["after"], move.get("rack", ""), **args,
                        log=False, lang=lang)
    except LexiconError as exc:
        return {"error": {"code": exc.code}}


def corpus(lex: Any, count: int, seed: int) -> dict[str, Any]:
    """``count`` drawn moves with the rulings of ``lex`` (a release of :func:`records`),
    projected (:func:`project`): the corpus file both rulings must give."""
    return {"words": WORDS, "rejected": REJECTED, "lang": "pl",
            "moves": [{"move": m, "ruling": project(rule(lex, m))}
                      for m in draw(count, seed)]}


def main(argv: list[str] | None = None) -> None:
    import argparse
    import tempfile
    from pathlib import Path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--corpus", action="store_true",
                    help="rule the moves on a release of the corpus's words (made in a "
                         "temporary home) and print the corpus file")
    args = ap.parse_args(argv)
    if not args.corpus:
        json.dump(draw(args.count, args.seed), sys.stdout, ensure_ascii=False, indent=0)
        return
    from lexicon.catalog import Catalog
    from tests.conftest import publish

    with tempfile.TemporaryDirectory() as home:
        publish(Path(home), "remik", records())
        out = corpus(Catalog(Path(home)).lexicon("remik"), args.count, args.seed)
    moves = out.pop("moves")        # one move a line: a diff shows which rulings changed
    head = json.dumps(out, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(m, ensure_ascii=False) for m in moves)
    print(f'{head}, "moves": [\n{lines}\n]}}')


if __name__ == "__main__":
    main()
