// What a game played in the page with no connection is made with: an id like the server's
// (24 random hex digits: the server never hands out such an id for another game of this
// browser's), a seed as the API writes seeds, and the token its seat holds (it opens nothing on
// the server). The games themselves are kept by `offlineGames` (../core/seats.js).

/** The seat token of a game played in the page. */
export const OFFLINE_TOKEN = 'offline';

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
