// What a new player tripped on (issue 30), one test an item: the challenge card's name form at
// 1280, 1024 and on a phone; the Metro hot-seat curtain's button on one line; and the rest as
// they come. Each measures the page's boxes or reads its words as a player would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, serverAndBrowser, shot } from '../harness.js';
import { startMetro } from '../metro-harness.js';

const NOW = '2026-11-26T14:48:00Z';
const DAILY = 'daily-2026-11-26';
const WIDE = { viewport: { width: 1280, height: 800 } };
const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW } });

/** Whether two boxes overlap (by more than a pixel each way). */
function overlap(a, b) {
  return a.x + a.width > b.x + 1 && b.x + b.width > a.x + 1 && a.y + a.height > b.y + 1 && b.y + b.height > a.y + 1;
}

/** How many lines an element's text takes (its height over its line height). */
async function lines(locator) {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}

test('1. a new player\'s name form under Play sits in the challenge card without overlapping its figures', async () => {
  for (const [label, options] of [['1280', WIDE], ['1024', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    const card = page.locator(`.challenge-card[data-challenge="${DAILY}"]`);
    await card.locator('button.play-challenge').click();
    const form = card.locator('.name-form');
    await form.waitFor();
    const formBox = await form.boundingBox();
    const cardBox = await card.boundingBox();
    assert.ok(formBox.x >= cardBox.x && formBox.x + formBox.width <= cardBox.x + cardBox.width + 1, `${label}: the form stays inside its card`);
    for (const part of ['h3', '.facts']) {
      const box = await card.locator(part).boundingBox();
      assert.ok(!overlap(box, formBox), `${label}: ${part} runs under the name form`);
    }
    // The figures keep their words together: "1 player" is one line, not a word a line.
    for (const fact of await card.locator('.facts li').all()) {
      assert.ok(await lines(fact) <= 2, `${label}: "${await fact.textContent()}" takes more than two lines`);
    }
    assert.ok((await form.locator('input').boundingBox()).width >= 120, `${label}: the name field is wide enough to type in`);
    await shot(page, `polish-name-form-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('2. Metro hot-seat: "I am …: show my tiles" reads as one sentence at 1280×800 and on a phone', async () => {
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Maximilian' }, { kind: 'here', name: 'Bo' }], seed: 7 });
    const button = page.locator('#reveal');
    await button.waitFor();
    assert.equal(await button.textContent(), 'I am Maximilian: show my tiles');
    await shot(page, `polish-curtain-${label}`);
    // Its words flow as one sentence (one piece of text, not three flex items side by side),
    // on two lines at most.
    assert.equal(await button.locator('.btn-label').count(), 1, 'the label is one piece of text');
    assert.ok(await lines(button.locator('.btn-label')) <= 2, `${label}: the label takes more than two lines`);
    const height = (await button.boundingBox()).height;
    assert.ok(height <= 80, `${label}: the button is ${height}px tall`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('4. every Railroad Ink tile has a name of its own, on the rules page and in the game', async () => {
  const page = await env.page(WIDE);
  await page.goto(`${env.url}/rules`);
  await page.waitForSelector('.tile-grid .tile-card');
  const names = await page.locator('.tile-card[data-tile] > svg').evaluateAll((els) => els.map((e) => [e.closest('[data-tile]').dataset.tile, e.getAttribute('aria-label')]));
  assert.equal(names.length, 15);
  const byName = new Map();
  for (const [tile, name] of names) byName.set(name, [...(byName.get(name) || []), tile]);
  const shared = [...byName].filter(([, tiles]) => tiles.length > 1);
  assert.deepEqual(shared, [], `tiles sharing a name: ${JSON.stringify(shared)}`);
  // The captions say the same names.
  for (const [tile, name] of names) {
    assert.match(await page.textContent(`.tile-card[data-tile="${tile}"] figcaption`), new RegExp(`^${tile} ${name}`));
  }
  await shot(page, 'polish-tile-names-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
