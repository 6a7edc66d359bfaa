// `npm run bench`: native vs WASM on the same inputs, in one run, printed as a table.
//   - fingerprint throughput (MB/s of UTF-8) on English and Chinese lines;
//   - findPairs and dedup's leader grouping (leaderLabels) at k = 3, 6, 8, 10, 12, 16 on
//     N = 100k and 1M fingerprints of two kinds: uniform random with planted neighbours
//     (planted.h describes the set) and real text (Debian fortunes, every distinct record
//     then copies with 1-3 word edits, as tests/bench/scale.js makes them; exact duplicate
//     fingerprints collapsed first, as dedup does), with the pair or kept counts, the
//     partition chosen, and the ratio to a plain scan of all pairs (estimated from the
//     time per pair of a scan of 1,400 items, in the same build).
// Figures are best of 10 runs for fingerprinting and a single run for the searches.
// Usage: node tests/bench/bench.js [SIZES [KS [KINDS]]], e.g. 100000 3,6,12 planted
//   (defaults: 100000,1000000  3,6,8,10,12,16  planted,fortunes).
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sh, random64 as splitmix64 } from '../js/helpers.js';
import { SAMPLE } from '../../js/cli/sample.js';
import { leaderLabels } from '../../js/bindings/pairs.js';
import { plantedFingerprints } from './planted.js';
import { makeTexts } from './fortune-texts.js';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';

const NATIVE = new URL('../../build/native/simhash_bench', import.meta.url).pathname;
// A second instance of the module for the calls SimHash does not expose (leaderLabels).
const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });

/** Lines of 20-40 words (English) or 30-60 characters (Chinese) drawn from the sample. */
function corpus(language, lines) {
  const next = splitmix64(language === 'english' ? 1 : 2);
  const pick = (list) => list[Number(next() % BigInt(list.length))];
  const latin = SAMPLE.join(' ').toLowerCase().match(/[a-z]+/g);
  const han = [...SAMPLE.join('')].filter((c) => /\p{Script=Han}/u.test(c));
  const out = [];
  for (let i = 0; i < lines; i++) {
    if (language === 'english') {
      const words = [];
      for (let w = 20 + Number(next() % 21n); w > 0; w--) words.push(pick(latin));
      out.push(words.join(' ') + '.');
    } else {
      let text = '';
      for (let c = 30 + Number(next() % 31n); c > 0; c--) text += next() % 12n === 0n ? '，' : pick(han);
      out.push(text + '。');
    }
  }
  return out;
}

function native(...args) {
  return execFileSync(NATIVE, args, { encoding: 'utf8' }).trim().split('\n').map((line) => JSON.parse(line));
}

// A full collection before each timed call, so that the process CPU time it reports is not
// the collector's work on garbage made before it (the planted sets' bigints).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

/** [result, wall seconds, CPU seconds of this process] (CPU time is what a busy machine distorts least). */
function time(fn) {
  collectGarbage();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return [result, (performance.now() - start) / 1000, (used.user + used.system) / 1e6];
}

