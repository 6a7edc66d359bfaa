// simhash-wasm/worker in Node (worker_threads): the same results as the single-threaded API,
// bit for bit and in order, on random and real text (Debian's fortunes); progress; prompt
// cancellation that stops the workers running the call; errors; terminate. Records: pool-records.test.js.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { sh, plantedSet, random64 } from './helpers.js';
import { HAS_PROC, TIMER_SLACK_MS, assertAbortStops, startedWhen, threads, waitFor } from './pool-helpers.js';
import { editWords } from '../bench/fortune-texts.js';
import { createPool } from '../../js/worker.js';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { mergeSortedTriplesSteps, searchItemShard, searchShard, sortPairs, splitTriples } from '../../js/bindings/pairs.js';
import { Pacer, runSteps } from '../../js/core/pacing.js';
import { poolPairs } from '../../js/pool/search.js';

const FORTUNES = '/usr/share/games/fortunes';
const HAS_FORTUNES = existsSync(FORTUNES);
const NO_FORTUNES = !HAS_FORTUNES && `${FORTUNES} missing (apt-get install fortunes)`;

/**
 * The longest wall-clock time without a report (from the call, between reports, to the end)
 * of `run(onProgress)`, at best over up to 3 runs: other test files running at once on 2 cores
 * can stretch one run's gaps, while a call that reports too rarely is slow in all 3. `run`
 * makes its own assertions on each run's reports.
 */
async function shortestLongestGap(t, run) {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best > 100 + TIMER_SLACK_MS; attempt++) {
    const times = [performance.now()];
    const reports = [];
    await run((p) => { times.push(performance.now()); reports.push(p); });
    times.push(performance.now());
    const gaps = times.slice(1).map((at, i) => at - times[i]);
    const gap = Math.max(...gaps);
    const where = gaps.indexOf(gap);
    const after = where === 0 ? 'the call' : `report ${where} (${reports[where - 1].phase} ${reports[where - 1].done}/${reports[where - 1].total})`;
    t.diagnostic(`${reports.length} reports over ${(times.at(-1) - times[0]).toFixed(0)} ms, longest gap ${gap.toFixed(1)} ms, after ${after}`);
    best = Math.min(best, gap);
  }
  return best;
}

/** Records of every plain fortunes file (a .dat is an index, a .u8 a symlink), ANSI colours removed. */
function fortunes() {
  const records = [];
  for (const name of readdirSync(FORTUNES).sort()) {
    const path = join(FORTUNES, name);
    if (name.endsWith('.dat') || !lstatSync(path).isFile()) continue;
    for (const record of readFileSync(path, 'utf8').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split(/^%$/m)) {
      if (record.trim()) records.push(record.trim());
    }
  }
  return records;
}

/** The records, then edited copies of them (a word dropped, repeated or swapped) up to n texts. */
function withEdits(records, n, seed) {
  const next = random64(seed);
  const pick = (count) => Number(next() % BigInt(count));
  const texts = records.slice(0, n);
  while (texts.length < n) {
    texts.push(editWords(records[pick(records.length)].split(' '), pick, () => records[pick(records.length)].split(' ')[0]).join(' '));
  }
  return texts;
}

/** n random fingerprints (mulberry32), fast to make in bulk. */
function randomFingerprints(n, seed) {
  const words = new Uint32Array(n * 2);
  let state = seed >>> 0;
  for (let i = 0; i < words.length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    words[i] = (z ^ (z >>> 14)) >>> 0;
  }
  return new BigUint64Array(words.buffer);
}

/** Seeded texts of every kind the tokenizer meets: words, CJK, emoji, marks, lone surrogates, empty. */
function randomTexts(count, seed) {
  const next = random64(seed);
  const pick = (n) => Number(next() % BigInt(n));
  const pieces = ['the', 'Cat', 'SAT', 'naïve', 'Straße', 'ΣΊΣΥΦΟΣ', 'мир', '回家', '吃饭哦', 'カタカナ', '한국어',
    '😀', 'e\u0301', '\ud800', '\udfff', '42', '...', '\t', ' ', '', 'Ａｂｃ', 'ǅ'];
  const texts = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let n = pick(40); n > 0; n--) text += pieces[pick(pieces.length)] + (pick(3) ? ' ' : '');
    texts.push(text);
  }
  return texts;
}

