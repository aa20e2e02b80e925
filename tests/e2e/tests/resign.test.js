// Resigning: a person playing against the computer places a tile, then resigns (after the
// browser's confirmation); the computer plays their seat to the end, the page says who plays it,
// and the game ends with its scores. Screenshot at 1024×768.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, placeOne, serverAndBrowser, shot, startGame } from '../harness.js';

const env = serverAndBrowser();

test('a resigned seat is played by the computer to the end', async () => {
  const page = await env.page();
  const id = await startGame(page, env.url, { mode: 'computer', agent: 'greedy', seed: 12, name: 'Ada' });
  await placeOne(page, id);
  page.once('dialog', (dialog) => dialog.accept());
  await page.click('#resign');
  // The computer plays both seats now: the game runs to its end.
  let state = await apiState(page, id);
  for (let i = 0; i < 240 && !state.finished; i += 1) {
    await page.waitForTimeout(250);
    state = await apiState(page, id);
  }
  assert.deepEqual(state.resigned, [0]);
  assert.equal(state.finished, true);
  assert.deepEqual(state.winners, [1], 'whoever scored more, the computer that stayed wins');
  assert.match(await page.locator('.board-title').first().textContent(), /resigned/);
  await page.waitForSelector('#play-again');
  assert.equal(await page.locator('#resign').count(), 0, 'nothing to resign once the game is over');
  await shot(page, 'resigned-desktop');
});
