// The game server's HTTP API: one request helper for every page, and the player key of this
// device that goes with a request made on behalf of its player.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.rule = body && body.rule;
  }
}

/** Whether a request failed for want of a connection (not for anything the server said). */
export function noConnection(e) {
  return e instanceof ApiError && e.status === 0;
}

/** Requests waiting to be tried again; the page says so while there are any. */
let waiting = 0;

/** Tells the page how many requests wait for a busy server (the `tracklayer:busy` event). */
function busy(change) {
  waiting += change;
  window.dispatchEvent(new CustomEvent('tracklayer:busy', { detail: { waiting } }));
}

/** How many times a request the server turned away as busy (503) is tried again. */
const BUSY_TRIES = 3;

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

export async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  for (let tries = 0; ; tries++) {
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
    // Busy (past its capacity, it answers at once without doing anything): try again after
    // the wait it asks for, a few times, before saying so.
    const after = Number(response.headers.get('retry-after'));
    if (response.status !== 503 || !Number.isFinite(after) || after > 10 || tries + 1 >= BUSY_TRIES) break;
    busy(+1);
    try {
      await wait(Math.max(0.2, after) * 1000 * (1 + Math.random() * 0.5));
    } finally {
      busy(-1);
    }
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { error: text }; }
  }
  if (response.status === 503 && !data?.error) data = { error: 'The server is busy: try again in a moment.' };
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** GET a JSON answer; errors become ApiError like the rest of the API. */
export function getJson(path) {
  return request('GET', path);
}

const kept = new Map();

/**
 * A GET whose answer does not change while the page is open (a game's tables): asked once,
 * and asked again only after a failure.
 */
export function getOnce(path) {
  if (!kept.has(path)) {
    kept.set(path, request('GET', path).catch((e) => {
      kept.delete(path);
      throw e;
    }));
  }
  return kept.get(path);
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

const NAME_KEY = 'tracklayer:name';

/**
 * The name a new game or a join offers for this device's person: its player's, when it has
 * one (games then count on the player's page under that name); else the name last typed for
 * oneself.
 */
export function myName() {
  return storedPlayer()?.name || localStorage.getItem(NAME_KEY) || '';
}

/**
 * Remembers a name typed for oneself, for the next game, on a device without a player (a
 * device with one goes by its player's name: a friend's name typed for a hot-seat seat never
 * becomes it).
 */
export function rememberName(name) {
  const n = String(name || '').trim();
  if (n && !storedPlayer()) localStorage.setItem(NAME_KEY, n);
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

/** A game's state as a seat sees it (its token), or as anyone else does. */
export function gameState(path, token) {
  return token ? request('GET', path, { token }) : viewAsPlayer(path);
}

/**
 * A game's live updates, opened with the seat's token; a page that holds no seat token opens
 * them with a short-lived ticket asked for with this device's player key (a key never goes in an
 * address, where proxies write it down), or as anyone may watch. The browser reconnects by
 * itself; once the server has closed the stream for good (its ticket expired meanwhile), it is
 * opened again with a new ticket, waiting longer each time it fails.
 */
export function liveEvents(path, token) {
  return new LiveEvents(path, token);
}

/** The live updates of a game played in the page with no connection: none (it changes only there). */
export function noLiveEvents() {
  const quiet = new EventTarget();
  quiet.close = () => {};
  return quiet;
}

/** An `EventSource` that asks for a new ticket when it must open again (see `liveEvents`). */
class LiveEvents {
  constructor(path, token) {
    this.path = path;
    this.token = token;
    this.listeners = [];
    this.closed = false;
    this.wait = 1000;
    this.open();
  }

  async open() {
    let q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const me = this.token ? null : storedPlayer();
    if (me) {
      try {
        const t = await request('POST', this.path.replace(/\/events$/, '/ticket'), { token: me.token });
        q = `?ticket=${encodeURIComponent(t.ticket)}`;
      } catch {
        // Watched as anyone may (the server says so if it may not).
      }
    }
    if (this.closed) return;
    const source = new EventSource(`${this.path}${q}`);
    for (const [type, fn] of this.listeners) source.addEventListener(type, fn);
    source.addEventListener('open', () => { this.wait = 1000; });
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED || this.closed) return;
      setTimeout(() => { if (!this.closed) this.open(); }, this.wait);
      this.wait = Math.min(this.wait * 2, 60000);
    });
    this.source = source;
  }

  addEventListener(type, fn) {
    this.listeners.push([type, fn]);
    this.source?.addEventListener(type, fn);
  }

  close() {
    this.closed = true;
    this.source?.close();
  }
}
