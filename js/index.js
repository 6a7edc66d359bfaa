// Entry for browsers, workers and bundlers: the .wasm file is fetched from beside the
// glue module (new URL(..., import.meta.url)), which bundlers such as Vite follow.
import createSimhashCore from './wasm/simhash_core.mjs';
import { SimHash } from './simhash.js';
import { isUsable } from './core/traps.js';
import { wasmLoadError } from './core/environment.js';

export * from './helpers.js';

let instance;
let loaded; // the instance once it has loaded

/**
 * Loads the WASM module once; later calls return the same instance, or a new one once it
 * is unusable (a WebAssembly trap: README "Errors and memory"). A module that cannot
 * be loaded rejects with an Error naming the URL tried and how to fix it.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, locateFile?: (file: string, scriptDirectory: string) => string }} [options]
 */
export function init(options = {}) {
  if (loaded && !isUsable(loaded)) instance = loaded = undefined;
  instance ??= load(options).then((sh) => (loaded = sh));
  instance.catch(() => { instance = undefined; }); // a failed load may be retried
  return instance;
}

async function load(options) {
  // The URL the glue fetches: its own `new URL('simhash_core.wasm', import.meta.url)`, which
  // bundlers rewrite exactly as they rewrite this literal one, or what locateFile says.
  let url = options.wasmBinary ? null : new URL('./wasm/simhash_core.wasm', import.meta.url).href;
  const { locateFile } = options;
  try {
    return new SimHash(await createSimhashCore({
      ...options,
      ...(locateFile && { locateFile: (file, directory) => {
        const located = new URL(locateFile(file, directory), location.href).href;
        if (file.endsWith('.wasm')) url = located;
        return located;
      } }),
    }));
  } catch (error) {
    throw await wasmLoadError(error, url);
  }
}
