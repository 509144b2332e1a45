"""The referee page's offline pack: what a phone needs to check a game's words with no network.

A pack is two files per game and release, both derived from the library's own data so the
browser has no second table of rules:

* the *rules* (JSON): the game's profile (tiles, values, jokers, lengths, as ``/v1/games``
  gives it) plus the speller's tables as :class:`~lexicon.game.tiles.Speller` derives them,
  the validity decision's steps in the order they apply, with their codes and limits, as
  :mod:`lexicon.verdicts.validity` writes them, the scores of
  :class:`~lexicon.game.play.PlayRules` (letters, jokers, openings), the input limits and character
  classes of :mod:`lexicon.game.inputs` (as code-point ranges taken from this Python's
  Unicode database, so the browser's own Unicode version cannot make it read differently),
  and the reason codes' texts in every language of the page;
* the *words* (binary): two DAWG-only KWGs one after the other. The first is exactly what
  ``lexicon export GAME --format kwg --dawg-only`` writes (the playable admitted words); the
  second holds every other key the release has a record of, each followed by one extra
  "tile" naming its reason code (an admitted key no move can lay has the code ``""``). The
  second is what lets the browser tile a Latin Kvizovka word the way the server does (the
  first reading with a valid record, else with any record: :func:`lexicon.verdicts.checker.decide`)
  and name the reason of a rejected spelling. Its keys may hold characters that are no tile
  (``e-mail``): those are numbered after the tiles (``foreign`` in the rules), the codes
  after them. In a game with multi-letter tiles (Kvizovka: LJ, NJ, DŽ) it holds only the
  keys tiling needs (:func:`tiling_sequences`: a multi-letter tile, or the letters it is
  spelled with as one tile each) and the admitted keys no move lays: every inflected form
  with its code would more than double the download (Kvizovka's 3.4 million rejected keys,
  1.65 MB against 0.77 MB). Such a pack says so (``others.reasons`` = ``"tiling"``); a word
  it does not hold is not valid, and its reason needs the server (``needs_server``).

A server makes a pack in a child process, this module run as ``python -m`` (see
:mod:`lexicon.export.packmaker`), and keeps it once checked; :func:`job` is what it asks.

What the pack cannot carry (analyses, the specific reason messages, meanings, sources) the
page shows as needing the server. ``static/offline.js`` reads the pack; the test
``tests/page/test_offline.py`` runs it in Chromium against the server's verdicts.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import tempfile
import threading
import time
import unicodedata
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.errors import PackFailed
from lexicon.export import packmaker
from lexicon.export.kwg import MAX_NODES, Graph, encode_words
from lexicon.export.playable import valid_keys
from lexicon.game import inputs
from lexicon.game import profile as profiles
from lexicon.game.gloss import LANGUAGES, PLAYERS_LANGUAGE, keys_language, reason_text
from lexicon.game.play import OPENING_FACTOR, play_rules
from lexicon.game.profile import Profile
from lexicon.game.reasons import REASONS
from lexicon.game.tiles import BREAK, JOIN_CLOSE, JOIN_OPEN, MAX_READINGS, speller
from lexicon.paths import cache_dir
from lexicon.store.records import VALID
from lexicon.store.release import Release
from lexicon.verdicts import remik
from lexicon.verdicts.judge import MAX_PLAY_WORDS
from lexicon.verdicts.validity import validity

#: The pack's layout version: a reader refuses a pack it was not written for.
FORMAT = 1
OFFLINE_FORMAT = FORMAT   # the name the package exports it under
#: The most tile numbers a KWG node holds (8 bits; 0 is no tile).
TILE_NUMBERS = 255
#: Where a pack is kept once made: releases never change, so neither does their pack.
PACK_DIR = "offline"
#: the child process that makes a pack runs this module (:func:`_child`)
MAKER = "lexicon.export.offline"


@dataclass(frozen=True)
class Pack:
    """One game's offline pack for one release (see the module docstring)."""

    rules: dict[str, Any]
    words: bytes          # the two KWGs, uncompressed
    words_gzip: bytes     # the same, gzip -9: what is sent


