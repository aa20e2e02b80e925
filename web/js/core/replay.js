// What the replays share. A replay comes from the server, which plays the game's stored actions
// again through the engine (GET /api/{game}/games/{id}/replay): each step is one action with
// what it changed. The slider moves through every action (`?at=k` in the address); each game's
// replay draws the boards and scores as they were.

import { ApiError } from './request.js';
import { h, fill } from './dom.js';
import { dateTimeText } from './words.js';
import { NOT_YET } from './screen.js';
import { stepper } from './stepper.js';

export function when(ms) {
  return dateTimeText(ms);
}

function notFound(root, e) {
  const status = e instanceof ApiError ? e.status : 0;
  fill(root, h('section', { class: 'card narrow center', id: 'replay-missing' },
    h('h1', {}, status === 409 ? 'Not over yet' : status === 403 ? 'Not yet' : 'No replay here'),
    h('p', {}, status === 404 ? 'There is no game at this address. The link may be mistyped.' : status === 403 ? NOT_YET : e.message),
    h('div', { class: 'row' },
      h('a', { class: 'btn primary', href: '/games', 'data-link': '' }, 'Recent games'),
      status === 409 ? h('a', { class: 'btn', href: location.pathname.replace(/\/replay$/, ''), 'data-link': '' }, 'Back to the game') : null)));
}

/**
 * `/{game}/{id}/replay?at=k`: loads the replay (`load()`), then shows it (`show(answer)`, which
 * returns the function that leaves the screen), or the page that says why there is none.
 */
export async function replayScreen(root, { setTitle, load, show }) {
  setTitle('Replay');
  fill(root, h('p', { class: 'loading' }, 'Replaying the game…'));
  let answer;
  try {
    answer = await load();
  } catch (e) {
    notFound(root, e);
    return () => {};
  }
  return show(answer);
}

/**
 * The base of a game's replay: the replay `r`, the step shown (`at`, from the address, else the
 * last), and the page around the game's own boards and scores. A game's replay says what a step
 * did (`describeStep(k)`) and draws step k (`render(updateUrl)`).
 */
export class Replay {
  constructor(root, replay, table) {
    this.root = root;
    this.r = replay;
    this.table = table;
    const q = new URLSearchParams(location.search);
    const at = Number(q.get('at'));
    this.at = q.has('at') && Number.isInteger(at) ? Math.max(0, Math.min(replay.steps.length, at)) : replay.steps.length;
  }

  /**
   * Lays the page out: the `result` line, links to the game (at `/{game}/{id}`) and to the
   * recent games, the stepper with `status` beside the caption, and the `layout` under them.
   */
  frame(game, result, status, layout) {
    const r = this.r;
    this.caption = h('div', { class: 'step-caption message info', id: 'step-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Action', play: true, onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, r.steps.length);
    fill(this.root, h('section', { class: 'replay', id: 'replay' },
      h('div', { class: 'viewer-head' },
        h('div', {},
          h('h1', {}, 'Replay'),
          h('p', { class: 'lead', id: 'replay-result' }, result)),
        h('div', { class: 'row' },
          h('a', { class: 'btn', href: `/${game}/${r.id}`, 'data-link': '' }, 'The game'),
          h('a', { class: 'btn', href: '/games', 'data-link': '' }, 'Recent games'))),
      h('div', { class: 'panel replay-controls' }, this.steps.el, h('div', { class: 'replay-status' }, status, this.caption)),
      h('div', { class: 'replay-layout' }, layout)));
  }

  /** The caption of step k (its number and what it did), and step k in the address when asked. */
  showStep(k, updateUrl) {
    fill(this.caption,
      h('span', { class: 'step-count' }, `Action ${k} of ${this.r.steps.length}`),
      h('span', {}, this.describeStep(k)));
    if (updateUrl) history.replaceState(null, '', `${location.pathname}?at=${k}`);
  }
}
