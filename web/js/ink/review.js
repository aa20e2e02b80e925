// The computer's review of a finished Railroad Ink game (`/ink/{id}/review?seat=k&round=r`),
// of the base game or of an expansion: round by round, the board after the player's round
// beside the board before it with the strong computer player's round drawn as ghost tiles, why
// the computer's round is better in one sentence, the final score the player made, the expected
// final score after each round (what the strong player would end with, playing on from there),
// the points lost and the round's label, and a chart of the points lost a round
// (GET /api/ink/games/{id}/review?seat=k, beside the replay for the names, dice and scores).

import { h, fill, isolated, nameEl } from '../core/dom.js';
import { labelWords, lossChart, one, reasonEl, ReviewScreen, reviewMissing } from '../core/review.js';
import { stepper } from '../core/stepper.js';
import { num, pointsText } from '../core/words.js';
import { api, EXPANSIONS } from './api.js';
import { createBoard, placementWords, tileSvg, tileWords, placements as parsePlacements } from './draw.js';

/** `/ink/{id}/review?seat=k`. */
export async function inkReviewScreen(root, id, { table, setTitle }) {
  setTitle('Review');
  const q = new URLSearchParams(location.search);
  const seat = Math.max(0, Number.parseInt(q.get('seat') || '0', 10) || 0);
  fill(root, h('p', { class: 'loading', role: 'status' }, 'The computer is reviewing the game…'));
  let replay;
  let review;
  try {
    [replay, review] = await Promise.all([api.replay(id), api.review(id, seat)]);
  } catch (e) {
    reviewMissing(root, e, `/ink/${id}`);
    return () => {};
  }
  return new InkReview(root, id, table, replay, review).start(Number(q.get('round')));
}

class InkReview extends ReviewScreen {
  constructor(root, id, table, replay, review) {
    super();
    Object.assign(this, { root, id, table, replay, review });
    this.player = replay.players[review.seat];
    // The final score the seat made: the review's own, or (a review kept before it gave one)
    // the replay's.
    this.score = Number.isFinite(review.score) ? review.score : this.player?.score?.advanced;
    // before[i]: the board before review round i (earlier rounds' placements, as played), and
    // the squares flooded on it (the lake expansion).
    this.before = [];
    this.floodedBefore = [];
    let board = '';
    let flooded = [];
    for (const r of review.rounds) {
      this.before.push(board);
      this.floodedBefore.push(flooded);
      board += r.played;
      flooded = r.flooded || [];
    }
  }

