// offline.js: the referee page's checker with no network.
//
// It reads one game's offline pack (service/offline.py, lexicon/export/offline.py): the
// rules as JSON (the profile, the speller's tables, the validity decision's steps, the
// scores, the input character classes, the reason texts) and the words as two DAWG-only
// KWGs (the admitted playable words; every other key the release knows, followed by its
// reason code). Whether a word is valid, and why not, is decided by interpreting the steps
// lexicon/verdicts/validity.py writes, in their order, with their codes and limits: this
// file holds no reason code, length limit or tile fact of its own
// (tests/page/test_offline_rules.py holds that). Everything else mirrors one Python
// function, named beside it, over the pack's tables. tests/page/test_offline.py runs this
// file in Chromium over every key of the test releases and tricky inputs and requires the
// server's answers.
//
// What the pack cannot know (analyses, the specific reason messages, meanings, sources) is
// reported in `needs_server`, never guessed.
"use strict";

const Offline = (() => {
  const BREAK_PUA = "\ue000";     // tiles.py _BREAK
  const FORCED_PUA = "\ue001";    // tiles.py _FORCED
  const CODE_POINT_DIGITS = "XXXX";   // U+XXXX: a code point's hexadecimal digits, at least

  class OfflineError extends Error {
    constructor(code, message, detail) {
      super(message);
      this.code = code;
      this.detail = detail;
    }
    toJSON() { return { code: this.code, message: this.message, detail: this.detail }; }
  }

  // the named tests of the validity decision's steps (lexicon/verdicts/validity.py TESTS):
  // each gives its step's code when the case breaks it, else null
  const least = (s, edge) => (edge && s.edge_least !== null ? s.edge_least : s.least);
  const TESTS = {
    rejected: (s, c) => (c.rec && !c.rec.valid ? c.rec.code || s.code : null),
    foreign_among: (s, c) => (c.foreign.some((ch) => s.chars.includes(ch)) ? s.code : null),
    foreign: (s, c) => (c.foreign.length ? s.code : null),
    letters_over: (s, c) => ([...c.key].filter((ch) => s.letters.includes(ch)).length > s.most ? s.code : null),
    shorter: (s, c) => (c.n < least(s, c.edge) ? s.code : null),
    longer: (s, c) => (c.n > s.most ? s.code : null),
    unheld: (s, c) => (c.rec === null ? s.code : null),
  };

  function inRanges(ranges, cp) {           // ranges: sorted [first, last] pairs
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < ranges[mid][0]) hi = mid - 1;
      else if (cp > ranges[mid][1]) lo = mid + 1;
      else return true;
    }
    return false;
  }

  // -- the KWG (lexicon/export/kwg.py; tests/kwg_reader.py) ---------------------------------
  class Kwg {
    constructor(buffer, offset, bytes, layout) {
      this.nodes = new Uint32Array(buffer, offset, bytes / Uint32Array.BYTES_PER_ELEMENT);
      this.big = layout === "kbwg";
    }
    tile(i) { const n = this.nodes[i]; return this.big ? n & 0x3f : n >>> 24; }
    accepts(i) { const n = this.nodes[i]; return this.big ? (n >>> 7) & 1 : (n >>> 23) & 1; }
    end(i) { const n = this.nodes[i]; return this.big ? (n >>> 6) & 1 : (n >>> 22) & 1; }
    arc(i) { const n = this.nodes[i]; return this.big ? n >>> 8 : n & 0x3fffff; }
    root() { return this.nodes.length ? this.arc(0) : 0; }
    // the node reached by reading tile numbers `nums` from the root (-1: none; 0: the root)
    walk(nums) {
      let list = this.root();
      let node = 0;
      for (const t of nums) {
        if (!list) return -1;
        node = this.find(list, t);
        if (node < 0) return -1;
        list = this.arc(node);
      }
      return node;
    }
    find(p, t) {
      for (;;) {
        if (this.tile(p) === t) return p;
        if (this.end(p)) return -1;
        p += 1;
      }
    }
    *children(node) {
      let p = node === 0 ? this.root() : this.arc(node);
      if (!p) return;
      for (;;) {
        yield p;
        if (this.end(p)) return;
        p += 1;
      }
    }
  }

  // -- one game's pack ------------------------------------------------------------------------
  class Game {
    constructor(rules, buffer) {
      if (rules.format !== 1) throw new OfflineError("offline_format", "an offline pack of another format");
      this.rules = rules;
      this.id = rules.game;
      this.release = rules.release;
      const w = rules.words;
      this.admitted = new Kwg(buffer, w.admitted.offset, w.admitted.bytes, w.admitted.layout);
      this.others = new Kwg(buffer, w.others.offset, w.others.bytes, w.others.layout);
      // a pack holding only the rejected keys tiling needs (lexicon/export/offline.py): any
      // other key it does not hold is no valid word, whose reason only the server knows
      this.tiling = w.others.reasons === "tiling" ? w.others.tiling : null;
      this.numbers = new Map(Object.entries(w.numbers));
      this.codeBase = Object.keys(w.numbers).length;
      this.codes = w.codes;
      this.unheldCode = w.others.unheld_code;
      const sp = rules.speller;
      this.canonical = new Map(Object.entries(sp.canonical));
      this.multi = sp.multi;                     // [spelling, canonical], longest first
      this.multiRe = this.multi.length ? new RegExp(this.multi.map(([s]) =>
        s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")).join("|"), "gu") : null;
      this.multiKey = new Map(this.multi);
      this.latin = new Map(Object.entries(sp.latin));
      this.letter = new Map(Object.entries(sp.letter));
      const play = rules.play;
      this.values = new Map(Object.entries(play.values));
      this.jokerValues = new Map(Object.entries(play.joker_values));
      this.opening = play.opening;
      this.steps = rules.validity.steps;
      const unread = this.steps.find((s) => !Object.hasOwn(TESTS, s.test));
      if (unread) throw new OfflineError("offline_format", `an offline pack with a rule this page cannot apply (${unread.test})`);
      this.step = new Map(this.steps.map((s) => [s.test, s]));
      // the steps the joker fillings read their lengths and jokers from (Validity.compiled)
      const missing = ["shorter", "longer", "letters_over"].find((t) => !this.step.has(t));
      if (missing) throw new OfflineError("offline_format", `an offline pack without the rule ${missing}`);
      this.jokerOnly = new Set(this.step.get("letters_over").letters);
      this.keysLanguage = sp.keys_language;
      this.mark = sp.notation;                   // tiles.py JOIN_OPEN, JOIN_CLOSE, BREAK
      this.inputs = rules.inputs;
      this.edgeSpace = new Set(this.inputs.edge_space);
      this.digraphs = new Map(Object.entries(this.inputs.digraph_letters));
    }

    // -- inputs.py ---------------------------------------------------------------------------
    isSpace(ch) { return inRanges(this.inputs.space, ch.codePointAt(0)); }
    scriptOf(ch) {                                           // inputs.script_of
      const cp = ch.codePointAt(0);
      for (const [s, ranges] of Object.entries(this.inputs.scripts)) if (inRanges(ranges, cp)) return s;
      return null;
    }
    normalise(text) {                                        // inputs.normalise
      return [...text].map((c) => this.digraphs.get(c) ?? c).join("").normalize("NFC");
    }
    strip(chars, test) {
      let a = 0;
      let b = chars.length;
      while (a < b && test(chars[a])) a += 1;
      while (b > a && test(chars[b - 1])) b -= 1;
      return chars.slice(a, b);
    }
    cleanWord(text) {                                        // inputs.clean_word
      if (text === null || text === undefined) throw new OfflineError("empty_word", "no word given");
      if (typeof text !== "string") throw new OfflineError("invalid_request", "a word must be text");
      const chars = this.strip([...this.normalise(text)], (c) => this.edgeSpace.has(c));
      if (!chars.length) throw new OfflineError("empty_word", "the word is empty");
      const max = this.inputs.max_word_chars;
      if (chars.length > max) {
        throw new OfflineError("word_too_long", `the word is ${chars.length} characters long; at most ${max} are accepted`, { max_chars: max });
      }
      const bad = chars.findIndex((c) => inRanges(this.inputs.refused, c.codePointAt(0)));
      if (bad >= 0) {
        const hex = chars[bad].codePointAt(0).toString(16).toUpperCase().padStart(CODE_POINT_DIGITS.length, "0");
        throw new OfflineError("control_character", `control or invisible character U+${hex} at position ${bad + 1}`, { position: bad + 1 });
      }
      if (!this.strip(chars.filter((c) => c !== this.mark.break), (c) => this.isSpace(c)).length) {
        throw new OfflineError("empty_word", "the word holds no tile (only '|')");
      }
      const scripts = new Set(chars.map((c) => this.scriptOf(c)).filter((s) => s));
      if (scripts.size > 1) {
        const names = [...scripts].sort();
        throw new OfflineError("mixed_scripts", `the word mixes scripts (${names.join(", ")}); type it in one`, { scripts: names });
      }
      const words = [];
      let run = "";
      for (const c of chars) {
        if (this.isSpace(c)) { if (run) words.push(run); run = ""; } else run += c;
      }
      if (run) words.push(run);
      return words.join(" ").toLowerCase();
    }

    // -- tiles.py Speller ---------------------------------------------------------------------
    translate(chars, deleteBreak = false) {
      let out = "";
      for (const c of chars) {
        if (deleteBreak && c === BREAK_PUA) continue;
        out += this.canonical.get(c) ?? c;
      }
      return out;
    }
    keyOf(spelling) {                                       // Speller.key_of
      const s = this.multiRe ? spelling.replace(this.multiRe, (m) => this.multiKey.get(m)) : spelling;
      return this.translate([...s]);
    }
    tilesOf(key) { return [...key].map((c) => this.letter.get(c) || c.toUpperCase()); }
    toLatin(key) { return [...key].map((c) => this.latin.get(c) ?? c).join(""); }
    someTile(key) {                                          // tiles._some_tile
      if (!key) throw new OfflineError("empty_word", "the word holds no tile (only '|')");
      return key;
    }
    keys(word, known, limit = this.rules.speller.max_readings) {   // Speller.keys
      const text = this.rules.speller.phrases ? word.replaceAll(" ", "") : word;
      const m = this.mark;
      if (!this.multi.some(([s]) => text.includes(s)) && !text.includes(m.open) && !text.includes(m.close)) {
        return [this.someTile(this.translate([...text.replaceAll(m.break, "")]))];
      }
      const read = new Text(this, text);
      const preferred = this.someTile(read.notation ? read.first() : this.keyOf(text));
      const layers = new Map([[0, [["", ""]]]]);
      const pending = [0];
      const cmp = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
      while (pending.length) {
        pending.sort((a, b) => a - b);
        const i = pending.shift();
        const layer = layers.get(i);
        if (i === read.n) break;
        layers.delete(i);
        if (layer.length > limit) { layer.sort(cmp); layer.length = limit; }
        const here = read.options(i);
        const crowded = layer.length > 1 || here.length > 1;
        for (const [rank, key] of layer) {
          here.forEach(([j, c], r) => {
            const longer = key + c;
            if (known && crowded && c && !known(longer)) return;
            if (!layers.has(j)) { layers.set(j, []); pending.push(j); }
            layers.get(j).push([rank + String.fromCharCode(48 + r), longer]);
          });
        }
      }
      const found = (layers.get(read.n) || []).sort(cmp).slice(0, limit);
      return [preferred, ...found.map((x) => x[1]).filter((k) => k !== preferred)].slice(0, limit);
    }

    // -- the release's records, from the two KWGs ----------------------------------------------
    nums(key) {
      const out = [];
      for (const c of key) {
        const n = this.numbers.get(c);
        if (n === undefined) return null;
        out.push(n);
      }
      return out;
    }
    // {valid, code} of key's record, or null (checker: rel.get(key))
    record(key) {
      const nums = this.nums(key);
      if (!nums) return this.unheld(key);
      const a = this.admitted.walk(nums);
      if (a > 0 && this.admitted.accepts(a)) return { valid: true, code: null };
      const b = this.others.walk(nums);
      if (b >= 0) {
        for (const p of this.others.children(b)) {
          const t = this.others.tile(p);
          if (t > this.codeBase) {
            const code = this.codes[t - this.codeBase - 1];
            return code === "" ? { valid: true, code: null } : { valid: false, code };
          }
        }
      }
      return this.unheld(key);
    }
    // a key the pack does not hold: none (the release has no record of it), or, in a pack of
    // the keys tiling needs only, a key tiling does not need: no valid word, reason unknown
    unheld(key) {
      if (!this.tiling || this.tiling.some((s) => key.includes(s))) return null;
      return { valid: false, code: this.unheldCode };
    }
    hasPrefix(prefix) {                                     // Release.has_prefix
      const nums = this.nums(prefix);
      return !!nums && (this.admitted.walk(nums) >= 0 || this.others.walk(nums) >= 0);
    }

    // -- validity.py Validity: the steps, in order ------------------------------------------------
    broken(key, rec, edge) {                                 // Validity.broken
      const c = { key, rec, edge, n: [...key].length,
                  foreign: [...new Set([...key].filter((ch) => !this.letter.has(ch)))] };
      for (const s of this.steps) {
        const code = TESTS[s.test](s, c);
        if (code !== null) return code;
      }
      return null;
    }
    lengths(edge) {                                          // Validity.compiled(edge)
      return [least(this.step.get("shorter"), edge), this.step.get("longer").most];
    }

    // -- play.py PlayRules ----------------------------------------------------------------------
    jokerLetters(key) { return [...key].filter((c) => this.jokerOnly.has(c)).map((c) => this.letter.get(c)); }
    jokerValue(c) { return this.jokerValues.get(c) || 0; }   // PlayRules.joker_value
    score(key, jokers = []) {                                 // PlayRules.score
      let total = 0;
      for (const c of key) {
        const v = this.values.get(c);
        if (v === undefined || v === null) return null;
        total += v;
      }
      for (const c of jokers) total += this.jokerValue(c) - (this.values.get(c) || 0);
      return total;
    }
    wordPoints(key, opening) {                                // PlayRules.word_points
      const s = this.score(key);
      if (s === null || !opening || !this.opening) return s;
      return s * ([...key].some((c) => this.opening.doubles.includes(c)) ? this.opening.factor : 1);
    }
    openingScore(key) {                                       // PlayRules.opening_score
      return this.opening ? this.wordPoints(key, true) : null;
    }

    // -- checker.py ----------------------------------------------------------------------------
    reasonText(code, lang) {
      const texts = this.rules.reasons[lang] || this.rules.reasons.en;
      return texts[code] || code;
    }
    check(text, { edge = false, lang = null } = {}) {          // checker._verdict
      lang = lang || this.rules.players_language;
      const word = this.cleanWord(text);
      const cache = new Map();
      const record = (k) => { if (!cache.has(k)) cache.set(k, this.record(k)); return cache.get(k); };
      const keys = this.keys(word, (p) => this.hasPrefix(p));
      let key = null;
      let held = false;
      for (const test of [(r) => r && r.valid, (r) => r !== null]) {
        key = keys.find((k) => test(record(k)));
        if (key !== undefined) { held = true; break; }
      }
      if (!held) key = keys[0];
      const rec = held ? record(key) : null;
      const code = this.broken(key, rec, edge);
      const needs = ["analyses", "meanings", "sources", "evidence"];
      if (code && rec && !rec.valid) needs.push(code === this.unheldCode ? "reason" : "reason.detail");
      const result = {
        input: text, game: this.id, word: this.toLatin(key), valid: code === null,
        tiles: this.tilesOf(key), score: this.score(key),
        reason: code ? { code, message: this.reasonText(code, lang) } : null,
        alternatives: keys.filter((k) => k !== key).map((k) => {
          const r = record(k);
          return { tiles: this.tilesOf(k), known: r !== null, valid: !!(r && r.valid) };
        }),
        jokers_needed: this.jokerLetters(key), release: this.release, offline: true,
        needs_server: needs,
      };
      const opening = this.openingScore(key);
      if (opening !== null) result.opening_score = opening;
      // gloss.spelled_in: the reader of the language that reads the game's keys as written
      // (Kvizovka: Cyrillic, one letter a tile) gets the word and tiles as the key itself;
      // the lemmas need the server
      if (this.keysLanguage !== null && lang === this.keysLanguage) {
        const upper = (k) => [...k].map((c) => c.toUpperCase());
        result.script = { word: key, tiles: upper(key), lemmas: {},
          alternatives: keys.filter((k) => k !== key).map(upper) };
      }
      return result;
    }
    // the answer for one word, an error included, as check_many gives it
    answer(text, options) {
      try { return this.check(text, options); } catch (err) {
        if (!(err instanceof OfflineError)) throw err;
        return { input: text, game: this.id, valid: false, error: err.toJSON(), offline: true };
      }
    }

    // -- judge.py: one ruling for a play -------------------------------------------------------
    judge(words, { edge = false } = {}) {
      if (!Array.isArray(words)) throw new OfflineError("bad_play", "the play must be a list of words");
      if (!words.length) throw new OfflineError("empty_play", "the play has no words");
      const max = this.rules.max_play_words;            // judge.MAX_PLAY_WORDS
      if (words.length > max) {
        throw new OfflineError("play_too_large", `${words.length} words; a play has at most ${max}`, { max_words: max });
      }
      const refuse = (codes) => {       // judge._refuse: one error naming no word
        const sorted = [...new Set(codes)].sort();
        if (sorted.length) {
          throw new OfflineError(sorted[0], `a word of the play cannot be read (${sorted[0]}); correct it and ask again: nothing was ruled`);
        }
      };
      refuse(words.map((w) => {
        if (typeof w !== "string") return "bad_play";
        try { this.cleanWord(w); return null; } catch (err) { if (err instanceof OfflineError) return err.code; throw err; }
      }).filter((c) => c));
      // checker.edges: one flag for the play, or one a word (the words that touch the edge)
      const ok = typeof edge === "boolean" ||
        (Array.isArray(edge) && edge.length === words.length && edge.every((e) => typeof e === "boolean"));
      if (!ok) {
        throw new OfflineError("bad_play", `edge must be true, false or a list of ${words.length} flags, one a word in the order of the words`);
      }
      const flags = Array.isArray(edge) ? edge : words.map(() => edge);
      const results = words.map((w, i) => this.answer(w, { edge: flags[i] }));
      refuse(results.filter((r) => r.error).map((r) => r.error.code));
      const stands = results.every((r) => r.valid);
      return { game: this.id, release: this.release, verdict: stands ? "stands" : "falls",
               valid: stands, count: words.length, offline: true };
    }

    // -- jokers: the admitted words a word with '?' can be (queries.blanks) ------------------------
    blanks(text, { edge = false, limit = 100 } = {}) {
      const word = this.cleanWord(text);
      const runs = word.split("?");
      let readings = [[]];
      runs.forEach((run, at) => {
        const parts = run && run.replaceAll(this.mark.break, "") ? this.keys(run, at === 0 ? (p) => this.hasPrefix(p) : null) : [""];
        const next = [];
        for (const r of readings) {
          for (const k of [...new Set(parts)].sort()) {
            const slots = [...r, ...[...k].map((c) => c)];
            if (at < runs.length - 1) slots.push(null);
            next.push(slots);
            if (next.length >= this.rules.speller.max_readings) break;
          }
          if (next.length >= this.rules.speller.max_readings) break;
        }
        readings = next;
      });
      const [low, high] = this.lengths(edge);
      const over = this.step.get("letters_over");
      const found = new Map();
      for (const slots of readings) {
        const needed = slots.filter((s) => s === null || this.jokerOnly.has(s)).length;
        if (needed > over.most) {
          throw new OfflineError(over.code, `needs ${needed} jokers; the game has ${over.most}`);
        }
        if (slots.length < low || slots.length > high) continue;
        const nums = slots.map((s) => (s === null ? null : this.numbers.get(s)));
        if (nums.some((n) => n === undefined)) continue;
        const byNumber = new Map([...this.numbers].map(([c, n]) => [n, c]));
        const walk = (list, i, key) => {
          if (!list) return;
          for (let p = list; ; p += 1) {
            const t = this.admitted.tile(p);
            if (nums[i] === null || nums[i] === t) {
              const k = key + byNumber.get(t);
              if (i === nums.length - 1) {
                if (this.admitted.accepts(p) && !found.has(k)) {
                  found.set(k, slots.map((s, j) => (s === null || this.jokerOnly.has(s) ? j : -1)).filter((j) => j >= 0));
                }
              } else walk(this.admitted.arc(p), i + 1, k);
            }
            if (this.admitted.end(p)) break;
          }
        };
        walk(this.admitted.root(), 0, "");
      }
      const keys = [...found.keys()].sort((a, b) => this.order(a, b));
      const results = keys.slice(0, limit).map((k) => {
        const at = found.get(k);
        const chars = [...k];
        return { word: this.toLatin(k), key: k, tiles: this.tilesOf(k),
                 jokers: at.map((j) => ({ position: j + 1, letter: this.letter.get(chars[j]) })),
                 score: this.score(k, at.map((j) => chars[j])) };
      });
      return { game: this.id, release: this.release, count: found.size, results, offline: true };
    }
    order(a, b) {          // the alphabet order of results: the profile's tile order
      const rank = this.rankOf || (this.rankOf = new Map(this.rules.profile.tiles.map((t, i) => [t.canonical, i])));
      const x = [...a];
      const y = [...b];
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
        const d = (rank.get(x[i]) ?? 999) - (rank.get(y[i]) ?? 999);
        if (d) return d;
      }
      return x.length - y.length;
    }
  }

  // tiles.py _Text: a typed text ready to read (code points, not UTF-16 units)
  class Text {
    constructor(game, text) {
      const m = game.mark;
      this.notation = text.includes(m.break) || text.includes(m.open) || text.includes(m.close);
      const [detect, keyed] = this.notation ? Text.scan(game, [...text]) : [[...text], [...text]];
      this.n = detect.length;
      this.keyed = keyed;
      this.game = game;
      this.spots = new Map();
      for (const [spelling, canonical] of game.multi) {
        const s = [...spelling];
        for (let at = 0; at + s.length <= detect.length; at += 1) {
          if (s.every((c, k) => detect[at + k] === c)) {
            if (!this.spots.has(at)) this.spots.set(at, []);
            this.spots.get(at).push([at + s.length, canonical]);
          }
        }
      }
      this.starts = [...this.spots.keys()].sort((a, b) => a - b);
    }
    static scan(game, chars) {
      const m = game.mark;
      if (!chars.includes(m.open) && !chars.includes(m.close)) {
        const plain = chars.map((c) => (c === m.break ? BREAK_PUA : c));
        return [plain, plain];
      }
      const detect = [];
      const keyed = [];
      let i = 0;
      while (i < chars.length) {
        const ch = chars[i];
        if (ch === m.open) {
          const end = chars.indexOf(m.close, i);
          if (end === -1) throw new OfflineError("bad_tile_notation", `unclosed '[' at position ${i + 1}`, { position: i + 1 });
          const inner = chars.slice(i + 1, end).join("");
          if (!inner) throw new OfflineError("bad_tile_notation", `empty '[]' at position ${i + 1}`, { position: i + 1 });
          const canonical = game.tileOf(inner);
          if (canonical === null) throw new OfflineError("bad_tile_notation", `[${inner}] is not a tile of ${game.rules.profile.name}`, { position: i + 1 });
          detect.push(FORCED_PUA);
          keyed.push(canonical);
          i = end + 1;
          continue;
        }
        if (ch === m.close) throw new OfflineError("bad_tile_notation", `']' without '[' at position ${i + 1}`, { position: i + 1 });
        const c = ch === m.break ? BREAK_PUA : ch;
        detect.push(c);
        keyed.push(c);
        i += 1;
      }
      return [detect, keyed];
    }
    options(i) {
      const here = this.spots.get(i);
      if (here === undefined) {
        let k = 0;
        while (k < this.starts.length && this.starts[k] < i) k += 1;
        const j = k < this.starts.length ? this.starts[k] : this.n;
        return [[j, this.game.translate(this.keyed.slice(i, j), true)]];
      }
      return [...here, [i + 1, this.game.translate([this.keyed[i]], true)]];
    }
    first() {
      let out = "";
      let i = 0;
      while (i < this.n) {
        const [j, c] = this.options(i)[0];
        out += c;
        i = j;
      }
      return out;
    }
  }

  // Speller.tile: the canonical code point of the tile written `text` (spelling or canonical)
  Game.prototype.tileOf = function tileOf(text) {
    for (const t of this.rules.profile.tiles) {
      if (t.letter.toLowerCase() === text || t.canonical === text) return t.canonical;
    }
    return null;
  };

  // -- keeping packs on the device (Cache Storage), and answering from them -----------------------
  const CACHE = "referee-offline-v1";
  const games = new Map();      // game id -> Game (loaded)

  // The server answers 503 `pack_not_ready` (with Retry-After) while it makes a pack, and
  // another worker of the same server may still be reading a pack the first one has made;
  // with `until` (saving) the page asks again, at most PACK_WAIT_MS in all.
  const PACK_WAIT_MS = 300000;
  const RETRY_MS = 5000;        // when the server names no Retry-After
  async function fetchReady(url, until, gameId) {
    for (;;) {
      const r = await fetch(url, { cache: "no-store" });
      if (r.ok) return r;
      const after = Number(r.headers.get("Retry-After")) * 1000 || RETRY_MS;
      if (!until || r.status !== 503 || Date.now() + after > until) {
        throw new OfflineError("offline_unavailable", "the server has no offline pack for " + gameId);
      }
      await new Promise((done) => setTimeout(done, after));
    }
  }

  async function fetchPack(gameId, { wait = false } = {}) {
    const until = wait ? Date.now() + PACK_WAIT_MS : 0;
    const r = await fetchReady(`/v1/games/${encodeURIComponent(gameId)}/offline`, until,
                               gameId);
    return r.json();
  }

  // Save `gameId`'s current release for offline use: its rules and words go into the Cache
  // Storage (the service worker answers from there), and the choice is remembered.
  async function save(gameId) {
    const info = await fetchPack(gameId, { wait: true });
    const until = Date.now() + PACK_WAIT_MS;
    const parts = [];
    for (const url of [info.rules, info.words]) parts.push([url, await fetchReady(url, until, gameId)]);
    const cache = await caches.open(CACHE);           // both in hand: none is kept alone
    for (const [url, r] of parts) await cache.put(url, r);
    const saved = savedPacks();
    const old = saved[gameId];
    saved[gameId] = { release: info.release, rules: info.rules, words: info.words,
                      saved_at: new Date().toISOString(), words_bytes: info.words_bytes };
    localStorage.setItem("referee-offline", JSON.stringify(saved));
    if (old && old.release !== info.release) {        // the older release is dropped whole
      await cache.delete(old.rules);
      await cache.delete(old.words);
    }
    games.delete(gameId);
    return saved[gameId];
  }

  function savedPacks() {
    try { return JSON.parse(localStorage.getItem("referee-offline") || "{}"); } catch (e) { return {}; }
  }

  async function load(gameId) {
    const hit = games.get(gameId);
    if (hit) return hit;
    const saved = savedPacks()[gameId];
    if (!saved) return null;
    const cache = await caches.open(CACHE);
    const [rules, words] = await Promise.all([cache.match(saved.rules), cache.match(saved.words)]);
    if (!rules || !words) return null;
    const game = new Game(await rules.json(), await words.arrayBuffer());
    games.set(gameId, game);
    return game;
  }

  // Is a newer release than the saved one on the server? (null: cannot tell, offline)
  async function newer(gameId) {
    const saved = savedPacks()[gameId];
    if (!saved) return null;
    try {
      const info = await fetchPack(gameId);
      return info.release !== saved.release ? info.release : false;
    } catch (e) { return null; }
  }

  // -- rulings made offline, kept on the device ------------------------------------------------
  function rulings() {
    try { return JSON.parse(localStorage.getItem("referee-offline-rulings") || "[]"); } catch (e) { return []; }
  }
  function keepRuling(ruling, words, edge) {
    const all = rulings();
    const entry = { time: new Date().toISOString(), game: ruling.game, release: ruling.release,
                    words, edge, verdict: ruling.verdict, offline: true };
    all.push(entry);
    localStorage.setItem("referee-offline-rulings", JSON.stringify(all));
    return entry;
  }
  function exportRulings() {        // JSON lines, the server log's shape plus `offline`
    return rulings().map((r) => JSON.stringify(r)).join("\n") + (rulings().length ? "\n" : "");
  }

  return { Game, Kwg, OfflineError, CACHE, save, load, newer, savedPacks, rulings, keepRuling,
           exportRulings, fetchPack };
})();

if (typeof module !== "undefined") module.exports = Offline;
