// The Metro rules page: a turn (draw, keep, the forced second placement), the legal-placement
// rules with pictures of legal and illegal placements, scoring with a drawn example line
// (doubled at the centre), the station owners for 2 to 6 players, and every tile. Every
// picture is drawn from the engine: tiles from its track table (GET /api/metro/tiles), the
// example lines and the verdicts on the example placements from the viewer
// (GET /api/metro/view), so the page never states a rule the engine does not apply.

import { tileNameCapital } from './names.js';
import { h, fill, s, swatch } from '../core/dom.js';
import { rulesTabs } from '../core/tabs.js';
import { metroApi } from './api.js';
import { createMetroBoard, describeLine, seatColour, tileMention, tileSvg } from './draw.js';

/** The placing rules listed on the page, by the engine's name of each: its number there and name. */
const RULES = {
  occupied: 'Rule 1: a free square',
  centre: 'Rule 1: a free square',
  not_touching: 'Rule 2: touching',
  avoidable_station_link: 'Rule 3: no avoidable short link',
};

/**
 * The engine's verdict on an illegal placement in people's words: why (from its rule's name,
 * with the stations and the square its sentence names, a square as the board shows it), the
 * rule of the page's list it breaks, and `instead`, the square it names where the tile would
 * be legal (or null).
 */
export function illegalWords(illegal) {
  const instead = /such as \((\d),\s*(\d)\)/.exec(illegal.reason);
  const square = instead ? `${instead[1]}${instead[2]}` : null;
  let why;
  switch (illegal.name) {
    case 'occupied':
      why = 'a tile is already there';
      break;
    case 'centre':
      why = 'the four middle squares are the central station, where no tile goes';
      break;
    case 'not_touching':
      why = 'the square is not on the edge of the board, and no tile is next to it';
      break;
    case 'avoidable_station_link': {
      const link = /links (station \d+) to (itself|station \d+)/.exec(illegal.reason);
      why = `${link ? `a track would link ${link[1]} to ${link[2]}` : 'a track would link a station to a station'} within this one tile, and the tile fits elsewhere without that${square ? ` (on square ${square}, for one)` : ''}`;
      break;
    }
    default:
      why = illegal.reason;
  }
  return { why, rule: RULES[illegal.name] || null, instead: square };
}

/** A square's number drawn again over the tile on it: the words name the square by it. */
function nameSquare(board, square) {
  board.svg.append(s('text', {
    class: 'm-cell-label m-cell-label-over', x: Number(square[1]) * 100 + 92, y: Number(square[0]) * 100 + 92, 'text-anchor': 'end',
  }, square));
}

/**
 * A small board showing a sequence, with the engine's verdict on its last placement in words.
 * `label` names the board for screen readers; `caption` (parts) says the example under it.
 */
function example(table, view, { players = 2, label, caption, id }) {
  const board = createMetroBoard(table, { label, players });
  // Its squares' numbers large enough to read: the words name squares by them.
  board.svg.classList.add('m-example-board', 'm-named-squares');
  // The examples are all in the top-left corner: show that part of the board, larger.
  board.svg.setAttribute('viewBox', '-44 -44 544 344');
  const legal = view.steps.length - 1;
  board.setSequence(view.placements.slice(0, legal).join(''));
  board.setLines(view.steps[legal].lines);
  let verdict;
  if (view.illegal) {
    const p = view.placements[view.illegal.index];
    const { why, rule, instead } = illegalWords(view.illegal);
    // The square where the tile would be legal, lit as the game lights one.
    if (instead) board.setLegal([instead]);
    board.setDrop(p.slice(4, 6), p.slice(0, 4), false);
    nameSquare(board, p.slice(4, 6));
    verdict = h('p', { class: 'verdict illegal' }, h('strong', {}, 'Illegal: '), `${why}. `, rule ? h('span', { class: 'rule-chip' }, rule) : null);
  } else {
    const last = view.placements[view.placements.length - 1];
    if (last) {
      board.setDrop(last.slice(4, 6), null, true);
      nameSquare(board, last.slice(4, 6));
    }
    verdict = h('p', { class: 'verdict legal' }, h('strong', {}, 'Legal.'));
  }
  return h('figure', { class: 'm-example', id }, board.svg, h('figcaption', {}, caption, ' ', verdict));
}

