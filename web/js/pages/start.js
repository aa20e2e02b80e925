// The start page (`/`): the new-game form with a card for each game (its picture and its part
// of the form), today's challenges beside it, "Play someone now" (see strangers.js), the first
// game's pitch, and the games waiting for the player and those this browser holds.
//
// A game's start-page card (its module's `start`): `title` and `text`, and `load()`, which
// loads the card's module and resolves with {setup, held}: `setup()`, which loads
// what the card needs (the game's tables) and resolves with {art, parts, submit(), hero?}:
// the card's picture, its part of the form, `submit()` (creates the game and resolves with the
// path to go to, or null when nothing was sent; an error already shown on the form is marked
// `shown`), and the pitch beside the form; and `held`, the games of its kind this browser holds:
// {store, className, state(g), describe(state, g)}.

import { h, fill } from '../core/dom.js';
import { games } from '../core/games.js';
import { unreachable } from '../core/screen.js';
import { noConnection, storedPlayer } from '../core/request.js';
import { challengeApi } from '../challenges/api.js';
import { challengeCards } from '../challenges/cards.js';
import { gamesWaiting, playSomeoneNow } from './strangers.js';

export async function startScreen(root, { navigate, setTitle, gone }) {
  const cards = games().filter((g) => g.start);
  // The first game is the one chosen at first: its part of the form is there from the start
  // (the page waits for its tables). The others' parts come when their tables arrive: until
  // then their cards are unavailable, and a game whose tables never come stays so while the
  // others work on.
  const [first, ...later] = cards;
  // Today's challenges are asked for at once, beside the tables, and the page waits for them
  // too (a second at most): on a phone they sit above the pitch, which would jump down when
  // they came.
  const current = challengeApi.current();
  current.catch(() => { /* no challenges on this server: said by challengeCards */ });
  let firstPart;
  try {
    firstPart = await first.start.load().then((card) => card.setup());
  } catch (e) {
    return unreachable(root, e);
  }
  await Promise.race([current.catch(() => null), new Promise((r) => setTimeout(r, 1000))]);
  // Another page was opened while this one waited: it is not drawn over that one.
  if (gone?.()) return null;
  setTitle('');
  let chosen = first.kind;
  const parts = new Map([[first.kind, firstPart]]);
  const error = h('p', { class: 'form-error', role: 'alert' });
  const start = h('button', { class: 'btn primary big', type: 'submit', id: 'start' }, 'Start the game');
  const choose = (kind) => {
    chosen = kind;
    for (const c of views) c.card.classList.toggle('selected', c.kind === kind);
    for (const part of firstPart.parts) part.hidden = kind !== first.kind;
    for (const c of views) if (c.slot) c.slot.hidden = kind !== c.kind;
  };
  const views = cards.map((g) => {
    const ready = g === first;
    const input = h('input', { type: 'radio', name: 'game', value: g.kind, checked: ready, disabled: !ready, onchange: () => choose(g.kind) });
    const art = h('span', { class: 'game-art' }, ready ? firstPart.art : null);
    const card = h('label', { class: `game-card ${ready ? 'selected' : 'disabled'}`, id: `game-${g.kind}` },
      input,
      art,
      h('span', { class: 'mode-title' }, g.start.title),
      h('span', { class: 'mode-text' }, g.start.text));
    // A later game's part of the form, once its tables have arrived.
    const slot = ready ? null : h('div', { class: `${g.kind}-slot`, hidden: true });
    return { kind: g.kind, input, art, card, slot };
  });
  for (const g of later) {
    const view = views.find((c) => c.kind === g.kind);
    g.start.load().then((card) => card.setup()).then((part) => {
      parts.set(g.kind, part);
      fill(view.slot, part.parts);
      fill(view.art, part.art);
      view.input.disabled = false;
      view.card.classList.remove('disabled');
    }).catch(() => { /* this game stays unavailable; the others work on */ });
  }
  // With no connection, what still plays: the games the page plays itself (see ../offline/).
  const offlineNote = h('p', { class: 'offline-note', id: 'offline-note', role: 'status', hidden: true },
    'No connection just now: a solo game of Railroad Ink, or Metro against computers, plays on this device.');
  const form = h('form', {
    class: 'card start-card',
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      const part = parts.get(chosen);
      if (!part) return;
      start.disabled = true;
      try {
        const path = await part.submit();
        if (path) {
          navigate(path);
          return;
        }
      } catch (e) {
        // A name refused is said at its field.
        if (!e.shown) error.textContent = e.message;
      }
      start.disabled = false;
    },
  },
  h('h2', {}, 'New game'),
  offlineNote,
  h('fieldset', { class: 'games' },
    h('legend', {}, 'Game'),
    views.map((c) => c.card)),
  firstPart.parts,
  views.map((c) => c.slot),
  error,
  start);
  const yours = h('section', { class: 'card your-games', id: 'your-games', hidden: true }, h('h2', {}, 'Your games'));
  const today = h('section', { class: 'challenges-today', id: 'challenges-today', hidden: true, 'aria-labelledby': 'today-title' });
  const strangers = h('section', { class: 'card play-someone', id: 'play-someone-now', hidden: true });
  // What this is, in a few words, with the ways to learn it; the games this browser holds, to
  // go on with; then the form (its Start button above the fold); beside it today's challenges
  // (on a phone, right under the form), then the game's pitch.
  const grid = h('div', { class: 'start-grid' },
      yours,
      form,
      h('div', { class: 'start-side' },
        today,
        strangers,
        firstPart.hero));
  // A browser with no player yet: the way back in for someone who played elsewhere, beside the
  // intro's links where a returning player looks first (not below the whole page, on a phone).
  const signIn = storedPlayer() ? null : h('span', { class: 'small sign-in-line', id: 'sign-in-line' },
    h('button', {
      class: 'link-button', type: 'button', id: 'sign-in',
      onclick: async (ev) => {
        const { signInBox } = await import('../core/player.js');
        const box = signInBox((made) => navigate(`/players/${made.id}`));
        box.open = true;
        box.classList.add('card');
        const line = ev.target.closest('.sign-in-line');
        line.closest('.intro').append(box);
        line.remove();
      },
    }, 'Played before on another browser? Sign in'));
  fill(root, intro(signIn), grid);
  // No connection: say what plays, and leave out what needs the server (strangers meet there).
  current.catch((e) => {
    if (!noConnection(e)) return;
    offlineNote.hidden = false;
    grid.classList.add('offline');
    root.querySelector('#play-someone-link')?.setAttribute('hidden', '');
  });
  // Each game's held games, in the games' order, as their cards' modules arrive.
  cards.reduce((before, g) => before.then(() => g.start.load()).then((card) => {
    if (card.held) listHeld(yours, card.held);
  }).catch(() => { /* this game's module did not come: its games are not listed */ }), Promise.resolve());
  const leavePool = playSomeoneNow(strangers, { navigate });
  // The games waiting for this player: how many, in the page's title.
  const stopWaiting = gamesWaiting(yours, (n) => setTitle(n ? `(${n}) your turn` : ''));
  const leaveChallenges = challengeCards(today, { navigate, current });
  return () => {
    leavePool();
    stopWaiting();
    if (typeof leaveChallenges === 'function') leaveChallenges();
  };
}

