// The site as an app: its manifest and icons, a service worker that takes the page, Chromium's
// installability checks (what Lighthouse's "installable" audit reported: no errors), the site
// opening with the server gone, and a new version offered rather than mixed into an open page.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { LAUNCH, PHONE, SCREENSHOTS, launch, newPage, serverAndBrowser, shot, startServer } from '../harness.js';

const env = serverAndBrowser();

/** Waits until the page's service worker is active and controls the page. */
async function controlled(page) {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return !!navigator.serviceWorker.controller;
  }, null, { timeout: 30000 });
}

test('the manifest names the app and its icons, and Chromium finds the site installable', async () => {
  // A profile of its own (Chromium installs nothing from an incognito window, which a new
  // context is).
  const profile = mkdtempSync(join(tmpdir(), 'tracklayer-install-'));
  const context = await chromium.launchPersistentContext(profile, { ...LAUNCH, ...PHONE });
  after(async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); });
  const page = context.pages()[0] || await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(env.url);
  await page.waitForSelector('#start');
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel=manifest]');
    const r = await fetch(link.href);
    return { type: r.headers.get('content-type'), body: await r.json() };
  });
  assert.equal(manifest.type, 'application/manifest+json');
  const m = manifest.body;
  assert.equal(m.name, 'tracklayer: Railroad Ink and Metro');
  assert.equal(m.short_name, 'tracklayer');
  assert.equal(m.display, 'standalone');
  assert.equal(m.start_url, '/');
  assert.match(m.theme_color, /^#[0-9a-f]{6}$/);
  for (const size of ['192x192', '512x512']) {
    const icon = m.icons.find((i) => i.sizes === size && i.purpose === 'any');
    assert.ok(icon, `an icon of ${size}`);
    const got = await page.evaluate(async (src) => {
      const r = await fetch(src);
      const bitmap = await createImageBitmap(await r.blob());
      return { type: r.headers.get('content-type'), width: bitmap.width, height: bitmap.height };
    }, icon.src);
    assert.deepEqual(got, { type: 'image/png', width: Number(size.split('x')[0]), height: Number(size.split('x')[0]) });
  }
  assert.ok(m.icons.some((i) => i.purpose === 'maskable'), 'a maskable icon');
  assert.equal(await page.locator('meta[name=theme-color]').getAttribute('content'), m.theme_color);

  await controlled(page);
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, [], 'Chromium sees no reason the site cannot be installed');
  const { errors: manifestErrors } = await cdp.send('Page.getAppManifest');
  assert.deepEqual(manifestErrors, [], 'the manifest parses cleanly');
  assert.deepEqual(page.errors, []);
});

test('with the server gone, the site still opens: its pages and files come from the worker', async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser, PHONE);
    await page.goto(server.url);
    await page.waitForSelector('#start');
    await controlled(page);
    // Everything this version serves is kept (the page's files by their hashed names).
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('tracklayer-')));
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    assert.ok(kept.includes('/'), 'the app\'s page');
    assert.ok(kept.some((p) => /^\/js\/ink\/game\.[0-9a-f]{16}\.js$/.test(p)), 'a game\'s module');
    assert.ok(kept.some((p) => /^\/css\/app\.[0-9a-f]{16}\.css$/.test(p)), 'the styles');
    assert.ok(kept.some((p) => /^\/wasm\/engines\.[0-9a-f]{16}\.wasm$/.test(p)), 'the engines');
    assert.ok(kept.includes('/api/ink/tiles') && kept.includes('/api/metro/tiles'), 'the games\' tables');

    await server.stop();
    // A page never opened online, now with no server: the rules, from the kept files and the
    // games' kept tables.
    await page.goto(`${server.url}/rules`);
    await page.waitForSelector('#app[data-screen=rules] h1');
    assert.match(await page.locator('#app h1').first().innerText(), /how to play/i);
    // A page that needs the server says so in words (not the browser's error page).
    await page.goto(`${server.url}/challenges`);
    await page.getByText('The server cannot be reached').first().waitFor();
    await shot(page, 'install-offline-rules');
    assert.deepEqual(page.errors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(e)), []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a new version waits and is offered; "Reload" brings the page onto it, and old files go', async () => {
  const page = await env.page(PHONE);
  await page.goto(env.url);
  await page.waitForSelector('#start');
  await controlled(page);
  const version = await page.evaluate(async () => (await caches.keys()).find((n) => n.startsWith('tracklayer-')));
  // What an older version left (its worker replaced by this one's).
  await page.evaluate(async () => { await (await caches.open('tracklayer-older')).put('/x', new Response('x')); });
  // A new worker for the site: the browser installs one when the worker's address changes as
  // when its bytes do (a new build changes its bytes; one binary here cannot).
  await page.evaluate(async () => { await navigator.serviceWorker.register('/sw.js?next'); });
  const note = page.locator('#update-note');
  await note.waitFor({ timeout: 30000 });
  assert.match(await note.innerText(), /new version of the site is ready/i);
  await shot(page, 'install-new-version');
  await page.screenshot({ path: join(SCREENSHOTS, 'install-new-version-screen.png') });
  const waiting = await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()).waiting);
  assert.ok(waiting, 'the new worker waits until asked');
  assert.match(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL), /\/sw\.js$/, 'the page keeps its version meanwhile');
  await Promise.all([page.waitForEvent('load'), note.getByRole('button', { name: 'Reload' }).click()]);
  await page.waitForSelector('#start');
  await controlled(page);
  assert.match(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL), /\/sw\.js\?next$/);
  const kept = await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('tracklayer-')));
  assert.deepEqual(kept, [version], 'only the version in use is kept');
  assert.equal(await page.locator('#update-note').count(), 0, 'no note on the new version');
  assert.deepEqual(page.errors, []);
});
