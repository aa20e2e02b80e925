// Replays in Chromium: finished games (played through the API) are listed on the recent
// games page; a replay opens from the list and from the game's end screen, steps through
// every action with each seat's board and score at that moment, and ends at the final score.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, serverAndBrowser, shot } from '../harness.js';

const env = serverAndBrowser();

async function call(method, path, token, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(`${env.url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/** The first legal die placement the state offers, or null. */
function firstLegal(st) {
  for (const die of st.you.dice) {
    if (die.used) continue;
    for (let o = 0; o < 8; o++) {
      if (die.legal[o].length >= 2) return `${die.tile}${die.legal[o].slice(0, 2)}${o}`;
    }
  }
  return null;
}

/** Creates a game and plays it to the end through the API; returns {id, state}. */
async function playGame(body) {
  const { id, token } = await call('POST', '/api/ink/games', null, body);
  let st = await call('GET', `/api/ink/games/${id}`, token);
  while (!st.finished) {
    if (st.you.round_done) {
      // The computer is playing its round.
      await new Promise((r) => setTimeout(r, 20));
      st = await call('GET', `/api/ink/games/${id}`, token);
      continue;
    }
    let p;
    while ((p = firstLegal(st))) st = await call('POST', `/api/ink/games/${id}/place`, token, { placement: p });
    st = await call('POST', `/api/ink/games/${id}/end-round`, token);
  }
  return { id, state: st };
}

test('a finished solo game: from the recent games to its replay, stepping to the end score', async () => {
  const solo = await playGame({ mode: 'solo', seed: 31, name: 'Ada' });
  const final = solo.state.players[0].score.advanced;
  const page = await env.page(DESKTOP);
  await page.goto(env.url);
  await page.click('.site-nav a[href="/games"]');
  await page.waitForSelector(`.recent-game[data-id="${solo.id}"]`);
  assert.match(await page.textContent(`.recent-game[data-id="${solo.id}"]`), new RegExp(`Ada\\s*${final} points?`));
  await shot(page, 'recent-games-desktop');
  await page.click(`.recent-game[data-id="${solo.id}"] .replay-link`);
  await page.waitForSelector('#replay-board-0');
  assert.equal(new URL(page.url()).pathname, `/ink/${solo.id}/replay`);
  // It opens at the end: the final board and score.
  assert.equal(await page.textContent('#replay-score-0'), `${final} ${Math.abs(final) === 1 ? 'point' : 'points'}`);
  assert.equal(await page.locator('#replay-board-0 g.placed').count(), solo.state.players[0].board.length / 5);
  assert.match(await page.textContent('#step-caption'), /ended round 7: the game is over/);
  await shot(page, 'replay-end-desktop');

  // Back to the start, then step by step: the board grows one placement at a time.
  await page.click('#step-first');
  assert.equal(await page.textContent('#replay-score-0'), '0 points');
  assert.equal(await page.locator('#replay-board-0 g.placed').count(), 0);
  assert.match(await page.textContent('#step-caption'), /The start/);
  await page.click('#step-next');
  const first = solo.state.players[0].board.slice(0, 5);
  assert.match(await page.textContent('#step-caption'), new RegExp(`Action 1 of \\d+.*Ada placed the [a-zT -]+ on ${first.slice(2, 4)}, (highway|railway) to`));
  assert.equal(await page.locator(`#replay-board-0 g.placed[data-placement="${first}"]`).count(), 1);
  assert.match(await page.textContent('.replay-dice .round-label'), /Round 1/);
  assert.equal(await page.locator('.replay-dice .mini-die').count(), 4);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '2');
  assert.equal(new URL(page.url()).searchParams.get('at'), '2');
  await shot(page, 'replay-step-desktop');
  // The slider to the end: the end score again.
  await page.click('#step-last');
  assert.equal(await page.textContent('#replay-score-0'), `${final} ${Math.abs(final) === 1 ? 'point' : 'points'}`);
  assert.equal(await page.textContent('.replay-side .breakdown .score-total'), String(final));

  // From the game's end screen.
  await page.goto(`${env.url}/ink/${solo.id}`);
  await page.waitForSelector('#replay-link');
  await page.click('#replay-link');
  await page.waitForSelector('#replay-board-0');
  assert.equal(await page.textContent('#replay-score-0'), `${final} ${Math.abs(final) === 1 ? 'point' : 'points'}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game against the computer: both boards at every step, on a phone; a game not over has none', async () => {
  const game = await playGame({ mode: 'computer', seed: 8, name: 'Bea', agent: 'greedy' });
  const page = await env.page(PHONE);
  await page.goto(`${env.url}/ink/${game.id}/replay?at=0`);
  await page.waitForSelector('#replay-board-1');
  assert.equal(await page.textContent('#replay-score-1'), '0 points');
  await page.click('#step-last');
  for (const p of game.state.players) {
    const want = p.score.advanced;
    assert.equal(await page.textContent(`#replay-score-${p.seat}`), `${want} ${Math.abs(want) === 1 ? 'point' : 'points'}`);
  }
  await shot(page, 'replay-computer-phone');
  await page.goto(`${env.url}/games`);
  await page.waitForSelector(`.recent-game[data-id="${game.id}"]`);
  await shot(page, 'recent-games-phone');

  const open = await call('POST', '/api/ink/games', null, { mode: 'solo', seed: 1 });
  await page.goto(`${env.url}/ink/${open.id}/replay`);
  await page.waitForSelector('#replay-missing');
  assert.match(await page.textContent('#replay-missing'), /Not over yet/);
  assert.deepEqual(page.errors.filter((e) => !/status of 409/.test(e)), []);
  await page.context().close();
});

