// sw.js: the referee page's service worker (served at /sw.js so it controls the page at /).
//
// * The page itself (HTML, CSS, scripts, the manifest) and the games list: from the network
//   when it answers within a few seconds, else from the copy kept on the device, so the
//   page opens with no network. The games list is kept once for each interface language
//   (`/v1/games?lang=pl`, ...: each names the games in its own language).
// * "keep" (a message from the page when a game is saved for offline use): fetches and keeps
//   the page's files and the games list in every interface language the page sends, then
//   answers; only then does the page say *Saved*, so everything a saved game needs to open
//   by a new navigation with no network (a home-screen icon, a deep link) is on the device.
// * The offline packs (/v1/games/GAME/offline/RELEASE/rules|words): from the cache the page
//   saved them in ("Save for offline use"); a release never changes, so a saved pack is
//   never fetched again.
// * Everything else (verdicts, judge, queries): the network only. When it fails the page
//   answers from the saved pack itself (offline.js), marked as offline.
"use strict";

const SHELL = "referee-shell-v1";
const PACKS = "referee-offline-v1";          // offline.js CACHE
const SHELL_FILES = ["/", "/static/app.css", "/static/i18n.js", "/static/app.js",
  "/static/offline.js", "/static/remik-offline.js", "/static/offline-page.js", "/static/icon.svg",
  "/manifest.webmanifest"];
const GAMES = "/v1/games";
const NETWORK_WAIT_MS = 3000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// The key a request is kept under: the page for any address of it ("/?game=..." is the page
// too), the games list for its language only (no `lang`: each game's players' language).
function keyOf(url) {
  if (url.pathname === GAMES) return GAMES + "?lang=" + (url.searchParams.get("lang") || "");
  return url.pathname;
}

async function networkThenCache(request, key) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("slow network")), NETWORK_WAIT_MS)),
    ]);
    if (answer.ok) await cache.put(key, answer.clone());
    return answer;
  } catch (err) {
    // a language whose list was never kept: the list in each game's players' language
    const kept = (await cache.match(key)) || (key.startsWith(GAMES) && await cache.match(GAMES + "?lang="));
    if (kept) return kept;
    throw err;
  }
}

// Fetches and keeps, all or nothing, the page's files and the games list in `langs`.
async function keepShell(langs) {
  const lists = [GAMES, ...langs.map((l) => GAMES + "?lang=" + encodeURIComponent(l))];
  const wanted = [...SHELL_FILES, ...lists];
  const answers = await Promise.all(wanted.map((path) => fetch(path, { cache: "no-store" })));
  const failed = answers.findIndex((a) => !a.ok);
  if (failed >= 0) throw new Error(`${wanted[failed]}: HTTP ${answers[failed].status}`);
  const cache = await caches.open(SHELL);
  await Promise.all(answers.map((a, i) => cache.put(keyOf(new URL(wanted[i], self.location.origin)), a)));
  return wanted.length;
}

self.addEventListener("message", (event) => {
  const ask = event.data || {};
  const port = event.ports && event.ports[0];
  if (ask.type !== "keep" || !port) return;
  event.waitUntil(keepShell(Array.isArray(ask.langs) ? ask.langs.map(String) : [])
    .then((kept) => port.postMessage({ kept }))
    .catch((err) => port.postMessage({ error: String(err && err.message ? err.message : err) })));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (/^\/v1\/games\/[^/]+\/offline\/[^/]+\/(rules|words)$/.test(url.pathname)) {
    event.respondWith(caches.open(PACKS).then((c) => c.match(url.pathname)).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate" || SHELL_FILES.includes(url.pathname) || url.pathname === GAMES) {
    event.respondWith(networkThenCache(request, keyOf(url)));
  }
});
