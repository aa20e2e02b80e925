// The player on this device: a name and a secret key, typed once (POST /api/players) and kept
// in localStorage ('tracklayer:player' = {id, token, name}). Challenges need one; ordinary
// games send it when there is one, so they count on the player's page. Each device signed in
// as the player has a key of its own (see identity.js): another device signs in with a
// one-time link (/players/{id}#link=CODE), a recovery code or a passkey. Links made before
// devices (/players/{id}#key=TOKEN) are still taken in.

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
   * link that carried it, open nothing from then on; other devices keep theirs.
   */
  async newKey() {
    const me = storedPlayer();
    const made = await request('POST', '/api/players/me/key', { token: me.token });
    storePlayer({ id: made.id, token: made.token, name: made.name });
    return made;
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
  return { element: h('div', { class: 'name-or-sign-in' }, element, signInBox(resolveDone)), done, focus: () => input.focus() };
}

/**
 * "Played before?": signs this device in as a player made elsewhere, with a passkey or a
 * recovery code (the identity's code is loaded when asked for). `signedIn` hears the identity.
 */
export function signInBox(signedIn) {
  const said = h('p', { class: 'form-error', role: 'alert' });
  const code = h('input', {
    id: `recovery-input-${forms}`, name: 'recovery-code', autocomplete: 'off', spellcheck: 'false',
    autocapitalize: 'characters', placeholder: 'XXXXX-XXXXX-XXXXX-XXXXX', class: 'recovery-input',
  });
  const busy = (on) => { for (const b of box.querySelectorAll('button')) b.disabled = on; };
  const attempt = async (how) => {
    busy(true);
    said.textContent = '';
    try {
      const { identity } = await import('./identity.js');
      signedIn(await how(identity));
    } catch (e) {
      said.textContent = e.message;
      busy(false);
    }
  };
  const passkey = typeof window.PublicKeyCredential === 'function'
    ? h('button', { class: 'btn', type: 'button', id: `passkey-sign-in-${forms}`, dataset: { signIn: 'passkey' }, onclick: () => attempt((i) => i.signInWithPasskey()) }, 'Sign in with a passkey')
    : null;
  const box = h('details', { class: 'sign-in-box' },
    h('summary', {}, 'Played before on another browser? Sign in'),
    passkey,
    h('form', {
      class: 'recovery-form',
      onsubmit: (ev) => {
        ev.preventDefault();
        if (!code.value.trim()) { said.textContent = 'Type your recovery code first.'; code.focus(); return; }
        attempt((i) => i.recover(code.value));
      },
    },
    h('label', { for: code.id }, 'Or your recovery code'),
    h('div', { class: 'name-form-row' }, code, h('button', { class: 'btn', type: 'submit', dataset: { signIn: 'recovery' } }, 'Sign in'))),
    said);
  return box;
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
