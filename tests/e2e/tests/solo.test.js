// Solo and against the computer, in Chromium: the start and rules screens, selecting,
// rotating and flipping, an illegal drop refused with its reason, undo, a special, a whole
// game by drag and drop with a reload in the middle, the end screen, and the hint.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiState, DESKTOP, drag, firstLegal, PHONE, placeOne, playRound, serverAndBrowser, shot, startGame,
  touchDrag, turnTo,
} from '../harness.js';

const env = serverAndBrowser();

function squaresOf(text) {
  return (text.match(/../g) || []).sort();
}

async function highlighted(page) {
  const squares = await page.locator('#my-board .layer-legal .legal').evaluateAll((els) => els.map((e) => e.dataset.square));
  return squares.sort();
}

test('the start screen and the rules with every tile, at 1024×768 and on a phone', async () => {
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#start');
    assert.equal(await page.locator('input[name=mode]').count(), 3);
    await shot(page, `start-${label}`);
    await page.click('.site-nav a[href="/rules"]');
    await page.waitForSelector('.tile-grid .tile-card');
    assert.equal(await page.locator('.tile-grid .tile-card').count(), 15);
    for (const tile of ['A0', 'B2', 'S5']) {
      assert.equal(await page.locator(`.tile-card[data-tile="${tile}"] svg`).count(), 1);
    }
    assert.equal(await page.locator('.tile-card[data-tile="B2"] .bridge-rail').count(), 2, 'the overpass has a bridge');
    assert.equal(await page.locator('.tile-card[data-tile="B0"] .station').count(), 1, 'a station has a building');
    assert.equal(await page.locator('.rules-board .exit').count(), 12);
    await shot(page, `rules-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('rotate and flip follow the server, an illegal drop is refused with the reason, undo, a special', async () => {
  const page = await env.page(DESKTOP);
  // Seed 2 rolls A1 A5 A3 B1 first: B1 looks different in all eight orientations.
  const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
  let st = await apiState(page, id);
  assert.deepEqual(st.dice, ['A1', 'A5', 'A3', 'B1']);
  const b1 = st.you.dice[3].legal;
  await page.click('.choice-die[data-index="3"]');
  const table = await page.evaluate(async () => (await fetch('/api/ink/tiles')).json());
  let o = 0;
  const check = async () => {
    await page.waitForSelector(`.preview[data-orientation="${o}"]`);
    assert.deepEqual(await highlighted(page), squaresOf(b1[o]), `orientation ${o}`);
  };
  await check();
  await page.keyboard.press('r'); o = table.rotate[o]; await check();
  await page.keyboard.press('r'); o = table.rotate[o]; await check();
  await page.keyboard.press('f'); o = table.flip[o]; await check();
  assert.ok(o >= 4, 'flipped');
  await page.click('#rotate'); o = table.rotate[o]; await check();
  await page.click('#rotate-left'); o = table.rotate[table.rotate[table.rotate[o]]]; await check();
  await page.click('#flip'); o = table.flip[o]; await check();
  await page.keyboard.press('Shift+R'); o = table.rotate[table.rotate[table.rotate[o]]]; await check();
  await shot(page, 'game-rotate-desktop');

  // An illegal drop: the centre square connects to nothing.
  await page.keyboard.press('Escape');
  await drag(page, '.choice-die[data-index="0"]', 'D3');
  await page.waitForSelector('.message.error');
  const refusal = await page.textContent('.message');
  assert.match(refusal, /The railway straight can't go on D3 turned this way: none of its routes would continue a route or meet an exit\./);
  assert.equal(await page.textContent('.message .rule-chip'), 'no valid connection');
  assert.equal(await page.locator('#my-board g.placed').count(), 0);
  await shot(page, 'game-illegal-drop-desktop');

  // Place, then undo.
  const placed = await placeOne(page, id);
  assert.ok(placed);
  assert.equal(await page.locator('.choice-die.used').count(), 1);
  await page.click('#undo');
  await page.waitForSelector('#my-board g.placed', { state: 'detached' });
  assert.equal(await page.locator('.choice-die.used').count(), 0);
  assert.ok(await page.isDisabled('#undo'));

  // The end of the round is refused while dice fit, and says why.
  assert.ok(await page.isDisabled('#end-round'));
  assert.match(await page.textContent('#end-reason'), /still fits/);

  // A special: S2 (highway crossroads) next to the highway exit on D0.
  assert.match(await page.textContent('#special-limits'), /0 of 3 used · 1 a round/);
  await drag(page, '.choice-special[data-tile="S2"]', 'D0');
  await page.waitForSelector('#my-board g.placed[data-placement="S2D00"]');
  assert.match(await page.textContent('#special-limits'), /1 of 3 used/);
  assert.equal(await page.locator('.choice-special.unavailable').count(), 6, 'one special a round');
  await page.click('.choice-special[data-tile="S3"]');
  assert.match(await page.textContent('.message'), /one special a round|at most one a round/);
  await shot(page, 'game-special-desktop');
  st = await apiState(page, id);
  assert.equal(st.players[0].board, 'S2D00');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a whole solo game by drag and drop, with a reload mid-game, to the end screen', async () => {
  const page = await env.page(DESKTOP);
  const id = await startGame(page, env.url, { seed: 2024, name: 'Ada' });
  for (let round = 0; round < 7; round++) {
    await page.waitForSelector(`.round-pips li.now:text-is("${round + 1}")`);
    if (round === 3) {
      const first = await placeOne(page, id);
      await page.reload();
      await page.waitForSelector(`#my-board g.placed[data-placement="${first}"]`);
      assert.equal(await page.locator('.choice-die.used').count(), 1, 'the reload keeps the round');
    }
    if (round === 2) {
      assert.equal(await page.title(), 'Round 3 of 7 · Railroad Ink · tracklayer');
      await page.click('#show-networks');
      await page.click('#show-errors');
      await shot(page, 'game-solo-desktop');
      await page.click('#show-networks');
      await page.click('#show-errors');
    }
    await playRound(page, id);
  }
  await page.waitForSelector('#winner');
  assert.match(await page.textContent('#winner'), /You scored -?\d+ points?/);
  const st = await apiState(page, id);
  assert.equal(st.finished, true);
  assert.equal(st.players[0].rounds.length, 7);
  // The breakdown is drawn on the board.
  assert.ok(await page.locator('#my-board.show-networks.show-errors.show-centre.show-longest').count());
  const total = await page.textContent('.breakdown .total td');
  assert.equal(Number(total), st.players[0].score.advanced);
  await shot(page, 'end-solo-desktop');
  assert.deepEqual(page.errors, []);

  // The finished game on a phone (as a spectator: anyone can see a finished game).
  const phone = await env.page(PHONE);
  await phone.goto(`${env.url}/ink/${id}`);
  await phone.waitForSelector('#winner');
  await shot(phone, 'end-solo-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
  await page.context().close();
});

