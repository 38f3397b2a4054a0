// The service worker (built into dist/sw.js by build/service-worker.ts, which fills in the file
// list and version): keeps the app shell, every built file (the /scan page and the decoder's .wasm
// among them) and the few API answers the scan page opens with, so /scan opens and judges scans
// with no signal at all. Built files have content-hashed names: kept for good, fetched once.
// Pages are asked from the network first (a new build shows at once) and come from the cache only
// without a signal; so do the kept API answers, which logging out deletes (lib/offline-store.ts).
const PRECACHE = self.__PRECACHE__;
const VERSION = self.__VERSION__;
const SHELL = `shell-${VERSION}`;
/** Must match API_CACHE in src/lib/offline-store.ts. */
const API_CACHE = 'scan-api';
/** The scan page's opening calls: who is signed in, today's session and its scans. */
const KEPT_API = [/^\/api\/v1\/users\/me$/, /^\/api\/v1\/scan\/sessions(\/\d+)?$/, /^\/api\/v1\/decisions\/rule-sets$/];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The network's answer, kept in `cacheName` under `key`; the kept one when there is no network. */
async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Every page is the same index.html (client-side routes).
    event.respondWith(networkFirst(request, SHELL, '/'));
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    if (KEPT_API.some((re) => re.test(url.pathname))) event.respondWith(networkFirst(request, API_CACHE, url.pathname + url.search));
    return;
  }
  if (url.pathname.startsWith('/assets/')) event.respondWith(caches.match(url.pathname).then((kept) => kept ?? fetch(request)));
});
