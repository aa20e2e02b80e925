// The challenges' pages: the list (`/challenges`) and each challenge's leaderboard
// (`/challenges/{id}`). A route: its path (`{challenge}` a challenge's id), the screen's name
// (the page's data-screen) and the function that shows it.

import { challengeScreen } from './leaderboard.js';
import { challengesScreen } from './list.js';

export const challengeRoutes = [
  { path: ['/challenges', '/challenges/'], screen: 'challenges', show: (root, params, ctx) => challengesScreen(root, ctx) },
  { path: '/challenges/{challenge}', screen: 'challenge', show: (root, { challenge }, ctx) => challengeScreen(root, challenge, ctx) },
];
