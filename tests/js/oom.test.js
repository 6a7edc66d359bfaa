// Out of memory inside WASM is a catchable Error, not a dead module: a build capped at
// 32 MB (.ci/build.sh makes build/wasm/capped) is run out of memory in every way the API
// allocates, and keeps answering correctly afterwards.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SimHash } from '../../js/simhash.js';
import { readsHanTable } from '../../js/node-loader.js';
import { sh as reference } from './helpers.js';

const BUILD = new URL('../../build/wasm/capped/', import.meta.url);
const OUT_OF_MEMORY = /out of WebAssembly memory/;
let sh;

before(async () => {
  const { default: createSimhashCore } = await import(new URL('simhash_core.mjs', BUILD));
  sh = new SimHash(readsHanTable(await createSimhashCore({ wasmBinary: readFileSync(new URL('simhash_core.wasm', BUILD)) })));
});

function stillWorks() {
  const text = 'the module still answers correctly';
  assert.equal(sh.fingerprint(text), reference.fingerprint(text));
  const index = sh.createIndex();
  index.addAll([1n, 3n, 0xffffffff00000000n]);
  assert.deepEqual(index.query(1n).map((m) => m.id), [0, 1]);
  index.dispose();
  assert.equal(sh.findPairs([5n, 5n, 6n], 2).a.length, 3);
}

test('a text too big for memory', () => {
  assert.throws(() => sh.fingerprint('x'.repeat(40 << 20)), OUT_OF_MEMORY);
  stillWorks();
});

test('an index grown past memory', () => {
  const index = sh.createIndex({ maxDistance: 3 });
  const batch = new BigUint64Array(100_000);
  let added = 0;
  assert.throws(() => {
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < batch.length; i++) batch[i] = BigInt(round * batch.length + i) * 0x9e3779b97f4a7c15n & ((1n << 64n) - 1n);
      index.addAll(batch);
      index.query(batch[0]); // folds pending items into the tables
      added += batch.length;
    }
  }, OUT_OF_MEMORY);
  assert.ok(added > 0, 'some batches fit before memory ran out');
  assert.equal(index.size, added, 'the batch that failed added nothing, the earlier ones are all there');
  assert.equal(index.query(BigInt(12345) * 0x9e3779b97f4a7c15n & ((1n << 64n) - 1n))[0]?.distance, 0, 'a stored item is still found');
  index.dispose();
  stillWorks();
});

test('more pairs than memory holds', () => {
  const same = new BigUint64Array(20_000).fill(7n); // 200 million pairs at distance 0
  assert.throws(() => sh.findPairs(same, 0), { name: 'RangeError', message: /findPairs would produce 199990000 pairs/ });
  // Distinct fingerprints whose pairs outgrow the 32 MB of this build: every pair at k = 64.
  const distinct = BigUint64Array.from({ length: 3000 }, (_, i) => BigInt(i) * 0x9e3779b97f4a7c15n & ((1n << 64n) - 1n));
  const before = sh.heapBytesInUse;
  assert.throws(() => sh.findPairs(distinct, 64), OUT_OF_MEMORY);
  assert.equal(sh.heapBytesInUse, before, 'the failed call freed what it had allocated');
  stillWorks();
});
