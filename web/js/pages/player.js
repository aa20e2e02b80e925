// `/players/{id}`: a player's name, games and challenges played (finished; the games sat in too
// when some are unfinished), best and mean score per game, and a chart of scores over time.
// On the player's own page, what keeps the identity (see identity.js). Opened as
// /players/{id}#link=CODE (a one-time link from another device) it signs this device in; as
// /players/{id}#key=TOKEN (a link made before devices had keys of their own) it takes the key
// out of the address and, once the server has said that the key is this player's (GET
// /api/players/me), keeps that identity on this device.

import { plotArea } from '../core/chart.js';
import { h, s, fill, isolated, nameEl } from '../core/dom.js';
import { gameName, games } from '../core/games.js';
import { player } from '../core/player.js';
import { followLink, identityCard } from './identity.js';
import { remindersCard } from './reminders.js';
import { ApiError } from '../core/request.js';
import { loadPage } from '../core/screen.js';
import { recordGameText, wayText } from '../core/bests.js';
import { dateText, num, pointsText, ratingText, ratingTitle } from '../core/words.js';

function shortDate(ms) {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/** A UTC day (`2026-11-27`) as "27 Nov". */
function utcDay(day) {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) ? new Date(t).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }) : day;
}

function meanText(x) {
  if (x === null || x === undefined) return '–';
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/**
 * What the address carries (#link=CODE, a one-time link; #key=KEY, a link made before devices
 * had keys of their own), taken out of it at once: {link} or {key}, '' when damaged, or null.
 */
function takeCarried() {
  const hash = location.hash;
  const link = hash.startsWith('#link=');
  if (!link && !hash.startsWith('#key=')) return null;
  history.replaceState(history.state, '', location.pathname + location.search);
  const m = hash.match(/^#(?:link|key)=([0-9a-fA-F]+)$/);
  const value = m ? m[1].toLowerCase() : '';
  return link ? { link: value } : { key: value };
}

/** The page for a player who is not there. */
const MISSING = {
  id: 'player-missing', title: 'No player here', absent: 'There is no player at this address. The link may be mistyped.',
  href: '/', label: 'Play',
};

export async function playerScreen(root, id, { setTitle }) {
  setTitle('Player');
  const carried = takeCarried();
  const profile = await loadPage(root, 'Loading the player…', () => player.profile(id), MISSING);
  if (!profile) return () => {};
  setTitle(isolated(profile.name));
  const notice = h('div', { class: 'identity-notice', 'aria-live': 'polite' });
  let gone = false;
  const draw = () => { if (!gone) render(root, profile, notice, draw); };
  draw();
  if (carried?.link !== undefined) followLink(notice, profile, carried.link, draw);
  else if (carried) takeIdentity(notice, profile, carried.key, draw);
  return () => { gone = true; };
}

/**
 * Keeps the identity carried by the link once the server has said that the key is this
 * player's, asking first if this device already has another; a key that is not valid is said
 * plainly, and nothing is kept.
 */
async function takeIdentity(notice, profile, key, redraw) {
  const name = () => nameEl(profile.name);
  const refuse = (text) => fill(notice, h('p', { class: 'notice error', id: 'identity-refused', role: 'alert' }, text));
  if (!key) {
    refuse('This link\'s key is damaged: copy the whole link again.');
    return;
  }
  fill(notice, h('p', { class: 'notice' }, 'Checking the link\'s key…'));
  let owner;
  try {
    owner = await player.whoseKey(key);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      refuse(['This link\'s key is not valid on this server, so this device does not play as ', name(),
        '. Copy the link again from a device that plays as ', name(), ' (from its player page).']);
    } else {
      refuse(`The link's key could not be checked: ${e.message} Open the link again to try once more.`);
    }
    return;
  }
  if (owner.id !== profile.id) {
    refuse(['This link\'s key is another player\'s, not ', name(), '\'s: nothing was kept. Copy the whole link again.']);
    return;
  }
  const current = player.get();
  const adopt = () => {
    player.adopt({ id: profile.id, token: key, name: profile.name });
    redraw();
    fill(notice, h('p', { class: 'notice ok', id: 'identity-taken' }, 'This device now plays as ', name(), '.'));
    document.dispatchEvent(new CustomEvent('tracklayer:player'));
  };
  if (!current || current.id === profile.id) {
    adopt();
  } else {
    const other = () => nameEl(current.name);
    fill(notice, h('div', { class: 'notice' },
      h('p', {}, 'This link carries ', name(), '\'s identity, but this device plays as ', other(), '. Play as ', name(), ' here instead?'),
      h('div', { class: 'row' },
        h('button', { class: 'btn primary', type: 'button', id: 'identity-switch', onclick: adopt }, 'Play as ', name()),
        h('button', { class: 'btn', type: 'button', onclick: () => fill(notice, h('p', { class: 'notice' }, 'This device stays ', other(), '.')) }, 'Stay ', other()))));
  }
}

function render(root, profile, notice, redraw) {
  const me = player.get();
  const mine = me?.id === profile.id;
  const stats = (game) => profile[game] || { games: 0, played: 0, best: null, mean: null };
  // Played: finished. Sat in: every game with a seat of theirs, the unfinished too.
  const played = profile.played ?? profile.games ?? 0;
  const unfinished = (profile.games ?? 0) - played;
  const scores = profile.scores || [];
  fill(root, h('section', { class: 'player-page', dataset: { player: profile.id } },
    notice,
    h('div', { class: 'viewer-head' },
      h('div', {},
        h('h1', { id: 'player-name' }, nameEl(profile.name), mine ? h('span', { class: 'chip' }, 'you') : null),
        h('p', { class: 'lead' }, profile.created ? `Playing since ${dateText(Date.parse(profile.created))}.` : ''))),
    h('ul', { class: 'player-totals' },
      h('li', {}, h('strong', { id: 'games-played' }, played), ` ${played === 1 ? 'game' : 'games'} played`),
      h('li', {}, h('strong', { id: 'challenges-played' }, profile.challenges_played ?? profile.challenges ?? 0), ` ${(profile.challenges_played ?? profile.challenges) === 1 ? 'challenge' : 'challenges'} played`),
      unfinished > 0 ? h('li', { id: 'games-sat-in' }, h('strong', {}, profile.games), ` ${profile.games === 1 ? 'game' : 'games'} sat in, ${unfinished} unfinished`) : null),
    h('div', { class: 'player-layout' },
      h('section', { class: 'card' },
        h('table', { class: 'stats-table', id: 'player-stats' },
          h('caption', {}, 'Scores by game (finished games)'),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Games'),
            h('th', { scope: 'col', class: 'num' }, 'Best'), h('th', { scope: 'col', class: 'num' }, 'Mean'))),
          h('tbody', {}, games().map((x) => x.kind).map((g) => h('tr', { dataset: { game: g } },
            h('th', { scope: 'row' }, gameName(g)),
            h('td', { class: 'num' }, stats(g).played ?? stats(g).games),
            h('td', { class: 'num' }, stats(g).best ?? '–'),
            h('td', { class: 'num' }, meanText(stats(g).mean)))))),
        streaksTable(profile.streaks),
        latest(scores)),
      h('section', { class: 'card chart-card', 'aria-labelledby': 'history-title' },
        h('h2', { id: 'history-title' }, 'Scores over time'),
        scoreTimeline(scores, isolated(profile.name))),
      ratingsCard(profile),
      recordsCard(profile)),
    mine ? remindersCard() : null,
    mine ? identityCard(me, redraw, keySection(me, redraw)) : null));
}

