// `node tests/bench/verify.js`: the speed and memory of exact verification in WASM (the core's
// _verifyPairs, as dedup calls it: one call per batch of candidates). For each corpus the
// candidates are the pairs within a radius of js/core/thresholds.js (the real mix of near-
// duplicates and chance pairs a dedup verifies). Prints, per corpus and threshold, the
// median of 5 runs: the whole call (building the sets of the texts named, then deciding)
// per candidate, and the deciding alone per candidate (the call minus a build-only call).
// The sets' memory is measured natively (tests/cpp/similarity_test.cpp, README).
import { loadEnglish, loadChinese, loadLongDocuments } from './quality/corpora.js';
import { loadCore, encodeBatch, verifyPairs } from './quality/exact.js';
import { candidateRadius } from '../../js/core/thresholds.js';
import { table } from './quality/table.js';

const RUNS = 5;
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const { core, sh } = await loadCore();

const corpora = [
  { name: 'english ≤ 300 chars', texts: loadEnglish().records.filter((t) => [...t].length <= 300) },
  { name: 'chinese ≤ 300 chars', texts: loadChinese().records.filter((t) => [...t].length <= 300) },
  { name: 'postgres-doc (2-20 KB)', texts: loadLongDocuments().records },
];
const rows = [];
for (const { name, texts } of corpora) {
  const batch = encodeBatch(texts);
  const fps = sh.fingerprintAll(texts);
  const chars = texts.reduce((sum, t) => sum + t.length, 0) / texts.length;
  for (const s of [0.7, 0.8, 0.9]) {
    const { a, b } = sh.findPairs(fps, candidateRadius(s));
    const named = new Set([...a, ...b]).size;
    const repeat = Math.max(2, Math.ceil(1e6 / Math.max(1, a.length)));
    const manyA = new Uint32Array(a.length * repeat);
    const manyB = new Uint32Array(b.length * repeat);
    for (let r = 0; r < repeat; r++) manyA.set(a, r * a.length), manyB.set(b, r * b.length);
    const whole = [];
    const build = [];
    const decide = [];
    let kept = 0;
    for (let run = 0; run < RUNS; run++) {
      let t0 = performance.now();
      verifyPairs(core, batch, a, b, 2);
      build.push(performance.now() - t0);
      t0 = performance.now();
      const ok = verifyPairs(core, batch, a, b, s);
      const once = performance.now() - t0;
      kept = ok.reduce((x, y) => x + y, 0);
      t0 = performance.now();
      verifyPairs(core, batch, manyA, manyB, s);
      const many = performance.now() - t0;
      whole.push(once);
      decide.push((many - once) / ((repeat - 1) * Math.max(1, a.length)));
    }
    rows.push([name, texts.length, chars.toFixed(0), batch.utf8.length, s, candidateRadius(s), a.length, kept,
      median(whole).toFixed(1), named, ((1000 * median(build)) / named).toFixed(2), (1000 * median(decide)).toFixed(3)]);
  }
}
console.log(`node tests/bench/verify.js · Node ${process.version} · median of ${RUNS} runs\n`);
console.log(table(['corpus', 'texts', 'mean chars', 'UTF-8 bytes', 's', 'radius', 'candidates', 'J >= s', 'call ms',
  'texts named', 'building µs/text', 'deciding µs/candidate'], rows));
