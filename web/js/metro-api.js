// Metro's HTTP API, and the Metro seats this browser holds (kept in localStorage, so people who
// reload, or come back later on the same browser, are still in their seats). A hot-seat game
// on one device holds several seats of the same game.

import { asPlayer, request, seedText, viewAsPlayer } from './api.js';

let tablePromise = null;

export const metroApi = {
  /** The engine's tiles, stations, owners and computer levels (fetched once). */
  tiles() {
    tablePromise ??= request('GET', '/api/metro/tiles').catch((e) => {
      tablePromise = null;
      throw e;
    });
    return tablePromise;
  },
  /** players: [{kind: 'human'|'computer', name, level?, invite?}] */
  create(players, seed) {
    const body = { players };
    const s = seedText(seed);
    if (s !== undefined) body.seed = s;
    return asPlayer('POST', '/api/metro/games', body);
  },
  join(id, { name, seat } = {}) {
    const body = {};
    if (name) body.name = name;
    if (seat !== undefined && seat !== null) body.seat = seat;
    return asPlayer('POST', `/api/metro/games/${id}/join`, body);
  },
  /** The state as a seat sees it (its token), or as anyone else does. */
  state(id, token) {
    return token ? request('GET', `/api/metro/games/${id}`, { token }) : viewAsPlayer(`/api/metro/games/${id}`);
  },
  draw(id, token) {
    return request('POST', `/api/metro/games/${id}/draw`, { token });
  },
  keep(id, token) {
    return request('POST', `/api/metro/games/${id}/keep`, { token });
  },
  place(id, token, square, tile) {
    return request('POST', `/api/metro/games/${id}/place`, { token, body: tile ? { square, tile } : { square } });
  },
  /** Live updates; the token (a seat's or a player's) opens a challenge's game to who may see it. */
  events(id, token) {
    const q = token ? `?token=${encodeURIComponent(token)}` : '';
    return new EventSource(`/api/metro/games/${id}/events${q}`);
  },
};

const GAMES_KEY = 'tracklayer:metro:games';

/** Whether a value read back from storage is a held game: `{id, seats: [{seat, token}]}`. */
export function isHeldGame(g) {
  return Boolean(g) && typeof g.id === 'string' && Array.isArray(g.seats);
}

function read() {
  try {
    const games = JSON.parse(localStorage.getItem(GAMES_KEY) || '[]');
    return Array.isArray(games) ? games.filter(isHeldGame) : [];
  } catch {
    return [];
  }
}

function write(games) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 50)));
}

/** The Metro seats this browser holds: [{id, seats: [{seat, token}], joined}], newest first. */
export const metroSeats = {
  all: read,
  get(id) {
    return read().find((g) => g.id === id) || null;
  },
  /** Adds seats (from creating or joining a game) to what this browser holds of the game. */
  add(id, seats) {
    const games = read();
    const old = games.find((g) => g.id === id);
    const merged = [...(old ? old.seats : [])];
    for (const s of seats) {
      const i = merged.findIndex((m) => m.seat === s.seat);
      if (i >= 0) merged[i] = { seat: s.seat, token: s.token };
      else merged.push({ seat: s.seat, token: s.token });
    }
    merged.sort((a, b) => a.seat - b.seat);
    write([{ id, seats: merged, joined: old?.joined || Date.now() }, ...games.filter((g) => g.id !== id)]);
  },
  remove(id) {
    write(read().filter((g) => g.id !== id));
  },
};
