// Metro with computer seats and online, in Chromium: one person and three computer players
// (one of each level) to the end, the computers' moves shown as they come; and an online game
// in two browser contexts (one a phone) where the invited player joins by the link, each sees
// the other's moves live, and a reload keeps the seat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, serverAndBrowser, shot } from '../harness.js';
import { metroSeatsOf, metroState, playTurn, startMetro } from '../metro-harness.js';

const env = serverAndBrowser();

test('one person and three computer players, to the end', async () => {
  const page = await env.page(DESKTOP);
  const id = await startMetro(page, env.url, {
    seats: [
      { kind: 'computer', level: 'random', name: 'Rita' },
      { kind: 'here', name: 'Ann' },
      { kind: 'computer', level: 'greedy', name: 'Greg' },
      { kind: 'computer', level: 'strong', name: 'Stella' },
    ],
    seed: 12,
  });
  assert.deepEqual((await metroSeatsOf(page, id)).map((s) => s.seat), [1], 'no token for a computer seat');
  // The first computer has moved before Ann's first turn; its tile came in animated.
  await page.waitForSelector('#turn-help.mine');
  assert.ok(await page.locator('#metro-board g.m-placed').count() >= 1);
  assert.match(await page.textContent('#log'), /Rita/);
  let turns = 0;
  while (!(await page.locator('#winner').count())) {
    await page.waitForSelector('#turn-help.mine, #winner');
    if (await page.locator('#winner').count()) break;
    const before = await page.locator('#metro-board g.m-placed').count();
    await playTurn(page, { by: turns % 3 === 0 ? 'drag' : 'click' });
    turns += 1;
    if (turns === 2) {
      // The computers answer on their own, each tile animated in turn.
      await page.waitForFunction((n) => document.querySelectorAll('#metro-board g.m-placed').length > n + 1, before);
      assert.ok(await page.locator('#metro-board g.m-placed.fresh').count() >= 1, 'computer moves are animated');
      await page.waitForSelector('#turn-help.mine');
      assert.match(await page.textContent('#log'), /Greg .*placed/);
      assert.match(await page.textContent('#log'), /Stella .*placed/);
      await shot(page, 'metro-computers-desktop');
    }
  }
  assert.ok(turns >= 10 && turns <= 20, `Ann played ${turns} turns`);
  const st = await metroState(page, id);
  assert.equal(st.finished, true);
  assert.equal(st.players.length, 4);
  assert.equal(await page.locator('.m-ranking li').count(), 4);
  assert.equal(await page.locator('#every-line tbody tr').count(), 32);
  const winner = st.players[st.winners[0]];
  assert.match(await page.textContent('#winner'), new RegExp(winner.seat === 1 ? 'You win' : winner.name));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('online: an invited player joins by the link, moves show live, a reload keeps the seat', async () => {
  const ann = await env.page(DESKTOP);
  const id = await startMetro(ann, env.url, {
    seats: [{ kind: 'here', name: 'Ann' }, { kind: 'invite', name: 'Guest' }, { kind: 'computer', level: 'greedy', name: 'Greg' }],
    seed: 21,
  });
  const link = await ann.inputValue('.invite-link');
  assert.equal(link, `${env.url}/metro/${id}`);
  assert.match(await ann.textContent('.m-player[data-seat="1"]'), /invited · not here yet/);

  const bob = await env.page(PHONE);
  await bob.goto(link);
  await bob.waitForSelector('#join-name');
  await shot(bob, 'metro-join-phone');
  await bob.fill('#join-name', 'Bob');
  await bob.click('#join');
  await bob.waitForSelector('#metro-board');
  // Ann sees Bob arrive, live.
  await ann.waitForFunction(() => /Bob/.test(document.querySelector('.m-player[data-seat="1"]')?.textContent || ''));

  for (let round = 0; round < 4; round++) {
    const square = await playTurn(ann);
    // Bob sees Ann's tile without reloading.
    await bob.waitForSelector(`#metro-board g.m-placed[data-square="${square}"]`);
    if (round === 1) {
      // Bob reloads in the middle of the game and is still in his seat.
      await bob.reload();
      await bob.waitForSelector('#metro-board');
      assert.match(await bob.textContent('.m-player[data-seat="1"]'), /Bob.*you/);
    }
    if (round === 2) {
      // Bob's turn on his phone, a tile drawn: the legal squares are highlighted.
      await bob.waitForSelector('#turn-help.mine');
      await bob.click('#draw');
      await bob.waitForSelector('#drawn.to-place');
      await shot(bob, 'metro-turn-phone');
    }
    const his = await playTurn(bob);
    await ann.waitForSelector(`#metro-board g.m-placed[data-square="${his}"]`);
    if (round === 2) await shot(bob, 'metro-online-phone');
    // Greg, the computer, plays; both see it.
    await ann.waitForSelector('#turn-help.mine');
  }
  const st = await metroState(bob, id);
  assert.equal(st.you.seat, 1);
  assert.equal(st.sequence.length / 6, 12);
  assert.deepEqual(st.open_seats, []);
  // Each sees only their own hand face up.
  const annState = await metroState(ann, id);
  if (annState.players[1].holding) {
    assert.equal(await ann.locator('.m-player[data-seat="1"] .m-tile-back').count(), 1);
  }
  await shot(ann, 'metro-online-desktop');
  assert.deepEqual(ann.errors, []);
  assert.deepEqual(bob.errors, []);
  await ann.context().close();
  await bob.context().close();
});
