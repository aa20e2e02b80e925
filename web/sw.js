// The service worker: it keeps this version of the site (the app's page and every file by its
// hashed name) so that the site opens, and its games play in the page, with no connection.
//
// - Files asked for by their hashed names come from what it keeps (they never change), else
//   from the network.
// - A page is asked of the network first (so that a page online is always the newest), and
//   when the network cannot answer, the app's kept page is shown: the app routes by the path.
// - The game server's API is never answered from here (online, the server decides), but for
//   the games' tables (tiles, exits: what the pages draw with), asked of the network first and
//   kept for when it cannot answer, so that a game can be played in the page with none.
//
// A new version of the site has a new worker (the build writes VERSION and PRECACHE, see
// `crates/server/build.rs`). It keeps the new files beside the old ones and waits: the open
// pages go on with the files they started with, and the page offers to reload
// (`web/js/core/install.js`), which asks it to take over (a `take-over` message). Once it has,
// the old version's files are dropped.

const VERSION = 'dev';
const PRECACHE = [];

/** The games' tables: the API's answers that change only with a new version of the server. */
const TABLES = ['/api/ink/tiles', '/api/ink/expansions', '/api/metro/tiles'];

const CACHE = `tracklayer-${VERSION}`;
const KEPT = new Set(PRECACHE);

/** How long a page waits for the network before the kept page is shown instead. */
const PAGE_WAIT_MS = 5000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...PRECACHE, ...TABLES])));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith('tracklayer-') && n !== CACHE).map((n) => caches.delete(n)));
    // The first version takes the pages open now at once (there is no other to mix with).
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'take-over') self.skipWaiting();
});

/** The app's page as this version keeps it. */
const keptPage = () => caches.match('/', { cacheName: CACHE, ignoreVary: true });

/**
 * The network's answer to a page; the kept page when the network fails, or when it is slow
 * (then the network's answer is waited for only if nothing is kept).
 */
async function page(request) {
  const answer = fetch(request);
  answer.catch(() => {});
  const slow = new Promise((resolve) => { setTimeout(() => resolve(null), PAGE_WAIT_MS); });
  try {
    return (await Promise.race([answer, slow])) || (await keptPage()) || (await answer);
  } catch {
    return (await keptPage()) || Response.error();
  }
}

/** A game's table: the network's, kept for later; the kept one when the network fails. */
async function table(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const copy = answer.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {});
    }
    return answer;
  } catch (e) {
    const kept = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
    if (kept) return kept;
    throw e;
  }
}

/** A hashed file: kept, else from the network. */
async function file(request) {
  const kept = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
  return kept || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (TABLES.includes(url.pathname) && !url.search) {
    event.respondWith(table(request));
    return;
  }
  if (url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(file(request));
  }
});

// Reminders by web push (see the server's `reminders`): the message is the server's JSON
// ({title, body, url, tag}), shown as a notification; a click opens (or focuses) its page.
self.addEventListener('push', (event) => {
  let m;
  try {
    m = event.data ? event.data.json() : {};
  } catch {
    m = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(m.title || 'tracklayer', {
    body: m.body || '',
    tag: m.tag || undefined,
    data: { url: m.url || '/' },
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = open.find((c) => c.url === url);
    if (same) return same.focus();
    const any = open.find((c) => 'navigate' in c);
    if (any) {
      await any.focus();
      return any.navigate(url);
    }
    return self.clients.openWindow(url);
  })());
});
