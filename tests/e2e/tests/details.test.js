// Issue 41's small items, where the tester found them: the rules page turns and mirrors tiles
// in words; a practice game's end at 1280×800 keeps its board on the first screen and its
// chart's "You" label off the computer's line; the player page counts a game as played once
// it is finished and says how many were only sat in; every game screen has a level-one heading
// (axe finds no violation at all there: see a11y.test.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiState, finishByApi, gameId, serverAndBrowser, shot, startGame, startServer } from '../harness.js';
import { startMetro } from '../metro-harness.js';

const NOW = '2026-11-26T14:48:00Z';
const DAILY = 'daily-2026-11-26';
const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW } });
const WIDE = { viewport: { width: 1280, height: 800 } };

test('9. the rules say how a tile turns and mirrors in words, with no engine codes', async () => {
  const page = await env.page(WIDE);
  await page.goto(`${env.url}/rules`);
  await page.waitForSelector('.orientations figcaption');
  const captions = await page.locator('.orientations figcaption').allTextContents();
  assert.deepEqual(captions, [
    'As on the die',
    'Turned a quarter to the right',
    'Turned half way round',
    'Turned a quarter to the left',
    'Mirrored (left and right swapped)',
    'Mirrored, then turned a quarter to the right',
    'Mirrored, then turned half way round',
    'Mirrored, then turned a quarter to the left',
  ]);
  const text = await page.textContent('.rules');
  assert.doesNotMatch(text, /orientations? \d|[0-9]–[0-9] (turn|flip)|B1, /i, 'no engine codes for turns');
  await page.locator('.orientations').scrollIntoViewIfNeeded();
  await shot(page, 'details-rules-turns-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Fills the inline name form that Play (or Practise) shows on a device with no player yet. */
async function giveName(page, name) {
  await page.waitForSelector('.name-form input');
  await page.fill('.name-form input', name);
  await page.click('.name-form button[type=submit]');
}

/** The "You" label's box and the computer's line, on the page's chart (client pixels). */
async function youAndComputer(page, root) {
  return page.evaluate((sel) => {
    const fig = document.querySelector(sel);
    const label = fig?.querySelector('.you-mark text')?.getBoundingClientRect();
    const line = fig?.querySelector('.computer-mark line')?.getBoundingClientRect();
    return { label: label && label.toJSON(), line: line && line.toJSON() };
  }, root);
}

function crosses({ label, line }) {
  return !!label && !!line && line.x > label.x - 1 && line.x < label.x + label.width + 1;
}

test('10. a practice game\'s end at 1280×800: its board on the first screen, "You" clear of the computer\'s line', async () => {
  // The chart on its own, your score next to the computer's: the label stands beside its line.
  const page = await env.page(WIDE);
  await page.goto(env.url);
  await page.waitForSelector('#start');
  for (const [you, computer] of [[59, 60], [59, 59], [60, 59], [12, 13], [41, 40]]) {
    const at = await page.evaluate(async ([y, c]) => {
      const { scoreHistogram } = await import('/js/challenges/histogram.js');
      document.querySelector('#chart-check')?.remove();
      const fig = scoreHistogram([{ score: 12, count: 1 }, { score: 40, count: 2 }, { score: 59, count: 3 }, { score: 60, count: 1 }], { you: y, computer: c });
      fig.id = 'chart-check';
      fig.style.width = '440px';
      document.body.append(fig);
      return null;
    }, [you, computer]);
    assert.equal(at, null);
    const marks = await youAndComputer(page, '#chart-check');
    assert.ok(marks.label && marks.line, JSON.stringify(marks));
    assert.ok(!crosses(marks), `you ${you}, computer ${computer}: "You" crosses the computer's line: ${JSON.stringify(marks)}`);
  }
  await page.context().close();

  // A real practice game's end, on a closed daily.
  const dir = mkdtempSync(join(tmpdir(), 'tracklayer-e2e-practice-'));
  const db = join(dir, 'practice.sqlite');
  let server = await startServer({ env: { TRACKLAYER_NOW: NOW }, db });
  try {
    const eve = await env.page(WIDE);
    await eve.goto(server.url);
    await eve.locator(`.challenge-card[data-challenge="${DAILY}"] button.play-challenge`).click();
    await giveName(eve, 'Eve');
    await eve.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await finishByApi(eve, gameId(eve));
    await eve.waitForSelector('#your-rank');
    await eve.context().close();
    await server.stop();

    server = await startServer({ env: { TRACKLAYER_NOW: '2026-11-27T09:00:00Z' }, db });
    const finn = await env.page(WIDE);
    await finn.goto(`${server.url}/challenges/${DAILY}`);
    await finn.click('button.practice-challenge');
    await giveName(finn, 'Finn');
    await finn.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await finn.waitForSelector('#my-board');
    await finishByApi(finn, gameId(finn));
    await finn.waitForSelector('#practice-rank');
    await finn.waitForSelector('#practice-result svg.histogram-svg');
    await finn.evaluate(() => window.scrollTo(0, 0));
    await finn.waitForTimeout(300);
    const board = await finn.locator('#my-board').boundingBox();
    assert.ok(board.y >= 0 && board.y + board.height <= 800, `the board lies from ${board.y} to ${board.y + board.height}, not on the first screen`);
    assert.match(await finn.textContent('#practice-rank'), /^It would have ranked \d+(st|nd|rd|th) of 2$/);
    assert.ok(!crosses(await youAndComputer(finn, '#practice-result')), 'the label clear of the line');
    await shot(finn, 'details-practice-end-desktop');
    assert.deepEqual(finn.errors, []);
    await finn.context().close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('10. the player page counts a game as played once it is over, and says how many were only sat in', async () => {
  const page = await env.page(WIDE);
  await page.goto(env.url);
  await page.waitForSelector('#start');
  // Ann, this device's player: a hot-seat Metro game left after one move, a solo game finished.
  const ann = await page.evaluate(async () => {
    const me = await (await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Ann' }) })).json();
    localStorage.setItem('tracklayer:player', JSON.stringify(me));
    return me;
  });
  assert.ok(ann.id && ann.token, JSON.stringify(ann));
  const stored = await page.evaluate(() => localStorage.getItem('tracklayer:player'));
  assert.ok(stored);
  await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'here', name: 'Cy' }], seed: 5 });
  await page.waitForSelector('#reveal, #draw');
  const solo = await startGame(page, env.url, { seed: 4 });
  await finishByApi(page, solo);
  await page.waitForSelector('#winner');
  const profile = await page.evaluate(async (id) => (await fetch(`/api/players/${id}`)).json(), ann.id);
  if (profile.games !== 2) throw new Error(`the games were not Ann's: ${JSON.stringify(profile)}`);
  await page.goto(`${env.url}/players/${ann.id}`);
  await page.waitForSelector('#player-stats');
  assert.equal(await page.textContent('#games-played'), '1', 'the unfinished hot-seat game is not played');
  assert.match(await page.textContent('#games-sat-in'), /^2 games sat in, 1 unfinished$/);
  assert.equal(await page.textContent('#player-stats tr[data-game=metro] td'), '0');
  assert.equal(await page.textContent('#player-stats tr[data-game=ink] td'), '1');
  assert.match(await page.textContent('#player-stats caption'), /finished games/);
  await shot(page, 'details-player-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('10. every game screen has a level-one heading', async () => {
  const page = await env.page(WIDE);
  const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
  assert.deepEqual(await page.locator('h1').allTextContents(), ['Railroad Ink: Round 1 of 7']);
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  assert.deepEqual(await page.locator('h1').allTextContents(), ['Railroad Ink: Final scores']);
  assert.ok((await apiState(page, id)).finished);
  await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer', level: 'random' }], seed: 3 });
  assert.deepEqual(await page.locator('h1').allTextContents(), ['Metro game']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
