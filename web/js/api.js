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
    if (seed !== undefined && seed !== null && seed !== '') body.seed = Number(seed);
    if (agent) body.agent = agent;
    return request('POST', '/api/ink/games', { body });
  },
  join(id, name) {
    return request('POST', `/api/ink/games/${id}/join`, { body: name ? { name } : {} });
  },
  state(id, token) {
    return request('GET', `/api/ink/games/${id}`, { token });
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
  events(id) {
    return new EventSource(`/api/ink/games/${id}/events`);
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