function assertSameDedup(actual, expected) {
  assert.deepEqual(actual.fingerprints, expected.fingerprints);
  assert.deepEqual(actual.uniqueIndices, expected.uniqueIndices);
  assert.deepEqual(actual.groups, expected.groups);
  assert.equal(actual.unique.length, expected.unique.length);
  for (let i = 0; i < expected.unique.length; i++) assert.equal(actual.unique[i], expected.unique[i]); // the same objects
}

let pool;
let real; // fortunes with edits, 40,000 texts

before(async () => {
  pool = await createPool({ size: 2 });
  if (HAS_FORTUNES) real = withEdits(fortunes(), 40_000, 7);
});

after(() => pool.terminate());

describe('the same results as the single-threaded API', () => {
  test('fingerprintAll on random texts with every option, across chunk boundaries', async () => {
    const texts = randomTexts(6000, 1);
    texts.splice(100, 0, 'long '.repeat(120_000), '長'.repeat(600_000), ''); // each longer than one chunk
    texts.splice(3000, 0, 'lone \uD800 surrogate', '\uDFFF', 'pair 😀 and \uDBFF\uDBFF', 'ＦＵＬＬ　ｗｉｄｔｈ'); // encoded on the calling thread
    for (const options of [undefined, { tokenizer: 'chars', charNgram: 3 }, { tokenizer: 'words', wordNgram: 2, caseFold: false, weighting: 'binary' }]) {
      assert.deepEqual(await pool.fingerprintAll(texts, options), sh.fingerprintAll(texts, options), JSON.stringify(options));
    }
    const few = texts.slice(0, 1500); // Intl.Segmenter is slow: fewer texts
    for (const options of [{ tokenizer: 'segmenter' }, { tokenizer: 'separated', nfkc: true }]) {
      assert.deepEqual(await pool.fingerprintAll(few, options), sh.fingerprintAll(few, options), JSON.stringify(options));
    }
  });

  test('fingerprintAll with IDF weights learned on the calling thread (each worker loads its copy)', async () => {
    const texts = randomTexts(5000, 11);
    const weights = [];
    try {
      // More weights than a worker keeps at once, each used twice: workers drop and reload them.
      for (let i = 0; i < 10; i++) weights.push(sh.learnIdf(texts.slice(i * 100, i * 100 + 2000), { tokenizer: i % 2 ? 'words' : 'auto', weighting: 'binary' }));
      for (const idf of [...weights, ...weights]) {
        assert.deepEqual(await pool.fingerprintAll(texts, { idf }), sh.fingerprintAll(texts, { idf }));
      }
      const idf = weights[1];
      assert.deepEqual(await pool.dedup(texts, { options: { idf, tokenizer: 'words' } }), await sh.dedup(texts, { options: { idf, tokenizer: 'words' } }));
      // Weights learned with NFKC: their texts go to the workers as strings, to be normalized there.
      weights.push(sh.learnIdf(texts.slice(0, 2000), { nfkc: true }));
      const nfkcTexts = [...texts.slice(0, 500), 'ﬁne ① ㍻ ｶﾀｶﾅ', 'fine 1 平成 カタカナ'];
      assert.deepEqual(await pool.fingerprintAll(nfkcTexts, { idf: weights.at(-1) }), sh.fingerprintAll(nfkcTexts, { idf: weights.at(-1) }));
    } finally {
      for (const idf of weights) idf.dispose();
    }
  });

  test('dedup of fortunes with edits: leader and components, k = 3 and 9, items with a key', { skip: NO_FORTUNES }, async () => {
    const items = real.map((text, id) => ({ id, text }));
    for (const [maxDistance, grouping] of [[3, 'leader'], [9, 'components']]) {
      const options = { key: (item) => item.text, maxDistance, grouping };
      const expected = await sh.dedup(items, options);
      assert.ok(expected.groups.length > 1000, `${expected.groups.length} groups`);
      assertSameDedup(await pool.dedup(items, options), expected);
    }
    const chars = { tokenizer: 'chars', charNgram: 4 };
    assertSameDedup(await pool.dedup(real, { options: chars }), await sh.dedup(real, { options: chars }));
  });

  test('dedup by similarity (the default, and explicit thresholds and radii), leader and components', { skip: NO_FORTUNES }, async () => {
    const texts = real.slice(0, 12_000);
    for (const options of [{}, { similarity: 0.6 }, { similarity: 0.9, maxDistance: 10, grouping: 'components' }]) {
      const expected = await sh.dedup(texts, options);
      const reports = [];
      assertSameDedup(await pool.dedup(texts, { ...options, onProgress: (p) => reports.push(p) }), expected);
      const phases = reports.map((r) => r.phase).filter((phase, i, all) => phase !== all[i - 1]);
      assert.deepEqual(phases, ['fingerprint', 'pairs', 'groups']);
    }
  });


  test('dedup of random texts, many of them identical (empty, one word)', async () => {
    const texts = randomTexts(20_000, 2);
    assertSameDedup(await pool.dedup(texts, { maxDistance: 5 }), await sh.dedup(texts, { maxDistance: 5 }));
  });

  test('findPairs on planted neighbours, from a BigUint64Array (left usable) and from bigints', async () => {
    const fps = BigUint64Array.from(plantedSet(3000, 9, 3));
    for (const k of [0, 3, 9]) assert.deepEqual(await pool.findPairs(fps, k), sh.findPairs(fps, k), `k = ${k}`);
    assert.equal(fps.length, 33_000, 'the caller\'s array is not transferred away');
    const list = [...fps.subarray(0, 500)];
    assert.deepEqual(await pool.findPairs(list), sh.findPairs(list));
  });

  test('empty input', async () => {
    assert.deepEqual(await pool.fingerprintAll([]), new BigUint64Array(0));
    assert.deepEqual(await pool.findPairs([]), sh.findPairs([]));
    assertSameDedup(await pool.dedup([]), await sh.dedup([]));
  });

  test('size defaults to os.availableParallelism(); a pool of one worker works too', async () => {
    const defaultPool = await createPool();
    const single = await createPool({ size: 1 });
    try {
      assert.equal(defaultPool.size, availableParallelism());
      assert.deepEqual(await defaultPool.fingerprintAll(['a b c']), sh.fingerprintAll(['a b c']));
      assert.equal(single.size, 1);
      const texts = randomTexts(5000, 12);
      const [fps, result] = await Promise.all([single.fingerprintAll(texts), single.dedup(texts, { maxDistance: 4 })]);
      assert.deepEqual(fps, sh.fingerprintAll(texts));
      assertSameDedup(result, await sh.dedup(texts, { maxDistance: 4 }));
    } finally {
      await defaultPool.terminate();
      await single.terminate();
    }
  });
});

