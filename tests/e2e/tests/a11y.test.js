// Screen readers: axe-core (from npm, loaded into the page from its file) finds no serious or
// critical violation on the start page, the rules pages, both tutorials, the viewers, a replay,
// a challenge's leaderboard and a player's page, and no violation at all (of any impact, a
// level-one heading included) on the game screens: an online game's lobby, a Railroad Ink game
// (a die selected, a round finished, the game over, a challenge's end) and a Metro game; every
// button has a name, and a Railroad Ink board's squares say what is on them in words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { DESKTOP, finishByApi, PHONE, placeOne, playRound, serverAndBrowser, shot, startGame } from '../harness.js';
import { finishMetroByApi, startMetro } from '../metro-harness.js';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const NOW = '2026-11-26T14:48:00Z';
const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW } });

/** The serious and critical violations axe finds on the page as it is now (`every`: all of them). */
async function violations(page, { every = false } = {}) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (all) => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => all || v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] || ''}`).join('\n    ')}`);
  }, every);
}

const found = [];

/** Checks the page as it is now; a game screen (`game`) for violations of every impact. */
async function check(page, what, { game = false } = {}) {
  await page.waitForTimeout(200);
  for (const v of await violations(page, { every: game })) found.push(`${what} (${page.viewportSize().width} px): ${v}`);
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, a[href], [role=button]')]
    .filter((el) => el.offsetParent !== null)
    .filter((el) => {
      const name = (el.getAttribute('aria-label') || el.textContent || '').trim();
      return !name || /^[^\p{L}\p{N}]+$/u.test(name);
    }).map((el) => el.outerHTML.slice(0, 120)));
  for (const u of unnamed) found.push(`${what}: a button named by a symbol or nothing: ${u}`);
}

test('axe finds no serious or critical violation on any page, and none at all on a game screen, at both sizes', async () => {
  for (const options of [DESKTOP, PHONE]) {
    // axe is put into the page as a script of its own, which the pages' policy (script-src 'self') forbids.
    const page = await env.page({ ...options, bypassCSP: true });
    await page.goto(env.url);
    await page.waitForSelector('#start');
    await check(page, 'the start page');
    await page.goto(`${env.url}/rules`);
    await page.waitForSelector('.tile-grid .tile-card');
    await check(page, 'the rules');
    await page.goto(`${env.url}/rules/metro`);
    await page.waitForSelector('.m-tile-grid, .tile-grid');
    await check(page, 'the Metro rules');

    await page.goto(`${env.url}/tutorial/ink`);
    await page.waitForSelector('#step-title');
    await check(page, 'the Railroad Ink tutorial');
    await page.goto(`${env.url}/tutorial/metro`);
    await page.waitForSelector('#turn-help');
    await check(page, 'the Metro tutorial');

    await startGame(page, env.url, { mode: 'online', name: 'Lou' });
    await check(page, 'an online game\'s lobby', { game: true });

    const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
    await placeOne(page, id);
    await page.click('.choice-die:not(.unavailable)');
    await check(page, 'a Railroad Ink game with a die selected', { game: true });
    const label = await page.locator('#my-board [role=gridcell].occupied').first().getAttribute('aria-label');
    assert.match(label, /^[A-G][0-6]: (railway|highway|(straight |corner )?station|overpass)[^,]*, .*(highway|railway) to (north|east|south|west)/, label);
    assert.match(await page.locator('#my-board [role=gridcell][data-square="A1"]').getAttribute('aria-label'), /^A1: empty, highway exit to the north/);
    await finishByApi(page, id);
    await page.waitForSelector('#winner');
    await check(page, 'a finished Railroad Ink game', { game: true });
    await page.goto(`${env.url}/ink/${id}/replay`);
    await page.waitForSelector('#step-caption, .replay');
    await check(page, 'a replay');
    await page.goto(`${env.url}/view`);
    await page.waitForSelector('#app > *:not(.loading)');
    await check(page, 'the viewer');
    await page.goto(`${env.url}/view/metro`);
    await page.waitForSelector('#app > *:not(.loading)');
    await check(page, 'the Metro viewer');

    await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer' }], seed: 5 });
    await page.waitForSelector('#turn-help');
    await check(page, 'a Metro game', { game: true });

    await page.goto(`${env.url}/challenges/daily-2026-11-26`);
    await page.waitForSelector('#challenge-title');
    await check(page, 'a challenge\'s leaderboard');
    // Names are unique: one player a size.
    const player = await page.evaluate(async (name) => (await fetch('/api/players', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }),
    })).json(), `Bea ${options === DESKTOP ? 'D' : 'P'}`);
    await page.goto(`${env.url}/players/${player.id}`);
    await page.waitForSelector('#app > *:not(.loading)');
    await page.waitForTimeout(300);
    await check(page, 'a player\'s page');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  assert.deepEqual(found, [], found.join('\n'));
});

test('axe on the states that showed low contrast: a finished round, a finished challenge, the viewer with a board, a Metro replay', async () => {
  found.length = 0;
  for (const options of [DESKTOP, PHONE]) {
    const page = await env.page({ ...options, bypassCSP: true });
    // A round the computer has finished while the player is still placing: "finished the round".
    const id = await startGame(page, env.url, { mode: 'computer', seed: 4, name: 'Ada' });
    await page.waitForFunction(() => /finished the round/.test(document.body.textContent), null, { timeout: 30000 });
    await check(page, 'a round the computer has finished', { game: true });
    await shot(page, `a11y-round-finished-${options === DESKTOP ? 'desktop' : 'phone'}`);
    await playRound(page, id);
    await check(page, 'a round the player has finished', { game: true });

    // A finished challenge: its leaderboard says "You finished 1st".
    await page.goto(env.url);
    await page.locator('.challenge-card[data-kind=daily] button.play-challenge').click();
    await page.waitForSelector('.name-form input');
    await page.fill('.name-form input', `Cy ${options === DESKTOP ? 'D' : 'P'}`);
    await page.click('.name-form button[type=submit]');
    await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await page.waitForSelector('#my-board');
    await finishByApi(page, new URL(page.url()).pathname.split('/')[2]);
    await page.waitForSelector('#winner');
    await check(page, 'a finished challenge game', { game: true });
    await page.goto(`${env.url}/challenges/daily-2026-11-26`);
    await page.waitForSelector('#you-done');
    assert.match(await page.textContent('#you-done'), /You finished/);
    await check(page, 'a finished challenge\'s leaderboard');

    // The viewer with a board in it, its placement buttons.
    await page.goto(`${env.url}/view?board=A4A12B2B16A1B01A1B23S1B32A1A32`);
    await page.waitForSelector('#placements .chip-button');
    await check(page, 'the viewer with a board');
    await page.locator('#placements .chip-button').first().click();
    await page.waitForSelector('#placements .chip-button.future');
    await check(page, 'the viewer stepped back (placements to come)');
    const size = options === DESKTOP ? 'desktop' : 'phone';
    await shot(page, `a11y-viewer-stepped-${size}`);

    // A Metro replay, its players' names.
    const metro = await finishMetroByApi(page);
    await page.goto(`${env.url}/metro/${metro}/replay`);
    await page.waitForSelector('#replay-board .m-placed');
    await check(page, 'a Metro replay');
    await shot(page, `a11y-metro-replay-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  const seen = found.splice(0);
  assert.deepEqual(seen, [], seen.join('\n'));
});
