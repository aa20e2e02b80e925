// The Railroad Ink board viewer (`/view/ink`): paste a board string and see it drawn placement
// by placement, with the score's whole breakdown (GET /api/ink/view).

import { h, fill } from '../core/dom.js';
import { StepViewer, clean, viewerPage } from '../core/viewer.js';
import { pointsText } from '../core/words.js';
import { EXPANSIONS, api } from './api.js';
import { createBoard, describe, placements as parsePlacements } from './draw.js';
import { applyOverlays, inkBreakdownTable, overlaysOf, overlayToggles } from './breakdown.js';

export const INK_EXAMPLE = 'A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52';

const INK_EXAMPLES = [
  ['The rules’ 46-point game', INK_EXAMPLE],
  ['A highway down column 1', 'A4A10A4B10A4C10A4D10A4E10A4F10A4G10'],
  ['An overpass: two networks', 'A4A10A1B01B2B10'],
  ['An illegal placement', 'A1A30A4B30'],
  ['Lake: three shores flood D3', 'L0C30L0D23L0D41', 'lake'],
  ['River: seven squares, both ends off', 'V0A01V0A11V0A21V0A31V0A41V0A51V0A61', 'river'],
];

/** `/view/ink?board=…&at=k`. Returns a function that leaves the screen. */
export async function inkViewerScreen(root, { table, navigate, setTitle }) {
  setTitle('Board viewer');
  const params = new URLSearchParams(location.search);
  const board = clean(params.get('board') ?? '');
  const has = params.has('board');
  const expansion = ['lake', 'river'].includes(params.get('expansion')) ? params.get('expansion') : 'none';
  const expansionSelect = h('select', { id: 'viewer-expansion', name: 'expansion' },
    [['none', 'Base game'], ['lake', EXPANSIONS.lake], ['river', EXPANSIONS.river]].map(([value, label]) => h('option', { value, selected: value === expansion }, label)));
  const input = h('textarea', {
    id: 'board-input', name: 'board', rows: 3, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'characters',
    placeholder: 'A board string, such as A4A12B2B16A1B01…', 'aria-label': 'Board string',
  });
  input.value = board;
  const show = (text, at) => {
    const q = new URLSearchParams({ board: clean(text) });
    if (expansionSelect.value !== 'none') q.set('expansion', expansionSelect.value);
    if (at !== undefined) q.set('at', at);
    navigate(`/view/ink?${q}`);
  };
  const form = h('form', {
    class: 'card viewer-form',
    onsubmit: (ev) => { ev.preventDefault(); show(input.value); },
  },
  h('label', { for: 'board-input' }, 'Board string'),
  input,
  h('div', { class: 'field' }, h('label', { for: 'viewer-expansion' }, 'Played with'), expansionSelect),
  h('div', { class: 'row' },
    h('button', { class: 'btn primary', type: 'submit', id: 'show' }, 'Show'),
    h('span', { class: 'muted small' }, 'Examples:'),
    INK_EXAMPLES.map(([label, text, ex]) => h('a', {
      class: 'example', href: `/view/ink?${new URLSearchParams(ex ? { board: text, expansion: ex } : { board: text })}`, 'data-link': '',
    }, label))),
  h('p', { class: 'muted small' }, 'Five characters a placement: tile, row, column, orientation (A4A12 is A4 on A1 in orientation 2). Spaces and line breaks are ignored; an empty string is the empty board.'));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
  });
  return viewerPage(root, {
    game: 'ink',
    lead: 'Paste a board and step through it placement by placement, with the score and where every point comes from. The link of this page opens the same view.',
    form,
    has,
    empty: 'Paste a board string above, or pick an example.',
    reading: 'Reading the board…',
    load: () => api.view(board, expansion),
    show: (body, view) => new InkViewer(body, view, { table, at: params.get('at') }).start(),
  });
}

class InkViewer extends StepViewer {
  constructor(root, view, options) {
    super(root, view, options, { list: parsePlacements(view.placements.join('')), noun: 'board string', source: view.board });
    this.expansion = view.expansion;
    this.overlayList = overlaysOf(view.expansion);
    this.overlays = new Set(this.overlayList.map(([k]) => k));
  }

  start() {
    this.board = createBoard(this.table, { label: 'The board' });
    return this.layout(this.board.svg, 'Score');
  }

  chipText(p) {
    return p.text;
  }

  describeAt(i) {
    return describe(this.table, this.list[i]);
  }

  /** Draws board `k` (and the illegal tile in place) with its breakdown; returns the score's text. */
  drawStep(k, showIllegal) {
    const v = this.view;
    const breakdown = v.steps[k];
    this.board.setBoard(v.placements.slice(0, k).join(''), { flooded: (v.flooded && v.flooded[k]) || [] });
    this.board.setBreakdown(breakdown);
    if (showIllegal) {
      const p = this.list[v.illegal.index];
      this.board.setDrop(p.square, p.tile, p.orientation, false);
    } else {
      this.board.setDrop(null);
    }
    applyOverlays([this.board.svg], this.overlays, this.overlayList);
    fill(this.score,
      h('h2', {}, 'Score', h('span', { class: 'limits' }, `after ${k} ${k === 1 ? 'placement' : 'placements'}`)),
      inkBreakdownTable(breakdown, this.expansion),
      overlayToggles(this.overlays, () => applyOverlays([this.board.svg], this.overlays, this.overlayList), this.overlayList));
    return pointsText(breakdown.score.advanced);
  }
}
