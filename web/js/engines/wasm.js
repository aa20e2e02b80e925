// The Railroad Ink and Metro engines in the page: the same Rust crates as the server's,
// compiled to WebAssembly (`crates/web-engines`), asked in JSON. Loaded only where a page
// needs the engines without the server (a game with no connection), never on a first load.
//
//   const engines = await loadEngines();
//   engines.ask({ op: 'ink.board', board: 'A2B65' });   // → { valid: true, score: {…} }

/** The module's address; the build writes its hashed name here. */
const WASM = '/wasm/engines.wasm';

/** Why the engines could not answer: a request they refused, in words. */
export class EngineError extends Error {}

/** The engines of an instantiated module: `ask(request)` answers a request (an object). */
export function engines(instance) {
  const { memory, input, call, output } = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    ask(request) {
      const bytes = encoder.encode(JSON.stringify(request));
      const at = input(bytes.length);
      new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
      const length = call();
      // Read after the call: the module's memory may have grown (a new buffer) meanwhile.
      const answer = JSON.parse(decoder.decode(new Uint8Array(memory.buffer, output(), length)));
      if (answer.error) throw new EngineError(answer.error);
      return answer;
    },
  };
}

let loading = null;

/** The engines, fetched and compiled once a page (from the service worker's copy offline). */
export function loadEngines() {
  loading ??= (async () => {
    const response = await fetch(WASM);
    if (!response.ok) throw new EngineError(`The game engines could not be loaded (HTTP ${response.status}).`);
    const { instance } = await WebAssembly.instantiateStreaming(response, {});
    return engines(instance);
  })();
  loading.catch(() => { loading = null; });
  return loading;
}
