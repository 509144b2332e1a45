// The referee page, two modes. Talks only to this server's JSON API:
//   GET  /v1/games                              games, current releases, players' language
//   GET  /v1/games/{game}/words/{word}?lang=    lookup: verdict, reason, glossed analyses
//   GET  /v1/games/{game}/blanks?word=...       joker fillings for a word with '?'
//   POST /v1/games/{game}/judge                 judge: one verdict for a whole play
// The judge mode never asks for `reveal` and shows nothing per word: the challenger must
// not learn which word failed. Its verdict clears itself after a configurable delay.
// The address follows what the page shows (history.replaceState), so a ruling can be linked
// to: ?game=kvizovka&word=ljubav opens that look-up with its verdict, ?game=osps&mode=judge
// the judge (never with its words or verdict); &lang= keeps an explicit language.
"use strict";

const $ = (id) => document.getElementById(id);
const LANGS = Object.keys(UI_TEXT);
let games = {};
let lang = "en";
let resetTimer = null;
let lastLookup = null;      // re-shown in the new language when the language changes
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

function setRelease(id) { $("release").textContent = id || "(none built)"; }

// -- language ------------------------------------------------------------------------------

function browserLanguage() {
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = l.toLowerCase().split("-")[0];
    if (["sr", "hr", "bs", "sh"].includes(base)) return "sr";
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

// An explicit choice wins; otherwise the chosen game's players' language, then the browser's.
function defaultLanguage() {
  if (linkLang) return linkLang;
  const chosen = localStorage.getItem("referee-lang");
  if (chosen && LANGS.includes(chosen)) return chosen;
  const g = games[$("game").value];
  if (g && LANGS.includes(g.players_language)) return g.players_language;
  return browserLanguage();
}

function applyLanguage(next) {
  lang = next;
  $("lang").value = lang;
  document.documentElement.lang = lang === "sr" ? "sr-Latn" : lang;   // sr-Cyrl as it is
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("hint").textContent = t("hints")[$("game").value] || "";
  for (const node of document.querySelectorAll("[data-t-placeholder]")) {
    node.placeholder = t(node.dataset.tPlaceholder);
  }
  labelGames();
  if (lastLookup) lookup();
  syncAddress();
}

// -- the address ---------------------------------------------------------------------------

function explicitLanguage() {
  return linkLang || localStorage.getItem("referee-lang");
}

// The address of what the page shows: the game, the look-up's word, or the judge mode.
function syncAddress() {
  const params = new URLSearchParams();
  params.set("game", $("game").value);
  if (!$("judge").hidden) params.set("mode", "judge");
  else if (lastLookup) params.set("word", lastLookup);
  const chosen = explicitLanguage();
  if (chosen) params.set("lang", chosen);
  history.replaceState(null, "", "?" + params.toString());
}

async function copyLink() {
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    $("copy-status").textContent = t("copied");
  } catch (err) {                  // no clipboard (an insecure origin): show it to copy
    $("copy-status").textContent = t("copyHere") + " " + url;
  }
}

// -- lookup mode ---------------------------------------------------------------------------

function tileValues(game) {
  const values = {};
  for (const x of (games[game] && games[game].tiles) || []) values[x.letter] = x.value;
  return values;
}

function showTiles(game, tiles, jokerPositions = []) {
  const values = tileValues(game);
  const box = $("tiles");
  box.replaceChildren();
  tiles.forEach((x, i) => {
    const joker = jokerPositions.includes(i + 1);
    const value = joker ? "" : (values[x] ?? "");
    box.append(el("span", { class: joker ? "tile joker" : "tile" }, x, el("sub", {}, String(value))));
  });
}

function clearAnswer() {
  for (const id of ["reason", "score", "shown-word", "copy-status"]) $(id).textContent = "";
  $("share").hidden = true;
  for (const id of ["tiles", "meanings", "analyses", "alternatives", "fillings"]) $(id).replaceChildren();
}

function verdict(target, kind, text) {
  target.className = "verdict " + kind;
  target.textContent = text;
}

async function getJSON(url, options = {}) {
  const r = await fetch(url, { headers: { Accept: "application/json", "Content-Type": "application/json" }, ...options });
  const body = await r.json();
  if (!r.ok) throw body;
  return body;
}

