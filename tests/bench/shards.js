// `node tests/bench/shards.js [N [K [SHARDS...]]]`: how the pair search's work divides
// between shards, free of the machine's load: the shards of findPairs' search over N
// uniform fingerprints with planted neighbours (planted.js) at k = K, run one after
// another in this thread, each with its CPU time (the pool runs one shard per worker).
// Defaults: N = 1,000,000, K = 10, shard counts 1 2 4, each measured twice (after a
// warm-up run, so that the WASM code is optimized).
import { readFileSync } from 'node:fs';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { searchShard } from '../../js/bindings/pairs.js';
import { plantedFingerprints } from './planted.js';

const [n = 1_000_000, k = 10, ...counts] = process.argv.slice(2).map(Number);
if (counts.length === 0) counts.push(1, 2, 4);
const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });
const fps = plantedFingerprints(n, k, 42);
await searchShard(core, fps, k, 0, 1, {}, () => {}); // warm-up
console.log(`N = ${n.toLocaleString('en')}, k = ${k}: CPU seconds of each shard, run one after another`);
for (let round = 0; round < 2; round++) {
  for (const shards of counts) {
    const seconds = [];
    let pairs = 0;
    for (let shard = 0; shard < shards; shard++) {
      const used = process.cpuUsage();
      const { words } = await searchShard(core, fps, k, shard, shards, {}, () => {});
      const { user, system } = process.cpuUsage(used);
      seconds.push((user + system) / 1e6);
      pairs += words.length / 3;
    }
    const total = seconds.reduce((x, y) => x + y, 0);
    console.log(`${shards} shard(s): ${seconds.map((s) => s.toFixed(2)).join(' + ')} = ${total.toFixed(2)} s, longest ${Math.max(...seconds).toFixed(2)} s, ${pairs} pairs`);
  }
}
