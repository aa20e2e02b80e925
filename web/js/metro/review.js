// The computer's review of a finished Metro game (`/metro/{id}/review?seat=k&at=i`): decision by
// decision (where to place the tile, or whether to keep or draw instead), the board as it was
// with the seat's move beside the strong computer player's move on the same tiles, why the
// computer's move is better in one sentence, the seat's final score and margin, the expected
// final margin over the best other player after each move (what the game would end with if the
// strong computer player played on for every seat), the points lost and the label on the one
// scale, and a chart of the points lost (GET /api/metro/games/{id}/review?seat=k, beside the
// replay for the names, the scores and the board at each moment).

import { h, fill, isolated, nameEl } from '../core/dom.js';
import { labelWords, lossChart, one, reasonEl, ReviewScreen, reviewMissing } from '../core/review.js';
import { stepper } from '../core/stepper.js';
import { num, pointsText } from '../core/words.js';
import { metroApi } from './api.js';
import { createMetroBoard, tileSvg } from './draw.js';
import { tileName } from './names.js';

/** `/metro/{id}/review?seat=k`. */
export async function metroReviewScreen(root, id, { setTitle }) {
  setTitle('Review');
  const q = new URLSearchParams(location.search);
  const seat = Math.max(0, Number.parseInt(q.get('seat') || '0', 10) || 0);
  fill(root, h('p', { class: 'loading', role: 'status' }, 'The computer is reviewing the game…'));
  let loaded;
  try {
    loaded = await Promise.all([metroApi.tiles(), metroApi.replay(id), metroApi.review(id, seat)]);
  } catch (e) {
    reviewMissing(root, e, `/metro/${id}`);
    return () => {};
  }
  const [table, replay, review] = loaded;
  return new MetroReview(root, id, table, replay, review).start(Number(q.get('at')));
}

/** An action in words, with the tile it places. */
function actionWords(table, action, tile) {
  if (action === 'keep') return `keep ${tileName(table, tile)} and draw another to place`;
  if (action === 'draw') return 'draw a new tile to place, keeping the one in hand';
  const square = action.place;
  return `place ${tileName(table, tile)} on row ${square[0]}, column ${square[1]}`;
}

class MetroReview extends ReviewScreen {
  constructor(root, id, table, replay, review) {
    super();
    Object.assign(this, { root, id, table, replay, review });
    this.player = replay.players[review.seat];
    // The seat's final score and margin over the best other player: the review's own, or (a
    // review kept before it gave them) the replay's.
    const scores = replay.scores || [];
    this.score = Number.isFinite(review.score) ? review.score : scores[review.seat];
    const others = scores.filter((_, k) => k !== review.seat);
    this.margin = Number.isFinite(review.margin) ? review.margin
      : Number.isFinite(this.score) && others.length ? this.score - Math.max(...others) : undefined;
    // At action k: the board's sequence and the lines, as after the actions before it.
    let sequence = '';
    let lines = [];
    this.states = [{ sequence, lines }];
    for (const step of replay.steps) {
      for (const e of step.events) if (e.event === 'placed') sequence += e.placement;
      if (step.lines) lines = step.lines;
      this.states.push({ sequence, lines });
    }
  }

