// Challenges in words: their kinds, titles and dates, ranks, scores, and the time left.

import { isolated, nameEl, s } from '../core/dom.js';
import { gameName, gameOf } from '../core/games.js';
import { dateText } from '../core/words.js';
import { serverNow } from './api.js';

function utcDate(ms, options) {
  return new Date(ms).toLocaleDateString('en-GB', { timeZone: 'UTC', ...options });
}

function dayText(period) {
  const t = Date.parse(`${period}T00:00:00Z`);
  return Number.isFinite(t) ? dateText(t, { utc: true }) : period;
}

/** "November 2026" from a month's period (`2026-11`). */
function monthText(period) {
  const t = Date.parse(`${period}-01T00:00:00Z`);
  return Number.isFinite(t) ? utcDate(t, { month: 'long', year: 'numeric' }) : period;
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
  if (k.startsWith('weekly-deep-blue') || k.startsWith('weekly-lake') || k.startsWith('weekly-river')) return 'Weekly Deep Blue challenge';
  if (k.startsWith('weekly')) return 'Weekly challenge';
  if (k.startsWith('monthly')) return 'Monthly challenge';
  if (k.startsWith('friend')) return 'Friend challenge';
  return 'Challenge';
}

/** "Ann's challenge", the name isolated (an element, or in plain text when `plain`). */
function friendTitle(c, { plain = false } = {}) {
  if (!c.by) return 'A friend\'s challenge';
  return plain ? `${isolated(c.by)}'s challenge` : [nameEl(c.by), '\'s challenge'];
}

/** The short title of a card: "Today's Railroad Ink". */
export function cardTitle(c) {
  const game = gameName(c.game);
  if (c.kind === 'weekly-deep-blue') return `This week's Deep Blue ${variantName(c.variant)}`;
  if (c.kind === 'weekly') return `This week's ${game}`;
  if (c.kind === 'monthly') return `This month's ${game}`;
  if (c.kind === 'friend') return friendTitle(c);
  return `Today's ${game}`;
}

/**
 * The page title: "Daily Railroad Ink · 26 November 2026"; a friend challenge's maker's name is
 * an element unless `plain` (for the document's title).
 */
export function challengeTitle(c, { plain = false } = {}) {
  const game = gameName(c.game);
  if (c.kind === 'friend') return friendTitle(c, { plain });
  if (c.kind === 'monthly') return `Monthly ${game} · ${monthText(c.period)}`;
  if (c.kind === 'weekly' || c.kind === 'weekly-deep-blue') {
    if (c.kind === 'weekly-deep-blue') {
      const wk = String(c.period || '').match(/^(\d{4})-W(\d{1,2})$/);
      return `Weekly ${game}: Deep Blue ${variantName(c.variant)} · ${wk ? `week ${Number(wk[2])} of ${wk[1]}` : c.period}`;
    }
    const week = String(c.period || '').match(/^(\d{4})-W(\d{1,2})$/);
    const when = week ? `week ${Number(week[2])} of ${week[1]}` : c.period;
    const range = c.closes ? rangeText(c.opens, c.closes) : '';
    return `Weekly ${game} · ${when}${range ? ` (${range})` : ''}`;
  }
  return `Daily ${game} · ${dayText(c.period)}`;
}

/** An expansion a challenge is played in, in words: "lake", "river". */
export function variantName(variant) {
  return { lake: 'lake', river: 'river' }[variant] || 'expansion';
}

/**
 * What a Deep Blue expansion is, in a line a new player understands: its dice, how it scores,
 * its rounds ('' for the base game).
 */
export function variantWords(variant) {
  if (variant === 'lake') return 'The lake: besides the four route dice, two optional lake dice a round. Water floods the squares it surrounds, and your smallest lake scores a point a square. Six rounds instead of seven.';
  if (variant === 'river') return 'The river: besides the four route dice, two optional river dice a round. Your best river scores a point a square, 3 more when it leaves the board at both ends. Six rounds instead of seven.';
  return '';
}

/** "seven rolls", or "six rolls" for a challenge played in an expansion. */
export function rollsWords(c) {
  return c && c.variant ? 'six rolls' : 'seven rolls';
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th'}`;
}

export function plural(n, one, many = `${one}s`) {
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
export function tickTimes(root) {
  const timer = setInterval(() => {
    for (const el of root.querySelectorAll('.time-left[data-closes]')) {
      el.textContent = timeLeftText(el.dataset.closes, false);
    }
  }, 20000);
  return () => clearInterval(timer);
}

export { num } from '../core/words.js';

/** Why an entry is shown below the ranks. */
export function unrankedWords() {
  return 'Unranked: another entry of this challenge came from your network first (one ranked entry per address). Your score stands below the ranks.';
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/**
 * A daily's streak in a few words: "day 12" while it runs (the days in a row with this daily
 * finished), or null when there is none to show.
 */
export function streakText(streak) {
  if (!streak || !(streak.current > 0)) return null;
  return `day ${streak.current}`;
}

/** The longer form, for a title or an end screen: "12 days in a row (longest 15)". */
export function streakLong(streak) {
  if (!streak) return '';
  const run = streak.current > 0 ? `${plural(streak.current, 'day')} in a row` : 'no streak running';
  return streak.longest > streak.current ? `${run} (longest ${streak.longest})` : run;
}

/** A small flame, drawn (an emoji needs a font the device may not have). */
export function flame() {
  return s('svg', { class: 'flame', viewBox: '0 0 12 16', width: '10', height: '14', 'aria-hidden': 'true' },
    s('path', { d: 'M6 0C7 4 11 6 11 10.5A5 5 0 0 1 1 10.5C1 8 2.5 6.5 3.5 5.5 3.5 8 5 9 5.5 9 4.5 6 5 3 6 0Z' }));
}

/**
 * How a game's challenges are told, as the game declares it (its description's `challenge`):
 * the tie break's field, heading and caption, what is drawn (`dice`, `tiles`), the computer's
 * row, and any words its leaderboard needs besides. A game that declares none is told plainly.
 */
export function challengeWords(game) {
  return {
    tieBreak: null,
    tieBreakHeading: '',
    tieBreakSigned: false,
    caption: 'ranked by score, then the earlier finish',
    tieNote: '',
    draws: 'draws',
    computerName: 'the computer',
    computerDone: (score) => `The computer scored ${score}.`,
    computerPlaying: 'The computer is still playing.',
    rankSuffix: '',
    leaderboardNote: null,
    lead: null,
    ...(gameOf(game)?.challenge || {}),
  };
}

/** An entry's tie break as its game shows it (errors as they are, a margin signed). */
export function tieBreakText(game, entry) {
  const w = challengeWords(game);
  const v = w.tieBreak ? entry?.[w.tieBreak] : undefined;
  return w.tieBreakSigned ? signed(v ?? 0) : (v ?? '');
}
