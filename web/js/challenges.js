// Challenges: the daily and weekly Railroad Ink games and the daily Metro game that everyone
// plays on the same dice (the same deck), and friend challenges made from a finished game.
// Here: their API, the start page's cards, a challenge's leaderboard page, the list of past
// challenges, the result shown when a challenge game ends, and the score histogram (an SVG
// the page draws from the leaderboard's `histogram`).

import { ApiError, request, seats, storedPlayer, viewAsPlayer } from './api.js';
import { h, s, fill, isolated, nameEl } from './dom.js';
import { metroSeats } from './metro-api.js';
import { ensurePlayer, player } from './player.js';

// ---- the API

/** Server time minus this device's time (the server's clock may be fixed, for tests). */
let skew = null;

function learnClock(now) {
  const t = Date.parse(now);
  if (Number.isFinite(t)) skew = t - Date.now();
}

/** The time now on the server's clock, as well as this page knows it. */
export function serverNow() {
  return Date.now() + (skew ?? 0);
}

export const challengeApi = {
  async current() {
    const answer = await viewAsPlayer('/api/challenges/current');
    learnClock(answer.now);
    return answer;
  },
  async list({ before, limit = 20 } = {}) {
    const q = new URLSearchParams({ limit: String(limit) });
    if (before) q.set('before', before);
    const answer = await request('GET', `/api/challenges?${q}`);
    learnClock(answer.now);
    return answer;
  },
  async get(id, { around, limit } = {}) {
    const q = new URLSearchParams();
    if (around) q.set('around', around);
    if (limit) q.set('limit', String(limit));
    const query = q.toString();
    const answer = await viewAsPlayer(`/api/challenges/${encodeURIComponent(id)}${query ? `?${query}` : ''}`);
    learnClock(answer.now);
    return answer;
  },
  play(id, token) {
    return request('POST', `/api/challenges/${encodeURIComponent(id)}/play`, { token });
  },
  friend(from, token, seatToken) {
    const body = { kind: 'friend', from };
    if (seatToken) body.seat_token = seatToken;
    return request('POST', '/api/challenges', { token, body });
  },
};

// ---- words

const GAME_NAMES = { ink: 'Railroad Ink', metro: 'Metro' };

function utcDate(ms, options) {
  return new Date(ms).toLocaleDateString('en-GB', { timeZone: 'UTC', ...options });
}

function dayText(period) {
  const t = Date.parse(`${period}T00:00:00Z`);
  return Number.isFinite(t) ? utcDate(t, { day: 'numeric', month: 'long', year: 'numeric' }) : period;
}

/** "23–29 November 2026" (or across months and years) from a challenge's opening and closing. */
function rangeText(opens, closes) {
  const a = Date.parse(opens);
  const b = Date.parse(closes) - 1;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return '';
  const [da, ma, ya] = [utcDate(a, { day: 'numeric' }), utcDate(a, { month: 'long' }), utcDate(a, { year: 'numeric' })];
  const [db, mb, yb] = [utcDate(b, { day: 'numeric' }), utcDate(b, { month: 'long' }), utcDate(b, { year: 'numeric' })];
  if (ya !== yb) return `${da} ${ma} ${ya} – ${db} ${mb} ${yb}`;
  if (ma !== mb) return `${da} ${ma} – ${db} ${mb} ${yb}`;
  return `${da}–${db} ${mb} ${yb}`;
}

/** A challenge's kind for people: "Daily challenge". */
export function kindLabel(idOrKind) {
  const k = String(idOrKind || '');
  if (k.startsWith('metro-daily')) return 'Daily challenge';
  if (k.startsWith('daily')) return 'Daily challenge';
  if (k.startsWith('weekly')) return 'Weekly challenge';
  if (k.startsWith('friend')) return 'Friend challenge';
  return 'Challenge';
}

/** "Ann's challenge", the name isolated (an element, or in plain text when `plain`). */
function friendTitle(c, { plain = false } = {}) {
  if (!c.by) return 'A friend\'s challenge';
  return plain ? `${isolated(c.by)}'s challenge` : [nameEl(c.by), '\'s challenge'];
}

