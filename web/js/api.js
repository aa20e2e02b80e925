// The game server's HTTP API, and the seats this browser holds (kept in localStorage, so a
// player who reloads or comes back later is still in the game).

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.rule = body && body.rule;
  }
}

export async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, { error: 'The server cannot be reached. Check your connection and try again.' });
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { error: text }; }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const PLAYER_KEY = 'tracklayer:player';

/** The player identity kept on this device ({id, token, name}), or null. */
export function storedPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER_KEY) || 'null');
    return p && typeof p.id === 'string' && typeof p.token === 'string' ? p : null;
  } catch {
    return null;
  }
}

export function storePlayer(p) {
  if (p) localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: p.id, token: p.token, name: p.name }));
  else localStorage.removeItem(PLAYER_KEY);
}

const MAX_SEED = 18446744073709551615n;

/**
 * A seed typed by a person, as the API takes it: a string of decimal digits (the numbers go
 * past what a JavaScript number holds exactly). Empty gives undefined (a random seed).
 */
export function seedText(text) {
  const t = String(text ?? '').trim();
  if (!t) return undefined;
  if (!/^[0-9]{1,20}$/.test(t) || BigInt(t) > MAX_SEED) {
    throw new Error(`The seed must be a whole number from 0 to ${MAX_SEED} (digits only): “${t.length > 24 ? `${t.slice(0, 24)}…` : t}” is not.`);
  }
  return t.replace(/^0+(?=.)/, '');
}

/**
 * A request made on behalf of this device's player (creating or joining a game links the seat
 * to them). A key the server does not know (another server's, or a database started afresh) is
 * forgotten, and the request is made again without it.
 */
export async function asPlayer(method, path, body) {
  const me = storedPlayer();
  try {
    return await request(method, path, { token: me?.token, body });
  } catch (e) {
    if (!me || !(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) throw e;
    storePlayer(null);
    return request(method, path, { body });
  }
}

/**
 * A game's state (or replay), or a challenge, for someone without a seat in it: with this
 * device's player key, which challenge games ask for (the server answers a player's key on an
 * ordinary game as it answers anyone). A 403 stands (a challenge game still secret), unless
 * the key itself is one this server does not know (its database started afresh): then the key
 * is forgotten and the request made again without it.
 */
export async function viewAsPlayer(path) {
  const me = storedPlayer();
  if (!me) return request('GET', path);
  try {
    return await request('GET', path, { token: me.token });
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403 || await keyKnown(me.token)) throw e;
    storePlayer(null);
    return request('GET', path);
  }
}

/** Whether this server knows a player key (a failure to ask counts as yes: nothing is forgotten). */
async function keyKnown(token) {
  try {
    await request('GET', '/api/players/me', { token });
    return true;
  } catch (e) {
    return !(e instanceof ApiError) || (e.status !== 401 && e.status !== 403);
  }
}

let tilesPromise = null;

export const api = {
  /** The engine's tile table, exits, limits and computer players (fetched once). */
  tiles() {
    tilesPromise ??= request('GET', '/api/ink/tiles');
    return tilesPromise;
  },
  create(mode, { name, seed, agent } = {}) {
    const body = { mode };
    if (name) body.name = name;
    const s = seedText(seed);
    if (s !== undefined) body.seed = s;
    if (agent) body.agent = agent;
    return asPlayer('POST', '/api/ink/games', body);
  },
  join(id, name) {
    return asPlayer('POST', `/api/ink/games/${id}/join`, name ? { name } : {});
  },
  /** The state as a seat sees it (its token), or as anyone else does. */
  state(id, token) {
    return token ? request('GET', `/api/ink/games/${id}`, { token }) : viewAsPlayer(`/api/ink/games/${id}`);
  },
  /** Starts an online game waiting in its lobby (its creator's token). */
  start(id, token) {
    return request('POST', `/api/ink/games/${id}/start`, { token });
  },
  place(id, token, placement) {
    return request('POST', `/api/ink/games/${id}/place`, { token, body: { placement } });
  },
  undo(id, token) {
    return request('POST', `/api/ink/games/${id}/undo`, { token });
  },
  endRound(id, token) {
    return request('POST', `/api/ink/games/${id}/end-round`, { token });
  },
  hint(id, token) {
    return request('GET', `/api/ink/games/${id}/hint`, { token });
  },
  /** Live updates; the token (a seat's or a player's) opens a challenge's game to who may see it. */
  events(id, token) {
    const q = token ? `?token=${encodeURIComponent(token)}` : '';
    return new EventSource(`/api/ink/games/${id}/events${q}`);
  },
};

const GAMES_KEY = 'tracklayer:ink:games';

function readGames() {
  try {
    const games = JSON.parse(localStorage.getItem(GAMES_KEY) || '[]');
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

/** The seats this browser holds: [{id, seat, token, mode, name, joined}], newest first. */
export const seats = {
  all: readGames,
  get(id) {
    return readGames().find((g) => g.id === id) || null;
  },
  save(entry) {
    const games = readGames().filter((g) => g.id !== entry.id);
    games.unshift({ ...entry, joined: entry.joined || Date.now() });
    localStorage.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 50)));
  },
  remove(id) {
    localStorage.setItem(GAMES_KEY, JSON.stringify(readGames().filter((g) => g.id !== id)));
  },
};
