// The Metro board viewer (`/view/metro`): paste a placement sequence with the number of players
// and see it drawn placement by placement, with every player's lines and score
// (GET /api/metro/view).

import { h, fill, swatch } from '../core/dom.js';
import { StepViewer, clean, viewerPage } from '../core/viewer.js';
import { pointsText } from '../core/words.js';
import { metroApi } from './api.js';
import { createMetroBoard, describeLine, placements as metroPlacements, seatColour } from './draw.js';

const METRO_EXAMPLES = [
  ['A line into the centre, doubled (4 players)', 'aaaa03aaaa13aaaa23', 4],
  ['A line through one tile twice (2 players)', 'badb01baac02dbba10bcbc00', 2],
  ['An illegal placement', 'aaaa00aaaa11', 2],
];

/** `/view/metro?players=N&sequence=…&at=k`. */
export async function metroViewerScreen(root, { navigate, setTitle }) {
  setTitle('Board viewer');
  const params = new URLSearchParams(location.search);
  const sequence = clean(params.get('sequence') ?? '');
  const has = params.has('sequence');
  const wanted = Number(params.get('players'));
  const players = Number.isInteger(wanted) && wanted >= 2 && wanted <= 6 ? wanted : 2;
  const input = h('textarea', {
    id: 'sequence-input', name: 'sequence', rows: 3, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
    placeholder: 'A placement sequence, such as aaaa03aaaa13aaaa23', 'aria-label': 'Placement sequence',
  });
  input.value = sequence;
  const count = h('select', { id: 'players-input', name: 'players', 'aria-label': 'Players' },
    [2, 3, 4, 5, 6].map((n) => h('option', { value: n, selected: n === players }, `${n} players`)));
  const link = (text, n, at) => {
    const q = new URLSearchParams({ players: String(n), sequence: clean(text) });
    if (at !== undefined) q.set('at', at);
    return `/view/metro?${q}`;
  };
  const form = h('form', {
    class: 'card viewer-form',
    onsubmit: (ev) => { ev.preventDefault(); navigate(link(input.value, count.value)); },
  },
  h('label', { for: 'sequence-input' }, 'Placement sequence'),
  input,
  h('div', { class: 'row' },
    count,
    h('button', { class: 'btn primary', type: 'submit', id: 'show' }, 'Show'),
    h('span', { class: 'muted small' }, 'Examples:'),
    METRO_EXAMPLES.map(([label, text, n]) => h('a', { class: 'example', href: link(text, n), 'data-link': '' }, label))),
  h('p', { class: 'muted small' }, 'Six characters a placement: the tile’s four letters, then its row and column (cccc32 is cccc at row 3, column 2). The number of players decides who owns which station. Spaces and line breaks are ignored.'));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
  });
  count.addEventListener('change', () => { if (has) form.requestSubmit(); });
  return viewerPage(root, {
    game: 'metro',
    lead: 'Paste a Metro placement sequence and step through it placement by placement, with every player’s lines and score. The link of this page opens the same view.',
    form,
    has,
    empty: 'Paste a placement sequence above, or pick an example.',
    reading: 'Reading the sequence…',
    load: () => Promise.all([metroApi.tiles(), metroApi.view(players, sequence)]),
    show: (body, [table, view]) => new MetroViewer(body, view, { table, at: params.get('at') }).start(),
  });
}

class MetroViewer extends StepViewer {
  constructor(root, view, options) {
    super(root, view, options, { list: metroPlacements(view.placements.join('')), noun: 'placement sequence', source: view.sequence });
    this.players = view.players;
    this.hot = null;
  }

  start() {
    this.board = createMetroBoard(this.table, { label: 'The board', players: this.players });
    this.lineInfo = h('p', { class: 'muted small m-view-line', id: 'line-info' }, 'Point at a station or a track to see its line.');
    const leave = this.layout(this.board.svg, 'Scores');
    const hover = (ev) => this.highlight(this.board.stationAt(ev.target));
    this.board.svg.addEventListener('pointerover', hover);
    this.board.svg.addEventListener('click', hover);
    this.board.svg.addEventListener('pointerleave', () => this.highlight(null));
    return leave;
  }

  highlight(station) {
    this.hot = station;
    this.board.highlight(station);
    const k = Math.min(this.at, this.legal);
    const line = station === null ? null : this.view.steps[k].lines.find((l) => l.station === station);
    fill(this.lineInfo, station === null ? 'Point at a station or a track to see its line.'
      : line ? describeLine(line, null).text : `Station ${station}: not started.`);
  }

  chipText(p) {
    return `${p.tile}${p.square}`;
  }

  describeAt(i) {
    const p = this.list[i];
    return `${p.tile} at row ${p.square[0]}, column ${p.square[1]}`;
  }

  /** Draws board `k` (the illegal tile in place, or the latest placement framed) with every line; returns the scores' text. */
  drawStep(k, showIllegal) {
    const v = this.view;
    const step = v.steps[k];
    this.board.setSequence(v.placements.slice(0, k).join(''));
    this.board.setLines(step.lines);
    if (showIllegal) {
      const p = this.list[v.illegal.index];
      this.board.setDrop(p.square, p.tile, false);
    } else if (k > 0) {
      // The latest placement, framed.
      this.board.setDrop(this.list[k - 1].square, null, true);
    } else {
      this.board.setDrop(null);
    }
    const owners = this.table.owners[this.players - 2];
    const byPlayer = step.scores.map((score, seat) => ({
      seat, score,
      lines: step.lines.filter((l) => l.owner === seat && l.end.kind !== 'unfinished'),
      stations: owners.map((o, i) => (o === seat ? i + 1 : null)).filter((x) => x !== null),
    }));
    fill(this.score,
      h('h2', {}, 'Scores', h('span', { class: 'limits' }, `after ${k} ${k === 1 ? 'placement' : 'placements'}`)),
      h('ol', { class: 'm-view-scores' }, byPlayer.map((p) => h('li', { dataset: { seat: p.seat } },
        h('details', { open: p.lines.length > 0 && p.lines.length <= 6 },
          h('summary', {}, swatch(seatColour(p.seat)), h('span', { class: 'm-view-player' }, `P${p.seat + 1}`),
            h('span', { class: 'm-view-total', id: `view-score-${p.seat}` }, pointsText(p.score))),
          h('p', { class: 'muted small' }, `Stations ${p.stations.join(', ')}`),
          p.lines.length
            ? h('ul', { class: 'm-view-lines' }, p.lines.map((l) => h('li', {
              dataset: { station: l.station }, tabindex: 0,
              onpointerenter: () => this.highlight(l.station),
              onfocus: () => this.highlight(l.station),
            }, describeLine(l, null).text)))
            : h('p', { class: 'muted small' }, 'No finished line yet.'))))),
      this.lineInfo);
    if (this.hot !== null) this.highlight(this.hot);
    return step.scores.map((n, i) => `P${i + 1} ${n}`).join(' · ');
  }
}
