// Deep Blue's lake and river expansions in Chromium: the start page's choice, a whole lake game
// by clicking (and dragging) with the optional lake dice skipped in some rounds, a whole river
// game by keyboard alone, a refusal in words, floods drawn on the board (and in the viewer),
// the score breakdown's expansion row, and the rules' section with both dice's faces.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { apiState, firstLegal, gameId, PHONE, placeOne, serverAndBrowser, shot, turnTo } from '../harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };

/** Starts a game of `expansion` from the start page. */
async function startExpansion(page, expansion, { name, seed, mode = 'solo', agent } = {}) {
  await page.goto(env.url);
  await page.waitForSelector('#expansion');
  await page.locator(`input[name=mode][value=${mode}]`).check({ force: true });
  if (agent) await page.selectOption('#agent', agent);
  await page.selectOption('#expansion', expansion);
  if (name) await page.fill('#player-name', name);
  if (seed !== undefined) {
    await page.click('details.more summary');
    await page.fill('#seed', String(seed));
  }
  await page.click('#start');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector(mode === 'online' ? '#lobby' : '#my-board');
  return gameId(page);
}

/** The route dice of a state only (the expansion dice left out): what must be placed. */
function routeOnly(st) {
  return { ...st, you: { ...st.you, dice: st.you.dice.filter((d) => !d.optional) } };
}

/** Places the first legal route die by clicking (select, turn, click the square). */
async function placeRouteDie(page, id) {
  const p = firstLegal(routeOnly(await apiState(page, id)));
  if (!p) return null;
  const button = `.choice-die[data-index="${p.die}"]`;
  await page.click(button);
  await turnTo(page, p.orientation);
  await page.waitForSelector(`.preview[data-orientation="${p.orientation}"]`);
  const box = await page.locator('#my-board').boundingBox();
  const scale = box.width / 792;
  await page.mouse.click(box.x + (46 + Number(p.square[1]) * 100 + 50) * scale, box.y + (46 + 'ABCDEFG'.indexOf(p.square[0]) * 100 + 50) * scale);
  const placement = `${p.tile}${p.square}${p.orientation}`;
  await page.waitForSelector(`#my-board g.placed[data-placement="${placement}"]`);
  return placement;
}

/** Asserts the page draws every flooded square of the state as water. */
async function floodsDrawn(page, st) {
  const flooded = st.players[st.you?.seat ?? 0].flooded || [];
  const drawn = await page.locator('#my-board g.flooded').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(drawn, [...flooded].sort());
}

