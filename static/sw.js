/* Domino Referee service worker (served from /sw.js so its scope is the whole app).
   Static files: from the cache first (precached at install). Pages: from the network,
   with the last copy seen shown when the network is unreachable. Nothing else
   (the API, the live stream, forms) is touched. */
"use strict";
const VERSION = "__CACHE_VERSION__";
const STATIC_CACHE = "referee-static-" + VERSION;
const PAGE_CACHE = "referee-pages-v1";
const PRECACHE = __PRECACHE__;
const STATIC_PREFIX = __STATIC_PREFIX__;
const PAGE_LIMIT = 40;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((key) => key.startsWith("referee-static-") && key !== STATIC_CACHE).map((key) => caches.delete(key))
  )).then(() => self.clients.claim()));
});

async function trim(cache) {
  const keys = await cache.keys();
  for (let i = 0; i < keys.length - PAGE_LIMIT; i++) await cache.delete(keys[i]);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(caches.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(STATIC_CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    })));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      const type = response.headers.get("Content-Type") || "";
      if (response.ok && type.startsWith("text/html")) {
        const copy = response.clone();
        caches.open(PAGE_CACHE).then((cache) => cache.put(request, copy).then(() => trim(cache)));
      }
      return response;
    }).catch(() => caches.match(request).then((hit) => hit || new Response(
      "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
      "<title>Offline</title><p style='font:18px system-ui;padding:1rem'>The referee cannot be reached " +
      "right now. Check that the tablet and the computer running it are on the same network, then reload.",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }))));
  }
});
