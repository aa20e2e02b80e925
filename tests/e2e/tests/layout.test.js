// Layout at 1280×800 and on a 390×844 phone: the key controls (start button, dice, specials,
// End round, Undo, the board's squares) lie inside the window when the page opens and are at
// least 44 px; the sticky header never covers row A; the message line under the board is not
// cut at 800 px high; die B wears no "selected" halo; the first network is not drawn in the
// colour of errors; Metro's unfinished lines are not pale, their badge says so in words, and a
// phone shows no keys.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finishByApi, PHONE, SCREENSHOTS, serverAndBrowser, shot, startGame } from '../harness.js';
import { playTurn, startMetro } from '../metro-harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };
const SIZES = [['desktop', WIDE], ['phone', PHONE]];

/** Every element matching `selector`: inside the window, and at least 44 px each way. */
async function inView(page, selector, { size = 44 } = {}) {
  const boxes = await page.locator(selector).evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return { what: el.id || el.dataset.square || el.getAttribute('aria-label') || el.className, x: r.x, y: r.y, w: r.width, h: r.height };
  }));
  assert.ok(boxes.length, `${selector} is on the page`);
  const [w, h] = await page.evaluate(() => [window.innerWidth, window.innerHeight]);
  for (const b of boxes) {
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.w <= w + 0.5 && b.y + b.h <= h + 0.5, `${b.what} (${selector}) lies inside ${w}×${h}: ${JSON.stringify(b)}`);
    assert.ok(b.w >= size - 0.5 && b.h >= size - 0.5, `${b.what} (${selector}) is at least ${size} px: ${JSON.stringify(b)}`);
  }
}

function reddish(colour) {
  const m = colour.match(/\d+/g).map(Number);
  return m[0] > m[1] + 60 && m[0] > m[2] + 60;
}

test('the start button and the game\'s controls lie inside the window and are big enough to touch', async () => {
  for (const [label, options] of SIZES) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#start');
    await inView(page, '#start');
    await shot(page, `layout-start-${label}`);
    const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
    // Measured at rest: the dice roll in when the page opens on a new roll.
    await page.waitForFunction(() => !document.querySelector('.dice-row.rolling'));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENSHOTS}/layout-game-first-screen-${label}.png` });
    await inView(page, '.choice-die');
    await inView(page, '.choice-special');
    await inView(page, '#end-round');
    await inView(page, '#undo');
    await inView(page, '#my-board [role=gridcell]');
    await inView(page, '.site-nav a', { size: 44 });
    // A selected die's turns.
    await page.click('.choice-die[data-index="3"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    const board = await page.locator('#my-board').boundingBox();
    for (const b of ['#rotate-left', '#rotate', '#flip']) {
      const box = await page.locator(b).boundingBox();
      assert.ok(box.width >= 44 && box.height >= 44, `${b} is ${box.width}×${box.height}`);
      // On a phone they sit right above the board (no scrolling past it to turn a tile).
      if (label === 'phone') assert.ok(box.y + box.height <= board.y + 1 && board.y - (box.y + box.height) < 40, `${b} is above the board: ${JSON.stringify([box, board])}`);
    }
    if (label === 'phone') {
      await page.screenshot({ path: `${SCREENSHOTS}/layout-turns-above-board-phone.png` });
      // The score overlays' check boxes are a finger's target.
      for (const box of await page.locator('.overlays .toggle').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
        assert.ok(box.height >= 44, `an overlay toggle is ${box.height} px high`);
      }
    }
    // Die B looks like die A until it is selected.
    const look = (i) => page.locator(`.choice-die[data-index="${i}"] .die`).evaluate((el) => {
      const cs = getComputedStyle(el);
      return `${cs.borderColor} / ${cs.boxShadow}`;
    });
    await page.keyboard.press('Escape');
    await page.waitForSelector('.choice.selected', { state: 'detached' });
    assert.equal(await look(3), await look(0), 'die B wears no halo');
    await page.click('.choice-die[data-index="3"]');
    assert.notEqual(await look(3), await look(0), 'a selected die does');
    await page.keyboard.press('Escape');
    // The message line under the board is not cut.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('#my-board', { position: { x: 60, y: 60 } });
    const message = await page.locator('.main-board .message').boundingBox();
    if (label === 'desktop') assert.ok(message.y + message.height <= 800, `the message ends at ${message.y + message.height}`);
    await shot(page, `layout-game-${label}`);
    // The header never covers row A: scroll the board's top to the top of the window.
    await page.evaluate(() => window.scrollBy(0, document.querySelector('#my-board').getBoundingClientRect().top));
    const hit = await page.evaluate(() => {
      const r = document.querySelector('#my-board [data-square="A1"]').getBoundingClientRect();
      const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return !!el && !!el.closest('#my-board');
    });
    if (label === 'phone') assert.ok(hit, 'a tap on A1 lands on the board, not the header');
    // Keyboard focus on row A scrolls it clear of the header.
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.locator('#my-board [data-square="A1"]').focus();
    const top = await page.evaluate(() => document.querySelector('#my-board [data-square="A1"]').getBoundingClientRect().top);
    const header = await page.evaluate(() => {
      const h = document.querySelector('.site-header').getBoundingClientRect();
      return getComputedStyle(document.querySelector('.site-header')).position === 'sticky' ? h.bottom : 0;
    });
    assert.ok(top >= header, `row A (at ${top}) is below the header (to ${header})`);
    // The first network is not red.
    await finishByApi(page, id);
    await page.waitForSelector('#winner');
    const fill = await page.locator('#my-board .layer-networks .network .network-piece').first().evaluate((el) => getComputedStyle(el).fill);
    assert.ok(!reddish(fill), `the first network is drawn in ${fill}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `layout-end-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('Metro: unfinished lines are not pale, their badge says so in words, and phones show no keys', async () => {
  for (const [label, options] of SIZES) {
    const page = await env.page(options);
    await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer', level: 'random' }], seed: 3 });
    await page.waitForSelector('#turn-help.mine');
    if (label === 'desktop') {
      const message = await page.locator('.m-main .message').boundingBox();
      assert.ok(message.y + message.height <= 800, `Metro's message ends at ${message.y + message.height}`);
    }
    const keys = await page.locator('.m-keys').count() ? await page.locator('.m-keys').first().isVisible() : false;
    assert.equal(keys, label === 'desktop', 'the keys are told only where there are keys');
    for (let i = 0; i < 6; i++) await playTurn(page);
    const track = page.locator('#metro-board .m-track.owned:not(.finished)').first();
    assert.ok(await track.count(), 'some line is unfinished');
    const opacity = Number(await track.evaluate((el) => getComputedStyle(el).strokeOpacity));
    assert.ok(opacity >= 0.8, `an unfinished line's tiles are drawn at ${opacity}`);
    const station = await track.getAttribute('data-station');
    await page.locator(`#metro-board .m-station[data-station="${station}"]`).click({ force: true });
    await page.waitForSelector('#metro-board .m-badge-text, #metro-board text:has-text("unfinished")');
    const badge = await page.locator('#metro-board .m-badge-text').textContent();
    assert.match(badge, /^\d+ tiles?, unfinished$/);
    await shot(page, `layout-metro-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