describe('the search split across the workers', () => {
  const pools = {}; // size -> pool
  before(async () => {
    for (const size of [1, 2, 3]) pools[size] = await createPool({ size });
  });
  after(() => Promise.all(Object.values(pools).map((p) => p.terminate())));

  /** The ops the pool posts while `body` runs. */
  async function postedOps(t, body) {
    const ops = [];
    const post = Worker.prototype.postMessage;
    t.after(() => { Worker.prototype.postMessage = post; });
    Worker.prototype.postMessage = function (message, ...rest) {
      ops.push(message.op);
      return post.call(this, message, ...rest);
    };
    try {
      await body();
    } finally {
      Worker.prototype.postMessage = post;
    }
    return ops;
  }

  /** Fingerprints whose high 40 bits take 6 values (crowded buckets), with planted neighbours. */
  function skewedFingerprints(n, seed) {
    const next = random64(seed);
    const heads = Array.from({ length: 6 }, () => next() & ~0xffffffn);
    const fps = new BigUint64Array(n);
    for (let i = 0; i < n; i++) fps[i] = i % 7 === 6 ? fps[i - 1] ^ (1n << (next() % 64n)) ^ (1n << (next() % 64n)) : heads[Number(next() % 6n)] | (next() & 0xffffffn);
    return fps;
  }

  test('findPairs: every k around the planted distances, with and without duplicates, uniform and skewed, pools of 1-3', async (t) => {
    const planted = BigUint64Array.from(plantedSet(1500, 13, 21)); // neighbours at every distance 0..13
    const duplicated = BigUint64Array.from([...planted.subarray(0, 4000), ...planted.subarray(0, 500), 7n, 7n, 7n]);
    const skewed = skewedFingerprints(6000, 22);
    const ops = await postedOps(t, async () => {
      for (const [name, fps] of [['planted', planted], ['duplicated', duplicated], ['skewed', skewed]]) {
        for (const k of [0, 3, 6, 10, 12]) {
          const expected = sh.findPairs(fps, k);
          for (const size of [1, 2, 3]) assert.deepEqual(await pools[size].findPairs(fps, k), expected, `${name}, k = ${k}, ${size} workers`);
        }
      }
    });
    assert.ok(ops.filter((op) => op === 'itemPairShard').length >= 3 * 5 * 6, 'each worker searched a shard');
    assert.ok(!ops.includes('group'));
  });

  test('the shards a worker runs: their union is findPairs\' answer; past maxCandidates a shard gives up (the leader fallback)', async () => {
    const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });
    const fps = BigUint64Array.from(plantedSet(800, 12, 25));
    for (const k of [2, 7, 12]) {
      for (const shards of [1, 2, 3, 5]) {
        let words = [];
        for (let shard = 0; shard < shards; shard++) words = words.concat(Array.from((await searchShard(core, fps, k, shard, shards, {}, () => {})).words));
        assert.deepEqual(sortPairs(fps.length, splitTriples(words, words.length / 3)), sh.findPairs(fps, k), `k = ${k}, ${shards} shards`);
      }
    }
    const all = (await searchShard(core, fps, 12, 0, 1, {}, () => {})).candidates;
    assert.deepEqual(await searchShard(core, fps, 12, 0, 1, { maxCandidates: all }, () => {}).then((r) => r.words.length / 3), all);
    const past = await searchShard(core, fps, 12, 0, 1, { maxCandidates: all - 1 }, () => {});
    assert.equal(past.words, null);
  });

  test('the item shards of findPairs: each sorted, together findPairs\' answer with the pairs of copies; past maxPairs a count and no pairs', async () => {
    const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });
    const planted = plantedSet(800, 12, 26);
    const fps = BigUint64Array.from([...planted, ...planted.slice(0, 50), ...planted.slice(0, 10), 5n, 5n]);
    const repeated = fps.length - new Set(fps).size;
    for (const k of [0, 2, 7, 12]) {
      const expected = sh.findPairs(fps, k);
      for (const shards of [1, 2, 3]) {
        const lists = [];
        let total = 0;
        for (let shard = 0; shard < shards; shard++) {
          const result = await searchItemShard(core, fps, k, shard, shards, 2 ** 27, () => {});
          assert.equal(result.repeated, repeated);
          assert.equal(result.words.length, 3 * result.total);
          lists.push(result.words);
          total += result.total;
        }
        assert.equal(total, expected.a.length, `k = ${k}, ${shards} shards`);
        assert.deepEqual(runSteps(mergeSortedTriplesSteps(lists)), expected, `k = ${k}, ${shards} shards`);
      }
    }
    const whole = await searchItemShard(core, fps, 7, 0, 1, 2 ** 27, () => {});
    const past = await searchItemShard(core, fps, 7, 0, 1, whole.total - 1, () => {});
    assert.deepEqual([past.words, past.total], [null, whole.total]);
  });

  test('poolPairs lists at most maxPairs across its shards: a shard over its share runs again when the union fits; past maxPairs the RangeError', async () => {
    const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });
    const planted = plantedSet(300, 8, 27);
    const fps = BigUint64Array.from([...planted, ...planted.slice(0, 40), 9n, 9n, 9n]); // the shards' shares differ
    const k = 6;
    const expected = sh.findPairs(fps, k);
    const total = expected.a.length;
    for (const size of [2, 3]) {
      const tasks = [];
      const scheduler = {
        size,
        task: (_job, body, { onProgress }) => {
          tasks.push([body.shard, body.maxPairs]);
          return searchItemShard(core, body.fingerprints, body.maxDistance, body.shard, body.shards, body.maxPairs, onProgress);
        },
      };
      const job = { report() {}, reportFromWorker() {}, guard: (promise) => promise, pacer: () => new Pacer({ sliceMs: Infinity }) };
      assert.deepEqual(await poolPairs(scheduler, job, fps, k, total), expected, `${size} shards`);
      const share = Math.floor(total / size);
      assert.ok(tasks.length > size, 'a shard ran again');
      assert.ok(tasks.slice(0, size).every(([, bound]) => bound === share));
      for (const [shard, bound] of tasks.slice(size)) assert.ok(shard < size && bound > share && bound <= total, `shard ${shard} again with room for ${bound}`);
      await assert.rejects(poolPairs(scheduler, job, fps, k, total - 1), { name: 'RangeError', message: new RegExp(`would produce ${total} pairs, more than the ${total - 1} it`) });
    }
  });

  test('findPairs: past 2^27 pairs the RangeError of SimHash#findPairs; the pool works afterwards', async () => {
    const fps = new BigUint64Array(16_385).fill(42n); // 16,385 * 16,384 / 2 pairs, just over 2^27
    const expected = (() => {
      try {
        sh.findPairs(fps, 0);
      } catch (error) {
        return error;
      }
      return null;
    })();
    assert.ok(expected instanceof RangeError);
    for (const size of [1, 2]) {
      await assert.rejects(pools[size].findPairs(fps, 0), { name: 'RangeError', message: expected.message });
      assert.deepEqual(await pools[size].findPairs(fps.subarray(0, 100), 0), sh.findPairs(fps.subarray(0, 100), 0));
    }
  });

  test('dedup of random texts, both groupings, by fingerprints and by similarity, pools of 1-3', async () => {
    const texts = randomTexts(6000, 23);
    for (const options of [{ maxDistance: 5 }, { maxDistance: 12, grouping: 'components' }, {}, { grouping: 'components' }, { similarity: 0.5, maxDistance: 14 }]) {
      const expected = await sh.dedup(texts, options);
      for (const size of [1, 2, 3]) assertSameDedup(await pools[size].dedup(texts, options), expected);
    }
  });

  test('dedup of fortunes with edits, both groupings, by fingerprints and by similarity, pools of 1-3', { skip: NO_FORTUNES }, async (t) => {
    const texts = real.slice(0, 15_000);
    const ops = await postedOps(t, async () => {
      for (const options of [{}, { grouping: 'components' }, { maxDistance: 9 }, { maxDistance: 6, grouping: 'components' }, { similarity: 0.7 }]) {
        const expected = await sh.dedup(texts, options);
        assert.ok(expected.groups.length > 200, `${expected.groups.length} groups`);
        for (const size of [1, 2, 3]) assertSameDedup(await pools[size].dedup(texts, options), expected);
      }
    });
    assert.ok(ops.includes('pairShard') && ops.includes('leaderPath'));
  });

  test('dedup, leader grouping of dense near-duplicates: one worker runs LeaderSearch, which lists no pairs', async (t) => {
    const texts = [];
    for (let i = 0; i < 3000; i++) texts.push(`Order ${i % 97} of customer ${i % 13}: shipped to the warehouse on day ${i % 31}, status ok`);
    for (const options of [{ maxDistance: 24 }, { similarity: 0.5, maxDistance: 24, measure: 'text' }]) {
      const expected = await sh.dedup(texts, options);
      const ops = await postedOps(t, async () => assertSameDedup(await pools[2].dedup(texts, options), expected));
      assert.ok(ops.includes('leaderPath') && ops.includes('group') && !ops.includes('pairShard'), ops.filter((op) => op !== 'fingerprintEncoded').join(' '));
    }
    const expected = await sh.dedup(texts, { maxDistance: 24, grouping: 'components' });
    assertSameDedup(await pools[2].dedup(texts, { maxDistance: 24, grouping: 'components' }), expected);
  });

  test('dedup: progress in thousandths through the pair phase; an abort there rejects at once and stops the workers', { skip: !HAS_PROC && 'needs /proc' }, async (t) => {
    const texts = randomTexts(30_000, 24);
    const reports = [];
    await pools[2].dedup(texts, { maxDistance: 12, grouping: 'components', onProgress: (p) => reports.push(p) });
    const pairs = reports.filter((r) => r.phase === 'pairs');
    assert.ok(pairs.every((r, i) => r.total === 1000 && (i === 0 || r.done >= pairs[i - 1].done)));
    assert.deepEqual(pairs.at(-1), { phase: 'pairs', done: 1000, total: 1000 });
    t.diagnostic(`${pairs.length} pair reports`);

    const controller = new AbortController();
    const { started, onProgress } = startedWhen((p) => p.phase === 'pairs' && p.done > 0);
    const call = pools[2].dedup(texts, { maxDistance: 12, signal: controller.signal, onProgress });
    await started;
    // Threads counted once searching: a worker idle since its memory grew is stopped, and restarted for work.
    await assertAbortStops(t, call, controller, threads());
    const small = texts.slice(0, 3000);
    assertSameDedup(await pools[2].dedup(small, { maxDistance: 12 }), await sh.dedup(small, { maxDistance: 12 }));
  });
});

