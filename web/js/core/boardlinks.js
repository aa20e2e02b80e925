// Under a board (a game's, its end screen's, a replay's): "Open in the viewer" and "Copy the
// board string", so any board can be stepped through and scored in the viewer or kept.

import { h } from './dom.js';

/** Copies text to the clipboard (or, where the browser refuses, selects it in a field). */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = h('textarea', { class: 'visually-hidden', readonly: true });
    field.value = text;
    document.body.append(field);
    field.select();
    const ok = document.execCommand('copy');
    field.remove();
    return ok;
  }
}

/**
 * The two actions for a board: `viewer` is the viewer's address for it, `text` its board
 * string (a Railroad Ink board or a Metro placement sequence). Nothing for an empty board.
 */
export function boardActions(viewer, text) {
  if (!text) return null;
  const copy = h('button', {
    class: 'link-button copy-board', type: 'button', dataset: { board: text }, title: text,
    onclick: async () => {
      copy.textContent = (await copyText(text)) ? 'Copied' : 'Copy failed';
      setTimeout(() => { copy.textContent = 'Copy the board string'; }, 1500);
    },
  }, 'Copy the board string');
  return h('p', { class: 'board-actions small' },
    h('a', { href: viewer, 'data-link': '', class: 'view-board' }, 'Open in the viewer'), copy);
}

/** The viewer's address for a Railroad Ink board. */
export function inkViewer(board, expansion) {
  const q = { board };
  if (expansion && expansion !== 'none') q.expansion = expansion;
  return `/view/ink?${new URLSearchParams(q)}`;
}

/** The viewer's address for a Metro sequence of `players` players. */
export function metroViewer(sequence, players) {
  return `/view/metro?${new URLSearchParams({ players: String(players), sequence })}`;
}
