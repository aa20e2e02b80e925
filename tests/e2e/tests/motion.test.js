// Motion and sounds: the round's dice roll in, the computer's tiles appear one by one, a
// finished game's replay plays itself (play and pause), and under reduced motion (Playwright's
// emulation of prefers-reduced-motion) nothing moves at all; sounds are off until turned on, are
// made on a placement, a new round and the end, and the choice is remembered across a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, finishByApi, PHONE, placeOne, playRound, serverAndBrowser, shot, startGame } from '../harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };

test('the round\'s dice roll in, and nothing moves under reduced motion', async () => {
  for (const [size, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    const id = await startGame(page, env.url, { seed: 3 });
    await playRound(page, id, { by: 'click' });
    await page.waitForSelector('.dice-row.rolling', { timeout: 3000 });
    const name = await page.locator('.dice-row.rolling .choice-die').first().evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(name, 'die-roll');
    await shot(page, `motion-dice-rolling-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  const still = await env.page({ ...WIDE, reducedMotion: 'reduce' });
  const id = await startGame(still, env.url, { seed: 3 });
  await playRound(still, id, { by: 'click' });
  await still.waitForSelector('.round-pips li.now:text-is("2")');
  assert.equal(await still.locator('.dice-row.rolling').count(), 0);
  await still.click('.choice-die:not(.unavailable)');
  // Not even the legal squares' pulse, a button's fade or a refused square's flash.
  assert.equal(await still.evaluate(() => document.getAnimations().length), 0);
  await still.context().close();
});

/** Records each count of the computer's tiles drawn on its board, as the page changes. */
async function watchComputerBoard(page) {
  await page.evaluate(() => {
    window.counts = [];
    const record = () => {
      const n = document.querySelectorAll('#board-1 g.placed').length;
      if (window.counts[window.counts.length - 1] !== n) window.counts.push(n);
    };
    new MutationObserver(record).observe(document.querySelector('.others'), { subtree: true, childList: true, attributes: true });
    record();
  });
}

async function computerRoundShown(page, id) {
  for (let i = 0; i < 300; i++) {
    const st = await apiState(page, id);
    const drawn = await page.locator('#board-1 g.placed').count();
    if (st.round === 1 && st.players[1].round_done && drawn === st.players[1].board.length / 5
      && await page.locator('.other .status-placing').count() === 0) return drawn;
    await page.waitForTimeout(50);
  }
  throw new Error('the computer\'s round did not show');
}

test('the computer\'s tiles appear one by one (at once under reduced motion)', async () => {
  for (const [label, options, size] of [['moving', WIDE, 'desktop'], ['moving', PHONE, 'phone'], ['still', { ...WIDE, reducedMotion: 'reduce' }]]) {
    const page = await env.page(options);
    const id = await startGame(page, env.url, { mode: 'computer', agent: 'greedy', seed: 8 });
    await page.waitForSelector('#board-1 g.placed');
    await watchComputerBoard(page);
    await playRound(page, id, { by: 'click' });
    if (label === 'moving') {
      await page.waitForSelector('.other .status-placing', { timeout: 10000 });
      assert.match(await page.textContent('.other .status-placing'), /placing its tiles/);
      assert.match(await page.textContent('.player-status'), /Computer \(greedy\) placing its tiles/, 'the bar says the same');
      await shot(page, `motion-computer-placing-${size}`);
    }
    const total = await computerRoundShown(page, id);
    const counts = await page.evaluate(() => window.counts);
    assert.equal(counts[counts.length - 1], total);
    if (label === 'moving') {
      assert.ok(counts.length >= 3, `one by one: ${counts.join(' → ')}`);
      for (let i = 1; i < counts.length; i++) assert.equal(counts[i], counts[i - 1] + 1, `one at a time: ${counts.join(' → ')}`);
    } else {
      assert.equal(counts.length, 2, `at once: ${counts.join(' → ')}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a finished game\'s replay plays itself, and pauses', async () => {
  for (const [size, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    const id = await startGame(page, env.url, { seed: 2 });
    await finishByApi(page, id);
    await page.goto(`${env.url}/ink/${id}/replay`);
    await page.waitForSelector('#step-play');
    const last = Number(await page.getAttribute('#step-slider', 'max'));
    assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'false');
    // At the end, Play starts from the beginning.
    await page.click('#step-play');
    assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'true');
    await page.waitForFunction(() => Number(document.querySelector('#step-slider').value) >= 3, null, { timeout: 10000 });
    const playing = Number(await page.inputValue('#step-slider'));
    assert.ok(playing < last);
    await shot(page, `motion-replay-playing-${size}`);
    await page.click('#step-play');
    assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'false');
    const paused = Number(await page.inputValue('#step-slider'));
    await page.waitForTimeout(1600);
    assert.equal(Number(await page.inputValue('#step-slider')), paused, 'paused stays');
    assert.match(await page.textContent('#step-caption'), new RegExp(`Action ${paused} of ${last}`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('sounds are off until turned on, then play on a placement, a new round and the end, and stay on', async () => {
  const page = await env.page(WIDE);
  const id = await startGame(page, env.url, { seed: 5 });
  const sound = () => page.evaluate(() => [document.documentElement.dataset.sound ?? null, Number(document.documentElement.dataset.soundCount || 0)]);
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
  await placeOne(page, id, { by: 'click' });
  assert.deepEqual(await sound(), [null, 0], 'silent by default');
  await page.click('#sound-toggle');
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => localStorage.getItem('tracklayer:sounds')), 'on');
  assert.deepEqual(await sound(), ['place', 1], 'a sample when turned on');
  await placeOne(page, id, { by: 'click' });
  assert.deepEqual(await sound(), ['place', 2]);
  await playRound(page, id, { by: 'click' });
  await page.waitForFunction(() => document.documentElement.dataset.sound === 'round');
  // Remembered on this device.
  await page.reload();
  await page.waitForSelector('#sound-toggle[aria-pressed="true"]');
  await shot(page, 'motion-sounds-on-desktop');
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  await page.waitForFunction(() => document.documentElement.dataset.sound === 'end');
  await page.click('#sound-toggle');
  assert.equal(await page.evaluate(() => localStorage.getItem('tracklayer:sounds')), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await env.page(PHONE);
  await startGame(phone, env.url, { seed: 5 });
  assert.equal(await phone.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
  const box = await phone.locator('#sound-toggle').boundingBox();
  assert.ok(box.height >= 44 && box.width >= 44, JSON.stringify(box));
  await shot(phone, 'motion-sounds-phone');
  await phone.context().close();
});
