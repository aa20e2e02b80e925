// Railroad Ink, as the app sees it: its kind and name, its rules and viewer pages (for the tabs
// between the games' pages), its routes (each a path, `{id}` a game's id; the screen's name;
// and the function that shows it), and its start-page card. Each page's module is loaded when
// the page is opened (the server preloads the modules of the page it sends: see the server's
// build.rs), so a page's first load asks only for what it shows.

import { h, fill } from '../core/dom.js';
import { loaded, unreachable } from '../core/screen.js';
import { api } from './api.js';

/** A page that draws tiles: it waits for the engine's tile table, or says the server cannot be reached. */
function withTable(show) {
  return async (root, params, ctx) => {
    let table;
    try {
      table = await api.tiles();
    } catch (e) {
      return unreachable(root, e);
    }
    return show(root, params, { ...ctx, table });
  };
}

/** A Railroad Ink game's title: "Round 3 of 7 · Railroad Ink · tracklayer". */
function inkTitle(setTitle) {
  return (text) => setTitle(text ? `${text} · Railroad Ink` : 'Railroad Ink');
}

export default {
  kind: 'ink',
  name: 'Railroad Ink',
  rules: '/rules',
  viewer: '/view/ink',
  routes: [
    {
      path: '/ink/{id}',
      screen: 'game',
      show: withTable(loaded(() => import('./game.js'), ({ gameScreen }, root, { id }, ctx) => {
        fill(root, h('p', { class: 'loading' }, 'Loading the game…'));
        return gameScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) });
      })),
    },
    {
      path: '/ink/{id}/replay',
      screen: 'replay',
      show: withTable(loaded(() => import('./replay.js'), (m, root, { id }, ctx) => m.inkReplayScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) }))),
    },
    {
      path: '/ink/{id}/review',
      screen: 'review',
      show: withTable(loaded(() => import('./review.js'), (m, root, { id }, ctx) => m.inkReviewScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) }))),
    },
    { path: ['/view', '/view/ink'], screen: 'viewer', show: withTable(loaded(() => import('./viewer.js'), (m, root, params, ctx) => m.inkViewerScreen(root, ctx))) },
    { path: '/rules', screen: 'rules', show: withTable(loaded(() => import('./rules.js'), (m, root, params, ctx) => m.inkRulesScreen(root, ctx))) },
    { path: '/tutorial/ink', screen: 'tutorial', show: withTable(loaded(() => import('./tutorial.js'), (m, root, params, ctx) => m.inkTutorialScreen(root, ctx))) },
  ],
  /** The start page's card: its words, and the module that makes its part of the form. */
  start: {
    title: 'Railroad Ink',
    text: 'Deep Blue Edition: connect the exits with highways and railways.',
    load: () => import('./start.js').then((m) => m.inkStart),
  },
};
