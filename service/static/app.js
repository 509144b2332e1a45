// The referee page, two modes. Talks only to this server's JSON API:
//   GET  /v1/games?lang=                        games (names in the page's language), releases
//   GET  /v1/games/{game}/words/{word}?lang=    lookup: verdict, reason, glossed analyses
//   GET  /v1/games/{game}/blanks?word=...       joker fillings for a word with '?'
//   POST /v1/games/{game}/judge                 judge: one verdict for a whole play
//   POST /v1/games/remik/move                   Remik: a ruling on a move (table before/after)
// The judge mode never asks for `reveal` and shows nothing per word: the challenger must
// not learn which word failed. Its verdict clears itself after a configurable delay.
// A Remik move lies open on the table: its ruling (points, penalty, letters sent back) is
// shown whole and may be linked to.
// The address follows what the page shows (history.replaceState), so a ruling can be linked
// to: ?game=kvizovka&word=ljubav opens that look-up with its verdict, ?game=osps&mode=judge
// the judge (never with its words or verdict), ?game=remik&mode=judge&before=..&after=..
// &rack=.. a Remik move with its ruling; &lang= keeps an explicit language. An address means
// what it says: only a bare "/" restores the game and mode used last.
// A verdict shown always belongs to the input shown: any edit clears it (stale verdicts).
"use strict";

const $ = (id) => document.getElementById(id);
const LANGS = Object.keys(UI_TEXT);
const games = new Map();    // id -> summary: only the games (never a key like "__proto__")
let lang = "en";
let resetTimer = null;
let lastLookup = null;      // the submitted word whose verdict is shown
let lastMove = null;        // the submitted Remik move whose ruling is shown
let shownRuling = null;     // the play's ruling shown (re-worded when the language changes)
let linkLang = null;        // a language the address asked for (not remembered)

