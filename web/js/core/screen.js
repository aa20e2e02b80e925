// What the pages share: the page for a server that cannot be reached, and for what is not there
// (`loadPage`). What the game screens (Railroad Ink and Metro) share: the page for a game that is
// not there, the form to join an invited game, and `PlayScreen`, the base of both screens: the
// live updates, the message line, an action sent to the server, the invite link, and a tile
// dragged with the pointer.

import { ApiError } from './request.js';
import { h, fill, nameEl } from './dom.js';
import { isNameRefusal, watchName } from './names.js';
import { gameName } from './games.js';

/** Where a game played in the page with no connection stands: played here, sent, refused. */
export function offlineLine(st) {
  const { sent, refused } = st.offline;
  let words;
  if (refused) words = [`The server did not keep this game: ${refused}`];
  else if (sent) words = ['Saved: ', h('a', { href: `/${st.kind}/${sent}`, 'data-link': '' }, 'this game on the server'), ', with your games.'];
  else if (st.finished) words = ['Played offline, on this device: saved to your games when the connection returns.'];
  else words = ['Played offline, on this device: saved to your games once it is over and you are online.'];
  return h('p', { class: `offline-line${refused ? ' refused' : ''}`, id: 'offline-line', role: 'status' }, ...words);
}

/**
 * For a game played in the page: sends it now if it is over and not sent yet, and calls
 * `changed` whenever the server kept or refused it (see ../offline/send.js). Returns the stop.
 */
export function sendWhenOver(id, st, changed) {
  const sent = (ev) => { if (ev.detail.offline === id) changed(); };
  window.addEventListener('tracklayer:sent', sent);
  const { offline } = st;
  if (offline && st.finished && !offline.sent && !offline.refused) {
    import('../offline/send.js').then((m) => m.sendPlayed()).then(changed).catch(() => {});
  }
  return () => window.removeEventListener('tracklayer:sent', sent);
}

/** How far above a finger a dragged tile rides, in tile widths (its middle to the touch point). */
export const TOUCH_LIFT = 0.9;

/** The sentence for a challenge game that may not be seen yet (403). */
export const NOT_YET = 'You can open the other players\' boards once you have finished this challenge.';

/** The page for a server that cannot be reached (what a page needs did not come). */
export function unreachable(root, error) {
  fill(root, h('section', { class: 'card narrow' }, h('h1', {}, 'The server cannot be reached'), h('p', {}, error.message)));
  return null;
}

/**
 * Loads what a page shows (`load()`), saying `loading` meanwhile. Resolves with it; or, when it
 * cannot be loaded, shows the page for what is not there (`missing`: its id, title, the sentence
 * for a 404, and a link on) and resolves with null.
 */
export async function loadPage(root, loading, load, missing) {
  fill(root, h('p', { class: 'loading' }, loading));
  try {
    return await load();
  } catch (e) {
    fill(root, h('section', { class: 'card narrow center', id: missing.id },
      h('h1', {}, missing.title),
      h('p', {}, e instanceof ApiError && e.status === 404 ? missing.absent : e.message),
      h('a', { class: 'btn primary', href: missing.href, 'data-link': '' }, missing.label)));
    return null;
  }
}

/** The page for a game that cannot be loaded. */
export function notFound(root, error, navigate) {
  const status = error instanceof ApiError ? error.status : 0;
  fill(root, h('section', { class: 'card narrow center', id: 'game-missing' },
    h('h1', {}, status === 403 ? 'Not yet' : 'Game not found'),
    h('p', {}, status === 404
      ? 'There is no game at this address. The link may be mistyped.'
      : status === 403 ? NOT_YET : (error?.message || 'The game could not be loaded.')),
    h('div', { class: 'row centered' },
      status === 403 ? h('a', { class: 'btn', href: '/challenges', 'data-link': '' }, 'Challenges') : null,
      h('button', { class: 'btn primary', onclick: () => navigate('/') }, 'Start a new game'))));
  return null;
}

/**
 * A game as this browser sees it: as its held seat does (`state(held)`); or, when the server
 * refuses the seat (403: a seat this server no longer knows), as anyone does, the seat
 * forgotten (`store.remove`). Resolves with {held, state}, or with null after showing the page
 * for a game that cannot be loaded.
 */
export async function loadGame(root, { id, held, store, state, navigate }) {
  try {
    return { held, state: await state(held) };
  } catch (e) {
    if (e instanceof ApiError && e.status === 403 && held) {
      store.remove(id);
      const seen = await state(null).catch(() => null);
      if (seen) return { held: null, state: seen };
    }
    return notFound(root, e, navigate);
  }
}

