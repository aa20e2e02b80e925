// The Railroad Ink rules page (`/rules`): the board, a round, every tile drawn from the engine's
// table (GET /api/ink/tiles) with its edges, the eight ways a tile may lie (in words), and scoring.

import { h, fill } from '../core/dom.js';
import { rulesTabs } from '../core/tabs.js';
import { createBoard, tileSvg, tileWords } from './draw.js';

/** The eight ways a tile may lie, in words (the engine's orientations 0 to 7, in order). */
const TURNS = [
  'As on the die',
  'Turned a quarter to the right',
  'Turned half way round',
  'Turned a quarter to the left',
  'Mirrored (left and right swapped)',
  'Mirrored, then turned a quarter to the right',
  'Mirrored, then turned half way round',
  'Mirrored, then turned a quarter to the left',
];

/** `/rules`. */
export function inkRulesScreen(root, { table, setTitle }) {
  setTitle('Railroad Ink rules');
  const tileCard = (t) => h('figure', { class: 'tile-card', dataset: { tile: t.tile } },
    tileSvg(table, t.tile, 0),
    h('figcaption', {}, h('strong', {}, t.tile), ` ${tileWords(table, t.tile)}`,
      h('span', { class: 'edges' }, ['N', 'E', 'S', 'W'].map((side, i) => `${side} ${edgeWord(t.edges[0][i])}`).join(' · '))));
  const group = (source) => table.tiles.filter((t) => t.source === source).map(tileCard);
  const orientations = h('div', { class: 'orientations', id: 'orientations' },
    TURNS.map((words, o) => h('figure', { class: 'tile-card small' }, tileSvg(table, 'B1', o), h('figcaption', {}, words))));
  const board = createBoard(table, { label: 'The empty board with its exits' });
  board.svg.classList.add('rules-board');
  const points = h('table', { class: 'points' },
    h('tr', {}, h('th', {}, 'Exits in a network'), table.exit_points.map((_, i) => h('td', {}, i))),
    h('tr', {}, h('th', {}, 'Points'), table.exit_points.map((p) => h('td', {}, p))));
  fill(root, h('article', { class: 'rules' },
    h('div', { class: 'viewer-head' }, h('h1', {}, 'How to play Railroad Ink'), rulesTabs('ink')),
    h('p', { class: 'tutorial-link' }, 'New to Railroad Ink? ', h('a', { href: '/tutorial/ink', 'data-link': '', id: 'tutorial-link' }, 'Learn it step by step'), ', each checked by the game as you place it.'),
    h('p', { class: 'lead' }, 'Each player has a 7×7 board with twelve exits on its edge. In each of seven rounds four dice are rolled and every player draws the same four tiles onto their own board. Link exits into networks: the more exits a network joins, the more it scores.'),
    h('section', { class: 'rules-grid' },
      h('div', {},
        h('h2', {}, 'The board'),
        h('p', {}, 'Rows A–G run top to bottom, columns 0–6 left to right: D3 is the middle square. The shaded 3×3 squares in the middle are the centre. Twelve exits sit on the edge: highways (grey, dashed) and railways (dark, with ties).'),
        h('h2', {}, 'A round'),
        h('ol', {},
          h('li', {}, 'Die A is rolled three times and die B once. All players use the same roll.'),
          h('li', {}, 'Place each die\'s tile on an empty square, turned any way, or mirrored and turned: eight ways in all (R or the Rotate button turns it, F or the Flip button mirrors it).'),
          h('li', {}, 'A tile must connect: one of its routes continues a route already on the board or meets an exit of the same kind. A highway may never touch a railway, and a route may not run into an exit of the other kind.'),
          h('li', {}, 'You may undo within the round. The round ends when every die is placed, or when no die left fits anywhere.'))),
      h('div', {}, board.svg)),
    h('h2', {}, 'The tiles'),
    h('p', {}, 'Highways are wide grey roads with a dashed centre line; railways are thin dark lines with ties. Stations (the dark building) are the only places where a highway and a railway join. The overpass carries the highway over the railway: the two do not connect.'),
    h('h3', {}, 'Die A (three dice a round)'), h('div', { class: 'tile-grid' }, group('A')),
    h('h3', {}, 'Die B (one die a round)'), h('div', { class: 'tile-grid' }, group('B')),
    h('h3', {}, 'Specials'),
    h('p', {}, `Six special tiles, each once a game. You may add at most ${table.specials_per_round} special a round and ${table.specials_per_game} in a game, before, between or after your dice.`),
    h('div', { class: 'tile-grid' }, group('S')),
    h('h3', {}, 'Turning and mirroring a tile'),
    h('p', {}, `A tile may lie eight ways: as on the die, turned a quarter, half or three quarters of the way round, or mirrored (its left and right sides swapped) and then turned the same ways. Here is the ${tileWords(table, 'B1')} in all eight:`),
    orientations,
    h('h2', {}, 'Scoring'),
    h('ul', {},
      h('li', {}, h('strong', {}, 'Networks: '), 'routes joined together form a network. It scores by the number of exits it joins:'),
      h('li', { class: 'plain' }, h('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': 'Points for networks by exits' }, points)),
      h('li', {}, h('strong', {}, 'Centre: '), '+1 for each centre square you fill.'),
      h('li', {}, h('strong', {}, 'Errors: '), '−1 for each route end that faces an empty square or a blank tile side. Route ends at the board\'s edge are never errors.'),
      h('li', {}, h('strong', {}, 'Longest highway and longest railway: '), '+1 for each tile on your longest highway and on your longest railway (stations and the overpass count for both).')),
    h('p', {}, 'The highest total wins; on a tie, the player with fewer errors wins.'),
    table.expansions ? expansionsSection(table, group) : null,
    h('p', { class: 'row' }, h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'Play now'), h('a', { class: 'btn', href: '/tutorial/ink', 'data-link': '' }, 'The tutorial'))));
}

