// The seats this browser holds, kept in localStorage so that a player who reloads, or comes back
// later on the same browser, is still in the game: one list for each kind of game, under
// 'tracklayer:{kind}:games', newest first, at most 50 games.
//
// Every kind keeps one shape: {id, seats: [{seat, token}], joined, …} (a hot-seat game on one
// device holds several seats of the same game); a game may keep more beside them (Railroad Ink
// its mode and the name played under). An entry kept before the shapes were one ({id, seat,
// token, …}) is read as that one seat.

const KEEP = 50;

/** Whether a value read back from storage is a held game with seats: `{id, seats: [{seat, token}]}`. */
export function isHeldGame(g) {
  return Boolean(g) && typeof g.id === 'string' && Array.isArray(g.seats);
}

/** A value read back from storage as a held game, or null: an older one-seat entry gains its `seats`. */
function asHeldGame(g) {
  if (isHeldGame(g)) return g;
  if (!g || typeof g.id !== 'string' || !Number.isInteger(g.seat) || typeof g.token !== 'string') return null;
  const { seat, token, ...rest } = g;
  return { ...rest, seats: [{ seat, token }] };
}

/** The games of one kind (`ink`, `metro`) whose seats this browser holds. */
export function heldSeats(kind) {
  const key = `tracklayer:${kind}:games`;

  function read() {
    try {
      const games = JSON.parse(localStorage.getItem(key) || '[]');
      return Array.isArray(games) ? games.map(asHeldGame).filter(Boolean) : [];
    } catch {
      return [];
    }
  }

  function write(games) {
    localStorage.setItem(key, JSON.stringify(games.slice(0, KEEP)));
  }

  return {
    /** Every held game, newest first. */
    all: read,
    get(id) {
      return read().find((g) => g.id === id) || null;
    },
    /**
     * Adds seats (from creating or joining a game: the answer's `seats`) to what this browser
     * holds of the game, first in the list, with anything else to keep of it (`more`).
     */
    add(id, seats, more = {}) {
      const games = read();
      const old = games.find((g) => g.id === id);
      const merged = [...(old?.seats || [])];
      for (const s of seats) {
        const i = merged.findIndex((m) => m.seat === s.seat);
        if (i >= 0) merged[i] = { seat: s.seat, token: s.token };
        else merged.push({ seat: s.seat, token: s.token });
      }
      merged.sort((a, b) => a.seat - b.seat);
      write([{ ...old, ...more, id, seats: merged, joined: old?.joined || Date.now() }, ...games.filter((g) => g.id !== id)]);
    },
    remove(id) {
      write(read().filter((g) => g.id !== id));
    },
  };
}

const OFFLINE_KEY = 'tracklayer:offline:games';

function readOffline() {
  try {
    const games = JSON.parse(localStorage.getItem(OFFLINE_KEY) || '[]');
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === 'string' && Array.isArray(g.actions)) : [];
  } catch {
    return [];
  }
}

/**
 * The games played in this browser with no connection (the engines run in the page: see
 * ../offline/), kept under 'tracklayer:offline:games' until the server has stored them:
 * {id, kind, name, seed, options, actions, created, finished, sent?, refused?}. Their ids look
 * like the server's (24 hex digits), so that their pages are the games' own.
 */
export const offlineGames = {
  /** Every game played in the page (and, for a while, those sent), newest first. */
  all: readOffline,
  get(id) {
    return readOffline().find((g) => g.id === id) || null;
  },
  put(game) {
    localStorage.setItem(OFFLINE_KEY, JSON.stringify([game, ...readOffline().filter((g) => g.id !== game.id)]));
  },
  remove(id) {
    localStorage.setItem(OFFLINE_KEY, JSON.stringify(readOffline().filter((g) => g.id !== id)));
  },
};

/** Whether game `id` is one played in the page. */
export function isOffline(id) {
  return offlineGames.get(id) !== null;
}
