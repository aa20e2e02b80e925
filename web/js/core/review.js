// What the review pages of every game share (`/ink/{id}/review`, `/metro/{id}/review`): the
// page for a review that cannot be shown, a value's one decimal, the one scale of labels in
// words, a step's reason, and the chart of the points lost at each step with its list in words.

import { ApiError } from './request.js';
import { h, s, fill, nameEl } from './dom.js';
import { NOT_YET } from './screen.js';
import { capital } from './words.js';

/**
 * A value as a review prints it: one decimal, from the hundredths the API gives rounded half
 * up (as the server labels a loss: `review-scale`), and a true minus sign (−13.1, never -13.1).
 */
export function one(x) {
  const tenths = Math.floor((Math.round(Math.abs(Number(x) || 0) * 100) + 5) / 10);
  const text = `${Math.floor(tenths / 10)}.${tenths % 10}`;
  return x < 0 && tenths > 0 ? `−${text}` : text;
}

/**
 * The one scale of labels of every game's review, by the points lost as shown (the server's
 * `review-scale` crate defines it; these are its words): `unit` is "points" or "points of
 * margin".
 */
export function labelWords(unit = 'points') {
  return {
    best: 'best: nothing lost (0.0)',
    good: `good: 0.1 to 1.0 ${unit} lost`,
    inaccuracy: `inaccuracy: 1.1 to 2.5 ${unit} lost`,
    mistake: `mistake: 2.6 to 5.0 ${unit} lost`,
    blunder: `blunder: more than 5.0 ${unit} lost`,
  };
}

/**
 * Why the computer's move is better, in one sentence, as the review gives it (`step.reason`);
 * a review kept before reasons were given has none, and says so.
 */
export function reasonEl(step) {
  const text = step.reason && step.reason.text;
  return h('p', { class: `review-reason${text ? '' : ' muted small'}`, id: 'review-reason' },
    text ? [h('strong', {}, 'Why: '), text]
      : 'This review was kept before the computer gave its reasons: only the numbers are shown.');
}

/** The page for a review the server did not give: not over, hidden, or no such game or seat. */
export function reviewMissing(root, e, gamePath) {
  const status = e instanceof ApiError ? e.status : 0;
  fill(root, h('section', { class: 'card narrow center', id: 'review-missing' },
    h('h1', {}, status === 409 ? 'Not over yet' : status === 403 ? 'Not yet' : 'No review here'),
    h('p', {}, status === 409 ? 'The computer reviews a game once it is over.' : status === 403 ? NOT_YET : status === 404 ? 'There is no game or seat at this address. The link may be mistyped.' : capital(e.message)),
    h('div', { class: 'row' },
      h('a', { class: 'btn primary', href: '/games', 'data-link': '' }, 'Recent games'),
      status === 409 ? h('a', { class: 'btn', href: gamePath, 'data-link': '' }, 'Back to the game') : null)));
}

/**
 * The bars of points lost at each step (a picture, labelled by `titleId`) and the same in
 * words, a button a step: `steps` are `{loss, label}`, `name(step)` is its short name under its
 * bar ("3"), `words(step)` its name in the list ("Round 3"); `onSelect(i)` shows step `i`.
 */
export function lossChart(chart, list, { steps, at, titleId, name, words, onSelect }) {
  const width = 280;
  const height = 110;
  const top = Math.max(5, ...steps.map((r) => r.loss));
  const bar = width / Math.max(steps.length, 1);
  const svg = s('svg', {
    class: 'review-chart', id: 'review-chart', viewBox: `0 0 ${width} ${height + 20}`,
    role: 'img', 'aria-labelledby': titleId,
  });
  svg.append(s('line', { class: 'review-axis', x1: 0, y1: height, x2: width, y2: height }));
  // Values over the bars only where they fit (about 22 units each).
  const valued = bar >= 22;
  steps.forEach((r, i) => {
    const tall = Math.max(r.loss > 0 ? 2 : 1, (r.loss / top) * (height - 14));
    const x = i * bar + bar * 0.15;
    const g = s('g', { class: `review-bar label-${r.label}${i === at ? ' current' : ''}` });
    g.append(s('rect', { x, y: height - tall, width: bar * 0.7, height: tall, rx: Math.min(3, bar * 0.2) }));
    if (valued) g.append(s('text', { class: 'review-bar-value', x: x + bar * 0.35, y: height - tall - 3, 'text-anchor': 'middle' }, one(r.loss)));
    if (valued || i % Math.ceil(22 / bar) === 0) g.append(s('text', { class: 'review-bar-round', x: x + bar * 0.35, y: height + 15, 'text-anchor': 'middle' }, name(r)));
    g.addEventListener('click', () => onSelect(i));
    svg.append(g);
  });
  fill(chart, svg);
  fill(list, steps.map((r, i) => h('li', {},
    h('button', {
      type: 'button', class: `btn small review-round${i === at ? ' current' : ''}`, 'aria-current': i === at ? 'step' : null,
      onclick: () => onSelect(i),
    }, h('span', {}, `${words(r)}: `, h('span', { class: `review-label label-${r.label}` }, r.label), `, ${one(r.loss)} lost`)))));
}

