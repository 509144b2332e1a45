// sw.js: the referee page's service worker (served at /sw.js so it controls the page at /).
//
// * The page itself (HTML, CSS, scripts, the manifest) and the games list: from the network
//   when it answers within a few seconds, else from the copy kept at the last visit, so the
//   page opens with no network.
// * The offline packs (/v1/games/GAME/offline/RELEASE/rules|words): from the cache the page
//   saved them in ("Save for offline use"); a release never changes, so a saved pack is
//   never fetched again.
// * Everything else (verdicts, judge, queries): the network only. When it fails the page
//   answers from the saved pack itself (offline.js), marked as offline.
"use strict";

const SHELL = "referee-shell-v1";
const PACKS = "referee-offline-v1";          // offline.js CACHE
const SHELL_FILES = ["/", "/static/app.css", "/static/i18n.js", "/static/app.js",
  "/static/offline.js", "/static/remik-offline.js", "/static/offline-page.js", "/static/icon.svg", "/manifest.webmanifest"];
const NETWORK_WAIT_MS = 3000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

function shellKey(url) {
  return url.pathname === "/" ? "/" : url.pathname;     // "/?game=..." is the page too
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
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (/^\/v1\/games\/[^/]+\/offline\/[^/]+\/(rules|words)$/.test(url.pathname)) {
    event.respondWith(caches.open(PACKS).then((c) => c.match(url.pathname)).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate" || SHELL_FILES.includes(url.pathname) || url.pathname === "/v1/games") {
    event.respondWith(networkThenCache(request, url.pathname === "/v1/games" ? "/v1/games" : shellKey(url)));
  }
});
