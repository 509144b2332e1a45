"""What the offline checker is compared with the server on: every key of a release, in both
scripts and cases, plus the inputs where a second implementation would go wrong (digraph
ambiguities, tile notation, Cyrillic, jokers, control characters, lengths, spaces).

Shared by the real-browser test (``tests/page/test_offline.py``) and the benchmark
(``tools/offline_bench.py``), which both run ``service/static/offline.js`` in Chromium and
compare its answers with the server's, field by field (:func:`project`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import Any

TRICKY = [
    "ljubav", "LJUBAV", "Ljubav", "ЉУБАВ", "lubav", "l|jubav", "[lj]ubav", "[l]jubav",
    "nadživeti", "nad|živeti", "na[dž]iveti", "nadzivjeti", "konj", "kon|j", "njiva", "n|jiva",
    "kući", "KUĆI", "džep", "d|žep", "[dž]ep", "DŽEP", "Džep", "sunce", "kuća\u0301",
    "ljubav\u0000", "ljub\u200bav", "lju\u202ebav", "ljubavljubavljubavljubav", "x" * 65,
    "x" * 64, " kot ", "kot\u00a0", "\tkot\n", "zażółć", "ZAŻÓŁĆ", "np", "ok", "e-mail",
    "kot-", "ko t", "ko  t", "kacin", "Kacin", "kiwi", "KIWI", "kivi", "kajak", "k[o", "ko]t",
    "[]a", "[q]ot", "[ż]ółw", "a", "ab", "aaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa", "|", "||",
    "ljubaв", "ǉubav", "ǈubav", "Ǉubav", "ǅep", "ljubav ljubav", "tok", "kto", "qwerty",
    "\u00e1", "źdźbło", "kot'", "kot’", "12", "sunce|", "su|nce", "ЊИВА", "њива", "кон|ј",
    "lj" * 9, "nj" * 12, "dž" * 40, "ljnjdž", "[lj][nj][dž]", "k\u0301ot", "kóot", "ℌ",
    "ﬁ", "x²", "ø", "ⓚⓞⓣ", "kot😀", "𝐤𝐨𝐭", "ß", "İ", "ſ", "\ufeffkot", "ko\u00adt",
]


#: What random inputs are drawn from: letters of every game in both cases and scripts,
#: Unicode's digraph letters, combining marks, spaces of several kinds, controls and
#: invisible characters, tile notation, punctuation, digits and astral characters.
FUZZ_POOL = ("aąbcćčdđeęfghijklłmnńoóprsśštuvwyzźżž" "AĄĆČĐĘŁŃÓŚŠŹŻŽ" "абвгдђежзијклљмнњоп"
             "рстћуфхцчџш" "ЉЊЏЂЋ" "ǄǅǆǇǈǉǊǋǌǱǲǳ" "\u0301\u0307\u0328\u030c" " \u00a0\u2003\t"
             "\u0000\u001f\u007f\u0085\u200b\u200d\u2028\ufeff" "|[]?-'’.1x" "😀𝐤ﬁ²ß")


def fuzz(n: int, seed: int = 32) -> list[str]:
    """``n`` random texts of 1 to 20 characters from :data:`FUZZ_POOL`: where two readers of
    typed text (normalisation, spaces, scripts, notation) would part, a few hundred random
    texts find it."""
    rng = random.Random(seed)
    return ["".join(rng.choice(FUZZ_POOL) for _ in range(rng.randint(1, 20)))
            for _ in range(n)]


def variants(key: str, latin: str) -> list[str]:
    """A key as a referee may type it: Latin and stored forms, upper case, with spaces
    around, with a ``|`` between the first two letters."""
    out = [key, latin, latin.upper(), latin.capitalize(), f" {latin} "]
    if len(latin) > 1:
        out.append(latin[0] + "|" + latin[1:])
    return out


def inputs(keys: Iterable[str], to_latin: Any, *, lengths: Iterable[int] = (),
           limit: int | None = None, seed: int = 32) -> list[str]:
    """Every key's :func:`variants`, :data:`TRICKY`, :func:`fuzz` texts and a word of each
    length around the game's limits (``lengths``: its minimum, edge minimum and maximum),
    deduplicated in order; ``limit`` samples that many of the keys (the benchmark on a
    real release)."""
    keys = list(keys)
    if limit is not None and len(keys) > limit:
        keys = random.Random(seed).sample(keys, limit)
    seen: dict[str, None] = {}
    for key in keys:
        for v in variants(key, to_latin(key)):
            seen.setdefault(v, None)
    for t in TRICKY:
        seen.setdefault(t, None)
    for t in fuzz(300, seed):
        seen.setdefault(t, None)
    for n in lengths:
        for m in (n - 1, n, n + 1):
            seen.setdefault("ab" * (m // 2) + "a" * (m % 2), None)
            seen.setdefault("lj" * m, None)
    return list(seen)


def project(answer: dict[str, Any]) -> dict[str, Any]:
    """What must agree between the server and the browser: the error's code, or the
    verdict, the reason's code and text, the tiles, the score (and Remik's opening
    score), the other readings and the jokers a word needs."""
    if "error" in answer:
        return {"error": answer["error"]["code"]}
    reason = answer.get("reason")
    return {
        "valid": answer["valid"], "tiles": answer["tiles"], "score": answer["score"],
        "reason": reason and [reason["code"], reason["message"]],
        "alternatives": [[a["tiles"], a["known"], a["valid"]] for a in answer["alternatives"]],
        "jokers_needed": answer["jokers_needed"], "opening_score": answer.get("opening_score"),
    }


def tiling_reading(answer: dict[str, Any]) -> bool:
    """Does the answer's reading hold a multi-letter tile, or the letters one is spelled
    with as tiles of their own (L J, N J, D Ž)? A pack of the keys tiling needs holds the
    reason of such a key (``lexicon.export.offline.tiling_sequences``)."""
    tiles = answer["tiles"]
    return bool({"LJ", "NJ", "DŽ"} & set(tiles)
                or {("L", "J"), ("N", "J"), ("D", "Ž")} & set(itertools.pairwise(tiles)))


def agrees(want: dict[str, Any], have: dict[str, Any], tiling_only: bool = False) -> bool:
    """Does the browser's projected answer ``have`` agree with the server's ``want``? Equal;
    or, for a pack that holds only the keys tiling needs (``tiling_only``), equal in the
    verdict, the tiles, the score and every other reading the release knows, where

    * the reason may be ``needs_server``, on a word the server rejects and whose reading is
      no tiling key: the pack does not hold its reason;
    * the other readings the release does not know may be listed differently: the server
      lists a split reading (L+J) whose first letters some rejected word begins with, and
      the pack does not hold every rejected word."""
    if not tiling_only:
        return have == want
    if have.get("reason") and have["reason"][0] == "needs_server":
        if want.get("valid", True) or tiling_reading(have):
            return False
        have, want = {**have, "reason": None}, {**want, "reason": None}

    def known(answer: dict[str, Any]) -> dict[str, Any]:
        if "alternatives" not in answer:
            return answer
        return {**answer, "alternatives": [a for a in answer["alternatives"] if a[1]]}
    return known(have) == known(want)
