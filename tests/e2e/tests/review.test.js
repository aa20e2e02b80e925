// The computer's review in Chromium: opened from a finished game's end screen (on a desktop
// and on a phone) and from its replay, it shows each round's board beside the computer's
// round as ghost tiles, both expected scores, the label, and a chart of points lost a round;
// the keyboard steps through the rounds. On a phone it teaches: the final score the player
// made and what the estimate assumes, a reason in words every round, Metro's labels on the
// one scale with true minus signs, and a river game's review.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { apiState, DESKTOP, PHONE, serverAndBrowser, shot, startGame, finishByApi, gameId } from '../harness.js';
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
    assert.match(await page.textContent('#review-result'), /Ada\s*finished with −?\d+ points? and lost \d+\.\d points/);
    // Round 1: the player's four dice on the board, the scores, the label.
    assert.match(await page.textContent('#review-caption'), /Round 1/);
    assert.ok(await page.locator('#review-board-played g.placed').count() >= 4);
    assert.match(await page.textContent('#review-value-played'), /^−?\d+\.\d$/);
    assert.match(await page.textContent('#review-value-best'), /^−?\d+\.\d$/);
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
    assert.match(await page.textContent('#review-result'), /Hu\s*finished with \d+ points? \((ahead of|behind) the best other player by \d+\) and lost \d+\.\d points of margin/);
    assert.match(await page.textContent('#review-caption'), /Decision 1/);
    assert.match(await page.textContent('#review-value-played'), /^−?\d+\.\d$/);
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
    assert.match(await page.textContent('#review-result'), /Gus\s*finished with \d+ points?.* and lost \d+\.\d points/);
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

/** The one scale's label of a loss as the page shows it ("2.6"): `review-scale`'s thresholds. */
function scaleOf(shown) {
  const tenths = Math.round(Number(shown) * 10);
  if (tenths === 0) return 'best';
  if (tenths <= 10) return 'good';
  if (tenths <= 25) return 'inaccuracy';
  if (tenths <= 50) return 'mistake';
  return 'blunder';
}

/** A number as the pages print it: a true minus sign. */
const num = (n) => (n < 0 ? `−${-n}` : String(n));