/**
 * The ratings card: the player's rating in each game they were rated in (rated games, closed
 * dailies), provisional ones marked, each with its history as a line.
 */
function ratingsCard(profile) {
  const ratings = profile.ratings || [];
  if (!ratings.length) return null;
  return h('section', { class: 'card ratings-card', 'aria-labelledby': 'ratings-title' },
    h('h2', { id: 'ratings-title' }, 'Ratings'),
    h('ul', { class: 'ratings', id: 'player-ratings' }, ratings.map((r) => h('li', { dataset: { game: r.game } },
      h('span', { class: 'rating-game' }, gameName(r.game)),
      h('strong', { class: 'rating', title: ratingTitle(r) }, ratingText(r)),
      h('span', { class: 'muted small' }, ` ${r.games} rated ${r.games === 1 ? 'result' : 'results'}`),
      ratingLine(r)))));
}

/** A rating's history as a small line chart (oldest on the left). */
function ratingLine(r) {
  const points = (r.history || []).filter(([at, v]) => Number.isFinite(at) && Number.isFinite(v));
  if (points.length < 2) return null;
  const W = 220;
  const H = 56;
  const vs = points.map(([, v]) => v);
  const lo = Math.min(...vs) - 10;
  const hi = Math.max(...vs) + 10;
  const x = (i) => 4 + (i / (points.length - 1)) * (W - 8);
  const y = (v) => 4 + (1 - (v - lo) / (hi - lo)) * (H - 8);
  const label = `${gameName(r.game)} rating over ${points.length} results: from ${vs[0]} to ${vs[vs.length - 1]}`;
  return s('svg', { class: 'rating-line', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label },
    s('polyline', { class: `trend trend-${r.game}`, points: points.map(([, v], i) => `${x(i)},${y(v)}`).join(' ') }));
}

