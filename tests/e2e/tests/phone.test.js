// Issue 41, "Played on a phone", on a 390×844 touch screen as a new player would (and at
// 1280×800 where the issue says so): the whole Railroad Ink board and its message line on the
// screen together after every placement of a base game, a river game and a lake game, with no
// scrolling and no button spilling its words; Metro's board and message line in view; the
// tutorial's board on the first screen and its round step with dice to place; today's daily
// challenge on a first visit's first screen, and the Deep Blue card saying what it is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, gameId, PHONE, SCREENSHOTS, serverAndBrowser, shot, squareCentre } from '../harness.js';
import { squareCentre as metroSquare, startMetro } from '../metro-harness.js';

const NOW = '2026-11-26T14:48:00Z';
const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW } });
const WIDE = { viewport: { width: 1280, height: 800 } };

/** Starts a solo Railroad Ink game (of `expansion`) from the start page, by touch. */
async function startSolo(page, { expansion = 'none', seed }) {
  await page.goto(env.url);
  await page.waitForSelector('#expansion');
  await page.selectOption('#expansion', expansion);
  await page.fill('#player-name', 'Ada');
  await page.click('details.more summary');
  await page.fill('#seed', String(seed));
  await page.tap('#start');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector('#my-board');
  return gameId(page);
}

/**
 * The whole board (its row G included) and the message line lie inside the window as it is,
 * the page never scrolled; no button's words spill out of it.
 */
async function boardAndMessageInView(page, when) {
  const { width, height } = page.viewportSize();
  const inside = (b) => b && b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= height + 0.5;
  assert.equal(await page.evaluate(() => window.scrollY), 0, `${when}: the page has not scrolled`);
  const board = await page.locator('#my-board').boundingBox();
  assert.ok(inside(board), `${when}: the board lies inside ${width}×${height}: ${JSON.stringify(board)}`);
  const g = await page.locator('#my-board [role=gridcell][data-square="G6"]').boundingBox();
  assert.ok(inside(g), `${when}: row G lies inside the window: ${JSON.stringify(g)}`);
  const message = await page.locator('.main-board .message').boundingBox();
  assert.ok(inside(message), `${when}: the message line lies inside the window: ${JSON.stringify(message)}`);
  const spilled = await page.evaluate(() => [...document.querySelectorAll('#game .btn')]
    .filter((b) => b.offsetParent !== null && (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1))
    .map((b) => `${b.id || b.className}: "${b.textContent.trim()}" ${b.scrollWidth}×${b.scrollHeight} in ${b.clientWidth}×${b.clientHeight}`));
  assert.deepEqual(spilled, [], `${when}: buttons spill their words`);
}

/** Taps the centre of a square of the board. */
async function tapSquare(page, square) {
  const c = await squareCentre(page, square);
  await page.touchscreen.tap(c.x, c.y);
}

/** Turns the selected tile from orientation 0 to `orientation` with the buttons above the board. */
async function turnByTouch(page, orientation) {
  if (orientation >= 4) await page.tap('#flip');
  for (let i = 0; i < orientation % 4; i++) await page.tap('#rotate');
  await page.waitForSelector(`.preview[data-orientation="${orientation}"]`);
}

/**
 * A placement the server allows now: a special first when `special`, then a route die, then
 * (when `extra`) an expansion die. {kind, index, tile, square, orientation} or null.
 */
function nextPlacement(st, { extra, special }) {
  const dice = st.you.dice.filter((d) => !d.used && (extra || !d.optional)).sort((a, b) => Number(a.optional) - Number(b.optional));
  const choices = [
    ...(special ? st.you.specials.map((x, i) => ({ kind: 'special', index: i, tile: x.tile, legal: x.legal, allowed: x.allowed })).filter((x) => x.allowed) : []),
    ...dice.map((d) => ({ kind: 'die', index: d.die, tile: d.tile, legal: d.legal })),
  ];
  for (const c of choices) {
    for (let o = 0; o < 8; o++) {
      if (c.legal[o]?.length >= 2) return { ...c, square: c.legal[o].slice(0, 2), orientation: o };
    }
  }
  return null;
}

/**
 * Plays a round by touch: each die tapped, turned with the buttons and its square tapped, the
 * board and the message checked after each step; in `refuse` rounds a tap first on a square
 * where the tile does not fit. Resolves once the round has ended.
 */