describe('the calling thread', () => {
  test('posts at most one task per turn of the event loop (a chunk can cost a browser 40 ms to post)', async (t) => {
    // A post in the same task as another, before that task's microtasks ran out, is in the same turn.
    let postsThisTurn = 0;
    let most = 0;
    let posts = 0;
    const post = Worker.prototype.postMessage;
    t.after(() => { Worker.prototype.postMessage = post; });
    Worker.prototype.postMessage = function (...args) {
      if (postsThisTurn++ === 0) queueMicrotask(() => { postsThisTurn = 0; });
      most = Math.max(most, postsThisTurn);
      posts++;
      return post.apply(this, args);
    };
    const texts = randomTexts(20_000, 9);
    assert.deepEqual(await pool.fingerprintAll(texts), sh.fingerprintAll(texts));
    Worker.prototype.postMessage = post;
    assert.ok(posts >= 10, `${posts} posts`);
    assert.equal(most, 1, `${most} posts in one turn`);
  });
});

describe('progress', () => {
  test('dedup reports each phase in order, fingerprints as chunks finish, at least every 100 ms', { skip: NO_FORTUNES }, async (t) => {
    const gap = await shortestLongestGap(t, async (onProgress) => {
      const reports = [];
      await pool.dedup(real, { onProgress: (p) => { reports.push(p); onProgress(p); } });
      const phases = reports.map((r) => r.phase).filter((phase, i, all) => phase !== all[i - 1]);
      assert.deepEqual(phases, ['fingerprint', 'pairs', 'groups']);
      const fingerprint = reports.filter((r) => r.phase === 'fingerprint');
      assert.ok(fingerprint.length >= 20, `${fingerprint.length} fingerprint reports`);
      assert.ok(fingerprint.every((r, i) => r.total === real.length && (i === 0 || r.done >= fingerprint[i - 1].done)));
      assert.equal(fingerprint.at(-1).done, real.length);
      assert.deepEqual(reports.at(-1), { phase: 'groups', done: 1, total: 1 });
    });
    assert.ok(gap <= 100 + TIMER_SLACK_MS, `longest time without a report: at best ${gap.toFixed(1)} ms`);
  });

  test('findPairs reports the workers\' progress at least every 100 ms', async (t) => {
    const fps = randomFingerprints(1_000_000, 4); // long enough (over 150 ms) on an idle machine too
    const gap = await shortestLongestGap(t, async (onProgress) => {
      const reports = [];
      const start = performance.now();
      await pool.findPairs(fps, 6, { onProgress: (p) => { reports.push(p); onProgress(p); } });
      const ms = performance.now() - start;
      assert.ok(ms > 150, `the search took ${ms.toFixed(0)} ms: too short to show repeated reports`);
      assert.deepEqual(reports.at(-1), { phase: 'pairs', done: 1000, total: 1000 });
      assert.ok(reports.every((r, i) => r.phase === 'pairs' && r.total === 1000 && (i === 0 || r.done >= reports[i - 1].done)));
      assert.ok(reports.some((r) => r.done > 0 && r.done < 1000), 'reports as the workers search');
    });
    assert.ok(gap <= 100 + TIMER_SLACK_MS, `longest time without a report: at best ${gap.toFixed(1)} ms`);
  });

  test('fingerprintAll reports fingerprints done up to the total', async () => {
    const texts = randomTexts(10_000, 5);
    const reports = [];
    await pool.fingerprintAll(texts, undefined, { onProgress: (p) => reports.push(p) });
    assert.deepEqual(reports[0], { phase: 'fingerprint', done: 0, total: texts.length });
    assert.deepEqual(reports.at(-1), { phase: 'fingerprint', done: texts.length, total: texts.length });
  });
});

