// Sends the games finished in the page with no connection to the server once it can be
// reached (`POST /api/{kind}/games/played`, as this device's player): the server replays every
// action before it keeps one, and answers with its own game, which this browser then holds as
// any game it made. A game the server refuses (a log that does not replay) keeps the server's
// words, and is not sent again. Run when the app opens and when the connection returns.

import { ApiError, asPlayer } from '../core/request.js';
import { heldSeats, offlineGames } from '../core/seats.js';

/** How many games sent (or refused) the page keeps, for their pages still open. */
const KEEP_SENT = 20;

let sending = null;

/** Sends every finished game not sent yet; resolves once each has been tried. */
export function sendPlayed() {
  sending ??= (async () => {
    try {
      for (const game of offlineGames.all().filter((g) => g.finished && !g.sent && !g.refused)) {
        await sendOne(game);
      }
      const done = offlineGames.all().filter((g) => g.sent || g.refused);
      for (const old of done.slice(KEEP_SENT)) offlineGames.remove(old.id);
    } finally {
      sending = null;
    }
  })();
  return sending;
}

/** What `POST /api/{kind}/games/played` takes: a game against computers sends its seats and
 * the person's actions alone (the server plays the computers' turns again). */
function bodyOf(game) {
  if (!game.seats) return { seed: game.seed, name: game.name, options: game.options, actions: game.actions };
  return {
    seed: game.seed,
    players: game.seats.map((s) => (s.kind === 'computer' ? { kind: 'computer', level: s.level } : { kind: 'human', name: s.name })),
    actions: game.actions.filter((a) => a.seat === game.you).map((a) => a.action),
  };
}

async function sendOne(game) {
  const body = bodyOf(game);
  try {
    const made = await asPlayer('POST', `/api/${game.kind}/games/played`, body);
    // Held as the server's game from now on (not twice in the page's lists).
    const held = heldSeats(game.kind);
    held.remove(game.id);
    held.add(made.id, made.seats, game.seats ? {} : { mode: 'solo', name: game.name });
    offlineGames.put({ ...game, sent: { id: made.id, at: Date.now() } });
    window.dispatchEvent(new CustomEvent('tracklayer:sent', { detail: { kind: game.kind, offline: game.id, id: made.id } }));
  } catch (e) {
    // No connection yet, or the server busy or failing: tried again later.
    if (!(e instanceof ApiError) || e.status === 0 || e.status >= 500 || e.status === 429) return;
    offlineGames.put({ ...game, refused: e.message });
    window.dispatchEvent(new CustomEvent('tracklayer:sent', { detail: { kind: game.kind, offline: game.id, refused: e.message } }));
  }
}
