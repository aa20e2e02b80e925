// The computer's review in Chromium: opened from a finished game's end screen (on a desktop
// and on a phone) and from its replay, it shows each round's board beside the computer's
// round as ghost tiles, both expected scores, the label, and a chart of points lost a round;
// the keyboard steps through the rounds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { DESKTOP, PHONE, serverAndBrowser, shot, startGame, finishByApi, gameId } from '../harness.js';
import { finishMetroByApi } from '../metro-harness.js';

const env = serverAndBrowser();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical violations axe finds on the page as it is now. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

for (const [size, options] of [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', PHONE]]) {
  test(`a review opens from the end screen (${size})`, async () => {
    const page = await env.page(options);
    const id = await startGame(page, env.url, { mode: 'computer', name: 'Ada', seed: 5, agent: 'greedy' });
    assert.equal(gameId(page), id);
    await finishByApi(page, id);
    await page.goto(`${env.url}/ink/${id}`);
    await page.waitForSelector('#review-link');
    await page.click('#review-link');
    await page.waitForSelector('#review-board-played', { timeout: 30000 });
    assert.equal(new URL(page.url()).pathname, `/ink/${id}/review`);
    assert.match(await page.textContent('#review-result'), /Ada\s*lost \d+\.\d points/);
    // Round 1: the player's four dice on the board, the scores, the label.
    assert.match(await page.textContent('#review-caption'), /Round 1/);
    assert.ok(await page.locator('#review-board-played g.placed').count() >= 4);
    assert.match(await page.textContent('#review-value-played'), /^-?\d+\.\d$/);
    assert.match(await page.textContent('#review-value-best'), /^-?\d+\.\d$/);
    assert.match(await page.textContent('#review-label'), /^(best|good|inaccuracy|mistake|blunder)$/);
    assert.equal(await page.locator('#review-chart .review-bar').count(), 7);
    assert.equal(await page.locator('#review-rounds button').count(), 7);
    // A round where the computer would have played otherwise shows its tiles as ghosts.
    const ghosts = await page.locator('#review-board-best .hint-tile').count();
    const label = await page.textContent('#review-label');
    assert.ok(label === 'best' || ghosts >= 1, `${label} with ${ghosts} ghost tiles`);
    await shot(page, `review-${size}`);
    // The keyboard steps through the rounds; the address follows.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('round') === '2');
    assert.match(await page.textContent('#review-caption'), /Round 2/);
    await page.keyboard.press('End');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('round') === '7');
    // A round picked from the list.
    await page.click('#review-rounds li:nth-child(3) button');
    assert.match(await page.textContent('#review-caption'), /Round 3/);
    // The computer's seat is reviewed too.
    await page.click('.review-seats a:nth-child(2)');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('seat') === '1');
    await page.waitForSelector('#review-board-played');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a review opens from the replay, and a game not over has none yet', async () => {
  const page = await env.page(DESKTOP);
  const id = await startGame(page, env.url, { mode: 'solo', name: 'Bea', seed: 9 });
  await page.goto(`${env.url}/ink/${id}/review`);
  await page.waitForSelector('#review-missing');
  assert.match(await page.textContent('#review-missing h1'), /Not over yet/);
  await finishByApi(page, id);
  await page.goto(`${env.url}/ink/${id}/replay`);
  await page.waitForSelector('.review-link');
  await page.click('.review-link');
  await page.waitForSelector('#review-board-played', { timeout: 30000 });
  assert.equal(new URL(page.url()).searchParams.get('seat'), '0');
  // The only failed requests: the replay and review asked for before the game was over.
  assert.deepEqual(page.errors.filter((e) => !/status of 409/.test(e)), []);
  await page.context().close();
});

for (const [size, options] of [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', PHONE]]) {
  test(`a Metro review opens from the end screen and the replay, decision by decision (${size})`, async () => {
    const page = await env.page(options);
    await page.goto(env.url);
    const id = await finishMetroByApi(page, { players: [{ kind: 'human', name: 'Hu' }, { kind: 'computer', level: 'greedy', name: 'Gus' }], seed: '8' });
    await page.goto(`${env.url}/metro/${id}`);
    await page.waitForSelector('#review-link');
    await page.click('#review-link');
    await page.waitForSelector('#review-board-played', { timeout: 30000 });
    assert.equal(new URL(page.url()).pathname, `/metro/${id}/review`);
    assert.match(await page.textContent('#review-result'), /Hu\s*lost \d+\.\d points of margin/);
    assert.match(await page.textContent('#review-caption'), /Decision 1/);
    assert.match(await page.textContent('#review-value-played'), /^-?\d+\.\d$/);
    assert.match(await page.textContent('#review-label'), /^(best|good|inaccuracy|mistake|blunder)$/);
    const decisions = await page.locator('#review-rounds button').count();
    assert.ok(decisions >= 10, `${decisions} decisions`);
    assert.equal(await page.locator('#review-chart .review-bar').count(), decisions);
    await shot(page, `review-metro-${size}`);
    // The keyboard steps; a decision picked from the list; the computer's move as a ghost tile
    // wherever it differs and places.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '1');
    assert.match(await page.textContent('#review-caption'), /Decision 2/);
    await page.click('#review-rounds li:nth-child(4) button');
    assert.match(await page.textContent('#review-caption'), /Decision 4/);
    // The greedy computer's seat, from the replay.
    await page.goto(`${env.url}/metro/${id}/replay`);
    await page.click('.review-link:nth-child(2)');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('seat') === '1');
    await page.waitForSelector('#review-board-played');
    assert.match(await page.textContent('#review-result'), /Gus\s*lost \d+\.\d points/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('screen readers: axe finds no serious or critical violation on a review, at both sizes', async () => {
  for (const options of [DESKTOP, PHONE]) {
    // axe is put into the page as a script of its own, which the pages' policy forbids.
    const page = await env.page({ ...options, bypassCSP: true });
    const id = await startGame(page, env.url, { mode: 'solo', name: 'Cy', seed: 12 });
    await finishByApi(page, id);
    await page.goto(`${env.url}/ink/${id}/review?seat=0&round=2`);
    await page.waitForSelector('#review-board-played', { timeout: 30000 });
    assert.match(await page.textContent('#review-caption'), /Round 2/);
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  }
});