test('a finished Metro game of two computers and a person: listed, replayed to its end scores', async () => {
  // A game needs a person: Hu plays the first legal square each turn, through the API.
  const created = await call('POST', '/api/metro/games', null, {
    players: [{ kind: 'computer', level: 'random', name: 'Rae' }, { kind: 'computer', level: 'greedy', name: 'Gus' }, { kind: 'human', name: 'Hu' }],
    seed: '21',
  });
  const token = created.seats[0].token;
  const path = `/api/metro/games/${created.id}`;
  let st;
  for (let i = 0; i < 3000; i++) {
    st = await call('GET', path, token);
    if (st.finished) break;
    if (!st.you.your_turn) {
      await new Promise((r) => setTimeout(r, 20));
    } else if (st.you.legal && st.you.legal.length >= 2) {
      await call('POST', `${path}/place`, token, { square: st.you.legal.slice(0, 2) });
    } else {
      await call('POST', `${path}/draw`, token);
    }
  }
  assert.equal(st.finished, true);
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/games`);
    await page.waitForSelector(`.recent-game[data-id="${created.id}"]`);
    assert.match(await page.textContent(`.recent-game[data-id="${created.id}"] .game-chip`), /Metro/);
    await page.click(`.recent-game[data-id="${created.id}"] .replay-link`);
    await page.waitForSelector('#replay-board .m-placed');
    assert.equal(await page.locator('#replay-board .m-placed').count(), 60);
    for (const seat of [0, 1]) {
      assert.equal(await page.textContent(`#replay-score-${seat}`), `${st.scores[seat]} points`);
    }
    assert.match(await page.textContent('#step-caption'), /The board is full: the game is over/);
    await shot(page, `replay-metro-end-${label}`);
    await page.click('#step-first');
    assert.equal(await page.locator('#replay-board .m-placed').count(), 0);
    await page.click('#step-next');
    assert.match(await page.textContent('#step-caption'), /Rae drew [a-zU ,-]+\./);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    assert.ok(await page.locator('#replay-board .m-placed').count() >= 1);
    await shot(page, `replay-metro-step-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
