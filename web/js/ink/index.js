// Railroad Ink, as the app sees it: its kind and name, its rules and viewer pages (for the tabs
// between the games' pages), its routes (each a path, `{id}` a game's id; the screen's name;
// and the function that shows it), and its start-page card.

import { h, fill } from '../core/dom.js';
import { unreachable } from '../core/screen.js';
import { api } from './api.js';
import { gameScreen } from './game.js';
import { inkReplayScreen } from './replay.js';
import { inkRulesScreen } from './rules.js';
import { inkStart } from './start.js';
import { inkTutorialScreen } from './tutorial.js';
import { inkViewerScreen } from './viewer.js';

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
      show: withTable((root, { id }, ctx) => {
        fill(root, h('p', { class: 'loading' }, 'Loading the game…'));
        return gameScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) });
      }),
    },
    { path: '/ink/{id}/replay', screen: 'replay', show: withTable((root, { id }, ctx) => inkReplayScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) })) },
    { path: ['/view', '/view/ink'], screen: 'viewer', show: withTable((root, params, ctx) => inkViewerScreen(root, ctx)) },
    { path: '/rules', screen: 'rules', show: withTable((root, params, ctx) => inkRulesScreen(root, ctx)) },
    { path: '/tutorial/ink', screen: 'tutorial', show: withTable((root, params, ctx) => inkTutorialScreen(root, ctx)) },
  ],
  start: inkStart,
};
