// `npm run bench:dedup`: dedup at the library's defaults (similarity 0.8, leader grouping)
// on short texts, the use of issue "similarity dedup": every record of Debian's fortunes,
// then copies with 1-3 word edits (fortune-texts.js), N = 100k and 1M by default. For one
// thread and for the worker pool (2 workers on this machine unless --pool=N), it prints
// the wall time and the phases seen through onProgress (fingerprints; the search: the
// shingle sets built, the candidates found and verified, the groups labelled; the result),
// the pairs of distinct fingerprints within the candidate radius (the candidates; leader
// grouping may verify fewer), and how much the WASM memory of the one-thread runs grew in
// a fresh module (its peak: memory only grows) against the UTF-8 size of the texts.
// With --breakdown, the one-thread search is also run in parts on the distinct texts: the
// shingle sets alone, the sets and the grouping by banding (what dedup runs on short
// texts), and the sets with the search within the calibrated radius and its verification.
// With --thresholds, one thread and the pool also run the lower thresholds and the review
// (similarity 0.6, 0.5, and review 0.5 at the default 0.8) in turns with the default (one
// thread in a fresh module each time): medians, their ratio to the default's, and the WASM
// memory each grew on one thread.
// With --natural, instead, whole natural collections without planted edits (dedup-natural.js).
// Usage: node tests/bench/dedup.js [N ...] [--pool=WORKERS] [--runs=R] [--breakdown] [--thresholds]
//        node tests/bench/dedup.js --natural [--runs=R] [--collections=paragraphs,one-line]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { SimHash } from '../../js/simhash.js';
import { readsHanTable } from '../../js/node-loader.js';
import { searchLabels } from '../../js/dedup/dedup.js';
import { withSimilarity } from '../../js/bindings/shingle-sets.js';
import { Pacer } from '../../js/core/pacing.js';
import { candidateRadius, DEFAULT_SIMILARITY } from '../../js/core/thresholds.js';
import { createPool } from '../../js/worker.js';
import { makeTexts } from './fortune-texts.js';

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SIZES = args.filter((a) => !a.startsWith('--')).map(Number);
if (SIZES.length === 0) SIZES.push(100_000, 1_000_000);
const RUNS = option('runs', 3);
const wasmBinary = readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url));
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** One timed dedup: wall time and the phase boundaries seen through onProgress (ms from the start). */
async function timedDedup(run, texts) {
  const marks = {};
  const start = performance.now();
  const result = await run(texts, {
    onProgress: ({ phase, done, total }) => {
      const now = performance.now() - start;
      if (phase === 'fingerprint' && done === total) marks.fingerprinted ??= now;
      if (phase === 'groups') marks.grouped ??= now;
    },
  });
  const total = performance.now() - start;
  return { result, total, ...marks };
}

if (args.includes('--natural')) {
  await (await import('./dedup-natural.js')).main(args);
  process.exit(0);
}

