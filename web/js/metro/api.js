// Metro's requests to the game server (/api/metro/…), and the Metro seats this browser holds
// ({id, seats: [{seat, token}], joined}: a hot-seat game on one device holds several seats of
// the same game).

import { ApiError, asPlayer, gameState, getJson, getOnce, liveEvents, noConnection, noLiveEvents, request, seedText, viewAsPlayer } from '../core/request.js';
import { heldSeats, isOffline } from '../core/seats.js';

/** A game against computers played in the page with no connection (loaded only for one). */
const inPage = () => import('../offline/metro.js');

/** What a game played in the page cannot do until the server keeps it. */
function notInPage(what) {
  return new ApiError(409, { error: `${what} needs the server: this game was played on this device with no connection. It is sent to the server once it is over and the connection returns.` });
}

/** The computer levels in words: "Hard" for `strong`. */
export const LEVELS = { random: 'Easy', greedy: 'Medium', strong: 'Hard' };

/** A computer level for people: "Hard (strong)". */
export function levelLabel(level) {
  return LEVELS[level] ? `${LEVELS[level]} (${level})` : level;
}

export const metroApi = {
  /** The engine's tiles, stations, owners and computer levels (fetched once). */
  tiles() {
    return getOnce('/api/metro/tiles');
  },
  /** players: [{kind: 'human'|'computer', name, level?, invite?}] */
  create(players, seed, { rated = false } = {}) {
    const body = { players };
    if (rated) body.rated = true;
    const s = seedText(seed);
    if (s !== undefined) body.seed = s;
    // With no connection, a game against computers is played in the page.
    return asPlayer('POST', '/api/metro/games', body).catch(async (e) => {
      const m = noConnection(e) && !rated ? await inPage() : null;
      if (!m || !m.playable(players)) throw e;
      return m.create(players, s);
    });
  },
  join(id, { name, seat } = {}) {
    const body = {};
    if (name) body.name = name;
    if (seat !== undefined && seat !== null) body.seat = seat;
    return asPlayer('POST', `/api/metro/games/${id}/join`, body);
  },
  /**
   * Plays a finished game again (a seat's token): `{id, seats}` for the new game made now (the
   * seats on this device), or `{id}` for the one another seat made first (join it).
   */
  rematch(id, token) {
    if (isOffline(id)) return Promise.reject(notInPage('Playing again'));
    return request('POST', `/api/metro/games/${id}/rematch`, { token });
  },
  /** The state as a seat sees it (its token), or as anyone else does. */
  state(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.state(id));
    return gameState(`/api/metro/games/${id}`, token);
  },
  draw(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.draw(id));
    return request('POST', `/api/metro/games/${id}/draw`, { token });
  },
  keep(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.keep(id));
    return request('POST', `/api/metro/games/${id}/keep`, { token });
  },
  place(id, token, square, tile) {
    if (isOffline(id)) return inPage().then((m) => m.place(id, square));
    return request('POST', `/api/metro/games/${id}/place`, { token, body: tile ? { square, tile } : { square } });
  },
  /** Live updates; the token (a seat's or a player's) opens a challenge's game to who may see it. */
  events(id, token) {
    if (isOffline(id)) return noLiveEvents();
    return liveEvents(`/api/metro/games/${id}/events`, token);
  },
  /** A finished game's replay: every action with the scores and lines after it. */
  replay(id) {
    if (isOffline(id)) return Promise.reject(notInPage('The replay'));
    return viewAsPlayer(`/api/metro/games/${id}/replay`);
  },
  /** The computer's review of a finished game's seat, decision by decision (as the replay, for who may see it). */
  review(id, seat) {
    if (isOffline(id)) return Promise.reject(notInPage('The review'));
    return viewAsPlayer(`/api/metro/games/${id}/review?seat=${Number(seat) || 0}`);
  },
  /** A placement sequence for a number of players read by the engine, placement by placement. */
  view(players, sequence) {
    return getJson(`/api/metro/view?${new URLSearchParams({ players: String(players), sequence })}`);
  },
};

/** The Metro seats this browser holds: [{id, seats: [{seat, token}], joined}], newest first. */
export const metroSeats = heldSeats('metro');
