// The player page's "Your identity" card, on the player's own page: the devices signed in as
// the player (each can be signed out), a one-time link and its QR code for another device,
// passkeys, and a recovery code shown once. And the link's other end: /players/{id}#link=CODE
// signs the device that opens it in.

import { h, fill, isolated, nameEl, whileBusy } from '../core/dom.js';
import { identity, passkeysHere } from '../core/identity.js';
import { player } from '../core/player.js';
import { dateText, dateTimeText } from '../core/words.js';

const HOW = {
  created: 'made the player',
  recovery: 'signed in with a recovery code',
  link: 'signed in with a link',
  passkey: 'signed in with a passkey',
};

/** "today", "yesterday" or the date. */
function dayText(iso) {
  const t = Date.parse(iso);
  const days = Math.floor(Date.now() / 86400000) - Math.floor(t / 86400000);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return dateText(t);
}

/** A QR code drawn by the server (SVG text), as an element of this page. */
function qrPicture(svgText) {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg.nodeName !== 'svg') return h('p', { class: 'muted small' }, 'The QR code could not be drawn: use the link.');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'QR code of the link');
  svg.classList.add('qr');
  return document.importNode(svg, true);
}

/** A file of `text` named `name`, offered for download. */
function saveFile(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function errorLine() {
  return h('p', { class: 'form-error', role: 'alert' });
}

function devicesList(shown, me, reload, forgotten) {
  const line = errorLine();
  return h('div', {},
    h('h3', {}, 'Devices signed in as you'),
    h('ul', { class: 'devices', id: 'devices' }, shown.devices.map((d) => h('li', { dataset: { device: d.id, how: d.how } },
      h('div', {},
        h('strong', {}, d.label), d.this ? h('span', { class: 'chip' }, 'this device') : null,
        h('p', { class: 'muted small' }, `${HOW[d.how] || d.how} on ${dateText(Date.parse(d.created))}; last seen ${dayText(d.seen)}`)),
      h('button', {
        class: 'btn small sign-out', type: 'button',
        onclick: (ev) => {
          const words = d.this
            ? `Sign this device out? It will not play as ${isolated(me.name)} until it signs in again (with a passkey, a recovery code or a link).`
            : `Sign out ${d.label}? Its key stops working at once; your games stay yours.`;
          if (!window.confirm(words)) return;
          whileBusy(ev.target, line, async () => {
            await identity.signOut(d.id);
            if (d.this) {
              player.forget();
              forgotten();
            } else {
              await reload();
            }
          });
        },
      }, d.this ? 'Sign out here' : 'Sign out')))),
    line);
}

function linkPart() {
  const slot = h('div', { class: 'link-slot', id: 'link-slot' });
  const line = errorLine();
  const button = h('button', {
    class: 'btn', type: 'button', id: 'make-link',
    onclick: () => whileBusy(button, line, async () => {
      const link = await identity.link();
      const input = h('input', { class: 'invite-link', id: 'link-url', readonly: true, value: link.url, 'aria-label': 'One-time link', onfocus: (e) => e.target.select() });
      fill(slot,
        qrPicture(link.qr),
        h('p', { class: 'small' }, `Scan it with the phone's camera, or open the link there. It works once, until ${dateTimeText(Date.parse(link.expires)).split(', ')[1]}; it never holds your key.`),
        h('div', { class: 'invite' }, input));
      button.textContent = 'Make another link';
    }),
  }, 'Sign in on another device');
  return h('div', {},
    h('h3', {}, 'Another device'),
    h('p', { class: 'small' }, 'A phone or another computer plays as you once it opens a one-time link from here.'),
    button, line, slot);
}

function passkeysPart(shown, reload) {
  const line = errorLine();
  const name = h('input', { id: 'passkey-name', name: 'passkey-name', maxlength: 40, placeholder: 'Name it (optional)', autocomplete: 'off' });
  const list = h('ul', { class: 'devices', id: 'passkeys' }, shown.passkeys.map((p) => h('li', { dataset: { passkey: p.id } },
    h('div', {},
      h('strong', {}, p.name),
      h('p', { class: 'muted small' }, `added on ${dateText(Date.parse(p.created))}${p.used ? `; last used ${dayText(p.used)}` : '; not used yet'}`)),
    h('button', {
      class: 'btn small', type: 'button',
      onclick: (ev) => {
        if (!window.confirm(`Remove the passkey ${p.name}? It will not sign you in any more.`)) return;
        whileBusy(ev.target, line, async () => { await identity.removePasskey(p.id); await reload(); });
      },
    }, 'Remove'))));
  if (!passkeysHere()) {
    return h('div', {}, h('h3', {}, 'Passkeys'), list,
      h('p', { class: 'muted small' }, 'This browser cannot make passkeys. A recovery code keeps you safe instead.'));
  }
  const add = h('button', {
    class: 'btn', type: 'button', id: 'add-passkey',
    onclick: () => whileBusy(add, line, async () => {
      await identity.addPasskey(name.value.trim());
      await reload();
    }),
  }, 'Add a passkey');
  return h('div', {},
    h('h3', {}, 'Passkeys'),
    h('p', { class: 'small' }, 'A passkey (your phone\'s or computer\'s screen lock, or a security key) signs you in on a browser that lost its key, or on another device, with nothing to type.'),
    shown.passkeys.length ? list : null,
    h('div', { class: 'name-form-row' }, name, add),
    line);
}

function recoveryPart(shown) {
  const line = errorLine();
  const slot = h('div', { id: 'recovery-slot' });
  const state = h('p', { class: 'small', id: 'recovery-state' }, shown.recovery
    ? `You have a recovery code, made on ${dateText(Date.parse(shown.recovery))}. Making a new one replaces it.`
    : 'No recovery code yet. Without one, a lost browser is a lost identity unless you have a passkey or another device.');
  const make = h('button', {
    class: 'btn', type: 'button', id: 'make-recovery',
    onclick: () => {
      if (shown.recovery && !window.confirm('Make a new recovery code? The one you have stops working.')) return;
      whileBusy(make, line, async () => {
        const made = await identity.recoveryCode();
        const me = player.get();
        const text = `tracklayer recovery code for ${me.name}\n\n${made.code}\n\nIt signs a browser in as ${me.name} once (${location.origin}). Keep it private.\n`;
        fill(state, `Your recovery code, made just now. It is shown this once: save it, print it or write it down.`);
        fill(slot,
          h('p', { class: 'recovery-code', id: 'recovery-code' }, made.code),
          h('div', { class: 'row' },
            h('button', { class: 'btn small', type: 'button', onclick: async (ev) => {
              try { await navigator.clipboard.writeText(made.code); ev.target.textContent = 'Copied'; } catch { ev.target.textContent = 'Select it to copy'; }
            } }, 'Copy'),
            h('button', { class: 'btn small', type: 'button', id: 'save-recovery', onclick: () => saveFile('tracklayer-recovery-code.txt', text) }, 'Save as a file'),
            h('button', { class: 'btn small', type: 'button', onclick: () => window.print() }, 'Print')),
          h('p', { class: 'muted small' }, 'Used once, it is gone: make a new one after signing in with it.'));
        make.textContent = 'Make a new recovery code';
      });
    },
  }, shown.recovery ? 'Make a new recovery code' : 'Make a recovery code');
  return h('div', { class: 'recovery-part' }, h('h3', {}, 'Recovery code'), state, slot, make, line);
}

/** The card, filled once the server has said what keeps the identity. */
export function identityCard(me, redraw, extra) {
  const card = h('section', { class: 'card identity-card', id: 'identity', 'aria-labelledby': 'identity-title' },
    h('h2', { id: 'identity-title' }, 'Your identity'),
    h('p', { class: 'muted' }, 'Loading…'));
  const reload = async () => {
    let shown;
    try {
      shown = await identity.show();
    } catch (e) {
      fill(card, h('h2', { id: 'identity-title' }, 'Your identity'),
        h('p', { class: 'form-error', role: 'alert' }, `What keeps your identity could not be loaded: ${e.message}`), extra);
      return;
    }
    fill(card,
      h('h2', { id: 'identity-title' }, 'Your identity'),
      h('p', { class: 'small' }, 'This device plays as ', nameEl(me.name), '. So can others: each signed in with a key of its own.'),
      devicesList(shown, me, reload, redraw),
      linkPart(),
      passkeysPart(shown, reload),
      recoveryPart(shown),
      extra);
  };
  reload();
  return card;
}

/**
 * Signs this device in by a one-time link's code (once), asking first if it already plays as
 * someone else; a used or out-of-date link is said plainly.
 */
export async function followLink(notice, profile, code, redraw) {
  const name = () => nameEl(profile.name);
  const refuse = (text) => fill(notice, h('p', { class: 'notice error', id: 'identity-refused', role: 'alert' }, text));
  if (!code) {
    refuse('This link is damaged: scan the code again, or copy the whole link.');
    return;
  }
  const current = player.get();
  if (current && current.id === profile.id) {
    fill(notice, h('p', { class: 'notice ok', id: 'identity-taken' }, 'This device already plays as ', name(), '.'));
    return;
  }
  const follow = async () => {
    fill(notice, h('p', { class: 'notice' }, 'Signing this device in…'));
    try {
      await identity.followLink(code);
    } catch (e) {
      refuse(e.status === 0 ? `${e.message} The link still works until it expires: open it again.` : e.message);
      return;
    }
    redraw();
    fill(notice, h('p', { class: 'notice ok', id: 'identity-taken' }, 'This device now plays as ', name(), '.'));
    document.dispatchEvent(new CustomEvent('tracklayer:player'));
  };
  if (!current) {
    await follow();
    return;
  }
  const other = () => nameEl(current.name);
  fill(notice, h('div', { class: 'notice' },
    h('p', {}, 'This link signs this device in as ', name(), ', but it plays as ', other(), '. Play as ', name(), ' here instead?'),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', type: 'button', id: 'identity-switch', onclick: follow }, 'Play as ', name()),
      h('button', { class: 'btn', type: 'button', onclick: () => fill(notice, h('p', { class: 'notice' }, 'This device stays ', other(), '.')) }, 'Stay ', other()))));
}
