// `npm run bench`: native vs WASM on the same inputs, in one run, printed as a table.
//   - fingerprint throughput (MB/s of UTF-8) on English and Chinese lines;
//   - findPairs on 100k and 1M planted fingerprints at k = 3 and 6 (planted.h describes the set);
//   - dedup's leader grouping (leaderLabels) on the same sets;
//   - findPairs with each block count b near the automatic choice, to show what the choice buys.
// Figures are best of 10 runs for fingerprinting and a single run for findPairs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sh, random64 as splitmix64 } from '../js/helpers.js';
import { SAMPLE } from '../../js/sample.js';
import { leaderLabels } from '../../js/pairs.js';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';

const NATIVE = new URL('../../build/native/simhash_bench', import.meta.url).pathname;
// A second instance of the module for the calls SimHash does not expose (leaderLabels).
const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });

/** The same set as planted.h's plantedFingerprints. */
function plantedFingerprints(n, k, seed) {
  const next = splitmix64(seed);
  const fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9) {
      const flips = Math.floor(i / 10) % (k + 1);
      let mask = 0n;
      let bits = 0;
      while (bits < flips) {
        const bit = 1n << (next() % 64n);
        if (!(mask & bit)) bits++;
        mask |= bit;
      }
      fps[i] = fps[i - 1] ^ mask;
    } else {
      fps[i] = next();
    }
  }
  return fps;
}

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

function time(fn) {
  const start = performance.now();
  const result = fn();
  return [result, (performance.now() - start) / 1000];
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

for (const n of [100_000, 1_000_000]) {
  for (const k of [3, 6]) {
    const [nat] = native('pairs', String(n), String(k), '42');
    const fps = plantedFingerprints(n, k, 42);
    const [pairs, seconds] = time(() => sh.findPairs(fps, k));
    if (pairs.a.length !== nat.pairs) throw new Error(`findPairs n=${n} k=${k}: WASM found ${pairs.a.length}, native ${nat.pairs}`);
    rows.push([`findPairs n=${n.toLocaleString('en')} k=${k} (${nat.blocks} blocks, ${nat.tables} tables, ${nat.pairs} pairs)`,
      `${nat.seconds.toFixed(3)} s`, `${seconds.toFixed(3)} s`, (seconds / nat.seconds).toFixed(2)]);
  }
}

// dedup's leader grouping (SimHash#dedup without verify): the same WASM call it makes.
for (const n of [100_000, 1_000_000]) {
  for (const k of [3, 6]) {
    const [nat] = native('leaders', String(n), String(k), '42');
    const fps = plantedFingerprints(n, k, 42);
    const [leaderOf, seconds] = time(() => leaderLabels(core, fps, k));
    const kept = leaderOf.reduce((count, leader, i) => count + (leader === i), 0);
    if (kept !== nat.kept) throw new Error(`leaderLabels n=${n} k=${k}: WASM kept ${kept}, native ${nat.kept}`);
    rows.push([`dedup leader grouping n=${n.toLocaleString('en')} k=${k} (${nat.kept} kept)`,
      `${nat.seconds.toFixed(3)} s`, `${seconds.toFixed(3)} s`, (seconds / nat.seconds).toFixed(2)]);
  }
}

const header = ['benchmark', 'native', 'WASM (Node ' + process.versions.node + ')', 'WASM/native time'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));

// The effect of b: the same search with every block count near the chosen one.
console.log('\nEffect of the block count b on native findPairs (n = 100,000 planted; * = the automatic choice):');
for (const k of [3, 6]) {
  const [chosen] = native('pairs', '100000', String(k), '42');
  for (let b = k + 1; b <= k + 4; b++) {
    const [forced] = native('pairs', '100000', String(k), '42', String(b));
    if (forced.pairs !== chosen.pairs) throw new Error(`findPairs k=${k} b=${b} found ${forced.pairs} pairs, not ${chosen.pairs}`);
    console.log(`  k=${k} b=${String(b).padStart(2)}: ${String(forced.tables).padStart(3)} tables, ${forced.seconds.toFixed(3)} s${b === chosen.blocks ? ' *' : ''}`);
  }
}

console.log('\nBlock layout chosen for the index (k, n -> blocks b, tables C(b,k), key bits of the narrowest table):');
for (const l of native('layout')) {
  console.log(`  k=${String(l.k).padStart(2)} n=${l.n.toLocaleString('en').padStart(11)}: ${l.blocks ? `b=${l.blocks}, ${l.tables} tables, ${l.keyBits}-bit keys` : 'linear scan'}`);
}
