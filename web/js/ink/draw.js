// Tiles and boards as SVG, drawn from the engine's edge table (GET /api/ink/tiles): a tile in
// an orientation is drawn from its edges [N, E, S, W] in that orientation, so the picture
// always agrees with the rules.

import { flashClass, gridSquareAt, s } from '../core/dom.js';

export const SIDES = ['N', 'E', 'S', 'W'];
export const ROWS = 'ABCDEFG';
const MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const OPPOSITE = { N: 'S', S: 'N', E: 'W', W: 'E' };
const CELL = 100;
const MARGIN = 46;

/** The tile's entry in the table. */
export function tileInfo(table, tile) {
  return table.tiles.find((t) => t.tile === tile);
}

const DIRECTION = { N: 'north', E: 'east', S: 'south', W: 'west' };
/** The tiles of the Deep Blue expansions' dice (river V, lake L) and the flooded square (F). */
const WATER_SOURCES = new Set(['V', 'L', 'F']);

/** Whether a tile is one of an expansion's (a river or lake tile, or the flooded square). */
export function isWaterTile(tile) {
  return WATER_SOURCES.has(tile[0]);
}
const COUNT = ['no', 'one', 'two', 'three', 'four'];

/**
 * A tile in words, from the table's kind and edges (never a rule of its own), one name a tile
 * that a person can say: "railway curve", "straight station from highway to railway",
 * "station of three highways and a railway", "station where a highway crosses a railway".
 */
export function tileWords(table, tile) {
  const info = tileInfo(table, tile);
  if (!info) return tile;
  // The expansions' tiles (river, lake, the flooded square): the engine's own name.
  if (!info.station || WATER_SOURCES.has(info.source)) return info.kind;
  const e = info.edges[0];
  const hw = e.filter((x) => x === 'highway').length;
  const rw = e.filter((x) => x === 'railway').length;
  const facing = (route) => (e.indexOf(route) + 2) % 4 === e.lastIndexOf(route);
  if (hw === 1 && rw === 1) {
    const straight = (e.indexOf('highway') + 2) % 4 === e.indexOf('railway');
    return `${straight ? 'straight' : 'corner'} station from highway to railway`;
  }
  if (hw === 2 && rw === 2) {
    return facing('highway') ? 'station where a highway crosses a railway' : 'station joining a highway corner and a railway corner';
  }
  const n = (k, what) => (k === 1 ? `a ${what}` : `${COUNT[k]} ${what}s`);
  return `station of ${n(hw, 'highway')} and ${n(rw, 'railway')}`;
}

/** A side in words ("north"). */
export function sideWords(side) {
  return DIRECTION[side] || side;
}

/** A tile's open ends in an orientation, in words: "highway to north and south, railway to east". */
export function openEnds(table, tile, orientation) {
  const info = tileInfo(table, tile);
  if (!info) return '';
  const edges = info.edges[orientation];
  const part = (route) => {
    const sides = SIDES.filter((_, i) => edges[i] === route).map((x) => DIRECTION[x]);
    if (!sides.length) return null;
    const list = sides.length === 1 ? sides[0] : `${sides.slice(0, -1).join(', ')} and ${sides[sides.length - 1]}`;
    return `${route} to ${list}`;
  };
  return ['highway', 'railway', 'river', 'lake'].map(part).filter(Boolean).join(', ');
}

/** A placement ("A1D30") in words: "railway straight on D3, railway to north and south". */
export function placementWords(table, text) {
  const tile = text.slice(0, 2);
  const orientation = Number(text[4]);
  return `${tileWords(table, tile)} on ${text.slice(2, 4)}, ${openEnds(table, tile, orientation)}`;
}

function toCentre(side) {
  const [x, y] = MID[side];
  return `M${x},${y} L50,50`;
}

/** The path of a set of joined route edges of one type. */
function routePath(sides) {
  if (sides.length === 1) return toCentre(sides[0]);
  if (sides.length === 2) {
    const [a, b] = sides;
    const [ax, ay] = MID[a];
    const [bx, by] = MID[b];
    if (OPPOSITE[a] === b) return `M${ax},${ay} L${bx},${by}`;
    return `M${ax},${ay} Q50,50 ${bx},${by}`;
  }
  return sides.map(toCentre).join(' ');
}

