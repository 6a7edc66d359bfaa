// The package's pure helpers (no WASM), the one list of them: the ES entries (index.js,
// node.js) re-export this module, and .ci/cjs.js bundles it into helpers.cjs for the
// CommonJS entry (node.cjs).
export { DEFAULT_OPTIONS, DEFAULT_MAX_DISTANCE } from './core/defaults.js';
export { distance, toHex, fromHex } from './core/hamming.js';
export { DEFAULT_SIMILARITY, candidateRadius } from './core/thresholds.js';
