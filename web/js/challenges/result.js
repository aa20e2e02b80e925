// What a finished game shows of challenges: a challenge game's result (its rank, the top of
// the leaderboard, the histogram), and the button that makes a friend challenge of the game.

import { h, fill, nameEl } from '../core/dom.js';
import { ensurePlayer } from '../core/player.js';
import { storedPlayer } from '../core/request.js';
import { challengeApi } from './api.js';
import { scoreHistogram } from './histogram.js';
import { challengeTitle, challengeWords, flame, num, ordinal, plural, unrankedWords } from './words.js';

/**
 * The challenge's computer row in words, as its game tells it: its own game on the challenge's
 * draws (`comp`, or null while it plays).
 */
function computerWords(comp, game) {
  const w = challengeWords(game);
  return comp ? w.computerDone(num(comp.score)) : w.computerPlaying;
}

/** Who the chart's computer mark is, as the game names it. */
function computerName(game) {
  return challengeWords(game).computerName;
}

/**
 * What a finished challenge game shows: `summary`, for under its headline (your rank, a note
 * if unranked, your streak), and `card`, for under the board (the top of the leaderboard, the
 * computer's score, a link to the whole of it, sharing, and the histogram with your score
 * marked): the board stays on the first screen of a desk. Both fill themselves once the
 * leaderboard arrives.
 */
export function challengeResult(id, { game } = {}) {
  const summary = h('div', { class: 'result-summary', 'aria-live': 'polite' },
    h('p', {}, 'Loading your rank…'));
  const card = h('section', { class: 'challenge-result', id: 'challenge-result', 'aria-label': 'The leaderboard so far', hidden: true });
  challengeApi.get(id, { limit: 5 }).then((c) => {
    const board = c.leaderboard || { entries: [], around: [], histogram: [], finished: 0 };
    const you = c.you;
    const count = board.finished ?? c.players;
    const top = board.entries.slice(0, 5);
    const mineRow = (board.around || []).find((e) => e.you) || board.entries.find((e) => e.you);
    const rows = [...top];
    if (mineRow && !rows.some((e) => e.you)) rows.push(null, mineRow);
    const comp = board.computer;
    const w = challengeWords(game);
    fill(summary,
      h('h3', { id: 'your-rank' }, you?.rank ? `You are ${ordinal(you.rank)} of ${count}${w.rankSuffix}` : `${plural(count, 'player')} finished`),
      // A game with a winner at its own table says the leaderboard is another ranking.
      w.leaderboardNote ? h('p', { class: 'small', id: 'leaderboard-note' }, w.leaderboardNote) : null,
      you?.unranked ? h('p', { class: 'small unranked-note', id: 'unranked-note' }, unrankedWords()) : null,
      c.streak?.current > 0
        ? h('p', { class: 'streak-line', id: 'your-streak', dataset: { streak: c.streak.current } },
          h('span', { class: 'streak-chip' }, flame(), ' Streak: day ', String(c.streak.current)),
          c.streak.longest > c.streak.current ? h('span', { class: 'muted small' }, ` longest ${c.streak.longest}`) : null)
        : null);
    card.hidden = false;
    fill(card,
      h('div', { class: 'result-text' },
        h('h3', {}, 'The leaderboard so far'),
        h('ol', { class: 'result-top' }, rows.map((e) => (e === null
          ? h('li', { class: 'gap', 'aria-hidden': 'true' }, '…')
          : h('li', { value: e.rank, class: e.you ? 'you' : '' },
            h('span', { class: 'name' }, nameEl(e.name), e.you ? ' (you)' : null),
            h('span', { class: 'pts' }, num(e.score)))))),
        h('p', { class: 'small', id: 'computer-score' }, computerWords(comp, game)),
        h('div', { class: 'row result-actions' },
          h('a', { class: 'btn small', id: 'full-leaderboard', href: `/challenges/${id}`, 'data-link': '' }, 'Full leaderboard'),
          you?.finished ? shareButton(id) : null)),
      scoreHistogram(board.histogram, { you: you?.score ?? mineRow?.score ?? null, computer: comp?.score ?? null, computerName: computerName(game), title: 'The score distribution' }));
  }).catch((e) => {
    fill(summary, h('p', {}, `The leaderboard could not be loaded: ${e.message}`));
  });
  return { summary, card };
}

/**
 * Where a practice game's score would have ranked on its (closed) challenge's leaderboard,
 * from the challenge `c`: its heading (`rank`), the words under it (`text`) and the score
 * distribution with the practised score marked (`chart`).
 */
