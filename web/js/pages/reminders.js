// The player page's "Reminders" card, on the player's own page: three choices, each off until
// chosen ("your turn", "today's daily is open", "your streak ends in 3 hours"), and whether
// this device hears them (a web push subscription, through the service worker). None comes
// between 22:00 and 08:00 of the player's time zone, which goes with the choices.

import { h, fill, whileBusy } from '../core/dom.js';
import { fromB64 } from '../core/identity.js';
import { request, storedPlayer } from '../core/request.js';

const CHOICES = [
  ['turn', 'It is my turn in a game with friends or strangers'],
  ['daily', 'Today\'s daily challenge is open'],
  ['streak', 'My daily streak ends in 3 hours'],
];

const token = () => storedPlayer()?.token;
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Whether this browser can show reminders at all. */
function pushHere() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** Subscribes this device (asking the player's leave to notify first); the server's view. */
async function subscribeHere(key) {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error('Notifications are blocked for this site: allow them in the browser\'s settings for this site, then try again.');
  }
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromB64(key) });
  }
  return request('PUT', '/api/players/me/push', { token: token(), body: subscription.toJSON() });
}

async function unsubscribeHere() {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
  return request('DELETE', '/api/players/me/push', { token: token() });
}

export function remindersCard() {
  const card = h('section', { class: 'card reminders-card', id: 'reminders', 'aria-labelledby': 'reminders-title' },
    h('h2', { id: 'reminders-title' }, 'Reminders'),
    h('p', { class: 'muted' }, 'Loading…'));
  const line = h('p', { class: 'form-error', role: 'alert' });
  let draw;
  // On success the card is drawn again (its buttons with it).
  const act = (button, work) => whileBusy(button, line, async () => draw(await work()));
  draw = (view) => {
    const boxes = CHOICES.map(([name, words]) => {
      const input = h('input', { type: 'checkbox', name, id: `remind-${name}`, checked: !!view[name] });
      return { name, input, label: h('label', { class: 'check', for: input.id }, input, ' ', words) };
    });
    const save = async (wanted) => {
      for (const b of boxes) b.input.disabled = true;
      line.textContent = '';
      try {
        let next = await request('PUT', '/api/players/me/reminders', { token: token(), body: { ...wanted, zone: zone() } });
        if ((wanted.turn || wanted.daily || wanted.streak) && !next.this_device) next = await subscribeHere(next.key);
        draw(next);
      } catch (e) {
        line.textContent = `Not saved: ${e.message}`;
        for (const b of boxes) b.input.disabled = false;
      }
    };
    const chosen = () => Object.fromEntries(boxes.map((b) => [b.name, b.input.checked]));
    for (const b of boxes) b.input.addEventListener('change', () => save(chosen()));
    const any = CHOICES.some(([name]) => view[name]);
    const status = !any
      ? 'All off. Choose what to hear of: this device is asked to show notifications then.'
      : view.this_device
        ? `They come to this device${view.devices > 1 ? ` and ${view.devices - 1} other${view.devices > 2 ? 's' : ''} of yours` : ''}, never between 22:00 and 08:00 (${view.zone || zone()} time).`
        : `They come to ${view.devices} of your devices, not this one.`;
    const here = any && !view.this_device
      ? h('button', { class: 'btn small', type: 'button', id: 'remind-here', onclick: (ev) => act(ev.target, () => subscribeHere(view.key)) }, 'Send them here too')
      : view.this_device
        ? h('button', { class: 'btn small', type: 'button', id: 'remind-stop-here', onclick: (ev) => act(ev.target, unsubscribeHere) }, 'Stop them on this device')
        : null;
    fill(card,
      h('h2', { id: 'reminders-title' }, 'Reminders'),
      h('fieldset', { class: 'reminder-choices' }, h('legend', {}, 'Tell me when'), boxes.map((b) => b.label)),
      h('p', { class: 'small', id: 'reminders-status' }, status),
      here,
      line);
  };
  if (!pushHere()) {
    fill(card, h('h2', { id: 'reminders-title' }, 'Reminders'),
      h('p', { class: 'small' }, 'This browser cannot show reminders. On an iPhone or iPad, add the site to the home screen first (Share, then Add to Home Screen) and open it from there.'));
    return card;
  }
  request('GET', '/api/players/me/reminders', { token: token() }).then(draw).catch((e) => {
    fill(card, h('h2', { id: 'reminders-title' }, 'Reminders'), h('p', { class: 'form-error', role: 'alert' }, `Your reminders could not be loaded: ${e.message}`));
  });
  return card;
}
