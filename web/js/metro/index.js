// Metro, as the app sees it: its pages as ./pages.js declares them (paths and modules), how each
// screen shows its module, and its start-page card. Its pages load Metro's table themselves.
// Each page's module is loaded when the page is opened (the server preloads the modules of the
// page it sends: see the server's build.rs).

import { describeGame } from '../core/games.js';
import declared from './pages.js';

/** A Metro page's title: "Replay · Metro · tracklayer". */
function metroTitle(setTitle) {
  return (text) => setTitle(text ? `${text} · Metro` : 'Metro');
}

export default describeGame(declared, {
  name: 'Metro',
  load: (module) => import(module),
  show: {
    game: (m, root, { id }, ctx) => m.metroScreen(root, id, { navigate: ctx.navigate }),
    replay: (m, root, { id }, ctx) => m.metroReplayScreen(root, id, { setTitle: metroTitle(ctx.setTitle) }),
    review: (m, root, { id }, ctx) => m.metroReviewScreen(root, id, { setTitle: metroTitle(ctx.setTitle) }),
    viewer: (m, root, params, ctx) => m.metroViewerScreen(root, ctx),
    rules: (m, root, params, ctx) => m.metroRulesScreen(root, ctx),
    tutorial: (m, root, params, ctx) => m.metroTutorialScreen(root, ctx),
  },
  /**
   * How its challenges are told: a seat plays at a table of computers, so the leaderboard ranks
   * the people by score, then by the margin over the best computer at their table, and the
   * challenge's computer is its own game apart from them.
   */
  challenge: {
    tieBreak: 'margin',
    tieBreakHeading: 'Margin',
    tieBreakSigned: true,
    caption: 'ranked by score, then the margin over the best computer',
    tieNote: ' (a wider margin over the computers would rank first)',
    draws: 'tiles',
    computerName: 'the computer\'s own game',
    computerDone: (score) => `The computer's own game on this deck: ${score} points. It played first, as you did, against three strong computers at a table of its own, and is kept apart from the leaderboard.`,
    computerPlaying: 'The computer is still playing its own game on this deck.',
    rankSuffix: ' on the leaderboard',
    leaderboardNote: 'The leaderboard ranks the people who played this deck, each at a table of their own: by score, then by the margin over the best computer at their table.',
    lead: 'The day\'s deck for everyone: you play first, against three strong computers in the same seats for all.',
  },
  /** The start page's card: its words, and the card the start module gives. */
  start: {
    title: 'Metro',
    text: '2 to 6 players on one board: lay tiles to run lines from your stations, the longer the better, double into the centre.',
    card: 'metroStart',
  },
});
