// Strangers: two browsers (each its own player) press "Play someone now" for Metro, are seated
// together and play a turn each; then one stops, its clock runs out (30 s, a live Metro turn),
// and the computer plays for it, marked on both pages; after a second turn run out the seat is
// the computer's, the game is played to its end and both player pages show a rating. The start
// page counts who waits, and lists the game as waiting for its player (the page's title too).
// Screenshots at 1024×768 and on a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, serverAndBrowser, shot } from '../harness.js';

const env = serverAndBrowser();

/** A player made on this page's browser, by its name form on the pool card. */
async function joinPool(page, name) {
  await page.goto(env.url);
  await page.waitForSelector('#play-someone');
  await page.selectOption('#pool-game', 'metro');
  await page.selectOption('#pool-players', '2');
  await page.selectOption('#pool-fill', 'never');
  await page.click('#play-someone');
  await page.fill('#play-someone-now input[name="player-name"]', name);
  await page.click('#play-someone-now .name-form button[type="submit"]');
}

/** The state of Metro game `id` as this page's seat sees it. */
function seatState(page, id) {
  return page.evaluate(async (game) => {
    const held = JSON.parse(localStorage.getItem('tracklayer:metro:games') || '[]').find((g) => g.id === game);
    const r = await fetch(`/api/metro/games/${game}`, { headers: { authorization: `Bearer ${held.seats[0].token}` } });
    return r.json();
  }, id);
}

/** Plays this page's seat's turn through the API (draw, then the first legal square). */
function playTurn(page, id) {
  return page.evaluate(async (game) => {
    const held = JSON.parse(localStorage.getItem('tracklayer:metro:games') || '[]').find((g) => g.id === game);
    const auth = { authorization: `Bearer ${held.seats[0].token}`, 'content-type': 'application/json' };
    let s = await (await fetch(`/api/metro/games/${game}`, { headers: auth })).json();
    if (!s.you.your_turn) return s;
    if (!s.you.tile) s = await (await fetch(`/api/metro/games/${game}/draw`, { method: 'POST', headers: auth })).json();
    const square = s.you.legal.slice(0, 2);
    return (await fetch(`/api/metro/games/${game}/place`, { method: 'POST', headers: auth, body: JSON.stringify({ square }) })).json();
  }, id);
}

test('two strangers are seated together, and the computer stands in when a clock runs out', { timeout: 240_000 }, async () => {
  const ann = await env.page();
  const bob = await env.page(PHONE);
  await joinPool(ann, 'Ann');
  await ann.waitForSelector('#pool-cancel:not([hidden])');
  assert.match(await ann.locator('#pool-status').textContent(), /Looking for Metro players/);
  await shot(ann, 'pool-waiting-desktop');
  // Bob's start page counts Ann waiting.
  await bob.goto(env.url);
  await bob.waitForFunction(() => /1 person waiting for Metro/.test(document.querySelector('#pool-counts')?.textContent || ''));
  await joinPool(bob, 'Bob');

  // Both are taken to the same game, each in a seat of their own, with a clock.
  await ann.waitForURL(/\/metro\/[0-9a-f]{24}$/);
  await bob.waitForURL(/\/metro\/[0-9a-f]{24}$/);
  const id = ann.url().split('/').pop();
  assert.equal(bob.url().split('/').pop(), id);
  await ann.waitForSelector('#clock');
  assert.match(await ann.locator('#clock').textContent(), /Your time 0:[0-3]\d/);
  await bob.waitForSelector('#clock');
  assert.match(await bob.locator('#clock').textContent(), /Ann 0:[0-3]\d/);
  await shot(bob, 'pool-game-phone');

  // A turn each.
  await playTurn(ann, id);
  await bob.waitForFunction(() => /Your time/.test(document.querySelector('#clock')?.textContent || ''));
  await playTurn(bob, id);
  await playTurn(ann, id);
  // Bob stops: 30 s later the computer plays his turn, and both pages say so.
  let s = await seatState(ann, id);
  for (let i = 0; i < 160 && !(s.clock.seats[1].timeouts >= 1); i += 1) {
    await ann.waitForTimeout(250);
    s = await seatState(ann, id);
  }
  assert.equal(s.clock.seats[1].timeouts, 1, JSON.stringify(s.clock));
  // Ann's start page lists the game as her turn, and the title counts it.
  const home = await env.page();
  await home.goto(env.url);
  await home.evaluate((me) => localStorage.setItem('tracklayer:player', me), await ann.evaluate(() => localStorage.getItem('tracklayer:player')));
  await home.reload();
  await home.waitForSelector('#waiting-games .your-turn');
  assert.match(await home.title(), /^\(1\) your turn/);
  await shot(home, 'your-games-desktop');
  // Ann plays on; Bob's second turn runs out: the seat is the computer's.
  await playTurn(ann, id);
  for (let i = 0; i < 160 && !s.clock.seats[1].given; i += 1) {
    await ann.waitForTimeout(250);
    s = await seatState(ann, id);
  }
  assert.equal(s.clock.seats[1].given, true, JSON.stringify(s.clock));
  await bob.reload();
  await bob.waitForFunction(() => /time ran out twice/.test(document.body.textContent));
  await shot(bob, 'pool-given-phone');
  // Ann plays to the end; the rated game gives both a rating.
  for (let i = 0; i < 400 && !s.finished; i += 1) {
    s = await playTurn(ann, id);
    if (!s.finished && !s.you?.your_turn) await ann.waitForTimeout(50);
  }
  assert.equal(s.finished, true);
  for (const page of [ann, bob]) {
    const me = JSON.parse(await page.evaluate(() => localStorage.getItem('tracklayer:player')));
    await page.goto(`${env.url}/players/${me.id}`);
    await page.waitForFunction(() => /Metro/.test(document.querySelector('#player-ratings')?.textContent || ''));
  }
  for (const page of [ann, bob, home]) assert.deepEqual(page.errors, []);
});