/** The short title of a card: "Today's Railroad Ink". */
function cardTitle(c) {
  const game = GAME_NAMES[c.game] || c.game;
  if (c.kind === 'weekly') return `This week's ${game}`;
  if (c.kind === 'friend') return friendTitle(c);
  return `Today's ${game}`;
}

/**
 * The page title: "Daily Railroad Ink · 26 November 2026"; a friend challenge's maker's name is
 * an element unless `plain` (for the document's title).
 */
export function challengeTitle(c, { plain = false } = {}) {
  const game = GAME_NAMES[c.game] || c.game;
  if (c.kind === 'friend') return friendTitle(c, { plain });
  if (c.kind === 'weekly') {
    const week = String(c.period || '').match(/^(\d{4})-W(\d{1,2})$/);
    const when = week ? `week ${Number(week[2])} of ${week[1]}` : c.period;
    const range = c.closes ? rangeText(c.opens, c.closes) : '';
    return `Weekly ${game} · ${when}${range ? ` (${range})` : ''}`;
  }
  return `Daily ${game} · ${dayText(c.period)}`;
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th'}`;
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "9 h 12 min left", "2 days 5 h left", "closed". */
export function timeLeftText(closes, closed) {
  if (closed) return 'closed';
  if (!closes) return 'open';
  const ms = Date.parse(closes) - serverNow();
  if (!Number.isFinite(ms)) return '';
  if (ms <= 0) return 'closed';
  if (ms < 60000) return 'less than a minute left';
  // Whole minutes, rounded up: 9 h 12 min is left until 9 h 11 min have gone by.
  const min = Math.ceil(ms / 60000);
  const days = Math.floor(min / 1440);
  const hours = Math.floor((min % 1440) / 60);
  const mins = min % 60;
  if (days) return `${plural(days, 'day')}${hours ? ` ${hours} h` : ''} left`;
  if (hours) return `${hours} h${mins ? ` ${mins} min` : ''} left`;
  return `${mins} min left`;
}

/** Keeps every `.time-left[data-closes]` inside `root` up to date; returns the function that stops. */
function tickTimes(root) {
  const timer = setInterval(() => {
    for (const el of root.querySelectorAll('.time-left[data-closes]')) {
      el.textContent = timeLeftText(el.dataset.closes, false);
    }
  }, 20000);
  return () => clearInterval(timer);
}

// ---- playing

/** Where a challenge's game is played: /ink/{game} or /metro/{game}. */
function gamePath(kind, game) {
  return `/${kind === 'metro' ? 'metro' : 'ink'}/${game}`;
}

/**
 * Plays (or continues) a challenge: asks for a name in `slot` if this device has no player
 * yet, takes the seat (POST …/play gives the same game again after the first time), keeps its
 * token like any game's seat, and goes to the game.
 */
async function playChallenge(c, slot, navigate) {
  const action = c.you ? 'Continue' : 'Play';
  let me = await ensurePlayer(slot, { action });
  let taken;
  try {
    taken = await challengeApi.play(c.id, me.token);
  } catch (e) {
    // A key this server does not know (its database started afresh): a name again, once.
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) throw e;
    player.forget();
    me = await ensurePlayer(slot, { action, intro: 'This server does not know the player kept on this device. Type your name again.' });
    taken = await challengeApi.play(c.id, me.token);
  }
  const kind = taken.kind || c.game;
  if (kind === 'metro') {
    metroSeats.add(taken.game, [{ seat: taken.seat, token: taken.token }]);
  } else {
    seats.save({ id: taken.game, seat: taken.seat, token: taken.token, mode: 'challenge', name: me.name });
  }
  navigate(gamePath(kind, taken.game));
}