function showCheck(game, r) {
  verdict($("verdict"), r.valid ? "valid" : "invalid", r.valid ? t("valid") : t("invalid"));
  $("shown-word").textContent = r.word;
  $("reason").textContent = r.reason ? r.reason.message +
    (r.reason.detail ? " — " + r.reason.detail : "") + " [" + r.reason.code + "]" : "";
  showTiles(game, r.tiles);
  $("score").textContent = r.score === null ? "" : t("score") + " " + r.score +
    (r.opening_score !== undefined ? " (" + t("opening") + " " + r.opening_score + ")" : "");
  // what a real dictionary says (never made up), with its source and licence; an admitted
  // word no source lists says so
  const meanings = r.meanings || [];
  section($("meanings"), t("meanings"), !r.valid ? [] : meanings.length ? meanings.map((m) =>
    m.lemma + ": " + (m.translations || (m.synonyms || []).map((s) => s.join(", "))).join("; ") +
    " (" + m.name + ", " + m.license + ")") : [t("noMeaning")]);
  section($("analyses"), t("analyses"), r.analyses.map((a) =>
    a.lemma + " — " + (a.gloss ? a.gloss + " · " : "") + a.tags + " (" + a.source + ")"));
  section($("alternatives"), t("alternatives"), r.alternatives.map((a) => a.tiles.join("-") +
    ": " + (a.valid ? t("otherValid") : a.known ? t("otherInvalid") : t("otherUnknown"))));
  if (r.jokers_needed && r.jokers_needed.length) {
    section($("fillings"), t("needsJoker"), [r.jokers_needed.join(", ")]);
  }
  setRelease(r.release);
}

function showBlanks(game, word, r) {
  const n = r.count;
  verdict($("verdict"), n ? "valid" : "invalid", n ? t("valid") : t("invalid"));
  $("shown-word").textContent = word.toUpperCase();
  $("reason").textContent = n ? t("fit", n) : t("noFit");
  if (n) {
    const first = r.results[0];
    showTiles(game, first.tiles, first.jokers.map((j) => j.position));
    $("score").textContent = t("score") + " " + first.score + " (" + first.word + ")";
  }
  section($("fillings"), t("fillings"), r.results.map((w) =>
    w.word + "  — ? = " + w.jokers.map((j) => j.letter).join(", ") + "  (" + t("score") + " " + w.score + ")"));
  setRelease(r.release);
}

async function lookup(event) {
  if (event) event.preventDefault();
  const game = $("game").value;
  const word = $("word").value.trim();
  if (!word) return;
  lastLookup = word;
  clearAnswer();
  $("answer").hidden = false;
  syncAddress();
  const g = encodeURIComponent(game);
  try {
    if (word.includes("?")) {
      showBlanks(game, word, await getJSON(`/v1/games/${g}/blanks?limit=100&word=${encodeURIComponent(word)}`));
    } else {
      showCheck(game, await getJSON(`/v1/games/${g}/words/${encodeURIComponent(word)}?lang=${encodeURIComponent(lang)}`));
    }
    $("share").hidden = false;     // a look-up's verdict may be linked to (never a judge's)
  } catch (err) {
    verdict($("verdict"), "error", t("cannot"));
    $("reason").textContent = (err && err.message) ? err.message + (err.code ? " [" + err.code + "]" : "") : String(err);
  }
  if (event) $("word").select();
}

// -- judge mode ----------------------------------------------------------------------------

function playWords() {
  return $("play-words").value.split(/[\n,]+/).map((w) => w.trim()).filter((w) => w);
}

function resetSeconds() {
  const n = Number($("reset-seconds").value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 600) : 10;
}

function clearRuling() {
  clearInterval(resetTimer);
  resetTimer = null;
  $("ruling").hidden = true;
  $("ruling").className = "ruling";
  $("judge-verdict").textContent = "";
  $("judge-detail").textContent = "";
  $("countdown").textContent = "";
}

