// The engines in the page (WebAssembly, served by the server beside the page's files) agree
// with the server's on every line of the conformance corpus: each game's validity and scores,
// each broken board's or sequence's first illegal placement. Run in Node, on the bytes the
// server serves.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from '../harness.js';
import { engines } from '../../../web/js/engines/wasm.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const env = serverAndBrowser();

/** The lines of a conformance file (as copied into an engine's tests). */
function corpus(engine, name) {
  return readFileSync(join(repo, 'crates', engine, 'tests', 'data', name), 'utf8')
    .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** The engines as the server serves them: the loader names the module's hashed address. */
async function served() {
  const loader = await (await fetch(`${env.url}/js/engines/wasm.js`)).text();
  const path = loader.match(/const WASM = '([^']+)';/)[1];
  assert.match(path, /^\/wasm\/engines\.[0-9a-f]{16}\.wasm$/, 'a hashed name');
  const response = await fetch(`${env.url}${path}`, { headers: { 'accept-encoding': 'br' } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/wasm');
  assert.equal(response.headers.get('content-encoding'), 'br');
  assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  return engines(instance);
}

test('Railroad Ink: every conformance game scores as recorded, every broken board fails where recorded', async () => {
  const ink = await served();
  const games = corpus('railroad-ink', 'railroad-ink-games.jsonl');
  assert.equal(games.length, 300);
  for (const [i, game] of games.entries()) {
    const got = ink.ask({ op: 'ink.board', board: game.board });
    assert.equal(got.valid, true, `game ${i}`);
    for (const key of Object.keys(game.score)) assert.equal(got.score[key], game.score[key], `game ${i}: ${key}`);
  }
  const broken = corpus('railroad-ink', 'railroad-ink-invalid.jsonl');
  assert.equal(broken.length, 60);
  for (const [i, b] of broken.entries()) {
    const got = ink.ask({ op: 'ink.board', board: b.board });
    assert.equal(got.valid, b.valid, `case ${i} (${b.kind})`);
    if (!got.valid) {
      assert.equal(got.well_formed, b.well_formed, `case ${i} (${b.kind})`);
      assert.equal(got.first_illegal_index, b.first_illegal_index, `case ${i} (${b.kind})`);
      assert.ok(got.reason, `case ${i}: a reason in words`);
    }
  }
});

test('Metro: every conformance game scores as recorded for 2 to 6 players, every broken sequence fails where recorded', async () => {
  const metro = await served();
  const games = corpus('metro', 'metro-games.jsonl');
  assert.equal(games.length, 150);
  for (const [i, game] of games.entries()) {
    const got = metro.ask({ op: 'metro.sequence', sequence: game.sequence });
    assert.equal(got.valid, true, `game ${i}`);
    assert.deepEqual(got.scores, game.scores, `game ${i}`);
  }
  const broken = corpus('metro', 'metro-invalid.jsonl');
  assert.equal(broken.length, 40);
  for (const [i, b] of broken.entries()) {
    const got = metro.ask({ op: 'metro.sequence', sequence: b.sequence });
    assert.equal(got.valid, b.valid, `case ${i} (${b.kind})`);
    assert.equal(got.well_formed, b.well_formed, `case ${i} (${b.kind})`);
    assert.equal(got.first_illegal_index, b.first_illegal_index, `case ${i} (${b.kind})`);
  }
});

test('a request the engines cannot read is refused in words', async () => {
  const e = await served();
  assert.throws(() => e.ask({ op: 'chess' }), /the request cannot be read/);
  assert.throws(() => e.ask({ op: 'metro.sequence', sequence: '', players: [9] }), /players: 9 is not 2 to 6/);
  // The module still answers after a refusal.
  assert.equal(e.ask({ op: 'ink.board', board: '' }).valid, true);
});
