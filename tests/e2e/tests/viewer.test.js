// The board viewer in Chromium: paste the rules' 46-point board and see 46 with its
// breakdown, step back to placement 10 and see that board's score, open the shared link, an
// illegal string with its rule, a malformed one pointed out at the character.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, serverAndBrowser, shot } from '../harness.js';

const EXAMPLE = 'A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52';

const env = serverAndBrowser();

async function score(page) {
  return (await page.textContent('#view-score')).trim();
}

test('paste the 46-point example, see its breakdown, step back to placement 10, share the link', async () => {
  const page = await env.page(DESKTOP);
  await page.goto(env.url);
  await page.click('.site-nav a[href="/view"]');
  await page.waitForSelector('#board-input');
  await shot(page, 'viewer-empty-desktop');
  // Pasted with a line break in the middle: spaces and line breaks are ignored.
  await page.fill('#board-input', `${EXAMPLE.slice(0, 80)}\n${EXAMPLE.slice(80)}`);
  await page.click('#show');
  await page.waitForSelector('#view-board g.placed');
  assert.equal(new URL(page.url()).searchParams.get('board'), EXAMPLE);
  assert.equal(await score(page), '46 points');
  assert.equal(await page.title(), 'Board viewer · tracklayer');
  assert.equal(await page.locator('#view-board g.placed').count(), 31);
  assert.equal(await page.textContent('.breakdown .score-total'), '46');
  assert.equal(await page.textContent('.breakdown .score-basic'), '33');
  assert.equal(await page.textContent('.breakdown .score-errors'), '−5');
  assert.equal(await page.textContent('.breakdown .score-centre'), '6');
  assert.equal(await page.textContent('.breakdown .score-longest-highway'), '8');
  assert.equal(await page.textContent('.breakdown .score-longest-railway'), '5');
  const networks = await page.locator('.breakdown .network-row th').allTextContents();
  assert.ok(networks.some((t) => /6 exits: A3 G3 G5 B0 D6 F6/.test(t)), networks.join(' | '));
  assert.ok(networks.some((t) => /4 exits: A1 G1 D0 F0/.test(t)), networks.join(' | '));
  // The breakdown is drawn on the board: networks, five error marks, six centre stars, both routes.
  assert.equal(await page.locator('#view-board .layer-errors .error-mark').count(), 5);
  assert.equal(await page.locator('#view-board .layer-centre-marks .centre-mark').count(), 6);
  assert.equal(await page.locator('#view-board .longest-highway-dot').count(), 8);
  assert.equal(await page.locator('#view-board .longest-railway-dot').count(), 5);
  assert.ok(await page.locator('#view-board.show-networks').count());
  assert.match(await page.textContent('#step-caption'), /Placement 31: B1 .* on G5/);
  await shot(page, 'viewer-46-desktop');

  // Step back to placement 10: buttons and arrow keys.
  for (let i = 0; i < 11; i++) await page.click('#step-back');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('text=Placement 10:');
  assert.match(await page.textContent('#step-caption'), /Placement 10: A3 .* on D1, orientation 5/);
  assert.equal(await page.locator('#view-board g.placed').count(), 10);
  assert.equal(await score(page), '8 points');
  assert.equal(await page.textContent('.breakdown .score-errors'), '−5');
  assert.equal(await page.inputValue('#step-slider'), '10');
  assert.equal(new URL(page.url()).searchParams.get('at'), '10');
  await shot(page, 'viewer-step-10-desktop');
  // The chips jump too, and the slider.
  await page.click('.chip-button[data-index="0"]');
  assert.equal(await score(page), '0 points');
  await page.locator('#step-slider').fill('10');
  await page.waitForSelector('text=Placement 10:');
  const link = page.url();

  // The shared link opens the same view, on a phone too.
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const other = await env.page(options);
    await other.goto(link);
    await other.waitForSelector('#view-board g.placed');
    assert.equal(await other.locator('#view-board g.placed').count(), 10);
    assert.equal(await score(other), '8 points');
    assert.equal(await other.inputValue('#board-input'), EXAMPLE);
    assert.match(await other.textContent('#step-caption'), /Placement 10:/);
    await shot(other, `viewer-shared-${label}`);
    assert.deepEqual(other.errors, []);
    await other.context().close();
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an illegal placement is shown in place with its rule; a malformed string at the character', async () => {
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/view/ink?board=A1A30A4B30A4C30`);
    await page.waitForSelector('#illegal');
    assert.match(await page.textContent('#illegal'), /Placement 2 \(A4B30\) is illegal/);
    assert.equal(await page.textContent('#illegal .rule-chip'), 'highway meets railway');
    // The last step shows the illegal tile where it was put, with the rule.
    assert.equal(await page.locator('#view-board .drop-illegal').count(), 1);
    assert.equal(await page.textContent('#step-caption .rule-chip'), 'highway meets railway');
    assert.equal(await page.locator('.chip-button.illegal').count(), 1);
    assert.equal(await page.locator('.chip-button.unreached').count(), 1);
    assert.equal(await page.locator('#view-board g.placed').count(), 1);
    await shot(page, `viewer-illegal-${label}`);
    await page.click('#step-back');
    assert.equal(await page.locator('#view-board .drop-illegal').count(), 0);

    await page.fill('#board-input', 'A4A10A4h10');
    await page.press('#board-input', 'Enter');
    await page.waitForSelector('#malformed');
    assert.match(await page.textContent('#malformed'), /Character 8 is “h”: expected a row A–G \(placement 2\)/);
    assert.equal(await page.textContent('#malformed mark.bad'), 'h');
    // The well-formed placement before it is drawn.
    assert.equal(await page.locator('#view-board g.placed').count(), 1);
    await shot(page, `viewer-malformed-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a Metro sequence for 4 players: the lines and scores step by step; an illegal and a malformed one', async () => {
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/view`);
    await page.click('.tabs a[href="/view/metro"]');
    await page.waitForSelector('#sequence-input');
    await page.fill('#sequence-input', 'aaaa03aaaa13aaaa23');
    await page.selectOption('#players-input', '4');
    await page.click('#show');
    await page.waitForSelector('#view-board .m-placed');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('players'), '4');
    assert.equal(await page.locator('#view-board .m-placed').count(), 3);
    // §9.3: station 5's line down column 3 into the centre, doubled, for P4.
    assert.equal(await page.textContent('#view-score-3'), '6 points');
    assert.equal(await page.textContent('#view-score-0'), '0 points');
    assert.match(await page.textContent('.m-view-scores li[data-seat="3"] .m-view-lines'), /Station 5 \(P4\): 3 tiles to a central station: 3 × 2 = 6 points/);
    await page.hover('.m-view-scores li[data-seat="3"] .m-view-lines li');
    assert.ok(await page.locator('#view-board .m-track.hot').count() >= 3);
    await shot(page, `viewer-metro-${label}`);
    await page.click('#step-back');
    assert.equal(await page.textContent('#view-score-3'), '0 points');
    assert.equal(await page.locator('#view-board .m-placed').count(), 2);

    await page.goto(`${env.url}/view/metro?players=2&sequence=aaaa00aaaa11`);
    await page.waitForSelector('#illegal');
    assert.equal(await page.textContent('#illegal .rule-chip'), '§6.1 rule 2 (touching)');
    assert.equal(await page.locator('#view-board .m-drop.illegal').count(), 1);
    await page.goto(`${env.url}/view/metro?players=2&sequence=aaaa00aaaX11`);
    await page.waitForSelector('#malformed');
    assert.equal(await page.textContent('#malformed mark.bad'), 'X');
    assert.match(await page.textContent('#malformed'), /Character 10 is “X”: expected a tile letter a–d/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the Metro rules: a turn, legal and illegal placements, a line doubled at the centre, the owners, every tile', async () => {
  for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await env.page(options);
    await page.goto(`${env.url}/rules`);
    await page.click('.rules-tabs a[href="/rules/metro"]');
    await page.waitForSelector('#metro-rules .m-tile-card');
    assert.equal(await page.locator('.m-tile-card').count(), 24);
    assert.equal(await page.locator('.m-owners').count(), 5);
    assert.equal(await page.locator('#example-touching .verdict.legal').count(), 1);
    assert.match(await page.textContent('#example-not-touching .verdict.illegal'), /touching/);
    assert.equal(await page.locator('#example-border .verdict.legal').count(), 1);
    assert.match(await page.textContent('#example-corner .verdict.illegal'), /station 8 to station 9/);
    assert.match(await page.textContent('#example-centre figcaption'), /Station 5 \(P4\): 3 tiles to a central station: 3 × 2 = 6 points/);
    assert.ok(await page.locator('#example-centre .m-track.hot').count() >= 3);
    // With 3 players, stations 16 and 17 belong to nobody.
    assert.equal(await page.locator('.m-owners[data-players="3"] .m-station.unowned').count(), 2);
    assert.equal(await page.locator('.m-owners[data-players="4"] .m-station.unowned').count(), 0);
    await shot(page, `rules-metro-${label}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