/** The Play / Continue button of a challenge (with the name form in its place when needed). */
function playButton(c, navigate, { big = false } = {}) {
  const slot = h('div', { class: 'play-slot' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const label = c.you ? 'Continue' : 'Play';
  const button = h('button', {
    class: `btn primary${big ? ' big' : ''} play-challenge`, type: 'button', dataset: { challenge: c.id },
    onclick: async () => {
      button.disabled = true;
      error.textContent = '';
      try {
        await playChallenge(c, slot, navigate);
      } catch (e) {
        error.textContent = e instanceof ApiError && e.status === 409
          ? 'This challenge has closed: see its leaderboard.'
          : e.message;
        button.disabled = false;
      }
    },
  }, label);
  slot.append(button);
  return h('div', { class: 'play-box' }, slot, error);
}

// ---- the start page's cards

/**
 * Today's challenges above the start page's new-game form: one card each (players, best,
 * the computer's score, the time left, and Play, Continue or your rank). Fills `section`, or
 * leaves it hidden when the server has no challenges. Returns the function that stops the clock.
 */
export function challengeCards(section, { navigate, pastLink = true }) {
  let stop = () => {};
  let gone = false;
  challengeApi.current().then(({ challenges }) => {
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

function facts(c, { withTime = true } = {}) {
  const items = [
    h('li', { class: 'fact-players' }, plural(c.players ?? 0, 'player')),
    h('li', { class: 'fact-best' }, c.best === null || c.best === undefined ? 'no scores yet' : `best ${num(c.best)}`),
    // A closed challenge without the computer's score (its game never finished) says nothing of it.
    c.computer === null || c.computer === undefined
      ? (c.closed ? null : h('li', { class: 'fact-computer' }, 'the computer is still playing'))
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
      h('strong', {}, you.rank ? `Done: rank ${you.rank} of ${c.finished ?? c.players}` : (you.unranked ? 'Done: unranked' : 'Done')), ' · ',
      h('a', { href: `/challenges/${c.id}`, 'data-link': '' }, 'Leaderboard'));
  } else if (c.closed) {
    action = h('p', {}, h('a', { href: `/challenges/${c.id}`, 'data-link': '' }, 'Closed: see the leaderboard'));
  } else {
    action = h('div', { class: 'card-actions' },
      playButton(c, navigate),
      h('a', { class: 'leaderboard-link', href: `/challenges/${c.id}`, 'data-link': '' }, 'Leaderboard'));
  }
  return h('article', { class: `challenge-card game-${c.game}`, dataset: { challenge: c.id, kind: c.kind } },
    h('h3', {}, h('span', { class: `game-chip game-${c.game}` }, GAME_NAMES[c.game] || c.game), ' ', h('span', { class: 'card-title' }, cardTitle(c))),
    facts(c),
    action);
}

// ---- the score histogram

const NICE = [1, 2, 3, 4, 5, 10, 15, 20, 25, 50, 100, 200, 250, 500, 1000];

/** Score buckets for ~10–20 bars: [{from, to, count}], ascending. */
export function buckets(histogram, extra = []) {
  const scores = histogram.map((b) => b.score).concat(extra.filter((x) => Number.isFinite(x)));
  if (!scores.length) return [];
  let min = Math.min(...scores);
  let max = Math.max(...scores);
  // At least ten scores wide, so that a few scores do not make a few wide bars.
  if (max - min + 1 < 10) {
    const pad = 10 - (max - min + 1);
    min -= Math.floor(pad / 2);
    max += Math.ceil(pad / 2);
  }
  const span = max - min + 1;
  const width = NICE.find((w) => Math.ceil(span / w) <= 18) || Math.ceil(span / 18);
  const lo = Math.floor(min / width) * width;
  const n = Math.floor((max - lo) / width) + 1;
  const out = Array.from({ length: n }, (_, i) => ({ from: lo + i * width, to: lo + (i + 1) * width - 1, count: 0 }));
  for (const b of histogram) out[Math.floor((b.score - lo) / width)].count += b.count;
  return out;
}

/** A score as printed: a true minus sign. */
function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

function rangeLabel(b) {
  if (b.from === b.to) return num(b.from);
  return b.from < 0 ? `${num(b.from)} to ${num(b.to)}` : `${b.from}–${b.to}`;
}

/**
 * The day's score distribution as a bar chart, your bar marked and labelled, the computer's
 * score as a dashed line: a figure with an SVG (role img, its summary as the label) and the
 * summary in words under it.
 */
export function scoreHistogram(histogram, { you = null, computer = null, title = 'Scores' } = {}) {
  const hist = (histogram || []).filter((b) => b.count > 0);
  const total = hist.reduce((n, b) => n + b.count, 0);
  if (!total) {
    return h('figure', { class: 'histogram empty' }, h('p', { class: 'muted' }, 'No finished scores yet: the chart appears with the first.'));
  }
  const bars = buckets(hist, [you, computer]);
  const W = 440;
  const H = 230;
  const left = 30;
  const right = 8;
  const top = 30;
  const bottom = 40;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const step = plotW / bars.length;
  const peak = Math.max(...bars.map((b) => b.count));
  const y = (count) => top + plotH - (count / peak) * plotH;
  const mine = you === null || you === undefined ? -1 : bars.findIndex((b) => you >= b.from && you <= b.to);
  const everyLabel = Math.ceil(bars.length / 9);
  const scoreX = (score) => {
    const i = bars.findIndex((b) => score >= b.from && score <= b.to);
    const b = bars[i];
    return left + step * (i + (score - b.from + 0.5) / (b.to - b.from + 1));
  };
  const most = bars.reduce((a, b) => (b.count > a.count ? b : a));
  const higher = you === null || you === undefined ? 0 : hist.filter((b) => b.score > you).reduce((n, b) => n + b.count, 0);
  const lowest = hist[0].score;
  const highest = hist[hist.length - 1].score;
  const summary = [
    lowest === highest ? `${total === 1 ? '1 score' : `${total} scores, all`}: ${num(lowest)}.` : `${plural(total, 'score')} from ${num(lowest)} to ${num(highest)}.`,
    total > 2 ? `Most players scored ${rangeLabel(most)} (${most.count}).` : '',
    mine >= 0 ? `You scored ${num(you)}: ${higher === 0 ? 'nobody scored more' : `${plural(higher, 'player')} scored more`}.` : '',
    computer !== null && computer !== undefined ? `The computer scored ${num(computer)}.` : '',
  ].filter(Boolean).join(' ');
  const svg = s('svg', {
    class: 'histogram-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: ${summary}`,
    preserveAspectRatio: 'xMidYMid meet',
  },
  s('line', { class: 'axis', x1: left, y1: top + plotH, x2: W - right, y2: top + plotH }),
  s('text', { class: 'axis-label', x: left - 6, y: top + 4, 'text-anchor': 'end' }, peak),
  s('text', { class: 'axis-label', x: left - 6, y: top + plotH, 'text-anchor': 'end' }, 0),
  bars.map((b, i) => {
    const x = left + i * step + step * 0.1;
    const barH = top + plotH - y(b.count);
    return s('g', { class: `bar${i === mine ? ' you' : ''}`, dataset: { from: b.from, to: b.to, count: b.count } },
      s('title', {}, `${rangeLabel(b)}: ${plural(b.count, 'player')}`),
      s('rect', { x, y: y(b.count) - (b.count && barH < 2 ? 2 - barH : 0), width: step * 0.8, height: b.count ? Math.max(barH, 2) : 0, rx: 2 }),
      i === mine || (i % everyLabel === 0 && (mine < 0 || Math.abs(i - mine) >= Math.min(everyLabel, 2)))
        ? s('text', { class: 'tick', x: x + step * 0.4, y: top + plotH + 16, 'text-anchor': 'middle' }, num(b.from))
        : null);
  }),
  computer !== null && computer !== undefined ? s('g', { class: 'computer-mark' },
    s('line', { x1: scoreX(computer), x2: scoreX(computer), y1: top - 4, y2: top + plotH }),
    s('text', { x: Math.min(Math.max(scoreX(computer), left + 40), W - right - 40), y: top + plotH + 32, 'text-anchor': 'middle' }, `computer ${num(computer)}`)) : null,
  mine >= 0 ? s('g', { class: 'you-mark' },
    s('text', { x: Math.min(Math.max(left + mine * step + step / 2, left + 30), W - right - 30), y: Math.max(y(bars[mine].count) - 8, 14), 'text-anchor': 'middle' }, `You: ${num(you)}`)) : null);
  return h('figure', { class: 'histogram' }, svg, h('figcaption', { class: 'muted small' }, summary));
}

// ---- a challenge game's result (the end banner of the game screens)

/**
 * What a finished challenge game shows under its headline: your rank, the top of the
 * leaderboard, a link to the whole of it, and the histogram with your score marked. The
 * element fills itself once the leaderboard arrives.
 */
export function challengeResult(id, { game = 'ink' } = {}) {
  const box = h('section', { class: 'challenge-result', id: 'challenge-result', 'aria-live': 'polite' },
    h('p', { class: 'muted' }, 'Loading the leaderboard…'));
  challengeApi.get(id, { limit: 5 }).then((c) => {
    const board = c.leaderboard || { entries: [], around: [], histogram: [], finished: 0 };
    const you = c.you;
    const count = board.finished ?? c.players;
    const top = board.entries.slice(0, 5);
    const mineRow = (board.around || []).find((e) => e.you) || board.entries.find((e) => e.you);
    const rows = [...top];
    if (mineRow && !rows.some((e) => e.you)) rows.push(null, mineRow);
    const comp = board.computer;
    fill(box,
      h('div', { class: 'result-text' },
        h('h3', { id: 'your-rank' }, you?.rank ? `You are ${ordinal(you.rank)} of ${count}` : `${plural(count, 'player')} finished`),
        you?.unranked ? h('p', { class: 'small unranked-note', id: 'unranked-note' }, unrankedWords()) : null,
        h('ol', { class: 'result-top' }, rows.map((e) => (e === null
          ? h('li', { class: 'gap', 'aria-hidden': 'true' }, '…')
          : h('li', { value: e.rank, class: e.you ? 'you' : '' },
            h('span', { class: 'name' }, nameEl(e.name), e.you ? ' (you)' : null),
            h('span', { class: 'pts' }, num(e.score)))))),
        h('p', { class: 'small' }, comp
          ? `The computer (strong) scored ${num(comp.score)} on the same ${game === 'metro' ? 'tiles' : 'dice'}.`
          : 'The computer is still playing these dice.'),
        h('a', { class: 'btn small', id: 'full-leaderboard', href: `/challenges/${id}`, 'data-link': '' }, 'Full leaderboard')),
      scoreHistogram(board.histogram, { you: you?.score ?? mineRow?.score ?? null, computer: comp?.score ?? null, title: 'The score distribution' }));
  }).catch((e) => {
    fill(box, h('p', {}, `The leaderboard could not be loaded: ${e.message}`));
  });
  return box;
}

// ---- "challenge a friend" (the end of any finished Railroad Ink game)

/**
 * The "Challenge a friend" button: makes (once) a friend challenge from the finished game
 * `gameId` and shows its link with a Copy button, built by `inviteBox(path, label)`.
 */
export function friendChallengeBox(gameId, inviteBox, seatToken) {
  const box = h('div', { class: 'friend-box', id: 'friend-challenge' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const slot = h('div', { class: 'friend-slot' });
  const button = h('button', {
    class: 'btn', type: 'button', id: 'challenge-friend',
    onclick: async () => {
      button.disabled = true;
      error.textContent = '';
      try {
        const me = await ensurePlayer(slot, { action: 'Make the link', intro: 'Your friend sees this name on the challenge. It is kept on this device.' });
        const made = await challengeApi.friend(gameId, me.token, seatToken);
        const path = /^https?:/.test(made.link || '') ? new URL(made.link).pathname : (made.link || `/challenges/${made.id}`);
        fill(box, h('p', { class: 'friend-made' }, 'Send this link: whoever opens it plays the same seven rolls and tries to beat you. ',
          h('a', { href: path, 'data-link': '' }, 'Its page')), inviteBox(path, 'Challenge:'));
      } catch (e) {
        error.textContent = e.message;
        button.disabled = false;
      }
    },
  }, 'Challenge a friend');
  slot.append(button);
  fill(box, slot, error);
  return box;
}

// ---- the leaderboard page

function boardLink(c, entry) {
  if (!entry.game) return null;
  return h('a', { href: `/${c.game === 'metro' ? 'metro' : 'ink'}/${entry.game}/replay`, 'data-link': '', 'aria-label': `${isolated(entry.name)}'s board` }, 'Board');
}

function nameCell(entry) {
  const text = [nameEl(entry.name), entry.you ? ' (you)' : null];
  return entry.player ? h('a', { href: `/players/${entry.player}`, 'data-link': '' }, text) : text;
}

/** Why an entry is shown below the ranks. */
function unrankedWords() {
  return 'Unranked: another entry of this challenge came from your network first (one ranked entry per address). Your score stands below the ranks.';
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

function entryRow(c, e, boards) {
  const last = c.game === 'metro' ? signed(e.margin ?? 0) : (e.errors ?? '');
  return h('tr', { class: e.you ? 'you' : '', dataset: { rank: e.rank }, 'aria-current': e.you ? 'true' : null },
    h('td', { class: 'rank' }, e.rank),
    h('th', { scope: 'row', class: 'name' }, nameCell(e)),
    h('td', { class: 'num score' }, num(e.score)),
    h('td', { class: 'num' }, last),
    boards ? h('td', { class: 'col-board' }, boardLink(c, e)) : null);
}

/** Finished entries ranked apart: a second entry from one network. */
function unrankedRows(c, unranked, boards, cols) {
  if (!unranked?.length) return null;
  const last = (e) => (c.game === 'metro' ? signed(e.margin ?? 0) : (e.errors ?? ''));
  return h('tbody', { class: 'unranked-rows', id: 'unranked-rows' },
    h('tr', { class: 'unranked-head' }, h('th', { scope: 'rowgroup', colspan: cols }, 'Unranked: another entry came from the same network first')),
    unranked.map((e) => h('tr', { class: e.you ? 'you unranked' : 'unranked', 'aria-current': e.you ? 'true' : null },
      h('td', { class: 'rank' }, h('span', { 'aria-hidden': 'true' }, '–'), h('span', { class: 'visually-hidden' }, 'unranked')),
      h('th', { scope: 'row', class: 'name' }, nameCell(e)),
      h('td', { class: 'num score' }, num(e.score)),
      h('td', { class: 'num' }, last(e)),
      boards ? h('td', { class: 'col-board' }, boardLink(c, e)) : null)));
}

/** The leaderboard table: the top entries, a gap, the rows around you, the computer apart. */
function leaderboardTable(c) {
  const board = c.leaderboard;
  const metro = c.game === 'metro';
  const top = board.entries || [];
  const shown = new Set(top.map((e) => e.rank + (e.player || e.name)));
  const around = (board.around || []).filter((e) => !shown.has(e.rank + (e.player || e.name)));
  const lastTop = top.length ? top[top.length - 1].rank : 0;
  const gap = around.length && around[0].rank > lastTop + 1;
  const comp = board.computer;
  // The board column only once some board may be opened.
  const boards = [...top, ...around, ...(board.unranked || []), comp].some((e) => e?.game);
  const cols = boards ? 5 : 4;
  return h('table', { class: 'leaderboard', id: 'leaderboard' },
    h('caption', {}, `${plural(board.finished ?? top.length, 'finished player')}${metro ? ': ranked by score, then the margin over the best computer' : ': ranked by score, then fewer errors, then the earlier finish'}`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'rank' }, 'Rank'),
      h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col', class: 'num' }, 'Score'),
      h('th', { scope: 'col', class: 'num' }, metro ? 'Margin' : 'Errors'),
      boards ? h('th', { scope: 'col', class: 'col-board' }, h('span', { class: 'visually-hidden' }, 'Board')) : null)),
    h('tbody', { class: 'top-rows' }, top.length
      ? top.map((e) => entryRow(c, e, boards))
      : h('tr', {}, h('td', { colspan: cols, class: 'muted empty-row' }, 'Nobody has finished yet. Be the first.'))),
    around.length ? [
      gap ? h('tbody', { class: 'gap-rows' }, h('tr', {}, h('td', { colspan: cols, class: 'gap' }, h('span', { 'aria-hidden': 'true' }, '⋮'), h('span', { class: 'visually-hidden' }, 'Rows left out')))) : null,
      h('tbody', { class: 'around-rows' }, around.map((e) => entryRow(c, e, boards))),
    ] : null,
    unrankedRows(c, board.unranked, boards, cols),
    h('tbody', { class: 'computer-rows' },
      h('tr', { class: 'computer-head' }, h('th', { scope: 'rowgroup', colspan: cols }, `On the same ${metro ? 'tiles' : 'dice'}, apart from the players`)),
      h('tr', { class: 'computer', id: 'computer-row' },
        h('td', { class: 'rank' }, h('span', { class: 'chip computer' }, 'AI')),
        h('th', { scope: 'row', class: 'name' }, comp?.name || 'Computer (strong)'),
        h('td', { class: 'num score' }, comp ? num(comp.score) : h('span', { class: 'muted small' }, 'still playing')),
        h('td', { class: 'num' }, comp ? (metro ? signed(comp.margin ?? 0) : (comp.errors ?? '')) : ''),
        boards ? h('td', { class: 'col-board' }, comp ? boardLink(c, comp) : null) : null)));
}

/** `/challenges/{id}`: a challenge with its leaderboard, chart and Play button. */
export async function challengeScreen(root, id, { navigate, setTitle }) {
  setTitle('Challenge');
  fill(root, h('p', { class: 'loading' }, 'Loading the challenge…'));
  let c;
  try {
    c = await challengeApi.get(id);
  } catch (e) {
    fill(root, h('section', { class: 'card narrow center', id: 'challenge-missing' },
      h('h1', {}, 'No challenge here'),
      h('p', {}, e instanceof ApiError && e.status === 404 ? 'There is no challenge at this address. The link may be mistyped.' : e.message),
      h('a', { class: 'btn primary', href: '/challenges', 'data-link': '' }, 'All challenges')));
    return () => {};
  }
  const title = challengeTitle(c);
  setTitle(challengeTitle(c, { plain: true }));
  const board = c.leaderboard || { entries: [], around: [], histogram: [], finished: 0 };
  const you = c.you;
  const friend = c.kind === 'friend';
  const lead = friend
    ? 'Whoever opens the link plays the same seven rolls at their own pace: nobody waits for anybody.'
    : c.game === 'metro'
      ? 'The day\'s deck for everyone: you play first, against three strong computers in the same seats for all.'
      : `The same ${c.kind === 'weekly' ? 'seven rolls all week' : 'seven rolls all day'} for everyone, one try each.`;
  let action = null;
  if (you?.finished) {
    const points = `${num(you.score)} ${Math.abs(you.score) === 1 ? 'point' : 'points'}`;
    action = h('p', { class: 'you-done', id: 'you-done' }, you.rank
      ? `You finished ${ordinal(you.rank)} with ${points}.`
      : [`You finished with ${points}. `, unrankedWords()]);
  } else if (!c.closed) {
    action = playButton(c, navigate, { big: true });
  }
  const seedLine = c.seed !== undefined && c.seed !== null
    ? h('p', { class: 'seed-line', id: 'challenge-seed' }, friend
      ? [`Dice from seed ${c.seed}, the same as `, c.from ? h('a', { href: `/ink/${c.from}/replay`, 'data-link': '' }, friendsGame(c)) : friendsGame(c), '.']
      : `${c.game === 'metro' ? 'Tiles' : 'Dice'} from seed ${c.seed}: start a game with this seed to play them again.`)
    : null;
  const mayLook = c.closed || you?.finished;
  const stop = [];
  fill(root, h('section', { class: 'challenge-page', dataset: { challenge: c.id } },
    h('div', { class: 'viewer-head' },
      h('div', {},
        h('p', { class: 'kicker' }, h('span', { class: `game-chip game-${c.game}` }, GAME_NAMES[c.game] || c.game), ' ', kindLabel(c.kind)),
        h('h1', { id: 'challenge-title' }, title, friend ? `: beat ${num(c.target ?? c.best ?? 0)} on the same seven rolls` : null),
        h('p', { class: 'lead' }, lead)),
      action),
    facts(c, { withTime: !friend || !!c.closes }),
    seedLine,
    mayLook ? null : h('p', { class: 'muted small' }, friend
      ? 'Finish it to open the others\' boards and see its seed.'
      : 'Finish this challenge to open the other players\' boards; everyone may once it has closed, and its seed is shown then.'),
    h('div', { class: 'challenge-layout' },
      h('section', { class: 'card leaderboard-card', 'aria-labelledby': 'leaderboard-title' },
        h('h2', { id: 'leaderboard-title' }, friend ? 'Everyone who played it' : 'Leaderboard'),
        h('div', { class: 'table-scroll' }, leaderboardTable(c)),
        stillPlaying(board.playing),
        neverFinished(board.unfinished)),
      h('section', { class: 'card chart-card', 'aria-labelledby': 'chart-title' },
        h('h2', { id: 'chart-title' }, 'Score distribution'),
        scoreHistogram(board.histogram, { you: you?.finished ? you.score : null, computer: board.computer?.score ?? null, title: 'The score distribution' })))));
  stop.push(tickTimes(root));
  return () => stop.forEach((f) => f());
}

/** "Ann's game" (the game a friend challenge was made from). */
function friendsGame(c) {
  return c.by ? [nameEl(c.by), '\'s game'] : 'your friend\'s game';
}

/** Under a closed challenge's table: who started it and did not finish before it closed. */
function neverFinished(unfinished) {
  if (!unfinished?.length) return null;
  return h('p', { class: 'never-finished small', id: 'never-finished' }, 'Did not finish before the close: ',
    unfinished.map((p, i) => [
      i ? (i === unfinished.length - 1 ? ' and ' : ', ') : '',
      p.player ? h('a', { href: `/players/${p.player}`, 'data-link': '' }, nameEl(p.name)) : nameEl(p.name),
    ]), '.');
}

/** Under a friend challenge's table: who has started it and not finished yet. */
function stillPlaying(playing) {
  if (!playing?.length) return null;
  const me = storedPlayer();
  return h('p', { class: 'still-playing small', id: 'still-playing' }, 'Still playing: ',
    playing.map((p, i) => [
      i ? (i === playing.length - 1 ? ' and ' : ', ') : '',
      p.player ? h('a', { href: `/players/${p.player}`, 'data-link': '' }, nameEl(p.name)) : nameEl(p.name),
      p.player && p.player === me?.id ? ' (you)' : '',
    ]), '.');
}

// ---- the list of challenges

/** `/challenges`: today's challenges, then the closed ones, newest first, page by page. */
export async function challengesScreen(root, { navigate, setTitle }) {
  setTitle('Challenges');
  const today = h('section', { class: 'challenges-today', hidden: true, 'aria-labelledby': 'today-title' });
  const list = h('ol', { class: 'past-list', id: 'past-challenges' });
  const more = h('button', { class: 'btn', type: 'button', id: 'older', hidden: true }, 'Older challenges');
  const status = h('p', { class: 'muted' }, 'Loading…');
  fill(root, h('section', { class: 'challenges' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Challenges'),
        h('p', { class: 'lead' }, 'Every day and every week everyone plays the same dice, and every day the same Metro deck. Each leaderboard stays.'))),
    today,
    h('section', { 'aria-labelledby': 'past-title' },
      h('h2', { id: 'past-title' }, 'Past challenges'),
      status, list, more)));
  const stopCards = challengeCards(today, { navigate, pastLink: false });
  let before = null;
  async function load() {
    more.disabled = true;
    try {
      const page = await challengeApi.list({ before });
      for (const c of page.challenges) list.append(pastItem(c));
      before = page.next ?? null;
      more.hidden = !before;
      status.hidden = list.children.length > 0;
      status.textContent = 'No challenge has closed yet. Today\'s leaderboards join this list tomorrow.';
    } catch (e) {
      status.hidden = false;
      status.textContent = e.message;
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener('click', load);
  await load();
  return stopCards;
}

function pastItem(c) {
  return h('li', { class: 'past-challenge', dataset: { challenge: c.id } },
    h('span', { class: `game-chip game-${c.game}` }, GAME_NAMES[c.game] || c.game),
    h('a', { class: 'past-title', href: `/challenges/${c.id}`, 'data-link': '' }, challengeTitle(c)),
    facts(c, { withTime: false }),
    c.you?.finished ? h('span', { class: 'small you-rank' }, c.you.rank ? `You: ${ordinal(c.you.rank)}, ${plural(c.you.score, 'point')}` : `You: unranked, ${plural(c.you.score, 'point')}`) : null);
}
