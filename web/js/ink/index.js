// Railroad Ink, as the app sees it: its pages as ./pages.js declares them (paths and modules),
// how each screen shows its module, and its start-page card. Each page's module is loaded when
// the page is opened (the server preloads the modules of the page it sends: see the server's
// build.rs), so a page's first load asks only for what it shows.

import { h, fill } from '../core/dom.js';
import { unreachable } from '../core/screen.js';
import { describeGame } from '../core/games.js';
import declared from './pages.js';
import { MODES, api } from './api.js';

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

export default describeGame(declared, {
  name: 'Railroad Ink',
  load: (module) => import(module),
  modes: MODES,
  // Every page draws tiles: it waits for the engine's tile table first.
  wrap: withTable,
  show: {
    game: (m, root, { id }, ctx) => {
      fill(root, h('p', { class: 'loading' }, 'Loading the game…'));
      return m.gameScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) });
    },
    replay: (m, root, { id }, ctx) => m.inkReplayScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) }),
    review: (m, root, { id }, ctx) => m.inkReviewScreen(root, id, { ...ctx, setTitle: inkTitle(ctx.setTitle) }),
    viewer: (m, root, params, ctx) => m.inkViewerScreen(root, ctx),
    rules: (m, root, params, ctx) => m.inkRulesScreen(root, ctx),
    tutorial: (m, root, params, ctx) => m.inkTutorialScreen(root, ctx),
  },
  /** How its challenges are told: ties broken by fewer errors, the computer on the same dice. */
  challenge: {
    tieBreak: 'errors',
    tieBreakHeading: 'Errors',
    tieBreakSigned: false,
    caption: 'ranked by score, then fewer errors, then the earlier finish',
    tieNote: ' (fewer errors would rank first)',
    draws: 'dice',
    computerName: 'the computer',
    computerDone: (score) => `The computer (strong) scored ${score} on the same dice.`,
    computerPlaying: 'The computer is still playing these dice.',
  },
  /** The start page's card: its words, and the card the start module gives. */
  start: {
    title: 'Railroad Ink',
    text: 'Deep Blue Edition: connect the exits with highways and railways.',
    card: 'inkStart',
  },
});
