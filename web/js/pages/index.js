// The pages that belong to no one game: the start page (`/`, and any path no route takes), the
// recent games (`/games`) and a player's page (`/players/{id}`). Each page's module is loaded
// when the page is opened (the server preloads the modules of the page it sends: see the
// server's build.rs).

import { loaded } from '../core/screen.js';

export const startRoute = { path: '/', screen: 'start', show: loaded(() => import('./start.js'), (m, root, params, ctx) => m.startScreen(root, ctx)) };

export const pageRoutes = [
  startRoute,
  { path: '/games', screen: 'games', show: loaded(() => import('./recent.js'), (m, root, params, ctx) => m.recentGamesScreen(root, ctx)) },
  { path: '/players/{id}', screen: 'player', show: loaded(() => import('./player.js'), (m, root, { id }, ctx) => m.playerScreen(root, id, ctx)) },
];