def _ranges(*tests: Callable[[str], Any]) -> list[dict[Any, list[list[int]]]]:
    """For each of ``tests``, the code-point ranges ``[first, last]`` (inclusive) of the
    characters it gives each true value, as runs of one value over all of Unicode (a
    Python loop a code point would cost a server's first pack seconds)."""
    chars = list(map(chr, range(0x110000)))
    found: list[dict[Any, list[list[int]]]] = []
    for test in tests:
        ranges: dict[Any, list[list[int]]] = {}
        first = 0
        for value, run in groupby(map(test, chars)):
            last = first + sum(1 for _ in run) - 1
            if value:
                ranges.setdefault(value, []).append([first, last])
            first = last + 1
        found.append(ranges)
    return found


@cache
def character_classes() -> dict[str, Any]:
    """The character classes :mod:`lexicon.game.inputs` reads typed text with, as ranges:
    refused (controls, invisible, unassigned ...), letters of each script, and the white
    space Python's ``str.split`` collapses (which is what ``clean_word`` collapses)."""
    # script_of unwrapped: its small lookup cache would only churn over every code point
    refused, scripts, space = _ranges(inputs.refused, inputs.script_of.__wrapped__,
                                      str.isspace)
    return {
        "unicode_version": unicodedata.unidata_version,
        "refused": refused.get(True, []),
        "scripts": {s: scripts.get(s, []) for s in ("Latn", "Cyrl", "Other")},
        "space": space.get(True, []),
        "edge_space": inputs.EDGE_SPACE,
        "digraph_letters": {chr(k): v for k, v in inputs._DIGRAPH_LETTERS.items()},
        "max_word_chars": inputs.MAX_WORD_CHARS,
    }


def _numbering(profile: Profile, others: list[tuple[str, str]]
               ) -> tuple[dict[str, int], list[str], list[str]]:
    """(character -> tile number, foreign characters, reason codes): the tiles in the
    KWG's numbering, then the foreign characters of ``others``' keys by frequency, then
    the codes. Foreign characters past 255 numbers are left out (their keys too)."""
    numbers = dict(profile.alphabet.numbers)
    codes = sorted({code for _k, code in others})
    room = TILE_NUMBERS - len(numbers) - len(codes)
    counts: dict[str, int] = {}
    for key, _code in others:
        for ch in key:
            if ch not in numbers:
                counts[ch] = counts.get(ch, 0) + 1
    foreign = sorted(counts, key=lambda c: (-counts[c], c))[:max(room, 0)]
    for ch in foreign:
        numbers[ch] = len(numbers) + 1
    return numbers, foreign, codes


#: the reason an offline pack gives a word it holds no record of, when it carries only the
#: keys tiling needs: not valid (it is no playable admitted word), why only the server says
NEEDS_SERVER = "needs_server"
NEEDS_SERVER_TEXT = {
    "pl": "powód zna tylko serwer", "sr": "razlog zna samo server",
    "sr-Cyrl": "разлог зна само сервер", "sl": "razlog pozna samo strežnik",
    "en": "only the server knows the reason",
}


def tiling_sequences(profile: Profile) -> list[str]:
    """The key sequences a Latin word's tiling turns on: each multi-letter tile (``љ``) and
    the letters it is spelled with as one tile each (``лј``); [] for a game without
    multi-letter tiles. Every reading of a word the speller can read two ways holds one."""
    spell = speller(profile)
    out = set()
    for spelling, canonical in spell._multi:
        out.add(canonical)
        out.add("".join(spell._canonical[ch] for ch in spelling))
    return sorted(out)


def _others(profile: Profile, release: Release, sequences: list[str]
            ) -> list[tuple[str, str]]:
    """(key, reason code) of every record that is not a playable admitted word: rejected
    records with their code, admitted records no move can lay with ``""``; given the
    game's :func:`tiling_sequences`, only the rejected keys holding one (see the module
    docstring)."""
    playable = play_rules(profile).is_playable
    get = release.getter()           # a pass over every rejected key: caches of its own
    out: list[tuple[str, str]] = []
    for key, raw in release.iter_records():
        if raw[:1] == VALID and playable(key):
            continue
        if raw[:1] == VALID:
            out.append((key, ""))
        elif not sequences or any(s in key for s in sequences):
            record = get(key)
            out.append((key, (record.reason_code if record else None) or "unknown"))
    return out


