// Starts the real server (release binary) on a free port with a fresh database, launches
// Debian's Chromium through playwright-core, and helps tests drive the game like a player.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
export const SCREENSHOTS = join(here, 'screenshots');

export const DESKTOP = { viewport: { width: 1024, height: 768 } };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** The release binary (TRACKLAYER_BIN overrides; CARGO_TARGET_DIR is honoured). */
export function binary() {
  if (process.env.TRACKLAYER_BIN) return process.env.TRACKLAYER_BIN;
  const target = process.env.CARGO_TARGET_DIR || join(repo, 'target');
  return join(target, 'release', 'tracklayer');
}

/**
 * What every test server runs with unless a test says otherwise: no per-address rate limits and
 * every challenge entry ranked
 * (every page of a test file talks from 127.0.0.1, and a file makes more games, players, joins
 * and challenge plays in a minute than one address may; the limits themselves are the server's
 * tests' business), and a small search budget for the computer's game on each day's challenges
 * (at full strength about 20 CPU-seconds for every fresh database, which would slow every test).
 */
export const SERVER_ENV = {
  TRACKLAYER_RATE_GAMES: '0',
  TRACKLAYER_RATE_PLAYERS: '0',
  TRACKLAYER_PLAYERS_PER_DAY: '0',
  // Every page of a test talks from 127.0.0.1: rank every challenge entry.
  TRACKLAYER_RANK_PER_ADDRESS: 'false',
  TRACKLAYER_RATE_JOINS: '0',
  TRACKLAYER_RATE_HINTS: '0',
  TRACKLAYER_RATE_REVIEWS: '0',
  TRACKLAYER_RATE_PREVIEWS: '0',
  TRACKLAYER_RATE_PLAYS: '0',
  TRACKLAYER_CHALLENGE_BUDGET: '4',
};

/**
 * Starts the server; resolves with {url, stop()}. `env` adds to its environment (such as
 * TRACKLAYER_NOW, which fixes its clock; it overrides SERVER_ENV), `args` to its command line,
 * `db` is the database file to use (kept on stop) instead of a fresh one, and `port` the port
 * (0: any free one; a server started again on the same port serves the same site to the pages).
 */
