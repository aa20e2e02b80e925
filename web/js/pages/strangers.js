// The start page's places where strangers meet: "Play someone now" (the pool of each game:
// POST /api/pool/{kind}, then GET it until the server seats the player, who goes to the game),
// with how many wait now; and the games waiting for this device's player (GET
// /api/players/me/games), their turn first with the time they have left, the count in the
// page's title.

import { h, fill, nameList } from '../core/dom.js';
import { gameName, gamePath, games } from '../core/games.js';
import { heldSeats } from '../core/seats.js';
import { request, storedPlayer } from '../core/request.js';
import { ensurePlayer } from '../core/player.js';
import { controlText, durationText } from '../core/clock.js';

/** Where a wait in the pool is kept (the seat's token comes once, when joining). */
const WAITING = 'tracklayer:pool';
const CLOCKS = [
  ['live', 'Live'],
  ['1', '1 day a move (turn-based)'],
  ['3', '3 days a move (turn-based)'],
];
const FILL = [['30', 'after 30 s'], ['10', 'after 10 s'], ['60', 'after 1 min'], ['never', 'never']];

function waitingKept() {
  try {
    return JSON.parse(localStorage.getItem(WAITING) || 'null');
  } catch {
    return null;
  }
}

function keepWaiting(w) {
  if (w) localStorage.setItem(WAITING, JSON.stringify(w));
  else localStorage.removeItem(WAITING);
}

