// Metro, as the app sees it: its kind and name, its rules and viewer pages (for the tabs between
// the games' pages), its routes (each a path, `{id}` a game's id; the screen's name; and the
// function that shows it), and its start-page card. Its pages load Metro's table themselves.
// Each page's module is loaded when the page is opened (the server preloads the modules of the
// page it sends: see the server's build.rs).

import { loaded } from '../core/screen.js';

/** A Metro page's title: "Replay · Metro · tracklayer". */
function metroTitle(setTitle) {
  return (text) => setTitle(text ? `${text} · Metro` : 'Metro');
}

export default {
  kind: 'metro',
  name: 'Metro',
  rules: '/rules/metro',
  viewer: '/view/metro',
  routes: [
    { path: '/metro/{id}', screen: 'game', show: loaded(() => import('./game.js'), (m, root, { id }, ctx) => m.metroScreen(root, id, { navigate: ctx.navigate })) },
    { path: '/metro/{id}/replay', screen: 'replay', show: loaded(() => import('./replay.js'), (m, root, { id }, ctx) => m.metroReplayScreen(root, id, { setTitle: metroTitle(ctx.setTitle) })) },
    { path: '/metro/{id}/review', screen: 'review', show: loaded(() => import('./review.js'), (m, root, { id }, ctx) => m.metroReviewScreen(root, id, { setTitle: metroTitle(ctx.setTitle) })) },
    { path: '/view/metro', screen: 'viewer', show: loaded(() => import('./viewer.js'), (m, root, params, ctx) => m.metroViewerScreen(root, ctx)) },
    { path: '/rules/metro', screen: 'rules', show: loaded(() => import('./rules.js'), (m, root, params, ctx) => m.metroRulesScreen(root, ctx)) },
    { path: '/tutorial/metro', screen: 'tutorial', show: loaded(() => import('./tutorial.js'), (m, root, params, ctx) => m.metroTutorialScreen(root, ctx)) },
  ],
  /** The start page's card: its words, and the module that makes its part of the form. */
  start: {
    title: 'Metro',
    text: '2 to 6 players on one board: lay tiles to run lines from your stations, the longer the better, double into the centre.',
    load: () => import('./start.js').then((m) => m.metroStart),
  },
};
