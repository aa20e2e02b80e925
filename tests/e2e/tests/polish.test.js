// What a new player tripped on (issue 30), one test an item: the challenge card's name form at
// 1280, 1024 and on a phone; the Metro hot-seat curtain's button on one line; and the rest as
// they come. Each measures the page's boxes or reads its words as a player would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiState, DESKTOP, finishByApi, firstLegal, PHONE, placeOne, serverAndBrowser, shot, playRound, squareCentre, startGame, startOnline, TOUCH_LIFT, turnTo,
} from '../harness.js';
import { clickSquare, finishMetroByApi, playTurn, startMetro } from '../metro-harness.js';

const NOW = '2026-11-26T14:48:00Z';
const DAILY = 'daily-2026-11-26';
const WIDE = { viewport: { width: 1280, height: 800 } };
const env = serverAndBrowser({ env: { TRACKLAYER_NOW: NOW } });

/** Whether two boxes overlap (by more than a pixel each way). */
function overlap(a, b) {
  return a.x + a.width > b.x + 1 && b.x + b.width > a.x + 1 && a.y + a.height > b.y + 1 && b.y + b.height > a.y + 1;
}

/** How many lines an element's text takes (its height over its line height). */
async function lines(locator) {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}

test('1. a new player\'s name form under Play sits in the challenge card without overlapping its figures', async () => {
  for (const [label, options] of [['1280', WIDE], ['1024', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    const card = page.locator(`.challenge-card[data-challenge="${DAILY}"]`);
    await card.locator('button.play-challenge').click();
    const form = card.locator('.name-form');
    await form.waitFor();
    const formBox = await form.boundingBox();
    const cardBox = await card.boundingBox();
    assert.ok(formBox.x >= cardBox.x && formBox.x + formBox.width <= cardBox.x + cardBox.width + 1, `${label}: the form stays inside its card`);
    for (const part of ['h3', '.facts']) {
      const box = await card.locator(part).boundingBox();
      assert.ok(!overlap(box, formBox), `${label}: ${part} runs under the name form`);
    }
    // The figures keep their words together: "1 player" is one line, not a word a line.
    for (const fact of await card.locator('.facts li').all()) {
      assert.ok(await lines(fact) <= 2, `${label}: "${await fact.textContent()}" takes more than two lines`);
    }
    assert.ok((await form.locator('input').boundingBox()).width >= 120, `${label}: the name field is wide enough to type in`);
    await shot(page, `polish-name-form-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('2. Metro hot-seat: "I am …: show my tiles" reads as one sentence at 1280×800 and on a phone', async () => {
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Maximilian' }, { kind: 'here', name: 'Bo' }], seed: 7 });
    const button = page.locator('#reveal');
    await button.waitFor();
    assert.equal(await button.textContent(), 'I am Maximilian: show my tiles');
    await shot(page, `polish-curtain-${label}`);
    // Its words flow as one sentence (one piece of text, not three flex items side by side),
    // on two lines at most.
    assert.equal(await button.locator('.btn-label').count(), 1, 'the label is one piece of text');
    assert.ok(await lines(button.locator('.btn-label')) <= 2, `${label}: the label takes more than two lines`);
    const height = (await button.boundingBox()).height;
    assert.ok(height <= 80, `${label}: the button is ${height}px tall`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('4. every Railroad Ink tile has a name of its own, on the rules page and in the game', async () => {
  const page = await env.page(WIDE);
  await page.goto(`${env.url}/rules`);
  await page.waitForSelector('.tile-grid .tile-card');
  const names = await page.locator('.tile-card[data-tile] > svg').evaluateAll((els) => els.map((e) => [e.closest('[data-tile]').dataset.tile, e.getAttribute('aria-label')]));
  // The 15 tiles of the base game, and the section on Deep Blue's expansions: the river die's
  // 4 faces, the lake die's 6 and the flooded square.
  assert.equal(names.filter(([tile]) => /^[ABS]/.test(tile)).length, 15);
  assert.equal(names.length, 15 + 4 + 6 + 1);
  const byName = new Map();
  for (const [tile, name] of names) byName.set(name, [...(byName.get(name) || []), tile]);
  const shared = [...byName].filter(([, tiles]) => tiles.length > 1);
  assert.deepEqual(shared, [], `tiles sharing a name: ${JSON.stringify(shared)}`);
  // The captions say the same names.
  for (const [tile, name] of names) {
    assert.match(await page.textContent(`.tile-card[data-tile="${tile}"] figcaption`), new RegExp(`^${tile} ${name}`));
  }
  await shot(page, 'polish-tile-names-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Engine codes a player should never read: Metro tiles ("bbad"), Railroad Ink placements. */
const METRO_CODE = /\b[a-d]{4}\b/;
const INK_CODE = /\b[A-BS][0-5][A-G][0-6][0-7]\b|orientation \d|Roll [A-BS]\d/;

/** The text a person sees (not tooltips): the page's rendered text. */
const visibleText = (page) => page.evaluate(() => document.body.innerText);

test('3. a Metro game and its replay name tiles in words with a small picture, never by code', async () => {
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await startMetro(page, env.url, { seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer' }], seed: 5 });
    await playTurn(page);
    await page.waitForSelector('#turn-help.mine');
    await page.click('#draw');
    await page.waitForSelector('.m-slot.to-place');
    // A refusal names the tile by its name and picture.
    await clickSquare(page, '33');
    await page.waitForFunction(() => document.querySelector('.message .rule-chip')?.textContent === 'centre square');
    const refusal = await page.textContent('.message');
    assert.match(refusal, /^The tile [a-zU ,-]+ can't go on row 3, column 3/);
    assert.equal(await page.locator('.message .m-tile-mention svg').count(), 1, 'a small picture beside the name');
    // The drawn tile's name under its picture.
    assert.match(await page.textContent('#drawn .m-slot-code'), /^(four |straight|left|right|U-turn)/);
    await shot(page, `polish-metro-words-${label}`);
    let text = await visibleText(page);
    assert.doesNotMatch(text, METRO_CODE, text);
    await playTurn(page);
    await page.waitForSelector('#log li');
    // The latest moves: "placed <picture> straights from … on row 0, column 1".
    text = await page.locator('#log').innerText();
    assert.match(text, /placed .+ on row \d, column \d/);
    assert.doesNotMatch(text, / at \d\d/);
    assert.ok(await page.locator('#log .m-tile-mention svg').count() >= 1);
    text = await visibleText(page);
    assert.doesNotMatch(text, METRO_CODE, text);
    assert.deepEqual(page.errors, []);

    // A replay: its first steps and its end.
    const id = await finishMetroByApi(page);
    await page.goto(`${env.url}/metro/${id}/replay`);
    await page.waitForSelector('#replay-board .m-placed');
    await page.click('#step-first');
    for (let i = 0; i < 5; i++) {
      await page.click('#step-next');
      text = await visibleText(page);
      assert.doesNotMatch(text, METRO_CODE, text);
    }
    assert.ok(await page.locator('#step-caption .m-tile-mention svg').count() >= 1);
    await shot(page, `polish-metro-replay-words-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('3. a Railroad Ink replay says placements, undos and dice in words', async () => {
  const page = await env.page(WIDE);
  const id = await startGame(page, env.url, { seed: 3, name: 'Ada' });
  await placeOne(page, id);
  await page.click('#undo');
  await page.waitForFunction(() => !document.querySelector('#my-board g.placed'));
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  await page.goto(`${env.url}/ink/${id}/replay`);
  await page.waitForSelector('#replay-board-0');
  await page.click('#step-first');
  const captions = [];
  for (let i = 0; i < 3; i++) {
    await page.click('#step-next');
    captions.push(await page.textContent('#step-caption'));
    const text = await visibleText(page);
    assert.doesNotMatch(text, INK_CODE, text);
    const dice = await page.getAttribute('.mini-dice', 'title');
    assert.doesNotMatch(dice, INK_CODE, dice);
  }
  assert.match(captions[0], /Ada placed the [a-zT -]+ on [A-G][0-6], (highway|railway) to/);
  assert.match(captions[1], /Ada took back the [a-zT -]+ on [A-G][0-6]\./);
  await shot(page, 'polish-ink-replay-words-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('12. words and numbers: a calm round start, one minus sign, one date format, a histogram read on its scale', async () => {
  const page = await env.page(WIDE);
  // A round opens without the amber warning; End round says why in its tooltip.
  const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
  assert.equal(await page.locator('#end-reason').count(), 0);
  assert.match(await page.getAttribute('#end-round', 'title'), /still fits/);
  await placeOne(page, id);
  assert.match(await page.textContent('#end-reason'), /still fits/);

  // The true minus everywhere: the viewer's breakdown of a board that scores −1.
  await page.goto(`${env.url}/view?board=A4A10`);
  await page.waitForSelector('.breakdown .score-basic');
  assert.equal(await page.textContent('.breakdown .score-basic'), '−1');
  assert.doesNotMatch(await visibleText(page), /(^|[\s(:])-\d/m);

  // One date format: "26 November 2026, 14:48" on a replay (and in "Your games").
  await finishByApi(page, id);
  await page.goto(`${env.url}/ink/${id}/replay`);
  await page.waitForSelector('#replay-board-0');
  assert.match(await visibleText(page), /\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}, \d\d:\d\d\b/);
  await page.goto(env.url);
  await page.waitForSelector('.your-games li .muted');
  await page.waitForFunction(() => !/Loading/.test(document.querySelector('.your-games').textContent));
  assert.match(await page.textContent('.your-games'), /\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d/);
  assert.doesNotMatch(await page.textContent('.your-games'), /\d{1,2}\/\d{1,2}\/\d{4}/);

  // The histogram: bars of several scores sit between labels on a scale, so "You: −1" is over
  // the bar from −5 to −1, between the labels −5 and 0, and no label sits inside a bar.
  const ticks = await page.evaluate(async () => {
    const { scoreHistogram } = await import('/js/challenges/histogram.js');
    const fig = scoreHistogram([{ score: -1, count: 1 }, { score: 12, count: 2 }, { score: 30, count: 1 }, { score: 41, count: 3 }], { you: -1 });
    document.body.append(fig);
    const bars = [...fig.querySelectorAll('.bar rect')].map((r) => r.getBBox());
    return [...fig.querySelectorAll('.tick')].map((t) => ({ text: t.textContent, x: Number(t.getAttribute('x')), inside: bars.some((b) => Number(t.getAttribute('x')) > b.x + 1 && Number(t.getAttribute('x')) < b.x + b.width - 1) }));
  });
  assert.ok(ticks.length >= 3, JSON.stringify(ticks));
  assert.deepEqual(ticks.filter((t) => t.inside), [], 'a label inside a bar reads as that bar\'s score');
  assert.ok(ticks.every((t) => !t.text.includes('-')), JSON.stringify(ticks));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('5. a first-time visitor reads what this is and where to learn it on the first screen', async () => {
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(env.url);
    await page.waitForSelector('#start');
    await page.locator('.challenge-card').first().waitFor();
    const height = page.viewportSize().height;
    const intro = await page.locator('#intro').boundingBox();
    assert.ok(intro && intro.y < 120, `${label}: the introduction opens the page`);
    assert.match(await page.textContent('#intro'), /Railroad Ink.*Metro/s);
    for (const link of ['#tutorial-ink', '#tutorial-metro', '#rules-link']) {
      const box = await page.locator(link).boundingBox();
      assert.ok(box.y + box.height <= height, `${label}: ${link} on the first screen`);
    }
    // The start button stays on the first screen too.
    const start = await page.locator('#start').boundingBox();
    assert.ok(start.y + start.height <= height, `${label}: Start at ${start.y}`);
    // Every mode says what it is, on a phone too.
    for (const text of await page.locator('.mode-card .mode-text').all()) {
      assert.ok(await text.isVisible(), `${label}: a mode without its words`);
    }
    // No "the computer is still playing" on the cards while its game runs.
    assert.doesNotMatch(await page.textContent('#challenges-today'), /still playing/);
    await shot(page, `polish-start-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('8. phone, online Railroad Ink: rows A–G on the first screen, a die selected moves nothing, a dragged tile rides above the finger', async () => {
  const page = await env.page(PHONE);
  const id = await startGame(page, env.url, { mode: 'online', name: 'Ann', seed: 2 });
  await startOnline(page);
  await page.waitForFunction(() => !document.querySelector('.dice-row.rolling'));
  await page.evaluate(() => window.scrollTo(0, 0));
  const g6 = await squareCentre(page, 'G6');
  const cell = (await page.locator('#my-board').boundingBox()).width * 100 / 792;
  assert.ok(g6.y + cell / 2 <= 844, `row G ends at ${g6.y + cell / 2}, below the first screen`);
  assert.equal(await page.locator('#watch-box summary').textContent(), 'Link to watch');
  await shot(page, 'polish-online-phone');

  // Selecting a die does not move the board.
  const before = await page.locator('#my-board').boundingBox();
  const p = firstLegal(await apiState(page, id));
  await page.click(`.choice-die[data-index="${p.die}"]`);
  await page.waitForSelector('.preview');
  const after = await page.locator('#my-board').boundingBox();
  assert.ok(Math.abs(after.y - before.y) < 1, `the board moved ${after.y - before.y} px`);
  await turnTo(page, p.orientation);
  await page.waitForSelector(`.preview[data-orientation="${p.orientation}"]`);

  // A finger's drag: halfway, the tile is drawn above the touch point, not under it.
  const cdp = await page.context().newCDPSession(page);
  const from = await page.locator(`.choice-die[data-index="${p.die}"]`).boundingBox();
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const target = await squareCentre(page, p.square);
  const finger = { x: target.x, y: target.y + TOUCH_LIFT * cell };
  const touch = (type, q) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(q.x), y: Math.round(q.y), id: 1 }] });
  await touch('touchStart', start);
  for (let i = 1; i <= 10; i++) await touch('touchMove', { x: start.x + (finger.x - start.x) * i / 10, y: start.y + (finger.y - start.y) * i / 10 });
  const ghost = await page.locator('.drag-ghost').boundingBox();
  assert.ok(ghost, 'the dragged tile is drawn');
  assert.ok(ghost.y + ghost.height <= finger.y + 2, `the tile's bottom (${ghost.y + ghost.height}) is above the finger (${finger.y})`);
  await shot(page, 'polish-online-phone-drag');
  await touch('touchEnd', finger);
  await cdp.detach();
  // It lands where it was seen.
  await page.waitForSelector(`#my-board g.placed[data-placement="${p.tile}${p.square}${p.orientation}"]`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Plays a Railroad Ink game of `mode` to its end through the API from the page; resolves with its id. */
async function finishedInk(page, mode) {
  return page.evaluate(async (m) => {
    const call = async (method, path, token, body) => (await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).json();
    const { id, token, seat } = await call('POST', '/api/ink/games', null, { mode: m, seed: 5, name: 'Ada' });
    // The page holds the seat, as if it had made the game.
    const held = JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]');
    localStorage.setItem('tracklayer:ink:games', JSON.stringify([...held, { id, seat: seat ?? 0, token, mode: m, name: 'Ada' }]));
    const path = `/api/ink/games/${id}`;
    for (let guard = 0; guard < 5000; guard++) {
      const st = await call('GET', path, token);
      if (st.finished) return id;
      if (st.you.round_done) { await new Promise((r) => setTimeout(r, 25)); continue; }
      let placed = false;
      for (const die of st.you.dice) {
        if (die.used || placed) continue;
        for (let o = 0; o < 8 && !placed; o++) {
          if (die.legal[o].length >= 2) placed = !(await call('POST', `${path}/place`, token, { placement: `${die.tile}${die.legal[o].slice(0, 2)}${o}` })).error;
        }
      }
      if (!placed) await call('POST', `${path}/end-round`, token);
    }
    throw new Error('the game did not end');
  }, mode);
}

/** The bottom of row G of a Railroad Ink board on the screen (the board drawn 792 units wide). */
async function rowGBottom(page, board) {
  const box = await page.locator(board).boundingBox();
  return box.y + (46 + 700) * box.width / 792;
}

test('9. desk, 1280×800: the computer\'s board at the top of the side, big enough; end screens and replays keep row G on the screen', async () => {
  const page = await env.page(WIDE);
  await startGame(page, env.url, { mode: 'computer', seed: 5, name: 'Ada' });
  await page.waitForSelector('#board-1');
  const other = await page.locator('#board-1').boundingBox();
  const scores = await page.locator('.side .scores').boundingBox();
  assert.ok(other.y < scores.y, 'the other board sits above the score panel');
  assert.ok(other.width >= 300, `the other board is ${other.width} px wide`);
  assert.ok(other.y + other.height <= 800, `the other board ends at ${other.y + other.height}`);
  assert.ok(await rowGBottom(page, '#my-board') <= 800);
  await shot(page, 'polish-computer-desktop');

  // A finished game against the computer: its end screen, then its replay.
  const id = await finishedInk(page, 'computer');
  await page.goto(`${env.url}/ink/${id}`);
  await page.waitForSelector('#my-board, #board-0');
  await page.waitForSelector('.end-banner:not([hidden])');
  await page.evaluate(() => window.scrollTo(0, 0));
  const main = await page.locator('.main-board .board').first().boundingBox();
  assert.ok(main.y + (46 + 700) * main.width / 792 <= 800, `the end screen's row G ends at ${main.y + (46 + 700) * main.width / 792}`);
  await shot(page, 'polish-end-desktop');
  await page.goto(`${env.url}/ink/${id}/replay`);
  await page.waitForSelector('#replay-board-1');
  for (const b of ['#replay-board-0', '#replay-board-1']) {
    assert.ok(await rowGBottom(page, b) <= 800, `${b}'s row G ends at ${await rowGBottom(page, b)}`);
  }
  await shot(page, 'polish-replay-two-desktop');
  const solo = await finishedInk(page, 'solo');
  await page.goto(`${env.url}/ink/${solo}/replay`);
  await page.waitForSelector('#replay-board-0');
  assert.ok(await rowGBottom(page, '#replay-board-0') <= 800, `a solo replay's row G ends at ${await rowGBottom(page, '#replay-board-0')}`);
  await shot(page, 'polish-replay-solo-desktop');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('9. desk, 1280×800: a challenge\'s end screen keeps row G on the screen, its rank above the board and its leaderboard under it', async () => {
  const page = await env.page(WIDE);
  await page.goto(env.url);
  const card = page.locator(`.challenge-card[data-challenge="${DAILY}"]`);
  await card.locator('button.play-challenge').click();
  await page.waitForSelector('.name-form input');
  await page.fill('.name-form input', 'Cleo');
  await page.click('.name-form button[type=submit]');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  await page.waitForSelector('#my-board');
  const id = new URL(page.url()).pathname.split('/').pop();
  await finishByApi(page, id);
  await page.reload();
  await page.waitForSelector('#your-rank');
  await page.waitForSelector('#challenge-result .histogram-svg');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'polish-challenge-end-desktop');
  assert.ok(await rowGBottom(page, '#my-board') <= 800, `the challenge's end screen's row G ends at ${await rowGBottom(page, '#my-board')}`);
  // The rank and the way to the leaderboard are on the first screen too; the top of the
  // leaderboard and the chart come under the board.
  for (const part of ['#your-rank', '#your-streak', '#leaderboard-link']) {
    const box = await page.locator(part).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 800, `${part} ends at ${box.y + box.height}`);
  }
  const board = await page.locator('#my-board').boundingBox();
  assert.ok((await page.locator('#challenge-result').boundingBox()).y >= board.y + board.height, 'the leaderboard is under the board');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('10. a hint\'s plan stays on the board after its first placement, until the player departs from it', async () => {
  const page = await env.page(WIDE);
  const id = await startGame(page, env.url, { seed: 2, name: 'Ada' });
  await page.click('#hint');
  await page.waitForSelector('#my-board .hint-tile');
  const plan = await page.locator('#my-board .hint-tile').evaluateAll((els) => els.map((e) => e.dataset.placement));
  assert.ok(plan.length >= 2, `a plan of ${plan.length}`);
  // The first step, by the page: select its die, turn it, click its square.
  const [first, ...rest] = plan;
  await page.click(`.choice-die[data-tile="${first.slice(0, 2)}"]:not(.used)`);
  await turnTo(page, Number(first[4]));
  await page.waitForSelector(`.preview[data-orientation="${first[4]}"]`);
  const c = await squareCentre(page, first.slice(2, 4));
  await page.mouse.click(c.x, c.y);
  await page.waitForSelector(`#my-board g.placed[data-placement="${first}"]`);
  await page.waitForTimeout(200);
  const shown = await page.locator('#my-board .hint-tile').evaluateAll((els) => els.map((e) => e.dataset.placement));
  assert.deepEqual(shown, rest, 'the rest of the plan is still shown');
  await shot(page, 'polish-hint-kept-desktop');
  // Departing from it: a placement not in the plan ends it.
  const st = await apiState(page, id);
  let other = null;
  for (const die of st.you.dice) {
    if (die.used || other) continue;
    for (let o = 0; o < 8 && !other; o++) {
      for (let i = 0; i + 2 <= die.legal[o].length && !other; i += 2) {
        const p = `${die.tile}${die.legal[o].slice(i, i + 2)}${o}`;
        if (!plan.includes(p)) other = p;
      }
    }
  }
  if (other) {
    await page.evaluate(async ([gid, placement]) => {
      const seat = JSON.parse(localStorage.getItem('tracklayer:ink:games')).find((g) => g.id === gid);
      await fetch(`/api/ink/games/${gid}/place`, { method: 'POST', headers: { Authorization: `Bearer ${seat.seats[0].token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ placement }) });
    }, [id, other]);
    await page.waitForSelector(`#my-board g.placed[data-placement="${other}"]`);
    await page.waitForFunction(() => !document.querySelector('#my-board .hint-tile'));
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('13. this round\'s tiles are marked, the personal best is shown, your games come first, every board opens in the viewer', async () => {
  const page = await env.page(WIDE);
  await page.goto(env.url);
  // A player on this device, so that solo games count for a best.
  await page.evaluate(async () => {
    const p = await (await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Bestie' }) })).json();
    localStorage.setItem('tracklayer:player', JSON.stringify(p));
  });
  const id = await startGame(page, env.url, { seed: 2, name: 'Bestie' });
  const first = await placeOne(page, id);
  assert.deepEqual(await page.locator('#my-board g.placed.this-round').evaluateAll((els) => els.map((e) => e.dataset.placement)), [first]);
  const second = await placeOne(page, id);
  assert.equal(await page.locator('#my-board g.placed.this-round').count(), 2);
  await shot(page, 'polish-this-round-desktop');
  await playRound(page, id);
  await page.waitForSelector('.round-pips li.now:text-is("2")');
  assert.equal(await page.locator('#my-board g.placed.this-round').count(), 0, 'a new round: nothing marked');
  assert.ok(await page.locator(`#my-board g.placed[data-placement="${second}"]`).count());

  // The end screen: the board opens in the viewer, and its string can be copied.
  await finishByApi(page, id);
  await page.waitForSelector('#winner');
  const board = (await apiState(page, id)).players[0].board;
  assert.equal(await page.getAttribute('.main-board .copy-board', 'data-board'), board);
  assert.equal(await page.getAttribute('.main-board a.view-board', 'href'), `/view/ink?board=${board}`);
  await shot(page, 'polish-end-links-desktop');
  await page.click('.main-board a.view-board');
  await page.waitForURL(/\/view\/ink\?board=/);
  await page.waitForSelector('#placements .chip-button');
  assert.equal(await page.locator('#placements .chip-button').count(), board.length / 5);
  // Its replay too.
  await page.goto(`${env.url}/ink/${id}/replay`);
  await page.waitForSelector('#replay-board-0');
  assert.equal(await page.getAttribute('.replay-seat .copy-board', 'data-board'), board);

  // The start page: the best on the Solo card, and the games to go on with above the form.
  await page.goto(env.url);
  await page.waitForSelector('#solo-best');
  const score = (await apiState(page, id)).players[0].score.advanced;
  assert.equal(await page.textContent('#solo-best'), `Your best: ${String(score).replace('-', '−')} ${Math.abs(score) === 1 ? 'point' : 'points'}`);
  await page.waitForSelector('#your-games:not([hidden])');
  const yours = await page.locator('#your-games').boundingBox();
  const form = await page.locator('.start-card').boundingBox();
  assert.ok(yours.y < form.y, 'your games come before the new-game form');
  await shot(page, 'polish-start-returning-desktop');
  assert.deepEqual(page.errors, []);

  // A Metro game and its replay offer the same.
  const metro = await finishMetroByApi(page);
  await page.goto(`${env.url}/metro/${metro}/replay`);
  await page.waitForSelector('#replay-board .m-placed');
  const sequence = await page.getAttribute('.replay-seat .copy-board', 'data-board');
  assert.match(sequence, /^([a-d]{4}[0-7]{2}){60}$/);
  assert.match(await page.getAttribute('.replay-seat a.view-board', 'href'), /^\/view\/metro\?players=2&sequence=/);
  await page.goto(`${env.url}/metro/${metro}`);
  await page.waitForSelector('#winner');
  assert.equal(await page.getAttribute('.m-main .copy-board', 'data-board'), sequence);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('11. Metro computers\' moves are paced, each shown and ringed in turn (at once under reduced motion)', async () => {
  for (const [label, options] of [['moving', WIDE], ['still', { ...WIDE, reducedMotion: 'reduce' }]]) {
    const page = await env.page(options);
    await startMetro(page, env.url, {
      seats: [{ kind: 'here', name: 'Ann' }, { kind: 'computer', level: 'random' }, { kind: 'computer', level: 'random' }, { kind: 'computer', level: 'random' }],
      seed: 4,
    });
    await page.waitForSelector('#turn-help.mine');
    // Every tile as it appears on the board: when, and whether a ring marks it.
    await page.evaluate(() => {
      window.seen = [];
      const board = document.querySelector('#metro-board');
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (n.classList?.contains('m-placed')) window.seen.push({ at: performance.now(), square: n.dataset.square, rings: board.querySelectorAll('.m-ring').length });
          }
        }
      }).observe(board, { childList: true, subtree: true });
    });
    await playTurn(page);
    await page.waitForSelector('#turn-help.mine');
    const seen = await page.evaluate(() => window.seen);
    assert.equal(seen.length, 4, JSON.stringify(seen));
    const computers = seen.slice(1);
    for (const s of computers) assert.ok(s.rings >= 1, `a computer's move is ringed: ${JSON.stringify(seen)}`);
    const gaps = computers.slice(1).map((s, i) => s.at - computers[i].at);
    if (label === 'moving') {
      for (const gap of gaps) assert.ok(gap >= 600, `each move stays alone long enough: ${gaps.map(Math.round).join(', ')} ms`);
      await shot(page, 'polish-metro-paced-desktop');
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('6. tutorials: the Railroad Ink one scores a network of two exits and shows a round; what came of a move is in view', async () => {
  for (const [label, options] of [['desktop', WIDE], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/tutorial/ink`);
    await page.waitForSelector('#step-title');
    // The lesson's steps include exits joined, the dice and End round.
    const titles = await page.locator('.tutorial-steps li').allTextContents();
    assert.ok(titles.some((t) => /Two exits/.test(t)) && titles.some((t) => /Dice and rounds/.test(t)), titles.join(' | '));
    // A move: its result is in view, next to the step (not below the board).
    await page.locator('#tutorial-board [role=gridcell][data-square="A3"]').scrollIntoViewIfNeeded();
    const a3 = await squareCentre(page, 'A3', '#tutorial-board');
    await page.mouse.click(a3.x, a3.y);
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Connections');
    await page.evaluate(() => window.scrollTo(0, 0));
    const message = await page.locator('#tutorial-message').boundingBox();
    const text = await page.locator('#step-text').boundingBox();
    const board = await page.locator('#tutorial-board').boundingBox();
    assert.ok(message.y + message.height <= page.viewportSize().height, `${label}: the result ends at ${message.y + message.height}`);
    assert.ok(message.y < board.y || label === 'desktop', `${label}: the result is above the board, with the step`);
    assert.ok(Math.abs(message.y - text.y) < 400, `${label}: the result is next to the step's text`);
    await shot(page, `polish-tutorial-ink-${label}`);

    // Metro's refusal step: the refusal's words in the lesson, on the first screen at 1280×800.
    await page.goto(`${env.url}/tutorial/metro`);
    await page.waitForSelector('#turn-help.mine');
    await page.click('#draw');
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Keep');
    await page.click('#keep');
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'The centre');
    await page.waitForSelector('.game-layout.busy', { state: 'detached' });
    await page.locator('#metro-board').scrollIntoViewIfNeeded();
    await clickSquare(page, '33');
    await page.waitForSelector('#lesson-refusal');
    assert.match(await page.textContent('#lesson-refusal'), /Refused, as it should be\. The tile .+ can't go on row 3, column 3/);
    // A tile kept and another drawn: the reason no keeping is allowed names the tile in words.
    assert.match(await page.textContent('#must-place'), /^No keeping or drawing now: the tile [a-zU ,-]+ was drawn/);
    const seen = await visibleText(page);
    assert.doesNotMatch(seen, METRO_CODE, seen);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (label === 'desktop') {
      const note = await page.locator('#lesson-refusal').boundingBox();
      assert.ok(note.y + note.height <= 800, `the refusal ends at ${note.y + note.height}`);
    }
    await shot(page, `polish-tutorial-metro-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