/** "Dice from seed 99, chosen by Ann" for a game whose creator chose its seed (else nothing). */
export function chosenSeedLine(chosen, what = 'Dice') {
  if (!chosen) return null;
  const who = chosen.by ? nameEl(chosen.by) : 'the game\'s creator';
  // A friend challenge's seed is told only once you have finished it.
  if (chosen.seed === undefined || chosen.seed === null) {
    return h('p', { class: 'chosen-seed', id: 'chosen-seed' }, `${what} of a game `, who, ' played first: they know what comes.');
  }
  return h('p', { class: 'chosen-seed', id: 'chosen-seed' }, `${what} from seed ${chosen.seed}, chosen by `,
    who, ': they may know what comes.');
}

/**
 * The form that joins an invited game: `title`, the `intro` text, any `extra` fields, the name,
 * and "Join" or "Just watch". Resolves 'joined' once `join(name)` succeeds (its error is shown
 * in the form otherwise), or 'watch'.
 */
export function joinForm(root, { title, intro, extra = null, name = '', className = '', join }) {
  return new Promise((resolve) => {
    const input = h('input', { id: 'join-name', name: 'name', autocomplete: 'nickname', placeholder: 'Your name', value: name });
    const watch = watchName(input);
    const error = h('p', { class: 'form-error', role: 'alert' });
    const form = h('form', {
      class: `card narrow join-card ${className}`.trim(),
      onsubmit: async (ev) => {
        ev.preventDefault();
        error.textContent = '';
        if (!watch.ok()) return;
        try {
          await join(input.value.trim());
          resolve('joined');
        } catch (e) {
          if (isNameRefusal(e)) watch.refuse(e.message);
          else error.textContent = e.message;
        }
      },
    },
    h('h1', {}, title),
    h('p', {}, intro),
    extra,
    h('label', { for: 'join-name' }, 'Your name'),
    input,
    watch.hint,
    error,
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', type: 'submit', id: 'join' }, 'Join the game'),
      h('button', { class: 'btn', type: 'button', onclick: () => resolve('watch') }, 'Just watch')));
    fill(root, form);
    input.focus();
  });
}

/**
 * The base of a game screen. A screen has `root`, `state` (with its `version`), `board` (with
 * `squareAt` and `setDrop`), `message`, `layout` and `ghost` elements, and the methods
 * `refresh()`, `update(state)` and `key(ev)`.
 */
export class PlayScreen {
  /** The screen of game `id` in `root`, drawn with the game's `table`; `navigate` goes elsewhere. */
  constructor(root, id, table, { navigate }) {
    this.root = root;
    this.id = id;
    this.table = table;
    this.navigate = navigate;
    this.busy = false;
    this.dragging = false;
  }

