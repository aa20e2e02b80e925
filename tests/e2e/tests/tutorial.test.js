// The tutorials, completed like a newcomer would, at 1280×800 and on a 390×844 phone: Railroad
// Ink's steps (exits, connections, a refusal, errors, the centre, the longest routes, two exits
// joined, a special, a round of four dice placed) from
// the start page's link, with deliberately wrong placements the server refuses in words; and
// Metro's (draw, keep, a tile tried on the centre and refused, place, the hand, lines) in a
// real game against the computer, from the Metro rules page's link. Coming back to a Metro
// lesson nobody has moved in yet takes up its game again instead of making another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PHONE, SCREENSHOTS, serverAndBrowser, shot as screenshot, squareCentre } from '../harness.js';
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
    // The computer plays; then the kept tile goes down. (A click that lands while the board is
    // drawn again for the computer's move is lost, as a tap would be: it is made again.)
    await page.waitForSelector('#hand.to-place');
    await page.waitForSelector('#turn-help.mine');
    for (let tries = 0; ; tries++) {
      const [second] = await highlighted(page);
      await clickSquare(page, second);
      try {
        await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Lines', null, { timeout: 5000 });
        break;
      } catch (e) {
        if (tries >= 2) throw e;
      }
    }
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

/**
 * On a phone, when a step starts: its words are on the screen, and so is the board, from its
 * top, at least half of it (the page may scroll back up to the lesson: waited for).
 */
async function boardOnFirstScreen(page, step) {
  let seen;
  for (let i = 0; i < 40; i++) {
    seen = await page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      const [title, board] = [box('#step-title'), box('#metro-board')];
      const visible = Math.min(board.bottom, innerHeight) - Math.max(board.top, 0);
      return { title: Math.round(title.top), board: Math.round(board.top), share: visible / board.height, height: innerHeight };
    });
    if (seen.title >= 0 && seen.board >= 0 && seen.board < seen.height && seen.share >= 0.5) return;
    await page.waitForTimeout(50);
  }
  assert.fail(`step ${step}: its title at ${seen.title}px, the board at ${seen.board}px in a ${seen.height}px screen, ${Math.round(seen.share * 100)}% of it seen`);
}

test('issue 41: the Metro lesson moves on whichever the player does; on a phone each step starts with the board on the first screen', async () => {
  // The tile placed instead of trying the centre: the lesson says so and goes on.
  const page = await env.page(PHONE);
  await page.goto(`${env.url}/tutorial/metro`);
  await stepIs(page, 'Draw');
  await page.waitForSelector('#turn-help.mine');
  await boardOnFirstScreen(page, 'Draw');
  await page.click('#draw');
  await stepIs(page, 'Keep');
  await boardOnFirstScreen(page, 'Keep');
  await page.click('#keep');
  await stepIs(page, 'The centre');
  await boardOnFirstScreen(page, 'The centre');
  await shot(page, 'tutorial-metro-centre-phone');
  const [first] = await highlighted(page);
  await clickSquare(page, first);
  await stepIs(page, 'Your hand');
  assert.match(await page.textContent('#lesson-passed'), /You placed your tile before trying the centre: fine\. No tile ever goes on the four middle squares\./);
  await boardOnFirstScreen(page, 'Your hand');
  // What the phone shows as the step starts (not the whole page).
  await page.screenshot({ path: join(SCREENSHOTS, 'tutorial-metro-passed-phone-screen.png') });
  await page.waitForSelector('#hand.to-place');
  const [second] = await highlighted(page);
  await clickSquare(page, second);
  await stepIs(page, 'Lines');
  await boardOnFirstScreen(page, 'Lines');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // The tile drawn placed instead of kept: the Keep step says what to do, and on the next turn
  // the lesson goes on from there.
  const other = await env.page(PHONE);
  await other.goto(`${env.url}/tutorial/metro`);
  await stepIs(other, 'Draw');
  await other.click('#draw');
  await stepIs(other, 'Keep');
  const [square] = await highlighted(other);
  await clickSquare(other, square);
  await other.waitForSelector('#lesson-aside');
  assert.match(await other.textContent('#lesson-aside'), /You placed the tile you drew: one way to play a turn\. The other is to keep it for later\./);
  assert.match(await other.textContent('#step-text'), /(The computer plays its turn now\. On yours, draw a tile, then keep it\.|Draw a tile \(press “Draw a tile”, or D\), then keep it\.)$/);
  await other.waitForSelector('#turn-help.mine');
  await other.waitForFunction(() => /Draw a tile \(press “Draw a tile”, or D\), then keep it\.$/.test(document.querySelector('#step-text').textContent));
  await other.click('#draw');
  await other.waitForFunction(() => /Keep this one: press “Keep it and draw another” \(or K\)\.$/.test(document.querySelector('#step-text').textContent));
  await other.click('#keep');
  await stepIs(other, 'The centre');
  await boardOnFirstScreen(other, 'The centre');
  await clickSquare(other, '34');
  await stepIs(other, 'Place');
  assert.match(await other.textContent('#lesson-refusal'), /^Refused, as it should be\. The tile .+ can't go on row 3, column 4: the four middle squares are the central stations/);
  await boardOnFirstScreen(other, 'Place');
  await shot(other, 'tutorial-metro-refused-note-phone');
  assert.deepEqual(other.errors, []);
  await other.context().close();
});

test('issue 41: the Metro rules page speaks to people: tiles by their names, squares as the board numbers them, no section numbers', async () => {
  for (const [size, options] of SIZES) {
    const page = await env.page(options);
    await page.goto(`${env.url}/rules/metro`);
    await page.waitForSelector('#example-corner .verdict');
    // No tile codes, no engine coordinates, no section numbers of the engine's rules.
    const text = await page.innerText('#metro-rules');
    assert.doesNotMatch(text, /§|\(\d,\s*\d\)|\b[a-d]{4}\b|row \d, column \d/);
    assert.equal(await page.textContent('#example-touching figcaption'), 'Four straights on square 13, next to a tile. Legal.');
    assert.equal(await page.textContent('#example-not-touching figcaption'), 'Four straights on square 11, touching nothing. Illegal: the square is not on the edge of the board, and no tile is next to it. Rule 2: touching');
    assert.match(await page.textContent('#example-corner figcaption'), /^Four right turns on square 00, in the corner between stations 8 and 9\. Illegal: a track would link station 8 to station 9 within this one tile, and the tile fits elsewhere without that \(on square 01, for one\)\. Rule 3: no avoidable short link$/);
    // The square the words name is lit on its board, and its number is big enough to read.
    assert.equal(await page.locator('#example-corner .m-legal[data-square="01"]').count(), 1);
    const label = await page.locator('#example-touching .m-cell-label-over').boundingBox();
    assert.ok(label.height >= 9, `the square's number is ${label.height}px high`);
    await page.locator('#example-touching').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `rules-metro-examples-${size}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