/**
 * The stats card: the best and mean score of each game and way of playing it, and for each
 * daily how many were played and where the ranks fell (bars, the top of the leaderboard first).
 */
function recordsCard(profile) {
  const bests = profile.bests || [];
  const dailies = Object.entries(profile.dailies || {});
  if (!bests.length && !dailies.some(([, d]) => d.played)) return null;
  return h('section', { class: 'card records-card', 'aria-labelledby': 'records-title' },
    h('h2', { id: 'records-title' }, 'Records'),
    bests.length ? h('table', { class: 'stats-table', id: 'player-bests' },
      h('caption', {}, 'Best and mean score, by way of playing'),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col' }, 'Played'),
        h('th', { scope: 'col', class: 'num' }, 'Games'), h('th', { scope: 'col', class: 'num' }, 'Best'),
        h('th', { scope: 'col', class: 'num' }, 'Mean'))),
      h('tbody', {}, bests.map((b) => h('tr', { dataset: { game: b.game, mode: b.mode, variant: b.variant || 'none' } },
        h('th', { scope: 'row' }, recordGameText(gameName(b.game), b)),
        h('td', {}, wayText(b.mode)),
        h('td', { class: 'num' }, b.games),
        h('td', { class: 'num best' }, b.best_game ? h('a', { href: `/${b.game}/${b.best_game}/replay`, 'data-link': '' }, String(b.best)) : String(b.best)),
        h('td', { class: 'num' }, meanText(b.mean)))))) : null,
    dailies.filter(([, d]) => d.played).map(([kind, d]) => rankBars(kind, d)));
}

/** A daily's ranks as bars: how many of the player's closed dailies ended in each band. */
function rankBars(kind, dailies) {
  const most = Math.max(1, ...dailies.ranks.map((b) => b.count));
  const ranked = dailies.ranks.reduce((n, b) => n + b.count, 0);
  return h('figure', { class: 'rank-bars', dataset: { kind } },
    h('figcaption', {}, h('strong', {}, `${gameName(dailies.game)} dailies: ${dailies.played} played`),
      ranked ? ` · where ${ranked === 1 ? 'the closed one' : `the ${ranked} closed ones`} ranked` : ' · ranks come once a day has closed'),
    h('ol', {}, dailies.ranks.map((b) => h('li', { dataset: { band: b.band, count: b.count } },
      h('span', { class: 'band' }, b.band),
      shareBar(b.count / most, h('span', { class: 'count' }, String(b.count)))))));
}

