// Railroad Ink's requests to the game server (/api/ink/…), and the Railroad Ink seats this
// browser holds (one a game: {id, seat, token, mode, name, joined}).

import { ApiError, asPlayer, gameState, getJson, getOnce, liveEvents, noConnection, noLiveEvents, request, seedText, viewAsPlayer } from '../core/request.js';
import { heldSeats, isOffline, offlineGames } from '../core/seats.js';

/** The game played in the page with no connection (loaded only for such a game). */
const inPage = () => import('../offline/ink.js');

/** What a game played in the page cannot do until the server has it. */
function notInPage(what) {
  return new ApiError(409, { error: `${what} needs the server: this game was played on this device with no connection. It is sent to the server when the connection returns.` });
}

/** A game played in the page asked for what the server keeps: the server's game, once sent. */
function sentOr(id, what) {
  const sent = offlineGames.get(id)?.sent?.id;
  if (!sent) throw notInPage(what);
  return sent;
}

/** The Deep Blue expansions, as the API names them, in words. */
export const EXPANSIONS = { lake: 'Lake expansion', river: 'River expansion' };

/** The modes of a game, as the API names them, in words. */
export const MODES = { solo: 'Solo', computer: 'Against the computer', online: 'Online', challenge: 'Challenge', practice: 'Practice' };

export const api = {
  /**
   * The engine's tile table, exits, limits and computer players (fetched once), with the Deep
   * Blue expansions' tiles (the river's, the lake's and the flooded square) added to its tiles
   * and the expansions listed (`expansions`). Without the expansions' table, the base game's.
   */
  tiles() {
    return Promise.all([getOnce('/api/ink/tiles'), getOnce('/api/ink/expansions').catch(() => null)])
      .then(([base, more]) => (more ? { ...base, tiles: [...base.tiles, ...more.tiles], expansions: more.expansions } : base));
  },
  create(mode, { name, seed, level, expansion, rated } = {}) {
    const body = { mode };
    if (rated) body.rated = true;
    if (expansion && expansion !== 'none') body.expansion = expansion;
    if (name) body.name = name;
    const s = seedText(seed);
    if (s !== undefined) body.seed = s;
    if (level) body.level = level;
    // With no connection, a solo game is played in the page (and sent once it can be).
    return asPlayer('POST', '/api/ink/games', body).catch(async (e) => {
      if (!noConnection(e) || mode !== 'solo' || rated) throw e;
      return (await inPage()).create({ name, seed: body.seed, expansion: body.expansion });
    });
  },
  join(id, name) {
    return asPlayer('POST', `/api/ink/games/${id}/join`, name ? { name } : {});
  },
  /** The state as a seat sees it (its token), or as anyone else does. */
  state(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.state(id));
    return gameState(`/api/ink/games/${id}`, token);
  },
  /**
   * Plays a finished game again (a seat's token): `{id, seat, token}` for the new game made
   * now, or `{id}` for the one another seat made first (join it).
   */
  rematch(id, token) {
    // A game played in the page is played again as a new solo game: on the server when it
    // can be reached, in the page when not.
    if (isOffline(id)) {
      const game = offlineGames.get(id);
      return api.create('solo', { name: game.name, expansion: game.options.expansion });
    }
    return request('POST', `/api/ink/games/${id}/rematch`, { token });
  },
  /** Starts an online game waiting in its lobby (its creator's token). */
  start(id, token) {
    return request('POST', `/api/ink/games/${id}/start`, { token });
  },
  place(id, token, placement) {
    if (isOffline(id)) return inPage().then((m) => m.place(id, placement));
    return request('POST', `/api/ink/games/${id}/place`, { token, body: { placement } });
  },
  undo(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.undo(id));
    return request('POST', `/api/ink/games/${id}/undo`, { token });
  },
  endRound(id, token) {
    if (isOffline(id)) return inPage().then((m) => m.endRound(id));
    return request('POST', `/api/ink/games/${id}/end-round`, { token });
  },
  hint(id, token) {
    if (isOffline(id)) return Promise.reject(notInPage('A hint'));
    return request('GET', `/api/ink/games/${id}/hint`, { token });
  },
  /** Live updates; the token (a seat's or a player's) opens a challenge's game to who may see it. */
  events(id, token) {
    if (isOffline(id)) return noLiveEvents();
    return liveEvents(`/api/ink/games/${id}/events`, token);
  },
  /** A finished game's replay: every action with the acting seat's board and score after it. */
  replay(id) {
    if (isOffline(id)) return Promise.resolve().then(() => viewAsPlayer(`/api/ink/games/${sentOr(id, 'The replay')}/replay`));
    return viewAsPlayer(`/api/ink/games/${id}/replay`);
  },
  /** The computer's review of a finished game's seat, round by round (as the replay, for who may see it). */
  review(id, seat) {
    if (isOffline(id)) return Promise.resolve().then(() => viewAsPlayer(`/api/ink/games/${sentOr(id, 'The review')}/review?seat=${Number(seat) || 0}`));
    return viewAsPlayer(`/api/ink/games/${id}/review?seat=${Number(seat) || 0}`);
  },
  /** A board string read by the engine, placement by placement (the viewer). */
  view(board, expansion) {
    const q = { board };
    if (expansion && expansion !== 'none') q.expansion = expansion;
    return getJson(`/api/ink/view?${new URLSearchParams(q)}`);
  },
  /** A board (and a placement on it) checked by the engine: the board after, and where tiles fit. */
  check(body) {
    return request('POST', '/api/ink/check', { body });
  },
};

/** The Railroad Ink seats this browser holds: [{id, seat, token, mode, name, joined}], newest first. */
export const seats = heldSeats('ink');
