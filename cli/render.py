"""How the CLI shows what the library returns to a person: one function a kind of result.

Kept apart from the commands (:mod:`cli.main`) so that a command reads as what it asks
the library and which exit code it gives, and a rendering can change without touching
either. Every function takes the same dict the HTTP API returns as JSON (``--json``
prints that dict with :func:`dump`), so the two faces never disagree on content.
"""

from __future__ import annotations

import json
from typing import Any

from lexicon import class_lines


def dump(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


def meaning_lines(r: dict) -> str:
    """``--meaning``: what each dictionary says of the word's lemmas, with its source and
    licence (the referee may be asked to prove a meaning from a source)."""
    if "error" in r:
        return ""
    if not r.get("meanings"):
        return "\n  meaning: none in this release's sources"
    out = ""
    for m in r["meanings"]:
        senses = m.get("translations") or [", ".join(s) for s in m.get("synonyms", [])]
        out += f"\n  meaning of {m['lemma']} ({m['name']}, {m['license']}):"
        out += "".join(f"\n    {n}. {s}" for n, s in enumerate(senses, 1))
    return out


def _detail(reason: dict, lang: str) -> str | None:
    """The specific message stored with a word or made by a rule: English, so shown only to
    a reader of English; the others read the reason in their own language (``--json`` keeps
    the detail for everyone)."""
    return reason.get("detail") if lang == "en" else None


def human(r: dict, lang: str = "en") -> str:
    """One word's verdict; ``lang`` is the language the reasons were asked in."""
    if "error" in r:
        return f"{r['input']}: error [{r['error']['code']}] {r['error']['message']}"
    verdict = "VALID" if r["valid"] else "INVALID"
    line = f"{r['word']}: {verdict}  tiles {'-'.join(r['tiles'])}"
    if r["score"] is not None:
        line += f"  score {r['score']}"
    if r["reason"]:
        line += f"\n  reason [{r['reason']['code']}] {r['reason']['message']}"
        if detail := _detail(r["reason"], lang):
            line += f"\n    {detail}"
    # an admitted word says what admitted it (the grade marker is for machines)
    for ev in [e for e in r.get("evidence") or [] if not e.startswith("grade:")][:3]:
        line += f"\n  admitted: {ev}"
    for a in r["analyses"][:4]:
        line += f"\n  {a['lemma']}  {a['tags']}  ({a['source']})"
        if a.get("gloss"):
            line += f"\n    {a['gloss']}"
    if r.get("jokers_needed"):
        line += f"\n  needs a joker for {', '.join(r['jokers_needed'])}"
    for alt in r.get("alternatives", []):
        if alt["known"]:
            state = "valid" if alt["valid"] else "invalid"
            line += f"\n  also read as {'-'.join(alt['tiles'])}: {state}"
    return line


def ruling_text(r: dict, lang: str = "en") -> str:
    head = "STANDS" if r["valid"] else "FALLS"
    line = f"{head}  {r['count']} word{'s' if r['count'] != 1 else ''}   release {r['release']}"
    for item in r.get("results", []):
        line += "\n  " + human(item, lang).replace("\n", "\n  ")
    return line


def _edge_note(edge: object) -> str:
    """A logged play's edge: the whole play, or the numbers of the words that touched it."""
    if isinstance(edge, list):
        at = [str(n) for n, flag in enumerate(edge, 1) if flag]
        return f"  (edge: word {', '.join(at)})" if at else ""
    return "  (edge)" if edge else ""


def ruling_line(r: dict) -> str:
    """One line of ``lexicon rulings``: a play's words, or a Remik move as it was ruled."""
    what = f"{' '.join(map(str, r['words']))}{_edge_note(r.get('edge'))}"
    move = r.get("move")
    if isinstance(move, dict):
        def table(words: object) -> str:
            return " ".join(map(str, words)) if isinstance(words, list) and words else "-"
        codes = move.get("reasons") or []
        what = (f"{move.get('kind')} (variant {move.get('variant')}): {table(move.get('before'))}"
                f" -> {table(move.get('after'))}, rack {''.join(map(str, move.get('rack', [])))}"
                f": points {move.get('points')}, penalty {move.get('penalty')}"
                f"{' [' + ', '.join(map(str, codes)) + ']' if codes else ''}")
    return f"{r['time']}  {r['game']:13} {r['verdict'].upper():6}  {what}   release {r['release']}"


def move_text(r: dict, lang: str = "en") -> str:
    head = "STANDS" if r["valid"] else "FALLS"
    lines = [f"{head}  {r['kind']} (variant {'I' * r['variant']})   release {r['release']}"]
    for w in r["words"]:
        sources = " + ".join(f"{f['word']} ({' '.join(f['letters'])})" for f in w.get("from", []))
        own = " ".join(w.get("own", []))
        what = {"kept": f"kept ({sources})", "remnant": f"remnant of {sources}",
                "leftover": f"leftover of {sources}: no word, back to the shelf",
                "new": f"new from the shelf: {own}",
                "rebuilt": f"rebuilt from {sources} + own {own or 'nothing'}"}[w["kind"]]
        points = f"   {w['points']} points" if "points" in w else ""
        lines.append(f"  {w['word']:16} {what}{points}")
    if r["to_shelf"]:
        lines.append(f"  back to the shelf: {' '.join(r['to_shelf'])}")
    if r.get("reading"):            # which letters were read as the shelf's, and why
        lines.append(f"  {r['reading']['message']}")
    for reason in r["reasons"]:
        detail = f" ({d})" if (d := _detail(reason, lang)) else ""
        lines.append(f"  [{reason['code']}] {reason['message']}{detail}")
    for item in r.get("judge", {}).get("results", []):
        lines.append("  " + human(item, lang).replace("\n", "\n  "))
    lines.append(f"points {r['points']}, penalty {r['penalty']}, total {r['total']}")
    lines.append(r["outcome"]["message"])
    return "\n".join(lines)


def word_line(r: dict) -> str:
    line = f"{r['word']:18} {'-'.join(r['tiles']):24} score {r['score']}"
    if r.get("jokers"):
        line += "  jokers " + ", ".join(f"{j['letter']}@{j['position']}" for j in r["jokers"])
    return line


def _page(r: dict, lines: list[str]) -> str:
    """A paged result: the count (and which page is shown), the release, then one line a
    result."""
    shown = len(r["results"])
    head = f"{r['count']:,} word" + ("" if r["count"] == 1 else "s")
    if shown < r["count"]:
        head += f" (showing {r['offset'] + 1}-{r['offset'] + shown})"
    return "\n".join([head + f"   release {r['release']}", *lines])


def listing(r: dict) -> str:
    return _page(r, [word_line(x) for x in r["results"]])


def hooks_text(r: dict) -> str:
    def side(items: list[dict]) -> str:
        return ", ".join(f"{h['tile']} ({h['word']})" for h in items) or "none"

    return "\n".join([
        f"{r['word']}: {'-'.join(r['tiles'])}  {'valid' if r['valid'] else 'not a word'}"
        f"   release {r['release']}",
        f"  front hooks: {side(r['front'])}",
        f"  back hooks:  {side(r['back'])}",
        f"  prefix of a longer word: {'yes' if r['is_prefix'] else 'no'}"
        + (f" (next: {' '.join(r['next_tiles'])})" if r["next_tiles"] else ""),
    ])


def rebuilds_listing(r: dict) -> str:
    """``lexicon extend``: Remik's rebuilds of a table word, with the rack letters each
    uses."""
    return _page(r, [f"{x['word']:18} + {' '.join(x['rack_letters'])}" for x in r["results"]])


def diff_text(diff: dict) -> str:
    """The human form: a summary by length, then one ``+word`` / ``-word`` a line."""
    lengths = sorted({int(n) for side in ("added", "removed") for n in diff[side]["by_length"]})
    lines = [f"{diff['game']}: {diff['old']} -> {diff['new']}",
             f"added {diff['added']['count']:,}, removed {diff['removed']['count']:,}"]
    if lengths:
        lines.append("length  " + " ".join(f"{n:>6}" for n in lengths))
        for side, sign in (("added", "+"), ("removed", "-")):
            counts = diff[side]["by_length"]
            lines.append(f"{sign:7} " + " ".join(f"{counts.get(str(n), 0):>6}" for n in lengths))
    lines += [f"+{w}" for w in diff["added"]["words"]]
    lines += [f"-{w}" for w in diff["removed"]["words"]]
    return "\n".join(lines)


def summary_text(d: dict[str, Any]) -> str:
    """The human form of :func:`summary`."""
    v = d["verdicts"]
    lines = [f"{d['game']}: {d['old']} -> {d['new']}"]
    changed = {k: (d["old_sources"].get(k), d["new_sources"].get(k))
               for k in sorted(set(d["old_sources"]) | set(d["new_sources"]))}
    for k, (a, b) in changed.items():
        if a != b:
            lines.append(f"  source {k}: {a or '-'} -> {b or '-'}")
    lines.append(f"records {v['old']['records'] or 0:,} -> {v['new']['records'] or 0:,}; "
                 f"admitted {v['old']['valid'] or 0:,} -> {v['new']['valid'] or 0:,}; "
                 f"rejected {v['old']['rejected'] or 0:,} -> {v['new']['rejected'] or 0:,}")
    lines.append("rejected by reason (before -> after):")
    for reason, (a, b) in sorted(v["by_reason"].items(), key=lambda kv: -max(kv[1])):
        lines.append(f"  {reason:28} {a:>10,} -> {b:>10,}  ({b - a:+,})")
    for side, sign in (("added", "+"), ("removed", "-")):
        part = d[side]
        lines.append(f"{side} (playable words): {part['count']:,}")
        lines += class_lines(part["classes"], f"  {sign} ")
    return "\n".join(lines)


def source_row(r: dict[str, Any]) -> str:
    """One line of ``lexicon sources``: the pin, then what each configured suite offers."""
    sha = r["sha256"] if isinstance(r["sha256"], str) else next(iter(r["sha256"].values()))
    head = (f"{r['id']:22} {r['kind']:4} {r['version']:14} "
            f"{'(' + r['suite'] + ')' if r['suite'] else '(PyPI)':11} sha256 {sha[:12]}…")
    if r["suites"] is None:
        return f"{head}  {r['note']}"
    offers = "  ".join(f"{s} {v or '-'}" for s, v in r["suites"].items())
    state = f"newer: {r['newest']}" if r["newer"] else "current"
    if not r["pinned_in"]:
        state += "; the pin is in no configured suite (cache only)"
    return f"{head}  {offers}  [{state}]"


def source_update(name: str, out: dict[str, Any]) -> str:
    """What ``lexicon sources update`` did to a pin."""
    old, new = out["old"], out["new"]
    lines = [f"{name}: {old['version']} ({old['suite'] or '?'}) -> {new['version']} "
             f"({new['suite']}), sha256 {new['sha256']}"]
    if not out["changed"]:
        lines.append(f"{name}: already pinned there; nothing changed")
    return "\n".join(lines)


# -- the maintainer's audit ------------------------------------------------------------------

def _estimate(name: str, e: dict[str, Any]) -> str:
    if e.get("estimate") is None:
        return f"{name}: no labelled word"
    low, high = e["interval"]
    more = (f"  ({e['labelled']:g} labelled, {e['coverage']:.0%} of {e['size']:,} words "
            "in labelled classes)") if "coverage" in e else ""
    return f"{name}: {e['estimate']:.1%}  [{low:.1%}, {high:.1%}]{more}"


def audit_score(r: dict[str, Any]) -> str:
    """The estimates, then the classes, the likeliest wrong verdicts first."""
    lines = [f"{r['release']} ({r['population']}), from {', '.join(r['sheets'])}: "
             f"{r['labelled']:,} labelled words read"
             + (f", {r['not_read']:,} not in the release" if r["not_read"] else "")
             + (f", {r['outside_population']:,} outside the population, not counted"
                if r.get("outside_population") else "")
             + (f"; {r['doubtful']['labels']:,} doubtful, counted {r['doubtful']['counted']}"
                if r["doubtful"]["labels"] else ""),
             _estimate("precision (admitted words the game admits)", r["precision"]),
             _estimate("missed (rejected words the game admits)", r["missed"]),
             _estimate("recall", r["recall"]), "",
             f"{'class':<48} {'size':>10} {'labelled':>8} {'error':>7} "
             f"{'95% interval':>15} {'wrong':>9}"]
    for c in r["classes"]:
        if not c["labelled"]:
            lines.append(f"{c['class']:<48} {c['size']:>10,} {0:>8}")
            continue
        low, high = c["error_interval"]
        lines.append(f"{c['class']:<48} {c['size']:>10,} {c['labelled']:>8g} "
                     f"{c['error_rate']:>7.1%} {f'{low:.1%}-{high:.1%}':>15} {c['wrong']:>9,.0f}")
    return "\n".join(lines)


def audit_compare(r: dict[str, Any]) -> str:
    lines = [f"{r['release']} against {r['list']} ({r['list_words']:,} words)",
             "release classes found in the list:"]
    for c in r["classes"]:
        lines.append(f"  {c['class']}: {c['in_list']:,} of {c['size']:,} ({c['share']:.1%})")
        if c["samples_in_list"]:
            lines.append(f"    in the list, e.g. {', '.join(c['samples_in_list'])}")
        if c["samples_not_in_list"]:
            lines.append(f"    not in it, e.g. {', '.join(c['samples_not_in_list'])}")
    lines.append("the list's words in the release:")
    for c in r["list_by_verdict"]:
        lines.append(f"  {c['class']}: {c['count']:,} ({c['share']:.1%})")
        lines.append(f"    e.g. {', '.join(c['samples'])}")
    return "\n".join(lines)


def audit_sheet_row(s: dict[str, Any]) -> str:
    if "error" in s:
        return f"{s['game']}\t{s['name']}\tunreadable: {s['error']}"
    return (f"{s['game']}\t{s['name']}\t{s['rows']} words, {s['labelled']} labelled\t"
            f"from {s['release']}\t{s['population']}")


def audit_drawn(r: dict[str, Any]) -> str:
    """The sheet's path first (what a script reads), then what it holds."""
    return (f"{r['sheet']}\n{r['rows']} words from {len(r['classes'])} classes of "
            f"{r['release']} ({r['population']})")


def audit_applied(r: dict[str, Any]) -> str:
    """The overrides file's path first, then what it holds and the command that uses it."""
    return (f"{r['overrides']}\n{r['add']} to add, {r['remove']} to remove, of "
            f"{r['labelled']} labelled; then: lexicon amend {r['game']} --overrides "
            f"{r['overrides']}")
