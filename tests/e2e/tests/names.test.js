// Player names in Chromium: every name field counts a name as the server does, in code points
// (32 emoji are 32 characters, though 64 UTF-16 units), says so as it is typed and keeps a
// name too long from being sent; the server's refusal of an invisible or text-reordering
// character (U+202E, U+200B) is shown at the field; and a right-to-left name (Arabic, Hebrew)
// is shown in its own bidi-isolated element on the game screens, in a replay's move caption and
// in the scores, so it cannot turn the text around it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finishByApi, PHONE, serverAndBrowser, shot, startGame } from '../harness.js';
import { playTurn, startMetro } from '../metro-harness.js';

const env = serverAndBrowser();
const WIDE = { viewport: { width: 1280, height: 800 } };

/** 32 emoji, each one code point (two UTF-16 units): U+1F600 to U+1F61F. */
const EMOJI32 = Array.from({ length: 32 }, (_, i) => String.fromCodePoint(0x1F600 + i)).join('');
const ARABIC = 'دانة';
const HEBREW = 'נועה';

/** The console lines of the refusals a test asked for (a 400 or a 403 is logged by Chromium). */
function withoutRefusals(errors, status) {
  return errors.filter((e) => !e.includes(`status of ${status}`));
}

/**
 * How an element is isolated: its tag and its computed unicode-bidi. (Asked again if the page
 * redrew it between finding it and asking: a detached element has no computed style.)
 */
async function isolation(locator) {
  for (let i = 0; ; i++) {
    const got = await locator.evaluate((el) => ({ tag: el.tagName, bidi: el.isConnected ? getComputedStyle(el).unicodeBidi : null }));
    if (got.bidi !== null || i === 20) return got;
  }
}

