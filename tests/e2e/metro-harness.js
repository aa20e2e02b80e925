// Helpers for the Metro browser tests: start a game from the start screen like a player, read
// the state a seat sees, and play a turn through the page (draw, then click or drag the tile
// onto a square the server says is legal).

const SEATS_KEY = 'tracklayer:metro:games';
/** The board's viewBox: 8 squares of 100 and a margin of 44 on each side. */
const VIEW = 888;
const MARGIN = 44;

export function metroId(page) {
  const m = new URL(page.url()).pathname.match(/^\/metro\/([0-9a-f]{24})$/);
  return m && m[1];
}

/**
 * Starts a Metro game from the start screen. `seats`: [{kind: 'here'|'invite'|'computer',
 * name?, level?}]. Returns the game's id.
 */
export async function startMetro(page, url, { seats, seed }) {
  await page.goto(url);
  await page.waitForSelector('#game-metro:not(.disabled)');
  await page.click('#game-metro');
  await page.waitForSelector('#metro-seats');
  for (let n = await page.locator('.m-seat').count(); n < seats.length; n++) await page.click('#add-seat');
  for (let n = await page.locator('.m-seat').count(); n > seats.length; n--) await page.click('.m-seat:last-child .m-seat-remove');
  for (const [i, seat] of seats.entries()) {
    await page.selectOption(`select[name=seat-${i}-kind]`, seat.kind);
    if (seat.name) await page.fill(`input[name=seat-${i}-name]`, seat.name);
    if (seat.level) await page.selectOption(`select[name=seat-${i}-level]`, seat.level);
  }
  if (seed !== undefined) {
    await page.click('#metro-setup details.more summary');
    await page.fill('#metro-seed', String(seed));
  }
  await page.click('#start');
  await page.waitForURL(/\/metro\/[0-9a-f]{24}$/);
  await page.waitForSelector('#metro-board');
  return metroId(page);
}

/** The seats this page's browser holds in a game. */
export async function metroSeatsOf(page, id) {
  return page.evaluate(([key, gid]) => JSON.parse(localStorage.getItem(key) || '[]').find((g) => g.id === gid)?.seats || [], [SEATS_KEY, id]);
}

/** The state as one of the page's seats sees it (the first one held, or `seat`), from the API. */
export async function metroState(page, id, seat) {
  return page.evaluate(async ([key, gid, k]) => {
    const held = JSON.parse(localStorage.getItem(key) || '[]').find((g) => g.id === gid)?.seats || [];
    const s = k === undefined ? held[0] : held.find((x) => x.seat === k);
    const r = await fetch(`/api/metro/games/${gid}`, { headers: s ? { Authorization: `Bearer ${s.token}` } : {} });
    return r.json();
  }, [SEATS_KEY, id, seat]);
}

/** An API action by one of the page's seats: [status, body]. */
export async function metroAct(page, id, seat, what, body) {
  return page.evaluate(async ([key, gid, k, action, b]) => {
    const s = JSON.parse(localStorage.getItem(key) || '[]').find((g) => g.id === gid).seats.find((x) => x.seat === k);
    const r = await fetch(`/api/metro/games/${gid}/${action}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
      body: b === undefined ? '' : JSON.stringify(b),
    });
    return [r.status, await r.json()];
  }, [SEATS_KEY, id, seat, what, body]);
}

/** Screen coordinates of a square's centre on the Metro board. */
export async function squareCentre(page, square) {
  const box = await page.locator('#metro-board').boundingBox();
  const scale = box.width / VIEW;
  return {
    x: box.x + (MARGIN + Number(square[1]) * 100 + 50) * scale,
    y: box.y + (MARGIN + Number(square[0]) * 100 + 50) * scale,
  };
}

/** Drags the tile to place onto a square with the mouse. A live update may draw the hand again
 * between finding the tile and measuring it: then it is measured again. */
export async function dragTile(page, square) {
  const slot = page.locator('.m-slot.to-place');
  let from = null;
  for (let tries = 0; !from && tries < 20; tries += 1) {
    await slot.waitFor({ state: 'visible' });
    from = await slot.boundingBox();
  }
  const to = await squareCentre(page, square);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 12, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** Clicks a square of the board. */
export async function clickSquare(page, square) {
  const c = await squareCentre(page, square);
  await page.mouse.click(c.x, c.y);
}

/** The squares the page highlights as legal. */
export async function highlighted(page) {
  return page.locator('#metro-board .m-legal').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
}

/**
 * Plays the page's turn: draws when there is no tile to place, then puts the tile on the
 * first highlighted square by a click or a drag. Returns the square.
 */
export async function playTurn(page, { by = 'click' } = {}) {
  await page.waitForSelector('#turn-help.mine');
  if (!(await page.locator('.m-slot.to-place').count())) {
    await page.click('#draw');
    await page.waitForSelector('.m-slot.to-place');
  }
  const square = (await highlighted(page))[0];
  if (by === 'drag') await dragTile(page, square);
  else await clickSquare(page, square);
  await page.waitForSelector(`#metro-board g.m-placed[data-square="${square}"]`);
  return square;
}

/**
 * Creates a Metro game of a person and computers (`players`, the person first) and plays it to
 * its end through the API from the page (the person takes the first legal square each turn);
 * resolves with its id.
 */
export async function finishMetroByApi(page, { players = [{ kind: 'human', name: 'Hu' }, { kind: 'computer', level: 'random', name: 'Rae' }], seed = '21' } = {}) {
  return page.evaluate(async ([who, sd]) => {
    const call = async (method, path, token, body) => (await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).json();
    const created = await call('POST', '/api/metro/games', null, { players: who, seed: sd });
    const token = created.seats[0].token;
    const path = `/api/metro/games/${created.id}`;
    for (let i = 0; i < 3000; i++) {
      const st = await call('GET', path, token);
      if (st.finished) return created.id;
      if (!st.you.your_turn) await new Promise((r) => setTimeout(r, 20));
      else if (st.you.legal && st.you.legal.length >= 2) await call('POST', `${path}/place`, token, { square: st.you.legal.slice(0, 2) });
      else await call('POST', `${path}/draw`, token);
    }
    throw new Error('the Metro game did not end');
  }, [players, seed]);
}