const loadBefore = loadavg()[0];
const texts = makeTexts(Math.max(...SIZES)).texts;
const pool = await createPool(args.some((a) => a.startsWith('--pool=')) ? { size: option('pool', 2) } : {});
const rows = [];
const breakdowns = [];
const variantRows = [];
const VARIANTS = [['the default (0.8)', {}], ['similarity 0.6', { similarity: 0.6 }], ['similarity 0.5', { similarity: 0.5 }], ['review 0.5', { review: 0.5 }]];
try {
  for (const n of SIZES) {
    const slice = texts.slice(0, n);
    const bytes = slice.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    // A fresh module per N: its memory growth is the dedup's peak.
    const sh = new SimHash(readsHanTable(await createSimhashCore({ wasmBinary })));
    const memoryBefore = sh.memoryBytes;
    const one = [];
    const pooled = [];
    for (let r = 0; r < RUNS; r++) {
      one.push(await timedDedup((t, o) => sh.dedup(t, o), slice));
      log(`N = ${n}: one thread ${s(one.at(-1).total)}`);
      pooled.push(await timedDedup((t, o) => pool.dedup(t, o), slice));
      log(`N = ${n}: pool ${s(pooled.at(-1).total)}`);
    }
    const growth = sh.memoryBytes - memoryBefore;
    if (args.includes('--breakdown')) {
      const distinct = [...new Set(slice)];
      const core = await createSimhashCore({ wasmBinary });
      const fps = new SimHash(readsHanTable(core)).fingerprintAll(distinct);
      const timed = async (search) => {
        const start = performance.now();
        if (search) await searchLabels(core, distinct, fps, { grouping: 'leader', similarity: DEFAULT_SIMILARITY, ...search }, new Pacer({ sliceMs: Infinity }));
        else await withSimilarity(core, distinct, async () => {});
        return performance.now() - start;
      };
      const radius = candidateRadius(DEFAULT_SIMILARITY);
      const parts = [];
      for (let r = 0; r < RUNS; r++) parts.push([await timed(null), await timed({ banding: true }), await timed({ k: radius })]);
      const [sets, banded, radiusSearch] = [0, 1, 2].map((i) => s(median(parts.map((p) => p[i]))));
      breakdowns.push(`N = ${n.toLocaleString('en')}, one thread: shingle sets alone ${sets}; sets and grouping by banding (the dedup's search) ${banded}; `
        + `sets and the search within ${radius} bits with verification ${radiusSearch}`);
    }
    if (args.includes('--thresholds')) {
      // One thread in a fresh module per run (its memory growth is the variant's), and the pool.
      for (const [where, run] of [['one thread', null], [`pool (${pool.size} workers)`, (t, o) => pool.dedup(t, o)]]) {
        const times = VARIANTS.map(() => []);
        const growths = VARIANTS.map(() => 0);
        const answers = [];
        for (let r = 0; r < RUNS; r++) {
          for (const [v, [name, options]] of VARIANTS.entries()) {
            const fresh = run ? null : new SimHash(readsHanTable(await createSimhashCore({ wasmBinary })));
            const before = fresh?.memoryBytes ?? 0;
            const start = performance.now();
            answers[v] = await (run ? run(slice, options) : fresh.dedup(slice, options));
            times[v].push(performance.now() - start);
            if (fresh) growths[v] = Math.max(growths[v], fresh.memoryBytes - before);
            log(`N = ${n}: ${where}, ${name} ${s(times[v].at(-1))}`);
          }
        }
        const base = median(times[0]);
        VARIANTS.forEach(([name], v) => {
          const { groups, review, reviewOmitted } = answers[v];
          const found = review ? `; ${(review.length + reviewOmitted).toLocaleString('en')} pairs of groups to review` : '';
          variantRows.push([n.toLocaleString('en'), where, name, s(median(times[v])), `${(median(times[v]) / base).toFixed(2)}×`,
            run ? '' : `+${(growths[v] / 2 ** 20).toFixed(0)} MiB (${(growths[v] / bytes).toFixed(2)}×)`, `${groups.length.toLocaleString('en')} groups${found}`]);
        });
      }
    }
    const { result } = one[0];
    if (JSON.stringify(result.groups) !== JSON.stringify(pooled[0].result.groups)) throw new Error(`N = ${n}: pool and one thread differ`);
    const fingerprints = [...new Set(result.fingerprints)];
    const radius = candidateRadius(DEFAULT_SIMILARITY);
    const withinRadius = sh.findPairs(BigUint64Array.from(fingerprints), radius).a.length;
    const phase = (runs, from, to) => s(median(runs.map((x) => x[to] - (from ? x[from] : 0))));
    for (const [who, runs] of [['one thread', one], [`pool (${pool.size} workers)`, pooled]]) {
      rows.push([n.toLocaleString('en'), who, s(median(runs.map((x) => x.total))), phase(runs, null, 'fingerprinted'),
        phase(runs, 'fingerprinted', 'grouped'), phase(runs, 'grouped', 'total')]);
    }
    rows.push([n.toLocaleString('en'), `${result.unique.length.toLocaleString('en')} kept, ${result.groups.length.toLocaleString('en')} groups; `
      + `${withinRadius.toLocaleString('en')} pairs of distinct fingerprints within ${radius} bits; WASM memory +${(growth / 2 ** 20).toFixed(0)} MiB `
      + `(${(growth / bytes).toFixed(2)}× the ${(bytes / 2 ** 20).toFixed(0)} MiB of UTF-8)`, '', '', '', '']);
  }
} finally {
  await pool.terminate();
}
console.log(`dedup at the defaults (similarity ${DEFAULT_SIMILARITY}), medians of ${RUNS} runs; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after\n`);
console.log('| N | where | total | fingerprints | search (sets, candidates, verification) | result |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
for (const line of breakdowns) console.log(`\n${line}`);
if (variantRows.length > 0) {
  console.log(`\nEach threshold in turn with the default (one thread: in a fresh module), medians of ${RUNS} runs\n`);
  console.log('| N | where | dedup | time | against the default | WASM memory grown (× the UTF-8) | answer |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of variantRows) console.log(`| ${row.join(' | ')} |`);
}