/** The first thing a visitor reads: what this is, where to learn it, and (`signIn`, for a
 * browser with no player) the way back in. */
function intro(signIn) {
  return h('section', { class: 'intro', id: 'intro', 'aria-labelledby': 'intro-title' },
    h('h1', { id: 'intro-title' }, 'Two tile-laying board games, in your browser'),
    h('p', { class: 'intro-text' },
      h('strong', {}, 'Railroad Ink'), ': roll the dice and draw highways and railways across your board. ',
      h('strong', {}, 'Metro'), ': lay tiles to run the longest lines from your stations. Play alone, against the computer or with friends; no account needed.'),
    h('p', { class: 'intro-links' },
      h('a', { href: '/tutorial/ink', 'data-link': '', class: 'btn small', id: 'tutorial-ink' }, 'Learn Railroad Ink'),
      h('a', { href: '/tutorial/metro', 'data-link': '', class: 'btn small', id: 'tutorial-metro' }, 'Learn Metro'),
      h('a', { href: '/rules', 'data-link': '', class: 'btn small', id: 'rules-link' }, 'Rules'),
      h('a', { href: '#play-someone-now', class: 'btn small', id: 'play-someone-link' }, 'Play someone now'),
      signIn));
}

/** Lists the games of one kind this browser holds in the "Your games" section (shown if any). */
function listHeld(section, { store, className, state, describe }) {
  const mine = store.all();
  if (!mine.length) return;
  const list = h('ul', { class: className });
  section.append(list);
  section.hidden = false;
  for (const g of mine.slice(0, 12)) {
    // A game the player's waiting games list already shows is not listed twice.
    if (section.querySelector(`li[data-waiting="${g.id}"]`)) continue;
    const item = h('li', { dataset: { game: g.id } }, h('span', { class: 'muted' }, 'Loading…'));
    list.append(item);
    state(g).then((st) => {
      fill(item,
        describe(st, g),
        h('button', { class: 'link-button small', type: 'button', title: 'Forget this game on this device', onclick: () => { store.remove(g.id); item.remove(); } }, 'Forget'));
    }).catch((e) => {
      if (e.status === 404 || e.status === 403) { store.remove(g.id); item.remove(); } else fill(item, h('span', { class: 'muted' }, e.message));
    });
  }
}
