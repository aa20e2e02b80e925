// Two players online in two browser contexts (one on a phone): the invite link, joining in
// the lobby, the creator's start, live updates over server-sent events, a round that ends when
// both have finished it, a reload mid-game, and the end screen with the winner.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiState, DESKTOP, PHONE, placeOne, playRound, serverAndBrowser, shot, startGame, startOnline,
} from '../harness.js';

const env = serverAndBrowser();

test('a two-player online game in two browser contexts, with a reload, to the end', async () => {
  const ann = await env.page(DESKTOP);
  const id = await startGame(ann, env.url, { mode: 'online', name: 'Ann', seed: 77 });
  const link = await ann.inputValue('.invite-link');
  assert.equal(link, `${env.url}/ink/${id}`);
  await ann.click('#copy-invite');

  const bob = await env.page(PHONE);
  await bob.goto(link);
  await bob.waitForSelector('#join-name');
  await shot(bob, 'join-phone');
  await bob.fill('#join-name', 'Bob');
  await bob.click('button[type=submit]');
  // Bob waits in the lobby; Ann sees him arrive, live, and starts the game.
  await bob.waitForSelector('#lobby-wait');
  await ann.waitForSelector('#lobby-players li[data-seat="1"]');
  await startOnline(ann);
  await bob.waitForSelector('#my-board');
  assert.match(await bob.textContent('.main-board .board-name'), /Bob \(you\)/);
  await ann.waitForSelector('#board-1');
  assert.match(await ann.textContent('.other .board-name'), /Bob/);

  for (let round = 0; round < 7; round++) {
    // Ann places a tile: Bob sees it on Ann's board without reloading.
    const placed = await placeOne(ann, id, { by: 'click' });
    await bob.waitForSelector(`#board-0 g.placed[data-placement="${placed}"]`);
    await playRound(ann, id, { by: 'click' });
    // Ann has finished; the round goes on until Bob has too.
    await ann.waitForSelector('.player-status li.done');
    let st = await apiState(ann, id);
    assert.equal(st.round, round);
    assert.equal(st.you.round_done, true);
    if (round === 0) {
      assert.match(await ann.textContent('.message'), /Waiting for Bob/);
      await shot(ann, 'online-waiting-desktop');
    }
    if (round === 2) {
      // Bob reloads in the middle of his round and is still in the game.
      const first = await placeOne(bob, id);
      await bob.reload();
      await bob.waitForSelector(`#my-board g.placed[data-placement="${first}"]`);
      assert.match(await bob.textContent('.main-board .board-name'), /Bob \(you\)/);
      await shot(bob, 'online-reloaded-phone');
    }
    await playRound(bob, id);
    if (round < 6) {
      await ann.waitForSelector(`.round-pips li.now:text-is("${round + 2}")`);
      st = await apiState(bob, id);
      assert.equal(st.round, round + 1);
      assert.deepEqual(st.dice, (await apiState(ann, id)).dice, 'the same rolls for both');
    }
    if (round === 3) await shot(ann, 'online-desktop');
  }
  await ann.waitForSelector('#winner');
  await bob.waitForSelector('#winner');
  const st = await apiState(ann, id);
  const winners = st.winners.map((i) => st.players[i].name);
  assert.ok(winners.length >= 1);
  const headline = await ann.textContent('#winner');
  assert.ok(winners.some((w) => headline.includes(w)), headline);
  await shot(ann, 'end-online-desktop');
  await shot(bob, 'end-online-phone');

  // Play again: Bob asks first and waits in the new game's lobby; Ann's end screen offers the
  // rematch live, and one click seats her in it.
  assert.equal(await bob.textContent('#play-again'), 'Play again');
  await bob.click('#play-again');
  await bob.waitForURL((url) => /\/ink\/[0-9a-f]{24}$/.test(url.pathname) && !url.pathname.endsWith(id));
  const rematch = new URL(bob.url()).pathname.split('/').pop();
  await bob.waitForSelector('#lobby-players');
  await ann.waitForSelector(`#play-again[data-rematch="${rematch}"]`);
  assert.equal(await ann.textContent('#play-again'), 'Join the rematch');
  await shot(ann, 'rematch-offer-desktop');
  await ann.click('#play-again');
  await ann.waitForURL(new RegExp(`/ink/${rematch}$`));
  await bob.waitForSelector('#lobby-players li[data-seat="1"]');
  assert.match(await bob.textContent('#lobby-players'), /Ann/);
  const again = await apiState(ann, rematch);
  assert.equal(again.mode, 'online');
  assert.equal(again.you.seat, 1);
  assert.deepEqual(again.players.map((p) => p.name), ['Bob', 'Ann']);
  assert.deepEqual(ann.errors, []);
  assert.deepEqual(bob.errors, []);
  await ann.context().close();
  await bob.context().close();
});