  start(at) {
    const rv = this.review;
    const n = rv.decisions.length;
    this.at = Number.isInteger(at) && at >= 0 && at < n ? at : 0;
    const name = this.player ? this.player.name : `Seat ${rv.seat + 1}`;
    const worst = rv.decisions.reduce((w, d, i) => (d.loss > rv.decisions[w].loss ? i : w), 0);
    const players = this.replay.players.length;
    this.caption = h('div', { class: 'step-caption message info', id: 'review-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Decision', onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, Math.max(0, n - 1));
    this.mine = createMetroBoard(this.table, { label: `${isolated(name)}'s move`, players });
    this.mine.svg.id = 'review-board-played';
    this.theirs = createMetroBoard(this.table, { label: 'The computer\'s move on the same board, as a ghost tile', players });
    this.theirs.svg.id = 'review-board-best';
    this.hand = h('div', { class: 'replay-dice' });
    this.scores = h('div', { class: 'review-scores', id: 'review-scores' });
    this.chart = h('div', { class: 'review-chart-box' });
    this.list = h('ol', { class: 'review-rounds', id: 'review-rounds' });
    this.playedNote = h('p', { class: 'muted small review-note' });
    this.bestNote = h('p', { class: 'muted small review-note' });
    const scored = Number.isFinite(this.score)
      ? [nameEl(name), ` finished with ${pointsText(this.score)}${Number.isFinite(this.margin) ? ` (${this.margin >= 0 ? 'ahead of' : 'behind'} the best other player by ${Math.abs(this.margin)})` : ''} and`]
      : [nameEl(name)];
    return this.frame({
      kind: 'metro',
      lead: [...scored, ` lost ${one(rv.loss)} points of margin against the computer's choices over ${n} ${n === 1 ? 'decision' : 'decisions'}`,
        n && rv.decisions[worst].loss > 0 ? `; the most at decision ${worst + 1} (${one(rv.decisions[worst].loss)}, ${rv.decisions[worst].label}).` : '.'],
      status: this.hand,
      played: { title: h('h2', { class: 'board-name' }, 'Your move'), note: this.playedNote },
      best: { title: h('h2', { class: 'board-name' }, 'The computer\'s move'), note: this.bestNote },
      step: 'This decision',
      help: 'At each of your decisions with a choice, the strong computer player decides with what you could see: the board, the tile you held and the tile you drew. Both moves are valued the same way: your expected final margin over the best other player, from many games played out from there by the strong player\'s search for every seat, with the unseen tiles dealt at random. That measures the position, not a forecast of your game. Points lost are the difference, never below zero; the reason compares the boards the two moves leave.',
      labels: labelWords('points of margin'),
    });
  }

  render(updateUrl) {
    const rv = this.review;
    const d = rv.decisions[this.at];
    if (!d) {
      fill(this.caption, 'This seat had no choice to make.');
      return;
    }
    if (updateUrl) history.replaceState(null, '', `${location.pathname}?seat=${rv.seat}&at=${this.at}`);
    const before = this.states[d.index] || this.states[0];
    const tile = d.drawn || d.hand;
    const same = JSON.stringify(d.best) === JSON.stringify(d.played);
    fill(this.hand, h('span', { class: 'round-label' }, `Decision ${this.at + 1} of ${rv.decisions.length}`));
    const held = (label, code) => (code ? [h('dt', {}, label), h('dd', { class: 'review-tile' }, tileSvg(this.table, code, { 'aria-hidden': 'true' }), ` ${tileName(this.table, code)}`)] : []);
    fill(this.caption, h('span', {},
      h('span', { class: `review-label label-${d.label}` }, `Decision ${this.at + 1}, ${d.label}`),
      same ? ': the computer would have done the same.' : `: ${one(d.loss)} points of margin lost.`),
    reasonEl(d));
    const show = (board, action, ghost) => {
      board.setSequence(before.sequence);
      board.setLines(before.lines);
      if (action.place && tile) board.setDrop(action.place, ghost ? tile : null, true);
      else board.setDrop(null);
      if (action.place && tile && !ghost) board.setSequence(before.sequence + tile + action.place);
    };
    show(this.mine, d.played, false);
    show(this.theirs, d.best, true);
    fill(this.playedNote, `You chose to ${actionWords(this.table, d.played, tile)}.`);
    fill(this.bestNote, same ? 'The same move as yours.' : `The computer would ${actionWords(this.table, d.best, tile)}${d.best.place ? ' (the ghost tile)' : ''}.`);
    fill(this.scores,
      h('dl', { class: 'review-values' },
        ...held('In hand', d.hand),
        ...held('Just drawn', d.drawn),
        Number.isFinite(this.score) ? [h('dt', {}, 'Your final score'), h('dd', { id: 'review-final-score' }, num(this.score))] : null,
        Number.isFinite(this.margin) ? [h('dt', {}, 'Your final margin'), h('dd', { id: 'review-final-margin' }, num(this.margin))] : null,
        h('dt', {}, 'Expected final margin after your move'), h('dd', { id: 'review-value-played' }, one(d.value_played)),
        h('dt', {}, 'After the computer\'s move'), h('dd', { id: 'review-value-best' }, one(d.value_best)),
        h('dt', {}, 'Points lost'), h('dd', { id: 'review-loss' }, one(d.loss)),
        h('dt', {}, 'Label'), h('dd', { id: 'review-label' }, h('span', { class: `review-label label-${d.label}` }, d.label))),
      h('p', { class: 'small review-meaning', id: 'review-meaning' },
        `An expected final margin is your score less the best other player's at the end, as the strong computer player would play it out from there for every seat${Number.isFinite(this.margin) ? `; your game ended at ${num(this.margin)}` : ''}. It measures the position, not your own game.`),
      h('p', { class: 'muted small' }, `${before.sequence.length / 6} of 60 tiles were on the board.`));
    lossChart(this.chart, this.list, {
      steps: rv.decisions,
      at: this.at,
      titleId: 'review-chart-title',
      name: (step) => String(rv.decisions.indexOf(step) + 1),
      words: (step) => `Decision ${rv.decisions.indexOf(step) + 1}`,
      onSelect: (i) => this.select(i),
    });
  }
}
