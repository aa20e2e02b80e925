// A solo game of Railroad Ink played in the page with no connection. The engine (the server's
// own crates in WebAssembly: ../engines/wasm.js) replays the game's log for every answer, so
// that what is legal, what the dice are and what it scores are the engine's, and the page's
// states have the server's shape: the game's page plays it as any other. Once over, the game
// is sent to the server when the connection returns (./send.js), which replays it again before
// keeping it.

import { loadEngines } from '../engines/wasm.js';
import { offlineGames } from '../core/seats.js';
import { OFFLINE_TOKEN, accepted, kept, newOfflineId, newSeed, notOver } from './games.js';
import { sendPlayed } from './send.js';

/** Starts a solo game in the page: answered as `POST /api/ink/games` is. */
export async function create({ name, seed, expansion } = {}) {
  // The engines first: a browser that never kept them cannot play with no connection.
  await loadEngines();
  const game = {
    id: newOfflineId(),
    kind: 'ink',
    name: name || 'Player 1',
    seed: seed ?? newSeed(),
    options: expansion && expansion !== 'none' ? { expansion } : {},
    actions: [],
    created: Date.now(),
    finished: null,
  };
  offlineGames.put(game);
  const seats = [{ seat: 0, token: OFFLINE_TOKEN }];
  return { id: game.id, seats, seat: 0, token: OFFLINE_TOKEN, offline: true };
}

/** The engine's answer for the game after `actions`. */
async function replay(game, actions) {
  const engines = await loadEngines();
  return engines.ask({ op: 'ink.play', seed: game.seed, expansion: game.options.expansion, actions });
}

/** The state as the server sends it to the game's seat (see `GET /api/ink/games/{id}`). */
function stateOf(game, played) {
  const { finished } = played;
  const state = {
    id: game.id,
    kind: 'ink',
    version: game.actions.length,
    created: game.created,
    finished,
    winners: finished ? [0] : [],
    to_act: finished ? [] : [0],
    mode: 'solo',
    started: true,
    round: played.round,
    rounds: played.rounds,
    dice: played.dice,
    roll: played.roll,
    players: [{ seat: 0, name: game.name, kind: 'human', ...played.player }],
    you: played.you,
    // Played in the page: `sent` is the server's game once it has stored it.
    offline: { sent: game.sent?.id ?? null, refused: game.refused ?? null },
  };
  if (game.options.expansion) state.expansion = game.options.expansion;
  if (played.optional_dice) state.optional_dice = played.optional_dice;
  if (finished) state.seed = game.seed;
  return state;
}

export async function state(id) {
  const game = kept(id);
  let played = await replay(game, game.actions);
  // A log this engine does not replay (written by hand): shown as far as it goes; the server
  // refuses it, in words, when it is sent.
  if (played.refused) played = await replay(game, game.actions.slice(0, played.refused.index));
  return stateOf(game, played);
}

/** The seat's action, as the server would answer it: the state after, or the rule it breaks. */
async function act(id, action) {
  const game = kept(id);
  notOver(game);
  const played = await replay(game, [...game.actions, action]);
  accepted(played);
  game.actions.push(action);
  if (played.finished) game.finished = Date.now();
  offlineGames.put(game);
  if (played.finished) sendPlayed();
  return stateOf(game, played);
}

export const place = (id, placement) => act(id, { action: 'place', placement });
export const undo = (id) => act(id, { action: 'undo' });
export const endRound = (id) => act(id, { action: 'end-round' });
