// Atendi's service worker (ARCHITECTURE.md "Installable app"). The build (vite.config.ts) writes it to
// dist/sw.js after two constants: VERSION, a hash of the build, and PRECACHE, the app shell (index.html,
// the first load's chunks and styles, the texts, the offline page, the manifest and its icons).
/* global VERSION, PRECACHE */

// Web Push (public/push-sw.js): the notification of a push and what a click on it opens.
importScripts('/push-sw.js');

// One cache per build: a deployment's worker fills its own and, once in charge, drops the others.
const CACHE = `atendi-${VERSION}`;
const INDEX = '/index.html';
const OFFLINE = '/offline.html';
const RUNTIME_CONFIG = '/runtime-config.js';

self.addEventListener('install', (event) => {
  // From the server, not the browser's HTTP cache, which may still hold the previous build's files.
  const fresh = (path) => new Request(path, { cache: 'reload' });
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...PRECACHE, RUNTIME_CONFIG].map(fresh))),
  );
  // No skipWaiting here: a new version waits until the app's "Actualizar" (SKIP_WAITING below), so a
  // tab never runs one build's code with another build's files.
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith('atendi-') && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      // The first visit's page too, so the chunks it loads lazily are kept from now on.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') self.skipWaiting();
});

// Hashed build files (/assets/*) never change under their name: from the cache, else from the
// network and kept (the lazy chunks, on first use). Only whole, successful answers are kept.
const cacheFirst = async (request) => {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200) await cache.put(request, response.clone());
  return response;
};

// The runtime config names the API and may change without a new build: the server's when it answers,
// else the last one seen.
const networkFirst = async (request) => {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw error;
  }
};

// Every route of the app is index.html (the web server answers it for any path without an
// extension): the server's, so a deployment shows at once; when it cannot be reached, the cached
// shell, which starts the app (and the app shows the offline page if the API cannot be reached
// either); with no shell cached, the offline page.
const page = async (request) => {
  try {
    return await fetch(request);
  } catch {
    const cache = await caches.open(CACHE);
    return (await cache.match(INDEX)) ?? (await cache.match(OFFLINE)) ?? Response.error();
  }
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // The API is another origin (PUBLIC_API_URL: its routes, socket.io, uploads), as is any other site:
  // none of it is touched, let alone cached. Nor is anything but a GET.
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const { pathname } = url;
  if (request.mode === 'navigate' && !/\.[^/]*$/.test(pathname)) {
    event.respondWith(page(request));
  } else if (pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else if (pathname === RUNTIME_CONFIG) {
    event.respondWith(networkFirst(request));
  } else if (PRECACHE.includes(pathname)) {
    // The offline page (opened as /offline.html?from=…), the manifest, the icons.
    event.respondWith(
      caches
        .open(CACHE)
        .then((cache) => cache.match(pathname))
        .then((hit) => hit ?? fetch(request)),
    );
  }
  // Anything else of this origin (a file the build does not have) goes to the network as usual.
});