/** A bar as long as its share (set through the CSSOM: the pages' policy forbids style attributes). */
function shareBar(share, ...children) {
  const bar = h('span', { class: 'bar' }, children);
  bar.style.setProperty('--share', String(share));
  return bar;
}

/** The chart's legend: each game's shape and name, then the hollow mark of other games. */
function legend(entries, shape, left, y) {
  let at = left + 6;
  const items = [];
  for (const [kind, name] of [...entries, [null, 'hollow: other games']]) {
    items.push(kind ? shape(kind, `pt pt-${kind} challenge`, at, y - 4) : s('circle', { class: 'pt hollow', cx: at, cy: y - 4, r: 5.5 }),
      s('text', { x: at + 10, y }, name));
    at += 30 + name.length * 6.5;
  }
  return items;
}

/** The player's streaks of daily challenges: current and longest, one row per daily. */
function streaksTable(streaks) {
  const kinds = Object.keys(streaks || {});
  if (!kinds.length) return null;
  return h('table', { class: 'stats-table', id: 'player-streaks' },
    h('caption', {}, 'Daily streaks (days in a row)'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Daily'), h('th', { scope: 'col', class: 'num' }, 'Current'),
      h('th', { scope: 'col', class: 'num' }, 'Longest'), h('th', { scope: 'col', class: 'num' }, 'Last played'))),
    h('tbody', {}, kinds.map((k) => h('tr', { dataset: { kind: k } },
      h('th', { scope: 'row' }, gameName(streaks[k].game)),
      h('td', { class: 'num streak-current' }, streaks[k].current),
      h('td', { class: 'num' }, streaks[k].longest),
      h('td', { class: 'num' }, streaks[k].last ? utcDay(streaks[k].last) : '–')))));
}

function latest(scores) {
  const last = scores.slice(-8).reverse();
  if (!last.length) return h('p', { class: 'muted' }, 'No finished game yet.');
  return h('div', {},
    h('h2', { class: 'small-title' }, 'Latest'),
    h('ul', { class: 'latest-scores' }, last.map((x) => h('li', {},
      h('span', { class: `game-chip game-${x.game}` }, gameName(x.game)),
      h('span', { class: 'pts' }, pointsText(x.score)),
      x.challenge ? h('a', { href: `/challenges/${x.challenge}`, 'data-link': '' }, 'challenge') : h('span', { class: 'muted small' }, 'game'),
      h('span', { class: 'muted small' }, shortDate(Date.parse(x.at)))))));
}

/** Replacing this device's key, and forgetting the identity here. */
function keySection(me, redraw) {
  const replaced = h('p', { class: 'small', role: 'status' });
  return h('div', { class: 'key-part' },
    h('details', { id: 'replace-key' },
      h('summary', {}, 'Replace this device\'s key'),
      h('p', { class: 'small' }, 'If this device\'s key reached someone it should not have (a link made with it, say), replace it: the old key stops working at once. Your other devices, games, streaks and records stay yours.'),
      replaced,
      h('button', {
        class: 'btn small', type: 'button', id: 'replace-key-button',
        onclick: async (ev) => {
          ev.target.disabled = true;
          try {
            await player.newKey();
            redraw();
          } catch (e) {
            fill(replaced, h('span', { class: 'form-error', role: 'alert' }, `The key was not replaced: ${e.message}`));
            ev.target.disabled = false;
          }
        },
      }, 'Replace the key now')),
    h('p', { class: 'small' }, h('button', {
      class: 'link-button', type: 'button', id: 'forget-identity',
      onclick: () => {
        if (!window.confirm(`Forget ${isolated(me.name)} on this device? It plays as ${isolated(me.name)} again only once signed in (with a passkey, a recovery code or a link).`)) return;
        player.forget();
        redraw();
      },
    }, 'Forget this identity on this device')));
}

/** Points over dates, each game's in its own shape (the first registered game's circles, the
 * next one's squares, and so on in turn); challenges filled, other games hollow. */