function resetPlay() {
  clearRuling();
  $("play-words").value = "";
  $("play-edge").checked = false;
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

async function judgePlay(event) {
  if (event) event.preventDefault();
  const words = playWords();
  if (!words.length) return;
  clearRuling();
  const game = $("game").value;
  try {
    const r = await getJSON(`/v1/games/${encodeURIComponent(game)}/judge`, {
      method: "POST", body: JSON.stringify({ words, edge: $("play-edge").checked, lang }) });
    $("ruling").className = "ruling " + (r.valid ? "valid" : "invalid");
    verdict($("judge-verdict"), r.valid ? "valid" : "invalid", r.valid ? t("stands") : t("falls"));
    $("judge-detail").textContent = t("words", r.count);
    setRelease(r.release);
  } catch (err) {
    verdict($("judge-verdict"), "error", t("cannot"));
    $("judge-detail").textContent = (err && err.message) ? err.message + (err.code ? " [" + err.code + "]" : "") : String(err);
  }
  $("ruling").hidden = false;
  startCountdown();
}

// -- modes, game, start --------------------------------------------------------------------

function setMode(mode) {
  const judge = mode === "judge";
  $("lookup").hidden = judge;
  $("judge").hidden = !judge;
  $("mode-lookup").setAttribute("aria-selected", String(!judge));
  $("mode-judge").setAttribute("aria-selected", String(judge));
  localStorage.setItem("referee-mode", mode);
  (judge ? $("play-words") : $("word")).focus();
  syncAddress();
}

function showJokerButton() {
  const g = games[$("game").value];
  $("joker").hidden = !(g && g.jokers && g.jokers.count > 0);
}

// -- the "building" notice: games a running build has not published yet -------------------
// While some game is being built (GET /v1/games: state "building"), the page says which and
// asks again every 20 s; a game published meanwhile becomes choosable without a reload.

function labelGames() {
  for (const g of Object.values(games)) {
    const opt = $("game").querySelector(`option[value="${g.id}"]`);
    if (opt) opt.textContent = g.name + (g.release ? ""
      : " " + t(g.state === "building" ? "beingBuilt" : "notBuilt"));
  }
  showBuilding();
}

function showBuilding() {
  const names = Object.values(games).filter((g) => g.state === "building").map((g) => g.name);
  $("building").hidden = !names.length;
  $("building").textContent = names.length ? t("stillBuilding") + ": " + names.join(", ") : "";
}

function watchBuilding() {
  if (!Object.values(games).some((g) => g.state === "building")) return;
  setTimeout(async () => {
    try {
      for (const g of await getJSON("/v1/games")) games[g.id] = g;
      setRelease(games[$("game").value].release);
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
  const list = await getJSON("/v1/games");
  const select = $("game");
  for (const g of list) {
    games[g.id] = g;
    select.append(el("option", { value: g.id }, g.name));
  }
  const link = new URLSearchParams(location.search);
  const saved = link.get("game") || localStorage.getItem("referee-game");
  const first = list.find((g) => g.release);
  select.value = (saved && games[saved]) ? saved : (first ? first.id : list[0].id);
  if (LANGS.includes(link.get("lang"))) linkLang = link.get("lang");
  setRelease(games[select.value].release);
  showJokerButton();
  const seconds = localStorage.getItem("referee-reset-seconds");
  if (seconds !== null) $("reset-seconds").value = seconds;
  const word = link.get("word");
  const mode = link.get("mode") || (word ? "lookup" : localStorage.getItem("referee-mode"));
  applyLanguage(defaultLanguage());
  setMode(mode === "judge" ? "judge" : "lookup");
  watchBuilding();
  if (word && mode !== "judge") {
    $("word").value = word;
    await lookup();
  }
}

$("game").addEventListener("change", () => {
  localStorage.setItem("referee-game", $("game").value);
  setRelease(games[$("game").value].release);
  showJokerButton();
  $("answer").hidden = true;
  lastLookup = null;
  clearRuling();
  applyLanguage(defaultLanguage());
  ($("judge").hidden ? $("word") : $("play-words")).focus();
});
$("lang").addEventListener("change", () => {
  localStorage.setItem("referee-lang", $("lang").value);
  linkLang = null;
  applyLanguage($("lang").value);
});
$("copy-link").addEventListener("click", copyLink);
$("reset-seconds").addEventListener("change", () => {
  localStorage.setItem("referee-reset-seconds", String(resetSeconds()));
});
$("mode-lookup").addEventListener("click", () => setMode("lookup"));
$("mode-judge").addEventListener("click", () => setMode("judge"));
$("ask").addEventListener("submit", lookup);
$("play").addEventListener("submit", judgePlay);
$("play-words").addEventListener("input", () => { if (!$("ruling").hidden) clearRuling(); });
$("joker").addEventListener("click", () => {
  const w = $("word");
  const at = w.selectionStart ?? w.value.length;
  w.value = w.value.slice(0, at) + "?" + w.value.slice(w.selectionEnd ?? at);
  w.focus();
  w.setSelectionRange(at + 1, at + 1);
});
loadGames().catch((err) => {
  $("answer").hidden = false;
  verdict($("verdict"), "error", t("unavailable"));
  $("reason").textContent = String(err && err.message ? err.message : err);
});
