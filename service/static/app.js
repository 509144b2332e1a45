// The referee page: one input, one verdict. Talks only to this server's JSON API:
//   GET /v1/games                          games and their current releases
//   GET /v1/games/{game}/words/{word}      the verdict (reason, analyses, tiles, score)
//   GET /v1/games/{game}/blanks?word=...   joker fillings for a word with '?'
"use strict";

const $ = (id) => document.getElementById(id);
let games = {};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function section(target, title, items) {
  target.replaceChildren();
  if (!items.length) return;
  target.append(el("h2", {}, title), el("ul", {}, ...items.map((t) => el("li", {}, t))));
}

function setRelease(id) { $("release").textContent = id || "(none built)"; }

function tileValues(game) {
  const values = {};
  for (const t of (games[game] && games[game].tiles) || []) values[t.letter] = t.value;
  return values;
}

function showTiles(game, tiles, jokerPositions = []) {
  const values = tileValues(game);
  const box = $("tiles");
  box.replaceChildren();
  tiles.forEach((t, i) => {
    const joker = jokerPositions.includes(i + 1);
    const value = joker ? "" : (values[t] ?? "");
    box.append(el("span", { class: joker ? "tile joker" : "tile" }, t, el("sub", {}, String(value))));
  });
}

function clear() {
  for (const id of ["reason", "score", "shown-word"]) $(id).textContent = "";
  for (const id of ["tiles", "analyses", "alternatives", "fillings"]) $(id).replaceChildren();
}

function verdict(kind, text) {
  const v = $("verdict");
  v.className = "verdict " + kind;
  v.textContent = text;
  $("answer").hidden = false;
}

async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await r.json();
  if (!r.ok) throw body;
  return body;
}

function showCheck(game, r) {
  verdict(r.valid ? "valid" : "invalid", r.valid ? "VALID" : "INVALID");
  $("shown-word").textContent = r.word;
  $("reason").textContent = r.reason ? r.reason.message +
    (r.reason.detail ? " — " + r.reason.detail : "") + " [" + r.reason.code + "]" : "";
  showTiles(game, r.tiles);
  $("score").textContent = r.score === null ? "" : "score " + r.score +
    (r.opening_score !== undefined ? " (opening " + r.opening_score + ")" : "");
  section($("analyses"), "Lemma and analysis",
    r.analyses.map((a) => a.lemma + " — " + (a.gloss ? a.gloss + " · " : "") + a.tags +
                          " (" + a.source + ")"));
  section($("alternatives"), "Other readings",
    r.alternatives.map((a) => a.tiles.join("-") + ": " + (a.valid ? "valid" : a.known ? "not valid" : "unknown")));
  if (r.jokers_needed && r.jokers_needed.length) {
    section($("fillings"), "Needs a joker for", [r.jokers_needed.join(", ")]);
  }
  setRelease(r.release);
}

function showBlanks(game, word, r) {
  const n = r.count;
  verdict(n ? "valid" : "invalid", n ? "VALID" : "INVALID");
  $("shown-word").textContent = word.toUpperCase();
  $("reason").textContent = n ? n + (n === 1 ? " word fits" : " words fit") + " the jokers"
                              : "no admissible word fits the jokers";
  if (n) {
    const first = r.results[0];
    showTiles(game, first.tiles, first.jokers.map((j) => j.position));
    $("score").textContent = "score " + first.score + " (" + first.word + ")";
  }
  section($("fillings"), "Joker fillings", r.results.map((w) =>
    w.word + "  — ? = " + w.jokers.map((j) => j.letter).join(", ") + "  (score " + w.score + ")"));
  setRelease(r.release);
}

async function ask(event) {
  if (event) event.preventDefault();
  const game = $("game").value;
  const word = $("word").value.trim();
  if (!word) return;
  clear();
  try {
    if (word.includes("?")) {
      const r = await getJSON(`/v1/games/${encodeURIComponent(game)}/blanks?limit=100&word=${encodeURIComponent(word)}`);
      showBlanks(game, word, r);
    } else {
      const r = await getJSON(`/v1/games/${encodeURIComponent(game)}/words/${encodeURIComponent(word)}`);
      showCheck(game, r);
    }
  } catch (err) {
    verdict("error", "Cannot check");
    $("reason").textContent = (err && err.message) ? err.message + (err.code ? " [" + err.code + "]" : "") : String(err);
  }
  $("word").select();
}

async function loadGames() {
  const list = await getJSON("/v1/games");
  const select = $("game");
  for (const g of list) {
    games[g.id] = g;
    select.append(el("option", { value: g.id }, g.name + (g.release ? "" : " (not built)")));
  }
  const saved = localStorage.getItem("referee-game");
  const first = list.find((g) => g.release);
  select.value = (saved && games[saved]) ? saved : (first ? first.id : list[0].id);
  setRelease(games[select.value].release);
}

$("game").addEventListener("change", () => {
  localStorage.setItem("referee-game", $("game").value);
  setRelease(games[$("game").value].release);
  $("answer").hidden = true;
  $("word").focus();
});
$("ask").addEventListener("submit", ask);
$("joker").addEventListener("click", () => {
  const w = $("word");
  const at = w.selectionStart ?? w.value.length;
  w.value = w.value.slice(0, at) + "?" + w.value.slice(w.selectionEnd ?? at);
  w.focus();
  w.setSelectionRange(at + 1, at + 1);
});
loadGames().then(() => $("word").focus()).catch((err) => {
  verdict("error", "Service unavailable");
  $("reason").textContent = String(err && err.message ? err.message : err);
});
