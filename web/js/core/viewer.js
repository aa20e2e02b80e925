// What the board viewers share: the page (its title, the tabs between the games' viewers, the
// form, and the view under it), and `StepViewer`, the base of each game's viewer: the
// placements stepped through with a slider and step buttons, the problems above the board, the
// placement chips, the caption and the link. The server parses, places and scores with the
// engines; the page only draws what it is sent. The URL carries the text and the step, so a
// shared link opens the same view.

import { h, fill } from './dom.js';
import { stepper } from './stepper.js';
import { viewerTabs } from './tabs.js';

/** Spaces and line breaks in pasted text are not part of a board string. */
export function clean(text) {
  return (text || '').replace(/\s+/g, '');
}

/** The text with the characters at fault marked (offsets count characters, not UTF-16 units). */
export function markedText(text, from, to) {
  const chars = Array.from(text);
  const at = chars.slice(from, Math.max(to, from + 1)).join('');
  return h('code', { class: 'marked-text' },
    chars.slice(0, from).join(''),
    h('mark', { class: to > from ? 'bad' : 'bad missing', title: 'Here' }, to > from ? at : '␣'),
    chars.slice(Math.max(to, from + 1)).join(''));
}

/**
 * A viewer's page: its lead, the tabs between the games' viewers, the `form`, and under it the
 * view: `empty` when the address holds nothing to show (`has` false), else `reading` while
 * `load()` asks the server, then `show(body, answer)` (which returns the function that leaves
 * the screen) or the server's refusal.
 */
export async function viewerPage(root, { game, lead, form, has, empty, reading, load, show }) {
  const body = h('div', { class: 'viewer-body' });
  fill(root, h('section', { class: 'viewer', id: 'viewer' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Board viewer'),
        h('p', { class: 'lead' }, lead)),
      viewerTabs(game)),
    form, body));
  if (!has) {
    fill(body, h('p', { class: 'muted center empty-note' }, empty));
    return () => {};
  }
  fill(body, h('p', { class: 'loading' }, reading));
  let answer;
  try {
    answer = await load();
  } catch (e) {
    fill(body, h('p', { class: 'form-error', role: 'alert' }, e.message));
    return () => {};
  }
  return show(body, answer);
}

/**
 * What the two viewers share: the placements stepped through with a slider and step buttons,
 * the problems above the board, the placement chips, the caption and the link. A game's viewer
 * draws its board and score (`drawStep`) and says how a placement reads (`describeAt`,
 * `chipText`).
 */
export class StepViewer {
  constructor(root, view, { table, at }, { list, noun, source }) {
    this.root = root;
    this.view = view;
    this.table = table;
    this.list = list;
    this.noun = noun;
    this.source = source;
    // Positions 0..legal are boards; one more shows the illegal placement in place.
    this.legal = view.steps.length - 1;
    this.max = this.legal + (view.illegal ? 1 : 0);
    const wanted = at === null || at === undefined || at === '' ? this.max : Number(at);
    this.at = Number.isInteger(wanted) ? Math.max(0, Math.min(this.max, wanted)) : this.max;
  }

