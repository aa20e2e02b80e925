// "Resign" in a game with others in it: after a confirmation, the computer plays the seat to
// the end (POST /api/{kind}/games/{id}/resign), and in a rated game the seat places last.

import { h } from './dom.js';
import { ApiError, request } from './request.js';
import { standInWords } from './clock.js';

/**
 * The Resign button of seat `seat` (its `token`) in game `id` of `kind`, or null where there is
 * nothing to resign: a game over, with one seat, not begun, or a seat the computer plays
 * already. `done(state)` takes the state answered.
 */
export function resignButton(kind, id, state, seat, token, done) {
  if (!token || state.finished || state.started === false || state.players.length < 2) return null;
  if ((state.resigned || []).includes(seat)) return null;
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', {
    class: 'link-button resign', type: 'button', id: 'resign',
    onclick: async () => {
      const rated = state.rated ? ' In a rated game you place last.' : '';
      if (!window.confirm(`Resign? The computer plays your seat to the end of the game.${rated}`)) return;
      button.disabled = true;
      error.textContent = '';
      try {
        done(await request('POST', `/api/${kind}/games/${id}/resign`, { token }));
      } catch (e) {
        error.textContent = e instanceof ApiError ? e.message : String(e);
        button.disabled = false;
      }
    },
  }, 'Resign');
  return h('span', { class: 'resign-row' }, button, error);
}

/**
 * The words that say the computer plays a seat: one that resigned, or whose time ran out (see
 * core/clock.js).
 */
export function resignedWords(state, seat) {
  const ranOut = standInWords(state, seat);
  if (ranOut) return ranOut;
  return (state.resigned || []).includes(seat) ? 'resigned · the computer plays' : null;
}
