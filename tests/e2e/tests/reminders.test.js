// Reminders by web push (issue 40): a player chooses "your turn" on their page; when another
// player's move makes it their turn, the server's message reaches a stand-in push service of
// this test's, which decrypts it as RFC 8291 says with the device's keys; delivered to the
// page's service worker through the DevTools protocol (ServiceWorker.deliverPushMessage:
// Chromium's own subscriptions need the vendor's push service, not reachable here), it is shown
// as a notification.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createCipheriv, createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import { DESKTOP, asPlayer, serverAndBrowser, shot } from '../harness.js';

const env = serverAndBrowser({ env: { TRACKLAYER_PUSH_ALLOW_HTTP: 'true', TRACKLAYER_PUSH_TURN_DELAY: '0' } });

/** The stand-in push service: every POST kept as {path, headers, body}. */
const received = [];
let service;
let serviceUrl;
before(async () => {
  service = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise((r) => service.listen(0, '127.0.0.1', r));
  serviceUrl = `http://127.0.0.1:${service.address().port}`;
});
after(() => service?.close());

const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
const b64url = (buf) => Buffer.from(buf).toString('base64url');

/**
 * RFC 8291 (Message Encryption for Web Push) with RFC 8188's aes128gcm, undone with the
 * device's private key and secret: the header (salt, record size, the sender's key), the keys
 * from the shared secret, then the record without its padding.
 */
function decrypt(body, ecdh, auth) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const shared = ecdh.computeSecret(senderKey);
  const prkKey = hmac(auth, shared);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = hmac(prkKey, Buffer.concat([info, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  assert.equal(padded[end], 2, 'the last record ends with its delimiter');
  return padded.subarray(0, end).toString('utf8');
}

test('the decryption here is RFC 8291\'s own example', () => {
  // RFC 8291, section 5: the user agent's keys, the sender's message, the plaintext.
  const ua = createECDH('prime256v1');
  ua.setPrivateKey(Buffer.from('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94', 'base64url'));
  const auth = Buffer.from('BTBZMqHH6r4Tts7J_aSIgg', 'base64url');
  const body = Buffer.from('DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN', 'base64url');
  assert.equal(decrypt(body, ua, auth), 'When I grow up, I want to be a watermelon');
});

/**
 * A time zone where it is midday now (`Etc/GMT-X` is UTC+X): reminders keep quiet from 22:00
 * to 08:00 of the player's own time, which the page sends with the choices.
 */
function middayZone() {
  let offset = (12 - new Date().getUTCHours() + 24) % 24;
  if (offset > 14) offset -= 24;
  if (offset === 0) return 'Etc/UTC';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** A request to the server from the test itself. */
async function api(method, path, token, body) {
  const r = await fetch(env.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  const value = text ? JSON.parse(text) : null;
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return value;
}

test('"your turn" reaches the device encrypted, and its service worker shows it', async () => {
  // The device's push keys, as a push service would have them.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${serviceUrl}/push/bob-laptop`;
  const page = await env.page({ ...DESKTOP, timezoneId: middayZone() });
  await page.context().grantPermissions(['notifications'], { origin: env.url });
  // Chromium's subscribe would ask the vendor's push service: this device's subscription is
  // the stand-in's instead.
  await page.addInitScript(({ endpoint: e, p256dh, secret }) => {
    const subscription = {
      endpoint: e,
      expirationTime: null,
      toJSON: () => ({ endpoint: e, expirationTime: null, keys: { p256dh, auth: secret } }),
      unsubscribe: async () => true,
    };
    let subscribed = false;
    PushManager.prototype.subscribe = async function subscribe(options) {
      if (!options?.applicationServerKey || !options.userVisibleOnly) throw new Error('asked without the server key');
      subscribed = true;
      return subscription;
    };
    PushManager.prototype.getSubscription = async () => (subscribed ? subscription : null);
  }, { endpoint, p256dh: b64url(ecdh.getPublicKey()), secret: b64url(auth) });
  const bob = await asPlayer(page, env.url, 'Bob');
  await page.goto(`${env.url}/players/${bob.id}`);
  await page.waitForSelector('#remind-turn');
  for (const name of ['turn', 'daily', 'streak']) {
    assert.equal(await page.isChecked(`#remind-${name}`), false, `${name} is off until chosen`);
  }
  await page.check('#remind-turn');
  await page.waitForFunction(() => /come to this device/.test(document.querySelector('#reminders-status')?.textContent || ''));
  assert.equal(await page.isChecked('#remind-turn'), true);
  await shot(page, 'reminders-desktop');

  // Ann makes a Metro game for the two of them and plays her turn: it is Bob's.
  const ann = await api('POST', '/api/players', null, { name: 'Ann' });
  const game = await api('POST', '/api/metro/games', ann.token, { players: [{ kind: 'human', name: 'Ann' }, { kind: 'human', invite: true }] });
  await api('POST', `/api/metro/games/${game.id}/join`, bob.token, { name: 'Bob' });
  const seat = game.seats[0].token;
  const drawn = await api('POST', `/api/metro/games/${game.id}/draw`, seat);
  await api('POST', `/api/metro/games/${game.id}/place`, seat, { square: drawn.you.legal.slice(0, 2) });

  const deadline = Date.now() + 20000;
  while (!received.some((m) => m.path === '/push/bob-laptop') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const got = received.filter((m) => m.path === '/push/bob-laptop');
  assert.equal(got.length, 1, 'one message');
  assert.equal(got[0].headers['content-encoding'], 'aes128gcm');
  assert.match(got[0].headers.authorization, /^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
  const text = decrypt(got[0].body, ecdh, auth);
  const message = JSON.parse(text);
  assert.equal(message.title, 'Your turn');
  assert.equal(message.body, 'Ann played: it is your turn in Metro.');
  assert.equal(message.url, `/metro/${game.id}`);

  // What the push service would hand the browser: the service worker shows it.
  const cdp = await page.context().newCDPSession(page);
  const registered = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL.startsWith(env.url) && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: env.url, registrationId, data: text });
  let notes = [];
  for (let tries = 0; tries < 50 && !notes.length; tries++) {
    await page.waitForTimeout(200);
    notes = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
    });
  }
  assert.deepEqual(notes, [{ title: 'Your turn', body: 'Ann played: it is your turn in Metro.', tag: `turn-${game.id}` }]);

  // Turned off on this device: the server forgets its subscription.
  await page.click('#remind-stop-here');
  await page.waitForFunction(() => /not this one/.test(document.querySelector('#reminders-status')?.textContent || ''));
  const left = await api('GET', '/api/players/me/reminders', bob.token);
  assert.equal(left.devices, 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Encryption as the server does it, by hand, to check the function above on a message whose
// plaintext this test chose (the RFC's example checks it against fixed bytes).
test('a message encrypted for a device is read back with its keys', () => {
  const ua = createECDH('prime256v1');
  ua.generateKeys();
  const as = createECDH('prime256v1');
  as.generateKeys();
  const auth = randomBytes(16);
  const salt = randomBytes(16);
  const shared = as.computeSecret(ua.getPublicKey());
  const ikm = hmac(hmac(auth, shared), Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), as.getPublicKey(), Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.from('{"title":"Hi"}\x02')), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.concat([salt, Buffer.from([0, 0, 16, 0]), Buffer.from([65]), as.getPublicKey()]);
  assert.equal(decrypt(Buffer.concat([header, sealed]), ua, auth), '{"title":"Hi"}');
});
