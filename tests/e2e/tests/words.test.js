// Plain words where a player expects words: the dice, the selected tile, a refused placement
// (which tile, where and why, from the server's refusal), why the round cannot end, a hint and
// a placement are said in words; the engine's codes ("A4A1A3B0", "orientation 5", "A3D30")
// only in tooltips.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiState, DESKTOP, drag, PHONE, placeOne, serverAndBrowser, shot, startGame, turnTo } from '../harness.js';

const env = serverAndBrowser();

const CODE = /\b[ABS][0-5][A-G][0-6][0-7]\b|orientation \d|Refused:|Not yet: the round cannot end|([AB][0-5]){4}/;

/** Finds (through the API, where a refusal changes nothing) an unused die placed so that one of its routes meets the other kind of route. */
async function mismatch(page, id) {
  return page.evaluate(async (gid) => {
    const seat = JSON.parse(localStorage.getItem('tracklayer:ink:games')).find((g) => g.id === gid);
    const headers = { Authorization: `Bearer ${seat.seats[0].token}`, 'Content-Type': 'application/json' };
    const st = await (await fetch(`/api/ink/games/${gid}`, { headers })).json();
    const board = st.players[st.you.seat].board;
    const placed = (board.match(/.{5}/g) || []).map((p) => p.slice(2, 4));
    const rows = 'ABCDEFG';
    const around = [];
    for (const sq of placed) {
      const r = rows.indexOf(sq[0]); const c = Number(sq[1]);
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        if (r + dr >= 0 && r + dr < 7 && c + dc >= 0 && c + dc < 7) around.push(`${rows[r + dr]}${c + dc}`);
      }
    }
    for (const die of st.you.dice) {
      if (die.used) continue;
      for (let o = 0; o < 8; o++) {
        for (const sq of around) {
          if (placed.includes(sq) || (die.legal[o].match(/../g) || []).includes(sq)) continue;
          const r = await fetch(`/api/ink/games/${gid}/place`, { method: 'POST', headers, body: JSON.stringify({ placement: `${die.tile}${sq}${o}` }) });
          const body = await r.json();
          if (r.status === 422 && body.rule === 'highway meets railway') return { die: die.die, tile: die.tile, square: sq, orientation: o, error: body.error };
        }
      }
    }
    return null;
  }, id);
}

test('dice, the selected tile, refusals, the end of a round, a hint and a placement in plain words', async () => {
  const page = await env.page(DESKTOP);
  const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
  // The dice are named in words; the roll's code is only a tooltip.
  const labels = await page.locator('.choice').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.deepEqual(labels.slice(0, 4), ['Die A: railway straight', 'Die A: highway curve', 'Die A: highway T-junction', 'Die B: corner station from highway to railway']);
  assert.ok(labels.slice(4).every((l) => /^Special: (highway crossroads|railway crossroads|station .+)$/.test(l)), labels.join(' | '));
  assert.doesNotMatch(await page.innerText('#game'), CODE);
  assert.equal(await page.locator('.dice-panel h2').getAttribute('title'), 'Roll A1A5A3B1');

  // The selected tile and its turns.
  await page.click('.choice-die[data-index="3"]');
  assert.match(await page.textContent('.message'), /^The corner station from highway to railway selected \((highway|railway) to \w+, (highway|railway) to \w+\): it fits on \d+ squares?/);
  await page.keyboard.press('r');
  await page.waitForSelector('.preview[data-orientation="1"]');
  assert.match(await page.textContent('#preview-ends'), /^(Highway|Railway) to \w+, (highway|railway) to \w+ · fits on \d+ squares?$/);
  assert.doesNotMatch(await page.innerText('#game'), CODE);
  assert.match(await page.getAttribute('.message', 'title'), /B1, orientation 1/, 'the code for those who ask');
  await page.keyboard.press('Escape');

  // A refusal: which tile, where, why.
  await drag(page, '.choice-die[data-index="0"]', 'D3');
  await page.waitForSelector('.message.error');
  assert.equal(await page.textContent('.message > span:first-child'), 'The railway straight can\'t go on D3 turned this way: none of its routes would continue a route or meet an exit.');
  assert.match(await page.getAttribute('.message', 'title'), /A1D30 is illegal/);
  await shot(page, 'words-refused-desktop');

  // Why the round cannot end yet: only in End round's tooltip while the round is untouched.
  const why = /^Place every die that fits first: the (railway straight|highway curve|highway T-junction|corner station from highway to railway) still fits \(for example on [A-G][0-6]\)\.$/;
  assert.equal(await page.locator('#end-reason').count(), 0, 'a round opens without a warning');
  assert.match(await page.getAttribute('#end-round', 'title'), why);

  // A placement, then a route meeting the other kind of route.
  await placeOne(page, id);
  assert.match(await page.textContent('#end-reason'), why, 'once the round is begun, why it cannot end yet');
  assert.match(await page.textContent('.message'), /^Placed the [a-zT: ,-]+ on [A-G][0-6] \((highway|railway) to [a-z, ]+\)\.$/);
  const bad = await mismatch(page, id);
  assert.ok(bad, 'some die can be placed against the first tile wrongly');
  await page.click(`.choice-die[data-index="${bad.die}"]`);
  await turnTo(page, bad.orientation);
  await page.waitForSelector(`.preview[data-orientation="${bad.orientation}"]`);
  await drag(page, `.choice-die[data-index="${bad.die}"]`, bad.square);
  await page.waitForSelector('.message.error');
  const said = await page.textContent('.message > span:first-child');
  assert.match(said, new RegExp(`^The [a-zT: ,-]+ can't go on ${bad.square} turned this way: its (highway|railway) on the (north|east|south|west) side would meet the (highway|railway) coming from [A-G][0-6]\\.$`), said);
  assert.doesNotMatch(said, CODE);
  await shot(page, 'words-mismatch-desktop');

  // A hint.
  await page.keyboard.press('Escape');
  await page.click('#hint');
  await page.waitForSelector('.message.hint:has-text("The computer suggests")');
  const hint = await page.textContent('.message');
  assert.match(hint, /The computer suggests: 1\. [a-zT: ,-]+ on [A-G][0-6], (highway|railway) to /);
  assert.doesNotMatch(hint, CODE);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await env.page(PHONE);
  await startGame(phone, env.url, { seed: 2, name: 'Ada' });
  await phone.click('.choice-die[data-index="3"]');
  assert.match(await phone.textContent('.message'), /fits on \d+ squares?\. Tap one, or drag it there\.$/, 'a phone is told of taps, not keys');
  await shot(phone, 'words-selected-phone');
  await phone.context().close();
});