/** A highway: wide grey road with a dashed white centre line. */
function highway(g, d, junction) {
  g.append(s('path', { class: 'hw-edge', d }));
  if (junction) g.append(s('rect', { class: 'hw-edge-fill', x: 31, y: 31, width: 38, height: 38 }));
  g.append(s('path', { class: 'hw', d }));
  if (junction) g.append(s('rect', { class: 'hw-fill', x: 34, y: 34, width: 32, height: 32 }));
  g.append(s('path', { class: 'hw-line', d }));
}

/** A railway: a thin dark line with cross ties. */
function railway(g, d, junction) {
  g.append(s('path', { class: 'rw-ties', d }));
  g.append(s('path', { class: 'rw', d }));
  if (junction) g.append(s('circle', { class: 'rw-node', cx: 50, cy: 50, r: 5 }));
}

/**
 * Open water on the lake sides of a tile: a band along each lake side (two neighbouring bands
 * fill the corner between them), so that water meets water across the tile's edge. A tile all
 * of water (the flooded square) is water from edge to edge.
 */
function lakeWater(g, sides) {
  if (!sides.length) return;
  if (sides.length === 4) {
    g.append(s('rect', { class: 'lake', x: 1.5, y: 1.5, width: 97, height: 97, rx: 7 }));
    return;
  }
  const band = { N: [0, 0, 100, 42], S: [0, 58, 100, 42], W: [0, 0, 42, 100], E: [58, 0, 42, 100] };
  for (const side of sides) {
    const [x, y, width, height] = band[side];
    g.append(s('rect', { class: 'lake', x: Math.max(x, 1.5), y: Math.max(y, 1.5), width: Math.min(width, 98.5 - Math.max(x, 1.5)), height: Math.min(height, 98.5 - Math.max(y, 1.5)), rx: 6 }));
  }
  // The shore: a light wave line along the water's edge.
  for (const side of sides) {
    const d = { N: 'M10,38 q10,-6 20,0 t20,0 t20,0 t20,0', S: 'M10,62 q10,6 20,0 t20,0 t20,0 t20,0', W: 'M38,10 q-6,10 0,20 t0,20 t0,20 t0,20', E: 'M62,10 q6,10 0,20 t0,20 t0,20 t0,20' }[side];
    g.append(s('path', { class: 'lake-wave', d }));
  }
}

/** A river: a blue band with a lighter current, from each river side to the middle. */
function river(g, d) {
  g.append(s('path', { class: 'river-bank', d }));
  g.append(s('path', { class: 'river', d }));
  g.append(s('path', { class: 'river-current', d }));
}

/** The shapes of a tile in an orientation, in a 100×100 box. */
export function tileShapes(info, orientation, { background = true } = {}) {
  const edges = info.edges[orientation];
  const g = s('g', { class: `tile tile-${info.tile}` });
  if (background) g.append(s('rect', { class: 'tile-bg', x: 1.5, y: 1.5, width: 97, height: 97, rx: 7 }));
  const hw = SIDES.filter((_, i) => edges[i] === 'highway');
  const rw = SIDES.filter((_, i) => edges[i] === 'railway');
  const rv = SIDES.filter((_, i) => edges[i] === 'river');
  const lk = SIDES.filter((_, i) => edges[i] === 'lake');
  lakeWater(g, lk);
  if (rv.length) {
    river(g, routePath(rv));
    if (hw.length || rw.length) {
      // A bridge: the route crosses the river on a deck; the two never join.
      const vertical = hw[0] === 'N' || hw[0] === 'S' || rw[0] === 'N' || rw[0] === 'S';
      const deck = vertical ? { x: 26, y: 16, width: 48, height: 68 } : { x: 16, y: 26, width: 68, height: 48 };
      g.append(s('rect', { class: 'bridge-shadow', ...deck, rx: 4 }));
      if (hw.length) highway(g, routePath(hw), false);
      if (rw.length) railway(g, routePath(rw), false);
      const rails = vertical ? ['M28,18 L28,82', 'M72,18 L72,82'] : ['M18,28 L82,28', 'M18,72 L82,72'];
      for (const d of rails) g.append(s('path', { class: 'bridge-rail', d }));
    }
    return g;
  }
  if (lk.length && !info.station && (hw.length || rw.length)) {
    // A pier: the route runs out onto the water and ends there.
    if (hw.length) highway(g, hw.map(toCentre).join(' '), false);
    if (rw.length) railway(g, rw.map(toCentre).join(' '), false);
    g.append(s('circle', { class: 'pier-end', cx: 50, cy: 50, r: 10 }));
    return g;
  }
  if (info.overpass) {
    // The railway passes under; the highway crosses it on a bridge.
    railway(g, routePath(rw), false);
    const [a, b] = hw;
    const vertical = a === 'N' || a === 'S';
    const deck = vertical
      ? { x: 24, y: 20, width: 52, height: 60 }
      : { x: 20, y: 24, width: 60, height: 52 };
    g.append(s('rect', { class: 'bridge-shadow', ...deck, rx: 4 }));
    highway(g, routePath([a, b]), false);
    const rails = vertical
      ? ['M28,22 L28,78', 'M72,22 L72,78']
      : ['M22,28 L78,28', 'M22,72 L78,72'];
    for (const d of rails) g.append(s('path', { class: 'bridge-rail', d }));
    return g;
  }
  if (info.station) {
    if (rw.length) railway(g, rw.map(toCentre).join(' '), false);
    if (hw.length) highway(g, hw.map(toCentre).join(' '), false);
    g.append(s('rect', { class: 'station', x: 33, y: 33, width: 34, height: 34, rx: 4 }));
    g.append(s('path', { class: 'station-roof', d: 'M39,49 L50,40 L61,49' }));
    g.append(s('rect', { class: 'station-door', x: 46, y: 51, width: 8, height: 10 }));
    return g;
  }
  if (hw.length) highway(g, routePath(hw), hw.length > 2);
  if (rw.length) railway(g, routePath(rw), rw.length > 2);
  return g;
}

