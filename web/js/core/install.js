// The site as an app: registers the service worker (`/sw.js`), which keeps this version of the
// site for use with no connection, and says when a new version is ready instead of mixing two
// versions' files in one page: "Reload" lets the new version take over, and the page reloads
// on it. Loaded after the page has loaded, so that the first load does not wait for it. It
// also sends the games finished in the page with no connection, now and when the connection
// returns (../offline/send.js).

import { offlineGames } from './seats.js';

/** How often a page left open asks whether a new version is out (when it is shown again). */
const CHECK_EVERY_MS = 30 * 60 * 1000;

/** The note that a new version is ready, with its button (made once). */
function note(onReload) {
  let el = document.getElementById('update-note');
  if (el) return el;
  el = document.createElement('p');
  el.id = 'update-note';
  el.className = 'update-note';
  el.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = 'A new version of the site is ready.';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn primary';
  button.textContent = 'Reload';
  button.addEventListener('click', () => {
    button.disabled = true;
    onReload();
  });
  el.append(text, ' ', button);
  document.body.append(el);
  return el;
}

/** Sends the games played in the page that wait for the server, if any. */
function sendWaiting() {
  if (!offlineGames.all().some((g) => g.finished && !g.sent && !g.refused)) return;
  import('../offline/send.js').then((m) => m.sendPlayed()).catch(() => {});
}

export async function install() {
  sendWaiting();
  window.addEventListener('online', sendWaiting);
  if (!('serviceWorker' in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register('/sw.js');
  } catch {
    return; // A browser that refuses (private mode, an old one) has the site online only.
  }
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) window.location.reload();
  });
  /** A new worker waits: offer it, unless this page has no worker yet (the first visit). */
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return;
    note(() => {
      reloading = true;
      worker.postMessage({ type: 'take-over' });
    });
  };
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer(worker);
    });
  });
  let checked = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - checked < CHECK_EVERY_MS) return;
    checked = Date.now();
    registration.update().catch(() => {});
  });
}
