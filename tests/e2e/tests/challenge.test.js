// Challenges in Chromium, on a server whose clock is fixed (TRACKLAYER_NOW): the start page's
// card for today's challenge (players, best, the computer's score, the time left, Play), a
// daily Railroad Ink challenge played to its end with the rank, the leaderboard and the
// histogram, a friend challenge made from a solo game in one browser context and played from
// its link in another, both players then on the challenge's page, and the next day, when
// yesterday's challenge is among the past ones with its seed and every board open.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiState, binary, DESKTOP, finishByApi, gameId, PHONE, placeOne, serverAndBrowser, shot, startGame,
  startServer,
} from '../harness.js';

const NOW = '2026-11-26T14:48:00Z';

/** A score as the pages print it, with a true minus sign. */
const shown = (n) => String(n).replace('-', '−');
const DAILY = 'daily-2026-11-26';

/** A small search budget for the computer's game on the challenge dice, if this server has one. */
function quickComputer() {
  try {
    const help = execFileSync(binary(), ['serve', '--help'], { encoding: 'utf8' });
    return help.includes('--challenge-budget') ? ['--challenge-budget', '1'] : [];
  } catch {
    return [];
  }
}

const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW }, args: quickComputer() });

/** Waits until the API gives the computer's score for a challenge (its game runs in the background). */
async function computerScore(page, id) {
  for (let i = 0; i < 600; i++) {
    const c = await page.evaluate(async (cid) => (await fetch(`/api/challenges/${cid}`)).json(), id);
    if (c.computer !== null && c.computer !== undefined) return c.computer;
    await page.waitForTimeout(100);
  }
  throw new Error(`the computer never finished ${id}`);
}

/** Fills the inline name form that Play (or Challenge a friend) shows on a device with no player yet. */
async function giveName(page, name) {
  await page.waitForSelector('.name-form input');
  await page.fill('.name-form input', name);
  await page.click('.name-form button[type=submit]');
}

