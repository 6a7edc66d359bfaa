// `npm run bench:scale`: ours (one thread, and the worker pool) against the npm packages
// `simhash-js` and `simhash` on the same texts, in one Node process, for N = 10k, 100k, 1M:
//   - fingerprint throughput, MB/s of UTF-8 text;
//   - a full dedup, end to end: fingerprints + every pair within the threshold + groups
//     (ours: sh.dedup and pool.dedup; results checked equal between the two).
// Texts: every record of Debian's `fortunes` in a seeded order, then copies with 1-3 word
// edits up to N (fortune-texts.js).
//
// The pure-JS packages have no search, so their dedup is their fingerprints (time above)
// plus the fastest exact search open to their users: brute force over the 32-bit
// fingerprints (XOR, popcount), in leader order with an early exit (bruteForceGroups),
// which is quadratic: it runs up to N = 100k (--brute-max) and is scaled by N^2 beyond,
// marked "est.". simhash-js fingerprints at 1-3 MB/s, so it runs on at most the first 100k
// texts (--slow-max) and its rate stands for larger N. `simhash` gets a simple word
// tokenizer (split on /\W+/, its fastest). Thresholds: k = 3 of 64 bits for ours (--k), k = 2 of
// 32 bits for theirs. Figures are the best of several runs (fewer at 1M) of one process on
// a shared machine: the load average is printed with them.
//
// Then the pool's speed-up on the search itself, one thread and the pool alternately in
// one process (median of --pool-runs runs each, 3 by default): findPairs over N uniform
// fingerprints with planted neighbours (planted.js) at k = --pairs-k (10 by default), and
// dedup of the texts at the default similarity (leader grouping), with the pair and group
// counts (the dedup up to N = --pool-dedup-max, 1M by default).
//
// Usage: node tests/bench/scale.js [N ...] [--brute-max=N] [--slow-max=N] [--k=K] [--pairs-k=K] [--pool-runs=R]
//   [--pool-dedup-max=N] [--pool-only] (only the pool's speed-up on the search)
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { sh } from '../js/helpers.js';
import { makeTexts } from './fortune-texts.js';
import { createPool } from '../../js/worker.js';
import { plantedFingerprints } from './planted.js';

const require = createRequire(import.meta.url);
process.noDeprecation = true; // `simhash` calls new Buffer(), which Node warns about once
const simhashPackage = require('simhash');
const { SimHash: SimHashJs } = require('simhash-js');

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SIZES = args.filter((a) => !a.startsWith('--')).map(Number);
if (SIZES.length === 0) SIZES.push(10_000, 100_000, 1_000_000);
const BRUTE_MAX = option('brute-max', 100_000);
const SLOW_MAX = option('slow-max', 100_000);
const OUR_K = option('k', 3); // short texts need more (README, "Choosing thresholds"): --k=12 shows what it costs
const THEIR_K = 2;
const PAIRS_K = option('pairs-k', 10);
const POOL_RUNS = option('pool-runs', 3);
const POOL_ONLY = args.includes('--pool-only');
const POOL_DEDUP_MAX = option('pool-dedup-max', 1_000_000);

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

// ---------------------------------------------------------------- texts

// ---------------------------------------------------------------- the pure-JS packages

const simhashWords = simhashPackage(); // crc32 of each token, 32 bits
// A simple word tokenizer, the fastest of those tried (Unicode-aware letter runs cost it
// 30-50% of its speed; splitting on spaces gives more tokens and is slower): it treats
// every non-ASCII letter as a separator, which ours does not.
const NON_WORD = /\W+/;

function fingerprintSimhash(texts) {
  const out = new Int32Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const bits = simhashWords(texts[i].toLowerCase().split(NON_WORD));
    let fp = 0;
    for (let b = 0; b < 32; b++) fp |= bits[b] << b;
    out[i] = fp;
  }
  return out;
}

const simhashJs = new SimHashJs(); // 4-character shingles, 128 features, Jenkins lookup3, 32 bits
function fingerprintSimhashJs(texts) {
  const out = new Int32Array(texts.length);
  for (let i = 0; i < texts.length; i++) out[i] = simhashJs.hash(texts[i]) | 0;
  return out;
}

const POPCOUNT16 = new Uint8Array(1 << 16); // bits set in each 16-bit value
for (let i = 1; i < POPCOUNT16.length; i++) POPCOUNT16[i] = POPCOUNT16[i >> 1] + (i & 1);