  /** Lays the page out around the board's SVG and draws the first step; returns the leave function. */
  layout(svg, scoreLabel, ...below) {
    svg.id = 'view-board';
    this.caption = h('div', { class: 'step-caption', id: 'step-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Placement', onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, this.max);
    this.title = h('div', { class: 'board-title' });
    this.score = h('section', { class: 'panel scores', 'aria-label': scoreLabel });
    this.chips = h('ol', { class: 'placement-chips', id: 'placements' });
    this.problem = h('div', { class: 'viewer-problems' });
    const boardCol = h('div', { class: 'viewer-board' }, this.title, svg, this.steps.el, this.caption);
    fill(this.root,
      this.problem,
      h('div', { class: 'viewer-layout' }, boardCol,
        h('aside', { class: 'side' }, this.score,
          h('section', { class: 'panel' },
            h('h2', {}, 'Placements', h('span', { class: 'limits' }, `${this.view.placements.length}`)),
            this.chips), ...below)));
    this.renderProblems();
    this.renderChips();
    this.render(false);
    return () => this.steps.close();
  }

  renderProblems() {
    const v = this.view;
    const parts = [];
    if (v.malformed) {
      const m = v.malformed;
      const where = m.index !== undefined ? ` (placement ${m.index + 1})` : '';
      const good = v.placements.length;
      parts.push(h('div', { class: 'problem malformed', id: 'malformed', role: 'alert' },
        h('strong', {}, `Not a well-formed ${this.noun}`),
        h('p', {}, m.found !== undefined
          ? `Character ${m.from + 1} is “${m.found}”: expected ${m.expected}${where}.`
          : `${m.index !== undefined ? `Placement ${m.index + 1}: ` : ''}${m.message}.`),
        markedText(this.source, m.from, m.to),
        good ? h('p', { class: 'muted small' }, `The ${good} well-formed ${good === 1 ? 'placement' : 'placements'} before it ${good === 1 ? 'is' : 'are'} drawn below.`) : null));
    }
    if (v.illegal) {
      const il = v.illegal;
      parts.push(h('div', { class: 'problem illegal', id: 'illegal', role: 'alert' },
        h('strong', {}, `Placement ${il.index + 1} (${il.placement}) is illegal`),
        h('p', {}, `${capitalised(il.reason)}. `, h('span', { class: 'rule-chip' }, il.rule)),
        h('button', { class: 'btn small', type: 'button', onclick: () => this.go(this.max) }, 'Show it in place')));
    }
    fill(this.problem, parts);
  }

  renderChips() {
    const v = this.view;
    fill(this.chips, this.list.map((p, i) => {
      const state = i < this.legal ? 'placed' : v.illegal && i === v.illegal.index ? 'illegal' : 'unreached';
      return h('li', {}, h('button', {
        type: 'button', class: `chip-button ${state}`, dataset: { index: i },
        title: state === 'unreached' ? 'Not placed: an earlier placement is illegal' : `Show the board after placement ${i + 1}`,
        disabled: state === 'unreached',
        onclick: () => this.go(i + 1),
      }, h('span', { class: 'chip-n' }, i + 1), this.chipText(p)));
    }));
  }

  go(k) {
    this.at = Math.max(0, Math.min(this.max, k));
    this.steps.set(this.at);
    this.render(true);
  }

  render(updateUrl) {
    const v = this.view;
    const k = Math.min(this.at, this.legal);
    const showIllegal = Boolean(v.illegal) && this.at === this.max;
    const n = v.placements.length;
    const scoreText = this.drawStep(k, showIllegal);
    fill(this.title,
      h('span', { class: 'board-name' }, `After ${k} of ${n} ${n === 1 ? 'placement' : 'placements'}`),
      h('span', { class: 'board-score', id: 'view-score' }, scoreText));
    if (showIllegal) {
      const il = v.illegal;
      fill(this.caption, h('span', {}, `Placement ${il.index + 1}: ${this.describeAt(il.index)} is illegal: ${il.reason}.`), h('span', { class: 'rule-chip' }, il.rule));
      this.caption.className = 'step-caption message error';
    } else {
      fill(this.caption, k === 0 ? 'The empty board.' : `Placement ${k}: ${this.describeAt(k - 1)}.`);
      this.caption.className = 'step-caption message info';
    }
    this.chips.querySelectorAll('.chip-button').forEach((b) => {
      const i = Number(b.dataset.index);
      b.classList.toggle('current', i === this.at - 1);
      b.classList.toggle('future', i >= this.at);
    });
    if (updateUrl) {
      const q = new URLSearchParams(location.search);
      q.set('at', String(this.at));
      history.replaceState(null, '', `${location.pathname}?${q}`);
    }
  }
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