  /** Listens to the keys and to the game's live updates; returns the function that stops. */
  listen(events) {
    this.onKey = (ev) => this.key(ev);
    document.addEventListener('keydown', this.onKey);
    this.events = events;
    events.addEventListener('state', (ev) => {
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return; // a malformed event changes nothing
      }
      if (data.version !== this.state.version) {
        // Each event is the state as the stream's seat sees it: taken as it is when that is
        // the seat this page shows, read again otherwise.
        const sameSeat = (data.you?.seat ?? null) === (this.state.you?.seat ?? null);
        if (sameSeat && data.version > this.state.version && data.id === this.state.id) this.update(data);
        else this.refresh();
      } else if (data.rematch && data.rematch !== this.state.rematch) {
        // The same state, now with the game that plays it again.
        this.state = { ...this.state, rematch: data.rematch };
        this.render();
      }
    });
    events.addEventListener('open', () => this.root.classList.remove('offline'));
    events.addEventListener('error', () => this.root.classList.add('offline'));
    return () => {
      document.removeEventListener('keydown', this.onKey);
      events.close();
    };
  }

  /** Shows a message; `detail` (codes, the server's own sentence) is its tooltip. */
  say(text, kind = 'info', rule, detail) {
    fill(this.message, h('span', {}, text), rule ? h('span', { class: 'rule-chip' }, rule) : null);
    this.message.className = `message ${kind}`;
    // A long message scrolls inside its line on a phone: each one is read from its start.
    this.message.scrollTop = 0;
    if (detail) this.message.title = detail; else this.message.removeAttribute('title');
  }

  /** The words of a refused action (a screen may say it better). */
  refusalText(e) {
    return `Refused: ${e.message}`;
  }

  /** Hook after an accepted action. */
  acted() {}

  /** Hook after a refused action (422, or 409). */
  refused() {}

  /**
   * Sends one action (`run` resolves with the new state), one at a time: a refusal (422, or 409
   * when it is not the seat's turn) is shown with its rule. Resolves whether it was accepted.
   */
  async act(what, run) {
    if (this.busy) return false;
    this.busy = true;
    this.layout.classList.add('busy');
    try {
      const next = await run();
      this.acted();
      // A live update may have brought a newer state while the answer was on its way (a
      // computer that moved at once): the answer is older then, and changes nothing.
      if (!(next.id === this.state.id && next.version < this.state.version)) this.update(next);
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 422 || e.status === 409)) {
        this.say(this.refusalText(e), 'error', e.rule, e.message);
        this.refused(e);
        if (e.status === 409) this.refresh();
      } else {
        this.say(`${what} failed: ${e.message}`, 'error');
      }
      return false;
    } finally {
      this.busy = false;
      this.layout.classList.remove('busy');
    }
  }

  /** The invite link of this game with a copy button, after `label`. */
  inviteBox(path, label) {
    const link = `${location.origin}${path}`;
    const input = h('input', { class: 'invite-link', readonly: true, value: link, 'aria-label': 'Invite link', onfocus: (e) => e.target.select() });
    const button = h('button', {
      class: 'btn small',
      id: 'copy-invite',
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          input.select();
          document.execCommand('copy');
        }
        button.textContent = 'Copied';
        setTimeout(() => { button.textContent = 'Copy'; }, 1500);
      },
    }, 'Copy');
    return h('div', { class: 'invite' }, h('span', {}, label), input, button);
  }

  /**
   * Follows a pointer pressed on a tile (mouse, pen and touch alike). Past a few pixels it is a
   * drag: `begin()` starts it (false refuses), `over(square)` follows the square under it, and
   * `drop(square)` ends it (null when cancelled or off the board). Otherwise `click()`.
   */
  trackDrag(ev, { begin, over, drop, click }) {
    // Listen on the window: the tray may be redrawn while dragging, so the pressed element goes.
    const pointer = ev.pointerId;
    const start = [ev.clientX, ev.clientY];
    let dragging = false;
    // A finger would hide the tile it drags: the tile rides above the touch point, and goes
    // where it is seen (the square under its middle).
    this.lift = ev.pointerType === 'touch' ? TOUCH_LIFT : 0;
    const at = (e) => this.board.squareAt(e.clientX, e.clientY - this.lift * this.ghost.offsetWidth);
    const move = (e) => {
      if (e.pointerId !== pointer) return;
      if (!dragging && Math.hypot(e.clientX - start[0], e.clientY - start[1]) > 6) {
        this.dragging = true;
        if (begin() === false) {
          this.dragging = false;
          return;
        }
        dragging = true;
      }
      if (dragging) {
        this.moveGhost(e.clientX, e.clientY);
        over(at(e));
      }
    };
    const end = (e, cancelled) => {
      if (e.pointerId !== pointer) return;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      const square = dragging && !cancelled ? at(e) : null;
      this.ghost.hidden = true;
      this.dragging = false;
      if (!dragging) {
        if (!cancelled) click();
        return;
      }
      this.board.setDrop(null);
      drop(square);
    };
    const up = (e) => end(e, false);
    const cancel = (e) => end(e, true);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
  }

  /**
   * The page's level-one heading when the screen's own parts have none: on a game's page
   * (`/metro/{id}`), the game's name, for screen readers (the bar shows what it says). A screen
   * with a heading of its own returns null.
   */
  gameHeading() {
    const kind = location.pathname.match(/^\/([a-z]+)\/[0-9a-f]{24}$/)?.[1];
    return kind ? h('h1', { class: 'visually-hidden', id: 'game-heading' }, `${gameName(kind)} game`) : null;
  }

  /**
   * Puts the screen's page (`parts`) in its root, after its heading (`gameHeading()`), with the
   * picture that follows a dragged tile (`ghostClass`), and wires the board (`wireBoard()`).
   */
  mount(parts, ghostClass) {
    fill(this.root, this.gameHeading(), parts);
    this.ghost = h('div', { class: ghostClass, hidden: true, 'aria-hidden': 'true' });
    this.root.append(this.ghost);
    this.wireBoard();
  }

  /** Shows the dragged tile's picture at the size of a square of a board `units` wide. */
  showGhost(picture, units) {
    const cell = this.board.svg.getBoundingClientRect().width * 100 / units;
    this.ghost.style.width = `${cell}px`;
    this.ghost.style.height = `${cell}px`;
    fill(this.ghost, picture);
    this.ghost.hidden = false;
  }

  moveGhost(x, y) {
    const w = this.ghost.offsetWidth;
    const lift = (this.lift || 0) * w;
    this.ghost.style.transform = `translate(${x - w / 2}px, ${y - lift - w / 2}px)`;
  }
}

/**
 * A route's `show` that first loads its page's module (`load`, an `import()`: the server
 * preloads it with the page that shows it first), then shows the page with
 * `show(module, root, params, ctx)`, unless another page was opened meanwhile (`ctx.gone()`).
 */
export function loaded(load, show) {
  return async (root, params, ctx) => {
    const module = await load();
    return ctx.gone?.() ? null : show(module, root, params, ctx);
  };
}
