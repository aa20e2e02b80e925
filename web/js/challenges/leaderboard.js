// `/challenges/{id}`: a challenge with its leaderboard (the top entries, the rows around you,
// the unranked ones, the computer apart), its score chart and its Play button.

import { h, fill, isolated, nameEl } from '../core/dom.js';
import { gameName, gamePath } from '../core/games.js';
import { storedPlayer } from '../core/request.js';
import { loadPage } from '../core/screen.js';
import { ratingText, ratingTitle } from '../core/words.js';
import { challengeApi } from './api.js';
import { facts, playButton, practiceButton } from './cards.js';
import { scoreHistogram } from './histogram.js';
import { challengeTitle, challengeWords, kindLabel, num, ordinal, plural, tickTimes, tieBreakText, unrankedWords, rollsWords, variantName } from './words.js';

/** "Dice" for "dice". */
function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function boardLink(c, entry) {
  if (!entry.game) return null;
  return h('a', { href: gamePath(c.game, entry.game, 'replay'), 'data-link': '', 'aria-label': `${isolated(entry.name)}'s board` }, 'Board');
}

function nameCell(entry) {
  const r = entry.rating;
  const rating = r ? h('span', { class: 'entry-rating muted small', title: ratingTitle(r) }, ` ${ratingText(r)}`) : null;
  const text = [nameEl(entry.name), entry.you ? ' (you)' : null];
  return [entry.player ? h('a', { href: `/players/${entry.player}`, 'data-link': '' }, text) : text, rating];
}

function entryRow(c, e, boards) {
  const last = tieBreakText(c.game, e);
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
  const last = (e) => tieBreakText(c.game, e);
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
  const w = challengeWords(c.game);
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
    h('caption', {}, `${plural(board.finished ?? top.length, 'finished player')}: ${w.caption}`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'rank' }, 'Rank'),
      h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col', class: 'num' }, 'Score'),
      h('th', { scope: 'col', class: 'num' }, w.tieBreakHeading),
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
      h('tr', { class: 'computer-head' }, h('th', { scope: 'rowgroup', colspan: cols }, `On the same ${w.draws}, apart from the players`)),
      h('tr', { class: 'computer', id: 'computer-row' },
        h('td', { class: 'rank' }, h('span', { class: 'chip computer' }, 'AI')),
        h('th', { scope: 'row', class: 'name' }, comp?.name || 'Computer (strong)'),
        h('td', { class: 'num score' }, comp ? num(comp.score) : h('span', { class: 'muted small' }, 'still playing')),
        h('td', { class: 'num' }, comp ? tieBreakText(c.game, comp) : ''),
        boards ? h('td', { class: 'col-board' }, comp ? boardLink(c, comp) : null) : null)));
}

/** The page for a challenge that is not there. */
const MISSING = {
  id: 'challenge-missing', title: 'No challenge here', absent: 'There is no challenge at this address. The link may be mistyped.',
  href: '/challenges', label: 'All challenges',
};

/** `/challenges/{id}`: a challenge with its leaderboard, chart and Play button. */
export async function challengeScreen(root, id, { navigate, setTitle }) {
  setTitle('Challenge');
  const c = await loadPage(root, 'Loading the challenge…', () => challengeApi.get(id), MISSING);
  if (!c) return () => {};
  const title = challengeTitle(c);
  setTitle(challengeTitle(c, { plain: true }));
  const board = c.leaderboard || { entries: [], around: [], histogram: [], finished: 0 };
  const you = c.you;
  const friend = c.kind === 'friend';
  const lead = friend
    ? `Whoever opens the link plays the same ${rollsWords(c)} at their own pace: nobody waits for anybody.`
    : challengeWords(c.game).lead
      || `The same ${rollsWords(c)} all ${{ weekly: 'week', 'weekly-deep-blue': 'week', monthly: 'month' }[c.kind] || 'day'} for everyone, one try each.${c.variant ? ` Played with the ${variantName(c.variant)} expansion: two optional ${variantName(c.variant)} dice a round.` : ''}`;
  let action = null;
  if (you?.finished) {
    const points = `${num(you.score)} ${Math.abs(you.score) === 1 ? 'point' : 'points'}`;
    action = h('p', { class: 'you-done', id: 'you-done' }, you.rank
      ? `You finished ${ordinal(you.rank)} with ${points}.`
      : [`You finished with ${points}. `, unrankedWords()]);
  } else if (!c.closed) {
    action = playButton(c, navigate, { big: true });
  }
  // A closed challenge can be played again by anyone, as practice: never ranked.
  if (c.closed && !friend) {
    action = h('div', { class: 'page-actions' }, action,
      practiceButton(c, navigate, { primary: !you?.finished }),
      h('p', { class: 'muted small practice-note' }, 'Practice is never ranked and keeps no streak.'));
  }
  const seedLine = c.seed !== undefined && c.seed !== null
    ? h('p', { class: 'seed-line', id: 'challenge-seed' }, friend
      ? (c.same_dice === false
        ? `Dice from seed ${c.seed}, drawn for this challenge.`
        : [`Dice from seed ${c.seed}, the same as `, c.from ? h('a', { href: gamePath(c.game, c.from, 'replay'), 'data-link': '' }, friendsGame(c)) : friendsGame(c), '.'])
      : `${capital(challengeWords(c.game).draws)} from seed ${c.seed}: start a game with this seed to play them again.`)
    : null;
  const mayLook = c.closed || you?.finished;
  const stop = [];
  fill(root, h('section', { class: 'challenge-page', dataset: { challenge: c.id } },
    h('div', { class: 'viewer-head' },
      h('div', {},
        h('p', { class: 'kicker' }, h('span', { class: `game-chip game-${c.game}` }, gameName(c.game)), ' ', kindLabel(c.kind)),
        h('h1', { id: 'challenge-title' }, title, friend ? `: beat ${num(c.target ?? c.best ?? 0)} on ${c.same_dice === false ? 'new' : 'the same'} ${rollsWords(c)}` : null),
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