const rows = [];
const dir = mkdtempSync(join(tmpdir(), 'simhash-bench-'));
try {
  for (const language of ['english', 'chinese']) {
    const texts = corpus(language, 40000);
    const file = join(dir, `${language}.txt`);
    writeFileSync(file, texts.join('\n'));
    const [nat] = native('fingerprint', file);
    let best = Infinity;
    let wasm;
    for (let run = 0; run < 10; run++) {
      const [fps, seconds] = time(() => sh.fingerprintAll(texts));
      best = Math.min(best, seconds);
      wasm = fps;
    }
    const xor = wasm.reduce((acc, fp) => acc ^ fp, 0n).toString(16).padStart(16, '0');
    if (xor !== nat.xor) throw new Error(`${language}: WASM and native fingerprints differ`);
    const mb = nat.bytes / 1e6;
    rows.push([`fingerprint ${language} (${texts.length} lines, ${mb.toFixed(1)} MB)`, `${(mb / nat.seconds).toFixed(1)} MB/s`,
      `${(mb / best).toFixed(1)} MB/s`, (best / nat.seconds).toFixed(2)]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const [SIZES = '100000,1000000', KS = '3,6,8,10,12,16', KINDS = 'planted,fortunes'] = process.argv.slice(2);

/** Fortunes fingerprints: scale.js's texts (fortune-texts.js), exact duplicates collapsed. */
function fortuneFingerprints(n) {
  const { texts } = makeTexts(n);
  const fps = sh.fingerprintAll(texts);
  return new BigUint64Array(new Set(fps)); // exact duplicates collapsed, first occurrence order
}

const [{ secondsPerPair: nativeScan }] = native('scan');
const wasmScan = (() => {
  const fps = plantedFingerprints(1400, 0, 1);
  let best = Infinity;
  for (let run = 0; run < 20; run++) best = Math.min(best, time(() => sh.findPairs(fps, 3))[2]);
  return best / (1400 * 1399 / 2);
})();
const ratio = (n, seconds, perPair) => `${((n * (n - 1) / 2) * perPair / seconds).toFixed(0)}x`;

// The index at k = 12 (and 3) on 1M planted fingerprints: build (addAll and the first query, which builds
// the tables) and the mean of 2,000 queries (half stored items, half random).
const indexRows = [];
if (!process.env.SKIP_INDEX) {
  for (const k of [3, 12]) {
    const fps = plantedFingerprints(1_000_000, k, 42);
    const index = sh.createIndex({ maxDistance: k });
    const next = splitmix64(9);
    const queries = Array.from({ length: 2000 }, (_, i) => (i % 2 ? fps[i * 499] : next()));
    const [, buildSeconds, buildCpu] = time(() => {
      index.addAll(fps);
      index.query(queries[0]);
    });
    const [found, querySeconds, queryCpu] = time(() => queries.reduce((sum, q) => sum + index.query(q).length, 0));
    index.dispose();
    indexRows.push(`  k=${k}: build ${buildSeconds.toFixed(3)} / ${buildCpu.toFixed(3)} s, query ${(querySeconds / queries.length * 1e6).toFixed(1)} / ${(queryCpu / queries.length * 1e6).toFixed(1)} us (${found} matches in ${queries.length} queries)`);
    process.stderr.write(`${indexRows.at(-1)}\n`);
  }
}

const searchRows = [];
const dir2 = mkdtempSync(join(tmpdir(), 'simhash-bench-'));
try {
  for (const kind of KINDS.split(',')) {
    for (const n of SIZES.split(',').map(Number)) {
      const realFps = kind === 'fortunes' ? fortuneFingerprints(n) : null;
      const file = join(dir2, 'fps.bin');
      if (realFps) writeFileSync(file, new Uint8Array(realFps.buffer));
      for (const k of KS.split(',').map(Number)) {
        const fps = realFps ?? plantedFingerprints(n, k, 42);
        const args = realFps ? [file, String(k)] : [String(n), String(k), '42'];
        const [nat] = native(realFps ? 'pairs-file' : 'pairs', ...args);
        const [pairs, seconds, cpu] = time(() => sh.findPairs(fps, k));
        if (pairs.a.length !== nat.pairs) throw new Error(`findPairs ${kind} n=${n} k=${k}: WASM found ${pairs.a.length}, native ${nat.pairs}`);
        const [natLeaders] = native(realFps ? 'leaders-file' : 'leaders', ...args);
        const [leaderOf, leaderSeconds, leaderCpu] = time(() => leaderLabels(core, fps, k));
        const kept = leaderOf.reduce((count, leader, i) => count + (leader === i), 0);
        if (kept !== natLeaders.kept) throw new Error(`leaderLabels ${kind} n=${n} k=${k}: WASM kept ${kept}, native ${natLeaders.kept}`);
        const row = [kind, fps.length.toLocaleString('en'), k, nat.partition, nat.pairs.toLocaleString('en'),
          `${nat.seconds.toFixed(3)} / ${nat.cpu.toFixed(3)} s (${ratio(fps.length, nat.cpu, nativeScan)})`,
          `${seconds.toFixed(3)} / ${cpu.toFixed(3)} s (${ratio(fps.length, cpu, wasmScan)})`,
          `${natLeaders.kept.toLocaleString('en')} (${natLeaders.path})`, `${natLeaders.seconds.toFixed(3)} / ${natLeaders.cpu.toFixed(3)} s`,
          `${leaderSeconds.toFixed(3)} / ${leaderCpu.toFixed(3)} s`];
        searchRows.push(row);
        process.stderr.write(`${row.join(' | ')}\n`);
      }
    }
  }
} finally {
  rmSync(dir2, { recursive: true, force: true });
}

const header = ['benchmark', 'native', 'WASM (Node ' + process.versions.node + ')', 'WASM/native time'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));

console.log(`\nfindPairs and leader grouping (one run each, wall / CPU seconds; in brackets the speed-up over a plain scan of all pairs, estimated at ${(nativeScan * 1e9).toFixed(2)} ns native and ${(wasmScan * 1e9).toFixed(2)} ns WASM per pair):`);
const searchHeader = ['data', 'n', 'k', 'partition (bits<=threshold)', 'pairs', 'findPairs native', 'findPairs WASM', 'kept (path)', 'leaders native', 'leaders WASM'];
const searchWidths = searchHeader.map((h, i) => Math.max(h.length, ...searchRows.map((r) => String(r[i]).length)));
const searchLine = (cells) => `| ${cells.map((c, i) => String(c).padEnd(searchWidths[i])).join(' | ')} |`;
console.log(searchLine(searchHeader));
console.log(`|${searchWidths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of searchRows) console.log(searchLine(row));
console.log('\nIndex of 1,000,000 planted fingerprints, WASM (wall / CPU):');
for (const row of indexRows) console.log(row);