/** "3 people waiting for Metro", or null when nobody waits. */
function countsText(counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${n === 1 ? 'person' : 'people'} waiting for ${gameName(kind)}`);
  return parts.length ? parts.join(' · ') : 'Nobody is waiting right now: be the first, or let computers fill the seats.';
}

/**
 * The "Play someone now" card in `section`: returns the function that stops its polling when the
 * page is left, and takes the player out of the pool if they were waiting.
 */
export function playSomeoneNow(section, { navigate }) {
  const kinds = games().filter((g) => g.start).map((g) => g.kind);
  const game = h('select', { id: 'pool-game', name: 'pool-game' }, kinds.map((k) => h('option', { value: k }, gameName(k))));
  const players = h('select', { id: 'pool-players', name: 'pool-players' },
    h('option', { value: 'any' }, 'Any number'),
    [2, 3, 4, 5, 6].map((n) => h('option', { value: String(n), selected: n === 2 }, `${n} players`)));
  const clock = h('select', { id: 'pool-clock', name: 'pool-clock' }, CLOCKS.map(([v, label]) => h('option', { value: v }, label)));
  const fillAfter = h('select', { id: 'pool-fill', name: 'pool-fill' }, FILL.map(([v, label]) => h('option', { value: v }, label)));
  const counts = h('p', { class: 'muted small pool-counts', id: 'pool-counts', 'aria-live': 'polite' });
  const status = h('p', { class: 'pool-status', id: 'pool-status', role: 'status', 'aria-live': 'polite' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const nameSlot = h('div', { hidden: true });
  const go = h('button', { class: 'btn primary', type: 'submit', id: 'play-someone' }, 'Play someone now');
  const cancel = h('button', { class: 'btn', type: 'button', id: 'pool-cancel', hidden: true, onclick: () => leave() }, 'Stop waiting');
  const choices = h('div', { class: 'pool-choices' },
    h('label', {}, 'Game ', game),
    h('label', {}, 'Table ', players),
    h('label', {}, 'Time ', clock),
    h('label', {}, 'Computers fill empty seats ', fillAfter));
  let waiting = waitingKept();
  let timer = null;
  let stopped = false;

  const showWaiting = (w, st) => {
    const now = Date.now();
    const since = w.since ?? now;
    const waited = durationText(now - since);
    const fills = st?.waiting?.computers_at ? Math.max(0, st.waiting.computers_at - st.now) : null;
    fill(status, `Looking for ${gameName(w.kind)} players… ${waited}`,
      st?.waiting?.clock ? ` · ${controlText(st.waiting.clock, w.kind === 'ink' ? 'round' : 'turn')}` : '',
      fills !== null ? ` · computers fill the empty seats in ${durationText(fills)}` : '');
    choices.hidden = true;
    go.hidden = true;
    cancel.hidden = false;
  };
  const showIdle = () => {
    fill(status);
    choices.hidden = false;
    go.hidden = false;
    go.disabled = false;
    cancel.hidden = true;
  };

  async function poll() {
    timer = null;
    if (stopped || !waiting) return;
    const me = storedPlayer();
    try {
      const st = await request('GET', `/api/pool/${waiting.kind}`, { token: me?.token });
      fill(counts, countsText({ [waiting.kind]: st.in_pool }));
      if (st.seated) {
        const { game: id, seat } = st.seated;
        heldSeats(waiting.kind).add(id, [{ seat, token: waiting.token || me.token }]);
        const kind = waiting.kind;
        keepWaiting(null);
        waiting = null;
        navigate(gamePath(kind, id));
        return;
      }
      waiting.since = Date.now() - (st.now - st.waiting.since);
      showWaiting(waiting, st);
    } catch (e) {
      if (e.status === 404) {
        // No longer waiting (the wait was swept after the page was away too long).
        keepWaiting(null);
        waiting = null;
        showIdle();
        return;
      }
      error.textContent = e.message;
    }
    timer = setTimeout(poll, 1000);
  }

  async function join() {
    error.textContent = '';
    go.disabled = true;
    try {
      const me = await ensurePlayer(nameSlot, { action: 'Continue', intro: 'Other players see this name. It is kept on this device: you type it once.' });
      const kind = game.value;
      const body = {
        players: players.value === 'any' ? 'any' : Number(players.value),
        clock: clock.value === 'live' ? 'live' : { days: Number(clock.value) },
        computers_after: fillAfter.value === 'never' ? null : Number(fillAfter.value),
      };
      const joined = await request('POST', `/api/pool/${kind}`, { token: me.token, body });
      waiting = { kind, token: joined.token, since: Date.now() };
      keepWaiting(waiting);
      showWaiting(waiting, joined);
      poll();
    } catch (e) {
      error.textContent = e.message;
      go.disabled = false;
    }
  }

  async function leave() {
    const w = waiting;
    waiting = null;
    keepWaiting(null);
    if (timer) clearTimeout(timer);
    showIdle();
    if (!w) return;
    try {
      await request('DELETE', `/api/pool/${w.kind}`, { token: storedPlayer()?.token });
    } catch { /* swept anyway once it stops asking */ }
  }

  async function refreshCounts() {
    if (stopped) return;
    if (!waiting) {
      try {
        fill(counts, countsText(await request('GET', '/api/pool')));
      } catch { /* the count waits for the next look */ }
    }
    setTimeout(refreshCounts, 5000);
  }

  fill(section,
    h('h2', {}, 'Play someone now'),
    h('p', { class: 'muted small' }, 'Be seated with players near your rating. Rated, with a clock: when a player\'s time runs out, the computer plays their move.'),
    counts,
    status,
    h('form', { class: 'pool-form', onsubmit: (ev) => { ev.preventDefault(); join(); } }, choices, go, cancel),
    nameSlot,
    error);
  section.hidden = false;
  refreshCounts();
  if (waiting) {
    showWaiting(waiting);
    poll();
  }
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/**
 * The games waiting for this device's player, at the top of `section` ("Your games"), their
 * turn first; `setCount(n)` is told how many wait for them. Looks again every 15 s until the
 * returned function is called.
 */
export function gamesWaiting(section, setCount) {
  const me = storedPlayer();
  if (!me) return () => {};
  const list = h('ul', { class: 'waiting-games', id: 'waiting-games' });
  section.querySelector('h2').after(list);
  let stopped = false;
  async function look() {
    if (stopped) return;
    try {
      const mine = await request('GET', '/api/players/me/games', { token: me.token });
      const offset = mine.now - Date.now();
      fill(list, mine.games.map((g) => {
        const others = nameList(g.others);
        const left = g.due ? ` · ${durationText(g.due - (Date.now() + offset))} left` : '';
        const words = !g.started ? 'waiting to start' : g.your_turn ? `your turn${left}` : 'waiting for the others';
        // Listed here, it is not listed again among the games this browser holds.
        section.querySelectorAll(`li[data-game="${g.id}"]`).forEach((held) => held.remove());
        return h('li', { class: g.your_turn ? 'your-turn' : '', dataset: { waiting: g.id } },
          h('a', {
            href: gamePath(g.kind, g.id), 'data-link': '',
            onclick: () => {
              // A game played from another device: the player's key is its seat's key.
              const held = heldSeats(g.kind);
              if (!held.get(g.id)) held.add(g.id, [{ seat: g.seat, token: me.token }]);
            },
          }, gameName(g.kind), ' with ', others),
          h('span', { class: g.your_turn ? 'turn-chip' : 'muted small' }, ` ${words}`));
      }));
      if (mine.games.length) section.hidden = false;
      setCount(mine.waiting);
    } catch { /* looked at again later */ }
    setTimeout(look, 15000);
  }
  look();
  return () => { stopped = true; };
}