export async function startServer({ env = {}, args = [], db = null, port = 0 } = {}) {
  // A database of its own, removed on stop, unless `db` names one (kept, for a later server).
  const dir = db ? null : mkdtempSync(join(tmpdir(), 'tracklayer-e2e-'));
  const child = spawn(binary(), ['serve', '--addr', `127.0.0.1:${port}`, '--db', db || join(dir, 'e2e.sqlite'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TRACKLAYER_LOG: 'warn', ...SERVER_ENV, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${stderr}`)), 15000);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const m = line.match(/http:\/\/\S+/);
      if (m) resolveUrl(m[0]); else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    stderr: () => stderr,
  };
}

/** How the tests start Debian's Chromium (for `chromium.launch` and its persistent kind). */
export const LAUNCH = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--no-first-run', '--disable-quic', '--disable-sync', '--disable-dev-shm-usage'],
};

export async function launch() {
  return chromium.launch(LAUNCH);
}

/**
 * One server and one Chromium for a test file: registers the hooks that start them before its
 * tests and stop them after. Returns `{url, page(options)}` for the tests to use.
 */
export function serverAndBrowser(serverOptions = {}) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(serverOptions);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get url() { return server.url; },
    page: (options = DESKTOP) => newPage(browser, options),
    stderr: () => server?.stderr() ?? '',
  };
}

/** A new page that records console errors and page errors (tests assert there are none). */
export async function newPage(browser, options = DESKTOP) {
  const context = await browser.newContext(options);
  if (process.env.E2E_WEB_FROM_DISK) await serveWebFromDisk(context);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    // A refused move is a 422 the page shows as a message; Chromium also logs it.
    if (msg.type() === 'error' && !/status of 422/.test(msg.text())) page.errors.push(msg.text());
  });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  return page;
}

const TYPES = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html; charset=utf-8' };

/**
 * For working on the page: with E2E_WEB_FROM_DISK=1 the page's files come from web/ on disk
 * rather than from those embedded in the binary, so an edit needs no rebuild (the API and the
 * pages' head still come from the server). CI runs without it.
 */
async function serveWebFromDisk(context) {
  const web = join(repo, 'web');
  await context.route('**/*', async (route) => {
    const req = route.request();
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api')) return route.continue();
    if (req.resourceType() === 'document') {
      const response = await route.fetch();
      const served = await response.text();
      const title = served.slice(served.indexOf('<title>'), served.indexOf('</title>') + '</title>'.length);
      const html = readFileSync(join(web, 'index.html'), 'utf8').replace(/<title>.*<\/title>/, title);
      return route.fulfill({ response, body: html });
    }
    const file = join(web, pathname);
    if (!file.startsWith(web) || !existsSync(file) || !statSync(file).isFile()) return route.continue();
    return route.fulfill({ body: readFileSync(file), contentType: TYPES[file.split('.').pop()] || 'application/octet-stream' });
  });
}

export async function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForTimeout(150);
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) throw new Error(`${name}: the page is ${scroll}px wide in a ${width}px window`);
  // A phone widens its layout to fit what overflows, so compare with the screen too.
  const screen = page.viewportSize()?.width;
  if (screen && width > screen) {
    const wide = await page.evaluate((w) => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5)
      .slice(-3).map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''}#${el.id}`), screen);
    throw new Error(`${name}: the page is laid out ${width}px wide on a ${screen}px screen (${wide.join(', ')})`);
  }
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The seat this page holds in a game (from the browser's storage): `{seat, token}`. */
export async function seatOf(page, id) {
  return page.evaluate((gid) => JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]').find((g) => g.id === gid)?.seats[0], id);
}

export function gameId(page) {
  const m = new URL(page.url()).pathname.match(/^\/ink\/([0-9a-f]{24})$/);
  return m && m[1];
}

/** The state as the page's seat sees it, straight from the API. */
export async function apiState(page, id) {
  return page.evaluate(async (gid) => {
    const seat = JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]').find((g) => g.id === gid);
    const r = await fetch(`/api/ink/games/${gid}`, { headers: seat ? { Authorization: `Bearer ${seat.seats[0].token}` } : {} });
    return r.json();
  }, id);
}

/** Starts a game from the start screen. */
export async function startGame(page, url, { mode = 'solo', name, seed, agent } = {}) {
  await page.goto(url);
  // The start page's cards fill in as their data arrives: a click that lands while the form is
  // put back together is tried again.
  const radio = page.locator(`input[name=mode][value=${mode}]`);
  await page.waitForFunction(() => !!document.querySelector('#start'));
  for (let tries = 0; ; tries++) {
    try {
      await radio.check({ force: true, timeout: 5000 });
      break;
    } catch (e) {
      if (tries >= 2) throw e;
      await page.waitForTimeout(200);
    }
  }
  if (name) await page.fill('#player-name', name);
  if (agent) await page.selectOption('#agent', agent);
  if (seed !== undefined) {
    await page.click('details.more summary');
    await page.fill('#seed', String(seed));
  }
  await page.click('#start');
  await page.waitForURL(/\/ink\/[0-9a-f]{24}$/);
  // An online game opens on its lobby (see startOnline), every other game on the board.
  await page.waitForSelector(mode === 'online' ? '#lobby' : '#my-board');
  return gameId(page);
}

/** The creator starts an online game from its lobby; resolves once the board is there. */
export async function startOnline(page) {
  await page.click('#start-game');
  await page.waitForSelector('#my-board');
}

/** Screen coordinates of a square's centre on a board. */
export async function squareCentre(page, square, board = '#my-board') {
  const box = await page.locator(board).boundingBox();
  const scale = box.width / 792;
  const col = Number(square[1]);
  const row = 'ABCDEFG'.indexOf(square[0]);
  return { x: box.x + (46 + col * 100 + 50) * scale, y: box.y + (46 + row * 100 + 50) * scale };
}

/** Presses R and F until the selected tile is in `orientation` (from orientation 0). */
export async function turnTo(page, orientation) {
  if (orientation >= 4) await page.keyboard.press('f');
  for (let i = 0; i < orientation % 4; i++) await page.keyboard.press('r');
}

/** Drags a die or special button onto a square with the mouse. */
export async function drag(page, fromSelector, square) {
  const from = await page.locator(fromSelector).boundingBox();
  const to = await squareCentre(page, square);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 12, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** The first legal die placement the server offers: {die, tile, square, orientation}. */
export function firstLegal(state) {
  for (const die of state.you.dice) {
    if (die.used) continue;
    for (let o = 0; o < 8; o++) {
      if (die.legal[o].length >= 2) return { die: die.die, tile: die.tile, square: die.legal[o].slice(0, 2), orientation: o };
    }
  }
  return null;
}

/** Waits until the page shows a state with a version above `version`. */
export async function waitForVersion(page, id, version) {
  for (let i = 0; i < 200; i++) {
    const st = await apiState(page, id);
    if (st.version > version) return st;
    await page.waitForTimeout(25);
  }
  throw new Error(`version stayed at ${version}`);
}

/** Places one die like a player: select it, turn it, then drag it (or click the square). */
export async function placeOne(page, id, { by = 'drag' } = {}) {
  const st = await apiState(page, id);
  const p = firstLegal(st);
  if (!p) return null;
  const button = `.choice-die[data-index="${p.die}"]`;
  await page.click(button);
  await turnTo(page, p.orientation);
  await page.waitForSelector(`.preview[data-orientation="${p.orientation}"]`);
  if (by === 'drag') await drag(page, button, p.square);
  else {
    const c = await squareCentre(page, p.square);
    await page.mouse.click(c.x, c.y);
  }
  const placement = `${p.tile}${p.square}${p.orientation}`;
  await page.waitForSelector(`#my-board g.placed[data-placement="${placement}"]`);
  return placement;
}

/** Plays the rest of the round, then ends it. */
export async function playRound(page, id, options) {
  while (await placeOne(page, id, options)) { /* next die */ }
  await page.waitForSelector('#end-round:not([disabled])');
  await page.click('#end-round');
}

/** How far above the finger the page draws a dragged tile, in tile widths (core/screen.js). */
export const TOUCH_LIFT = 0.9;

/**
 * Drags with a finger: touch events through the DevTools protocol (pointerType "touch"). The
 * finger ends below the square, where the tile riding above it covers the square.
 */
export async function touchDrag(page, fromSelector, square) {
  const cdp = await page.context().newCDPSession(page);
  const from = await page.locator(fromSelector).boundingBox();
  const centre = await squareCentre(page, square);
  const cell = (await page.locator('#my-board').boundingBox()).width * 100 / 792;
  const to = { x: centre.x, y: centre.y + TOUCH_LIFT * cell };
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(p.x), y: Math.round(p.y), id: 1 }],
  });
  await touch('touchStart', start);
  for (let i = 1; i <= 10; i++) {
    await touch('touchMove', { x: start.x + (to.x - start.x) * i / 10, y: start.y + (to.y - start.y) * i / 10 });
  }
  await touch('touchEnd', to);
  await cdp.detach();
}

