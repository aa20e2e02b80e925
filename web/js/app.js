// The app: a single-page app whose routes come from the games' modules (each game's index.js
// gives its pages, such as /ink/{id}, /ink/{id}/replay, /view/ink, /rules and /tutorial/ink)
// and from the other pages (the start page, the recent games, the challenges, the player
// pages). Each page loads what it needs itself: a game's tables only on that game's pages, and
// on the start page, which shows every game.

import { registerGames } from './core/games.js';
import { challengeRoutes } from './challenges/index.js';
import ink from './ink/index.js';
import metro from './metro/index.js';
import { pageRoutes, startRoute } from './pages/index.js';

/** The games, in the order the pages list them (the first is the start page's first choice). */
const GAMES = [ink, metro];
registerGames(GAMES);

/** What a path's `{name}` matches. */
const PARAMS = { id: '[0-9a-f]{24}', challenge: '[A-Za-z0-9_-]+' };

/** Every route, with a regular expression (and its parameters' names) for each of its paths. */
const ROUTES = [...GAMES.flatMap((g) => g.routes), ...challengeRoutes, ...pageRoutes].map((route) => ({
  ...route,
  patterns: [route.path].flat().map((path) => {
    const names = [];
    const source = path.replace(/\{(\w+)\}/g, (_, name) => {
      names.push(name);
      return `(${PARAMS[name]})`;
    });
    return { regex: new RegExp(`^${source}$`), names };
  }),
}));

/** The route of a path and its parameters; a path that no route takes shows the start page. */
function match(path) {
  for (const route of ROUTES) {
    for (const { regex, names } of route.patterns) {
      const m = regex.exec(path);
      if (m) return { route, params: Object.fromEntries(names.map((name, i) => [name, m[i + 1]])) };
    }
  }
  return { route: startRoute, params: {} };
}

const main = document.getElementById('app');

// A calm word while the server is busy and requests wait to be tried again.
const busyNote = document.createElement('p');
busyNote.id = 'busy-note';
busyNote.className = 'busy-note';
busyNote.setAttribute('role', 'status');
busyNote.hidden = true;
busyNote.textContent = 'The server is busy: trying again in a moment…';
document.body.append(busyNote);
window.addEventListener('tracklayer:busy', (ev) => { busyNote.hidden = ev.detail.waiting === 0; });
// A touch screen with no hover has no keys to tell of (the pages hide their key help).
document.documentElement.classList.toggle('touch', window.matchMedia('(hover: none) and (pointer: coarse)').matches);
let leave = null;
/** How many pages have been opened: the latest is the one shown. */
let shown = 0;

function setTitle(text) {
  document.title = text ? `${text} · tracklayer` : 'tracklayer: Railroad Ink and Metro';
}

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (ev) => {
  const a = ev.target.closest('a[data-link]');
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => route());

async function route() {
  if (leave) { leave(); leave = null; }
  main.classList.remove('spectator', 'offline');
  const path = location.pathname;
  document.querySelectorAll('.site-nav a').forEach((a) => {
    const href = a.getAttribute('href');
    a.classList.toggle('active', href === path || (href !== '/' && path.startsWith(`${href}/`)));
  });
  window.scrollTo(0, 0);
  const { route: page, params } = match(path);
  main.dataset.screen = page.screen;
  // A page still loading when another is opened learns it is gone (`ctx.gone()`) and draws
  // nothing; what it returns is let go at once.
  const mine = ++shown;
  const gone = () => mine !== shown;
  const left = await page.show(main, params, { navigate, setTitle, gone });
  if (gone()) {
    if (typeof left === 'function') left();
  } else {
    leave = left;
  }
}

route();

// The service worker, a while after the page has loaded and once the browser is idle: it
// fetches this version's files to keep them, which should not compete with the first paint.
const INSTALL_AFTER_MS = 3000;
const installLater = () => setTimeout(() => {
  const go = () => { import('./core/install.js').then((m) => m.install()).catch(() => {}); };
  if ('requestIdleCallback' in window) requestIdleCallback(go, { timeout: 2000 }); else go();
}, INSTALL_AFTER_MS);
if (document.readyState === 'complete') installLater();
else window.addEventListener('load', installLater, { once: true });
