// Playing a challenge (its Play or Continue button), and the challenges' cards: today's above
// the start page's new-game form and on the challenges' page.

import { h, fill, nameEl } from '../core/dom.js';
import { gameName, gamePath } from '../core/games.js';
import { ensurePlayer, player } from '../core/player.js';
import { ApiError, storedPlayer } from '../core/request.js';
import { heldSeats } from '../core/seats.js';
import { challengeApi } from './api.js';
import { cardTitle, flame, num, plural, streakLong, streakText, tickTimes, timeLeftText, variantWords } from './words.js';


/**
 * Takes a seat in a challenge's game (`practice`: a new practice game on a closed one's draws,
 * else the one attempt, which POST …/play gives again after the first time): asks for a name in
 * `slot` if this device has no player yet, keeps the seat's token like any game's, and goes to
 * the game.
 */
async function takeSeat(c, slot, navigate, { action, practice = false }) {
  const start = (token) => (practice ? challengeApi.practice(c.id, token) : challengeApi.play(c.id, token));
  let me = await ensurePlayer(slot, { action });
  let taken;
  try {
    taken = await start(me.token);
  } catch (e) {
    // A key this server does not know (its database started afresh): a name again, once.
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) throw e;
    player.forget();
    me = await ensurePlayer(slot, { action, intro: 'This server does not know the player kept on this device. Type your name again.' });
    taken = await start(me.token);
  }
  const kind = taken.kind || c.game;
  // A seat of a friend challenge's first game comes without a token (the game is seen with the
  // player's key): a token this browser holds for it stays.
  const held = heldSeats(kind);
  if (!taken.token && held.get(taken.game)) {
    // kept as it is
  } else {
    held.add(taken.game, [{ seat: taken.seat, token: taken.token }], { mode: practice ? 'practice' : 'challenge', name: me.name });
  }
  navigate(gamePath(kind, taken.game));
}

/** A button that takes a seat in a challenge (with the name form in its place when needed). */
function seatButton(c, navigate, { label, classes, practice, refused }) {
  const slot = h('div', { class: 'play-slot' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', {
    class: classes, type: 'button', dataset: { challenge: c.id },
    onclick: async () => {
      button.disabled = true;
      error.textContent = '';
      try {
        await takeSeat(c, slot, navigate, { action: label, practice });
      } catch (e) {
        // A closed challenge is said in the page's words; any other refusal (another attempt
        // from this network going on) in the server's.
        error.textContent = e instanceof ApiError && e.status === 409 && /closed/.test(e.message) ? refused : e.message;
        button.disabled = false;
      }
    },
  }, label);
  slot.append(button);
  return h('div', { class: 'play-box' }, slot, error);
}

/** The Play / Continue button of a challenge. */
export function playButton(c, navigate, { big = false } = {}) {
  return seatButton(c, navigate, {
    label: c.you ? 'Continue' : 'Play',
    classes: `btn primary${big ? ' big' : ''} play-challenge`,
    practice: false,
    refused: 'This challenge has closed: see its leaderboard.',
  });
}

/** The Practise button of a closed challenge: a new game on its draws, never ranked. */
export function practiceButton(c, navigate, { primary = false } = {}) {
  return seatButton(c, navigate, {
    label: 'Practise these dice',
    classes: `btn${primary ? ' primary' : ''} practice-challenge`,
    practice: true,
    refused: 'Practice opens once the challenge has closed.',
  });
}

/**
 * Today's challenges above the start page's new-game form: one card each (players, best,
 * the computer's score, the time left, and Play, Continue or your rank). Fills `section`, or
 * leaves it hidden when the server has no challenges. `current`: today's challenges, when the
 * page has already asked for them. Returns the function that stops the clock.
 */
export function challengeCards(section, { navigate, pastLink = true, current = challengeApi.current() }) {
  let stop = () => {};
  let gone = false;
  current.then(({ challenges }) => {
    if (gone || !challenges?.length) return;
    const me = storedPlayer();
    fill(section,
      h('div', { class: 'section-head' },
        h('h2', { id: 'today-title' }, 'Today\'s challenges'),
        h('p', { class: 'muted small' }, 'Everyone plays the same dice. One try each, at your own pace.')),
      h('div', { class: 'challenge-cards' }, challenges.map((c) => challengeCard(c, navigate))),
      pastLink || me ? h('p', { class: 'challenge-links small' },
        pastLink ? h('a', { href: '/challenges', 'data-link': '' }, 'Past challenges') : null,
        pastLink && me ? ' · ' : null,
        me ? ['Playing as ', h('a', { href: `/players/${me.id}`, 'data-link': '', class: 'me-link' }, nameEl(me.name))] : null) : null);
    section.hidden = false;
    stop = tickTimes(section);
  }).catch(() => { /* no challenges on this server: the start page stays as it was */ });
  return () => { gone = true; stop(); };
}

export function facts(c, { withTime = true } = {}) {
  const items = [
    streakChip(c),
    h('li', { class: 'fact-players' }, plural(c.players ?? 0, 'player')),
    h('li', { class: 'fact-best' }, c.best === null || c.best === undefined ? 'no scores yet' : `best ${num(c.best)}`),
    // The computer's score once it has one (its game runs in the background at first).
    c.computer === null || c.computer === undefined
      ? null
      : h('li', { class: 'fact-computer' }, `the computer scored ${num(c.computer)}`),
  ].filter(Boolean);
  if (withTime && (c.closes || c.closed)) {
    const closed = c.closed || timeLeftText(c.closes, false) === 'closed';
    items.push(h('li', { class: 'time-left', dataset: closed ? {} : { closes: c.closes } }, timeLeftText(c.closes, closed)));
  }
  return h('ul', { class: 'facts' }, items);
}

function challengeCard(c, navigate) {
  const you = c.you;
  let action;
  if (you?.finished) {
    action = h('p', { class: 'done-line' },
      h('strong', {}, you.rank ? `Done: rank ${you.rank} of ${c.finished ?? c.players}` : (you.unranked ? 'Done: unranked' : 'Done')), h('span', { class: 'sep' }, ' · '),
      h('a', { href: `/challenges/${c.id}`, 'data-link': '' }, 'Leaderboard'));
  } else if (c.closed) {
    action = h('p', {}, h('a', { href: `/challenges/${c.id}`, 'data-link': '' }, 'Closed: see the leaderboard'));
  } else {
    action = h('div', { class: 'card-actions' },
      playButton(c, navigate),
      h('a', { class: 'leaderboard-link', href: `/challenges/${c.id}`, 'data-link': '' }, 'Leaderboard'));
  }
  return h('article', { class: `challenge-card game-${c.game}`, dataset: { challenge: c.id, kind: c.kind } },
    h('h3', {}, h('span', { class: `game-chip game-${c.game}` }, gameName(c.game)), ' ', h('span', { class: 'card-title' }, cardTitle(c))),
    // A Deep Blue challenge says what its expansion is.
    c.variant && variantWords(c.variant) ? h('p', { class: 'variant-line' }, variantWords(c.variant)) : null,
    facts(c),
    action);
}

/**
 * The player's streak of a daily among its facts: "day 12", and whether today keeps it going.
 */
function streakChip(c) {
  const text = streakText(c.streak);
  if (!text) return null;
  const today = c.streak.last === c.period;
  return h('li', { class: 'fact-streak', dataset: { streak: c.streak.current } },
    h('span', { class: 'streak-chip', title: streakLong(c.streak) }, flame(), ' ', text),
    today ? null : h('span', { class: 'muted' }, ' finish today\'s to keep it'));
}