/**
 * A review page's frame, the same for every game: the headline (`lead`), links to the game and
 * its replay, the other seats' reviews, the stepper with its status (`status`: what the step
 * holds, then `caption`), the two boards (the seat's and the computer's, each with its title
 * and note), and beside them this step's values, the chart of points lost and how the
 * computer reviews (`help`, then the `labels`' meanings).
 */
export function reviewFrame(root, { kind, id, seat, players, lead, steps, status, caption, played, best, step, values, chart, list, help, labels }) {
  const others = players.length > 1
    ? h('nav', { class: 'row review-seats', 'aria-label': 'Other players\' reviews' },
      players.map((p, k) => h('a', {
        class: `btn small${k === seat ? ' active' : ''}`, href: `/${kind}/${id}/review?seat=${k}`, 'data-link': '', 'aria-current': k === seat ? 'page' : null,
      }, nameEl(p.name))))
    : null;
  const board = ({ title, svg, note }) => h('section', { class: 'panel replay-seat' }, h('div', { class: 'board-title' }, title), svg, note);
  fill(root, h('section', { class: 'replay review', id: 'review' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Review'), h('p', { class: 'lead', id: 'review-result' }, lead)),
      h('div', { class: 'row' },
        h('a', { class: 'btn', href: `/${kind}/${id}`, 'data-link': '' }, 'The game'),
        h('a', { class: 'btn', id: 'review-replay-link', href: `/${kind}/${id}/replay`, 'data-link': '' }, 'Replay'))),
    others,
    h('div', { class: 'panel replay-controls' }, steps.el, h('div', { class: 'replay-status' }, status, caption)),
    h('div', { class: 'replay-layout' },
      h('div', { class: 'replay-boards seats-2' }, board(played), board(best)),
      h('aside', { class: 'side replay-side' },
        h('section', { class: 'panel' }, h('h2', {}, step), values),
        h('section', { class: 'panel' }, h('h2', { id: 'review-chart-title' }, `Points lost a ${step === 'This round' ? 'round' : 'decision'}`), chart, list),
        h('details', { class: 'panel review-help' },
          h('summary', {}, 'How the computer reviews'),
          h('p', { class: 'small' }, help),
          h('ul', { class: 'small' }, Object.values(labels).map((t) => h('li', {}, t))))))));
}

/**
 * What a game's review screen shares: its parts (`steps`, `caption`, `scores`, `chart`,
 * `list`, the boards `mine` and `theirs`) laid out by [`reviewFrame`], and the choice of a step.
 * A subclass sets them up and draws a step in `render(updateUrl)`.
 */
export class ReviewScreen {
  frame({ kind, lead, status, played, best, step, help, labels }) {
    reviewFrame(this.root, {
      kind,
      id: this.id,
      seat: this.review.seat,
      players: this.replay.players,
      lead,
      steps: this.steps,
      status,
      caption: this.caption,
      played: { ...played, svg: this.mine.svg },
      best: { ...best, svg: this.theirs.svg },
      step,
      values: this.scores,
      chart: this.chart,
      list: this.list,
      help,
      labels,
    });
    this.render(false);
    return () => this.steps.close();
  }

  select(k) {
    this.at = k;
    this.steps.set(k);
    this.render(true);
  }
}
