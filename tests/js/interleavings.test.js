// Calls that overlap on one instance give the answers they give alone (tests/js/
// interleavings.js, in seeded random schedules), on 30,000 real texts too; a WebAssembly
// trap rejects the call that hit it, ends the calls under way and makes the instance
// unusable, never escaping as an uncaught exception; the pool runs jobs at once, one of
// them aborted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { SimHash } from '../../js/simhash.js';
import { readsHanTable } from '../../js/node-loader.js';
import { createPool } from '../../js/worker.js';
import { sh } from './helpers.js';
import { dedupDigest, runInterleavings, sampleTexts } from './interleavings.js';
import { makeTexts } from '../bench/fortune-texts.js';

test('randomized interleavings: dedups at once, calls from onProgress and beside, aborts; every answer as alone', async () => {
  await runInterleavings(sh, { seed: 0, count: 1000 }); // warm-up: the module's reusable buffers reach their size
  for (const seed of [1, 2, 3]) {
    const before = sh.heapBytesInUse;
    const { compared, overlapped, outcomes } = await runInterleavings(sh, { seed, count: 6000 });
    assert.ok(compared > 20 && overlapped > 5, `seed ${seed}: ${compared} answers compared, ${overlapped} reports while another dedup ran`);
    assert.equal(outcomes.length, 4);
    // The reusable buffers may still reach a new high-water mark (a few hundred bytes, once);
    // a handle an aborted dedup left behind would hold its sets or fingerprints (48 KB and up).
    const grown = sh.heapBytesInUse - before;
    assert.ok(grown < 4096, `seed ${seed}: ${grown} bytes more in use after the run`);
  }
});

test('two dedups of 30,000 texts at once, and one with calls in its onProgress, give the groups they give alone', { skip: !existsSync('/usr/share/games/fortunes/computers') && 'needs fortunes' }, async () => {
  const { texts } = makeTexts(60_000);
  const [a, b] = [texts.slice(0, 30_000), texts.slice(30_000)];
  const alone = [dedupDigest(await sh.dedup(a)), dedupDigest(await sh.dedup(b))];
  const atOnce = await Promise.all([sh.dedup(a), sh.dedup(b)]);
  assert.deepEqual(atOnce.map(dedupDigest), alone);
  const index = sh.createTextIndex();
  index.addAll(b.slice(0, 1000));
  try {
    let calls = 0;
    const result = await sh.dedup(a, {
      onProgress() {
        calls++;
        sh.similarity(a[calls], b[calls]);
        sh.similarities(b.slice(0, 100), { a: Uint32Array.of(1, 2, 3), b: Uint32Array.of(4, 5, 6) });
        sh.fingerprintAll(b.slice(calls, calls + 100));
        sh.findPairs(sh.fingerprintAll(b.slice(0, 200)), 6);
        index.query(a[calls]);
      },
    });
    assert.ok(calls > 5, `onProgress was called ${calls} times`);
    assert.equal(dedupDigest(result), alone[0]);
  } finally {
    index.dispose();
  }
});

/** A SimHash of its own module instance, and that instance (for a forced trap). */
async function ownInstance() {
  const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });
  return { core, sh: new SimHash(readsHanTable(core)) };
}

test('a forced WebAssembly trap rejects the call that hit it, ends the dedup under way, and every later call says the instance is unusable', async () => {
  const { core, sh: own } = await ownInstance();
  const texts = sampleTexts(8000, 7);
  const textIndex = own.createTextIndex();
  textIndex.add('hello world');
  const idf = own.learnIdf(texts.slice(0, 100));
  // A real trap: the core's grouping run given an address past the end of WASM memory.
  // Module._similarGroupsRun is a stub that replaces itself with the WASM export when first
  // called: one dedup first, so that the wrapper set below stays in place.
  await own.dedup(texts.slice(0, 50));
  const run = core._similarGroupsRun;
  let runs = 0;
  core._similarGroupsRun = (groups, work) => run(++runs === 2 ? 0xfffffff0 : groups, work);
  const uncaught = [];
  const onUncaught = (error) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  try {
    const settled = await Promise.allSettled([own.dedup(texts), own.dedup(texts.slice(1))]);
    assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected'], 'the dedup under way does not return what it computed on a trapped instance');
    // Either dedup may make the second run of the grouping: that one trapped, the other ended.
    const trapped = settled.find((s) => s.reason.cause instanceof WebAssembly.RuntimeError);
    const ended = settled.find((s) => s !== trapped);
    assert.match(trapped?.reason.message ?? '', /simhash-wasm: sh\.dedup\(\) hit a WebAssembly trap \(memory access out of bounds\); this instance is unusable now/);
    const unusable = /simhash-wasm: this instance is unusable since sh\.dedup\(\) hit a WebAssembly trap/;
    assert.match(ended.reason.message, unusable);
    for (const call of [() => own.fingerprint('x'), () => own.similarity('a', 'b'), () => own.heapBytesInUse,
      () => textIndex.query('hello world'), () => textIndex.size, () => idf.toBytes(), () => own.createIndex()]) {
      assert.throws(call, unusable);
    }
    await assert.rejects(own.dedup(['a', 'b']), unusable);
    textIndex.dispose(); // nothing to free on an unusable instance: no throw
    idf.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  }
  // Other instances are untouched.
  assert.equal(sh.similarity('hello world', 'hello world'), 1);
});

test('a trap in a forgotten object\'s finalizer is not an uncaught exception', async () => {
  const { core, sh: own } = await ownInstance();
  const uncaught = [];
  const onUncaught = (error) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    core._textIndexDelete = () => core._simhash_text_index_size(0xfffffff0); // traps
    (() => { own.createTextIndex().add('forgotten'); })();
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    let deleted = false;
    for (let i = 0; i < 20 && !deleted; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
      try {
        own.fingerprint('x');
      } catch (error) {
        deleted = /unusable since a finalizer \(_textIndexDelete\) hit a WebAssembly trap/.test(error.message);
      }
    }
    assert.ok(deleted, 'the finalizer ran, trapped, and marked the instance unusable');
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

test('the pool: two jobs at once, and one aborted while the other runs, each as alone', async () => {
  const texts = sampleTexts(12_000, 11);
  const other = sampleTexts(12_000, 12);
  const alone = [dedupDigest(await sh.dedup(texts)), dedupDigest(await sh.dedup(other, { grouping: 'components' }))];
  const pool = await createPool({ size: 2 });
  try {
    const both = await Promise.all([pool.dedup(texts), pool.dedup(other, { grouping: 'components' })]);
    assert.deepEqual(both.map(dedupDigest), alone);
    const controller = new AbortController();
    const aborted = pool.dedup(other, { signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) });
    const running = pool.dedup(texts);
    await assert.rejects(aborted, { message: 'stop' });
    assert.equal(dedupDigest(await running), alone[0]);
    assert.deepEqual((await pool.fingerprintAll(texts.slice(0, 100))), sh.fingerprintAll(texts.slice(0, 100)));
  } finally {
    await pool.terminate();
  }
});

test('IDF weights disposed while a dedup uses them make it reject, not read freed memory', async () => {
  const texts = sampleTexts(12_000, 13); // more than one slice of fingerprints
  const idf = sh.learnIdf(texts.slice(0, 500));
  let reports = 0;
  await assert.rejects(sh.dedup(texts, {
    options: { idf },
    onProgress: ({ phase }) => {
      if (phase === 'fingerprint' && ++reports === 2) idf.dispose();
    },
  }), { message: 'options.idf has been disposed' });
  assert.equal(sh.similarity('hello world', 'hello world'), 1, 'the instance still answers');
});