test('a name of 32 emoji is 32 characters: accepted by the start form and shown whole; 33 are not sent', async () => {
  assert.equal(EMOJI32.length, 64, 'UTF-16 units, what maxlength would count');
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#player-name');
    assert.equal(await page.getAttribute('#player-name', 'maxlength'), null, 'no maxlength (it counts UTF-16 units)');
    // 33: said at once, and Start sends nothing.
    await page.fill('#player-name', EMOJI32 + String.fromCodePoint(0x1F620));
    const hint = page.locator('#player-name + .name-hint');
    assert.match(await hint.textContent(), /^33 characters: a name has at most 32 \(an emoji counts as one\)\.$/);
    assert.equal(await page.getAttribute('#player-name', 'aria-invalid'), 'true');
    await page.click('#start');
    await page.waitForTimeout(300);
    assert.equal(new URL(page.url()).pathname, '/', 'a name too long is not sent');
    // 32: the count, then the game with the name whole.
    await page.fill('#player-name', EMOJI32);
    assert.equal(await hint.textContent(), '32 of 32 characters.');
    assert.equal(await page.getAttribute('#player-name', 'aria-invalid'), null);
    await shot(page, `names-emoji-form-${label}`);
    await page.click('#start');
    await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
    await page.waitForSelector('#my-board');
    const name = page.locator('.main-board .board-name bdi');
    assert.equal(await name.textContent(), EMOJI32, 'the name whole');
    assert.equal(await page.locator('.scores summary bdi').first().textContent(), EMOJI32);
    await shot(page, `names-emoji-game-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the player name form: 32 emoji make a player; U+202E is refused with the server\'s sentence at the field', async () => {
  const page = await env.page(WIDE);
  await page.goto(env.url);
  await page.locator('.challenge-card[data-kind=daily] button.play-challenge').click();
  const input = page.locator('.name-form input');
  await input.waitFor();
  assert.equal(await input.getAttribute('maxlength'), null);
  await input.fill('Ann\u202Enna');
  await page.click('.name-form button[type=submit]');
  const hint = page.locator('.name-form .name-hint.bad');
  await hint.waitFor();
  const refusal = await hint.textContent();
  assert.match(refusal, /^A name may not hold U\+202E, an invisible format character .*\(character 4 of the name\)\.?$/, refusal);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => localStorage.getItem('tracklayer:player')), null, 'no player made');
  await shot(page, 'names-refused-desktop');
  // Typing again clears the refusal; 32 emoji then make the player, name whole.
  await input.fill(EMOJI32);
  assert.equal(await page.locator('.name-form .name-hint.bad').count(), 0);
  await page.click('.name-form button[type=submit]');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  const player = await page.evaluate(() => JSON.parse(localStorage.getItem('tracklayer:player')));
  assert.equal(player.name, EMOJI32);
  await page.goto(`${env.url}/players/${player.id}`);
  await page.waitForSelector('#player-name bdi');
  assert.equal(await page.textContent('#player-name bdi'), EMOJI32);
  await shot(page, 'names-emoji-player-desktop');
  assert.deepEqual(withoutRefusals(page.errors, 400), []);
  await page.context().close();
});

test('Metro seats and the join form count code points, and show the server\'s refusal at the seat', async () => {
  const page = await env.page(WIDE);
  await page.goto(env.url);
  await page.waitForSelector('#game-metro:not(.disabled)');
  await page.click('#game-metro');
  await page.waitForSelector('#metro-seats');
  assert.equal(await page.locator('.m-seat-name[maxlength]').count(), 0);
  await page.selectOption('select[name=seat-1-kind]', 'invite');
  await page.fill('input[name=seat-0-name]', 'Ann');
  await page.fill('input[name=seat-1-name]', 'Bo\u200Bb');
  await page.click('#start');
  const hint = page.locator('.m-seat[data-seat="1"] .name-hint.bad');
  await hint.waitFor();
  assert.match(await hint.textContent(), /^A name may not hold U\+200B, /);
  assert.equal(await page.locator('.m-seat[data-seat="0"] .name-hint.bad').count(), 0, 'said at the seat whose name it is');
  assert.equal(new URL(page.url()).pathname, '/');
  await shot(page, 'names-metro-refused-desktop');
  // 32 emoji in a seat are fine; the game starts with them.
  await page.fill('input[name=seat-1-name]', EMOJI32);
  assert.equal(await page.textContent('.m-seat[data-seat="1"] .name-hint'), '32 of 32 characters.');
  await page.click('#start');
  await page.waitForURL(/\/metro\/[0-9a-f]{24}$/);
  await page.waitForSelector('#players');
  assert.equal(await page.textContent('#players .m-player[data-seat="1"] bdi.m-player-name'), EMOJI32);
  const link = `${env.url}${new URL(page.url()).pathname}`;
  assert.deepEqual(withoutRefusals(page.errors, 400), []);
  await page.context().close();

  // The invited person's join form: 33 emoji are said too long, and not sent.
  const guest = await env.page(PHONE);
  await guest.goto(link);
  await guest.waitForSelector('#join-name');
  assert.equal(await guest.getAttribute('#join-name', 'maxlength'), null);
  await guest.fill('#join-name', EMOJI32 + String.fromCodePoint(0x1F620));
  assert.match(await guest.textContent('#join-name + .name-hint'), /^33 characters/);
  await guest.click('#join');
  await guest.waitForTimeout(200);
  assert.equal(await guest.locator('#join-name').count(), 1, 'still the form');
  await shot(guest, 'names-join-too-long-phone');
  await guest.fill('#join-name', HEBREW);
  await guest.click('#join');
  await guest.waitForSelector('#metro-board');
  const seat = guest.locator('#players .m-player[data-seat="1"] .m-player-name');
  assert.equal(await seat.textContent(), HEBREW);
  assert.deepEqual(await isolation(seat), { tag: 'BDI', bidi: 'isolate' });
  assert.deepEqual(guest.errors, []);
  await guest.context().close();
});

test('a right-to-left name is isolated in the scores and in a replay\'s move captions', async () => {
  const page = await env.page(WIDE);
  const id = await startGame(page, env.url, { mode: 'solo', name: ARABIC });
  const mine = page.locator('.main-board .board-name bdi');
  assert.equal(await mine.textContent(), ARABIC);
  assert.deepEqual(await isolation(mine), { tag: 'BDI', bidi: 'isolate' });
  const score = page.locator('.scores summary').first();
  assert.match(await score.textContent(), new RegExp(`^${ARABIC}: \\d+ points?$`));
  assert.deepEqual(await isolation(score.locator('bdi')), { tag: 'BDI', bidi: 'isolate' });
  // The name sits at the start of its line, the score after it, left to right: the Arabic
  // letters did not carry ": 0 points" over to their side.
  const [nameBox, lineBox] = await Promise.all([score.locator('bdi').boundingBox(), score.boundingBox()]);
  assert.ok(nameBox.x - lineBox.x < 40, `the name first (${nameBox.x} in ${lineBox.x})`);
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  await shot(page, 'names-rtl-game-desktop');

  await page.goto(`${env.url}/ink/${id}/replay?at=1`);
  await page.waitForSelector('#step-caption');
  const caption = page.locator('#step-caption');
  assert.match(await caption.textContent(), new RegExp(`${ARABIC} placed `));
  const who = caption.locator('bdi');
  assert.equal(await who.textContent(), ARABIC);
  assert.deepEqual(await isolation(who), { tag: 'BDI', bidi: 'isolate' });
  assert.deepEqual(await isolation(page.locator('#replay-result bdi').first()), { tag: 'BDI', bidi: 'isolate' });
  await shot(page, 'names-rtl-replay-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await env.page(PHONE);
  await phone.goto(`${env.url}/ink/${id}/replay?at=1`);
  await phone.waitForSelector('#step-caption bdi');
  await shot(phone, 'names-rtl-replay-phone');
  await phone.goto(`${env.url}/games`);
  await phone.waitForSelector(`.recent-game[data-id="${id}"] .recent-players bdi`);
  const listed = phone.locator(`.recent-game[data-id="${id}"] .recent-players bdi`, { hasText: ARABIC });
  assert.deepEqual(await isolation(listed), { tag: 'BDI', bidi: 'isolate' });
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});

test('a Hebrew name in a Metro game: the players\' scores and the latest moves isolate it', async () => {
  const page = await env.page(WIDE);
  await startMetro(page, env.url, { seats: [{ kind: 'computer', level: 'random' }, { kind: 'here', name: HEBREW }] });
  // The computer plays first, then the Hebrew seat: the log names both, each isolated.
  const square = await playTurn(page);
  const player = page.locator('#players .m-player[data-seat="1"] .m-player-name');
  assert.equal(await player.textContent(), HEBREW);
  assert.deepEqual(await isolation(player), { tag: 'BDI', bidi: 'isolate' });
  const mine = page.locator('#log li', { hasText: `placed` }).filter({ has: page.locator('bdi', { hasText: HEBREW }) }).first();
  await mine.waitFor();
  assert.match(await mine.textContent(), new RegExp(`^${HEBREW} (drew a tile, )?placed [a-zU ,-]+ on row ${square[0]}, column ${square[1]}$`));
  assert.deepEqual(await isolation(mine.locator('bdi')), { tag: 'BDI', bidi: 'isolate' });
  await shot(page, 'names-rtl-metro-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