test('against the computer: its board beside yours, the hint, on a phone too', async () => {
  const page = await env.page(DESKTOP);
  const id = await startGame(page, env.url, { mode: 'computer', seed: 5, agent: 'greedy' });
  await page.waitForSelector('#board-1 g.placed');
  assert.match(await page.textContent('.other .board-name'), /Computer \(greedy\)/);
  await page.click('#hint');
  await page.waitForSelector('#my-board .hint-tile');
  assert.match(await page.textContent('.message.hint'), /The computer suggests: 1\. /);
  await shot(page, 'game-computer-desktop');
  await playRound(page, id);
  await page.waitForSelector('.round-pips li.now:text-is("2")');
  await page.waitForFunction(() => document.querySelectorAll('#board-1 g.placed').length >= 5);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await env.page(PHONE);
  const pid = await startGame(phone, env.url, { mode: 'computer', seed: 6 });
  await phone.waitForSelector('#board-1 g.placed');
  // A finger drags a die onto the board.
  const p = firstLegal(await apiState(phone, pid));
  await phone.click(`.choice-die[data-index="${p.die}"]`);
  await turnTo(phone, p.orientation);
  await phone.waitForSelector(`.preview[data-orientation="${p.orientation}"]`);
  await touchDrag(phone, `.choice-die[data-index="${p.die}"]`, p.square);
  await phone.waitForSelector(`#my-board g.placed[data-placement="${p.tile}${p.square}${p.orientation}"]`);
  await placeOne(phone, pid);
  await shot(phone, 'game-computer-phone');
  await playRound(phone, pid);
  await phone.waitForSelector('.round-pips li.now:text-is("2")');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});