export function scoreTimeline(scores, name) {
  const pts = scores.map((x) => ({ ...x, t: Date.parse(x.at) })).filter((x) => Number.isFinite(x.t) && Number.isFinite(x.score));
  if (!pts.length) return h('p', { class: 'muted' }, 'The chart appears after the first finished game.');
  const area = plotArea(460, 250, { left: 34, right: 10, top: 14, bottom: 46 });
  const { W, H, left, right, top, plotW, plotH } = area;
  let t0 = Math.min(...pts.map((p) => p.t));
  let t1 = Math.max(...pts.map((p) => p.t));
  if (t1 - t0 < 86400000) { t0 -= 43200000; t1 += 43200000; }
  let lo = Math.min(0, ...pts.map((p) => p.score));
  let hi = Math.max(...pts.map((p) => p.score));
  const stepY = hi - lo > 50 ? 20 : 10;
  lo = Math.floor(lo / stepY) * stepY;
  hi = Math.max(lo + stepY, Math.ceil(hi / stepY) * stepY);
  const x = (t) => left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (v) => top + plotH - ((v - lo) / (hi - lo)) * plotH;
  const grid = [];
  for (let v = lo; v <= hi; v += stepY) {
    grid.push(s('line', { class: 'grid', x1: left, x2: W - right, y1: y(v), y2: y(v) }),
      s('text', { class: 'axis-label', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, v));
  }
  // Within two days the ends would repeat the middle's date: the middle alone then.
  const ticks = (t1 - t0 <= 2 * 86400000 ? [0.5] : [0, 0.5, 1]).map((f) => {
    const t = t0 + f * (t1 - t0);
    return s('text', { class: 'tick', x: x(t), y: top + plotH + 16, 'text-anchor': f === 0 ? 'start' : f === 1 ? 'end' : 'middle' }, shortDate(t));
  });
  const square = (g) => games().findIndex((x) => x.kind === g) % 2 === 1;
  const shape = (g, cls, cx, cy, ...children) => (square(g)
    ? s('rect', { class: cls, x: cx - 5, y: cy - 5, width: 10, height: 10 }, ...children)
    : s('circle', { class: cls, cx, cy, r: 5.5 }, ...children));
  const mark = (p) => {
    const cls = `pt pt-${p.game}${p.challenge ? ' challenge' : ''}`;
    const label = `${gameName(p.game)}${p.challenge ? ' challenge' : ''}, ${shortDate(p.t)}: ${num(p.score)}`;
    return shape(p.game, cls, x(p.t), y(p.score), s('title', {}, label));
  };
  const by = (g) => pts.filter((p) => p.game === g);
  const summary = games().map((x) => x.kind).map((g) => {
    const list = by(g);
    if (!list.length) return '';
    const best = Math.max(...list.map((p) => p.score));
    if (list.length === 1) return `${gameName(g)}: one score, ${num(list[0].score)} on ${shortDate(list[0].t)}.`;
    return `${gameName(g)}: ${list.length} scores from ${shortDate(list[0].t)} to ${shortDate(list[list.length - 1].t)}, the latest ${num(list[list.length - 1].score)}, the best ${num(best)}.`;
  }).filter(Boolean).join(' ');
  const legendY = H - 10;
  const svg = s('svg', { class: 'timeline-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${name}'s scores over time. ${summary}` },
    grid,
    area.axis(),
    ticks,
    games().map((x) => x.kind).map((g) => {
      const list = by(g);
      return list.length > 1 ? s('polyline', { class: `trend trend-${g}`, points: list.map((p) => `${x(p.t)},${y(p.score)}`).join(' ') }) : null;
    }),
    pts.map(mark),
    s('g', { class: 'legend' }, legend(games().map((g) => [g.kind, g.name]), shape, left, legendY)));
  return h('figure', { class: 'timeline' }, svg, h('figcaption', { class: 'muted small' }, summary));
}
