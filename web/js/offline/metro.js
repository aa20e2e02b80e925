// A game of Metro against computers played in the page with no connection. The engine (the
// server's own crates in WebAssembly: ../engines/wasm.js) replays the game's log for every
// answer and plays the computers' turns with the server's computer players; the states have
// the server's shape, so the game's page plays it as any other. Once over, it is sent to the
// server (./send.js), which plays the computers' turns again and keeps it with the person's
// games.

import { loadEngines } from '../engines/wasm.js';
import { offlineGames } from '../core/seats.js';
import { OFFLINE_TOKEN, accepted, kept, newOfflineId, newSeed, notOver } from './games.js';

/** Whether `players` (as `POST /api/metro/games` takes them) can be played in the page: one person here, computers in the other seats. */
export function playable(players) {
  const people = players.filter((p) => p.kind !== 'computer');
  return players.length >= 2 && people.length === 1 && !people[0].invite;
}

/** Starts a game against computers in the page: answered as `POST /api/metro/games` is. */
export async function create(players, seed) {
  await loadEngines();
  let computers = 0;
  const seats = players.map((p, i) => (p.kind === 'computer'
    ? { kind: 'computer', level: p.level || 'strong', name: p.name || `Computer ${++computers + 1} (${p.level || 'strong'})` }
    : { kind: 'human', name: p.name || `Player ${i + 1}` }));
  const you = seats.findIndex((s) => s.kind === 'human');
  const game = { id: newOfflineId(), kind: 'metro', seed: seed ?? newSeed(), seats, you, actions: [], created: Date.now(), finished: null };
  offlineGames.put(game);
  return { id: game.id, seats: [{ seat: you, token: OFFLINE_TOKEN }], seat: you, token: OFFLINE_TOKEN, offline: true };
}

/** The engine's answer for the game after `actions` (and the computers' turns after them). */
async function replay(game, actions) {
  const engines = await loadEngines();
  const seats = game.seats.map((s) => (s.kind === 'computer' ? { kind: 'computer', level: s.level } : { kind: 'human' }));
  return engines.ask({ op: 'metro.play', seed: game.seed, seats, actions, you: game.you });
}

/** The state as the server sends it to the person's seat (see `GET /api/metro/games/{id}`). */
function stateOf(game, played) {
  const { seats, you, computers, refused, over, ...board } = played;
  const best = Math.max(...board.scores);
  return {
    id: game.id,
    kind: 'metro',
    version: game.actions.length,
    created: game.created,
    finished: over,
    winners: over ? board.scores.flatMap((s, i) => (s === best ? [i] : [])) : [],
    ...(over ? { seed: game.seed } : {}),
    to_act: board.turn === null ? [] : [board.turn],
    players: game.seats.map((s, i) => ({
      seat: i,
      name: s.name,
      kind: s.kind,
      ...(s.kind === 'computer' ? { level: s.level } : {}),
      invited: false,
      open: false,
      ...seats[i],
    })),
    ...board,
    mode: 'seats',
    open_seats: [],
    you,
    offline: { sent: game.sent?.id ?? null, refused: game.refused ?? null },
  };
}

/** Plays the log (and what the computers do next), keeping their turns in the log. */
async function advance(game, actions) {
  const played = await replay(game, actions);
  if (played.refused) return played;
  // Kept only when the log grew (a state asked for again changes nothing).
  if (actions.length === game.actions.length && !played.computers.length) return played;
  game.actions = [...actions, ...played.computers];
  if (played.over && !game.finished) game.finished = Date.now();
  offlineGames.put(game);
  return played;
}

export async function state(id) {
  const game = kept(id);
  let played = await advance(game, game.actions);
  // A log this engine does not replay (written by hand): shown as far as it goes.
  if (played.refused) played = await replay(game, game.actions.slice(0, played.refused.index));
  return stateOf(game, played);
}

/** The person's action, as the server would answer it: the state after, or the rule it breaks. */
async function act(id, action) {
  const game = kept(id);
  notOver(game);
  const played = await advance(game, [...game.actions, { seat: game.you, action }]);
  accepted(played);
  return stateOf(game, played);
}

export const draw = (id) => act(id, 'draw');
export const keep = (id) => act(id, 'keep');
export const place = (id, square) => act(id, { place: square });
