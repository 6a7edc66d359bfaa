// Entry for browsers, workers and bundlers: the .wasm file is fetched from beside the
// glue module (new URL(..., import.meta.url)), which bundlers such as Vite follow.
import createSimhashCore from './wasm/simhash_core.mjs';
import { SimHash } from './simhash.js';

export { DEFAULT_OPTIONS, DEFAULT_MAX_DISTANCE } from './defaults.js';
export { distance, toHex, fromHex } from './hamming.js';

let instance;

/**
 * Loads the WASM module once; later calls return the same instance.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, locateFile?: (file: string) => string }} [options]
 */
export function init(options = {}) {
  instance ??= createSimhashCore({ ...options }).then((core) => new SimHash(core));
  instance.catch(() => { instance = undefined; }); // a failed load may be retried
  return instance;
}