/**
 * Leader dedup by brute force over 32-bit fingerprints: in order, each item joins the
 * earliest kept item within k (ours' 'leader' rule), scanning the kept items and stopping at
 * the first hit. This is the fastest exact method open to a user of these packages: it
 * never materializes all pairs (their fingerprints are clustered enough that 100k fortunes
 * give over 10^8 pairs within k = 2), and it is quadratic in the worst case.
 */
function bruteForceGroups(fps, k) {
  const n = fps.length;
  const kept = new Int32Array(n); // indices of kept items, ascending
  const keptFps = new Int32Array(n);
  let keptCount = 0;
  const members = new Map();
  for (let j = 0; j < n; j++) {
    const x = fps[j];
    let leader = -1;
    for (let i = 0; i < keptCount; i++) {
      const v = x ^ keptFps[i];
      if (POPCOUNT16[v & 0xffff] + POPCOUNT16[v >>> 16] <= k) {
        leader = kept[i];
        break;
      }
    }
    if (leader < 0) {
      kept[keptCount] = j;
      keptFps[keptCount++] = x;
    } else if (members.has(leader)) {
      members.get(leader).push(j);
    } else {
      members.set(leader, [leader, j]);
    }
  }
  return [...members.values()].sort((a, b) => a[0] - b[0]);
}

// ---------------------------------------------------------------- measuring

function runsFor(n) {
  return n <= 10_000 ? 5 : n <= 100_000 ? 3 : 2;
}

/** Best wall time of `runs` runs (seconds), the last result, and the CPU cores used on average in the best run. */
async function best(runs, fn) {
  let seconds = Infinity;
  let cores = 0;
  let result;
  for (let r = 0; r < runs; r++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    result = await fn();
    const wall = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    if (wall < seconds) {
      seconds = wall;
      cores = (used.user + used.system) / 1e6 / wall;
    }
  }
  return { seconds, result, cores, cpu: cores * seconds };
}