/**
 * Plays the rest of a Railroad Ink game through the API with the seat this page holds (the
 * first legal placement of each die, then the end of the round), as fast as the server answers;
 * the page follows by its live updates. Resolves with each round's dice, in order.
 */
export async function finishByApi(page, id) {
  return page.evaluate(async (gid) => {
    const seat = JSON.parse(localStorage.getItem('tracklayer:ink:games') || '[]').find((g) => g.id === gid);
    const headers = { Authorization: `Bearer ${seat.seats[0].token}`, 'Content-Type': 'application/json' };
    const call = async (method, path, body) => {
      const r = await fetch(`/api/ink/games/${gid}${path}`, { method, headers, body: body && JSON.stringify(body) });
      return { ok: r.ok, status: r.status, body: await r.json().catch(() => null) };
    };
    const rolls = [];
    for (let guard = 0; guard < 200; guard++) {
      const { body: st } = await call('GET', '');
      if (st.finished) return rolls;
      if (rolls.length === st.round) rolls.push(st.dice.join(''));
      let placed = false;
      for (const die of st.you.dice) {
        if (die.used) continue;
        for (let o = 0; o < 8 && !placed; o++) {
          if (die.legal[o].length >= 2) placed = (await call('POST', '/place', { placement: `${die.tile}${die.legal[o].slice(0, 2)}${o}` })).ok;
        }
        if (placed) break;
      }
      if (!placed) {
        const ended = await call('POST', '/end-round');
        if (!ended.ok) throw new Error(`end-round refused: ${ended.status} ${JSON.stringify(ended.body)}`);
      }
    }
    throw new Error('the game did not end');
  }, id);
}

/**
 * Makes a player through the API and keeps it as this browser's, as the name form would, on the
 * site at `url`: resolves with {id, token, name}.
 */
export async function asPlayer(page, url, name) {
  await page.goto(url);
  return page.evaluate(async (n) => {
    const r = await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: n }) });
    const p = await r.json();
    if (!r.ok) throw new Error(p.error);
    localStorage.setItem('tracklayer:player', JSON.stringify({ id: p.id, token: p.token, name: p.name }));
    return p;
  }, name);
}
