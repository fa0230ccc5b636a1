// The page's service worker (served at /sw.js so its scope is the whole page): the page, its
// scripts, styles, font and icons, the fan table, and the offline scorer (the Pyodide
// runtime and the scoring package, about 14 MB, kept at install where the server has them),
// so that offline the page takes hands and scores them on the device. Each is fetched from
// the network first (a new version is seen at once) and from the cache only when the network
// fails. Reading photos needs the server, and the page says so. Photos and scores (POST)
// are never cached.
"use strict";

const CACHE = "mjlens-page-v1";
const SHELL = [
  "./", "static/style.css", "static/words.js", "static/tiles.js", "static/glyphs.js", "static/faces.js",
  "static/notes.js", "static/photo.js", "static/upload.js", "static/render.js", "static/offline.js", "static/sets.js",
  "static/app.js", "static/score-worker.js",
  "static/fonts/page-cjk.woff", "static/manifest.webmanifest", "static/icons/icon.svg", "static/icons/icon-192.png", "static/icons/icon-512.png",
];
// The offline scorer (api/offline_scorer.py): kept when the server has it, skipped when not.
const SCORER = [
  "offline/scoring.zip", "offline/pyodide/pyodide.js", "offline/pyodide/pyodide.asm.js",
  "offline/pyodide/pyodide.asm.wasm", "offline/pyodide/python_stdlib.zip", "offline/pyodide/pyodide-lock.json",
];
// GET answers worth having offline besides the shell: the fan table (names of the fans) and
// the offline scorer's files.
const KEPT = /^\/v1\/fans(\?|$)|^\/offline\//;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(SHELL).then(() => Promise.all(SCORER.map((url) => cache.add(url).catch(() => null)))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function kept(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  const scope = new URL(self.registration.scope);
  const path = url.pathname.slice(scope.pathname.length - 1);
  return request.mode === "navigate" || path.startsWith("/static/") || KEPT.test(path);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (err) {
    const stored = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (stored) return stored;
    if (request.mode === "navigate") {
      const page = await cache.match("./");
      if (page) return page;
    }
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  if (kept(event.request)) event.respondWith(networkFirst(event.request));
});