function edgeWord(edge) {
  return { highway: 'highway', railway: 'railway', river: 'river', lake: 'lake', blank: '—' }[edge];
}

/** Deep Blue's lake and river expansions: what changes, and both dice's faces. */
function expansionsSection(table, group) {
  return h('section', { class: 'rules-expansion', id: 'expansions', 'aria-labelledby': 'expansions-title' },
    h('h2', { id: 'expansions-title' }, 'Deep Blue expansions: the lake and the river'),
    h('p', {}, 'Choose one expansion (or none) when you start a game. With an expansion the game has six rounds instead of seven, and each round two expansion dice are rolled beside the four route dice.'),
    h('ul', {},
      h('li', {}, h('strong', {}, 'Optional dice: '), 'place each expansion die once, or not at all. Ending the round without them is never an error. The route dice must still be placed while they fit.'),
      h('li', {}, h('strong', {}, 'What may touch what: '), 'a river edge meets only a river edge and a lake edge only a lake edge; a route meets only its own kind. A route crosses a river only on a bridge, and water may never face an exit.'),
      h('li', {}, h('strong', {}, 'Flooding (lake): '), 'after each placement, an empty square with lake sides facing it from three or four neighbours floods and becomes lake. Nobody can place a tile there.'),
      h('li', {}, h('strong', {}, 'Lake points: '), 'your smallest lake scores a point for each of its squares (floods included). Piers join their route to the lake, and through it to every other pier of that lake.'),
      h('li', {}, h('strong', {}, 'River points: '), 'your best river scores a point for each of its squares, and 3 more when both its ends face off the board. A river edge that faces a tile without a river is an error.')),
    h('h3', {}, 'The lake die (two a round)'), h('div', { class: 'expansion-tile-grid', id: 'lake-die' }, group('L')),
    h('h3', {}, 'The river die (two a round)'),
    h('p', {}, 'The river die shows the river bend on three of its six faces, the straight river, and the two bridges once each.'),
    h('div', { class: 'expansion-tile-grid', id: 'river-die' }, group('V')),
    h('h3', {}, 'A flooded square'), h('div', { class: 'expansion-tile-grid', id: 'flooded-square' }, group('F')));
}
