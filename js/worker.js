// `simhash-wasm/worker`: createPool, the API of simhash.js run in a pool of Web Workers
// (browsers) or worker_threads (Node); the pool itself is in pool/.
export { createPool } from './pool/create-pool.js';
