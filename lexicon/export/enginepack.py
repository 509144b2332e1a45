"""The engine pack: one folder a move generator loads as it is (``export --format engine``).

An engine author needs more than a word graph: the numbers of the tiles (the alphabet
file), the bag (a letter distribution), the board, and the rules the files cannot carry.
The pack writes all of it from the release and the game's profile:

* ``GAME.kwg`` (or ``GAME.kbwg``, wolges' big KWG, when the KWG's 22-bit arc index cannot
  address the graph: the Polish GADDAG) with the words a move on the board's inside lays;
* for a game with edge words (Kvizovka: 3 tiles, only vertically against the board's edge)
  ``GAME-edge.kwg`` and ``GAME-edge.txt`` (a word list, one word a line in the canonical
  letters, as the ``words`` export writes them) with those words apart, so an engine that
  loads the main KWG alone never plays them in the middle of the board;
* ``GAME.alphabet.txt`` (wolges' alphabet columns, with alias labels that make a word list
  unambiguous, :func:`lexicon.export.kwg.aliases`) and ``GAME.csv`` (the letter
  distribution as wolges and MAGPIE lay it out: ``UPPER,lower,count,score,is_vowel``, the
  joker ``?`` first, then the tiles in KWG order, multi-letter tiles such as LJ as one
  row), both from :func:`lexicon.export.kwg.alphabet_rows`;
* ``board.json`` (size, start square, premium squares where the rule book or the standard
  board fixes them, marked provisional where it does not);
* ``pack.json`` (release id, the release's content hash and each lexicon file's, every
  file's sha256, README.txt's included, the rules the files cannot carry, which data is
  provisional, how to spell a word list) and a ``README.txt`` saying the same for a
  person.

Tile numbers are the profile's (``Profile.alphabet``, :class:`lexicon.game.profile.Alphabet`),
which follow the stock wolges alphabet where one exists for the same letters (Polish,
Slovene).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.export import kwg
from lexicon.export.playable import Identity, valid_keys
from lexicon.game.profile import Profile
from lexicon.store.release import Release

PACK_FORMAT = 1


def _split(profile: Profile, keys: list[str]) -> tuple[list[str], list[str]]:
    """(inside, edge): the words any move lays, and those only an edge move lays."""
    low = profile.min_length
    if profile.edge_min_length is None or profile.edge_min_length >= low:
        return keys, []
    return [k for k in keys if len(k) >= low], [k for k in keys if len(k) < low]


def _lexicon(words: list[str], profile: Profile, say: Callable[[str], None]
             ) -> tuple[bytes, str, dict[str, Any]]:
    """The KWG bytes of ``words`` and its format: the KWG when it fits, else the big KWG
    (the graph is built once; only the node encoding differs)."""
    graph = kwg.Graph(kwg.encode_words(profile, words), say, limit=kwg.MAX_BIG_NODES,
                      big=True)   # too large for both formats: fails as soon as that is known
    try:
        data, fmt = graph.encode(big=False), "kwg"
    except kwg.KwgTooLarge:
        say(f"{graph.size:,} nodes do not fit the KWG's 22-bit arc index: big KWG")
        data, fmt = graph.encode(big=True), "kbwg"
    ident = Identity()
    for w in words:
        ident.add(w)
    return data, fmt, {"nodes": graph.size, **ident.result()}


def board(profile: Profile) -> dict[str, Any]:
    """The board as the profile states it, with the legend of its premium rows."""
    b = dict(profile.engine.board)
    out: dict[str, Any] = {"game": profile.id, "size": b.get("size"), "start": b.get("start"),
                           "start_note": b.get("start_note", ""),
                           "premiums": b.get("premiums"),
                           "premiums_provisional": b.get("premiums_provisional", True),
                           "premiums_source": b.get("premiums_source", "")}
    if out["premiums"] is not None:
        out["legend"] = {"=": "triple word", "-": "double word", '"': "triple letter",
                         "'": "double letter", ".": "plain"}
    return out


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def export_engine(profile: Profile, release: Release, output: Path,
                  log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write the pack into the folder ``output`` (created; each file written atomically)."""
    say = log or (lambda m: print(m, file=sys.stderr, flush=True))
    t0 = time.monotonic()
    rows = kwg.alphabet_rows(profile)      # fails first when the game has no distribution
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    keys = list(valid_keys(profile, release))
    inside, edge = _split(profile, keys)
    say(f"{profile.id}: {len(inside):,} words, {len(edge):,} edge words, "
        f"{time.monotonic() - t0:.1f} s")
    files: dict[str, bytes] = {}
    lexicons: dict[str, Any] = {}
    data, fmt, info = _lexicon(inside, profile, say)
    main = f"{profile.id}.{fmt}"
    files[main] = data
    low, high = profile.min_length, profile.max_length
    lexicons[main] = {"role": "inside", "format": fmt, "lengths": [low, high], **info}
    if edge:
        data, fmt, info = _lexicon(edge, profile, say)
        name = f"{profile.id}-edge.{fmt}"
        files[name] = data
        edge_low = profile.edge_min_length
        lexicons[name] = {"role": "edge", "format": fmt, "lengths": [edge_low, low - 1],
                          **info}
        # the word-list format engines read (the `words` export: one word a line, canonical
        # letters, Kvizovka's Cyrillic): one letter a tile, so wolges' longest-tile-first
        # reader, with the alphabet's alias columns, reads each word exactly
        files[f"{profile.id}-edge.txt"] = "".join(k + "\n" for k in edge).encode()
    files[f"{profile.id}.alphabet.txt"] = kwg.alphabet_text(profile).encode()
    files[f"{profile.id}.csv"] = "".join(
        f"{a},{b},{c},{s},{v}\n" for a, b, c, s, v in rows).encode()
    files["board.json"] = (json.dumps(board(profile), ensure_ascii=False, indent=1)
                           + "\n").encode()
    whole = Identity()
    for k in keys:
        whole.add(k)
    pack: dict[str, Any] = {
        "pack_format": PACK_FORMAT,
        "game": profile.id, "name": profile.name, "rules_version": profile.rules_version,
        "rule_book": profile.rule_book,
        "release": release.id,
        "release_content_hash": release.manifest.get("content_hash"),
        "content_hash": whole.content_hash, "words": len(keys),
        "hash_recipe": "XOR of the MD5 of each word's NFC UTF-8 (the `words` export, "
                       "canonical tiles); `lexicon export GAME | lexicon hash -`",
        "lexicons": lexicons,
        "rack_size": profile.rack_size,
        "lengths": {"min": low, "max": high, "edge_min": profile.edge_min_length},
        "jokers": {"count": profile.jokers.count, "value": profile.jokers.value,
                   "joker_only_letters": list(profile.jokers.extra_letters),
                   "joker_only_value": profile.jokers.extra_value},
        "stock_alphabet": profile.engine.stock_alphabet,
        "tile_order": [t.letter for t in profile.alphabet.engine],
        "values_provisional": profile.values_provisional,
        "counts_provisional": profile.engine.counts_provisional,
        "counts_note": profile.engine.counts_note,
        "rules": list(profile.engine.rules),
        "word_lists": _word_lists(profile),
    }
    files["README.txt"] = _readme(profile, pack).encode()     # says nothing of the hashes
    pack["files"] = {name: {"bytes": len(b), "sha256": _sha256(b)} for name, b in files.items()}
    files["pack.json"] = (json.dumps(pack, ensure_ascii=False, indent=1) + "\n").encode()
    for name, data in files.items():
        atomic.write_bytes(out / name, data)
    return {"format": "engine", "output": str(out), "release": release.id,
            "words": len(keys), "lexicons": {n: {k: v for k, v in lx.items()
                                                 if k != "counts_by_length"}
                                             for n, lx in lexicons.items()},
            "files": sorted(files), "seconds": round(time.monotonic() - t0, 1)}


