// A device's player goes with its person (issue 41, items 5 and 6): the new-game form and the
// online join form offer the player's name (never a friend's name typed for a hot-seat seat),
// and a best is kept for each game and variant (a lake game's never counts in the base game's).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, asPlayer as asPlayerAt, DESKTOP, PHONE, serverAndBrowser, startGame, finishByApi } from '../harness.js';
import { startMetro } from '../metro-harness.js';

const env = serverAndBrowser();
const asPlayer = (page, name) => asPlayerAt(page, env.url, name);

test('the new-game form offers the player\'s name after a hot-seat game named a seat for a friend', async () => {
  const page = await env.page(DESKTOP);
  await asPlayer(page, 'Wanda');
  // A Metro hot-seat game whose first seat on this device is a friend's.
  await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'here', name: 'Wanda' }] });
  await page.goto(env.url);
  await page.waitForSelector('#player-name');
  assert.equal(await page.inputValue('#player-name'), 'Wanda');
  await page.click('#game-metro');
  await page.waitForSelector('input[name=seat-0-name]');
  assert.equal(await page.inputValue('input[name=seat-0-name]'), 'Wanda');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the online join form offers the device\'s player and joins under that name', async () => {
  const host = await env.page(DESKTOP);
  const id = await startGame(host, env.url, { mode: 'online', name: 'Host' });
  const guest = await env.page(PHONE);
  await asPlayer(guest, 'Wendy');
  await guest.goto(`${env.url}/ink/${id}`);
  await guest.waitForSelector('#join-name');
  assert.equal(await guest.inputValue('#join-name'), 'Wendy');
  await guest.click('#join');
  await guest.waitForFunction(() => !document.querySelector('#join-name'));
  const st = await apiState(guest, id);
  assert.deepEqual(st.players.map((p) => p.name), ['Host', 'Wendy']);
  assert.deepEqual(guest.errors, []);
  await host.context().close();
  await guest.context().close();
});

test('a lake game keeps a best of its own: the base game\'s card and records are the base game\'s', async () => {
  const page = await env.page(DESKTOP);
  const me = await asPlayer(page, 'Lena');
  const base = await startGame(page, env.url, { mode: 'solo', name: 'Lena' });
  await finishByApi(page, base);
  const baseScore = (await apiState(page, base)).players[0].score.advanced;
  // A lake game, made as the page makes one, played to its end.
  await page.goto(env.url);
  await page.waitForSelector('#expansion');
  await page.selectOption('#expansion', 'lake');
  await page.click('#start');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  const lake = page.url().split('/').pop();
  await finishByApi(page, lake);
  await page.waitForSelector('#winner');
  const lakeScore = (await apiState(page, lake)).players[0].score.advanced;
  // The end screen never calls it a new best "up from" the base game's score.
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#new-best:not([hidden])').count(), 0);
  // The records: one row for the base game, one for the lake.
  await page.goto(`${env.url}/players/${me.id}`);
  await page.waitForSelector('#player-bests');
  const rows = await page.locator('#player-bests tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.game, tr.dataset.variant, tr.dataset.mode, tr.querySelector('.best').textContent.trim()]));
  assert.deepEqual(rows, [['ink', 'none', 'solo', String(baseScore)], ['ink', 'lake', 'solo', String(lakeScore)]]);
  assert.match(await page.textContent('#player-bests'), /Railroad Ink, lake expansion/);
  // The start page's solo card shows the base game's best.
  await page.goto(env.url);
  await page.waitForSelector('#solo-best');
  const shown = baseScore < 0 ? `\u2212${-baseScore}` : String(baseScore);
  assert.equal(await page.textContent('#solo-best'), `Your best: ${shown} ${Math.abs(baseScore) === 1 ? 'point' : 'points'}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