def _kwg(words: list[bytes]) -> tuple[bytes, str]:
    """A DAWG-only KWG of sorted unique byte strings, in the big layout if it must be."""
    graph = Graph(words, gaddag=False)
    big = graph.size > MAX_NODES
    return graph.encode(big=big), "kbwg" if big else "kwg"


def rules_json(profile: Profile) -> dict[str, Any]:
    """The release-independent part of the rules: profile, speller, play rules, inputs."""
    spell, rules = speller(profile), play_rules(profile)
    reasons = sorted({*REASONS, "unknown"})
    out = {
        "format": FORMAT,
        "game": profile.id,
        "profile": profile.summary(),
        "players_language": PLAYERS_LANGUAGE.get(profile.language, "en"),
        "speller": {
            "canonical": dict(spell._canonical),
            "multi": [list(pair) for pair in spell._multi],
            "latin": {t.canonical: t.spelling for t in profile.tiles},
            "letter": {t.canonical: t.letter for t in profile.tiles},
            "phrases": profile.phrases,
            "max_readings": MAX_READINGS,
            "notation": {"open": JOIN_OPEN, "close": JOIN_CLOSE, "break": BREAK},
            "keys_language": keys_language(profile.scripts),
        },
        "validity": validity(profile).table(),
        "play": {
            "values": rules.values,
            "joker_values": {t.canonical: rules.joker_value(t.canonical)
                             for t in profile.tiles},
            "opening": ({"doubles": rules.opening_doubles, "factor": OPENING_FACTOR}
                        if profile.opening_double_letters else None),
        },
        "inputs": character_classes(),
        "max_play_words": MAX_PLAY_WORDS,
        "reasons": {lang: {**{code: reason_text(code, lang, profile.id) for code in reasons},
                           NEEDS_SERVER: NEEDS_SERVER_TEXT[lang]}
                    for lang in LANGUAGES},
    }
    if profile.opening_min_length is not None:     # a game of table moves (Remik)
        out["move"] = remik.offline_rules(profile)
    return out


def make_pack(profile: Profile, release: Release) -> Pack:
    """The pack of ``release`` for ``profile`` (see the module docstring)."""
    admitted = encode_words(profile, valid_keys(profile, release))
    first, first_fmt = _kwg(admitted)
    del admitted
    sequences = tiling_sequences(profile)
    others = _others(profile, release, sequences)
    numbers, foreign, codes = _numbering(profile, others)
    base = len(numbers)
    code_number = {code: base + 1 + i for i, code in enumerate(codes)}
    entries = sorted({
        bytes([*(numbers[c] for c in key), code_number[code]])
        for key, code in others if all(c in numbers for c in key)})
    left_out = len(others) - len(entries)
    second, second_fmt = _kwg(entries)
    words = first + second
    rules = rules_json(profile)
    rules.update({
        "release": release.id,
        "words": {"admitted": {"offset": 0, "bytes": len(first), "layout": first_fmt},
                  "others": {"offset": len(first), "bytes": len(second),
                             "layout": second_fmt, "keys": len(entries),
                             "left_out": left_out,
                             "reasons": "tiling" if sequences else "all",
                             "tiling": sequences, "unheld_code": NEEDS_SERVER},
                  "numbers": numbers, "foreign": foreign, "codes": codes,
                  "sha256": hashlib.sha256(words).hexdigest()},
    })
    return Pack(rules, words, gzip.compress(words, 9, mtime=0))


#: packs made or read in this process, newest last (a read-only data directory cannot keep
#: them on disk: the rules, the words and the "current" routes must not each make one)
_KEPT: dict[tuple[str, str, str], Pack] = {}
_KEPT_PACKS = 8
#: the pack of each release being read or made now: one job a release, whoever asks
_JOBS: dict[tuple[str, str, str], Future[Pack]] = {}
#: when each failed job in _JOBS failed, and whether an asker has been handed it since: a
#: failure is told before it is tried again (a maker killed while no request waited would
#: otherwise be started again unseen, and a maker that always fails never be reported)
_FAILED: dict[tuple[str, str, str], _Failure] = {}
#: the clock failures are timed by (a seam: a test moves it past a Retry-After)
_clock = time.monotonic
#: guards _KEPT, _JOBS and _FAILED for a few dict operations only: nothing waits on it
_KEPT_LOCK = threading.Lock()
#: one pack made at a time (a big game's child takes a core and hundreds of MB for a
#: while); taken only by the makers' threads, never by a caller
_MAKING = threading.Lock()
#: the threads that read kept packs and wait for the child processes that make new ones
#: (:mod:`lexicon.export.packmaker`), apart from every caller's
_MAKERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="offline-pack")


