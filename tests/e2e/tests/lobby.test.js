// The lobby of an online Railroad Ink game with a late joiner: the creator makes a game and
// gets its lobby (the invite link, who has joined, Start); friend A joins from the link and
// waits; the creator sees A arrive live and starts the game; friend B, opening the link after
// the start, watches (no join form, no seat) while the rounds go on for the two players.
// Screenshots of the lobby at 1280×800 and on a 390×844 phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, PHONE, playRound, seatOf, serverAndBrowser, shot, startGame, startOnline } from '../harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };

test('the lobby with a late joiner', async () => {
  const ann = await env.page(WIDE);
  const id = await startGame(ann, env.url, { mode: 'online', name: 'Ann', seed: 5 });
  // The lobby: the invite link, Ann alone, and the Start button; no board, no dice yet.
  const link = await ann.inputValue('#lobby .invite-link');
  assert.equal(link, `${env.url}/ink/${id}`);
  assert.match(await ann.textContent('#lobby-count'), /^1 player has joined/);
  assert.match(await ann.textContent('#lobby-players'), /Ann \(you\)/);
  assert.equal(await ann.locator('#my-board').isVisible(), false);
  assert.match(await ann.title(), /^Lobby/);
  await shot(ann, 'lobby-creator-desktop');

  // Friend A opens the link before the start: the join form, then the lobby, waiting.
  const amy = await env.page(PHONE);
  await amy.goto(link);
  await amy.waitForSelector('#join-name');
  assert.match(await amy.textContent('.join-card'), /waiting for the start/);
  await amy.fill('#join-name', 'Amy');
  await amy.click('#join');
  await amy.waitForSelector('#lobby-wait');
  assert.match(await amy.textContent('#lobby-wait'), /Waiting for Ann to start the game/);
  assert.equal(await amy.locator('#start-game').count(), 0, 'only the creator may start');
  await shot(amy, 'lobby-joined-phone');

  // Ann sees Amy arrive, live, then starts; nothing can be placed before (the server says 409).
  await ann.waitForSelector('#lobby-players li[data-seat="1"]');
  assert.match(await ann.textContent('#lobby-count'), /^2 players have joined/);
  await shot(ann, 'lobby-two-desktop');
  // (From here, not the page: the page would log the refusal as a console error.)
  const { token } = await seatOf(ann, id);
  const early = await fetch(`${env.url}/api/ink/games/${id}/end-round`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    .then(async (r) => [r.status, await r.json()]);
  assert.equal(early[0], 409);
  assert.match(early[1].error, /not started yet/);
  await startOnline(ann);
  await amy.waitForSelector('#my-board');
  assert.match(await ann.textContent('.message'), /The game has started/);
  let st = await apiState(ann, id);
  assert.equal(st.started, true);
  assert.equal(st.players.length, 2);

  // Friend B opens the link after the start: no join form, a watcher.
  const ben = await env.page(WIDE);
  await ben.goto(link);
  await ben.waitForSelector('#my-board');
  assert.equal(await ben.locator('#join-name').count(), 0);
  assert.match(await ben.textContent('.message'), /had started when you opened the link/);
  assert.match(await ben.textContent('.tray'), /You are watching this game/);
  assert.equal(await ben.evaluate((gid) => JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]').some((g) => g.id === gid), id), false);
  await shot(ben, 'lobby-late-watcher-desktop');
  const phoneBen = await env.page(PHONE);
  await phoneBen.goto(link);
  await phoneBen.waitForSelector('#my-board');
  await shot(phoneBen, 'lobby-late-watcher-phone');
  await phoneBen.context().close();

  // The rounds go on for the two players, and the watcher follows.
  for (let round = 0; round < 2; round++) {
    await playRound(ann, id, { by: 'click' });
    await playRound(amy, id);
    await ben.waitForSelector(`.round-pips li.now:text-is("${round + 2}")`);
  }
  st = await apiState(amy, id);
  assert.equal(st.round, 2);
  assert.equal(st.players.length, 2, 'the watcher took no seat');
  assert.ok(st.players.every((p) => p.board.length > 0));
  for (const page of [ann, amy, ben]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the lobby on a phone, and the creator alone', async () => {
  const page = await env.page(PHONE);
  const id = await startGame(page, env.url, { mode: 'online', name: 'Solo Sam' });
  assert.match(await page.textContent('#lobby'), /Nobody has joined yet/);
  await shot(page, 'lobby-creator-phone');
  // Alone, the creator may start: the game is then a one-player online game.
  await startOnline(page);
  const st = await apiState(page, id);
  assert.equal(st.started, true);
  assert.equal(st.dice.length, 4);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
