// Metro on one device, in Chromium: the start screen's seats, a two-player hot-seat game
// played to the end through the page (pass the device, draw, click or drag), the hand rules
// (keep, the second draw must be placed, a held tile placed or kept while drawing), an illegal
// drop refused with its reason, lines shown when hovered, and the end screen with every line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, serverAndBrowser, shot } from '../harness.js';
import {
  clickSquare, dragTile, highlighted, metroAct, metroState, playTurn, startMetro,
} from '../metro-harness.js';

const env = serverAndBrowser();

test('the start screen offers Metro with 2 to 6 seats, at 1024×768 and on a phone', async () => {
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#game-metro:not(.disabled)');
    assert.equal(await page.title(), 'tracklayer: Railroad Ink and Metro');
    await page.click('#game-metro');
    await page.waitForSelector('#metro-seats');
    assert.equal(await page.locator('.m-seat').count(), 2);
    assert.ok(await page.isDisabled('.m-seat:first-child .m-seat-remove'), 'two seats at least');
    for (let i = 0; i < 4; i++) await page.click('#add-seat');
    assert.equal(await page.locator('.m-seat').count(), 6);
    assert.ok(await page.isDisabled('#add-seat'), 'six seats at most');
    await page.selectOption('select[name=seat-2-kind]', 'invite');
    await page.selectOption('select[name=seat-3-kind]', 'here');
    assert.equal(await page.locator('select[name=seat-2-level]').count(), 0, 'a person has no level');
    assert.deepEqual(await page.locator('select[name=seat-1-level] option').evaluateAll((o) => o.map((x) => x.value)), ['random', 'greedy', 'strong']);
    await shot(page, `metro-start-${label}`);
    await page.click('.m-seat:last-child .m-seat-remove');
    assert.equal(await page.locator('.m-seat').count(), 5);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a two-player hot-seat game played to the end, with lines hovered and the end screen', async () => {
  const page = await env.page(DESKTOP);
  const id = await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'here', name: 'Bob' }], seed: 7 });
  // Pass the device: nobody's tiles show until the seat whose turn it is asks.
  await page.waitForSelector('#reveal');
  assert.match(await page.textContent('#curtain'), /It is Ann's turn/);
  assert.equal(await page.locator('.m-slot').count(), 0);
  await shot(page, 'metro-curtain-desktop');
  let turns = 0;
  let keptOnce = false;
  while (!(await page.locator('#winner').count())) {
    await page.waitForSelector('#reveal, #winner');
    if (await page.locator('#winner').count()) break;
    const st = await metroState(page, id, (await metroState(page, id)).turn);
    const name = st.players[st.turn].name;
    assert.match(await page.textContent('.m-curtain-name'), new RegExp(name));
    // The other seat's tile in hand, if any, is face down.
    const other = st.players[1 - st.turn];
    if (other.holding) assert.equal(await page.locator(`.m-player[data-seat="${other.seat}"] .m-tile-back`).count(), 1);
    await page.click('#reveal');
    await page.waitForSelector('#turn-help.mine');
    assert.match(await page.textContent('.m-hand-panel h2'), new RegExp(`Your turn${name}`));
    // Ann keeps her first tile once: the second draw must be placed at once.
    if (!keptOnce && turns === 4 && !(await page.locator('#hand .m-tile-svg').count())) {
      await page.click('#draw');
      await page.waitForSelector('#keep:not([disabled])');
      await page.click('#keep');
      await page.waitForSelector('#must-place');
      assert.equal(await page.locator('#hand .m-tile-svg').count(), 1);
      keptOnce = true;
    }
    const square = await playTurn(page, { by: turns % 5 === 0 ? 'drag' : 'click' });
    assert.ok(square);
    turns += 1;
    if (turns === 24) {
      // A line's length and points when hovered.
      const after = await metroState(page, id);
      const line = after.lines.find((l) => l.end.kind !== 'unfinished' && l.length > 0) || after.lines.find((l) => l.length > 0);
      await page.hover(`#metro-board .m-station[data-station="${line.station}"]`);
      await page.waitForSelector('#line-info.active');
      assert.match(await page.textContent('#line-info'), new RegExp(`Station ${line.station} \\(`));
      assert.ok(await page.locator(`#metro-board .m-track.hot[data-station="${line.station}"]`).count() >= 1, 'the line is highlighted');
      await shot(page, 'metro-hotseat-desktop');
    }
  }
  assert.equal(turns, 60);
  assert.ok(keptOnce);
  const st = await metroState(page, id);
  assert.equal(st.finished, true);
  assert.equal(await page.textContent('#deck-left'), '0');
  // The end screen ranks the players and lists every line.
  const headline = await page.textContent('#winner');
  const best = Math.max(...st.scores);
  assert.match(headline, new RegExp(`${best} points`));
  assert.equal(await page.locator('.m-ranking li').count(), 2);
  assert.equal(await page.locator('#every-line tbody tr').count(), 32);
  // A finished line into the centre shows its doubled length.
  const centre = st.lines.find((l) => l.end.kind === 'centre');
  if (centre) {
    await page.hover(`#every-line tr[data-station="${centre.station}"]`);
    assert.match(await page.textContent('#line-info'), new RegExp(`${centre.length} × 2 = ${centre.points} points`));
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'metro-end-desktop');
  assert.deepEqual(page.errors, []);

  // The finished game on a phone, as a spectator: the board, the ranking, every line.
  const phone = await env.page(PHONE);
  await phone.goto(`${env.url}/metro/${id}`);
  await phone.waitForSelector('#winner');
  assert.equal(await phone.locator('#every-line tbody tr').count(), 32);
  await shot(phone, 'metro-end-phone');
  assert.deepEqual(phone.errors, []);
  await phone.context().close();

  // The start screen lists the game among this device's games.
  await page.goto(env.url);
  await page.waitForSelector(`.m-game-list a[href="/metro/${id}"]`);
  assert.match(await page.textContent('.m-game-list li'), /Metro · 2 players · finished/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the hand rules and an illegal drop, against a computer', async () => {
  const page = await env.page(DESKTOP);
  const id = await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ada' }, { kind: 'computer', level: 'random' }], seed: 3 });
  await page.waitForSelector('#turn-help.mine');
  // Nothing drawn yet: only drawing is offered.
  assert.match(await page.textContent('#turn-help'), /Draw a tile/);
  assert.equal(await page.locator('#keep').count(), 0);
  await page.keyboard.press('d');
  await page.waitForSelector('#drawn.to-place');
  const first = await metroState(page, id);
  assert.deepEqual(await highlighted(page), first.you.legal.match(/../g).sort(), 'the server\'s legal squares are highlighted');

  // An illegal drop: an inner square touching nothing; then the centre.
  await dragTile(page, '22');
  await page.waitForSelector('.message.error');
  // In plain words: which tile, where and why (the engine's sentence is the tooltip).
  assert.match(await page.textContent('.message'), /^The tile [a-zU ,-]+ can't go on row 2, column 2: a tile goes on the edge of the board or next to a tile already there\./);
  assert.doesNotMatch(await page.textContent('.message'), /Refused|§/);
  assert.equal(await page.textContent('.message .rule-chip'), 'not touching');
  await shot(page, 'metro-illegal-drop-desktop');
  await clickSquare(page, '33');
  await page.waitForFunction(() => document.querySelector('.message .rule-chip')?.textContent === 'centre square');
  assert.match(await page.textContent('.message'), /can't go on row 3, column 3: the four middle squares are the central stations/);
  assert.equal(await page.locator('#metro-board g.m-placed').count(), 0);

  // Keep: the tile goes to the hand and the second draw must be placed at once.
  const kept = first.you.drawn;
  await page.click('#keep');
  await page.waitForSelector('#must-place');
  assert.equal(await page.getAttribute('#hand', 'class'), 'm-slot');
  assert.equal(await page.getAttribute('#hand .m-slot-code', 'data-tile'), kept);
  assert.match(await page.textContent('#must-place'), /must be placed at once/);
  assert.equal(await page.locator('#draw, #keep').count(), 0, 'no drawing or keeping now');
  const [status, refusal] = await metroAct(page, id, 0, 'keep');
  assert.equal(status, 422);
  assert.equal(refusal.rule, 'second draw must be placed');
  await shot(page, 'metro-must-place-desktop');
  const second = await playTurn(page, { by: 'drag' });
  assert.ok(second);
  assert.equal(await page.getAttribute('#hand .m-slot-code', 'data-tile'), kept, 'the kept tile stays in hand');

  // The computer plays; then the held tile may be placed, or a new one drawn and placed.
  await page.waitForSelector('#turn-help.mine');
  assert.match(await page.textContent('#turn-help'), /Place the tile in your hand, or draw a new tile/);
  assert.equal(await page.getAttribute('#hand', 'data-tile'), kept);
  await page.click('#draw');
  await page.waitForSelector('#must-place');
  assert.equal(await page.getAttribute('#hand .m-slot-code', 'data-tile'), kept);
  await playTurn(page);
  // Next turn: place the held tile without drawing, with the keyboard (an arrow key picks the
  // first legal square, Enter places the tile there).
  await page.waitForSelector('#turn-help.mine');
  const legal = (await highlighted(page))[0];
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('#metro-board .m-drop.legal');
  assert.match(await page.textContent('.message'), /legal\. Enter places it/);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#metro-board g.m-placed[data-placement="${kept}${legal}"]`);
  assert.equal(await page.locator('#hand .m-tile-svg').count(), 0, 'the hand is empty again');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Makes a player through the API and keeps them in the browser, as a daily challenge leaves one. */
async function storePlayer(page, name) {
  await page.goto(env.url);
  return page.evaluate(async (n) => {
    const p = await (await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: n }) })).json();
    localStorage.setItem('tracklayer:player', JSON.stringify({ id: p.id, token: p.token, name: p.name }));
    return p;
  }, name);
}