describe('cancellation', () => {
  const texts = randomTexts(150_000, 6);

  test('an abort while fingerprinting rejects within 100 ms and stops the busy workers; the pool works afterwards', { skip: !HAS_PROC && 'needs /proc' }, async (t) => {
    const idle = threads();
    const controller = new AbortController();
    // Past the start, where the pool posts one chunk per turn of the event loop and a worker
    // may sit idle for a turn: from then on each worker holds a chunk or two.
    const { started, onProgress } = startedWhen((p) => p.phase === 'fingerprint' && p.done >= p.total / 10);
    const call = pool.dedup(texts, { signal: controller.signal, onProgress });
    await started;
    await assertAbortStops(t, call, controller, idle, new Error('stop now'));
    const small = texts.slice(0, 3000);
    assertSameDedup(await pool.dedup(small), await sh.dedup(small));
  });

  test('an abort during the pair search rejects within 100 ms', { skip: !HAS_PROC && 'needs /proc' }, async (t) => {
    const fps = randomFingerprints(300_000, 8);
    const controller = new AbortController();
    const { started, onProgress } = startedWhen((p) => p.done > 0);
    const call = pool.findPairs(fps, 8, { signal: controller.signal, onProgress });
    await started; // the workers are searching
    await assertAbortStops(t, call, controller, threads());
    const few = fps.subarray(0, 2000);
    assert.deepEqual(await pool.findPairs(few, 3), sh.findPairs(few, 3));
  });

  test('an already aborted signal rejects with its reason and posts nothing', async () => {
    const progress = [];
    const signal = AbortSignal.abort(new Error('too late'));
    await assert.rejects(pool.dedup(['a'], { signal, onProgress: (p) => progress.push(p) }), /too late/);
    await assert.rejects(pool.fingerprintAll(['a'], undefined, { signal }), /too late/);
    await assert.rejects(pool.findPairs([1n], 3, { signal }), /too late/);
    assert.deepEqual(progress, []);
  });

  test('cancelling one call leaves an overlapping call on the same workers intact', async () => {
    const controller = new AbortController();
    const other = texts.slice(0, 60_000);
    const cancelled = pool.fingerprintAll(texts, undefined, { signal: controller.signal });
    const kept = pool.fingerprintAll(other, { tokenizer: 'words' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await assert.rejects(cancelled, { name: 'AbortError' });
    assert.deepEqual(await kept, sh.fingerprintAll(other, { tokenizer: 'words' }));
  });
});

describe('errors', () => {
  test('bad arguments reject with the single-threaded API\'s TypeError or RangeError, before any work', async () => {
    const cases = [
      ['dedup items', (api) => api.dedup('x')],
      ['dedup options', (api) => api.dedup([], null)],
      ['dedup key', (api) => api.dedup([], { key: 'text' })],
      ['dedup key result', (api) => api.dedup([{}, {}], { key: (item, i) => (i ? 5 : 'a') })],
      ['dedup item', (api) => api.dedup(['a', 'b', 3])],
      ['dedup grouping', (api) => api.dedup([], { grouping: 'x' })],
      ['dedup maxDistance', (api) => api.dedup([], { maxDistance: 65 })],
      ['dedup maxDistance type', (api) => api.dedup([], { maxDistance: '3' })],
      ['dedup fingerprint options', (api) => api.dedup([], { options: { tokenizer: 'x' } })],
      ['dedup unknown fingerprint option', (api) => api.dedup([], { options: { ngram: 2 } })],
      ['dedup onProgress', (api) => api.dedup([], { onProgress: 1 })],
      ['dedup signal', (api) => api.dedup([], { signal: {} })],
      ['dedup verify', (api) => api.dedup([], { verify: 0.5 })],
      ['dedup verify minJaccard', (api) => api.dedup([], { verify: { minJaccard: 1.5 } })],
      ['dedup verify shingle', (api) => api.dedup([], { verify: { minJaccard: 0.5, shingle: 0 } })],
      ['dedup IDF weights', (api) => api.dedup([], { options: { idf: {} } })],
      ['fingerprintAll texts', (api) => api.fingerprintAll('abc')],
      ['fingerprintAll text', (api) => api.fingerprintAll(['a', null])],
      ['fingerprintAll options', (api) => api.fingerprintAll(['a'], { wordNgram: 17 })],
      ['findPairs fingerprints', (api) => api.findPairs(new Uint32Array(2))],
      ['findPairs fingerprint', (api) => api.findPairs([1n, -1n])],
      ['findPairs fingerprint type', (api) => api.findPairs([1n, 2])],
      ['findPairs maxDistance', (api) => api.findPairs([1n], 1.5)],
    ];
    for (const [name, call] of cases) {
      const expected = await (async () => call(sh))().then(() => null, (e) => e);
      assert.ok(expected instanceof TypeError || expected instanceof RangeError, `${name}: the single-threaded API throws`);
      const actual = await call(pool).then(() => null, (e) => e);
      assert.ok(actual, `${name}: the pool rejects`);
      assert.equal(actual.constructor, expected.constructor, `${name}: ${actual.message}`);
      assert.equal(actual.message, expected.message, name);
    }
    const rejected = pool.dedup('x');
    assert.equal(typeof rejected.then, 'function', 'rejects rather than throws');
    await rejected.catch(() => {});
  });

  test('bad task options and pool options name the argument', async () => {
    await assert.rejects(pool.fingerprintAll([], undefined, { signal: 1 }), { name: 'TypeError', message: 'task.signal must be an AbortSignal, got number' });
    await assert.rejects(pool.findPairs([], 3, { onProgress: 'no' }), { name: 'TypeError', message: 'task.onProgress must be a function, got string' });
    await assert.rejects(pool.findPairs([], 3, null), { name: 'TypeError', message: 'task must be an object, got null' });
    await assert.rejects(createPool({ size: 0 }), { name: 'RangeError', message: 'options.size must be an integer from 1 to 1024, got 0' });
    await assert.rejects(createPool({ size: 1.5 }), RangeError);
    await assert.rejects(createPool({ size: '2' }), { name: 'TypeError', message: 'options.size must be a number, got string' });
    await assert.rejects(createPool({ threads: 2 }), { name: 'TypeError', message: 'options.threads is not an option (known: size, wasmBinary, locateFile)' });
    await assert.rejects(createPool({ wasmBinary: 'x' }), TypeError);
    await assert.rejects(createPool({ locateFile: '/x.wasm' }), TypeError);
    await assert.rejects(createPool(7), { name: 'TypeError', message: 'options must be an object, got number' });
  });

  test('a .wasm that does not load rejects createPool and leaves no worker running', { skip: !HAS_PROC && 'needs /proc' }, async () => {
    const before = threads();
    await assert.rejects(createPool({ size: 2, wasmBinary: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }));
    assert.ok(await waitFor(() => threads() <= before), `threads: ${threads()}, before: ${before}`);
  });

  test('an onProgress that throws rejects the call with its error; the pool works afterwards', async () => {
    const boom = new Error('progress handler failed');
    await assert.rejects(pool.dedup(randomTexts(20_000, 9), { onProgress: (p) => { if (p.done > 0) throw boom; } }), boom);
    assert.deepEqual(await pool.fingerprintAll(['x y']), sh.fingerprintAll(['x y']));
  });
});

describe('terminate', () => {
  test('pending calls reject, later calls reject, workers stop; twice is fine', { skip: !HAS_PROC && 'needs /proc' }, async () => {
    const before = threads();
    const own = await createPool({ size: 2 });
    assert.equal(threads(), before + 2);
    const pending = own.fingerprintAll(randomTexts(50_000, 10)).then(() => null, (error) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await own.terminate();
    assert.equal((await pending)?.message, 'this pool has been terminated');
    await assert.rejects(own.dedup(['a']), { message: 'this pool has been terminated' });
    await own.terminate();
    assert.ok(await waitFor(() => threads() === before), `threads: ${threads()}, before: ${before}`);
  });

  test('an idle pool does not keep Node running', () => {
    const script = `import { createPool } from ${JSON.stringify(new URL('../../js/worker.js', import.meta.url).href)};
      const pool = await createPool({ size: 2 });
      const { groups } = await pool.dedup(['The cat sat.', 'the cat sat!', 'Something else']);
      console.log(JSON.stringify(groups));`;
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT; // a child of node --test would otherwise report to it
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000, env });
    assert.equal(output.trim(), '[[0,1]]');
  });
});
