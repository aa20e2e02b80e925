// What every game played in the page with no connection shares: an id like the server's (24
// random hex digits), a seed as the API writes seeds, the token its seat holds (it opens nothing
// on the server), and the server's answers where the page gives them (a game not here, the
// rule an action breaks). The games themselves are kept by `offlineGames` (../core/seats.js).

import { ApiError } from '../core/request.js';
import { offlineGames } from '../core/seats.js';

/** The seat token of a game played in the page. */
export const OFFLINE_TOKEN = 'offline';

/** A new id for a game played in the page: 24 random hex digits, as the server's. */
export function newOfflineId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A random seed, as the API writes seeds (decimal digits of a 64-bit number). */
export function newSeed() {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

/** The game of `id` kept in the page (a 404 as the server's when there is none). */
export function kept(id) {
  const game = offlineGames.get(id);
  if (!game) throw new ApiError(404, { error: 'This game is not on this device any more.' });
  return game;
}

/** Refuses an action on a game that is over, as the server does. */
export function notOver(game) {
  if (game.finished) throw new ApiError(409, { error: 'the game is over' });
}

/** The engine's answer to an action, or its refusal as the server words it (422, the rule). */
export function accepted(played) {
  if (played.refused) throw new ApiError(422, { error: played.refused.error, rule: played.refused.rule });
  return played;
}
