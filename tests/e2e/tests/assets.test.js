// A fast first load, as Chromium sees it: the page's modules and styles come from their
// content-hashed names (through the page's import map: no module is asked for by its plain
// name), compressed with brotli, cached as immutable; the start page preloads its own modules
// and no game's; on the next page only that page's new modules reach the server, the rest
// coming from the browser's cache; the page's content security policy lets its import map run
// (no console error).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, serverAndBrowser } from '../harness.js';

// The server logs every request (debug), so the test can tell what reached it.
const env = serverAndBrowser({ env: { TRACKLAYER_LOG: 'debug' } });

const HASHED = /^\/(js|css)\/.+\.[0-9a-f]{16}\.(js|css)$/;

/** The paths of the files under /js/ and /css/ that reached the server so far. */
function served() {
  const log = env.stderr().replace(/\x1b\[[0-9;]*m/g, '');
  return [...log.matchAll(/path=(\/(?:js|css)\/\S+)/g)].map((m) => m[1]);
}

test('modules and styles come hashed, in brotli, immutable, and from the cache on the next page', {
  skip: process.env.E2E_WEB_FROM_DISK ? 'the files come from disk' : false,
}, async () => {
  // As a browser without the site's service worker sees it (every first visit, and a browser
  // that refuses workers): what the worker keeps is install.test.js's.
  const page = await env.page({ ...PHONE, serviceWorkers: 'block' });
  const seen = [];
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (/^\/(js|css)\//.test(pathname)) seen.push({ pathname, headers: await response.allHeaders() });
  });

  await page.goto(env.url);
  await page.waitForSelector('#start');
  const preloads = await page.locator('link[rel=modulepreload]').count();
  assert.ok(preloads >= 15, `${preloads} modules preloaded`);
  const preloaded = await page.locator('link[rel=modulepreload]').evaluateAll((ls) => ls.map((l) => new URL(l.href).pathname));
  assert.ok(preloaded.some((p) => p.startsWith('/js/pages/start.')), 'the start page\'s module');
  assert.ok(!preloaded.some((p) => /^\/js\/(ink|metro)\/game\./.test(p)), 'no game\'s');
  // (The worker's installer, loaded once the page has, is not part of the first load.)
  const modules = seen.filter((r) => r.pathname.startsWith('/js/') && !r.pathname.startsWith('/js/core/install.'));
  assert.equal(modules.length, preloads + 1, 'each module once, the entry and the preloaded');
  for (const r of seen) {
    assert.match(r.pathname, HASHED);
    assert.equal(r.headers['content-encoding'], 'br', r.pathname);
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable', r.pathname);
    assert.equal(r.headers.vary, 'Accept-Encoding', r.pathname);
  }
  assert.ok(seen.some((r) => r.pathname.startsWith('/css/app.')), 'the styles');
  const first = served();
  assert.deepEqual(first.filter((p) => !HASHED.test(p)), [], 'no file asked for by its plain name');

  // Another page of the app, opened afresh: only its own modules reach the server, each once;
  // the rest come from the browser's cache.
  await page.goto(`${env.url}/rules`);
  await page.waitForSelector('#app[data-screen=rules] h1');
  const next = served().slice(first.length);
  assert.ok(next.some((p) => p.startsWith('/js/ink/rules.')), `${next}`);
  for (const p of next) {
    assert.match(p, HASHED);
    assert.ok(!first.includes(p), `${p} again`);
  }
  assert.equal(new Set([...first, ...next]).size, first.length + next.length, 'no file twice');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
