// Turning the selected Railroad Ink tile, in the game and in the tutorial: R rotates clockwise
// (Shift+R anticlockwise), F flips, and the buttons by the tile do the same.

import { h } from '../core/dom.js';

/**
 * The methods that turn a screen's `orientation` (with its `table`'s turns), then call its
 * `turned()`: mixed into the game's screen and the tutorial's lesson.
 */
export const turning = {
  rotate(times = 1) {
    for (let i = 0; i < times; i++) this.orientation = this.table.rotate[this.orientation];
    this.turned();
  },

  flip() {
    this.orientation = this.table.flip[this.orientation];
    this.turned();
  },
};

/** The buttons that turn the tile of `screen`: anticlockwise, clockwise, and flip. */
export function turnButtons(screen) {
  return h('div', { class: 'row tight preview-buttons' },
    h('button', { class: 'btn small', id: 'rotate-left', type: 'button', title: 'Rotate anticlockwise (Shift+R)', 'aria-label': 'Rotate anticlockwise', onclick: () => screen.rotate(3) }, h('span', { 'aria-hidden': 'true' }, '⟲')),
    h('button', { class: 'btn small', id: 'rotate', type: 'button', title: 'Rotate clockwise (R)', 'aria-label': 'Rotate clockwise', onclick: () => screen.rotate(1) }, h('span', { 'aria-hidden': 'true' }, '⟳'), ' Rotate'),
    h('button', { class: 'btn small', id: 'flip', type: 'button', title: 'Flip (F)', 'aria-label': 'Flip', onclick: () => screen.flip() }, h('span', { 'aria-hidden': 'true' }, '⇋'), ' Flip'));
}