function t(key, ...args) {
  const v = (UI_TEXT[lang] || UI_TEXT.en)[key];
  return typeof v === "function" ? v(...args) : v;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function section(target, title, items) {
  target.replaceChildren();
  if (!items.length) return;
  target.append(el("h2", {}, title), el("ul", {}, ...items.map((x) => el("li", {}, x))));
}

function list(target, items) {
  target.replaceChildren(...items.map((x) => el("li", {}, x)));
}

function setRelease(id) { $("release").textContent = id || "(none built)"; }

function game() { return games.get($("game").value); }

// -- language ------------------------------------------------------------------------------

function browserLanguage() {
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = l.toLowerCase().split("-")[0];
    if (["sr", "hr", "bs", "sh"].includes(base)) return "sr";
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function savedLanguage() {
  const chosen = localStorage.getItem("referee-lang");
  return chosen && LANGS.includes(chosen) ? chosen : null;
}

// An explicit choice wins; otherwise the chosen game's players' language, then the browser's.
function defaultLanguage() {
  if (linkLang) return linkLang;
  const chosen = savedLanguage();
  if (chosen) return chosen;
  const g = game();
  if (g && LANGS.includes(g.players_language)) return g.players_language;
  return browserLanguage();
}

// Re-words the page and what it shows; re-asks the server only for what was submitted
// (never for an edit not yet submitted), and leaves the address's word or move as it is.
async function applyLanguage(next) {
  lang = next;
  $("lang").value = lang;
  document.documentElement.lang = lang === "sr" ? "sr-Latn" : lang;   // sr-Cyrl as it is
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("hint").textContent = t("hints")[$("game").value] || "";
  for (const node of document.querySelectorAll("[data-t-placeholder]")) {
    node.placeholder = t(node.dataset.tPlaceholder);
  }
  // the controls' accessible names, in the page's language like everything it shows
  for (const node of document.querySelectorAll("[data-t-label]")) {
    node.setAttribute("aria-label", t(node.dataset.tLabel));
  }
  for (const node of document.querySelectorAll("[data-t-title]")) node.title = t(node.dataset.tTitle);
  if (shownRuling) showRuling(shownRuling);
  syncAddress();
  const asked = lang;
  await Promise.all([gameNames(asked), lastLookup ? lookup() : null, lastMove ? ruleMove() : null]);
}

// The games' names in the page's language, from the server (`title`).
async function gameNames(asked) {
  let list;
  try {
    list = await getJSON("/v1/games?lang=" + encodeURIComponent(asked));
  } catch (err) {
    return;                           // the names stay as they were
  }
  if (asked !== lang) return;         // the language changed again meanwhile
  for (const g of list) {
    if (games.has(g.id)) games.set(g.id, g);
  }
  labelGames();
}

// -- the address ---------------------------------------------------------------------------

function explicitLanguage() {
  return linkLang || savedLanguage();
}

// The address of what the page shows: the game, the look-up's word, the judge mode, or a
// Remik move with its ruling.
function syncAddress() {
  const params = new URLSearchParams();
  params.set("game", $("game").value);
  if (!$("judge").hidden) {
    params.set("mode", "judge");
    if (lastMove) {
      for (const [k, v] of Object.entries(moveParams(lastMove))) params.set(k, v);
    }
  } else if (lastLookup) params.set("word", lastLookup);
  const chosen = explicitLanguage();
  if (chosen) params.set("lang", chosen);
  history.replaceState(null, "", "?" + params.toString());
}

async function copyLink(status) {
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    $(status).textContent = t("copied");
  } catch (err) {                  // no clipboard (an insecure origin): show it to copy
    $(status).textContent = t("copyHere") + " " + url;
  }
}

// -- lookup mode ---------------------------------------------------------------------------

function tileValues(g) {
  const values = new Map();
  for (const x of (g && g.tiles) || []) values.set(x.letter, x.value);
  return values;
}

// ``shown``: the tiles as the reader writes them (Cyrillic), when the server gave them
function showTiles(g, tiles, jokerPositions = [], shown = null) {
  const values = tileValues(g);
  const box = $("tiles");
  box.replaceChildren();
  tiles.forEach((x, i) => {
    const joker = jokerPositions.includes(i + 1);
    const value = joker ? "" : (values.get(x) ?? "");
    box.append(el("span", { class: joker ? "tile joker" : "tile" }, shown ? shown[i] : x,
      el("sub", {}, String(value))));
  });
}

function clearAnswer() {
  for (const id of ["reason", "score", "shown-word", "copy-status"]) $(id).textContent = "";
  delete $("reason").dataset.code;
  $("share").hidden = true;
  for (const id of ["tiles", "meanings", "analyses", "alternatives", "fillings"]) $(id).replaceChildren();
}

// An edit makes the verdict shown another word's: it goes, and the address with it.
function dropStaleAnswer() {
  if (lastLookup === null || $("word").value.trim() === lastLookup) return;
  lastLookup = null;
  clearAnswer();
  $("verdict").textContent = "";
  $("answer").hidden = true;
  syncAddress();
}

function verdict(target, kind, text) {
  target.className = "verdict " + kind;
  target.textContent = text;
}

function checking(target) { verdict(target, "pending", t("checking")); }

async function getJSON(url, options = {}) {
  const r = await fetch(url, { headers: { Accept: "application/json", "Content-Type": "application/json" }, ...options });
  const body = await r.json();
  if (!r.ok) throw body;
  return body;
}

// -- offline hook (offline-page.js, offline.js) -----------------------------------------------
// When the server cannot be reached (no network, or no answer within a few seconds once the
// game is saved on this device), the saved word list answers instead, marked as offline;
// `ask` says what was asked.
async function getOrOffline(url, options, ask) {
  const offline = typeof OfflinePage !== "undefined" ? OfflinePage : null;
  if (offline) offline.shown(null);
  try {
    return await getJSON(url, offline ? { ...options, signal: offline.signal(ask.game) } : options);
  } catch (err) {
    if (!offline || !offline.unreachable(err)) throw err;
    // a Remik move is ruled by remik-offline.js, everything else by offline-page.js
    return ask.kind === "move" && typeof RemikOffline !== "undefined" ? RemikOffline.answer(ask)
      : offline.answer(ask);
  }
}

function errorText(err) {
  return (err && err.message) ? err.message + (err.code ? " [" + err.code + "]" : "") : String(err);
}

// A reason in the page's language only: the server's `detail` is English.
function reasonText(reason) {
  return reason.message + (reason.detail && lang === "en" ? " — " + reason.detail : "");
}

// A reason as the players read it: its text only; the code stays in `data-code` (for a
// referee's tools and the tests), never shown.
function showReason(node, reason) {
  node.textContent = reason ? reasonText(reason) : "";
  if (reason && reason.code) node.dataset.code = reason.code;
  else delete node.dataset.code;
  return node;
}

// Remik's opening score only for a word long enough to open (or re-open) with.
function openingNote(g, r) {
  if (r.opening_score === undefined || !r.valid || !g) return "";
  const shortest = Math.min(...[g.opening_min_length, g.reopening_min_length]
    .filter((n) => typeof n === "number"));
  return r.tiles.length >= shortest ? " (" + t("opening") + " " + r.opening_score + ")" : "";
}

function showCheck(g, r) {
  const script = r.script || null;        // sr-Cyrl: the word, tiles and lemmas in Cyrillic
  const lemma = (l) => (script && Object.hasOwn(script.lemmas, l) ? script.lemmas[l] : l);
  verdict($("verdict"), r.valid ? "valid" : "invalid", r.valid ? t("valid") : t("invalid"));
  $("shown-word").textContent = script ? script.word : r.word;
  showReason($("reason"), r.reason);
  showTiles(g, r.tiles, [], script && script.tiles);
  $("score").textContent = r.score === null ? "" : t("score") + " " + r.score + openingNote(g, r);
  // what a real dictionary says (never made up), with its source and licence; an admitted
  // word no source lists says so
  const meanings = r.meanings || [];
  section($("meanings"), t("meanings"), !r.valid ? [] : meanings.length ? meanings.map((m) =>
    lemma(m.lemma) + ": " + (m.translations || (m.synonyms || []).map((s) => s.join(", "))).join("; ") +
    " (" + m.name + ", " + m.license + ")") : [t("noMeaning")]);
  section($("analyses"), t("analyses"), r.analyses.map((a) =>
    lemma(a.lemma) + " — " + (a.gloss ? a.gloss + " · " : "") + a.tags + " (" + a.source + ")"));
  section($("alternatives"), t("alternatives"), r.alternatives.map((a, i) =>
    (script && script.alternatives ? script.alternatives[i] : a.tiles).join("-") +
    ": " + (a.valid ? t("otherValid") : a.known ? t("otherInvalid") : t("otherUnknown"))));
  if (r.jokers_needed && r.jokers_needed.length) {
    section($("fillings"), t("needsJoker"), [r.jokers_needed.join(", ")]);
  }
  setRelease(r.release);
  if (typeof OfflinePage !== "undefined") OfflinePage.shown(r);       // offline hook
}

function showBlanks(g, word, r) {
  const n = r.count;
  verdict($("verdict"), n ? "valid" : "invalid", n ? t("valid") : t("invalid"));
  $("shown-word").textContent = word.toUpperCase();
  $("reason").textContent = n ? t("fit", n) : t("noFit");
  if (n) {
    const first = r.results[0];
    showTiles(g, first.tiles, first.jokers.map((j) => j.position));
    $("score").textContent = t("score") + " " + first.score + " (" + first.word + ")";
  }
  section($("fillings"), t("fillings"), r.results.map((w) =>
    w.word + "  — ? = " + w.jokers.map((j) => j.letter).join(", ") + "  (" + t("score") + " " + w.score + ")"));
  setRelease(r.release);
  if (typeof OfflinePage !== "undefined") OfflinePage.shown(r);       // offline hook
}

// Checks the word in the box (on submit), or again the word shown (the language changed).
async function lookup(event) {
  if (event) event.preventDefault();
  const id = $("game").value;
  const word = event ? $("word").value.trim() : lastLookup;
  if (!word) return;
  lastLookup = word;
  clearAnswer();
  checking($("verdict"));
  $("answer").hidden = false;
  syncAddress();
  const g = encodeURIComponent(id);
  const asked = { id, word, lang };
  const current = () => lastLookup === asked.word && $("game").value === asked.id &&
    lang === asked.lang;
  try {
    const ask = { kind: word.includes("?") ? "blanks" : "check", game: id, word, edge: false,
      lang };
    const r = word.includes("?")
      ? await getOrOffline(`/v1/games/${g}/blanks?limit=100&word=${encodeURIComponent(word)}`, {}, ask)
      : await getOrOffline(`/v1/games/${g}/words/${encodeURIComponent(word)}?lang=${encodeURIComponent(lang)}`, {}, ask);
    if (!current()) return;        // another word, game or language was asked meanwhile
    if (word.includes("?")) showBlanks(games.get(id), word, r);
    else showCheck(games.get(id), r);
    $("share").hidden = false;     // a look-up's verdict may be linked to (never a judge's)
  } catch (err) {
    if (!current()) return;
    verdict($("verdict"), "error", t("cannot"));
    $("reason").textContent = errorText(err);
  }
  if (event) $("word").select();
}

// -- judge mode: a play's words ------------------------------------------------------------

function playWords() {
  return $("play-words").value.split(/[\n,]+/).map((w) => w.trim()).filter((w) => w);
}

function hasEdgeRule() {
  const g = game();
  return Boolean(g && g.edge_min_length);
}

// Kvizovka: one box a word of the play, ticked for each word that touches the board's edge
// (the rule is a word's, not the play's); ticks stay with their words while the list is edited.
function showEdgeWords() {
  const words = hasEdgeRule() ? playWords() : [];
  const ticked = new Set([...$("edge-words").querySelectorAll("input:checked")]
    .map((box) => box.dataset.word));
  $("edge-row").hidden = !words.length;
  $("edge-words").replaceChildren(...words.map((w, i) => {
    const box = el("input", { type: "checkbox", id: "edge-" + (i + 1), "data-word": w });
    box.checked = ticked.has(w);
    return el("label", { class: "edge-word" }, box, el("span", {}, w));
  }));
}

function edgeFlags() {
  return [...$("edge-words").querySelectorAll("input")].map((box) => box.checked);
}

function resetSeconds() {
  const n = Number($("reset-seconds").value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 600) : 10;
}

function clearRuling() {
  clearInterval(resetTimer);
  resetTimer = null;
  shownRuling = null;
  $("ruling").hidden = true;
  $("ruling").className = "ruling";
  for (const id of ["judge-verdict", "judge-detail", "countdown", "move-figures", "move-shelf",
    "move-copy-status"]) $(id).textContent = "";
  for (const id of ["move-reasons", "move-extra", "move-words"]) $(id).replaceChildren();
  $("move-share").hidden = true;
}

function resetPlay() {
  clearRuling();
  $("play-words").value = "";
  showEdgeWords();
  $("play-words").focus();
}

function startCountdown() {
  let left = resetSeconds();
  if (left === 0) return;            // 0: the verdict stays until the next play
  $("countdown").textContent = t("clearsIn", left);
  resetTimer = setInterval(() => {
    left -= 1;
    if (left <= 0) resetPlay();
    else $("countdown").textContent = t("clearsIn", left);
  }, 1000);
}

function showRuling(r) {
  shownRuling = r;
  $("ruling").className = "ruling " + (r.valid ? "valid" : "invalid");
  verdict($("judge-verdict"), r.valid ? "valid" : "invalid", r.valid ? t("stands") : t("falls"));
  $("judge-detail").textContent = t("words", r.count);
}

async function judgePlay(event) {
  if (event) event.preventDefault();
  const words = playWords();
  if (!words.length) return;
  clearRuling();
  const id = $("game").value;
  const edge = hasEdgeRule() ? edgeFlags() : false;
  try {
    const r = await getOrOffline(`/v1/games/${encodeURIComponent(id)}/judge`, {
      method: "POST", body: JSON.stringify({ words, edge, lang }) },
      { kind: "judge", game: id, words, edge });
    showRuling(r);
    setRelease(r.release);
    if (typeof OfflinePage !== "undefined") OfflinePage.shown(r);     // offline hook
  } catch (err) {
    verdict($("judge-verdict"), "error", t("cannot"));
    $("judge-detail").textContent = errorText(err);
  }
  $("ruling").hidden = false;
  startCountdown();
}

// -- judge mode: a Remik move --------------------------------------------------------------

const MOVE_FIELDS = { before: "move-before", after: "move-after", rack: "move-rack",
  kind: "move-kind", variant: "move-variant" };
// what the ruling's fields this page knows are; any other field the server adds is listed
const MOVE_KNOWN = new Set(["game", "release", "kind", "variant", "form_legal", "words_valid",
  "valid", "verdict", "reasons", "words", "to_shelf", "points", "penalty", "total", "outcome",
  "assignment", "judge", "time"]);

function isRemik() {
  const g = game();
  return Boolean(g && g.opening_min_length);   // a game of table moves
}

function moveForm() {
  const form = {};
  for (const [k, id] of Object.entries(MOVE_FIELDS)) form[k] = $(id).value.trim();
  return form;
}

function moveParams(move) {
  const out = { before: move.before, after: move.after, rack: move.rack };
  if (move.kind !== "move") out.kind = move.kind;
  if (move.variant !== "1") out.variant = move.variant;
  return out;
}

function fillMove(params) {
  for (const [k, id] of Object.entries(MOVE_FIELDS)) {
    const v = params.get(k);
    if (v === null) continue;
    if ($(id).tagName === "SELECT" && ![...$(id).options].some((o) => o.value === v)) continue;
    $(id).value = v;
  }
}

function tableWords(text) {
  return text.split(/[\s,]+/).filter((w) => w);
}

function extraLines(r) {
  const out = [];
  for (const [k, v] of Object.entries(r)) {
    if (MOVE_KNOWN.has(k) || v === null || v === undefined || v === false) continue;
    if (v && typeof v === "object" && typeof v.message === "string") out.push(v.message);
    else if (Array.isArray(v) && v.length) {
      out.push(k.replace(/_/g, " ") + ": " + v.map((x) => (typeof x === "object" ?
        (x.word || x.message || JSON.stringify(x)) : String(x))).join(", "));
    } else if (typeof v === "string" || typeof v === "number") out.push(k.replace(/_/g, " ") + ": " + v);
  }
  return out;
}

const WORD_KINDS = { kept: "wordKept", remnant: "wordRemnant", new: "wordNew",
  rebuilt: "wordRebuilt" };

// "KOTY: rebuilt · KOTEK (K O T) + Y · 4": which table word became which, and its points
function moveWordLine(w) {
  const parts = [w.word.toUpperCase() + ": " + (t(WORD_KINDS[w.kind] || "") || w.kind)];
  const from = (w.from || []).map((f) => f.word.toUpperCase() + " (" + f.letters.join(" ") + ")");
  const own = (w.own || []).join(" ");
  if (from.length || own) parts.push(from.concat(own ? [own] : []).join(" + "));
  if (w.points !== undefined) parts.push(t("points") + " " + w.points);
  return parts.join(" · ");
}

function showMove(r) {
  $("ruling").className = "ruling " + (r.valid ? "valid" : "invalid");
  verdict($("judge-verdict"), r.valid ? "valid" : "invalid", r.valid ? t("stands") : t("falls"));
  $("judge-detail").textContent = r.outcome ? r.outcome.message : "";
  $("move-reasons").replaceChildren(...r.reasons.map((x) => showReason(el("li"), x)));
  $("move-figures").textContent = t("points") + " " + r.points + " · " + t("penalty") + " " +
    r.penalty + " · " + t("total") + " " + r.total;
  $("move-shelf").textContent = r.to_shelf && r.to_shelf.length
    ? t("toShelf") + " " + r.to_shelf.join(" ") : "";
  section($("move-words"), t("wordsOfMove"), r.words.map(moveWordLine));
  list($("move-extra"), extraLines(r));
  $("move-share").hidden = false;
  setRelease(r.release);
  $("ruling").scrollIntoView({ block: "nearest" });    // below the form on a phone
}

// Rules on the move in the form (on submit), or again the move shown (the language changed).
async function ruleMove(event) {
  if (event) event.preventDefault();
  const move = event ? moveForm() : lastMove;
  if (!move || !move.after) return;
  lastMove = move;
  clearRuling();
  checking($("judge-verdict"));
  $("ruling").hidden = false;
  syncAddress();
  const asked = lang;
  try {
    const body = { before: tableWords(move.before), after: tableWords(move.after), rack: move.rack,
      opening: move.kind === "opening", reopening: move.kind === "reopening",
      variant: Number(move.variant), lang };
    const r = await getOrOffline("/v1/games/remik/move", { method: "POST", body: JSON.stringify(body) },
      { kind: "move", game: "remik", move: body });
    if (lastMove !== move || lang !== asked) return;   // another move or language meanwhile
    showMove(r);
    if (typeof OfflinePage !== "undefined") OfflinePage.shown(r);     // offline hook
  } catch (err) {
    if (lastMove !== move) return;
    verdict($("judge-verdict"), "error", t("cannot"));
    $("judge-detail").textContent = errorText(err);
  }
}

function dropStaleMove() {
  if (!lastMove) return;
  lastMove = null;
  clearRuling();
  syncAddress();
}

// -- modes, game, start --------------------------------------------------------------------

// Which form the judge shows: Remik's move, or a play's words (with Kvizovka's edge boxes).
function showJudgeForms() {
  const remik = isRemik();
  $("move").hidden = !remik;
  $("play").hidden = remik;
  $("reset-row").hidden = remik;     // a move's ruling is open: it does not clear itself
  showEdgeWords();
}

function setMode(mode) {
  const judge = mode === "judge";
  $("lookup").hidden = judge;
  $("judge").hidden = !judge;
  $("mode-lookup").setAttribute("aria-selected", String(!judge));
  $("mode-judge").setAttribute("aria-selected", String(judge));
  localStorage.setItem("referee-mode", mode);
  (judge ? (isRemik() ? $("move-after") : $("play-words")) : $("word")).focus();
  syncAddress();
}

function showJokerButton() {
  const g = game();
  $("joker").hidden = !(g && g.jokers && g.jokers.count > 0);
}

// A deep link to a verdict says it is checking from the first moment, before the games load.
function showLinkPending(link) {
  lang = linkLang || savedLanguage() || browserLanguage();
  if (link.get("word") && link.get("mode") !== "judge") {
    $("answer").hidden = false;
    checking($("verdict"));
  }
}

// -- the "building" notice: games a running build has not published yet -------------------
// While some game is being built (GET /v1/games: state "building"), the page says which and
// asks again every 20 s; a game published meanwhile becomes choosable without a reload.

function gameLabel(g) {
  return (g.title || g.name) + (g.release ? ""
    : " " + t(g.state === "building" ? "beingBuilt" : "notBuilt"));
}

function labelGames() {
  for (const g of games.values()) {
    const opt = $("game").querySelector(`option[value="${CSS.escape(g.id)}"]`);
    if (opt) opt.textContent = gameLabel(g);
  }
  showBuilding();
}

function showBuilding() {
  const names = [...games.values()].filter((g) => g.state === "building")
    .map((g) => g.title || g.name);
  $("building").hidden = !names.length;
  $("building").textContent = names.length ? t("stillBuilding") + ": " + names.join(", ") : "";
}

function watchBuilding() {
  if (![...games.values()].some((g) => g.state === "building")) return;
  setTimeout(async () => {
    try {
      for (const g of await getJSON("/v1/games?lang=" + encodeURIComponent(lang))) {
        if (games.has(g.id)) games.set(g.id, g);
      }
      setRelease(game().release);
      labelGames();
    } catch (_) {
      // the server did not answer this time: the next round asks again
    } finally {
      watchBuilding();
    }
  }, 20000);
}
// -- end of the "building" notice ------------------------------------------------------------

async function loadGames() {
  const link = new URLSearchParams(location.search);
  if (LANGS.includes(link.get("lang"))) linkLang = link.get("lang");
  showLinkPending(link);
  // named in the page's language from the first moment (the device keeps each language's)
  const list = await getJSON("/v1/games?lang=" + encodeURIComponent(lang));
  const select = $("game");
  for (const g of list) {
    games.set(g.id, g);
    select.append(el("option", { value: g.id }, g.title || g.name));
  }
  // an address means what it says; only a bare "/" restores what was used last
  const bare = ![...link.keys()].length;
  const wanted = link.get("game") || (bare ? localStorage.getItem("referee-game") : null);
  const first = list.find((g) => g.release);
  select.value = (wanted && games.has(wanted)) ? wanted : (first ? first.id : list[0].id);
  setRelease(game().release);
  showJokerButton();
  showJudgeForms();
  const seconds = localStorage.getItem("referee-reset-seconds");
  if (seconds !== null) $("reset-seconds").value = seconds;
  const word = link.get("word");
  const mode = link.get("mode") || (bare ? localStorage.getItem("referee-mode") : "lookup");
  const judge = mode === "judge";
  if (word && !judge) {
    $("word").value = word;
    lastLookup = word.trim() || null;
  }
  if (judge && isRemik() && link.get("after")) {
    fillMove(link);
    lastMove = moveForm();
  }
  if (!lastLookup) $("answer").hidden = true;
  setMode(judge ? "judge" : "lookup");
  showBuilding();
  watchBuilding();
  await applyLanguage(defaultLanguage());     // checks the linked word or move
}

$("game").addEventListener("change", () => {
  localStorage.setItem("referee-game", $("game").value);
  setRelease(game().release);
  showJokerButton();
  $("answer").hidden = true;
  lastLookup = null;
  lastMove = null;
  clearRuling();
  showJudgeForms();
  applyLanguage(defaultLanguage());
  ($("judge").hidden ? $("word") : isRemik() ? $("move-after") : $("play-words")).focus();
});
$("lang").addEventListener("change", () => {
  localStorage.setItem("referee-lang", $("lang").value);
  linkLang = null;
  applyLanguage($("lang").value);
});
// The "copy link" row closes the look-up's answer (share, copy-link, copy-status) and the
// ruling (move-share, move-copy-link, move-copy-status): both copies of one template, the
// one index.html holds at the end of the answer.
for (const [place, prefix] of [["answer", ""], ["ruling", "move-"]]) {
  const row = $("share-row").content.firstElementChild.cloneNode(true);
  const [button, status] = row.children;
  row.id = prefix + "share";
  button.id = prefix + "copy-link";
  status.id = prefix + "copy-status";
  $(place).append(row);
  button.addEventListener("click", () => copyLink(status.id));
}
$("reset-seconds").addEventListener("change", () => {
  localStorage.setItem("referee-reset-seconds", String(resetSeconds()));
});
$("mode-lookup").addEventListener("click", () => setMode("lookup"));
$("mode-judge").addEventListener("click", () => setMode("judge"));
$("ask").addEventListener("submit", lookup);
$("word").addEventListener("input", dropStaleAnswer);
$("play").addEventListener("submit", judgePlay);
$("play-words").addEventListener("input", () => {
  if (!$("ruling").hidden) clearRuling();
  showEdgeWords();
});
$("edge-words").addEventListener("change", () => { if (!$("ruling").hidden) clearRuling(); });
$("move").addEventListener("submit", ruleMove);
for (const id of Object.values(MOVE_FIELDS)) {
  $(id).addEventListener("input", dropStaleMove);
  $(id).addEventListener("change", dropStaleMove);
}
$("joker").addEventListener("click", () => {
  const w = $("word");
  const at = w.selectionStart ?? w.value.length;
  w.value = w.value.slice(0, at) + "?" + w.value.slice(w.selectionEnd ?? at);
  w.focus();
  w.setSelectionRange(at + 1, at + 1);
  dropStaleAnswer();
});
function startPage() {
  loadGames().catch((err) => {
    $("answer").hidden = false;
    verdict($("verdict"), "error", t("unavailable"));
    $("reason").textContent = String(err && err.message ? err.message : err);
  });
}
// The page's offline scripts come after this one: a linked word is checked only once they
// have run, or a check made before them would miss the offline hook and, with no network,
// say "Failed to fetch" (the games list can come back from the device's copy while the
// next script is still being read).
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startPage);
else startPage();