def _word_lists(profile: Profile) -> str:
    """How an engine must spell words for wolges' word-list reader (``AlphabetReader``,
    longest tile first): said in pack.json and the README, because a Latin Kvizovka word
    list is ambiguous to it and nothing in the files would say so."""
    digraphs = [t.letter for t in profile.alphabet.engine if len(t.letter) > 1]
    if not digraphs:
        return ("one letter a tile: any word list in the labels of the alphabet file is "
                "read exactly")
    shown = "/".join(digraphs)
    return (f"{shown} are one tile each and also two letters ({' '.join(digraphs)} as two "
            f"tiles occur in words: Latin injekcija is N+J, nadživeti D+Ž). wolges' "
            f"word-list reader takes the longest label first and never goes back, so a "
            f"Latin word list is misread. Spell words in the canonical letters, one a "
            f"tile (the `words` export, {profile.id}-edge.txt; the alphabet file lists them "
            f"as alias labels), or with the one-code-point digraphs (Ǉ ǉ Ǌ ǌ Ǆ ǆ, also "
            f"aliases): then every word is read exactly.")


def _readme(profile: Profile, pack: dict[str, Any]) -> str:
    order = pack["tile_order"]
    stock = (f"the order of wolges' stock {pack['stock_alphabet']} alphabet"
             if pack["stock_alphabet"] else "the profile's order (wolges has no stock "
             "alphabet for these letters)")
    lines = [f"{profile.name}: engine pack of release {pack['release']}",
             f"content hash {pack['content_hash']} over {pack['words']:,} words "
             f"({pack['hash_recipe']})", "", "Lexicons:"]
    for name, lx in pack["lexicons"].items():
        lo, hi = lx["lengths"]
        what = ("words an edge move lays (see the rules)" if lx["role"] == "edge"
                else "words any move lays")
        fmt = ("wolges' big KWG (Node24: tile bits 0-5, end bit 6, accepts bit 7, arc "
               "bits 8-31)" if lx["format"] == "kbwg" else "wolges' KWG")
        lines.append(f"  {name}: {lx['words']:,} {what}, {lo}-{hi} tiles; {fmt}, "
                     f"{lx['nodes']:,} nodes, DAWG at node 0, GADDAG at node 1")
    edge = [n for n, lx in pack["lexicons"].items() if lx["role"] == "edge"]
    if edge:
        lines.append(f"  {profile.id}-edge.txt: the same edge words as a word list, one a "
                     "line, in the canonical letters (as `lexicon export "
                     f"{profile.id}` writes them).")
    lines += ["", "The KWG files are wolges' formats: wolges' own decoder (src/kwg.rs) reads "
              "them, DAWG and GADDAG, and its builders make the same graphs from the same "
              "words.",
              "", f"Tiles are numbered 1-{len(order)} in {stock}: {' '.join(order)}; "
              "0 is the joker on a rack and the GADDAG separator.",
              f"{profile.id}.alphabet.txt: wolges' alphabet columns (label, blank label, "
              "count, score, vowel, then the alias labels and the alias blank labels, each "
              f"counted first); {profile.id}.csv: UPPER,lower,count,score,is_vowel (the "
              "joker first).",
              f"Word lists: {pack['word_lists']}",
              "board.json: size, start square, premium squares.",
              "pack.json: the release, the hashes, every file's sha256 (this README's too).",
              ""]
    if pack["values_provisional"]:
        lines.append("PROVISIONAL: tile values are estimated (the rule book prints no table).")
    if pack["counts_provisional"]:
        lines.append(f"PROVISIONAL: tile counts are estimated. {pack['counts_note']}")
    if not pack["values_provisional"] and not pack["counts_provisional"]:
        lines.append("Tile values and counts are the published set.")
    lines += ["", "Rules the files cannot carry:"] + [f"  - {r}" for r in pack["rules"]]
    return "\n".join(lines) + "\n"


def estimate_counts(profile: Profile, keys: list[str] | Any, total: int) -> dict[str, int]:
    """A provisional letter distribution for a game whose rule book publishes only the
    number of letter tiles (Križemkražem: 222): each tile's share of the letters in the
    lexicon's playable words, scaled to ``total`` by largest remainder, every tile at
    least 1 (a bag must be able to deal every letter of the set). Letters only a joker
    plays are left out. Returns letter -> count, summing to ``total``."""
    tiles = [t for t in profile.alphabet.engine if not t.joker_only]
    if total < len(tiles):
        raise ValueError(f"{total} tiles cannot give each of {len(tiles)} letters one")
    freq = dict.fromkeys((t.canonical for t in tiles), 0)
    for key in keys:
        for c in key:
            if c in freq:
                freq[c] += 1
    spare = total - len(tiles)           # one each first, the rest by frequency
    letters = sum(freq.values()) or 1
    shares = {t.letter: spare * freq[t.canonical] / letters for t in tiles}
    counts = {letter: 1 + int(share) for letter, share in shares.items()}
    left = total - sum(counts.values())
    for letter in sorted(shares, key=lambda x: (-(shares[x] - int(shares[x])), x))[:left]:
        counts[letter] += 1
    return counts