/** `/rules/metro`. */
export async function metroRulesScreen(root, { setTitle }) {
  setTitle('Metro rules');
  fill(root, h('p', { class: 'loading' }, 'Loading the rules…'));
  const view = metroApi.view;
  let table;
  let views;
  try {
    [table, ...views] = await Promise.all([
      metroApi.tiles(),
      view(2, 'aaaa03aaaa13'), // touching: legal
      view(2, 'aaaa03aaaa11'), // not touching: illegal
      view(2, 'cccc01'), // a border square, no short track: legal
      view(2, 'cccc00'), // an avoidable one-tile link of stations 8 and 9: illegal
      view(4, 'aaaa03aaaa13aaaa23'), // station 5's line into the centre, doubled
      view(2, 'badb01baac02dbba10bcbc00'), // a line through one tile twice
    ]);
  } catch (e) {
    fill(root, h('p', { class: 'form-error', role: 'alert' }, e.message));
    return () => {};
  }
  const [touching, notTouching, border, corner, centre, twice] = views;

  // An example's words: the tile by its name, with its picture, then where it goes.
  const placed = (code, where) => ({ label: `${tileNameCapital(table, code)}${where}`, caption: [tileMention(table, code, { capital: true }), where] });

  // Scoring: the example lines, drawn and highlighted.
  const lineExample = (view, label, players, station) => {
    const board = createMetroBoard(table, { label, players });
    board.svg.classList.add('m-example-board');
    board.setSequence(view.placements.join(''));
    const lines = view.steps[view.steps.length - 1].lines;
    board.setLines(lines);
    board.highlight(station);
    return [board, lines.find((l) => l.station === station)];
  };
  const [scoring, five] = lineExample(centre, 'Station 5’s line into the centre', 4, 5);
  const [loop, nine] = lineExample(twice, 'Station 9’s line through one tile twice', 2, 9);

  // Owners for 2 to 6 players.
  const owners = [2, 3, 4, 5, 6].map((n) => {
    const b = createMetroBoard(table, { label: `Station owners with ${n} players`, players: n });
    b.svg.classList.add('m-owner-board');
    return h('figure', { class: 'm-owners', dataset: { players: n } }, b.svg,
      h('figcaption', {}, h('strong', {}, `${n} players`),
        h('span', { class: 'm-owner-legend' }, Array.from({ length: n }, (_, i) => h('span', {}, swatch(seatColour(i)), `P${i + 1}`)),
          table.owners[n - 2].some((o) => o === null) ? h('span', {}, swatch(seatColour(null)), 'nobody') : null)));
  });

  const tiles = table.tiles.map((t) => h('figure', { class: 'tile-card m-tile-card', dataset: { tile: t.code } },
    tileSvg(table, t.code),
    h('figcaption', { title: `tile ${t.code}` }, h('strong', {}, tileNameCapital(table, t.code)), h('span', { class: 'edges' }, `${t.copies} in the deck`))));

  fill(root, h('article', { class: 'rules m-rules', id: 'metro-rules' },
    h('div', { class: 'viewer-head' }, h('h1', {}, 'How to play Metro'), rulesTabs('metro')),
    h('p', { class: 'lead' }, `Two to six players lay ${table.deck} square tiles on one shared 8×8 board. Every tile carries four tracks. Each player owns some of the 32 stations around the edge, and scores the line that starts at each of them: a point for every tile it runs through, double if it reaches the central station.`),
    h('p', { class: 'tutorial-link' }, 'New to Metro? ', h('a', { href: '/tutorial/metro', 'data-link': '', id: 'tutorial-link' }, 'Learn it in six steps'), ', in a real game against the computer.'),
    h('h2', {}, 'A turn'),
    h('ol', {},
      h('li', {}, h('strong', {}, 'Empty hand: '), 'draw a tile. Place it, or keep it in your hand and draw a second tile, which you must place at once.'),
      h('li', {}, h('strong', {}, 'Holding a tile: '), 'place it (your hand is empty again), or draw a new tile and place that one at once, keeping the one you hold.'),
      h('li', {}, 'A hand never holds more than one tile, and every turn places exactly one tile. When the deck runs out you must place the tile you hold; with nothing to draw or hold, you pass.'),
      h('li', {}, `Tiles are never turned: a tile always lies with its top side up. The game ends when all ${table.deck} tiles are on the board, which is then full.`)),
    h('h2', {}, 'Where a tile may go'),
    h('ol', {},
      h('li', {}, h('strong', {}, 'A free square, '), 'never one of the four centre squares (the central station).'),
      h('li', {}, h('strong', {}, 'Touching: '), 'a square on the edge of the board, or next to a tile already placed (side by side, not diagonally; the central station does not count).'),
      h('li', {}, h('strong', {}, 'No avoidable short link: '), 'a tile may not lead a station’s track straight back to a station (itself, or the other station of a corner) within the one tile, unless that tile has no other free touching square where it would not.')),
    h('p', {}, 'In these examples a square is named by the number in its corner, as on every board: its row, then its column, counted from 0 at the top left.'),
    h('div', { class: 'm-examples' },
      example(table, touching, { ...placed('aaaa', ' on square 13, next to a tile.'), id: 'example-touching' }),
      example(table, notTouching, { ...placed('aaaa', ' on square 11, touching nothing.'), id: 'example-not-touching' }),
      example(table, border, { ...placed('cccc', ' on square 01, on the edge.'), id: 'example-border' }),
      example(table, corner, { ...placed('cccc', ' on square 00, in the corner between stations 8 and 9.'), id: 'example-corner' })),
    h('h2', {}, 'Scoring'),
    h('p', {}, 'Each of the 32 stations starts a line. It enters the tile in front of the station and follows the tracks from tile to tile. A line that ends at a station (any, its own too) scores a point for every tile it ran through; one that reaches the central station scores double. A line that runs into an empty square scores nothing yet, and a tile passed twice counts twice. Each line scores for the owner of the station it starts from. Scores can be counted at any time; the highest at the end wins, and equal scores share the win.'),
    h('div', { class: 'm-examples two' },
      h('figure', { class: 'm-example', id: 'example-centre' }, scoring.svg,
        h('figcaption', {}, `Four players: ${five ? describeLine(five, null).text : ''}.`)),
      h('figure', { class: 'm-example', id: 'example-twice' }, loop.svg,
        h('figcaption', {}, `Two players: ${nine ? describeLine(nine, null).text : ''}, passing the corner tile twice.`))),
    h('h2', {}, 'Who owns which station'),
    h('p', {}, 'The stations are shared out by the number of players, every player’s spread around the board. With 3, 5 or 6 players, stations 16 and 17 belong to nobody; lines may still end there.'),
    h('div', { class: 'm-owner-grid' }, owners),
    h('h2', {}, 'The tiles'),
    h('p', {}, `The deck has ${table.tiles.length} kinds of tile, ${table.deck} tiles in all. Each track enters through one side and leaves through another (or turns back on the same side).`),
    h('div', { class: 'tile-grid m-tile-grid' }, tiles),
    h('p', {}, h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'Play now'), ' ',
      h('a', { class: 'btn', href: '/tutorial/metro', 'data-link': '' }, 'The tutorial'), ' ',
      h('a', { class: 'btn', href: '/view/metro', 'data-link': '' }, 'Try placements in the viewer'))));
  return () => {};
}
