// "Play again" at the end of any game: a new game like the finished one (the same seats,
// names, computers and settings, new dice or tiles). The first seat to ask makes it; the
// others see the offer live (the finished game's `rematch`) and join it with one click.

import { h } from './dom.js';
import { ApiError } from './request.js';

/**
 * The Play again (or Join the rematch) button of a finished game. `ask()` asks the server for
 * the rematch and takes a seat in it; it resolves with the path of the new game.
 */
export function playAgainButton(state, ask, navigate) {
  const offered = Boolean(state.rematch);
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', {
    class: 'btn primary', type: 'button', id: 'play-again',
    dataset: offered ? { rematch: state.rematch } : {},
    onclick: async () => {
      button.disabled = true;
      error.textContent = '';
      try {
        navigate(await ask());
      } catch (e) {
        error.textContent = e instanceof ApiError ? e.message : String(e);
        button.disabled = false;
      }
    },
  }, offered ? 'Join the rematch' : 'Play again');
  return h('span', { class: 'play-again' }, button, error);
}