async function playRoundByTouch(page, id, round, { extra, special, refuse }) {
  await page.waitForSelector(`.round-pips li.now:text-is("${round + 1}")`);
  await page.waitForSelector('.dice-row.rolling', { state: 'detached' });
  await boardAndMessageInView(page, `round ${round + 1}, its dice rolled`);
  let placed = 0;
  for (;;) {
    const st = await apiState(page, id);
    const p = nextPlacement(st, { extra, special: special && placed === 1 });
    if (!p) break;
    await page.tap(`.choice[data-kind="${p.kind}"][data-index="${p.index}"]`);
    await page.waitForSelector('.choice.selected');
    await boardAndMessageInView(page, `round ${round + 1}: ${p.tile} selected`);
    await turnByTouch(page, p.orientation);
    if (refuse && placed === 0) {
      const legal = new Set(p.legal[p.orientation].match(/../g));
      const bad = ['D3', 'A0', 'G6', 'C2', 'E4', 'B5'].find((sq) => !legal.has(sq));
      await tapSquare(page, bad);
      await page.waitForSelector('.main-board .message.error');
      await boardAndMessageInView(page, `round ${round + 1}: ${p.tile} refused on ${bad}`);
    }
    await tapSquare(page, p.square);
    await page.waitForSelector(`#my-board g.placed[data-placement="${p.tile}${p.square}${p.orientation}"]`);
    await page.waitForSelector('.main-board .message.ok');
    placed += 1;
    await boardAndMessageInView(page, `round ${round + 1}, placement ${placed} (${p.tile}${p.square}${p.orientation})`);
  }
  await page.waitForSelector('#end-round:not([disabled])');
  await page.tap('#end-round');
}

