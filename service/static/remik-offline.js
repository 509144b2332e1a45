// remik-offline.js: a Remik move ruled on the device, from the saved pack.
//
// The rules are the pack's data (`move` in the rules, written by lexicon.verdicts.remik's
// offline_rules): lengths, penalties, fault codes by their role, outcomes, readings and the
// limits. Word validity is the saved word list's (offline.js, Game.answer), and a word's
// points offline.js's Game.wordPoints, from the pack's `play` scores. What is here is the search that finds which table word became which new
// word, step for step the one of lexicon/verdicts/remik.py (each function is named beside its
// Python twin), so the two give the same ruling: tests/page/test_remik_offline.py compares
// them on hundreds of moves, and tests/data/remik-moves.json is a corpus both pass.
"use strict";

const RemikOffline = (() => {
  const OfflineError = typeof Offline !== "undefined" ? Offline.OfflineError : Error;

  // -- counters (collections.Counter: insertion order kept, as Python's dicts keep it) -------
  function counter(chars) {
    const m = new Map();
    for (const c of chars) m.set(c, (m.get(c) || 0) + 1);
    return m;
  }
  const get = (m, c) => m.get(c) || 0;
  function minus(a, b) {                        // Counter - Counter: positive counts only
    const out = new Map();
    for (const [c, n] of a) if (n - get(b, c) > 0) out.set(c, n - get(b, c));
    return out;
  }
  function plus(a, b) {
    const out = new Map(a);
    for (const [c, n] of b) out.set(c, get(out, c) + n);
    for (const [c, n] of out) if (n <= 0) out.delete(c);
    return out;
  }
  const total = (m) => { let t = 0; for (const n of m.values()) t += n; return t; };
  const elements = (m) => { let s = ""; for (const [c, n] of m) s += c.repeat(Math.max(n, 0)); return s; };
  const sortedKeys = (m) => [...m.keys()].sort();
  const sortedStr = (s) => [...s].sort().join("");
  function sameCounter(a, b) {
    const x = [...a].filter(([, n]) => n > 0);
    const y = [...b].filter(([, n]) => n > 0);
    return x.length === y.length && x.every(([c, n]) => get(b, c) === n);
  }
  function cmp(a, b) {                          // tuples compared as Python compares them
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length - b.length;
  }

  class TooComplex extends OfflineError {}

  // -- reading the move (remik._words, _rack, _history) --------------------------------------
  function words(game, M, value, what) {
    if (value === null || value === undefined) return [];
    if (typeof value === "string") value = value.replace(/,/g, " ").split(/\s+/).filter((w) => w);
    if (!Array.isArray(value) || !value.every((w) => typeof w === "string")) {
      throw new OfflineError("bad_move", `the table ${what} the move must be a list of words`);
    }
    if (value.length > M.limits.max_words) {
      throw new OfflineError("move_too_large", `${value.length} words on the table ${what} the move; at most ${M.limits.max_words}`,
                             { max_words: M.limits.max_words });
    }
    return value.map((w) => {
      const text = game.cleanWord(w);
      return { text, key: keyOf(game, text) };
    });
  }
  function keyOf(game, text) {                    // Speller.first(text).key
    return game.keys(text, null)[0];
  }
  function rack(game, M, text) {
    if (text === null || text === undefined) return new Map();
    if (typeof text !== "string") throw new OfflineError("bad_rack", "the rack must be text (its letters)");
    const letters = game.normalise(text).toLowerCase().replace(/,/g, " ").split(/\s+/).join("");
    const chars = [...letters];
    const bad = chars.findIndex((c) => game.inputs.refused.some(([a, b]) => c.codePointAt(0) >= a && c.codePointAt(0) <= b));
    if (bad >= 0) {       // inputs.first_control: NUL, U+200B are no mistyped tile
      throw new OfflineError("control_character", `control or invisible character at position ${bad + 1} of the rack`, { position: bad + 1 });
    }
    if (chars.length > M.limits.max_rack) {
      throw new OfflineError("move_too_large", `the rack has ${chars.length} letters; at most ${M.limits.max_rack}`,
                             { max_rack: M.limits.max_rack });
    }
    const out = [];
    chars.forEach((ch, i) => {
      const c = game.tileOf(ch);
      if (c === null) throw new OfflineError("bad_rack", `'${ch}' (position ${i + 1} of the rack) is not a tile`, { position: i + 1 });
      out.push(c);
    });
    return counter(out);
  }
  function history(game, M, value) {
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) throw new OfflineError("bad_move", "the history must be a list of earlier tables (lists of words)");
    if (value.length > M.limits.max_history) {
      throw new OfflineError("move_too_large", `${value.length} earlier arrangements; at most ${M.limits.max_history}`,
                             { max_history: M.limits.max_history });
    }
    value.forEach((t, n) => {
      if (t === null) throw new OfflineError("bad_move", `earlier arrangement ${n + 1} of the history is null`, { history_item: n + 1 });
    });
    return value.map((t) => counter(words(game, M, t, "in the history of").map((w) => w.key)));
  }

  // -- the search (remik._Search and its functions) ------------------------------------------
  class Search {
    constructor(M, before, after, shelf, kind, variant, ownSaid, valid) {
      Object.assign(this, { M, before, after, rack: shelf, kind, variant, ownSaid, valid });
      this.minLength = M.min_length;
      this.openingLength = kind === M.move ? null : M.lengths[kind];
      this.steps = 0;
      this.letters = new Map();
      this.least = [0, 0, 0, 0];
      this.best = null;
    }
    step(cost = 1) {
      this.steps += cost;
      if (this.steps > this.M.limits.max_steps) {
        throw new TooComplex("move_too_complex", `finding which table word became which new word needs more than ${this.M.limits.max_steps} units of work`,
                             { max_steps: this.M.limits.max_steps });
      }
    }
  }

  function kept(before, after) {                                      // remik._kept
    const free = new Map();
    before.forEach((w, i) => { if (!free.has(w.key)) free.set(w.key, []); free.get(w.key).push(i); });
    const k = new Map();
    after.forEach((w, j) => { const f = free.get(w.key); if (f && f.length) k.set(j, f.shift()); });
    const used = new Set(k.values());
    const restB = before.map((_, i) => i).filter((i) => !used.has(i));
    const restA = after.map((_, j) => j).filter((j) => !k.has(j));
    return [k, restB, restA];
  }

  function* remnantChoices(s, restB, restA) {                          // remik._remnant_choices
    s.step(restA.length * restB.reduce((t, i) => t + s.before[i].key.length, 0));
    const options = new Map();
    for (const j of restA) {
      const a = s.after[j].key;
      const opts = [];
      const said = s.ownSaid.get(j);
      for (const i of restB) {
        const b = s.before[i].key;
        for (let k = 0; k < b.length - a.length + 1; k++) {
          if (a.length < b.length && b.startsWith(a, k) && !(said && total(said))) opts.push([i, k]);
        }
      }
      options.set(j, opts);
    }
    const spans = new Map();
    const chosen = new Map();
    function* choose(n) {
      if (n === restA.length) {
        s.step(1 + chosen.size);
        yield new Map(chosen);
        return;
      }
      const j = restA[n];
      s.step();
      yield* choose(n + 1);
      const width = s.after[j].key.length;
      for (const [i, k] of options.get(j)) {
        if (!spans.has(i)) spans.set(i, []);
        const held = spans.get(i);
        s.step(2 + held.length);
        if (held.some(([b, e]) => k < e && b < k + width)) continue;
        held.push([k, k + width]);
        chosen.set(j, [i, k]);
        yield* choose(n + 1);
        chosen.delete(j);
        held.pop();
      }
    }
    yield* choose(0);
  }

  function missing(s, restB, formed) {                                 // remik._missing
    const need = counter(formed.map((j) => s.after[j].key).join(""));
    const have = plus(counter(restB.map((i) => s.before[i].key).join("")), s.rack);
    return minus(need, have);
  }

  function search(s) {                                                 // remik._search
    const [k, restB, restA] = kept(s.before, s.after);
    for (const j of restA) s.letters.set(j, counter(s.after[j].key));
    if (total(missing(s, restB, restA))) return null;
    const need = counter(restA.map((j) => s.after[j].key).join(""));
    const have = counter(restB.map((i) => s.before[i].key).join(""));
    s.least = [0, 0, total(minus(need, have)), restB.length];
    for (const remnants of remnantChoices(s, restB, restA)) {
      if (spread(s, k, restB, restA, remnants)) break;
    }
    return s.best;
  }

  function spread(s, k, restB, restA, remnants) {                      // remik._spread
    const formed = restA.filter((j) => !remnants.has(j));
    s.step(restB.reduce((t, i) => t + s.before[i].key.length, 0) +
           2 * formed.reduce((t, j) => t + s.after[j].key.length, 0));
    const avail = new Map();
    for (const i of restB) {
      const key = [...s.before[i].key];
      const covered = new Set();
      for (const [j, [b, at]] of remnants) {
        if (b === i) for (let d = 0; d < s.after[j].key.length; d++) covered.add(at + d);
      }
      avail.set(i, counter(key.filter((_, n) => !covered.has(n))));
    }
    let onTable = new Map();
    for (const c of avail.values()) onTable = plus(onTable, c);
    if (total(minus(counter(formed.map((j) => s.after[j].key).join("")), plus(onTable, s.rack)))) return false;
    const options = [];
    for (const j of formed) {
      const letters = [...new Set(s.after[j].key)].sort();
      if (s.ownSaid.has(j)) {
        const said = sortedStr(elements(s.ownSaid.get(j)));
        options.push([...said].length === [...s.after[j].key].length ? [[false, null]] : [[true, said || null]]);
        continue;
      }
      const choice = [];
      const tableHas = letters.some((c) => get(onTable, c));
      if (tableHas) for (const c of letters) if (get(s.rack, c)) choice.push([true, c]);
      choice.push([false, null]);
      if (tableHas) choice.push([true, null]);
      options.push(choice);
    }
    const chosen = [];
    const givesFor = new Map();
    const forced = new Map();
    function choose(n) {
      s.step();
      if (n === formed.length) return lay(s, k, restB, remnants, avail, onTable, formed, chosen, givesFor);
      const word = s.after[formed[n]].key;
      for (const option of options[n]) {
        const [rebuilt, named] = option;
        const own = !rebuilt ? word : named || "";
        s.step(1 + [...own].length);
        for (const c of own) forced.set(c, get(forced, c) + 1);
        let done = false;
        if ([...own].every((c) => get(forced, c) <= get(s.rack, c))) {
          chosen.push(option);
          done = choose(n + 1);
          chosen.pop();
        }
        for (const c of own) forced.set(c, get(forced, c) - 1);
        if (done) return true;
      }
      return false;
    }
    return choose(0);
  }

  function lay(s, k, restB, remnants, avail, onTable, formed, chosen, givesFor) {   // remik._lay
    s.step(8 * formed.reduce((t, j) => t + s.letters.get(j).size, 0) + onTable.size);
    const room = new Map();
    formed.forEach((j, n) => {
      const [rebuilt, named] = chosen[n];
      const r = rebuilt ? new Map(s.letters.get(j)) : new Map();
      for (const c of named || "") r.set(c, get(r, c) - 1);
      room.set(j, r);
    });
    const capacity = new Map();
    for (const r of room.values()) for (const [c, n] of r) capacity.set(c, get(capacity, c) + n);
    const table = new Map();
    for (const [c, n] of capacity) { const m = Math.min(get(onTable, c), n); if (m > 0) table.set(c, m); }
    const need = new Map();
    for (const j of formed) for (const [c, n] of s.letters.get(j)) need.set(c, get(need, c) + n);
    for (const [c, n] of need) if (n - get(table, c) > get(s.rack, c)) return false;
    const cacheKey = JSON.stringify([...table].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    let g = givesFor.get(cacheKey);
    if (!g) { g = gives(s, restB, avail, table); givesFor.set(cacheKey, g); }
    const parts = new Map(formed.map((j) => [j, new Map()]));
    const left = new Map(table);
    for (const j of formed) {
      const r = room.get(j);
      const c = sortedKeys(r).find((x) => get(r, x) && get(left, x));
      if (c !== undefined) { parts.get(j).set(c, 1); left.set(c, get(left, c) - 1); }
    }
    for (const j of formed) {
      const r = room.get(j);
      const p = parts.get(j);
      for (const c of sortedKeys(r)) {
        const n = Math.min(get(left, c), get(r, c) - get(p, c));
        if (n > 0) { p.set(c, get(p, c) + n); left.set(c, get(left, c) - n); }
      }
    }
    const own = new Map();
    for (const j of formed) {
      const p = parts.get(j);
      const o = new Map();
      for (const [c, n] of s.letters.get(j)) if (n > get(p, c)) o.set(c, n - get(p, c));
      own.set(j, o);
    }
    return leaf(s, k, restB, remnants, avail, g, parts, own);
  }

  function gives(s, restB, avail, table) {                             // remik._gives
    const holders = new Map([...table.keys()].map((c) => [c, []]));
    function augment(i, seen) {
      s.step(avail.get(i).size);
      for (const c of avail.get(i).keys()) {
        if (holders.has(c) && !seen.has(c)) {
          seen.add(c);
          const h = holders.get(c);
          if (h.length < table.get(c)) { h.push(i); return true; }
          s.step(h.length);
          for (let n = 0; n < h.length; n++) {
            if (augment(h[n], seen)) { h[n] = i; return true; }
          }
        }
      }
      return false;
    }
    const order = [...restB].sort((a, b) => cmp([total(avail.get(a)), a], [total(avail.get(b)), b]));
    for (const i of order) augment(i, new Set());
    const out = new Map(restB.map((i) => [i, new Map()]));
    for (const [c, held] of holders) for (const i of held) out.get(i).set(c, get(out.get(i), c) + 1);
    s.step(2 * table.size * restB.length);
    for (const c of sortedKeys(table)) {
      let extra = table.get(c) - restB.reduce((t, i) => t + get(out.get(i), c), 0);
      const keys = new Map(restB.map((i) => [i, [total(out.get(i)) ? 0 : 1, i]]));
      for (const i of [...restB].sort((a, b) => cmp(keys.get(a), keys.get(b)))) {
        const n = Math.min(extra, get(avail.get(i), c) - get(out.get(i), c));
        if (n > 0) { out.get(i).set(c, get(out.get(i), c) + n); extra -= n; }
      }
    }
    return out;
  }

  function taken(s, restB, g, parts) {                                 // remik._taken
    s.step(restB.reduce((t, i) => t + total(g.get(i)), 0) + parts.size);
    const out = new Map([...parts.keys()].map((j) => [j, new Map()]));
    const pool = new Map();
    for (const m of g.values()) for (const c of m.keys()) pool.set(c, []);
    for (const c of pool.keys()) for (const i of restB) for (let n = 0; n < get(g.get(i), c); n++) pool.get(c).push(i);
    for (const [j, part] of parts) {
      for (const c of sortedKeys(part)) {
        const n = part.get(c);
        for (const i of pool.get(c).slice(0, n)) {
          if (!out.get(j).has(i)) out.get(j).set(i, new Map());
          const m = out.get(j).get(i);
          m.set(c, get(m, c) + 1);
        }
        pool.set(c, pool.get(c).slice(n));
      }
    }
    return out;
  }

  function isLeftover(s, j) {                                          // remik._leftover
    return [...s.after[j].key].length < s.minLength || s.valid.get(j) === false;
  }

  function leaf(s, k, restB, remnants, avail, g, parts, own) {         // remik._leaf
    const M = s.M;
    const F = M.faults;
    s.step(restB.reduce((t, i) => t + avail.get(i).size, 0) + parts.size + remnants.size);
    const faults = new Map();
    const fault = (code) => { if (!faults.has(code)) faults.set(code, 0); faults.set(code, faults.get(code) + 1); };
    const leftovers = new Map();
    for (const [j, said] of s.ownSaid) {
      if (parts.has(j) && !sameCounter(own.get(j), said)) return false;
    }
    const broken = new Set([...remnants.values()].map(([i]) => i));
    for (const i of restB) {
      const rest = minus(avail.get(i), g.get(i));
      if (!total(g.get(i)) && !broken.has(i)) {
        if (total(rest)) fault(F.not_relaid);
      } else if (total(rest)) leftovers.set(i, rest);
    }
    const groups = new Map();
    for (const j of remnants.keys()) if (isLeftover(s, j)) groups.set(j, counter(s.after[j].key));
    for (const [j, p] of parts) if (!total(own.get(j)) && isLeftover(s, j)) groups.set(j, new Map(p));
    let nLeft = 0;
    for (const c of [...leftovers.values(), ...groups.values()]) nLeft += total(c);
    if (nLeft && s.variant === M.variant_without_leftovers) fault(F.leftovers);
    const formed = [...parts.keys()].filter((j) => !groups.has(j));
    let nOwn = 0;
    for (const o of own.values()) nOwn += total(o);
    if (s.kind === M.move) {
      for (const j of formed) {
        if ([...s.after[j].key].length < s.minLength) fault(F.short);
        if (total(parts.get(j)) && !total(own.get(j))) fault(F.no_own);
      }
      if (!nOwn) fault(F.nothing);
    } else {
      if (restB.length || [...parts.values()].some((p) => total(p))) fault(F.opening_own);
      if (parts.size + remnants.size !== 1) fault(F.opening_one);
      for (const j of formed) if ([...s.after[j].key].length < s.openingLength) fault(F.opening_short);
    }
    let nFaults = 0;
    for (const n of faults.values()) nFaults += n;
    const head = [nFaults, nLeft, nOwn];
    if (s.best !== null && cmp(head, s.best.cost.slice(0, 3)) > 0) return false;
    const t = taken(s, restB, g, parts);
    let pieces = 0;
    for (const m of t.values()) pieces += m.size;
    const cost = [...head, pieces];
    if (s.best === null || cmp(cost, s.best.cost) < 0) {
      const P = M.placements;
      const placements = [];
      for (const [j, i] of k) placements.push({ after: j, kind: P.kept, taken: new Map([[i, counter(s.before[i].key)]]), own: new Map() });
      for (const [j, [i]] of remnants) {
        placements.push({ after: j, kind: groups.has(j) ? P.leftover : P.remnant,
                          taken: new Map([[i, counter(s.after[j].key)]]), own: new Map() });
      }
      for (const j of parts.keys()) {
        placements.push({ after: j, kind: groups.has(j) ? P.leftover : t.get(j).size ? P.rebuilt : P.new,
                          taken: t.get(j), own: new Map(own.get(j)) });
      }
      placements.sort((a, b) => a.after - b.after);
      s.best = { placements, leftovers, faults: [...faults.keys()], cost };
    }
    return cmp(cost, s.least) === 0;
  }

  // -- the ruling (remik.rule_move) ----------------------------------------------------------
  function ownSaid(game, M, after, restA, shelf, value) {              // remik._own_said
    const out = new Map();
    if (value === null || value === undefined) return out;
    if (typeof value !== "object" || Array.isArray(value) ||
        !Object.entries(value).every(([w, l]) => typeof w === "string" && typeof l === "string")) {
      throw new OfflineError("bad_move", "own must map a word of the table after the move to the letters of it taken from the shelf");
    }
    for (const [word, letters] of Object.entries(value)) {
      const key = keyOf(game, game.cleanWord(word));
      const targets = restA.filter((j) => after[j].key === key);
      if (!targets.length) throw new OfflineError("bad_move", `'${word}' is not a word the move lays`, { own: word });
      const mine = rack(game, M, letters);
      if (total(minus(mine, counter(key)))) throw new OfflineError("bad_move", `'${word}' has no such letters`, { own: word });
      if (total(minus(mine, shelf))) throw new OfflineError("bad_move", `the shelf holds no such letters for '${word}'`, { own: word });
      for (const j of targets) out.set(j, mine);
    }
    return out;
  }

  // Rule on one move from the saved pack: the answer of POST /v1/games/remik/move, marked
  // `offline`, with the reasons' texts in `lang` (their English details need the server).
  function ruleMove(game, { before, after, rack: shelfText = "", opening = false, reopening = false,
                            variant = 1, history: earlierTables = null, own = null, reveal = false,
                            lang = null } = {}) {
    const M = game.rules.move;
    if (!M) throw new OfflineError("bad_move", `${game.id} has no table moves to rule on`);
    lang = lang || game.rules.players_language;
    const reason = (code) => ({ code, message: game.reasonText(code, lang) });
    if (opening && reopening) throw new OfflineError("bad_move", "a move is an opening or a re-opening, not both");
    if (!M.variants.includes(variant)) {
      throw new OfflineError("bad_move", `variant ${variant}; the rule book has variants ${M.variants.join(" and ")}`, { variants: M.variants });
    }
    const [kOpening, kReopening, kMove] = M.kinds;
    const kind = opening ? kOpening : reopening ? kReopening : kMove;
    const tableBefore = words(game, M, before, "before");
    const tableAfter = words(game, M, after, "after");
    const shelf = rack(game, M, shelfText);
    const earlier = history(game, M, earlierTables);
    const [, restB, restA] = kept(tableBefore, tableAfter);
    const said = ownSaid(game, M, tableAfter, restA, shelf, own);
    // remik._checked: every word the move may lay, read by the saved list; one that cannot
    // be read refuses the whole move without naming it, as the judge does
    const checked = new Map(restA.map((j) => [j, game.answer(tableAfter[j].text, {})]));
    const errors = [...new Set([...checked.values()].filter((r) => r.error).map((r) => r.error.code))].sort();
    if (errors.length) throw new OfflineError(errors[0], `a word of the play cannot be read (${errors[0]}); correct it and ask again: nothing was ruled`);
    const valid = new Map([...checked].map(([j, r]) => [j, r.valid]));
    const s = new Search(M, tableBefore, tableAfter, shelf, kind, variant, said, valid);
    const found = search(s);
    const F = M.faults;
    const faults = new Set();
    let laid;
    if (found === null) {
      faults.add(F.no_assignment);
      laid = restA;
    } else {
      for (const f of found.faults) faults.add(f);
      laid = found.placements.filter((p) => p.kind !== M.placements.kept && p.kind !== M.placements.leftover).map((p) => p.after);
    }
    const afterSet = counter(tableAfter.map((w) => w.key));
    if (earlier.some((t) => sameCounter(t, afterSet))) faults.add(F.repeated);
    const formLegal = faults.size === 0;
    const lengthOnly = (r) => !r.valid && r.reason && M.length_codes.includes(r.reason.code);
    const judged = laid.filter((j) => !lengthOnly(checked.get(j)));
    const wordsValid = judged.length ? judged.every((j) => checked.get(j).valid) : null;
    if (wordsValid === false) faults.add(F.wrong);
    const reasons = Object.values(F).filter((c) => faults.has(c)).map(reason);
    const lettersOf = (m) => [...elements(m)].sort().map((c) => game.letter.get(c));
    const out = [];
    let pts = 0;
    let back = new Map();
    const P = M.placements;
    if (found !== null) {
      for (const p of found.placements) {
        const w = tableAfter[p.after];
        const item = { word: w.text, kind: p.kind };
        if (p.kind !== P.new) {
          item.from = [...p.taken].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ word: tableBefore[i].text, letters: lettersOf(c) }));
        }
        if (p.kind === P.new || p.kind === P.rebuilt) {
          item.own = lettersOf(p.own);
          item.points = game.wordPoints(w.key, kind !== M.move) || 0;
          pts += item.points;
        } else if (p.kind === P.leftover) back = plus(back, counter(w.key));
        out.push(item);
      }
      for (const c of found.leftovers.values()) back = plus(back, c);
    }
    let toShelf = lettersOf(back);
    let outcome;
    let penalty;
    if (wordsValid === false) {
      [outcome, pts, penalty, toShelf] = [M.outcomes.wrong_word, 0, M.wrong_word_penalty, []];
    } else if (!formLegal) {
      [outcome, pts, penalty, toShelf] = [M.outcomes.taken_back, 0, 0, []];
    } else {
      [outcome, penalty] = [M.outcomes.stands, M.leftover_penalty * toShelf.length];
    }
    const stands = formLegal && wordsValid !== false;
    let reading = null;
    if (found !== null) {
      const newly = found.placements.filter((p) => p.kind === P.new || p.kind === P.rebuilt).map((p) => p.after);
      if (newly.length) reading = reason(M.readings[newly.some((j) => !said.has(j)) ? "assumed" : "said"]);
    }
    const answer = {
      game: game.id, release: game.release, kind, variant, form_legal: formLegal,
      words_valid: wordsValid, valid: stands, verdict: M.verdicts[stands ? "stands" : "falls"],
      reasons, reading, words: out, to_shelf: toShelf, points: pts, penalty, total: pts - penalty,
      outcome: reason(outcome), offline: true,
    };
    if (found === null) answer.assignment = null;
    if (judged.length) {
      answer.judge = { verdict: M.verdicts[wordsValid ? "stands" : "falls"], valid: wordsValid, count: judged.length };
      if (reveal) answer.judge.results = judged.map((j) => checked.get(j));
    }
    return answer;
  }

  // app.js's offline hook: `ask` = {kind: "move", game, move: the HTTP body}; the ruling
  // is kept on the device like an offline judge's, with the words it judged
  async function answer(ask) {
    const game = await Offline.load(ask.game);
    if (!game) throw new OfflineError("offline_not_saved", "this game is not saved on this device");
    const ruling = ruleMove(game, ask.move);
    Offline.keepRuling(ruling, (ruling.words || []).map((w) => w.word), false);
    return ruling;
  }

  return { ruleMove, answer, TooComplex };
})();

if (typeof module !== "undefined") module.exports = RemikOffline;
