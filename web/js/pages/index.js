// The pages that belong to no one game: the start page (`/`, and any path no route takes), the
// recent games (`/games`) and a player's page (`/players/{id}`).

import { playerScreen } from './player.js';
import { recentGamesScreen } from './recent.js';
import { startScreen } from './start.js';

export const startRoute = { path: '/', screen: 'start', show: (root, params, ctx) => startScreen(root, ctx) };

export const pageRoutes = [
  startRoute,
  { path: '/games', screen: 'games', show: (root, params, ctx) => recentGamesScreen(root, ctx) },
  { path: '/players/{id}', screen: 'player', show: (root, { id }, ctx) => playerScreen(root, id, ctx) },
];