test('the start page opens with today\'s challenges: players, best, the computer, the time left, Play', async () => {
  const page = await env.page(DESKTOP);
  await page.goto(env.url);
  const card = page.locator(`.challenge-card[data-challenge="${DAILY}"]`);
  await card.waitFor();
  assert.equal(await page.locator('.challenge-card').count(), 5);
  assert.deepEqual(await page.locator('.challenge-card').evaluateAll((els) => els.map((e) => e.dataset.kind)), ['daily', 'weekly', 'monthly', 'metro-daily', 'weekly-deep-blue']);
  let text = await card.textContent();
  assert.match(text, /Today's Railroad Ink/);
  assert.match(text, /0 players/);
  assert.match(text, /no scores yet/);
  assert.match(text, /9 h 12 min left/, 'the time left by the server\'s clock, not this machine\'s');
  assert.match(await page.locator('.challenge-card[data-kind=weekly]').textContent(), /3 days 9 h left/);
  const month = page.locator('.challenge-card[data-kind=monthly]');
  assert.match(await month.textContent(), /This month's Railroad Ink/);
  assert.match(await month.textContent(), /4 days 9 h left/);
  assert.equal(await card.locator('button.play-challenge').textContent(), 'Play');
  assert.equal(await card.locator(`a[href="/challenges/${DAILY}"]`).count(), 1);
  assert.equal(await page.locator('.challenge-links a[href="/challenges"]').count(), 1, 'a link to past challenges');
  // Once the computer has played the day's dice, the card says its score.
  const computer = await computerScore(page, DAILY);
  await page.reload();
  await card.waitFor();
  text = await card.textContent();
  assert.match(text, new RegExp(`the computer scored ${shown(computer)}`));
  await shot(page, 'challenges-start-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await env.page(PHONE);
  await phone.goto(env.url);
  await phone.locator(`.challenge-card[data-challenge="${DAILY}"]`).waitFor();
  await shot(phone, 'challenges-start-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});

test('a daily Railroad Ink challenge played to its end: rank, leaderboard and histogram', async () => {
  const page = await env.page(DESKTOP);
  await page.goto(env.url);
  const card = page.locator(`.challenge-card[data-challenge="${DAILY}"]`);
  await card.locator('button.play-challenge').click();
  await giveName(page, 'Ann');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector('#my-board');
  const id = gameId(page);
  const player = await page.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')));
  assert.equal(player.name, 'Ann');
  assert.match(player.token, /^[0-9a-f]{64}$/);

  // The ordinary game screen, as a challenge: its chip, and no hint.
  assert.equal(await page.textContent('.game-bar .mode-chip'), 'Daily challenge');
  assert.equal(await page.locator('#hint').count(), 0);
  const st = await apiState(page, id);
  assert.equal(st.mode, 'challenge');
  assert.equal(st.challenge, DAILY);
  assert.equal(st.seed, undefined, 'no seed while the challenge is open');

  // A placement by hand; the start page's card then offers to continue, back to the same game.
  await placeOne(page, id, { by: 'click' });
  await page.goto(env.url);
  const again = page.locator(`.challenge-card[data-challenge="${DAILY}"] button.play-challenge`);
  assert.equal(await again.textContent(), 'Continue');
  await again.click();
  await page.waitForURL(new RegExp(`/ink/${id}$`));
  await page.waitForSelector('#my-board');
  // The rest through the API with the page's seat.
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  await page.waitForSelector('#your-rank');
  assert.equal(await page.textContent('#your-rank'), 'You are 1st of 1');
  // The first day of her streak of dailies.
  await page.waitForSelector('#your-streak');
  assert.match(await page.textContent('#your-streak'), /Streak: day 1\b/);
  assert.equal(await page.locator('.challenge-result .result-top li.you').count(), 1);
  const final = await apiState(page, id);
  const score = final.players[0].score.advanced;
  assert.equal(final.seed, undefined, 'no seed at the end either, while the challenge is open');
  assert.doesNotMatch(await page.textContent('.end-banner'), /seed/i);
  const chart = page.locator('.challenge-result svg.histogram-svg');
  assert.equal(await chart.getAttribute('role'), 'img');
  assert.match(await chart.getAttribute('aria-label'), new RegExp(`You scored ${shown(score)}`));
  assert.equal(await chart.locator('.bar.you').count(), 1);
  assert.match(await chart.locator('.you-mark text').textContent(), /^You: /);
  await shot(page, 'challenge-end-desktop');

  // The whole leaderboard: Ann's row highlighted, the computer apart, the chart, her board.
  await page.click('#full-leaderboard');
  await page.waitForURL(new RegExp(`/challenges/${DAILY}$`));
  await page.waitForSelector('#leaderboard');
  assert.match(await page.textContent('#challenge-title'), /^Daily Railroad Ink · 26 November 2026$/);
  assert.match(await page.textContent('.challenge-page .facts'), /1 player/);
  const mine = page.locator('#leaderboard tr.you');
  assert.equal(await mine.count(), 1);
  assert.match(await mine.textContent(), /Ann \(you\)/);
  assert.equal(await mine.locator('td.score').textContent(), shown(score));
  assert.equal(await mine.locator(`a[href="/ink/${id}/replay"]`).count(), 1, 'once finished, the boards open');
  assert.equal(await mine.locator(`a[href="/players/${player.id}"]`).count(), 1);
  assert.match(await page.textContent('#computer-row'), /Computer \(strong\)/);
  assert.equal(await page.locator('.chart-card svg.histogram-svg .bar.you').count(), 1);
  assert.match(await page.textContent('#you-done'), /You finished 1st/);
  await shot(page, 'challenge-leaderboard-desktop');

  // Ann on her phone, by the link that carries her identity: the key is kept, and taken out of
  // the address.
  const phone = await env.page(PHONE);
  await phone.goto(`${env.url}/players/${player.id}#key=${player.token}`);
  await phone.waitForSelector('#identity-taken');
  assert.equal(new URL(phone.url()).hash, '');
  assert.deepEqual(await phone.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player'))), player);
  await phone.goto(`${env.url}/challenges/${DAILY}`);
  await phone.waitForSelector('#leaderboard tr.you');
  await shot(phone, 'challenge-leaderboard-phone');
  await phone.goto(`${env.url}/ink/${id}`);
  await phone.waitForSelector('#your-rank');
  await shot(phone, 'challenge-end-phone');
  await phone.goto(`${env.url}/players/${player.id}`);
  await phone.waitForSelector('#player-stats');
  assert.match(await phone.textContent('#player-name'), /Ann/);
  await shot(phone, 'player-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();

  // The start page's card now says she is done, with her rank.
  await page.goto(env.url);
  await page.locator(`.challenge-card[data-challenge="${DAILY}"] .done-line`).waitFor();
  assert.match(await page.textContent(`.challenge-card[data-challenge="${DAILY}"] .done-line`), /Done: rank 1 of 1/);
  // The card shows her streak, kept for today; Metro's daily has none yet.
  const chip = page.locator(`.challenge-card[data-challenge="${DAILY}"] .streak-chip`);
  assert.match(await chip.textContent(), /day 1$/);
  assert.equal(await page.locator('.challenge-card[data-kind=metro-daily] .streak-chip').count(), 0);
  await shot(page, 'challenges-streak-desktop');
  await page.goto(`${env.url}/players/${player.id}`);
  await page.waitForSelector('#player-stats');
  assert.equal(await page.textContent('#challenges-played'), '1');
  assert.equal(await page.textContent('#player-streaks tr[data-kind=daily] .streak-current'), '1');
  await shot(page, 'player-desktop');
  await page.goto(`${env.url}/challenges`);
  await page.waitForSelector('.challenge-card');
  await shot(page, 'challenges-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a friend challenge: made from a solo game in one browser, played from its link in another', async () => {
  const ann = await env.page(DESKTOP);
  // A random seed: a game whose seed was chosen (known to others) is challenged on new dice.
  const gid = await startGame(ann, env.url, { mode: 'solo', name: 'Ann' });
  await finishByApi(ann, gid);
  await ann.waitForSelector('#winner');
  const annFinished = await apiState(ann, gid);
  const annScore = annFinished.players[0].score.advanced;
  const annSeed = annFinished.seed;
  await ann.click('#challenge-friend');
  // A player's name is theirs alone: the Ann of the test before has it, so this Ann (another
  // device, another person) is told at the field, and is Ann B.
  await giveName(ann, 'Ann');
  await ann.waitForSelector('.name-form .name-hint.bad');
  assert.match(await ann.textContent('.name-form .name-hint.bad'), /^Another player is called "Ann", or by a name that looks the same: choose another name\.$/);
  await ann.fill('.name-form input', 'Ann B');
  await ann.click('.name-form button[type=submit]');
  await ann.waitForSelector('#friend-challenge .invite-link');
  const link = await ann.inputValue('#friend-challenge .invite-link');
  assert.match(link, new RegExp(`^${env.url}/challenges/friend-[0-9a-f]{24}$`));
  await ann.click('#friend-challenge #copy-invite');
  await shot(ann, 'friend-link-desktop');

  const bob = await env.page(PHONE);
  await bob.goto(link);
  await bob.waitForSelector('#leaderboard');
  assert.equal(await bob.textContent('#challenge-title'), `Ann B's challenge: beat ${shown(annScore)} on the same seven rolls`);
  // Before he has played it, Bob is told nothing of the dice: no seed, no game, no board.
  assert.equal(await bob.locator('#challenge-seed').count(), 0);
  assert.equal(await bob.locator('#leaderboard a[href*="/replay"]').count(), 0);
  assert.match(await bob.textContent('#leaderboard'), /Ann/);
  const peek = await bob.evaluate(async (g) => (await fetch(`/api/ink/games/${g}/replay`)).status, gid);
  assert.equal(peek, 403, 'nor the replay of the game it was made from');
  await shot(bob, 'friend-page-phone');
  await bob.click('button.play-challenge');
  await giveName(bob, 'Bob');
  await bob.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await bob.waitForSelector('#my-board');
  const bid = gameId(bob);
  assert.notEqual(bid, gid);
  assert.equal(await bob.textContent('.game-bar .mode-chip'), 'Friend challenge');
  const bobState = await apiState(bob, bid);
  assert.deepEqual(bobState.chosen_seed, { by: 'Ann B' }, 'who knows the dice, not the dice');
  // Ann sees Bob under the table while he plays.
  await ann.goto(link);
  await ann.waitForSelector('#still-playing');
  assert.equal(await ann.textContent('#still-playing'), 'Still playing: Bob.');
  await shot(ann, 'friend-still-playing-desktop');
  const rolls = await finishByApi(bob, bid);
  // The same seven rolls as Ann's game: those of its seed.
  const expected = execFileSync(binary(), ['ink', 'roll', '--seed', String(annSeed), '--count', '7'], { encoding: 'utf8' }).trim().split('\n');
  assert.deepEqual(rolls, expected);
  await bob.waitForSelector('#your-rank');
  assert.match(await bob.textContent('#your-rank'), /^You are (1st|2nd) of 2$/);
  await shot(bob, 'friend-end-phone');
  // Finished: now the seed and Ann's game are his to see.
  await bob.goto(link);
  await bob.waitForSelector('#challenge-seed');
  assert.equal(await bob.textContent('#challenge-seed'), `Dice from seed ${annSeed}, the same as Ann B's game.`);
  assert.equal(await bob.locator(`#challenge-seed a[href="/ink/${gid}/replay"]`).count(), 1);

  // Both on the challenge's page, seen from either browser.
  for (const page of [ann, bob]) {
    await page.goto(link);
    await page.waitForSelector('#leaderboard');
    const names = await page.locator('#leaderboard .top-rows th.name').allTextContents();
    assert.equal(names.length, 2, names.join(', '));
    assert.ok(names.some((n) => n.startsWith('Ann')), names.join(', '));
    assert.ok(names.some((n) => n.startsWith('Bob')), names.join(', '));
  }
  // Bob's row is his; Ann's seat is hers too (Challenge a friend sent her seat's token with her
  // new player's), though she played it before she had a player: under her player's name.
  assert.match(await bob.textContent('#leaderboard tr.you'), /Bob \(you\)/);
  const annRow = ann.locator('#leaderboard tr.you');
  assert.match(await annRow.textContent(), /Ann B \(you\)/);
  const annId = await ann.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')).id);
  assert.equal(await annRow.locator(`a[href="/players/${annId}"]`).count(), 1, 'her row links to her player page');
  assert.equal(await bob.locator(`#leaderboard tr:not(.you) a[href="/players/${annId}"]`).count(), 1, 'and Bob sees it hers');
  assert.equal(await ann.locator('#still-playing').count(), 0, 'nobody still playing');
  await shot(ann, 'friend-page-after-desktop');
  // The refusals the test asked for: Ann's taken name (409), Bob's look at her game (403).
  assert.deepEqual(ann.errors.filter((e) => !/status of 409/.test(e)), []);
  assert.deepEqual(bob.errors.filter((e) => !/status of 403/.test(e)), []);
  await ann.context().close();
  await bob.context().close();
});

test('an identity link whose key is not valid is refused plainly, and nothing is kept', async () => {
  const page = await env.page(PHONE);
  await page.goto(env.url);
  const [ann, zed] = await page.evaluate(async () => Promise.all(['Noor', 'Zed'].map(async (name) => (await fetch('/api/players', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }),
  })).json())));
  // A key nobody has.
  await page.goto(`${env.url}/players/${ann.id}#key=${'0'.repeat(64)}`);
  await page.waitForSelector('#identity-refused');
  assert.match(await page.textContent('#identity-refused'), /^This link's key is not valid on this server, so this device does not play as Noor\./);
  assert.equal(new URL(page.url()).hash, '', 'the key is taken out of the address all the same');
  assert.equal(await page.evaluate(() => localStorage.getItem('tracklayer:player')), null);
  await shot(page, 'identity-refused-phone');
  // Zed's key on Ann's page.
  await page.goto(`${env.url}/players/${ann.id}#key=${zed.token}`);
  await page.waitForSelector('#identity-refused');
  assert.match(await page.textContent('#identity-refused'), /another player's, not Noor's/);
  assert.equal(await page.evaluate(() => localStorage.getItem('tracklayer:player')), null);
  // Ann's own key: kept, and the page is hers.
  await page.goto(`${env.url}/players/${ann.id}#key=${ann.token}`);
  await page.waitForSelector('#identity-taken');
  await page.waitForSelector('#player-name .chip');
  assert.equal((await page.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')))).id, ann.id);
  assert.deepEqual(page.errors.filter((e) => !/status of 403/.test(e)), []);
  await page.context().close();
});

test('the next day: yesterday\'s challenge is among the past ones, its seed shown and every board open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracklayer-e2e-days-'));
  const db = join(dir, 'days.sqlite');
  let server = await startServer({ env: { TRACKLAYER_NOW: NOW }, args: quickComputer(), db });
  try {
    const eve = await env.page(DESKTOP);
    await eve.goto(server.url);
    await eve.locator(`.challenge-card[data-challenge="${DAILY}"] button.play-challenge`).click();
    await giveName(eve, 'Eve');
    await eve.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    const id = gameId(eve);
    const rolls = await finishByApi(eve, id);
    await eve.waitForSelector('#your-rank');
    const score = (await apiState(eve, id)).players[0].score.advanced;
    const computer = await computerScore(eve, DAILY);
    await eve.context().close();
    await server.stop();

    server = await startServer({ env: { TRACKLAYER_NOW: '2026-11-27T09:00:00Z' }, args: quickComputer(), db });
    const someone = await env.page(PHONE);
    await someone.goto(`${server.url}/challenges`);
    const item = someone.locator(`.past-challenge[data-challenge="${DAILY}"]`);
    await item.waitFor();
    const text = await item.textContent();
    assert.match(text, /Daily Railroad Ink · 26 November 2026/);
    assert.match(text, /1 player/);
    assert.match(text, new RegExp(`best ${shown(score)}`));
    assert.match(text, new RegExp(`the computer scored ${shown(computer)}`));
    // Today's is a new challenge (its card comes with the cards, loaded beside the list).
    await someone.locator('.challenge-card[data-challenge="daily-2026-11-27"]').waitFor();
    await shot(someone, 'challenges-past-phone');

    await item.locator('a.past-title').click();
    await someone.waitForSelector('#leaderboard');
    assert.match(await someone.textContent('.challenge-page .facts'), /closed/);
    assert.equal(await someone.locator('button.play-challenge').count(), 0, 'no Play once closed');
    const seed = (await someone.textContent('#challenge-seed')).match(/seed (\d+)/)[1];
    const replayed = execFileSync(binary(), ['ink', 'roll', '--seed', seed, '--count', '7'], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(replayed, rolls, 'the seed shown replays the challenge\'s rolls');
    // Closed: anyone may open Eve's board and the computer's.
    await someone.click(`#leaderboard a[href="/ink/${id}/replay"]`);
    await someone.waitForSelector('#replay-result');
    assert.match(await someone.textContent('#replay-result'), /Eve/);
    await someone.goBack();
    await someone.waitForSelector('#computer-row a');
    await shot(someone, 'challenge-closed-phone');

    // Anyone may practise a closed challenge's dice: a game of its own, never ranked, whose
    // end says where its score would have ranked.
    await someone.click('button.practice-challenge');
    await giveName(someone, 'Finn');
    await someone.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await someone.waitForSelector('#my-board');
    const practice = gameId(someone);
    assert.notEqual(practice, id);
    assert.equal(await someone.textContent('.game-bar .mode-chip'), 'Practice: daily challenge');
    assert.equal(await someone.locator('#hint').count(), 1, 'practice may ask for a hint');
    const practised = await finishByApi(someone, practice);
    assert.deepEqual(practised, rolls, 'the challenge\'s own rolls');
    await someone.waitForSelector('#practice-rank');
    const mine = (await apiState(someone, practice)).players[0].score.advanced;
    // The same placements as Eve's on the same dice: the same score, level with hers.
    assert.equal(mine, score);
    assert.equal(await someone.textContent('#practice-rank'), 'It would have ranked 1st of 2');
    assert.match(await someone.textContent('#practice-result'), /1 player scored the same/);
    assert.equal(await someone.locator('#practice-result svg.histogram-svg .bar.you').count(), 1);
    await shot(someone, 'practice-end-phone');
    // The leaderboard is as it was.
    await someone.click('#practice-leaderboard');
    await someone.waitForSelector('#leaderboard');
    assert.match(await someone.textContent('.challenge-page .facts'), /1 player/);
    assert.deepEqual(someone.errors, []);
    await someone.context().close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an open challenge keeps its games: a new visitor finds none in Replays; a finished player opens another\'s board', async () => {
  // Dora finishes today's daily; the computer has played it too.
  const dora = await env.page(DESKTOP);
  await dora.goto(env.url);
  await dora.locator(`.challenge-card[data-challenge="${DAILY}"] button.play-challenge`).click();
  await giveName(dora, 'Dora');
  await dora.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  const doraGame = gameId(dora);
  await finishByApi(dora, doraGame);
  await dora.waitForSelector('#your-rank');
  await computerScore(dora, DAILY);
  const board = await dora.evaluate(async (id) => {
    const me = JSON.parse(localStorage.getItem('tracklayer:player'));
    return (await fetch(`/api/challenges/${id}`, { headers: { Authorization: `Bearer ${me.token}` } })).json();
  }, DAILY);
  const computerGame = board.leaderboard.computer.game;
  const others = board.leaderboard.entries.filter((e) => !e.you).map((e) => e.game);
  assert.match(computerGame, /^[0-9a-f]{24}$/);
  assert.ok(others.length >= 1, 'Ann finished it in an earlier test');
  const secrets = [doraGame, computerGame, ...others];

  // A new visitor plays a solo game: Recent games lists it, and none of the challenge's games;
  // their replays say "not yet".
  const visitor = await env.page(PHONE);
  const solo = await startGame(visitor, env.url, { mode: 'solo', name: 'Vi' });
  await finishByApi(visitor, solo);
  await visitor.waitForSelector('#winner');
  await visitor.goto(`${env.url}/games`);
  await visitor.waitForSelector('#recent-games li');
  const listed = await visitor.locator('#recent-games li.recent-game').evaluateAll((els) => els.map((e) => e.dataset.id));
  assert.ok(listed.includes(solo), listed.join(', '));
  for (const id of secrets) assert.ok(!listed.includes(id), `${id} is listed: ${listed.join(', ')}`);
  await shot(visitor, 'recent-games-no-challenge-phone');
  await visitor.goto(`${env.url}/ink/${computerGame}/replay`);
  await visitor.waitForSelector('#replay-missing');
  assert.equal(await visitor.textContent('#replay-missing h1'), 'Not yet');
  assert.deepEqual(visitor.errors.filter((e) => !/status of 403/.test(e)), []);
  await visitor.context().close();

  // Dora, finished, opens another player's board and the computer's from the leaderboard.
  await dora.goto(`${env.url}/challenges/${DAILY}`);
  await dora.waitForSelector('#leaderboard');
  await dora.click(`#leaderboard a[href="/ink/${others[0]}/replay"]`);
  await dora.waitForSelector('#replay-result');
  await dora.goBack();
  await dora.waitForSelector('#computer-row a');
  await dora.click('#computer-row a');
  await dora.waitForSelector('#replay-result');
  assert.match(await dora.textContent('#replay-result'), /Computer/);
  await shot(dora, 'challenge-computer-board-desktop');
  assert.deepEqual(dora.errors, []);
  await dora.context().close();
});

const METRO_DAILY = 'metro-daily-2026-11-26';

/** Plays the rest of a Metro game through the API with the seat this page holds (the first green square each turn). */
async function finishMetroSeat(page, id) {
  await page.evaluate(async (gid) => {
    const seat = JSON.parse(localStorage.getItem('tracklayer:metro:games')).find((g) => g.id === gid).seats[0];
    const call = async (method, path) => (await fetch(`/api/metro/games/${gid}${path}`, {
      method,
      headers: { Authorization: `Bearer ${seat.token}`, 'Content-Type': 'application/json' },
      body: method === 'POST' && path === '/place' ? JSON.stringify(call.body) : undefined,
    })).json();
    for (let i = 0; i < 5000; i++) {
      const st = await call('GET', '');
      if (st.finished) return;
      if (!st.you.your_turn) await new Promise((r) => { setTimeout(r, 30); });
      else if (st.you.legal && st.you.legal.length >= 2) {
        call.body = { square: st.you.legal.slice(0, 2) };
        await call('POST', '/place');
      } else await call('POST', '/draw');
    }
    throw new Error('the Metro game did not end');
  }, id);
}

test('issue 41: a Metro daily\'s end screen says who won the table, your rank among the people, and the computer\'s own game, as Share does', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  // The seat's moves come from the API at once: the computers' 45 moves are not paced 0.7 s apart.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(env.url);
  await page.locator(`.challenge-card[data-challenge="${METRO_DAILY}"] button.play-challenge`).click();
  await giveName(page, 'Meg');
  await page.waitForURL(/\/metro\/[0-9a-f]{24}$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  await page.waitForSelector('#metro-board');
  await finishMetroSeat(page, id);
  const computer = await computerScore(page, METRO_DAILY);
  await page.waitForSelector('#winner');
  await page.waitForSelector('#your-rank');
  await page.waitForSelector('#computer-score');
  const st = await page.evaluate(async (gid) => {
    const seat = JSON.parse(localStorage.getItem('tracklayer:metro:games')).find((g) => g.id === gid).seats[0];
    return (await fetch(`/api/metro/games/${gid}`, { headers: { Authorization: `Bearer ${seat.token}` } })).json();
  }, id);
  const share = await page.evaluate(async (cid) => {
    const me = JSON.parse(localStorage.getItem('tracklayer:player'));
    return (await fetch(`/api/challenges/${cid}/share`, { headers: { Authorization: `Bearer ${me.token}` } })).json();
  }, METRO_DAILY);
  const [, scoreLine, computerLine] = share.text.split('\n');

  // The game's winner among its four seats, said as this game's.
  const best = Math.max(...st.players.map((p) => p.score));
  const winners = st.players.filter((p) => p.score === best);
  const winner = await page.textContent('#winner');
  if (winners.length === 1) {
    const who = winners[0].seat === 0 ? 'You win' : `${winners[0].name} wins`;
    assert.equal(winner, `${who} this game with ${best} points`);
  } else assert.match(winner, new RegExp(`share the win of this game with ${best} points$`));
  // The table's ranking says whose it is.
  assert.match(await page.textContent('#table-ranking'), /^At this table/);
  assert.equal(await page.locator('#table-ranking + ol li').count(), 4);
  // The player's rank among the people on the leaderboard, as Share says it.
  const rank = scoreLine.split(' · ')[1];
  assert.equal(await page.textContent('#your-rank'), `You are ${rank} on the leaderboard`);
  assert.match(await page.textContent('#leaderboard-note'), /people/);
  assert.equal(scoreLine, `${st.players[0].score} points · ${rank}`);
  // The challenge's computer: its own game on the deck, the score Share gives.
  assert.equal(computerLine.split(' · ')[0], `The computer's own game ${computer}`);
  assert.match(await page.textContent('#computer-score'), new RegExp(`^The computer's own game on this deck: ${computer} points\\b`));
  assert.match(await page.getAttribute('.challenge-result svg.histogram-svg', 'aria-label'), new RegExp(`The computer's own game scored ${computer}\\.`));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'challenge-metro-end-desktop');
  assert.deepEqual(page.errors, []);

  // The same on a phone.
  const player = await page.evaluate(() => localStorage.getItem('tracklayer:player'));
  const seats = await page.evaluate(() => localStorage.getItem('tracklayer:metro:games'));
  const phone = await env.page(PHONE);
  await phone.goto(env.url);
  await phone.evaluate(([p, s]) => { localStorage.setItem('tracklayer:player', p); localStorage.setItem('tracklayer:metro:games', s); }, [player, seats]);
  await phone.goto(`${env.url}/metro/${id}`);
  await phone.waitForSelector('#computer-score');
  assert.equal(await phone.textContent('#winner'), winner);
  assert.equal(await phone.textContent('#your-rank'), `You are ${rank} on the leaderboard`);
  await shot(phone, 'challenge-metro-end-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
  await page.context().close();
});
