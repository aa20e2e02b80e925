// The tutorials, completed like a newcomer would, at 1280×800 and on a 390×844 phone: Railroad
// Ink's steps (exits, connections, a refusal, errors, the centre, the longest routes, two exits
// joined, a special, a round of four dice placed) from
// the start page's link, with deliberately wrong placements the server refuses in words; and
// Metro's (draw, keep, a tile tried on the centre and refused, place, the hand, lines) in a
// real game against the computer, from the Metro rules page's link. Coming back to a Metro
// lesson nobody has moved in yet takes up its game again instead of making another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, serverAndBrowser, shot as screenshot, squareCentre } from '../harness.js';
import { clickSquare as clickMetroSquare, highlighted } from '../metro-harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };
const SIZES = [['desktop', WIDE], ['phone', PHONE]];

/** Clicks a square of the tutorial's board, scrolled into view first (on a phone it is below the lesson). */
async function tapSquare(page, square) {
  await page.locator(`#tutorial-board [role=gridcell][data-square="${square}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const c = await squareCentre(page, square, '#tutorial-board');
  await page.mouse.click(c.x, c.y);
}

async function clickSquare(page, square) {
  await page.locator('#metro-board').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await clickMetroSquare(page, square);
}

/** A screenshot from the top (the board was scrolled to; the sticky header would land mid-page). */
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function stepIs(page, title) {
  await page.waitForFunction((t) => document.querySelector('#step-title')?.textContent === t, title);
  // Metro: the action that moved the lesson on has finished (the page takes one at a time).
  await page.waitForSelector('.game-layout.busy', { state: 'detached' });
}

test('the Railroad Ink tutorial, completed, with refusals in words', async () => {
  for (const [size, options] of SIZES) {
    const page = await env.page(options);
    // Linked from the rules page and from the start page.
    await page.goto(`${env.url}/rules`);
    assert.equal(await page.getAttribute('#tutorial-link', 'href'), '/tutorial/ink');
    await shot(page, `tutorial-link-rules-${size}`);
    await page.goto(env.url);
    assert.equal(await page.getAttribute('#tutorial-metro', 'href'), '/tutorial/metro');
    await page.click('#tutorial-ink');
    await page.waitForURL(/\/tutorial\/ink$/);
    await stepIs(page, 'Exits');
    assert.match(await page.textContent('#step-text'), /railway straight on A3/);
    // The server's legal squares are lit: the railway straight fits only where it meets a railway exit.
    const lit = await page.locator('#tutorial-board .legal').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
    assert.ok(lit.includes('A3') && !lit.includes('D3'), lit.join(' '));
    await shot(page, `tutorial-ink-start-${size}`);

    await tapSquare(page, 'A3');
    await stepIs(page, 'Connections');
    assert.match(await page.textContent('#tutorial-message'), /Well done/);
    await tapSquare(page, 'B3');
    await stepIs(page, 'Refusals');

    // The deliberate mistake: a highway under the railway. The server refuses it, and says why.
    await tapSquare(page, 'C3');
    await stepIs(page, 'Errors');
    const refusal = await page.textContent('#tutorial-message');
    assert.match(refusal, /Refused, as it should be\. The highway straight can't go on C3 turned this way: its highway on the north side would meet the railway coming from B3\./);
    assert.doesNotMatch(refusal, /\bA4C30\b|orientation \d/);
    await shot(page, `tutorial-ink-refused-${size}`);

    await tapSquare(page, 'A1');
    await stepIs(page, 'The centre');
    assert.equal(await page.textContent('#score-errors td'), '−2', 'the open ends under A1 and B3');
    // The station the wrong way round: refused (its highway would meet the railway), the step stays.
    await tapSquare(page, 'C3');
    await page.waitForSelector('#tutorial-message.error');
    assert.match(await page.textContent('#tutorial-message'), /can't go on C3 turned this way/);
    await stepIs(page, 'The centre');
    // Turned twice (by key, then by button), it fits.
    await page.keyboard.press('r');
    await page.click('#rotate');
    await page.waitForSelector('.preview[data-orientation="2"]');
    await tapSquare(page, 'C3');
    await stepIs(page, 'Longest routes');
    assert.equal(await page.textContent('#score-centre td'), '1');

    // The last tile by keyboard: Tab to the board, arrows to D3, Enter.
    await page.locator('#tutorial-board [role=gridcell][data-square="D3"]').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await stepIs(page, 'Joining exits');
    assert.equal(await page.textContent('#score-highway td'), '2');

    // A network joining two exits: the highway from A1 turned west, then a station into B0's exit.
    await tapSquare(page, 'B1');
    await stepIs(page, 'Two exits');
    await page.keyboard.press('r');
    await page.waitForSelector('.preview[data-orientation="1"]');
    await tapSquare(page, 'B0');
    await stepIs(page, 'A special');
    assert.match(await page.textContent('#tutorial-message'), /One network now joins 2 exits \(A1 and B0\): 4 points/);
    assert.equal(await page.textContent('#score-exits td'), '4');
    assert.equal(await page.textContent('#score-errors td'), '−1');
    await shot(page, `tutorial-ink-special-${size}`);
    // A special: the highway crossroads on E3, under the highway, by keyboard.
    await page.locator('#tutorial-board [role=gridcell][data-square="E3"]').focus();
    await page.keyboard.press('Enter');
    await stepIs(page, 'Dice and rounds');
    assert.match(await page.textContent('#tutorial-message'), /opens three ends where there was one/);
    assert.equal(await page.textContent('#score-errors td'), '−3');
    // A round: four dice to place, the specials, End round (refused while a die fits).
    assert.equal(await page.locator('#example-roll .choice-die').count(), 4);
    assert.equal(await page.locator('#example-specials .mini-die').count(), 6);
    await shot(page, `tutorial-ink-round-${size}`);
    await page.click('#end-round');
    await page.waitForSelector('#tutorial-message.error');
    assert.match(await page.textContent('#tutorial-message'), /^Not yet: 4 dice are still to place/);
    for (let placed = 1; placed <= 4; placed++) {
      await page.click('#example-roll .choice-die:not([disabled])');
      let lit = [];
      for (let turn = 0; turn < 4 && !lit.length; turn++) {
        lit = await page.locator('#tutorial-board .legal').evaluateAll((els) => els.map((e) => e.dataset.square));
        if (!lit.length) await page.keyboard.press('r');
      }
      await tapSquare(page, lit[0]);
      await page.waitForFunction((n) => document.querySelectorAll('#tutorial-board g.placed').length === n, 8 + placed);
    }
    await page.click('#end-round');
    await stepIs(page, 'You know the rules');
    assert.equal(await page.textContent('#score-centre td'), '3');
    assert.equal(await page.locator('#tutorial-board g.placed').count(), 12);
    await shot(page, `tutorial-ink-done-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the Metro tutorial, completed in a game against the computer', async () => {
  for (const [size, options] of SIZES) {
    const page = await env.page(options);
    await page.goto(`${env.url}/rules/metro`);
    await page.waitForSelector('#tutorial-link');
    await shot(page, `tutorial-link-rules-metro-${size}`);
    await page.click('#tutorial-link');
    await page.waitForURL(/\/tutorial\/metro$/);
    await stepIs(page, 'Draw');
    await page.waitForSelector('#turn-help.mine');
    await shot(page, `tutorial-metro-start-${size}`);
    await page.click('#draw');
    await stepIs(page, 'Keep');
    await page.click('#keep');
    await stepIs(page, 'The centre');

    // The deliberate mistake: the centre. The server refuses it, in words.
    await clickSquare(page, '33');
    await stepIs(page, 'Place');
    assert.match(await page.textContent('.message'), /can't go on row 3, column 3: the four middle squares are the central stations/);
    assert.match(await page.textContent('#lesson'), /Refused, as it should be/);
    await shot(page, `tutorial-metro-refused-${size}`);

    const [first] = await highlighted(page);
    await clickSquare(page, first);
    await stepIs(page, 'Your hand');
    // The computer plays; then the kept tile goes down.
    await page.waitForSelector('#hand.to-place');
    const [second] = await highlighted(page);
    await clickSquare(page, second);
    await stepIs(page, 'Lines');
    await page.click('#finish');
    await page.waitForSelector('#lesson-done');
    assert.equal(await page.locator('#metro-board g.m-placed').count() >= 3, true);
    await shot(page, `tutorial-metro-done-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('coming back to the Metro lesson before moving reuses its game; after a move, a fresh one', async () => {
  const page = await env.page(WIDE);
  let created = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/metro/games') created += 1;
  });
  await page.goto(`${env.url}/tutorial/metro`);
  await stepIs(page, 'Draw');
  await page.reload();
  await stepIs(page, 'Draw');
  await page.goto(`${env.url}/rules/metro`);
  await page.click('#tutorial-link');
  await stepIs(page, 'Draw');
  assert.equal(created, 1, 'three visits of an untouched lesson make one game');
  // The lesson's steps begin at the first draw: a begun game is not taken up again.
  await page.click('#draw');
  await stepIs(page, 'Keep');
  await page.reload();
  await stepIs(page, 'Draw');
  assert.equal(created, 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
