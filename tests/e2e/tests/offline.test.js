// Playing with no connection: after a first visit, with the server gone, a solo Railroad Ink
// game and a Metro game against a computer are started and played to their ends in the page
// (the engines in WebAssembly), and show their scores; once the server is back, each is sent,
// replayed (the Metro computer's turns played again) and kept by the server, and is on the
// player's page with the same score.
// A forged log is refused in words.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DESKTOP, launch, newPage, shot, startServer, squareCentre, turnTo } from '../harness.js';
import { playTurn, startMetro } from '../metro-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'tracklayer-offline-'));
const browser = await launch();
after(async () => {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits until the page's service worker is active and controls the page. */
async function controlled(page) {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return !!navigator.serviceWorker.controller;
  }, null, { timeout: 30000 });
}

/** The game's state as the page itself has it (for a game played in the page, its engine's). */
function pageState(page, id) {
  return page.evaluate(async (gid) => (await import('/js/ink/api.js')).api.state(gid), id);
}

/** Places the first legal die as a player does (select, turn, click); null when none fits. */
async function placeOne(page, id) {
  const st = await pageState(page, id);
  for (const die of st.you.dice) {
    if (die.used || die.optional) continue;
    const o = die.legal.findIndex((l) => l.length >= 2);
    if (o < 0) continue;
    await page.click(`.choice-die[data-index="${die.die}"]`);
    await turnTo(page, o);
    await page.waitForSelector(`.preview[data-orientation="${o}"]`);
    const square = die.legal[o].slice(0, 2);
    const c = await squareCentre(page, square);
    await page.mouse.click(c.x, c.y);
    const placement = `${die.tile}${square}${o}`;
    await page.waitForSelector(`#my-board g.placed[data-placement="${placement}"]`);
    return placement;
  }
  return null;
}

/** A player of the site on this page's device (its key kept as the pages keep it). */
async function becomePlayer(page, name) {
  return page.evaluate(async (n) => {
    const r = await fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n }) });
    const p = await r.json();
    localStorage.setItem('tracklayer:player', JSON.stringify({ id: p.id, token: p.token, name: p.name }));
    return p;
  }, name);
}

test('with no connection a solo game is played to its end; back online it is kept, with the same score', async () => {
  const db = join(dir, 'offline.sqlite');
  let server = await startServer({ db });
  const { port } = new URL(server.url);
  const page = await newPage(browser, DESKTOP);
  try {
    await page.goto(server.url);
    await page.waitForSelector('#start');
    const ada = await becomePlayer(page, 'Ada');
    await controlled(page);
    await server.stop();

    // No server: the start page comes from the worker, says what plays, and a solo game
    // starts in the page.
    await page.goto(server.url);
    await page.waitForSelector('#start');
    await page.locator('#offline-note').waitFor();
    assert.match(await page.locator('#offline-note').innerText(), /No connection just now/);
    assert.equal(await page.locator('#play-someone-now').isVisible(), false, 'strangers meet on the server');
    await shot(page, 'offline-start');
    await page.locator('input[name=mode][value=solo]').check({ force: true });
    await page.click('#start');
    await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await page.waitForSelector('#my-board');
    const id = new URL(page.url()).pathname.split('/')[2];
    assert.match(await page.locator('#offline-line').innerText(), /offline, on this device/);
    assert.equal(await page.locator('#hint').count(), 0, 'no hint: it is the server\'s');
    await shot(page, 'offline-ink-playing');

    for (let round = 0; round < 7; round++) {
      while (await placeOne(page, id)) { /* the next die */ }
      await page.waitForSelector('#end-round:not([disabled])');
      await page.click('#end-round');
      if (round < 6) await page.waitForFunction((r) => document.querySelector('#game-heading')?.textContent.includes(`Round ${r + 1}`) || false, round + 1);
    }
    await page.waitForFunction(() => document.querySelector('#game-heading')?.textContent.includes('Final scores'));
    const final = await pageState(page, id);
    assert.equal(final.finished, true);
    const score = final.players[0].score.advanced;
    assert.match(await page.locator('.board-score').first().innerText(), new RegExp(`${Math.abs(score)}`));
    assert.match(await page.locator('#offline-line').innerText(), /when the connection returns/);
    await shot(page, 'offline-ink-over');

    // The server is back: the game is sent when the browser is online again.
    server = await startServer({ db, port: Number(port) });
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.locator('#offline-line a').waitFor({ timeout: 15000 });
    const kept = await page.locator('#offline-line a').getAttribute('href');
    const keptId = kept.split('/')[2];
    assert.notEqual(keptId, id, 'the server\'s own game');
    const stored = await page.evaluate(async (gid) => (await fetch(`/api/ink/games/${gid}`)).json(), keptId);
    assert.equal(stored.finished, true);
    assert.equal(stored.mode, 'solo');
    assert.equal(stored.players[0].score.advanced, score, 'the score the page showed');
    // On the player's page, with that score.
    const profile = await page.evaluate(async (pid) => (await fetch(`/api/players/${pid}`)).json(), ada.id);
    assert.equal(profile.ink.games, 1);
    assert.ok(profile.scores.some((s) => s.score === score || s.value === score || JSON.stringify(s).includes(`:${score}`)), JSON.stringify(profile.scores));
    await page.click('#offline-line a');
    await page.waitForURL(new RegExp(`/ink/${keptId}$`));
    await page.waitForSelector('#my-board');
    await shot(page, 'offline-ink-kept');
    assert.deepEqual(page.errors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|net::/.test(e)), []);
  } finally {
    await page.context().close();
    await server.stop();
  }
});