test('the start page offers the expansions; the rules show both dice', async () => {
  for (const [label, options] of [['wide', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#expansion');
    assert.equal(await page.locator('#expansion option').count(), 3);
    assert.equal(await page.inputValue('#expansion'), 'none', 'the base game by default');
    assert.equal(await page.textContent('label[for=expansion]'), 'Deep Blue expansion');
    // The solo card counts the rounds of the game chosen.
    const solo = page.locator('.mode-card').first().locator('.mode-text');
    assert.match(await solo.textContent(), /^Seven rounds/);
    await page.selectOption('#expansion', 'lake');
    assert.match(await solo.textContent(), /^Six rounds/);
    await page.selectOption('#expansion', 'none');
    assert.match(await solo.textContent(), /^Seven rounds/);
    assert.equal(await page.locator('input[name=mode]').count(), 3);
    await shot(page, `expansions-start-${label}`);
    await page.goto(`${env.url}/rules`);
    await page.waitForSelector('#expansions');
    assert.equal(await page.locator('.tile-grid .tile-card').count(), 15, 'the base tiles as before');
    assert.equal(await page.locator('#lake-die .tile-card').count(), 6);
    assert.equal(await page.locator('#river-die .tile-card').count(), 4);
    assert.equal(await page.locator('#flooded-square .tile-card').count(), 1);
    assert.ok(await page.locator('#lake-die .tile-card[data-tile="L2"] .lake').count() > 0, 'lake tiles show water');
    assert.equal(await page.locator('#river-die .tile-card[data-tile="V2"] .bridge-rail').count(), 2, 'a bridge over the river');
    await page.locator('#expansions').scrollIntoViewIfNeeded();
    await shot(page, `expansions-rules-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a whole lake game by clicking: lake dice placed or skipped, floods drawn, the lake scored', async () => {
  const page = await env.page(WIDE);
  const id = await startExpansion(page, 'lake', { seed: 77, name: 'Ada' });
  let st = await apiState(page, id);
  assert.equal(st.expansion, 'lake');
  assert.equal(st.rounds, 6);
  assert.equal(await page.locator('.route-dice .choice-die').count(), 4);
  assert.equal(await page.locator('.expansion-dice .choice-die').count(), 2);
  assert.match(await page.textContent('.dice-panel'), /Lake dice\s*optional/);
  assert.match(await page.textContent('#expansion-note'), /skip them/);
  assert.equal(await page.locator('.round-pips li').count(), 6);
  await page.waitForSelector('.dice-row.rolling', { state: 'detached' });
  await shot(page, 'expansions-lake-start-wide');

  // A refusal in words: a lake die on a square where it does not fit.
  const lake = st.you.dice.find((d) => d.optional);
  const legal = new Set((lake.legal[0].match(/../g) || []));
  const bad = ['A0', 'A3', 'D0', 'D6', 'G3', 'D3', 'C2'].find((sq) => !legal.has(sq));
  await page.click(`.choice-die[data-index="${lake.die}"]`);
  const box = await page.locator('#my-board').boundingBox();
  const scale = box.width / 792;
  await page.mouse.click(box.x + (46 + Number(bad[1]) * 100 + 50) * scale, box.y + (46 + 'ABCDEFG'.indexOf(bad[0]) * 100 + 50) * scale);
  await page.waitForSelector('.message.error');
  const refusal = await page.textContent('.message');
  assert.match(refusal, /can't go on|cannot|water|lake|connect/i, refusal);
  assert.doesNotMatch(refusal, /E3\.\d:|rule E/, 'the refusal is in words');
  await page.keyboard.press('Escape');

  for (let round = 0; round < 6; round++) {
    await page.waitForSelector(`.round-pips li.now:text-is("${round + 1}")`);
    if (round % 2 === 1) {
      // Skip the lake dice: only the route dice, then End round says they cost nothing.
      while (await placeRouteDie(page, id)) { /* next route die */ }
      await page.waitForSelector('#end-round:not([disabled])');
      assert.match(await page.textContent('#end-round'), /skip lake dice/);
      await page.click('#end-round');
      await page.waitForFunction(() => /optional, so that costs nothing/.test(document.querySelector('.message')?.textContent || ''));
    } else {
      // Every die that fits, the lake dice too.
      while (await placeOne(page, id, { by: 'click' })) { /* next die */ }
      st = await apiState(page, id);
      await floodsDrawn(page, st);
      if (round === 2) await shot(page, 'expansions-lake-round3-wide');
      await page.waitForSelector('#end-round:not([disabled])');
      await page.click('#end-round');
    }
  }
  await page.waitForSelector('#winner');
  st = await apiState(page, id);
  assert.equal(st.finished, true);
  assert.equal(st.players[0].rounds.length, 6);
  await floodsDrawn(page, st);
  const row = await page.textContent('.breakdown .expansion-row');
  assert.match(row, /Smallest lake/);
  assert.equal(Number(await page.textContent('.breakdown .total td')), st.players[0].score.advanced);
  if ((st.players[0].breakdown.lakes || []).length) {
    assert.ok(await page.locator('#my-board.show-water .layer-water .lake-mark').count() > 0, 'the smallest lake is drawn');
  }
  await shot(page, 'expansions-lake-end-wide');

  // Its replay takes the expansion: six rounds, the lake dice shown, the same score.
  await page.click('#replay-link');
  await page.waitForSelector('.replay-boards');
  assert.match(await page.textContent('main'), /Lake expansion/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Presses Tab (up to 120 times) until the focus is on an element matching `selector`. */
async function tabTo(page, selector) {
  for (let i = 0; i < 120; i++) {
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Moves the board's cursor with the arrow keys to `square`. */
async function arrowTo(page, square) {
  await page.keyboard.press('ArrowRight');
  const at = () => page.evaluate(() => document.activeElement?.dataset?.square ?? null);
  let now = await at();
  const rows = 'ABCDEFG';
  for (let guard = 0; now !== square && guard < 20; guard++) {
    const dr = rows.indexOf(square[0]) - rows.indexOf(now[0]);
    const dc = Number(square[1]) - Number(now[1]);
    await page.keyboard.press(dr > 0 ? 'ArrowDown' : dr < 0 ? 'ArrowUp' : dc > 0 ? 'ArrowRight' : 'ArrowLeft');
    now = await at();
  }
  assert.equal(now, square);
}

/** Places the first legal die (route dice first; `river`: the river dice too) by keyboard. */
async function placeByKeys(page, id, { river }) {
  const st = await apiState(page, id);
  const p = firstLegal(river ? st : routeOnly(st));
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

test('a whole river game by keyboard alone, the river dice placed in some rounds', async () => {
  const page = await env.page(WIDE);
  const id = await startExpansion(page, 'river', { seed: 5, name: 'Bo' });
  let st = await apiState(page, id);
  assert.equal(st.expansion, 'river');
  assert.match(await page.textContent('.dice-panel'), /River dice\s*optional/);
  for (let round = 0; round < 6; round++) {
    await page.waitForSelector(`.round-pips li.now:text-is("${round + 1}")`);
    const river = round % 2 === 0;
    while (await placeByKeys(page, id, { river })) { /* next die */ }
    if (round === 2) await shot(page, 'expansions-river-round3-wide');
    await tabTo(page, '#end-round:not([disabled])');
    await page.keyboard.press('Enter');
  }
  await page.waitForSelector('#winner');
  st = await apiState(page, id);
  assert.equal(st.finished, true);
  assert.equal(st.players[0].rounds.length, 6);
  assert.match(await page.textContent('.breakdown .expansion-row'), /Best river/);
  assert.equal(Number(await page.textContent('.breakdown .total td')), st.players[0].score.advanced);
  await shot(page, 'expansions-river-end-wide');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone: a lake game shows its optional dice, and the viewer shows a flood', async () => {
  const page = await env.page(PHONE);
  const id = await startExpansion(page, 'lake', { seed: 9 });
  await page.waitForSelector('.expansion-dice .choice-die');
  await page.waitForSelector('.dice-row.rolling', { state: 'detached' });
  await shot(page, 'expansions-lake-phone');
  assert.ok(id);
  await page.goto(`${env.url}/view/ink?board=L0C30L0D23L0D41&expansion=lake`);
  await page.waitForSelector('#my-board, .board');
  await page.waitForSelector('svg.board g.flooded[data-square="D3"]');
  assert.match(await page.textContent('.breakdown .expansion-row'), /Smallest lake: 4 squares/);
  await shot(page, 'expansions-viewer-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Deep Blue lesson: a river step, then a lake step that floods a square', async () => {
  for (const [label, options] of [['wide', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/tutorial/ink`);
    await page.click('#deep-blue-lesson');
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'The river runs');
    assert.equal(await page.locator('#tutorial-board g.placed').count(), 2);
    await page.keyboard.press('r');
    await page.waitForSelector('.preview[data-orientation="1"]');
    const at = async (sq) => {
      await page.locator('#tutorial-board').scrollIntoViewIfNeeded();
      const box = await page.locator('#tutorial-board').boundingBox();
      return [box.x + (46 + Number(sq[1]) * 100 + 50) * box.width / 792, box.y + (46 + 'ABCDEFG'.indexOf(sq[0]) * 100 + 50) * box.width / 792];
    };
    await page.mouse.click(...await at('A2'));
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'The lake floods');
    assert.match(await page.textContent('#tutorial-message'), /river of three squares/);
    await page.keyboard.press('r');
    await page.waitForSelector('.preview[data-orientation="1"]');
    await page.mouse.click(...await at('D4'));
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'You know the expansions');
    await page.waitForSelector('#tutorial-board g.flooded[data-square="D3"]');
    assert.match(await page.textContent('#tutorial-message'), /D3 flooded/);
    await shot(page, `expansions-tutorial-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical violations axe finds on the page as it is now. */
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
  });
}

test('axe finds no serious violation on a lake game, a river game, the rules and the viewer', async () => {
  // axe is put into the page as a script: the page's content security policy is set aside for it.
  const page = await env.page({ ...WIDE, bypassCSP: true });
  const found = [];
  const check = async (what) => { await page.waitForTimeout(200); found.push(...(await violations(page)).map((v) => `${what}: ${v}`)); };
  await page.goto(env.url);
  await page.waitForSelector('#expansion');
  await check('start page');
  const id = await startExpansion(page, 'lake', { seed: 77 });
  await page.waitForSelector('.dice-row.rolling', { state: 'detached' });
  const st = await apiState(page, id);
  await page.click(`.choice-die[data-index="${st.you.dice.find((d) => d.optional).die}"]`);
  await check('lake game, a lake die selected');
  await startExpansion(page, 'river', { seed: 5 });
  await check('river game');
  await page.goto(`${env.url}/rules`);
  await page.waitForSelector('#expansions');
  await check('rules');
  await page.goto(`${env.url}/view/ink?board=L0C30L0D23L0D41&expansion=lake`);
  await page.waitForSelector('svg.board g.flooded');
  await check('viewer');
  assert.deepEqual(found, []);
  await page.context().close();
});

test('a flood fills in with a short animation, and at once under reduced motion', async () => {
  for (const motion of ['no-preference', 'reduce']) {
    const page = await env.page({ ...WIDE, reducedMotion: motion });
    await page.goto(`${env.url}/view/ink?board=L0C30L0D23L0D41&expansion=lake&at=2`);
    await page.waitForSelector('svg.board g.placed');
    assert.equal(await page.locator('svg.board g.flooded').count(), 0);
    await page.click('#step-next');
    await page.waitForSelector('svg.board g.flooded.fresh-flood[data-square="D3"]');
    const animation = await page.locator('svg.board g.fresh-flood > .tile').evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(animation, motion === 'reduce' ? 'none' : 'flood-in', motion);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('against the computer and online, the game plays the expansion chosen', async () => {
  const page = await env.page(WIDE);
  const id = await startExpansion(page, 'river', { mode: 'computer', agent: 'greedy', seed: 3 });
  await page.waitForSelector('.others .other svg.board');
  const st = await apiState(page, id);
  assert.equal(st.expansion, 'river');
  assert.equal(st.players.length, 2);
  assert.match(await page.textContent('.mode-chip'), /Against the computer · River expansion/);
  assert.equal(await page.locator('.expansion-dice .choice-die').count(), 2);
  const online = await startExpansion(page, 'lake', { mode: 'online', name: 'Ada' });
  assert.match(await page.textContent('#lobby-expansion'), /lake expansion: six rounds/);
  await page.click('#start-game');
  await page.waitForSelector('.expansion-dice .choice-die');
  assert.equal((await apiState(page, online)).expansion, 'lake');
  await shot(page, 'expansions-online-lake-wide');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
