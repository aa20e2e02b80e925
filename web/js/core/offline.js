// Games played in this browser with no connection (the engines run in the page: see
// ../offline/), kept in localStorage under 'tracklayer:offline:games' until the server has
// stored them: {id, kind, name, seed, options, actions, created, finished}. Their ids look like
// the server's (24 hex digits) so that their pages are the games' own; the server never hands
// such an id out twice, and never this one.

import { ApiError } from './request.js';

const KEY = 'tracklayer:offline:games';

/** The seat token of a game played in the page (it opens nothing on the server). */
export const OFFLINE_TOKEN = 'offline';

function read() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === 'string' && Array.isArray(g.actions)) : [];
  } catch {
    return [];
  }
}

export const offlineGames = {
  /** Every game played in the page and not yet stored by the server, newest first. */
  all: read,
  get(id) {
    return read().find((g) => g.id === id) || null;
  },
  put(game) {
    localStorage.setItem(KEY, JSON.stringify([game, ...read().filter((g) => g.id !== game.id)]));
  },
  remove(id) {
    localStorage.setItem(KEY, JSON.stringify(read().filter((g) => g.id !== id)));
  },
};

/** Whether game `id` is one played in the page. */
export function isOffline(id) {
  return offlineGames.get(id) !== null;
}

/** Whether a request failed for want of a connection (not for anything the server said). */
export function noConnection(e) {
  return e instanceof ApiError && e.status === 0;
}

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
