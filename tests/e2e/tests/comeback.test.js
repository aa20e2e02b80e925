// What brings a player back, in Chromium: "New best" on the end screen of a game that beat the
// player's best, the records on the player page, and Play again from a solo game.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, DESKTOP, finishByApi, PHONE, serverAndBrowser, shot } from '../harness.js';

const env = serverAndBrowser();

/** Makes a player for this page's device (as the name form does) and returns it. */
async function becomePlayer(page, name) {
  return page.evaluate(async (n) => {
    const r = await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: n }) });
    const made = await r.json();
    const me = { id: made.id, token: made.token, name: made.name };
    localStorage.setItem('tracklayer:player', JSON.stringify(me));
    return me;
  }, name);
}

/** A solo game made as the page makes one (with the device's player), its seat kept; its id. */
async function soloGame(page, seed) {
  return page.evaluate(async (s) => {
    const me = JSON.parse(localStorage.getItem('tracklayer:player'));
    const r = await fetch('/api/ink/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${me.token}` },
      body: JSON.stringify({ mode: 'solo', seed: String(s), name: me.name }),
    });
    const made = await r.json();
    const held = JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]');
    held.unshift({ id: made.id, seats: made.seats, mode: 'solo', name: me.name });
    localStorage.setItem('tracklayer:ink:games', JSON.stringify(held));
    return made.id;
  }, seed);
}

test('a game that beats the best says "New best"; the player page keeps the records', async () => {
  const page = await env.page(DESKTOP);
  await page.goto(env.url);
  const me = await becomePlayer(page, 'Nora');
  // The first game sets a best without beating one.
  const first = await soloGame(page, 1);
  await finishByApi(page, first);
  let best = (await apiState(page, first)).players[0].score.advanced;
  await page.goto(`${env.url}/ink/${first}`);
  await page.waitForSelector('#winner');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#new-best:not([hidden])').count(), 0, 'a first game is no new best');
  // Games on other dice until one beats it (the same placements every time: the dice decide).
  let beaten = null;
  for (let seed = 2; seed < 40 && !beaten; seed++) {
    const id = await soloGame(page, seed);
    await finishByApi(page, id);
    const score = (await apiState(page, id)).players[0].score.advanced;
    if (score > best) beaten = { id, score, previous: best };
    best = Math.max(best, score);
  }
  assert.ok(beaten, 'some dice beat the first game');
  await page.goto(`${env.url}/ink/${beaten.id}`);
  await page.waitForSelector('#new-best:not([hidden])');
  assert.match(await page.textContent('#new-best'), new RegExp(`^New best! ${beaten.score}, up from ${beaten.previous}: your best of \\d+ games \\(solo\\)\\.$`));
  await shot(page, 'new-best-desktop');
  // Play again from a solo game: a new game of the same mode and name, new dice.
  await page.click('#play-again');
  await page.waitForURL((url) => /\/ink\/[0-9a-f]{24}$/.test(url.pathname) && !url.pathname.endsWith(beaten.id));
  await page.waitForSelector('#my-board');
  const again = await apiState(page, new URL(page.url()).pathname.split('/').pop());
  assert.equal(again.mode, 'solo');
  assert.equal(again.players[0].name, 'Nora');
  assert.equal(again.round, 0);

  // The player page: the record with its best game, on a phone too.
  for (const [options, name] of [[DESKTOP, 'records-desktop'], [PHONE, 'records-phone']]) {
    const p = options === DESKTOP ? page : await env.page(options);
    await p.goto(`${env.url}/players/${me.id}`);
    const row = p.locator('#player-bests tr[data-game="ink"][data-mode="solo"]');
    await row.waitFor();
    assert.match(await row.textContent(), /Railroad InkSolo/);
    assert.equal(await row.locator('td.best').textContent(), String(best));
    assert.match(await row.locator('td.best a').getAttribute('href'), /^\/ink\/[0-9a-f]{24}\/replay$/, 'the best links to its game');
    await shot(p, name);
    assert.deepEqual(p.errors, []);
    if (p !== page) await p.context().close();
  }
  await page.context().close();
});

/** Plays today's daily Railroad Ink from the start page's card to its end screen; the game's id. */
async function playDaily(page, name) {
  await page.goto(env.url);
  await page.locator('.challenge-card[data-kind=daily] button.play-challenge').click();
  await page.waitForSelector('.name-form input');
  await page.fill('.name-form input', name);
  await page.click('.name-form button[type=submit]');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector('#my-board');
  const id = new URL(page.url()).pathname.split('/').pop();
  await finishByApi(page, id);
  await page.waitForSelector('#share-result');
  return id;
}

test('Share on a phone hands the text to the share sheet; on a desktop, to the clipboard', async () => {
  const phone = await env.page(PHONE);
  // The share sheet, recorded instead of shown.
  await phone.addInitScript(() => {
    window.shared = [];
    navigator.share = async (data) => { window.shared.push(data); };
  });
  await playDaily(phone, 'Pia');
  await phone.click('#share-result');
  await phone.waitForFunction(() => window.shared.length === 1);
  const { text } = await phone.evaluate(() => window.shared[0]);
  assert.match(text, /^tracklayer · Daily Railroad Ink · \d{1,2} \w+ \d{4}\n/);
  assert.match(text, /1st of 1|of \d+/);
  assert.match(text, /(🟩|🟥|⬜){7}/u);
  assert.match(text, /\/challenges\/daily-\d{4}-\d{2}-\d{2}$/);
  assert.doesNotMatch(text.replace(/https?:\/\/\S+/, ''), /[A-Z]\d/, 'no tile, placement or roll');
  assert.equal(await phone.textContent('#share-note'), 'Shared.');
  await shot(phone, 'share-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();

  const desk = await env.page(DESKTOP);
  await desk.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  await playDaily(desk, 'Dirk');
  await desk.click('#share-result');
  await desk.waitForSelector('#share-note:text("Copied")');
  const copied = await desk.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^tracklayer · Daily Railroad Ink/);
  assert.match(copied, /of 2/, 'Pia finished first');
  assert.deepEqual(desk.errors, []);
  await desk.context().close();
});

test('a busy server (503 with Retry-After) is waited for calmly and tried again', async () => {
  const page = await env.page(DESKTOP);
  // The first answer to today's challenges is a busy server's; the next is the real one.
  let turnedAway = 0;
  await page.route('**/api/challenges/current', async (route) => {
    if (turnedAway === 0) {
      turnedAway += 1;
      await route.fulfill({
        status: 503,
        headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
        body: JSON.stringify({ error: 'the server is busy: try again in 1 s' }),
      });
    } else {
      await route.continue();
    }
  });
  await page.goto(env.url);
  await page.waitForSelector('#busy-note:not([hidden])');
  assert.match(await page.textContent('#busy-note'), /busy: trying again/);
  await shot(page, 'busy-desktop');
  // Tried again after the second asked for: the cards come, and the note goes.
  await page.waitForSelector('.challenge-card');
  await page.waitForSelector('#busy-note', { state: 'hidden' });
  assert.equal(turnedAway, 1);
  assert.deepEqual(page.errors.filter((e) => !/status of 503/.test(e)), []);
  await page.context().close();
});
