// An identity that survives a lost browser (issue 40): a recovery code shown once restores a
// player on a fresh browser; a one-time link, shown as a QR code, signs a phone in and never
// carries the key; the player sees their devices and signs one out; a passkey made with
// Chromium's virtual authenticator signs a fresh browser context in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, asPlayer, serverAndBrowser, shot } from '../harness.js';

const env = serverAndBrowser();

const kept = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')));

/** Whether a key opens a player (GET /api/players/me). */
const opens = (page, token) => page.evaluate(async (t) => (await fetch('/api/players/me', { headers: { Authorization: `Bearer ${t}` } })).status, token);

test('a recovery code restores a player on a fresh browser, and the lost browser is signed out', async () => {
  const page = await env.page(DESKTOP);
  const rosa = await asPlayer(page, env.url, 'Rosa');
  await page.goto(`${env.url}/players/${rosa.id}`);
  await page.waitForSelector('#devices li');
  assert.equal(await page.locator('#devices li').count(), 1);
  assert.match(await page.textContent('#recovery-state'), /No recovery code yet/);
  await page.click('#make-recovery');
  await page.waitForSelector('#recovery-code');
  const code = (await page.textContent('#recovery-code')).trim();
  assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  await shot(page, 'identity-recovery-desktop');

  // A fresh browser: the start page offers a way back in.
  const fresh = await env.page(PHONE);
  await fresh.goto(env.url);
  await fresh.click('#sign-in');
  await fresh.waitForSelector('.sign-in-box[open]');
  await shot(fresh, 'sign-in-phone');
  await fresh.fill('.sign-in-box input[name=recovery-code]', code.toLowerCase().replace(/-/g, ' '));
  await fresh.click('.sign-in-box button[data-sign-in=recovery]');
  await fresh.waitForURL(new RegExp(`/players/${rosa.id}$`));
  await fresh.waitForSelector('#player-name .chip');
  const back = await kept(fresh);
  assert.equal(back.id, rosa.id);
  assert.notEqual(back.token, rosa.token, 'a device of its own, with a key of its own');
  await fresh.waitForSelector('#devices li[data-how=recovery]');
  assert.equal(await fresh.locator('#devices li').count(), 2);
  assert.match(await fresh.textContent('#devices li[data-how=recovery]'), /this device/);
  assert.match(await fresh.textContent('#recovery-state'), /No recovery code yet/, 'a used code is gone');
  await shot(fresh, 'identity-devices-phone');

  // The lost browser is signed out from the new one: its key opens nothing any more.
  fresh.once('dialog', (d) => d.accept());
  await fresh.click('#devices li[data-how=created] button.sign-out');
  await fresh.waitForFunction(() => document.querySelectorAll('#devices li').length === 1);
  assert.equal(await opens(fresh, rosa.token), 403);
  assert.equal(await opens(fresh, back.token), 200);

  // The same code again is refused in words.
  const again = await env.page(DESKTOP);
  await again.goto(env.url);
  await again.click('#sign-in');
  await again.fill('.sign-in-box input[name=recovery-code]', code);
  await again.click('.sign-in-box button[data-sign-in=recovery]');
  await again.waitForFunction(() => /recovery code is no player's/.test(document.querySelector('.sign-in-box .form-error')?.textContent || ''));
  assert.equal(await kept(again), null);
  assert.deepEqual(fresh.errors.filter((e) => !/status of 40[34]/.test(e)), []);
  for (const p of [page, fresh, again]) await p.context().close();
});

test('a one-time link with its QR code signs a phone in once, and never carries the key', async () => {
  const desk = await env.page(DESKTOP);
  const omar = await asPlayer(desk, env.url, 'Omar');
  await desk.goto(`${env.url}/players/${omar.id}`);
  await desk.click('#make-link');
  await desk.waitForSelector('#link-slot svg.qr');
  const url = await desk.inputValue('#link-url');
  assert.match(url, new RegExp(`/players/${omar.id}#link=[0-9a-f]{64}$`));
  assert.ok(!url.includes(omar.token), 'the link never holds the key');
  await shot(desk, 'identity-link-desktop');

  const phone = await env.page(PHONE);
  await phone.goto(url);
  await phone.waitForSelector('#identity-taken');
  assert.equal(new URL(phone.url()).hash, '', 'the code is taken out of the address');
  const theirs = await kept(phone);
  assert.equal(theirs.id, omar.id);
  assert.notEqual(theirs.token, omar.token);
  await phone.waitForSelector('#devices li[data-how=link]');

  // Once: a second phone gets words, and no identity.
  const second = await env.page(PHONE);
  await second.goto(url);
  await second.waitForSelector('#identity-refused');
  assert.match(await second.textContent('#identity-refused'), /used, out of date/);
  assert.equal(await kept(second), null);
  for (const p of [desk, phone, second]) await p.context().close();
});

/** A virtual authenticator on this page (a platform one that holds discoverable passkeys). */
async function authenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true,
      hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('a passkey made on one browser signs a fresh browser context in', async () => {
  // Passkeys need a host name: WebAuthn takes no IP address as the site's id.
  const site = env.url.replace('127.0.0.1', 'localhost');
  const page = await env.page(DESKTOP);
  const lena = await asPlayer(page, site, 'Lena');
  const made = await authenticator(page);
  await page.goto(`${site}/players/${lena.id}`);
  await page.fill('#passkey-name', 'Laptop');
  await page.click('#add-passkey');
  await page.waitForSelector('#passkeys li');
  assert.match(await page.textContent('#passkeys li'), /Laptop/);
  const { credentials } = await made.cdp.send('WebAuthn.getCredentials', { authenticatorId: made.authenticatorId });
  assert.equal(credentials.length, 1);
  assert.ok(credentials[0].isResidentCredential, 'a discoverable passkey');
  await shot(page, 'identity-passkey-desktop');

  // A fresh context (no storage): the same passkey, as a synced one would be there.
  const fresh = await env.page(PHONE);
  const there = await authenticator(fresh);
  await there.cdp.send('WebAuthn.addCredential', { authenticatorId: there.authenticatorId, credential: credentials[0] });
  await fresh.goto(site);
  await fresh.click('#sign-in');
  await fresh.click('.sign-in-box button[data-sign-in=passkey]');
  await fresh.waitForURL(new RegExp(`/players/${lena.id}$`));
  const theirs = await kept(fresh);
  assert.equal(theirs.id, lena.id);
  assert.notEqual(theirs.token, lena.token);
  await fresh.waitForSelector('#devices li[data-how=passkey]');
  assert.match(await fresh.textContent('#passkeys li'), /last used today/);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
  for (const p of [page, fresh]) await p.context().close();
});