test('2. on a phone the whole board and the message line stay on the screen after every placement: base, river and lake', async () => {
  const page = await env.page(PHONE);
  for (const [expansion, seed, rounds] of [['none', 2, 7], ['river', 5, 6], ['lake', 7, 3]]) {
    const id = await startSolo(page, { expansion, seed });
    for (let round = 0; round < rounds; round++) {
      // The expansion dice placed in every other round and skipped in the others; a special as
      // the second tile of rounds 2 to 4; a refused tap in the first and fifth rounds.
      await playRoundByTouch(page, id, round, { extra: round % 2 === 0, special: round >= 1 && round <= 3, refuse: round === 0 || round === 4 });
      if (round === 1) await shot(page, `phone-${expansion}-round2`);
    }
    if (rounds === (expansion === 'none' ? 7 : 6)) {
      await page.waitForSelector('#winner');
      const st = await apiState(page, id);
      assert.ok(st.finished, `the ${expansion} game is over`);
      await shot(page, `phone-${expansion}-end`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('2. Metro on a phone: the board and the message line stay on the screen through a turn', async () => {
  const page = await env.page(PHONE);
  await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer', level: 'random' }], seed: 3 });
  const { width, height } = page.viewportSize();
  const inside = (b) => b && b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= height + 0.5;
  const check = async (when) => {
    assert.equal(await page.evaluate(() => window.scrollY), 0, `${when}: the page has not scrolled`);
    const board = await page.locator('#metro-board').boundingBox();
    assert.ok(inside(board), `${when}: the board lies inside ${width}×${height}: ${JSON.stringify(board)}`);
    const message = await page.locator('.m-main .message').boundingBox();
    assert.ok(inside(message), `${when}: the message line lies inside the window: ${JSON.stringify(message)}`);
  };
  for (let turn = 0; turn < 5; turn++) {
    await page.waitForSelector('#turn-help.mine');
    await page.waitForSelector('.game-layout.busy', { state: 'detached' });
    if (!(await page.locator('.m-slot.to-place').count())) {
      await page.tap('#draw');
      await page.waitForSelector('.m-slot.to-place');
    }
    await page.waitForSelector('.m-main .message:not(:empty)');
    await check(`turn ${turn + 1}, a tile to place`);
    if (turn === 0) await page.screenshot({ path: `${SCREENSHOTS}/phone-metro-drawn.png` });
    const square = (await page.locator('#metro-board .m-legal').evaluateAll((els) => els.map((e) => e.dataset.square).sort()))[0];
    await page.touchscreen.tap(...Object.values(await metroSquare(page, square)));
    await page.waitForSelector(`#metro-board g.m-placed[data-square="${square}"]`);
    await check(`turn ${turn + 1}, placed on ${square}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Taps a square of the tutorial's board, scrolled into view first (the lesson is above it). */
async function tapLessonSquare(page, square) {
  await page.locator(`#tutorial-board [role=gridcell][data-square="${square}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const c = await squareCentre(page, square, '#tutorial-board');
  await page.touchscreen.tap(c.x, c.y);
}

async function stepIs(page, title) {
  await page.waitForFunction((t) => document.querySelector('#step-title')?.textContent === t, title);
}

test('4. the tutorials on a phone: each board starts on the first screen; Railroad Ink\'s round gives dice to place', async () => {
  const page = await env.page(PHONE);
  const height = page.viewportSize().height;
  // Metro's lesson: its board's first row on the first screen.
  await page.goto(`${env.url}/tutorial/metro`);
  await page.waitForSelector('#turn-help.mine');
  const metro = await page.locator('#metro-board').boundingBox();
  assert.ok(metro.y + metro.height * 144 / 888 <= height, `Metro's board starts at ${metro.y}: its first row is below the first screen`);
  await page.screenshot({ path: `${SCREENSHOTS}/phone-tutorial-metro-first-screen.png` });

  await page.goto(`${env.url}/tutorial/ink`);
  await stepIs(page, 'Exits');
  const a3 = await page.locator('#tutorial-board [role=gridcell][data-square="A3"]').boundingBox();
  assert.ok(a3.y + a3.height <= height, `the board's first row ends at ${a3.y + a3.height}, below the first screen`);
  await page.screenshot({ path: `${SCREENSHOTS}/phone-tutorial-ink-first-screen.png` });

  // Through the lesson's tiles to its round.
  for (const [title, square, turns] of [['Exits', 'A3'], ['Connections', 'B3'], ['Refusals', 'C3'], ['Errors', 'A1'], ['The centre', 'C3', 2],
    ['Longest routes', 'D3'], ['Joining exits', 'B1'], ['Two exits', 'B0', 1], ['A special', 'E3']]) {
    await stepIs(page, title);
    for (let i = 0; i < (turns || 0); i++) await page.tap('#rotate');
    await tapLessonSquare(page, square);
  }
  await stepIs(page, 'Dice and rounds');
  assert.match(await page.textContent('#step-text'), /place each die once/);
  const dice = page.locator('#example-roll .choice-die');
  assert.equal(await dice.count(), 4, 'the round gives four dice');
  // End round too soon: refused, and why.
  await page.tap('#end-round');
  await page.waitForSelector('#tutorial-message.error');
  assert.match(await page.textContent('#tutorial-message'), /^Not yet: 4 dice are still to place/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'phone-tutorial-ink-round');
  for (let placed = 0; placed < 4; placed++) {
    await page.tap('#example-roll .choice-die:not([disabled])');
    await page.waitForSelector('#example-roll .choice-die.selected');
    let lit = [];
    for (let turn = 0; turn < 8 && !lit.length; turn++) {
      lit = await page.locator('#tutorial-board .legal').evaluateAll((els) => els.map((e) => e.dataset.square));
      if (!lit.length) await page.tap(turn === 3 ? '#flip' : '#rotate');
    }
    assert.ok(lit.length, 'the die fits somewhere');
    await tapLessonSquare(page, lit[0]);
    await page.waitForFunction((n) => document.querySelectorAll('#tutorial-board g.placed').length === n, 9 + placed);
    assert.match(await page.textContent('#tutorial-message'), /^Placed /);
  }
  assert.equal(await page.locator('#example-roll .choice-die[disabled]').count(), 4, 'every die is placed');
  await page.tap('#end-round');
  await stepIs(page, 'You know the rules');
  assert.equal(await page.locator('#tutorial-board g.placed').count(), 12);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('8. a first visit shows today\'s daily challenge and its Play on the first screen; the Deep Blue card says what it is', async () => {
  for (const [label, options] of [['phone', PHONE], ['desktop', WIDE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#start');
    const daily = page.locator('.challenge-card[data-kind=daily]');
    await daily.locator('.play-challenge').waitFor();
    const height = page.viewportSize().height;
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    const card = await daily.boundingBox();
    const play = await daily.locator('.play-challenge').boundingBox();
    assert.ok(card.y + card.height <= height, `${label}: the daily's card ends at ${card.y + card.height}, below the first screen`);
    assert.ok(play.y + play.height <= height && play.height >= 44, `${label}: its Play at ${JSON.stringify(play)}`);
    // The new-game form's Start stays on the first screen too.
    const start = await page.locator('#start').boundingBox();
    assert.ok(start.y + start.height <= height, `${label}: Start at ${start.y}`);
    await page.screenshot({ path: `${SCREENSHOTS}/phone-start-first-screen-${label}.png` });

    // The Deep Blue card: what its expansion is, and its six rounds, in words.
    const deep = page.locator('.challenge-card[data-kind=weekly-deep-blue]');
    const line = await deep.locator('.variant-line').textContent();
    assert.match(line, /^The (river|lake): besides the four route dice, two optional (river|lake) dice a round\./);
    assert.match(line, /scores a point a square/);
    assert.match(line, /Six rounds instead of seven\.$/);
    // The form says it too, once an expansion is chosen.
    assert.ok(await page.locator('#expansion-about').isHidden(), 'nothing to say of the base game');
    await page.selectOption('#expansion', 'lake');
    assert.match(await page.textContent('#expansion-about'), /^The lake: .*floods.*Six rounds instead of seven\.$/);
    await shot(page, `phone-start-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