def kept(profile: Profile, release: Release, root: Path | None = None) -> Pack | None:
    """The pack of ``release`` if this process holds it already, else None: no lock waited
    for, no disk read, so an event loop may ask."""
    return _KEPT.get((str(root), profile.id, release.id))


def job(profile: Profile, release: Release, root: Path | None = None) -> Future[Pack]:
    """The pack of ``release`` as a future: done at once when this process holds it,
    else the one job that reads it from the data directory's cache (checked against the
    sha256 its rules carry) or has a child process make it (:func:`_made`), on the makers'
    threads. Never waits itself, so an event loop may ask, and await the future with a
    bound of its own."""
    name = (str(root), profile.id, release.id)
    with _KEPT_LOCK:
        hit = _KEPT.get(name)
        if hit is not None:
            done: Future[Pack] = Future()
            done.set_result(hit)
            return done
        running = _JOBS.get(name)
        if running is not None and not _tried_again(name, running):
            return running
        _FAILED.pop(name, None)
        running = _JOBS[name] = _MAKERS.submit(_take, name, profile, release, root)
    # outside the lock: a job already ended runs the callback here, at once
    running.add_done_callback(lambda ended: _forget(name, ended))
    return running


@dataclass
class _Failure:
    """A failed job kept to be told: when it failed (monotonic), after how many seconds it
    may be tried again, and whether an asker has been handed it yet."""

    at: float
    retry_after: float
    told: bool = False


def _tried_again(name: tuple[str, str, str], running: Future[Pack]) -> bool:
    """Should the job ``running`` of ``name`` (in _JOBS; under _KEPT_LOCK) be replaced by a
    new one? Only a failed one, once it has been handed to an asker and its
    ``Retry-After`` has passed; handing it out now marks it told."""
    failure = _FAILED.get(name)
    if failure is None:     # running, or just ended and its callback not yet run
        return False
    if failure.told and _clock() - failure.at >= failure.retry_after:
        return True
    failure.told = True
    return False


def making(release: Release) -> bool:
    """Is a job reading or making the pack of ``release`` now? Such a release is in use
    (its records are read), whoever asked for the pack: it must not be closed."""
    return any(rid == release.id and not done.done()
               for (_root, _game, rid), done in list(_JOBS.items()))


def _forget(name: tuple[str, str, str], ended: Future[Pack]) -> None:
    """A job ended: a pack it got is kept already, so the job is dropped; a failed one
    stays to be told (:func:`_tried_again`), then the next request tries again."""
    error = None if ended.cancelled() else ended.exception()
    with _KEPT_LOCK:
        if _JOBS.get(name) is not ended:
            return
        if error is None:
            del _JOBS[name]
            return
        said = getattr(error, "detail", None) or {}
        retry = said.get("retry_after", packmaker.RETRY_SECONDS)
        _FAILED[name] = _Failure(_clock(), float(retry))


def _take(name: tuple[str, str, str], profile: Profile, release: Release,
          root: Path | None) -> Pack:
    """Read the kept pack of ``release``, or make it (one maker at a time), and keep it."""
    hit = _read(profile, release, root)
    if hit is None:
        with _MAKING:
            hit = _read(profile, release, root) or _made(profile, release, root)
    with _KEPT_LOCK:
        _KEPT[name] = hit
        while len(_KEPT) > _KEPT_PACKS:
            del _KEPT[next(iter(_KEPT))]
    return hit


def pack(profile: Profile, release: Release, root: Path | None = None, *,
         make: bool = True) -> Pack | None:
    """The pack of ``release``, made once and kept under the data directory's cache (a
    release never changes, so its pack is made once per machine) and in this process,
    waiting for it (:func:`job`); ``make=False``: the pack only if this process holds it
    already (:func:`kept`: asking costs no build, no read and no wait)."""
    if not make:
        return kept(profile, release, root)
    return job(profile, release, root).result()