function practiceParts(id, c, score, game) {
  const board = c.leaderboard || { histogram: [], finished: 0 };
  const counts = board.histogram || [];
  const above = counts.filter((b) => b.score > score).reduce((n, b) => n + b.count, 0);
  const level = counts.filter((b) => b.score === score).reduce((n, b) => n + b.count, 0);
  const total = board.finished ?? 0;
  const comp = board.computer;
  return {
    rank: h('h3', { id: 'practice-rank' }, total
      ? `It would have ranked ${ordinal(above + 1)} of ${total + 1}`
      : 'Nobody finished this challenge'),
    text: [
      h('p', { class: 'small' }, [
        `Practice on ${challengeTitle(c, { plain: true })}: never ranked, no streak.`,
        level ? ` ${plural(level, 'player')} scored the same${challengeWords(game).tieNote}.` : '',
      ].join('')),
      comp ? h('p', { class: 'small', id: 'computer-score' }, computerWords(comp, game)) : null,
      h('a', { class: 'btn small', id: 'practice-leaderboard', href: `/challenges/${id}`, 'data-link': '' }, 'The leaderboard'),
    ],
    chart: scoreHistogram(counts, { you: score, computer: comp?.score ?? null, computerName: computerName(game), title: 'The score distribution' }),
  };
}

/**
 * Where a practice game's score would have ranked on its (closed) challenge's leaderboard:
 * above every lower score, level with the same ones (errors would break that tie), with the
 * score distribution and the practised score marked, in one box.
 */
export function practiceResult(id, score, { game } = {}) {
  const box = h('section', { class: 'challenge-result practice-result', id: 'practice-result', 'aria-live': 'polite' },
    h('p', { class: 'muted' }, 'Loading the leaderboard…'));
  challengeApi.get(id, { limit: 1 }).then((c) => {
    const { rank, text, chart } = practiceParts(id, c, score, game);
    fill(box, h('div', { class: 'result-text' }, rank, text), chart);
  }).catch((e) => {
    fill(box, h('p', {}, `The leaderboard could not be loaded: ${e.message}`));
  });
  return box;
}

/**
 * The same as a challenge game's end shows it (see `challengeResult`): `summary`, the rank it
 * would have had, for under the headline; `card`, the words and the chart, for under the
 * board, which stays on the first screen of a desk.
 */
export function practiceOutcome(id, score, { game } = {}) {
  const summary = h('div', { class: 'result-summary', 'aria-live': 'polite' }, h('p', {}, 'Loading the leaderboard…'));
  const card = h('section', { class: 'challenge-result practice-result', id: 'practice-result', 'aria-label': 'Where it would have ranked', hidden: true });
  challengeApi.get(id, { limit: 1 }).then((c) => {
    const { rank, text, chart } = practiceParts(id, c, score, game);
    fill(summary, rank);
    card.hidden = false;
    fill(card, h('div', { class: 'result-text' }, text), chart);
  }).catch((e) => {
    fill(summary, h('p', {}, `The leaderboard could not be loaded: ${e.message}`));
  });
  return { summary, card };
}

/**
 * Share: the player's result as the server words it (nothing of the dice), handed to the
 * phone's share sheet (Web Share API) or, elsewhere, copied to the clipboard.
 */
function shareButton(id) {
  const note = h('span', { class: 'share-note small', id: 'share-note', role: 'status' });
  const button = h('button', {
    class: 'btn small', type: 'button', id: 'share-result',
    onclick: async () => {
      button.disabled = true;
      note.textContent = '';
      try {
        const me = storedPlayer();
        const { text, url } = await challengeApi.share(id, me?.token);
        const phone = typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;
        if (phone) {
          // The text ends with the link already: `url` is given for targets that want it apart.
          await navigator.share({ text });
          note.textContent = 'Shared.';
        } else {
          await navigator.clipboard.writeText(text);
          note.textContent = 'Copied: paste it anywhere.';
        }
        button.dataset.url = url;
      } catch (e) {
        // Closing the share sheet is no error.
        if (e?.name !== 'AbortError') note.textContent = `Could not share: ${e.message}`;
      } finally {
        button.disabled = false;
      }
    },
  }, 'Share');
  return h('span', { class: 'share-box' }, button, note);
}

// ---- "challenge a friend" (the end of any finished Railroad Ink game)

/**
 * The "Challenge a friend" button: makes (once) a friend challenge from the finished game
 * `gameId` and shows its link with a Copy button, built by `inviteBox(path, label)`.
 */
export function friendChallengeBox(gameId, inviteBox, seatToken, { rolls = 'seven rolls' } = {}) {
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
        // A game others have looked at (or whose seed was known) is challenged on new dice.
        const dice = made.same_dice === false
          ? `new ${rolls} (others have seen this game's, so yours would not be a fair test) and tries to beat your score`
          : `the same ${rolls} and tries to beat you`;
        fill(box, h('p', { class: 'friend-made' }, `Send this link: whoever opens it plays ${dice}. `,
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
