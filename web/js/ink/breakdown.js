// A Railroad Ink score breakdown as a table, and the toggles that draw its parts on boards.
// Used by the viewer and the replays; the numbers are the engine's (the server sends them).

import { h, swatch } from '../core/dom.js';
import { num } from '../core/words.js';
import { networkColour } from './draw.js';

export const INK_OVERLAYS = [
  ['networks', 'Networks & exits'],
  ['errors', 'Errors'],
  ['centre', 'Centre squares'],
  ['longest', 'Longest routes'],
];

/** The overlays of a game with `expansion` (the lake's or river's points drawn too). */
export function overlaysOf(expansion) {
  if (expansion === 'lake') return [...INK_OVERLAYS, ['water', 'Smallest lake']];
  if (expansion === 'river') return [...INK_OVERLAYS, ['water', 'Best river']];
  return INK_OVERLAYS;
}

/** The number of rounds in words: "seven", or "six" with an expansion. */
export function roundsWords(rounds = 7) {
  return { 6: 'six', 7: 'seven' }[rounds] || String(rounds);
}

/**
 * The expansion's row of a breakdown (none in a base game): the smallest lake's squares, or
 * the best river's squares and its bonus when both ends face off the board.
 */
export function expansionRow(expansion, b, sc) {
  if (expansion === 'lake') {
    const lake = (b.lakes || [])[0];
    const what = lake ? `Smallest lake: ${lake.length} ${lake.length === 1 ? 'square' : 'squares'} (${lake.join(' ')})` : 'Smallest lake: no lake yet';
    return h('tr', { class: 'expansion-row' }, h('th', {}, what), h('td', { class: 'score-expansion' }, sc.expansion || 0));
  }
  if (expansion === 'river') {
    const river = (b.rivers || [])[0];
    const what = river
      ? `Best river: ${river.squares.length} ${river.squares.length === 1 ? 'square' : 'squares'}${river.both_ends_off ? ', both ends off the board (+3)' : ''}`
      : 'Best river: no river yet';
    return h('tr', { class: 'expansion-row' }, h('th', {}, what), h('td', { class: 'score-expansion' }, sc.expansion || 0));
  }
  return null;
}

/** The breakdown of one board (`breakdown` as the server sends it, with its `score`). */
export function inkBreakdownTable(breakdown, expansion) {
  const b = breakdown;
  const sc = b.score;
  const scoring = b.networks.map((n, i) => [n, i]).filter(([n]) => n.exits.length > 1);
  const single = b.networks.filter((n) => n.exits.length === 1).length;
  const table = h('table', { class: 'breakdown' },
    h('tbody', {},
      h('tr', {}, h('th', {}, 'Exits'), h('td', { class: 'score-exits' }, sc.exits)),
      scoring.map(([n, i]) => h('tr', { class: 'network-row' },
        h('th', {}, swatch(networkColour(i)),
          `${n.exits.length} exits: ${n.exits.map((e) => e.square).join(' ')}`),
        h('td', {}, n.points))),
      single ? h('tr', { class: 'network-row' }, h('th', {}, `${single} ${single === 1 ? 'network' : 'networks'} with one exit`), h('td', {}, 0)) : null,
      h('tr', {}, h('th', {}, 'Centre squares'), h('td', { class: 'score-centre' }, sc.centre)),
      h('tr', {}, h('th', {}, 'Errors'), h('td', { class: `score-errors${sc.errors ? ' neg' : ''}` }, sc.errors ? `−${sc.errors}` : '0')),
      h('tr', { class: 'subtotal' }, h('th', {}, 'Basic score'), h('td', { class: 'score-basic' }, num(sc.basic))),
      h('tr', {}, h('th', {}, 'Longest highway'), h('td', { class: 'score-longest-highway' }, sc.longest_highway)),
      h('tr', {}, h('th', {}, 'Longest railway'), h('td', { class: 'score-longest-railway' }, sc.longest_railway)),
      expansionRow(expansion, b, sc),
      h('tr', { class: 'total' }, h('th', {}, 'Total'), h('td', { class: 'score-total' }, num(sc.advanced)))));
  return table;
}

/** Checkboxes for the overlays; `onChange` runs after the set changes. */
export function overlayToggles(overlays, onChange, list = INK_OVERLAYS) {
  return h('fieldset', { class: 'overlays' },
    h('legend', {}, 'Show on the board'),
    list.map(([key, label]) => {
      const input = h('input', { type: 'checkbox', id: `show-${key}`, checked: overlays.has(key) });
      input.addEventListener('change', () => {
        if (input.checked) overlays.add(key); else overlays.delete(key);
        onChange();
      });
      return h('label', { class: `toggle toggle-${key}` }, input, label);
    }));
}

/** Shows the chosen overlays on each board. */
export function applyOverlays(svgs, overlays, list = INK_OVERLAYS) {
  for (const svg of svgs) {
    for (const [k] of list) svg.classList.toggle(`show-${k}`, overlays.has(k));
  }
}
