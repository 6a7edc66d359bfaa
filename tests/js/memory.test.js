// Long runs must not grow the WASM heap or the JS heap: every allocation the API makes
// inside WASM is freed, and indexes are freed by dispose() or, if forgotten, by the
// FinalizationRegistry once collected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readFileSync } from 'node:fs';
import { SimHash } from '../../js/simhash.js';
import { readsHanTable } from '../../js/node-loader.js';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { random64, sh } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Collects until the JS heap settles, letting finalizers run in between. */
async function settledJsHeap() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().heapUsed;
}

function idfLifecycle(i) {
  const idf = sh.learnIdf([`text ${i}`, 'another text', '你好世界']);
  sh.fingerprint('text', { idf });
  sh.loadIdf(idf.toBytes()).dispose();
  idf.dispose();
}

function indexLifecycle(i) {
  const index = sh.createIndex({ maxDistance: i % 8 });
  index.addAll([BigInt(i), BigInt(i) ^ 3n, 0xffffn]);
  index.query(BigInt(i));
  index.remove(i % 3);
  sh.loadIndex(index.serialize()).dispose();
  index.dispose();
}

test('100,000 index lifecycles leave both heaps flat', async () => {
  for (let i = 0; i < 1000; i++) indexLifecycle(i); // warm-up: scratch buffers reach their size
  const wasmBefore = sh.heapBytesInUse;
  const memoryBefore = sh.memoryBytes;
  const jsBefore = await settledJsHeap();
  for (let i = 0; i < 100_000; i++) indexLifecycle(i);
  assert.equal(sh.heapBytesInUse, wasmBefore, 'WASM bytes in use');
  assert.equal(sh.memoryBytes, memoryBefore, 'WASM memory did not grow');
  const jsGrowth = (await settledJsHeap()) - jsBefore;
  assert.ok(jsGrowth < 2 ** 20, `JS heap grew by ${jsGrowth} bytes`);
});

function textIndexLifecycle(i) {
  const index = sh.createTextIndex({ similarity: 0.5 + (i % 5) / 10 });
  index.addAll([`text ${i}`, 'another text', '你好世界']);
  index.add(`text ${i}!`, 10);
  index.query(`text ${i}`);
  index.remove(i % 3);
  try {
    index.add('taken', 10);
  } catch {} // eslint-disable-line no-empty
  sh.loadTextIndex(index.serialize()).dispose();
  index.dispose();
}

test('10,000 text index lifecycles leave both heaps flat', async () => {
  // Ids of five digits throughout, so the serialized bytes (in the module's result buffer,
  // kept between calls) are as long in the warm-up as later.
  for (let i = 10_000; i < 11_000; i++) textIndexLifecycle(i);
  const wasmBefore = sh.heapBytesInUse;
  const memoryBefore = sh.memoryBytes;
  const jsBefore = await settledJsHeap();
  for (let i = 11_000; i < 21_000; i++) textIndexLifecycle(i);
  assert.equal(sh.heapBytesInUse, wasmBefore, 'WASM bytes in use');
  assert.equal(sh.memoryBytes, memoryBefore, 'WASM memory did not grow');
  const jsGrowth = (await settledJsHeap()) - jsBefore;
  assert.ok(jsGrowth < 2 ** 20, `JS heap grew by ${jsGrowth} bytes`);
});

/** Seeded random lines of letters: few of them share a band key. */
function randomLines(count, seed) {
  const next = random64(seed);
  return Array.from({ length: count }, () => Array.from({ length: 40 }, () => 'abcdefghijklmnopqrstuvwxyz   '[Number(next() % 29n)]).join(''));
}

test('a long add/query/remove stream on one text index stays within its first round\'s heap; dispose gives it all back', () => {
  const stored = randomLines(1000, 1);
  const passing = randomLines(5000, 2);
  // Bytes in use are sampled every 500 steps (each sample walks the heap): texts come and
  // go, so removed texts' bytes are reclaimed by later adds and the tables stay as large.
  const stream = (index, steps) => {
    let most = 0;
    for (let i = 0; i < steps; i++) {
      const id = index.add(passing[i % passing.length]);
      index.query(stored[i % stored.length]);
      index.remove(id);
      if (i % 500 === 0) most = Math.max(most, sh.heapBytesInUse);
    }
    return Math.max(most, sh.heapBytesInUse);
  };
  // A first index settles what the module keeps between calls (the result buffer) and the
  // allocator's free lists.
  const warm = sh.createTextIndex();
  warm.addAll(stored);
  stream(warm, 2000);
  warm.dispose();
  const heapBefore = sh.heapBytesInUse;
  const index = sh.createTextIndex();
  index.addAll(stored);
  const first = stream(index, 20_000);
  const later = stream(index, 100_000);
  assert.ok(later <= first, `${later} bytes in use over 100,000 more steps, ${first} over the first 20,000`);
  assert.equal(index.size, 1000);
  index.dispose();
  assert.equal(sh.heapBytesInUse, heapBefore, 'dispose frees everything the index held');
});