  start(round) {
    const rv = this.review;
    const n = rv.rounds.length;
    const at = rv.rounds.findIndex((r) => r.round === round);
    this.at = at >= 0 ? at : 0;
    const name = this.player ? this.player.name : `Seat ${rv.seat + 1}`;
    const worst = rv.rounds.reduce((w, r) => (r.loss > w.loss ? r : w), rv.rounds[0] || { loss: 0 });
    this.caption = h('div', { class: 'step-caption message info', id: 'review-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Round', onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, Math.max(0, n - 1));
    this.mine = createBoard(this.table, { label: `${isolated(name)}'s board after the round` });
    this.mine.svg.id = 'review-board-played';
    this.theirs = createBoard(this.table, { label: 'The computer\'s round on the same board, as ghost tiles' });
    this.theirs.svg.id = 'review-board-best';
    this.scores = h('div', { class: 'review-scores', id: 'review-scores' });
    this.chart = h('div', { class: 'review-chart-box' });
    this.list = h('ol', { class: 'review-rounds', id: 'review-rounds' });
    this.dice = h('div', { class: 'replay-dice' });
    this.playedTitle = h('h2', { class: 'board-name' });
    this.bestTitle = h('h2', { class: 'board-name' });
    this.bestNote = h('p', { class: 'muted small review-note' });
    const expansion = this.replay.expansion;
    const scored = Number.isFinite(this.score) ? [nameEl(name), ` finished with ${pointsText(this.score)}`] : [nameEl(name)];
    return this.frame({
      kind: 'ink',
      lead: [expansion ? `${EXPANSIONS[expansion] || expansion}. ` : '', ...scored,
        `${scored.length > 1 ? ' and' : ''} lost ${one(rv.loss)} points against the computer's choices over ${n} ${n === 1 ? 'round' : 'rounds'}`,
        n && worst.loss > 0 ? `; the most in round ${worst.round} (${one(worst.loss)}, ${worst.label}).` : '.'],
      status: this.dice,
      played: { title: this.playedTitle },
      best: { title: this.bestTitle, note: this.bestNote },
      step: 'This round',
      help: `For each round the strong computer player plays the same dice on your board as it was, with the specials you had left${expansion ? ' and the expansion\'s dice, by the expansion\'s rules' : ''}. Both boards are valued the same way: the final score the strong computer player would reach if it played on from there, by its own evaluation (after the last round, the score itself). That is a measure of the position, not a forecast of your game. Points lost are the difference, never below zero; the reason compares the two boards after the round.`,
      labels: labelWords('points'),
    });
  }

  render(updateUrl) {
    const rv = this.review;
    const r = rv.rounds[this.at];
    if (!r) {
      fill(this.caption, 'This seat played no round.');
      return;
    }
    if (updateUrl) history.replaceState(null, '', `${location.pathname}?seat=${rv.seat}&round=${r.round}`);
    const before = this.before[this.at];
    const floodedBefore = this.floodedBefore[this.at];
    const same = r.best === r.played;
    const roll = this.replay.rolls[r.round - 1] || '';
    // Four route dice, and an expansion's two optional dice after them.
    const dice = Array.from({ length: roll.length / 2 }, (_, i) => 2 * i);
    fill(this.dice,
      h('span', { class: 'round-label' }, `Round ${r.round}`),
      roll ? h('span', { class: 'mini-dice', title: `The dice: ${dice.map((i) => tileWords(this.table, roll.slice(i, i + 2))).join(', ')}` },
        dice.map((i) => {
          const tile = roll.slice(i, i + 2);
          return h('span', { class: `mini-die die-${tile[0]}` }, tileSvg(this.table, tile, 0, { 'aria-label': tileWords(this.table, tile) }));
        })) : null);
    fill(this.caption, h('span', {},
      h('span', { class: `review-label label-${r.label}` }, `Round ${r.round}, ${r.label}`),
      same ? ': the computer would have played no better.' : `: ${one(r.loss)} points lost.`),
    reasonEl(r));
    this.mine.setBoard(before + r.played, { recent: parsePlacements(r.played).length, flooded: r.flooded || [] });
    this.theirs.setBoard(before, { flooded: floodedBefore });
    this.theirs.setHint(same ? [] : parsePlacements(r.best).map((p) => p.text));
    if (same) this.theirs.setBoard(before + r.best, { recent: parsePlacements(r.best).length, flooded: r.flooded_best || r.flooded || [] });
    fill(this.playedTitle, 'Your round');
    fill(this.bestTitle, 'The computer\'s round');
    const words = (text) => parsePlacements(text).map((p) => placementWords(this.table, p.text));
    fill(this.bestNote, same
      ? 'The same round as yours.'
      : ['Ghost tiles, numbered in the order placed: ', words(r.best).join('; '), '.']);
    const last = this.replay.rolls.length || 7;
    fill(this.scores,
      h('dl', { class: 'review-values' },
        Number.isFinite(this.score) ? [h('dt', {}, 'Your final score'), h('dd', { id: 'review-final-score' }, num(this.score))] : null,
        h('dt', {}, 'Expected final score after your round'), h('dd', { id: 'review-value-played' }, one(r.value_played)),
        h('dt', {}, 'After the computer\'s round'), h('dd', { id: 'review-value-best' }, one(r.value_best)),
        h('dt', {}, 'Points lost'), h('dd', { id: 'review-loss' }, one(r.loss)),
        h('dt', {}, 'Label'), h('dd', { id: 'review-label' }, h('span', { class: `review-label label-${r.label}` }, r.label))),
      h('p', { class: 'small review-meaning', id: 'review-meaning' }, r.round >= last
        ? 'After the last round the expected final score is the score itself.'
        : `An expected final score is what the strong computer player would finish with if it played on from that board${Number.isFinite(this.score) ? `; your game ended at ${num(this.score)}` : ''}. It measures the position, not your own game.`),
      h('p', { class: 'muted small' }, 'You placed: ', words(r.played).join('; ') || 'nothing', '.'));
    this.drawChart();
  }

  /** The bars of points lost a round, and the same in words. */
  drawChart() {
    lossChart(this.chart, this.list, {
      steps: this.review.rounds,
      at: this.at,
      titleId: 'review-chart-title',
      name: (r) => String(r.round),
      words: (r) => `Round ${r.round}`,
      onSelect: (i) => this.select(i),
    });
  }
}