test('issue 41: with a player kept in the browser, a hot-seat game gets past the first turn, after a reload too', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  await storePlayer(page, 'Ann');
  const id = await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'here', name: 'Bob' }], seed: 11 });
  // The page reads the game with the seats it holds, never with the player's key.
  const keyed = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith(`/api/metro/games/${id}`) && /Bearer/.test(r.headers().authorization || '')) keyed.push(r.headers().authorization.slice(7));
  });
  const player = await page.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')).token);
  for (const [turn, name] of [[0, 'Ann'], [1, 'Bob'], [2, 'Ann']]) {
    await page.waitForSelector('#reveal');
    assert.match(await page.textContent('.m-curtain-name'), new RegExp(name));
    if (turn === 1) {
      // A reload keeps the curtain, and the reveal works after it too.
      await page.reload();
      await page.waitForSelector('#reveal');
    }
    await page.click('#reveal');
    await page.waitForSelector('#turn-help.mine', { timeout: 5000 });
    assert.match(await page.textContent('.m-hand-panel h2'), new RegExp(`Your turn${name}`));
    if (turn === 0) await shot(page, 'metro-hotseat-player-revealed-desktop');
    await playTurn(page);
  }
  assert.equal((await metroState(page, id)).moves.filter((m) => m.action === 'place').length, 3);
  assert.ok(keyed.length > 0 && !keyed.includes(player), 'seat tokens, not the player key');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
