// Railroad Ink by keyboard alone: after the start, a whole solo game is played with Tab, Enter,
// the arrow keys, R and F (no clicks): Tab reaches a die, Enter selects it, R/F turn it, an
// arrow puts the square cursor on the board (visible while the board has the focus), arrows
// move it, Enter places; Escape cancels a selection; End round by Tab and Enter.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, DESKTOP, firstLegal, PHONE, serverAndBrowser, shot, startGame, turnTo } from '../harness.js';

const env = serverAndBrowser();

/** Presses Tab (up to 120 times) until the focus is on an element matching `selector`. */
async function tabTo(page, selector) {
  for (let i = 0; i < 120; i++) {
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focusedSquare = (page) => page.evaluate(() => document.activeElement?.dataset?.square ?? null);

/** Moves the board's cursor with the arrow keys from where it is to `square`. */
async function arrowTo(page, square) {
  await page.keyboard.press('ArrowRight'); // from outside the board: onto its first legal square
  let at = await focusedSquare(page);
  assert.ok(at, 'an arrow key puts the focus on a square of the board');
  const rows = 'ABCDEFG';
  for (let guard = 0; at !== square && guard < 20; guard++) {
    const dr = rows.indexOf(square[0]) - rows.indexOf(at[0]);
    const dc = Number(square[1]) - Number(at[1]);
    await page.keyboard.press(dr > 0 ? 'ArrowDown' : dr < 0 ? 'ArrowUp' : dc > 0 ? 'ArrowRight' : 'ArrowLeft');
    at = await focusedSquare(page);
  }
  assert.equal(at, square);
}

/** Places the first legal die by keyboard; false when none fits. */
async function placeByKeys(page, id) {
  const st = await apiState(page, id);
  const p = firstLegal(st);
  if (!p) return false;
  await tabTo(page, `.choice-die[data-index="${p.die}"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.choice-die.selected[data-index="${p.die}"]`);
  await turnTo(page, p.orientation);
  await page.waitForSelector(`.preview[data-orientation="${p.orientation}"]`);
  await arrowTo(page, p.square);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#my-board g.placed[data-placement="${p.tile}${p.square}${p.orientation}"]`);
  return true;
}

test('a whole Railroad Ink solo game played with the keyboard alone, to the end screen', async () => {
  const page = await env.page(DESKTOP);
  const id = await startGame(page, env.url, { seed: 2024, name: 'Kim' });

  // Every control is reached by Tab, in order: the dice, the actions, the specials, then the
  // board (one stop: its cursor square), then the score toggles. (End round is disabled while
  // a die fits; the game below reaches it by Tab.)
  assert.ok(await placeByKeys(page, id));
  await page.evaluate(() => document.activeElement?.blur());
  const stops = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'body';
      if (el.dataset.square) return 'square';
      if (el.classList.contains('choice')) return `${el.dataset.kind}`;
      return el.id || el.tagName.toLowerCase();
    }));
  }
  stops.splice(stops.indexOf('body')); // one round of the page
  const first = (what) => stops.indexOf(what);
  for (const what of ['die', 'undo', 'hint', 'special', 'square', 'show-networks']) assert.ok(first(what) >= 0, `Tab reaches ${what}: ${stops.join(' ')}`);
  assert.ok(first('die') < first('undo') && first('undo') < first('special') && first('special') < first('square') && first('square') < first('show-networks'), stops.join(' '));
  assert.equal(stops.filter((s) => s === 'square').length, 1, 'the board is one Tab stop');
  assert.equal(stops.filter((s) => s === 'my-board').length, 0, 'the board itself is no Tab stop');

  // Escape cancels a selection; the focus is visible on a die and on the board.
  await tabTo(page, '.choice-die:not(.unavailable)');
  assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'none', 'a focused die shows its focus');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.choice-die.selected');
  await page.keyboard.press('ArrowRight');
  assert.ok(await focusedSquare(page));
  assert.equal(await page.locator('#my-board .layer-cursor').evaluate((el) => getComputedStyle(el).display !== 'none'), true, 'the cursor is drawn');
  assert.equal(await page.locator('#my-board .layer-cursor .cursor').getAttribute('data-square'), await focusedSquare(page));
  await shot(page, 'keyboard-cursor-desktop');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.choice.selected', { state: 'detached' });
  assert.match(await page.textContent('.message'), /Cancelled/);

  for (let round = 0; round < 7; round++) {
    await page.waitForSelector(`.round-pips li.now:text-is("${round + 1}")`);
    while (await placeByKeys(page, id)) { /* next die */ }
    await page.waitForSelector('#end-round:not([disabled])');
    await tabTo(page, '#end-round');
    await page.keyboard.press('Enter');
    if (round < 6) await page.waitForSelector(`.round-pips li.now:text-is("${round + 2}")`);
  }
  await page.waitForSelector('#winner');
  const st = await apiState(page, id);
  assert.equal(st.finished, true);
  assert.equal(st.players[0].rounds.length, 7);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone the keyboard cursor works too (an external keyboard), and the board squares are named', async () => {
  const page = await env.page(PHONE);
  const id = await startGame(page, env.url, { seed: 2, name: 'Kim' });
  const p = firstLegal(await apiState(page, id));
  assert.ok(await placeByKeys(page, id));
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('choice-die')), true, 'the focus moves on to the next die');
  const label = await page.locator(`#my-board [role=gridcell][data-square="${p.square}"]`).getAttribute('aria-label');
  assert.match(label, /^[A-G][0-6]: (railway|highway|(straight |corner )?station|overpass)/, label);
  await shot(page, 'keyboard-cursor-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
