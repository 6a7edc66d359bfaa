// Entry for Node.js: reads the .wasm file itself and hands the bytes to the glue, which
// was built for web and worker environments only (no Node file-system code inside).
import createSimhashCore from './wasm/simhash_core.mjs';
import { nodeLoader } from './node-loader.js';

export * from './helpers.js';

/**
 * Loads the WASM module once; later calls return the same instance, or a new one once it is
 * unusable (a WebAssembly trap: README "Errors and memory").
 * @type {(options?: { wasmBinary?: ArrayBuffer | Uint8Array }) => Promise<import('./simhash.js').SimHash>}
 */
export const init = nodeLoader(createSimhashCore, new URL('./wasm/simhash_core.wasm', import.meta.url));
