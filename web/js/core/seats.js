// The seats this browser holds, kept in localStorage so that a player who reloads, or comes back
// later on the same browser, is still in the game: one list for each kind of game, under
// 'tracklayer:{kind}:games', newest first, at most 50 games.
//
// A game holds one seat ({id, seat, token, …}: Railroad Ink's entries are
// {id, seat, token, mode, name, joined}), kept with `save`, or several seats
// ({id, seats: [{seat, token}], joined}: Metro's, where a hot-seat game on one device holds
// several seats of the same game), gathered with `add`.

const KEEP = 50;

/** Whether a value read back from storage is a held game: `{id, …}`. */
function hasId(g) {
  return Boolean(g) && typeof g.id === 'string';
}

/** Whether a value read back from storage is a held game with seats: `{id, seats: [{seat, token}]}`. */
export function isHeldGame(g) {
  return hasId(g) && Array.isArray(g.seats);
}

/** What an entry of each kind of game must be to be read back (any other kind: it has an id). */
const ENTRY = { metro: isHeldGame };

/** The games of one kind (`ink`, `metro`) whose seats this browser holds. */
export function heldSeats(kind) {
  const key = `tracklayer:${kind}:games`;
  const isEntry = ENTRY[kind] || hasId;

  function read() {
    try {
      const games = JSON.parse(localStorage.getItem(key) || '[]');
      return Array.isArray(games) ? games.filter(isEntry) : [];
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
    /** Keeps a game's entry (one seat), first, in place of what was kept of the game. */
    save(entry) {
      write([{ ...entry, joined: entry.joined || Date.now() }, ...read().filter((g) => g.id !== entry.id)]);
    },
    /** Adds seats (from creating or joining a game) to what this browser holds of the game. */
    add(id, seats) {
      const games = read();
      const old = games.find((g) => g.id === id);
      const merged = [...(old?.seats || [])];
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
}
