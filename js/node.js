// Entry for Node.js: reads the .wasm file itself and hands the bytes to the glue, which
// was built for web and worker environments only (no Node file-system code inside).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import createSimhashCore from './wasm/simhash_core.mjs';
import { SimHash } from './simhash.js';
import { isUsable } from './core/traps.js';
import { wasmLoadError } from './core/environment.js';

export * from './helpers.js';

let instance;
let loaded; // the instance once it has loaded

/**
 * Loads the WASM module once; later calls return the same instance, or a new one once it is
 * unusable (a WebAssembly trap: README "Errors and memory").
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 */
export function init(options = {}) {
  if (loaded && !isUsable(loaded)) instance = loaded = undefined;
  instance ??= load(options).then((sh) => (loaded = sh));
  instance.catch(() => { instance = undefined; }); // a failed load may be retried
  return instance;
}

async function load(options) {
  if (options.wasmBinary) {
    try {
      return new SimHash(await createSimhashCore({ ...options }));
    } catch (error) {
      throw await wasmLoadError(error, null);
    }
  }
  const file = fileURLToPath(new URL('./wasm/simhash_core.wasm', import.meta.url));
  try {
    return new SimHash(await createSimhashCore({ ...options, wasmBinary: await readFile(file) }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`simhash-wasm: could not load its WebAssembly module ${file} (${reason}); reinstall the package, or pass the bytes: init({ wasmBinary })`, { cause: error });
  }
}