test('with no connection a game of Metro against a computer is played to its end; back online it is kept, with the same scores', async () => {
  const db = join(dir, 'offline-metro.sqlite');
  let server = await startServer({ db });
  const { port } = new URL(server.url);
  const page = await newPage(browser, DESKTOP);
  try {
    await page.goto(server.url);
    await page.waitForSelector('#start');
    const ada = await becomePlayer(page, 'Ada');
    await controlled(page);
    await server.stop();
    const id = await startMetro(page, server.url, { seats: [{ kind: 'here', name: 'Ada' }, { kind: 'computer', level: 'greedy' }] });
    assert.match(await page.locator('#offline-line').innerText(), /offline, on this device/);
    await playTurn(page);
    await shot(page, 'offline-metro-playing');
    for (let turn = 1; turn < 40 && !(await page.locator('#winner').count()); turn++) {
      await Promise.race([playTurn(page), page.waitForSelector('#winner')]);
    }
    await page.waitForSelector('#winner');
    const st = await page.evaluate(async (gid) => (await import('/js/metro/api.js')).metroApi.state(gid), id);
    assert.equal(st.finished, true);
    assert.equal(st.sequence.length, 60 * 6, 'all 60 tiles placed');
    assert.equal(st.players[1].kind, 'computer');
    const ranking = await page.locator('.m-ranking').innerText();
    for (const p of st.players) assert.ok(ranking.includes(String(p.score)), `${p.name}'s ${p.score} in ${ranking}`);
    assert.match(await page.locator('#offline-line').innerText(), /when the connection returns/);
    await shot(page, 'offline-metro-over');

    // The server is back: the game is sent, and the server plays the computer's turns again.
    server = await startServer({ db, port: Number(port) });
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.locator('#offline-line a').waitFor({ timeout: 30000 });
    const keptId = (await page.locator('#offline-line a').getAttribute('href')).split('/')[2];
    assert.notEqual(keptId, id, 'the server\'s own game');
    const stored = await page.evaluate(async (gid) => (await fetch(`/api/metro/games/${gid}`)).json(), keptId);
    assert.equal(stored.finished, true);
    assert.deepEqual(stored.scores, st.scores, 'the scores the page showed');
    assert.equal(stored.players[1].kind, 'computer');
    const profile = await page.evaluate(async (pid) => (await fetch(`/api/players/${pid}`)).json(), ada.id);
    assert.equal(profile.metro.games, 1, JSON.stringify(profile.metro));
    await page.click('#offline-line a');
    await page.waitForURL(new RegExp(`/metro/${keptId}$`));
    await page.waitForSelector('#winner');
    await shot(page, 'offline-metro-kept');
    assert.deepEqual(page.errors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|net::/.test(e)), []);
  } finally {
    await page.context().close();
    await server.stop();
  }
});

test('a forged log played "offline" is refused in words, and kept out', async () => {
  const server = await startServer();
  const page = await newPage(browser, DESKTOP);
  try {
    await page.goto(server.url);
    await page.waitForSelector('#start');
    // A finished game whose log was written by hand: the same placement twice.
    const id = '0123456789abcdef01234567';
    await page.evaluate((gid) => {
      const place = { action: 'place', placement: 'A1A30' };
      const game = { id: gid, kind: 'ink', name: 'Eve', seed: '42', options: {}, actions: [place, place], created: Date.now(), finished: Date.now() };
      localStorage.setItem('tracklayer:offline:games', JSON.stringify([game]));
    }, id);
    await page.goto(`${server.url}/ink/${id}`);
    const refused = page.locator('#offline-line.refused');
    await refused.waitFor({ timeout: 15000 });
    assert.match(await refused.innerText(), /did not keep this game: action 2 of 2 does not replay/);
    await shot(page, 'offline-ink-refused');
    const recent = await page.evaluate(async () => (await fetch('/api/games')).json());
    assert.equal(recent.games.length, 0, 'nothing kept');
  } finally {
    await page.context().close();
    await server.stop();
  }
});
