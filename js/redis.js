// `simhash-wasm/redis`: the text index shared by several processes through Redis (Node
// only; never in the browser bundle); it lives in redis/.
export { SharedTextIndex } from './redis/shared-index.js';
export { createSharedTextIndex } from './redis/open.js';
