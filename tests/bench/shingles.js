// `node tests/bench/shingles.js`: how the shingle sizes of the similarity were chosen
// (cpp/include/simhash/similarity.h, README "Similarity"). For window sizes n (alphabetic
// text) and n' (windows starting at a CJK character), on the labelled pairs of the quality
// benchmark (quality/dataset.js), it prints how well J separates:
//   positives - edits of at most 10% (word or character replacements, insertions and
//               deletions, noise, sentence swaps, case, whitespace, punctuation, width);
//   negatives - random pairs and the 3 nearest natural neighbours of each base (except
//               those with canonical 3-gram J >= 0.8: the same quote filed twice);
//   edits of 20% count as neither.
// Columns: best F1 over thresholds and where, ROC AUC, the 5th percentile and median J of
// positives, the 99th percentile and maximum of negatives, the 99.9th and 99.99th
// percentiles and maximum J of 200,000 random record pairs (the chance similarity a large
// collection meets), and F1 at thresholds 0.5-0.8. The normalization here is the JS
// canonical form (quality/jaccard.js: NFKC, lower case, no punctuation), close to the core's.
import { loadEnglish, loadChinese } from './quality/corpora.js';
import { buildDataset } from './quality/dataset.js';
import { canonical, ShingleSets } from './quality/jaccard.js';
import { Random } from './quality/random.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;
function setOf(text, nA, nC, cache) {
  let s = cache.get(text);
  if (s) return s;
  const cps = Array.from(canonical(text));
  s = new Set();
  for (let i = 0; i < cps.length; i++) {
    const n = CJK.test(cps[i]) ? nC : nA;
    if (i + n <= cps.length) s.add(cps.slice(i, i + n).join(''));
  }
  if (s.size === 0 && cps.length) s.add(cps.join(''));
  cache.set(text, s);
  return s;
}
function jaccard(a, b) {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union ? shared / union : 1;
}

const CONFIGS = [[2, 2], [3, 3], [4, 4], [5, 5], [3, 1], [3, 2], [4, 2], [5, 2], [4, 3], [5, 3], [4, 1]];
const base = new ShingleSets(3, canonical);
for (const corpus of [loadEnglish(), loadChinese()]) {
  const ds = buildDataset(corpus);
  const label = ds.pairs.map((p) => {
    if (p.kind === 'edit') return p.fraction <= 0.1 + 1e-9 ? 1 : null;
    if (p.kind === 'natural' && base.jaccard(ds.texts[p.a], ds.texts[p.b]) >= 0.8) return null;
    return 0;
  });
  const rng = new Random('shingles/random-pairs');
  const records = corpus.records;
  const random = Array.from({ length: 200000 }, () => [rng.int(records.length), rng.int(records.length)]).filter(([a, b]) => a !== b);
  console.log(`\n${corpus.name}: ${label.filter((x) => x === 1).length} positives, ${label.filter((x) => x === 0).length} negatives\n`);
  console.log('| n | n\' (CJK) | best F1 @ s | AUC | positives p5 / p50 | negatives p99 / max | random p99.9 / p99.99 / max | F1 at 0.5 / 0.6 / 0.7 / 0.8 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [nA, nC] of CONFIGS) {
    if (corpus.name === 'english' && nC !== nA && nC !== 2) continue; // n' does not matter there
    const cache = new Map();
    const js = ds.pairs.map((p) => jaccard(setOf(ds.texts[p.a], nA, nC, cache), setOf(ds.texts[p.b], nA, nC, cache)));
    const pos = js.filter((_, i) => label[i] === 1).sort((x, y) => x - y);
    const neg = js.filter((_, i) => label[i] === 0).sort((x, y) => x - y);
    const f1At = (s) => {
      const tp = pos.filter((x) => x >= s).length;
      const fp = neg.filter((x) => x >= s).length;
      const precision = tp / (tp + fp || 1);
      const recall = tp / pos.length;
      return (2 * precision * recall) / (precision + recall || 1);
    };
    let best = [0, 0];
    for (let s = 0.05; s <= 0.951; s += 0.01) {
      const f = f1At(s);
      if (f > best[0]) best = [f, s];
    }
    let auc = 0;
    for (let j = 0, p = 0; p < pos.length; p++) {
      while (j < neg.length && neg[j] < pos[p]) j++;
      let k = j;
      while (k < neg.length && neg[k] === pos[p]) k++;
      auc += j + (k - j) / 2;
    }
    auc /= pos.length * neg.length;
    const rj = random.map(([a, b]) => jaccard(setOf(records[a], nA, nC, cache), setOf(records[b], nA, nC, cache))).sort((x, y) => x - y);
    const q = (arr, f) => arr[Math.min(arr.length - 1, Math.floor(f * arr.length))].toFixed(3);
    console.log(`| ${nA} | ${nC} | ${best[0].toFixed(3)} @ ${best[1].toFixed(2)} | ${auc.toFixed(4)} | ${q(pos, 0.05)} / ${q(pos, 0.5)} | ` +
      `${q(neg, 0.99)} / ${neg.at(-1).toFixed(3)} | ${q(rj, 0.999)} / ${q(rj, 0.9999)} / ${rj.at(-1).toFixed(3)} | ` +
      `${[0.5, 0.6, 0.7, 0.8].map((s) => f1At(s).toFixed(3)).join(' / ')} |`);
  }
}
