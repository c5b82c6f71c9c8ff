// The service worker (issue 25): the pages a player or organiser opened keep working
// without signal. Served from the site's root by tournaments/results/views/offline.py (its scope
// is the whole site), which puts `const AGON_STATIC = "/static/";` in front of this file.
//
// - The pages of a table and a round (a player's link, the recording board, the results
//   screen, the round page and its score sheets): network first; the copy kept from the
//   last answer when there is none. Kept per URL only: a player's link carries its own
//   token, the organiser's pages are hers until she logs out (then they are dropped).
// - Static files: network first too (the modules import each other by plain names,
//   which would go stale cache-first), the kept copy without signal.
// - Everything else (the admin, the API, other pages, every POST) passes untouched.
// The queue of what was typed offline is the pages' (agon/offline_queue.js), not ours:
// a POST is never answered from here.
/* global AGON_STATIC */
const PAGES = "agon-pages-v1";
const FILES = "agon-static-v1";
const NETWORK_WAIT_MS = 6000; // a signal that answers nothing in this time counts as none

const PAGE_PATHS = [
  /^\/report\/[^/]+\/$/,
  /^\/games\/\d+\/record\/([^/]+\/)?$/,
  /^\/t\/[^/]+\/manage\/rounds\/\d+\/results\/$/,
  /^\/t\/[^/]+\/rounds\/\d+\/$/,
  /^\/t\/[^/]+\/rounds\/\d+\/sheets\/$/,
];
const isPage = (url) => url.origin === self.location.origin && PAGE_PATHS.some((p) => p.test(url.pathname));
const isFile = (url) => url.origin === self.location.origin && url.pathname.startsWith(AGON_STATIC);
const key = (url) => {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (![PAGES, FILES].includes(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

function timeout(promise) {
  return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), NETWORK_WAIT_MS))]);
}

// Only a whole page of our own, answered as asked (not a redirect to the login page).
function keepable(response) {
  return response.ok && response.status === 200 && response.type === "basic" && !response.redirected;
}

async function networkFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  try {
    const response = await timeout(fetch(request));
    if (keepable(response)) await cache.put(key(request.url), response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key(request.url), { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/admin")) return;
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    // The organiser's pages are hers: gone with her session.
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  // Pages only as whole documents: a live page's polls ask the same URL for fragments.
  if (request.mode === "navigate" && isPage(url)) event.respondWith(networkFirst(request, PAGES));
  else if (isFile(url)) event.respondWith(networkFirst(request, FILES));
});

// A page opened before this worker controlled it (the first visit) sends what it loaded:
// {type: "keep", urls: [...]}, its own URL and its files, and pages to have at hand (the
// score sheets of the round). A page kept this way brings the files it names.
async function keep(urls) {
  const pages = await caches.open(PAGES);
  const files = await caches.open(FILES);
  const seen = new Set();
  const fetchInto = async (href) => {
    const url = new URL(href, self.location.origin);
    const name = key(url.href);
    if (seen.has(name) || (!isPage(url) && !isFile(url))) return;
    seen.add(name);
    try {
      const response = await fetch(name, { credentials: "same-origin" });
      if (!keepable(response)) return;
      await (isPage(url) ? pages : files).put(name, response.clone());
      if (isPage(url)) {
        const html = await response.text();
        for (const [, found] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
          const inner = new URL(found.replaceAll("&amp;", "&"), url);
          if (isFile(inner)) await fetchInto(inner.href);
        }
      }
    } catch {
      // Offline already: what is kept stays.
    }
  };
  for (const href of urls) await fetchInto(href);
}

self.addEventListener("message", (event) => {
  const data = event.data ?? {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    const done = keep(data.urls.slice(0, 200));
    event.waitUntil(done);
    done.then(() => event.source?.postMessage({ type: "kept" }));
  }
});
