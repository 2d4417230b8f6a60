// The service worker: the app's own files kept for offline use (skyjo.web.pwa serves it at /sw.js,
// with `const BUILD = {version, shells, files}` put before this text).
// - On install, every file of static/ and the page shells (/, /scorepad, /replay, /rules) go into a
//   cache named after the build's version; on activation the caches of other versions are dropped.
// - A page (a navigation) and a file of the app: the network first, its answer kept in the cache;
//   without a connection, the cached copy: a room's page (/r/CODE) and a replay's are the front
//   page's shell, a sheet's page (/scorepad/ID) the scorepad's.
// - Everything else (the API, the WebSocket) goes to the network untouched: never cached here.
/* global BUILD */
const CACHE = `skyjo-${BUILD.version}`;
const KEPT = new Set(BUILD.files);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...BUILD.shells, ...BUILD.files].map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting(); // the network comes first anyway: the new files may serve at once
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("skyjo-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The shell that shows `path` (a page of the app), or null. */
function shellOf(path) {
  if (/^\/scorepad(\/[A-Za-z0-9]{1,16})?\/?$/.test(path)) return "/scorepad";
  if (/^\/replay(\/[A-Za-z0-9]{1,20})?\/?$/.test(path)) return "/replay";
  if (/^\/rules\/?$/.test(path)) return "/rules";
  if (path === "/" || /^\/r\/[A-Za-z0-9]{1,12}(\/replay)?\/?$/.test(path)) return "/";
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    const shell = shellOf(url.pathname);
    if (shell) event.respondWith(networkFirst(event, request, shell));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(networkFirst(event, request, url.pathname));
  }
});

/** The network's answer to `request` (kept as `key` when it is a success), else the cached `key`. */
async function networkFirst(event, request, key) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  } catch (failure) {
    const cached = (await caches.match(key, { cacheName: CACHE })) ?? (await caches.match(key));
    if (cached) return cached;
    throw failure;
  }
}
