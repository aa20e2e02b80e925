// The player on this device: a name and a secret key, typed once (POST /api/players) and kept
// in localStorage ('tracklayer:player' = {id, token, name}). Challenges need one; ordinary
// games send it when there is one, so they count on the player's page. The key travels to
// another device as a link, /players/{id}#key=TOKEN, which the player page takes in.

import { myName, request, storedPlayer, storePlayer } from './request.js';
import { h } from './dom.js';
import { isNameRefusal, watchName } from './names.js';

export const player = {
  /** {id, token, name} or null. */
  get: storedPlayer,
  async create(name) {
    const made = await request('POST', '/api/players', { body: { name } });
    storePlayer(made);
    if (made.name) localStorage.setItem('tracklayer:name', made.name);
    return made;
  },
  /** Keeps an identity brought from another device. */
  adopt(p) {
    storePlayer(p);
  },
  forget() {
    storePlayer(null);
  },
  profile(id) {
    return request('GET', `/api/players/${id}`);
  },
  /** The profile of the player whose key this is (401 or 403 when it is nobody's). */
  whoseKey(token) {
    return request('GET', '/api/players/me', { token });
  },
  /**
   * Replaces this device's key with a new one (POST /api/players/me/key): the old key, and every
   * link that carried it, open nothing from then on; other devices need the new link.
   */
  async newKey() {
    const me = storedPlayer();
    const made = await request('POST', '/api/players/me/key', { token: me.token });
    storePlayer({ id: made.id, token: made.token, name: made.name });
    return made;
  },
  /** The link that carries this device's identity to another device. */
  carryLink(p = storedPlayer()) {
    return `${location.origin}/players/${p.id}#key=${p.token}`;
  },
};

let forms = 0;

/**
 * The form that makes this device's player: one name field and one button (`action`). Returns
 * {element, done}: `done` resolves with the identity once the server has made it; a refused
 * name is said in the form, which stays.
 */
export function nameForm({ action = 'Continue', intro = 'The leaderboards show this name. It is kept on this device: you type it once.' } = {}) {
  const id = `name-form-${++forms}`;
  let resolveDone;
  const done = new Promise((r) => { resolveDone = r; });
  const input = h('input', {
    id, name: 'player-name', autocomplete: 'nickname', required: true,
    placeholder: 'Your name', value: myName(),
  });
  const watch = watchName(input);
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { class: 'btn primary', type: 'submit' }, action);
  const element = h('form', {
    class: 'name-form',
    onsubmit: async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) {
        error.textContent = 'Type a name first.';
        input.focus();
        return;
      }
      if (!watch.ok()) return;
      button.disabled = true;
      error.textContent = '';
      try {
        resolveDone(await player.create(name));
      } catch (e) {
        if (isNameRefusal(e)) watch.refuse(e.message);
        else error.textContent = e.message;
        button.disabled = false;
      }
    },
  },
  h('label', { for: id }, 'Your name'),
  h('p', { class: 'muted small name-form-intro' }, intro),
  h('div', { class: 'name-form-row' }, input, button),
  watch.hint,
  error);
  return { element, done, focus: () => input.focus() };
}

/**
 * This device's player, asking for a name in `slot` first if there is none yet (the slot's
 * content is put back afterwards). Resolves with {id, token, name}.
 */
export async function ensurePlayer(slot, options) {
  const known = storedPlayer();
  if (known) return known;
  const before = [...slot.childNodes];
  const wasHidden = slot.hidden;
  const form = nameForm(options);
  slot.replaceChildren(form.element);
  slot.hidden = false;
  form.focus();
  const made = await form.done;
  slot.replaceChildren(...before);
  slot.hidden = wasHidden;
  return made;
}