test('on a phone the review says the score made, what the estimate assumes, and why, every round', async () => {
  const page = await env.page(PHONE);
  const id = await startGame(page, env.url, { mode: 'computer', name: 'Dee', seed: 31, agent: 'greedy' });
  await finishByApi(page, id);
  const st = await apiState(page, id);
  const score = st.players[0].score.advanced;
  await page.goto(`${env.url}/ink/${id}/review?seat=0`);
  await page.waitForSelector('#review-board-played', { timeout: 30000 });
  // The score the player made, in the headline and beside the numbers.
  assert.match(await page.textContent('#review-result'), new RegExp(`Dee\\s*finished with ${num(score)} points?`));
  assert.equal(await page.textContent('#review-final-score'), num(score));
  // What an expected final score is, in words, beside it.
  const meaning = await page.textContent('#review-meaning');
  assert.match(meaning, /strong computer player would finish with if it played on from that board/);
  assert.match(meaning, new RegExp(`your game ended at ${num(score)}`));
  await shot(page, 'review-teaches-phone');
  // Every round has its reason, a sentence.
  const rounds = await page.locator('#review-rounds button').count();
  assert.equal(rounds, 7);
  for (let i = 0; i < rounds; i++) {
    await page.click(`#review-rounds li:nth-child(${i + 1}) button`);
    await page.waitForFunction((r) => new URLSearchParams(location.search).get('round') === String(r), i + 1);
    const why = await page.textContent('#review-reason');
    assert.match(why, /^Why: (The computer|Your round|Both rounds)\S* .+\.$/, `round ${i + 1}: ${why}`);
    const label = await page.textContent('#review-label');
    if (label === 'best') assert.match(why, /would have played exactly this round|yours was as good/, `round ${i + 1}: ${why}`);
    else assert.doesNotMatch(why, /yours was as good/, `round ${i + 1}: ${why}`);
  }
  // After the last round, the estimate is the score.
  assert.match(await page.textContent('#review-meaning'), /the expected final score is the score itself/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone a Metro review labels on the one scale, with true minus signs and a reason', async () => {
  const page = await env.page(PHONE);
  await page.goto(env.url);
  const id = await finishMetroByApi(page, { players: [{ kind: 'human', name: 'Mo' }, { kind: 'computer', level: 'greedy', name: 'Gil' }], seed: '17' });
  const labels = new Set();
  for (const seat of [0, 1]) {
    await page.goto(`${env.url}/metro/${id}/review?seat=${seat}`);
    await page.waitForSelector('#review-board-played', { timeout: 30000 });
    // Each decision's label is the one scale's for the loss it shows.
    const items = await page.locator('#review-rounds button').allTextContents();
    assert.ok(items.length >= 10, `${items.length} decisions`);
    for (const item of items) {
      const m = item.match(/^Decision \d+: (\w+), (\d+\.\d) lost$/);
      assert.ok(m, item);
      assert.equal(m[1], scaleOf(m[2]), item);
      labels.add(m[1]);
    }
    // No hyphen-minus before a number anywhere in the review, decision by decision, and a
    // reason for each.
    for (let i = 0; i < items.length; i++) {
      if (i) await page.keyboard.press('ArrowRight');
      await page.waitForFunction((k) => (new URLSearchParams(location.search).get('at') || '0') === String(k), i);
      const text = await page.locator('#review').innerText();
      assert.doesNotMatch(text, /-\d/, `seat ${seat}, decision ${i + 1}`);
    }
    for (let i = 0; i < items.length; i++) {
      await page.click(`#review-rounds li:nth-child(${i + 1}) button`);
      assert.match(await page.textContent('#review-reason'), /^Why: .+\.$/, `seat ${seat}, decision ${i + 1}`);
    }
    // The score and margin the seat made, and what the estimate assumes.
    assert.match(await page.textContent('#review-final-score'), /^\d+$/);
    assert.match(await page.textContent('#review-final-margin'), /^−?\d+$/);
    assert.match(await page.textContent('#review-meaning'), /as the strong computer player would play it out from there for every seat/);
    if (seat === 1) await shot(page, 'review-metro-scale-phone');
  }
  assert.ok(labels.size >= 3, `labels seen: ${[...labels]}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone a river game is reviewed from its end screen: six rounds, the river dice, reasons', async () => {
  const page = await env.page(PHONE);
  await page.goto(env.url);
  await page.waitForSelector('#expansion');
  await page.locator('input[name=mode][value=solo]').check({ force: true });
  await page.selectOption('#expansion', 'river');
  await page.fill('#player-name', 'Rio');
  await page.click('details.more summary');
  await page.fill('#seed', '5');
  await page.click('#start');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector('#my-board');
  const id = gameId(page);
  await finishByApi(page, id);
  const st = await apiState(page, id);
  assert.equal(st.expansion, 'river');
  await page.goto(`${env.url}/ink/${id}`);
  await page.waitForSelector('#review-link');
  await page.click('#review-link');
  await page.waitForSelector('#review-board-played', { timeout: 30000 });
  assert.match(await page.textContent('#review-result'), /River expansion\. Rio\s*finished with/);
  assert.equal(await page.textContent('#review-final-score'), num(st.players[0].score.advanced));
  assert.equal(await page.locator('#review-chart .review-bar').count(), 6);
  assert.equal(await page.locator('#review-rounds button').count(), 6);
  // Round 1's dice: four route dice and the two river dice.
  assert.equal(await page.locator('.replay-dice .mini-die').count(), 6);
  assert.match(await page.textContent('#review-reason'), /^Why: .+\.$/);
  await shot(page, 'review-river-phone');
  await page.keyboard.press('End');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('round') === '6');
  assert.match(await page.textContent('#review-meaning'), /the expected final score is the score itself/);
  assert.equal(await page.textContent('#review-value-played'), `${num(st.players[0].score.advanced)}.0`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
