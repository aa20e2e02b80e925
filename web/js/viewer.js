// The board viewer: paste a Railroad Ink board string (or a Metro placement sequence with
// the number of players) and see it drawn placement by placement, with the score's whole
// breakdown. The server parses, places and scores with the engines (GET /api/ink/view,
// GET /api/metro/view); the page only draws what it is sent. The URL carries the text and
// the step, so a shared link opens the same view.

import { ApiError } from './api.js';
import { h, fill } from './dom.js';
import { createBoard, tileInfo, placements as parsePlacements } from './draw.js';
import { INK_OVERLAYS, applyOverlays, inkBreakdownTable, overlayToggles, pointsText, stepper, swatch } from './breakdown.js';
import { metroApi } from './metro-api.js';
import { createMetroBoard, describeLine, placements as metroPlacements, seatColour } from './metro-draw.js';

export const INK_EXAMPLE = 'A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52';

const INK_EXAMPLES = [
  ['The rules’ 46-point game', INK_EXAMPLE],
  ['A highway down column 1', 'A4A10A4B10A4C10A4D10A4E10A4F10A4G10'],
  ['An overpass: two networks', 'A4A10A1B01B2B10'],
  ['An illegal placement', 'A1A30A4B30'],
];

/** GET a JSON answer; errors become ApiError like the rest of the API. */
export async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { cache: 'no-store' });
  } catch {
    throw new ApiError(0, { error: 'The server cannot be reached. Check your connection and try again.' });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

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

function tabs(active) {
  const tab = (key, label) => h('a', {
    class: `tab${key === active ? ' active' : ''}`, href: `/view/${key}`, 'data-link': '',
    'aria-current': key === active ? 'page' : null,
  }, label);
  return h('nav', { class: 'tabs', 'aria-label': 'Game' }, tab('ink', 'Railroad Ink'), tab('metro', 'Metro'));
}

/** `/view/ink?board=…&at=k`. Returns a function that leaves the screen. */
export async function inkViewerScreen(root, { table, navigate, setTitle }) {
  setTitle('Board viewer');
  const params = new URLSearchParams(location.search);
  const board = clean(params.get('board') ?? '');
  const has = params.has('board');
  const input = h('textarea', {
    id: 'board-input', name: 'board', rows: 3, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'characters',
    placeholder: 'A board string, such as A4A12B2B16A1B01…', 'aria-label': 'Board string',
  });
  input.value = board;
  const show = (text, at) => {
    const q = new URLSearchParams({ board: clean(text) });
    if (at !== undefined) q.set('at', at);
    navigate(`/view/ink?${q}`);
  };
  const form = h('form', {
    class: 'card viewer-form',
    onsubmit: (ev) => { ev.preventDefault(); show(input.value); },
  },
  h('label', { for: 'board-input' }, 'Board string'),
  input,
  h('div', { class: 'row' },
    h('button', { class: 'btn primary', type: 'submit', id: 'show' }, 'Show'),
    h('span', { class: 'muted small' }, 'Examples:'),
    INK_EXAMPLES.map(([label, text]) => h('a', {
      class: 'example', href: `/view/ink?${new URLSearchParams({ board: text })}`, 'data-link': '',
    }, label))),
  h('p', { class: 'muted small' }, 'Five characters a placement: tile, row, column, orientation (A4A12 is A4 on A1 in orientation 2). Spaces and line breaks are ignored; an empty string is the empty board.'));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
  });
  const body = h('div', { class: 'viewer-body' });
  fill(root, h('section', { class: 'viewer', id: 'viewer' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Board viewer'),
        h('p', { class: 'lead' }, 'Paste a board and step through it placement by placement, with the score and where every point comes from. The link of this page opens the same view.')),
      tabs('ink')),
    form, body));
  if (!has) {
    fill(body, h('p', { class: 'muted center empty-note' }, 'Paste a board string above, or pick an example.'));
    return () => {};
  }
  fill(body, h('p', { class: 'loading' }, 'Reading the board…'));
  let view;
  try {
    view = await getJson(`/api/ink/view?${new URLSearchParams({ board })}`);
  } catch (e) {
    fill(body, h('p', { class: 'form-error', role: 'alert' }, e.message));
    return () => {};
  }
  return new InkViewer(body, view, { table, at: params.get('at') }).start();
}

/**
 * What the two viewers share: the placements stepped through with a slider and step buttons,
 * the problems above the board, the placement chips, the caption and the link. A game's viewer
 * draws its board and score (`drawStep`) and says how a placement reads (`describeAt`,
 * `chipText`).
 */
class StepViewer {
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

class InkViewer extends StepViewer {
  constructor(root, view, options) {
    super(root, view, options, { list: parsePlacements(view.placements.join('')), noun: 'board string', source: view.board });
    this.overlays = new Set(INK_OVERLAYS.map(([k]) => k));
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
    this.board.setBoard(v.placements.slice(0, k).join(''));
    this.board.setBreakdown(breakdown);
    if (showIllegal) {
      const p = this.list[v.illegal.index];
      this.board.setDrop(p.square, p.tile, p.orientation, false);
    } else {
      this.board.setDrop(null);
    }
    applyOverlays([this.board.svg], this.overlays);
    fill(this.score,
      h('h2', {}, 'Score', h('span', { class: 'limits' }, `after ${k} ${k === 1 ? 'placement' : 'placements'}`)),
      inkBreakdownTable(breakdown),
      overlayToggles(this.overlays, () => applyOverlays([this.board.svg], this.overlays)));
    return pointsText(breakdown.score.advanced);
  }
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "A4 (highway straight) on C4, orientation 3". */
export function describe(table, p) {
  const info = tileInfo(table, p.tile);
  return `${p.tile} (${info ? info.kind : 'tile'}) on ${p.square}, orientation ${p.orientation}`;
}

// ---- Metro

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
  const body = h('div', { class: 'viewer-body' });
  fill(root, h('section', { class: 'viewer', id: 'viewer' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Board viewer'),
        h('p', { class: 'lead' }, 'Paste a Metro placement sequence and step through it placement by placement, with every player’s lines and score. The link of this page opens the same view.')),
      tabs('metro')),
    form, body));
  if (!has) {
    fill(body, h('p', { class: 'muted center empty-note' }, 'Paste a placement sequence above, or pick an example.'));
    return () => {};
  }
  fill(body, h('p', { class: 'loading' }, 'Reading the sequence…'));
  let table;
  let view;
  try {
    [table, view] = await Promise.all([
      metroApi.tiles(),
      getJson(`/api/metro/view?${new URLSearchParams({ players: String(players), sequence })}`),
    ]);
  } catch (e) {
    fill(body, h('p', { class: 'form-error', role: 'alert' }, e.message));
    return () => {};
  }
  return new MetroViewer(body, view, { table, at: params.get('at') }).start();
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
