// Entry for Node.js: reads the .wasm file itself and hands the bytes to the glue, which
// was built for web and worker environments only (no Node file-system code inside).
import { readFile } from 'node:fs/promises';
import createSimhashCore from './wasm/simhash_core.mjs';
import { SimHash } from './simhash.js';

export { DEFAULT_OPTIONS, DEFAULT_MAX_DISTANCE } from './defaults.js';
export { distance, toHex, fromHex } from './hamming.js';

let instance;

/**
 * Loads the WASM module once; later calls return the same instance.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 */
export function init(options = {}) {
  instance ??= (async () => {
    const wasmBinary = options.wasmBinary ?? (await readFile(new URL('./wasm/simhash_core.wasm', import.meta.url)));
    return new SimHash(await createSimhashCore({ ...options, wasmBinary }));
  })();
  instance.catch(() => { instance = undefined; }); // a failed load may be retried
  return instance;
}