test('10,000 IDF lifecycles leave the WASM heap flat', () => {
  for (let i = 0; i < 100; i++) idfLifecycle(i);
  const before = sh.heapBytesInUse;
  for (let i = 0; i < 10_000; i++) idfLifecycle(i);
  assert.equal(sh.heapBytesInUse, before);
});

test('1,000,000 fingerprint calls leave both heaps flat', async () => {
  const texts = ['short', 'a somewhat longer English sentence, with punctuation.', '你妈妈喊你回家吃饭哦，回家罗回家罗', ''];
  for (let i = 0; i < 1000; i++) sh.fingerprint(texts[i % 4]);
  const wasmBefore = sh.heapBytesInUse;
  const memoryBefore = sh.memoryBytes;
  const jsBefore = await settledJsHeap();
  let check = 0n;
  for (let i = 0; i < 1_000_000; i++) check ^= sh.fingerprint(texts[i % 4]);
  assert.equal(check, 0n, 'each text is fingerprinted 250,000 times with the same result, so the XOR cancels');
  assert.equal(sh.heapBytesInUse, wasmBefore, 'WASM bytes in use');
  assert.equal(sh.memoryBytes, memoryBefore, 'WASM memory did not grow');
  const jsGrowth = (await settledJsHeap()) - jsBefore;
  assert.ok(jsGrowth < 2 ** 20, `JS heap grew by ${jsGrowth} bytes`);
});

test('forgotten indexes are freed by the FinalizationRegistry', async () => {
  const forget = () => {
    for (let i = 0; i < 1000; i++) {
      sh.createIndex().addAll([1n, 2n, 3n]);
      sh.createTextIndex().addAll(['one', 'two', 'three']);
    }
  };
  // A first round settles the allocator's free lists: malloc may hand a freed chunk back a
  // few bytes larger than asked when the rest is too small to split, and bytes in use count that.
  forget();
  for (let attempt = 0; attempt < 50; attempt++) await settledJsHeap();
  const before = sh.heapBytesInUse;
  forget();
  assert.ok(sh.heapBytesInUse > before, 'the indexes hold WASM memory');
  for (let attempt = 0; attempt < 50 && sh.heapBytesInUse > before; attempt++) await settledJsHeap();
  assert.equal(sh.heapBytesInUse, before);
});

test('a list of near-identical one-line records is grouped within bounded memory: grouping around central records declines them by their candidates', async () => {
  // 3,000 copies of one record, each with two of its first 30 characters replaced: nearly
  // every pair reaches the threshold, millions that grouping around central records would
  // hold (810 MiB unbounded; 38.5 MiB when the search stopped at its bound of pairs, 16 MiB
  // when the band keys' candidates decline it before any is decided), in a module instance
  // of its own: init()'s has grown with the tests before.
  const fresh = new SimHash(readsHanTable(await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) })));
  const next = random64(53);
  const record = 'john smith, 12 main street, springfield 2000, 19800101';
  const texts = Array.from({ length: 3000 }, () => {
    const letters = [...record];
    for (let k = 0; k < 2; k++) letters[1 + Number(next() % 29n)] = String.fromCharCode(97 + Number(next() % 26n));
    return letters.join('');
  });
  const result = await fresh.dedup(texts);
  const held = result.groups.flatMap((group) => group.slice(1)).concat(result.uniqueIndices);
  assert.equal(held.length, texts.length, 'every item kept or in a group once');
  assert.equal(new Set(held).size, texts.length);
  assert.ok(result.groups.length > 0 && result.groups.length < 500, `${result.groups.length} groups`);
  assert.ok(fresh.memoryBytes <= 32 * 2 ** 20, `WASM memory ${fresh.memoryBytes} bytes`);
});
