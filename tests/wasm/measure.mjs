// The engines in the page, measured: the WebAssembly module's size as served (raw, brotli at
// quality 11, gzip at level 9: what the server's build sends) and how long the engines take to
// answer in V8 (Node's, Chromium's engine): a move of a solo Railroad Ink game (the whole log
// replayed, as the page does), and a computer's turn of Metro at each level.
//
//   cargo build --release -p tracklayer     # builds the module too (target/wasm-engines/)
//   node tests/wasm/measure.mjs [GAMES]     # GAMES Metro games a level (default 5)

import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engines } from '../../web/js/engines/wasm.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = process.env.CARGO_TARGET_DIR || join(repo, 'target');
const file = join(target, 'wasm-engines', 'wasm32-unknown-unknown', 'wasm', 'web_engines.wasm');
const bytes = readFileSync(file);
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`module: ${kib(bytes.length)} raw, ${kib(br)} brotli, ${kib(gzipSync(bytes, { level: 9 }).length)} gzip`);

const started = performance.now();
const { instance } = await WebAssembly.instantiate(bytes, {});
console.log(`compiled and instantiated in ${(performance.now() - started).toFixed(1)} ms`);
const e = engines(instance);

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x) => `${x.toFixed(2)} ms`;

// Railroad Ink: a solo game, the first legal die each time, each answer replaying the log.
const inkTimes = [];
for (let seed = 1; seed <= 5; seed++) {
  const actions = [];
  for (;;) {
    const t = performance.now();
    const st = e.ask({ op: 'ink.play', seed: String(seed), actions });
    inkTimes.push(performance.now() - t);
    if (st.finished) break;
    const die = st.you.dice.find((d) => !d.used && !d.optional && d.legal.some((l) => l.length));
    if (!die) { actions.push({ action: 'end-round' }); continue; }
    const o = die.legal.findIndex((l) => l.length);
    actions.push({ action: 'place', placement: `${die.tile}${die.legal[o].slice(0, 2)}${o}` });
  }
}
console.log(`Railroad Ink, an answer of a solo game: median ${ms(quantile(inkTimes, 0.5))}, p95 ${ms(quantile(inkTimes, 0.95))}, max ${ms(Math.max(...inkTimes))} (${inkTimes.length} answers)`);

// Metro: the person (first legal square) against one computer; each answer after the person's
// turn holds the computer's whole turn.
const games = Number(process.argv[2] || 5);
for (const level of ['random', 'greedy', 'strong']) {
  const turns = [];
  for (let seed = 1; seed <= games; seed++) {
    const seats = [{ kind: 'human' }, { kind: 'computer', level }];
    let actions = [];
    for (;;) {
      const t = performance.now();
      const st = e.ask({ op: 'metro.play', seed: String(seed), seats, actions, you: 0 });
      if (st.computers.length) turns.push(performance.now() - t);
      actions = [...actions, ...st.computers];
      if (st.over) break;
      const action = st.you.draw.allowed ? 'draw' : st.you.legal ? { place: st.you.legal.slice(0, 2) } : 'keep';
      actions.push({ seat: 0, action });
    }
  }
  console.log(`Metro, a computer's turn (${level}): median ${ms(quantile(turns, 0.5))}, p95 ${ms(quantile(turns, 0.95))}, max ${ms(Math.max(...turns))} (${turns.length} turns)`);
}