def pack_files(where: Path, release_id: str) -> tuple[Path, Path]:
    """The (rules, words) files of the pack of ``release_id`` in the directory ``where``."""
    return where / f"{release_id}.json", where / f"{release_id}.bin.gz"


def _files(profile: Profile, release: Release, root: Path | None) -> tuple[Path, Path]:
    return pack_files(cache_dir(root) / PACK_DIR / profile.id, release.id)


#: what a kept pack's files raise when they are cut short, emptied or overwritten
_UNREADABLE = (OSError, ValueError, EOFError, zlib.error)


def _read(profile: Profile, release: Release, root: Path | None) -> Pack | None:
    """The kept pack of ``release``, or None when there is none or it is not whole
    (:func:`_whole`): such a pack is made again, never served."""
    return _whole(profile, release, *_files(profile, release, root))


def _whole(profile: Profile, release: Release, rules_file: Path, words_file: Path, *,
           kept_before: bool = True) -> Pack | None:
    """The pack in ``rules_file`` and ``words_file``, or None when it is not whole: rules
    that do not parse or name another release, words that do not decompress or whose
    sha256 is not the one the rules carry (a cut or emptied file), and for a pack
    ``kept_before`` this process ran, rules that differ from what :func:`rules_json` gives
    the game now (another format, game, profile or rule table: a pack kept by an older
    version). A pack this code has just made is spared that last check: it costs the
    server's process a pass over every code point (seconds, and a hundred MB while it
    runs) to learn what the child computed itself."""
    try:
        rules = json.loads(rules_file.read_bytes())
        data = words_file.read_bytes()
        words = gzip.decompress(data)
    except _UNREADABLE:
        return None
    want = rules.get("words") if isinstance(rules, dict) else None
    if not (isinstance(want, dict) and rules.get("release") == release.id
            and want.get("sha256") == hashlib.sha256(words).hexdigest()):
        return None
    if kept_before:
        current = json.loads(json.dumps(rules_json(profile), ensure_ascii=False))
        if any(rules.get(k) != v for k, v in current.items()):   # kept by an older version
            return None
    return Pack(rules, words, data)


def _made(profile: Profile, release: Release, root: Path | None) -> Pack:
    """Make the pack of ``release`` in a child process (:mod:`lexicon.export.packmaker`:
    this module run as ``python -m``, :func:`_child`), check what it wrote as a kept pack
    is checked, and keep it under the data directory's cache (where it can be written)."""
    detail = {"game": profile.id, "release": release.id}
    with tempfile.TemporaryDirectory(prefix="lexicon-pack-") as scratch:
        packmaker.run(MAKER, [profile.id, os.fspath(release.path), scratch], Path(scratch),
                      detail)
        made = _whole(profile, release, *pack_files(Path(scratch), release.id),
                      kept_before=False)
    if made is None:
        raise PackFailed(f"the offline pack of {release.id} its maker wrote is not whole; "
                         f"nothing was kept, ask again in {packmaker.RETRY_SECONDS} s",
                         retry_after=packmaker.RETRY_SECONDS, detail=detail)
    rules_file, words_file = _files(profile, release, root)
    try:
        rules_file.parent.mkdir(parents=True, exist_ok=True)
        write_pack(made, rules_file, words_file)
    except OSError:     # a read-only data directory: the pack is made again next time
        pass
    return made


def _child(argv: list[str]) -> int:
    """The child :func:`_made` starts: ``GAME RELEASE_DIR OUT_DIR``, the pack of the
    release written into ``OUT_DIR``."""
    game, release_dir, out = argv

    def work() -> None:
        release = Release(Path(release_dir))
        write_pack(make_pack(profiles.load(game), release),
                   *pack_files(Path(out), release.id))

    return packmaker.child(Path(out), work)


def write_pack(made: Pack, rules_file: Path, words_file: Path) -> None:
    """Write ``made`` to its two files, each atomically (the words first: rules whose
    sha256 names words not yet there are read as no pack)."""
    atomic.write_bytes(words_file, made.words_gzip)
    atomic.write_bytes(rules_file, json.dumps(made.rules, ensure_ascii=False).encode())


__all__ = ["FORMAT", "Pack", "job", "kept", "make_pack", "making", "pack", "pack_files",
           "rules_json", "write_pack"]

if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
