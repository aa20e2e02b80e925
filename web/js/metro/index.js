// Metro, as the app sees it: its kind and name, its rules and viewer pages (for the tabs between
// the games' pages), its routes (each a path, `{id}` a game's id; the screen's name; and the
// function that shows it), and its start-page card. Its pages load Metro's table themselves.

import { metroScreen } from './game.js';
import { metroReplayScreen } from './replay.js';
import { metroRulesScreen } from './rules.js';
import { metroStart } from './start.js';
import { metroTutorialScreen } from './tutorial.js';
import { metroViewerScreen } from './viewer.js';

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
    { path: '/metro/{id}', screen: 'game', show: (root, { id }, ctx) => metroScreen(root, id, { navigate: ctx.navigate }) },
    { path: '/metro/{id}/replay', screen: 'replay', show: (root, { id }, ctx) => metroReplayScreen(root, id, { setTitle: metroTitle(ctx.setTitle) }) },
    { path: '/view/metro', screen: 'viewer', show: (root, params, ctx) => metroViewerScreen(root, ctx) },
    { path: '/rules/metro', screen: 'rules', show: (root, params, ctx) => metroRulesScreen(root, ctx) },
    { path: '/tutorial/metro', screen: 'tutorial', show: (root, params, ctx) => metroTutorialScreen(root, ctx) },
  ],
  start: metroStart,
};
