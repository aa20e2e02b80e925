// Metro tiles and the Metro board as SVG, drawn from the engine's table (GET /api/metro/tiles):
// a tile is drawn from its four tracks (entry exit → way-out exit), the stations from the
// squares they face, and each station's colour from its owner. Lines are coloured from the
// state's lines (each line's squares and the side it enters each by), so the picture always
// agrees with the engine's scoring.

import { flashClass, gridSquareAt, h, nameEl, s } from '../core/dom.js';
import { tileName, tileNameCapital } from './names.js';

const CELL = 100;
const MARGIN = 44;
const SIZE = 8 * CELL;

/** One colour per seat, P1 first (also used for the legend and the scores). */
export const SEAT_COLOURS = ['#d62839', '#1f6fd1', '#2a9d4b', '#e69f00', '#8e44ad', '#14a0a8'];
export const SEAT_LIGHT = ['#fbe3e5', '#e2edfb', '#e1f3e6', '#fdf0d5', '#efe3f5', '#dcf3f4'];

export function seatColour(seat) {
  return seat === null || seat === undefined ? '#9aa1aa' : SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** Where exit e (0–7, clockwise from the top-left, rules §3.1) sits on a 100×100 tile. */
const EXIT = [[35, 0], [65, 0], [100, 35], [100, 65], [65, 100], [35, 100], [0, 65], [0, 35]];
/** The way into the tile from each side: top, right, bottom, left. */
const INWARD = [[0, 1], [-1, 0], [0, -1], [1, 0]];

/** The path of a track from exit a to exit b. */
export function trackPath(a, b) {
  const [ax, ay] = EXIT[a];
  const [bx, by] = EXIT[b];
  const sa = a >> 1;
  const sb = b >> 1;
  // Straight across, a gentle turn, a tight turn, or a U-turn back to the same side.
  const turn = (sb - sa + 4) % 4;
  const k = turn === 2 ? 35 : turn === 0 ? 34 : (turn === 1 ? 42 : 24);
  const [nax, nay] = INWARD[sa];
  const [nbx, nby] = INWARD[sb];
  if (turn === 2 && (ax === bx || ay === by)) return `M${ax},${ay} L${bx},${by}`;
  return `M${ax},${ay} C${ax + nax * k},${ay + nay * k} ${bx + nbx * k},${by + nby * k} ${bx},${by}`;
}

/** The table's entry of a tile code. */
export function tileEntry(table, code) {
  return table.tiles.find((t) => t.code === code);
}

/** The shapes of a tile in a 100×100 box: background and four tracks (data-entry 0, 2, 4, 6). */
export function tileShapes(table, code, { background = true } = {}) {
  const info = tileEntry(table, code);
  const g = s('g', { class: 'm-tile', dataset: { tile: code } });
  if (background) g.append(s('rect', { class: 'm-tile-bg', x: 1.5, y: 1.5, width: 97, height: 97, rx: 6 }));
  for (const [entry, out] of info.tracks) {
    const d = trackPath(entry, out);
    g.append(s('path', { class: 'm-track-casing', d }));
    g.append(s('path', { class: 'm-track', d, dataset: { entry } }));
  }
  return g;
}

/** A stand-alone tile picture. */
export function tileSvg(table, code, attrs = {}) {
  return s('svg', { viewBox: '0 0 100 100', class: 'm-tile-svg', role: 'img', 'aria-label': tileName(table, code), ...attrs },
    tileShapes(table, code));
}

/**
 * A tile named in a sentence: a small picture of it and its name (names.js), its code only in
 * the tooltip. `capital` opens a sentence with it.
 */
export function tileMention(table, code, { capital = false } = {}) {
  return h('span', { class: 'm-tile-mention', title: `tile ${code}`, dataset: { tile: code } },
    tileSvg(table, code, { 'aria-hidden': 'true', role: null, 'aria-label': null, class: 'm-tile-svg m-tile-inline' }),
    capital ? tileNameCapital(table, code) : tileName(table, code));
}

/** A face-down tile (a tile held by someone else). */
export function tileBackSvg(attrs = {}) {
  return s('svg', { viewBox: '0 0 100 100', class: 'm-tile-svg m-tile-back', role: 'img', 'aria-label': 'a tile, face down', ...attrs },
    s('rect', { class: 'm-back-bg', x: 3, y: 3, width: 94, height: 94, rx: 10 }),
    s('circle', { class: 'm-back-ring', cx: 50, cy: 50, r: 24 }),
    s('path', { class: 'm-back-m', d: 'M37,62 L37,38 L50,52 L63,38 L63,62' }));
}

/** Splits a placement sequence ("aaaa03cbaa13") into [{tile, square}]. */
export function placements(sequence) {
  const out = [];
  for (let i = 0; i + 6 <= (sequence || '').length; i += 6) out.push({ tile: sequence.slice(i, i + 4), square: sequence.slice(i + 4, i + 6) });
  return out;
}

/** Splits the server's legal squares ("0001") into squares. */
export function squaresOf(text) {
  return (text || '').match(/\d\d/g) || [];
}

function xy(square) {
  return [Number(square[1]) * CELL, Number(square[0]) * CELL];
}

/** Where a perimeter station's marker goes: its centre and whether it stands upright. */
function stationSpot(station) {
  const [x, y] = xy(station.square);
  switch (station.side) {
    case 0: return { cx: x + 50, cy: -20, upright: false };
    case 1: return { cx: SIZE + 20, cy: y + 50, upright: true };
    case 2: return { cx: x + 50, cy: SIZE + 20, upright: false };
    default: return { cx: -20, cy: y + 50, upright: true };
  }
}

/** Words for a line's end and score. */
export function describeLine(line, players) {
  const owner = line.owner === null || line.owner === undefined ? 'nobody' : (players?.[line.owner]?.name ?? `P${line.owner + 1}`);
  const tiles = `${line.length} ${line.length === 1 ? 'tile' : 'tiles'}`;
  let end;
  let points;
  switch (line.end.kind) {
    case 'centre':
      end = 'to a central station';
      points = `${line.length} × 2 = ${line.points} points`;
      break;
    case 'station':
      end = line.end.station === line.station ? 'back to itself' : `to station ${line.end.station}`;
      points = `${line.points} ${line.points === 1 ? 'point' : 'points'}`;
      break;
    default:
      end = line.length ? 'so far, unfinished' : 'not started';
      points = '0 points';
  }
  const known = line.owner !== null && line.owner !== undefined && players?.[line.owner]?.name !== undefined;
  const rest = `: ${tiles} ${end}: ${points}`;
  return {
    owner,
    text: `Station ${line.station} (${owner})${rest}`,
    // The same, the owner's name bidi-isolated (a person's name), for the page.
    nodes: [`Station ${line.station} (`, known ? nameEl(owner) : owner, `)${rest}`],
  };
}

/**
 * The 8×8 board with its 32 perimeter stations and the central station, and layers for tiles,
 * lines, legal squares and the tile being dropped. Returns an object of drawing functions.
 */
export function createMetroBoard(table, { label = 'Metro board', interactive = false, players = 2 } = {}) {
  const svg = s('svg', {
    class: `m-board${interactive ? ' interactive' : ''}`,
    viewBox: `${-MARGIN} ${-MARGIN} ${SIZE + 2 * MARGIN} ${SIZE + 2 * MARGIN}`,
    role: 'img',
    'aria-label': label,
  });
  svg.append(s('rect', { class: 'm-frame', x: -MARGIN + 2, y: -MARGIN + 2, width: SIZE + 2 * MARGIN - 4, height: SIZE + 2 * MARGIN - 4, rx: 20 }));
  svg.append(s('rect', { class: 'm-board-bg', x: 0, y: 0, width: SIZE, height: SIZE, rx: 3 }));
  const centre = new Set(table.centre);
  const grid = s('g', { class: 'm-grid' });
  const cells = {};
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const name = `${row}${col}`;
      if (centre.has(name)) continue;
      const cell = s('rect', { class: 'm-cell', x: col * CELL, y: row * CELL, width: CELL, height: CELL, dataset: { square: name } });
      cells[name] = cell;
      grid.append(cell);
      grid.append(s('text', { class: 'm-cell-label', x: col * CELL + 92, y: row * CELL + 92, 'text-anchor': 'end' }, name));
    }
  }
  svg.append(grid);
  // The central station: the four centre squares.
  const [cx0, cy0] = xy(table.centre[0]);
  const hub = s('g', { class: 'm-hub', dataset: { centre: '' } },
    s('rect', { class: 'm-hub-bg', x: cx0 + 4, y: cy0 + 4, width: 2 * CELL - 8, height: 2 * CELL - 8, rx: 14 }),
    s('circle', { class: 'm-hub-ring', cx: cx0 + CELL, cy: cy0 + CELL, r: 46 }),
    s('path', { class: 'm-hub-m', d: `M${cx0 + 76},${cy0 + 122} L${cx0 + 76},${cy0 + 78} L${cx0 + 100},${cy0 + 104} L${cx0 + 124},${cy0 + 78} L${cx0 + 124},${cy0 + 122}` }));
  svg.append(hub);
  const layers = {};
  for (const name of ['legal', 'tiles', 'rings', 'drop']) {
    layers[name] = s('g', { class: `m-layer m-layer-${name}` });
    svg.append(layers[name]);
  }
  const stationLayer = s('g', { class: 'm-stations' });
  svg.append(stationLayer);
  const badge = s('g', { class: 'm-layer m-badge', 'aria-hidden': 'true' });
  svg.append(badge);
  const stations = {};
  for (const st of table.stations) {
    const { cx, cy, upright } = stationSpot(st);
    const w = upright ? 32 : 56;
    const hgt = upright ? 56 : 30;
    const g = s('g', { class: 'm-station', dataset: { station: st.station }, tabindex: -1 },
      s('rect', { class: 'm-station-body', x: cx - w / 2, y: cy - hgt / 2, width: w, height: hgt, rx: 9 }),
      s('text', { class: 'm-station-number', x: cx, y: cy + 7, 'text-anchor': 'middle' }, String(st.station)));
    stations[st.station] = { g, cx, cy, upright };
    stationLayer.append(g);
  }

  const tiles = {}; // square -> the placed tile's <g>
  let shown = '';
  let lines = [];

  function setOwners(count) {
    const owners = table.owners[count - 2] || [];
    for (const st of table.stations) {
      const owner = owners[st.station - 1];
      const { g } = stations[st.station];
      g.classList.toggle('unowned', owner === null || owner === undefined);
      g.dataset.owner = owner ?? '';
      g.style.setProperty('--owner', seatColour(owner));
    }
  }
  setOwners(players);

  /** Draws the placements of a sequence; the ones from `fresh` on are animated in turn. */
  function setSequence(sequence, { fresh = null, placers = [] } = {}) {
    if (sequence === shown) return;
    const list = placements(sequence);
    const keep = shown && sequence.startsWith(shown) ? shown.length / 6 : 0;
    if (!keep) {
      layers.tiles.replaceChildren();
      for (const k of Object.keys(tiles)) delete tiles[k];
    }
    layers.rings.replaceChildren();
    list.slice(keep).forEach((p, i) => {
      const index = keep + i;
      const [x, y] = xy(p.square);
      const g = s('g', { class: 'm-placed', transform: `translate(${x},${y})`, dataset: { square: p.square, placement: `${p.tile}${p.square}` } },
        tileShapes(table, p.tile));
      if (fresh !== null && index >= fresh) {
        const delay = (index - fresh) * 420;
        g.classList.add('fresh');
        g.style.animationDelay = `${delay}ms`;
        const ring = s('rect', { class: 'm-ring', x: x + 3, y: y + 3, width: 94, height: 94, rx: 8 });
        ring.style.stroke = seatColour(placers[index]);
        ring.style.animationDelay = `${delay}ms`;
        layers.rings.append(ring);
      }
      tiles[p.square] = g;
      layers.tiles.append(g);
    });
    shown = sequence;
    for (const [name, cell] of Object.entries(cells)) cell.classList.toggle('occupied', !!tiles[name]);
  }

  /** Colours each line's tracks by the owner of its station (state.lines). */
  function setLines(list) {
    lines = list || [];
    for (const g of Object.values(tiles)) {
      g.querySelectorAll('.m-track').forEach((t) => {
        t.removeAttribute('data-station');
        t.removeAttribute('style');
        t.classList.remove('owned', 'finished');
      });
    }
    for (const line of lines) {
      const colour = seatColour(line.owner);
      const finished = line.end.kind !== 'unfinished';
      line.squares.forEach((sq, i) => {
        const track = tiles[sq]?.querySelector(`.m-track[data-entry="${2 * line.entries[i]}"]`);
        if (!track) return;
        track.dataset.station = line.station;
        track.style.stroke = colour;
        track.classList.add('owned');
        track.classList.toggle('finished', finished);
      });
      const marker = stations[line.station];
      if (marker) {
        marker.g.classList.toggle('finished', finished);
        marker.g.dataset.points = line.points;
      }
    }
  }

  /** Highlights one station's line (or none) and shows its points by its station. */
  function highlight(station) {
    svg.querySelectorAll('.hot').forEach((el) => el.classList.remove('hot'));
    badge.replaceChildren();
    svg.classList.toggle('has-hot', station !== null && station !== undefined);
    if (station === null || station === undefined) return;
    const line = lines.find((l) => l.station === Number(station));
    if (!line) return;
    svg.querySelectorAll(`.m-track[data-station="${line.station}"]`).forEach((t) => t.classList.add('hot'));
    stations[line.station]?.g.classList.add('hot');
    if (line.end.kind === 'station') stations[line.end.station]?.g.classList.add('hot');
    if (line.end.kind === 'centre') hub.classList.add('hot');
    const spot = stations[line.station];
    const text = line.end.kind === 'centre' ? `${line.length}×2 = ${line.points}` : line.end.kind === 'station' ? `${line.points}` : `${line.length} ${line.length === 1 ? 'tile' : 'tiles'}, unfinished`;
    const w = 16 + text.length * 15;
    const bx = Math.min(Math.max(spot.cx, -MARGIN + w / 2 + 4), SIZE + MARGIN - w / 2 - 4);
    const by = spot.upright ? spot.cy - 50 : (spot.cy < 0 ? spot.cy + 52 : spot.cy - 52);
    badge.append(s('rect', { class: 'm-badge-bg', x: bx - w / 2, y: by - 19, width: w, height: 36, rx: 18 }),
      s('text', { class: 'm-badge-text', x: bx, y: by + 8, 'text-anchor': 'middle' }, text));
    badge.firstChild.style.fill = seatColour(line.owner);
  }

  function setLegal(squares) {
    layers.legal.replaceChildren();
    for (const sq of squares || []) {
      const [x, y] = xy(sq);
      layers.legal.append(s('rect', { class: 'm-legal', x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 9, dataset: { square: sq } }));
    }
    svg.classList.toggle('has-legal', !!(squares && squares.length));
  }

  /** A translucent tile where it would go (or nothing). */
  function setDrop(square, tile, legal) {
    layers.drop.replaceChildren();
    if (!square) return;
    const [x, y] = xy(square);
    const g = s('g', { class: `m-drop ${legal ? 'legal' : 'illegal'}`, transform: `translate(${x},${y})` });
    if (tile) g.append(tileShapes(table, tile));
    g.append(s('rect', { class: 'm-drop-frame', x: 3, y: 3, width: 94, height: 94, rx: 8 }));
    layers.drop.append(g);
  }

  /** The square under a point on the screen (null off the board or on the central station). */
  function squareAt(clientX, clientY) {
    const at = gridSquareAt(svg, clientX, clientY, CELL, 8);
    return at && `${at[0]}${at[1]}`;
  }

  /** The station whose line or marker is under an event's target, if any. */
  function stationAt(target) {
    const el = target?.closest?.('[data-station]');
    return el && svg.contains(el) ? Number(el.dataset.station) : null;
  }

  /** Shakes a square where a drop was refused. */
  function flash(square) {
    flashClass(cells[square], 'refused');
  }

  return { svg, cells, setOwners, setSequence, setLines, highlight, setLegal, setDrop, squareAt, stationAt, flash };
}