/** A stand-alone tile picture. */
export function tileSvg(table, tile, orientation = 0, attrs = {}) {
  const info = tileInfo(table, tile);
  return s('svg', { viewBox: '0 0 100 100', class: 'tile-svg', role: 'img', 'aria-label': tileWords(table, tile), ...attrs },
    tileShapes(info, orientation));
}

export function squareName(row, col) {
  return `${ROWS[row]}${col}`;
}

export function squareXY(square) {
  return [Number(square[1]) * CELL, ROWS.indexOf(square[0]) * CELL];
}

function centreOf(square) {
  const [x, y] = squareXY(square);
  return [x + 50, y + 50];
}

/** Parses a board string into placements [{tile, square, orientation, text}]. */
export function placements(board) {
  const out = [];
  for (let i = 0; i + 5 <= board.length; i += 5) {
    out.push({ text: board.slice(i, i + 5), tile: board.slice(i, i + 2), square: board.slice(i + 2, i + 4), orientation: Number(board[i + 4]) });
  }
  return out;
}

/** Splits the server's legal-squares string ("A1D0") into squares. */
export function legalSquares(text) {
  const out = [];
  for (let i = 0; i + 2 <= (text || '').length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

// No red: red is the colour of errors.
const NETWORK_COLOURS = ['#3a66d6', '#1f9d55', '#f08c00', '#9b3fc1', '#0fa3b1', '#7a9a01', '#8b5e34', '#5c6bc0', '#b08900', '#495057'];

function exitStub(exit) {
  const [x0, y0] = squareXY(exit.square);
  const len = MARGIN - 6;
  const p = {
    N: [x0 + 50, y0, x0 + 50, y0 - len],
    S: [x0 + 50, y0 + CELL, x0 + 50, y0 + CELL + len],
    W: [x0, y0 + 50, x0 - len, y0 + 50],
    E: [x0 + CELL, y0 + 50, x0 + CELL + len, y0 + 50],
  }[exit.side];
  return { d: `M${p[0]},${p[1]} L${p[2]},${p[3]}`, end: [p[2], p[3]], start: [p[0], p[1]] };
}

/**
 * A board: the 7×7 grid with the centre shaded and the 12 exits, and layers for tiles,
 * legal squares, hints and the score breakdown. Returns {svg, setBoard, setLegal, ...}.
 */
export function createBoard(table, { label = 'Board', interactive = false } = {}) {
  const size = 7 * CELL;
  // A grid of 49 named squares for assistive technology (each says what is on it and its open
  // ends); the pictures are hidden from it. On your own board the squares take the keyboard's
  // focus, one at a time (the cursor: arrows move it).
  const svg = s('svg', {
    class: `board${interactive ? ' interactive' : ''}`,
    viewBox: `${-MARGIN} ${-MARGIN} ${size + 2 * MARGIN} ${size + 2 * MARGIN}`,
    role: 'grid',
    'aria-label': label,
    'aria-readonly': interactive ? null : 'true',
    // The board itself is no Tab stop: its cursor square is.
    tabindex: interactive ? '-1' : null,
  });
  const hidden = (el) => { el.setAttribute('aria-hidden', 'true'); return el; };
  svg.append(hidden(s('rect', { class: 'board-frame', x: -MARGIN + 2, y: -MARGIN + 2, width: size + 2 * MARGIN - 4, height: size + 2 * MARGIN - 4, rx: 18 })));
  svg.append(hidden(s('rect', { class: 'board-bg', x: 0, y: 0, width: size, height: size, rx: 4 })));
  const centre = new Set(table.centre);
  const grid = s('g', { class: 'grid', role: 'rowgroup' });
  const cells = {};
  for (let row = 0; row < 7; row++) {
    const rowEl = s('g', { role: 'row', 'aria-label': `Row ${ROWS[row]}` });
    for (let col = 0; col < 7; col++) {
      const name = squareName(row, col);
      const cell = s('rect', {
        class: `cell${centre.has(name) ? ' centre' : ''}`,
        x: col * CELL, y: row * CELL, width: CELL, height: CELL,
        role: 'gridcell',
        tabindex: interactive ? (name === 'D3' ? '0' : '-1') : null,
        dataset: { square: name },
      });
      cells[name] = cell;
      rowEl.append(cell);
      rowEl.append(hidden(s('text', { class: 'cell-label', x: col * CELL + 92, y: row * CELL + 92, 'text-anchor': 'end' }, name)));
    }
    grid.append(rowEl);
  }
  svg.append(grid);
  svg.append(hidden(s('rect', { class: 'centre-outline', x: 2 * CELL, y: 2 * CELL, width: 3 * CELL, height: 3 * CELL })));
  const exits = hidden(s('g', { class: 'exits' }));
  const exitsAt = {};
  for (const exit of table.exits) {
    const { d, end } = exitStub(exit);
    (exitsAt[exit.square] ||= []).push(`${exit.route} exit to the ${sideWords(exit.side)}`);
    const g = s('g', { class: `exit exit-${exit.route}`, dataset: { exit: `${exit.square}${exit.side}` } });
    if (exit.route === 'highway') highway(g, d, false);
    else railway(g, d, false);
    g.append(s('circle', { class: 'exit-cap', cx: end[0], cy: end[1], r: 7 }));
    exits.append(g);
  }
  svg.append(exits);
  const layers = {};
  for (const name of ['legal', 'tiles', 'networks', 'centre-marks', 'longest', 'water', 'errors', 'hint', 'drop', 'cursor']) {
    layers[name] = hidden(s('g', { class: `layer layer-${name}` }));
    svg.append(layers[name]);
  }

  const onSquare = {};
  let legalSet = new Set();
  let legalWhat = '';
  /** Each square's name: "B3: railway curve, railway to north and east", "A1: empty, highway exit to the north". */
  function labelCells() {
    for (const [name, cell] of Object.entries(cells)) {
      const parts = [onSquare[name] || 'empty'];
      if (!onSquare[name] && exitsAt[name]) parts.push(...exitsAt[name]);
      if (centre.has(name)) parts.push('centre square');
      if (legalSet.has(name)) parts.push(`${legalWhat || 'the selected tile'} fits here`);
      cell.setAttribute('aria-label', `${name}: ${parts.join(', ')}`);
    }
  }
  labelCells();

  let current = null;
  // The flooded squares drawn last (a square newly flooded is shown filling with water).
  let floodedBefore = null;

  /**
   * Draws a board string; its last `recent` placements (this round's) are marked. `flooded`:
   * the squares the engine has flooded (never in the board string), drawn as water.
   */
  function setBoard(board, { recent = 0, flooded = [] } = {}) {
    const key = `${board}|${recent}|${flooded.join('')}`;
    if (key === current) return;
    current = key;
    layers.tiles.replaceChildren();
    const occupied = new Set();
    const fresh = new Set(floodedBefore === null ? [] : flooded.filter((sq) => !floodedBefore.has(sq)));
    floodedBefore = new Set(flooded);
    const floodInfo = tileInfo(table, 'F0');
    for (const sq of flooded) {
      const [x, y] = squareXY(sq);
      const g = s('g', { class: `placed flooded${fresh.has(sq) ? ' fresh-flood' : ''}`, transform: `translate(${x},${y})`, dataset: { square: sq, flooded: '' } },
        floodInfo ? tileShapes(floodInfo, 0) : s('rect', { class: 'lake', x: 1.5, y: 1.5, width: 97, height: 97, rx: 7 }));
      layers.tiles.append(g);
      occupied.add(sq);
      onSquare[sq] = 'flooded by the lakes around it (water, no tile may go here)';
    }
    const all = placements(board);
    for (const [i, p] of all.entries()) {
      const [x, y] = squareXY(p.square);
      const info = tileInfo(table, p.tile);
      const fresh = i >= all.length - recent;
      const g = s('g', { class: `placed${fresh ? ' this-round' : ''}`, transform: `translate(${x},${y})`, dataset: { square: p.square, placement: p.text } },
        tileShapes(info, p.orientation));
      if (fresh) g.append(s('rect', { class: 'this-round-mark', x: 3, y: 3, width: 94, height: 94, rx: 8 }));
      layers.tiles.append(g);
      occupied.add(p.square);
      onSquare[p.square] = `${tileWords(table, p.tile)}, ${openEnds(table, p.tile, p.orientation)}`;
    }
    for (const [name, cell] of Object.entries(cells)) {
      cell.classList.toggle('occupied', occupied.has(name));
      if (!occupied.has(name)) delete onSquare[name];
    }
    labelCells();
  }

  /** Where the keyboard's cursor is (drawn on top of the tiles while the board has focus). */
  let cursorAt = interactive ? 'D3' : null;
  function setCursor(square, { focus = false } = {}) {
    if (!cells[square]) return;
    if (cursorAt && cells[cursorAt]) cells[cursorAt].setAttribute('tabindex', '-1');
    cursorAt = square;
    cells[square].setAttribute('tabindex', '0');
    const [x, y] = squareXY(square);
    layers.cursor.replaceChildren(
      s('rect', { class: 'cursor-outer', x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }),
      s('rect', { class: 'cursor', x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 4, dataset: { square } }));
    if (focus) cells[square].focus({ preventScroll: false });
  }
  if (interactive) {
    setCursor('D3');
    svg.addEventListener('focusin', (ev) => {
      const sq = ev.target.dataset?.square;
      if (sq && sq !== cursorAt) setCursor(sq);
    });
  }

  /** The legal squares of the selected tile (`what`: its words, for the squares' names). */
  function setLegal(squares, what = '') {
    legalSet = new Set(squares || []);
    legalWhat = what;
    labelCells();
    layers.legal.replaceChildren();
    for (const sq of squares || []) {
      const [x, y] = squareXY(sq);
      layers.legal.append(s('rect', { class: 'legal', x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, dataset: { square: sq } }));
    }
    svg.classList.toggle('has-legal', !!(squares && squares.length));
  }

  /** A translucent tile where it would go (or nothing). */
  function setDrop(square, tile, orientation, legal) {
    layers.drop.replaceChildren();
    if (!square) return;
    const [x, y] = squareXY(square);
    const g = s('g', { class: `drop ${legal ? 'drop-legal' : 'drop-illegal'}`, transform: `translate(${x},${y})` });
    if (tile) g.append(tileShapes(tileInfo(table, tile), orientation));
    g.append(s('rect', { class: 'drop-frame', x: 2, y: 2, width: 96, height: 96, rx: 8 }));
    layers.drop.append(g);
  }

  function setHint(list) {
    layers.hint.replaceChildren();
    (list || []).forEach((text, i) => {
      const p = placements(text)[0];
      const [x, y] = squareXY(p.square);
      const g = s('g', { class: 'hint-tile', transform: `translate(${x},${y})`, dataset: { placement: text } }, tileShapes(tileInfo(table, p.tile), p.orientation));
      g.append(s('circle', { class: 'hint-badge', cx: 16, cy: 16, r: 13 }));
      g.append(s('text', { class: 'hint-number', x: 16, y: 21, 'text-anchor': 'middle' }, String(i + 1)));
      layers.hint.append(g);
    });
  }

  /** Draws a score breakdown: networks with their exits, errors, centre squares, longest routes. */
  function setBreakdown(breakdown) {
    for (const name of ['networks', 'centre-marks', 'longest', 'water', 'errors']) layers[name].replaceChildren();
    if (!breakdown) return;
    breakdown.networks.forEach((network, i) => {
      if (!network.exits.length) return;
      const colour = NETWORK_COLOURS[i % NETWORK_COLOURS.length];
      const g = s('g', { class: 'network', dataset: { network: i } });
      for (const piece of network.pieces) {
        const [x, y] = squareXY(piece.square);
        g.append(s('rect', { class: `network-piece${piece.route ? ' half' : ''}`, x: x + 4, y: y + 4, width: 92, height: 92, rx: 10, fill: colour, stroke: colour }));
      }
      network.exits.forEach((exit, k) => {
        const { end } = exitStub(exit);
        g.append(s('circle', { class: 'network-exit', cx: end[0], cy: end[1], r: 15, fill: colour }));
        if (k === 0 && network.points > 0) {
          g.append(s('text', { class: 'network-points', x: end[0], y: end[1] + 6, 'text-anchor': 'middle' }, String(network.points)));
        }
      });
      layers.networks.append(g);
    });
    for (const sq of breakdown.centre) {
      const [x, y] = squareXY(sq);
      layers['centre-marks'].append(s('path', {
        class: 'centre-mark',
        d: `M${x + 84},${y + 6} l3.5,7 7.5,1 -5.5,5.2 1.4,7.6 -6.9,-3.7 -6.9,3.7 1.4,-7.6 -5.5,-5.2 7.5,-1z`,
      }));
    }
    const trace = (squares, cls, offset) => {
      if (!squares.length) return;
      const points = squares.map((sq) => centreOf(sq).map((v) => v + offset).join(',')).join(' ');
      if (squares.length > 1) layers.longest.append(s('polyline', { class: cls, points }));
      for (const sq of squares) {
        const [cx, cy] = centreOf(sq);
        layers.longest.append(s('circle', { class: `${cls}-dot`, cx: cx + offset, cy: cy + offset, r: 7 }));
      }
    };
    trace(breakdown.longest_highway, 'longest-highway', -9);
    trace(breakdown.longest_railway, 'longest-railway', 9);
    // The expansion's points: the smallest lake outlined, or the best river traced.
    layers.water.replaceChildren();
    const lake = (breakdown.lakes || [])[0];
    if (lake) {
      const g = s('g', { class: 'smallest-lake' });
      for (const sq of lake) {
        const [x, y] = squareXY(sq);
        g.append(s('rect', { class: 'lake-mark', x: x + 6, y: y + 6, width: 88, height: 88, rx: 10 }));
      }
      layers.water.append(g);
    }
    const best = (breakdown.rivers || [])[0];
    if (best) {
      for (const sq of best.squares) {
        const [cx, cy] = centreOf(sq);
        layers.water.append(s('circle', { class: 'river-mark', cx, cy, r: 12 }));
      }
    }
    for (const e of breakdown.river_errors || []) {
      const [x, y] = squareXY(e.square);
      const [mx, my] = { N: [50, 13], E: [87, 50], S: [50, 87], W: [13, 50] }[e.side] || [50, 50];
      const g = s('g', { class: 'error-mark river-error', transform: `translate(${x + mx},${y + my})` });
      g.append(s('circle', { r: 11 }));
      g.append(s('path', { d: 'M-5,-5 L5,5 M5,-5 L-5,5' }));
      layers.errors.append(g);
    }
    for (const error of breakdown.errors) {
      const [x, y] = squareXY(error.square);
      const [mx, my] = { N: [50, 13], E: [87, 50], S: [50, 87], W: [13, 50] }[error.side];
      const g = s('g', { class: 'error-mark', transform: `translate(${x + mx},${y + my})` });
      g.append(s('circle', { r: 11 }));
      g.append(s('path', { d: 'M-5,-5 L5,5 M5,-5 L-5,5' }));
      layers.errors.append(g);
    }
  }

  /** The square under a point on the screen, or null. */
  function squareAt(clientX, clientY) {
    const at = gridSquareAt(svg, clientX, clientY, CELL, 7);
    return at && squareName(...at);
  }

  /** Shakes a square where a drop was refused. */
  function flash(square) {
    flashClass(cells[square], 'refused');
  }

  return { svg, cells, setBoard, setLegal, setDrop, setHint, setBreakdown, squareAt, flash, setCursor, cursor: () => cursorAt };
}

/** The colour of a network, as drawn on the board. */
export function networkColour(i) {
  return NETWORK_COLOURS[i % NETWORK_COLOURS.length];
}

/** "A4 (highway straight) on C4, orientation 3". */
export function describe(table, p) {
  const info = tileInfo(table, p.tile);
  return `${p.tile} (${info ? info.kind : 'tile'}) on ${p.square}, orientation ${p.orientation}`;
}