const fmt = {
  rate: (mb, s) => `${(mb / s).toFixed(1)} MB/s`,
  s: (s) => (s < 1 ? `${s.toFixed(3)} s` : `${s.toFixed(2)} s`),
  x: (r) => `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`,
  n: (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`),
};

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------- the run

const loadBefore = loadavg();
const maxN = Math.max(...SIZES);
log(`making ${maxN.toLocaleString('en')} texts from fortunes...`);
const { texts: allTexts, records } = makeTexts(maxN);
const startPool = performance.now();
const pool = await createPool();
const poolStartMs = performance.now() - startPool;
log(`pool of ${pool.size} workers started in ${poolStartMs.toFixed(0)} ms`);

/**
 * Medians of `runs` runs of each of two calls, alternately: wall seconds (one, pool), CPU
 * seconds of the process, worker threads included (oneCpu, poolCpu), and the last results.
 */
async function alternate(runs, first, second) {
  const times = [[], []];
  const cpu = [[], []];
  const results = [];
  for (let r = 0; r < runs; r++) {
    for (const [i, fn] of [first, second].entries()) {
      const used = process.cpuUsage();
      const start = performance.now();
      results[i] = await fn();
      times[i].push((performance.now() - start) / 1000);
      const { user, system } = process.cpuUsage(used);
      cpu[i].push((user + system) / 1e6);
    }
  }
  const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
  return { one: median(times[0]), pool: median(times[1]), oneCpu: median(cpu[0]), poolCpu: median(cpu[1]), results, all: times };
}

const fingerprintRows = [];
const poolRows = [];
const dedupRows = [];
const notes = [];
const searchSeconds = {}; // package -> { n, seconds } of its largest brute-force search
try {
  for (const n of SIZES) {
    const texts = allTexts.slice(0, n);
    const mb = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 1e6;
    const runs = runsFor(n);
    log(`N = ${n.toLocaleString('en')} (${mb.toFixed(1)} MB)`);

    if (!POOL_ONLY) {
      // Fingerprints.
      const one = await best(runs, () => sh.fingerprintAll(texts));
      log(`  ours, 1 thread: ${fmt.s(one.seconds)}`);
      const pooled = await best(runs, () => pool.fingerprintAll(texts));
      log(`  ours, pool: ${fmt.s(pooled.seconds)} (${pooled.cores.toFixed(2)} cores)`);
      if (!one.result.every((fp, i) => fp === pooled.result[i])) throw new Error(`N=${n}: pool and single-threaded fingerprints differ`);
      const sim = await best(n >= 1e6 ? 1 : Math.min(runs, 3), () => fingerprintSimhash(texts));
      log(`  simhash: ${fmt.s(sim.seconds)}`);
      const slowN = Math.min(n, SLOW_MAX);
      const slowTexts = texts.slice(0, slowN);
      const slowMb = slowTexts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 1e6;
      const js = await best(slowN >= 100_000 ? 1 : 2, () => fingerprintSimhashJs(slowTexts));
      log(`  simhash-js (${slowN} texts): ${fmt.s(js.seconds)}`);
      const jsRate = slowMb / js.seconds;
      const simRate = mb / sim.seconds;
      const fastestJs = Math.max(jsRate, simRate);
      notes.push(`N = ${fmt.n(n)}: CPU time of the process, fingerprints ${one.cpu.toFixed(2)} s on one thread, ${pooled.cpu.toFixed(2)} s in the pool (${fmt.x(pooled.cpu / one.cpu)}).`);
      fingerprintRows.push([fmt.n(n), mb.toFixed(1),
        `${jsRate.toFixed(1)} MB/s${slowN < n ? ` (first ${fmt.n(slowN)})` : ''}`, fmt.rate(mb, sim.seconds),
        fmt.rate(mb, one.seconds), `${fmt.rate(mb, pooled.seconds)} (${pooled.cores.toFixed(1)} cores)`,
        fmt.x(mb / one.seconds / fastestJs), fmt.x(mb / pooled.seconds / fastestJs), fmt.x(one.seconds / pooled.seconds)]);

      // Full dedup.
      const oneDedup = await best(runs, () => sh.dedup(texts, { maxDistance: OUR_K }));
      log(`  dedup ours, 1 thread: ${fmt.s(oneDedup.seconds)}`);
      const poolDedup = await best(runs, () => pool.dedup(texts, { maxDistance: OUR_K }));
      log(`  dedup ours, pool: ${fmt.s(poolDedup.seconds)}`);
      if (JSON.stringify(oneDedup.result.groups) !== JSON.stringify(poolDedup.result.groups)) throw new Error(`N=${n}: pool and single-threaded groups differ`);
      // Their dedup: their fingerprint time above plus a brute-force leader search over those
      // fingerprints (measured), or, past --brute-max, the largest search scaled by N^2 (est.).
      const theirs = [];
      for (const [name, fps, fpSeconds] of [['simhash', sim.result, sim.seconds], ['simhash-js', slowN === n ? js.result : null, mb / jsRate]]) {
        if (fps && n <= BRUTE_MAX) {
          const start = performance.now();
          const groups = bruteForceGroups(fps, THEIR_K);
          const seconds = (performance.now() - start) / 1000;
          searchSeconds[name] = { n, seconds };
          log(`  ${name} brute-force leader search: ${fmt.s(seconds)} (${groups.length} groups)`);
          theirs.push({ name, seconds: fpSeconds + seconds, estimated: false });
        } else {
          if (!searchSeconds[name]) {
            const sample = (name === 'simhash' ? fingerprintSimhash : fingerprintSimhashJs)(texts.slice(0, 20_000));
            const start = performance.now();
            bruteForceGroups(sample, THEIR_K);
            searchSeconds[name] = { n: sample.length, seconds: (performance.now() - start) / 1000 };
          }
          const measured = searchSeconds[name];
          theirs.push({ name, seconds: fpSeconds + measured.seconds * (n / measured.n) ** 2, estimated: true });
        }
      }
      const long = (seconds) => (seconds >= 7200 ? `${(seconds / 3600).toFixed(1)} h` : seconds >= 120 ? `${(seconds / 60).toFixed(0)} min` : `${seconds.toFixed(0)} s`);
      const show = (t) => (t.estimated ? `≈ ${long(t.seconds)} (est.)` : fmt.s(t.seconds));
      const fastestTheirs = Math.min(...theirs.map((t) => t.seconds));
      dedupRows.push([fmt.n(n), show(theirs[1]), show(theirs[0]), fmt.s(oneDedup.seconds), fmt.s(poolDedup.seconds),
        `${fmt.x(fastestTheirs / poolDedup.seconds)}${theirs.some((t) => t.estimated) ? ' (est.)' : ''}`,
        fmt.x(oneDedup.seconds / poolDedup.seconds), poolDedup.result.groups.length.toLocaleString('en')]);
      notes.push(`N = ${fmt.n(n)}: CPU time of the process, dedup ${oneDedup.cpu.toFixed(2)} s on one thread, ${poolDedup.cpu.toFixed(2)} s in the pool (${fmt.x(poolDedup.cpu / oneDedup.cpu)}).`);
    }

    // The pool's speed-up on the search: findPairs on planted fingerprints, dedup at the default similarity.
    const fps = plantedFingerprints(n, PAIRS_K, 42);
    const pairs = await alternate(POOL_RUNS, () => sh.findPairs(fps, PAIRS_K), () => pool.findPairs(fps, PAIRS_K));
    for (const key of ['a', 'b', 'distance']) {
      if (!pairs.results[0][key].every((v, i) => v === pairs.results[1][key][i])) throw new Error(`N=${n}: pool and single-threaded pairs differ`);
    }
    log(`  findPairs k = ${PAIRS_K}: 1 thread ${pairs.all[0].map(fmt.s).join(', ')}; pool ${pairs.all[1].map(fmt.s).join(', ')}`);
    poolRows.push([fmt.n(n), `findPairs, uniform + planted, k = ${PAIRS_K}`, fmt.s(pairs.one), fmt.s(pairs.pool), fmt.x(pairs.one / pairs.pool),
      fmt.s(pairs.oneCpu), fmt.s(pairs.poolCpu), `${pairs.results[0].a.length.toLocaleString('en')} pairs`]);
    if (n > POOL_DEDUP_MAX) continue;
    const similar = await alternate(POOL_RUNS, () => sh.dedup(texts), () => pool.dedup(texts));
    if (JSON.stringify(similar.results[0].groups) !== JSON.stringify(similar.results[1].groups)) throw new Error(`N=${n}: pool and single-threaded similarity groups differ`);
    log(`  dedup by similarity: 1 thread ${similar.all[0].map(fmt.s).join(', ')}; pool ${similar.all[1].map(fmt.s).join(', ')}`);
    poolRows.push([fmt.n(n), 'dedup, fortunes with edits, default similarity', fmt.s(similar.one), fmt.s(similar.pool), fmt.x(similar.one / similar.pool),
      fmt.s(similar.oneCpu), fmt.s(similar.poolCpu), `${similar.results[0].groups.length.toLocaleString('en')} groups`]);
  }
} finally {
  await pool.terminate();
}

console.log(`Texts: ${records.toLocaleString('en')} distinct fortunes records, then edited copies; Node ${process.versions.node}, ${availableParallelism()} logical cores, pool of ${availableParallelism()} workers (started in ${poolStartMs.toFixed(0)} ms, not counted below).`);
console.log(`Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadavg()[0].toFixed(2)}.\n`);
if (!POOL_ONLY) {
  console.log('Fingerprinting (MB/s of UTF-8 text; best of several runs; cores = CPU time / wall time of the process):\n');
  console.log(table(['N', 'MB', 'simhash-js', 'simhash (split /\\W+/)', 'ours, 1 thread', 'ours, pool', '1 thread / fastest JS', 'pool / fastest JS', 'pool speed-up'], fingerprintRows));
  console.log(`\nFull dedup, end to end (fingerprints + pairs + groups; ours k = ${OUR_K} of 64 bits, theirs brute force at k = ${THEIR_K} of 32 bits, up to N = ${fmt.n(BRUTE_MAX)}):\n`);
  console.log(table(['N', 'simhash-js + brute force', 'simhash + brute force', 'ours, 1 thread', 'ours, pool', 'fastest JS / pool', 'pool speed-up', 'groups (ours)'], dedupRows));
}
console.log(`\nThe pool's speed-up on the search (median of ${POOL_RUNS} runs each, one thread and the pool alternately; CPU: of the process, workers included):\n`);
console.log(table(['N', 'call', 'ours, 1 thread', 'ours, pool', 'pool speed-up', 'CPU, 1 thread', 'CPU, pool', 'found'], poolRows));
console.log('');
for (const note of notes) console.log(note);
