// The challenges' pages: the list (`/challenges`) and each challenge's leaderboard
// (`/challenges/{id}`). A route: its path (`{challenge}` a challenge's id), the screen's name
// (the page's data-screen) and the function that shows it, whose module is loaded when the page
// is opened (the server preloads the modules of the page it sends: see the server's build.rs).

import { loaded } from '../core/screen.js';

export const challengeRoutes = [
  { path: ['/challenges', '/challenges/'], screen: 'challenges', show: loaded(() => import('./list.js'), (m, root, params, ctx) => m.challengesScreen(root, ctx)) },
  { path: '/challenges/{challenge}', screen: 'challenge', show: loaded(() => import('./leaderboard.js'), (m, root, { challenge }, ctx) => m.challengeScreen(root, challenge, ctx)) },
];
