// `npm run bench:quality`, sections 12-14 (also alone: `node tests/bench/similarity-quality.js`):
// dedup by similarity (issue 13) against today's fingerprint-only dedup, on two protocols.
//
//   natural - every pair of a real corpus, nothing planted. Ground truth: the exact
//             similarity join (the core's, through WASM) of all pairs with J >= 0.5.
//   planted - the corpus records plus the planted variants of quality/dataset.js, scored
//             both against the same exact join and against the labels of sections 1-11
//             (canonical character 3-gram Jaccard >= 0.5, NFKC and lower case).
// Modes: similarity s (dedup's candidates, verified exactly, leader grouping) and
// fingerprint-only at k = 3 and 12 (leader grouping of the pairs within k). Where dedup
// bands (js/core/thresholds.js usesBanding) the labels are sh.dedup's own. Where it takes the
// candidates within candidateRadius(s), the verified pairs are exactly the join's pairs with
// J >= s within the radius, so they are taken from the join, which spares the near-linear
// candidate scans of low s (their cost is in `node tests/bench/calibrate.js`).
// Scoring is pairwise over the groups (every two items of one group form a predicted pair):
//   close duplicates - truth J >= 0.8; pairs with 0.5 <= J < 0.8 count as neither;
//   at s             - truth J >= s (for the similarity modes).
import { fileURLToPath } from 'node:url';
import { loadEnglish, loadChinese, loadLongDocuments } from './quality/corpora.js';
import { buildDataset } from './quality/dataset.js';
import { plantedCollection } from './quality/collection.js';
import { ShingleSets, canonical } from './quality/jaccard.js';
import { loadCore, encodeBatch, similarityJoin } from './quality/exact.js';
import { leaderLabels, scoreAgainstJoin, scoreAgainstLabels } from './quality/similarity-dedup.js';
import { candidateRadius, usesBanding, DEFAULT_SIMILARITY as RECOMMENDED_SIMILARITY } from '../../js/core/thresholds.js';
import { table, f3 } from './quality/table.js';

export const SIMILARITIES = [0.5, 0.6, 0.7, 0.8, 0.9];
export const FINGERPRINT_KS = [3, 12];

function popcount64(x) {
  let n = 0;
  for (; x; n++) x &= x - 1n;
  return n;
}

function modes() {
  return [
    ...SIMILARITIES.map((s) => ({ name: `similarity ${s}`, similarity: s })),
    ...FINGERPRINT_KS.map((k) => ({ name: `fingerprint only, k = ${k}`, maxDistance: k })),
  ];
}

/** What a similarity mode's candidates are on these texts, as dedup chooses. */
const filterOf = (s, texts) => (usesBanding(s, texts) ? 'banding' : `radius ${candidateRadius(s)}`);

/** Leader labels of a mode on a collection whose exact join (>= 0.5) and fingerprints are known. */
async function labelsOf(sh, mode, texts, fps, join, distance) {
  if (mode.similarity !== undefined && usesBanding(mode.similarity, texts)) {
    const label = Uint32Array.from(texts, (_, i) => i);
    for (const group of (await sh.dedup(texts, { similarity: mode.similarity })).groups) for (const i of group) label[i] = group[0];
    return label;
  }
  if (mode.similarity !== undefined) {
    const radius = candidateRadius(mode.similarity);
    const a = [];
    const b = [];
    for (let p = 0; p < join.a.length; p++) {
      if (join.similarity[p] >= mode.similarity && distance[p] <= radius) a.push(join.a[p]), b.push(join.b[p]);
    }
    return leaderLabels(texts.length, a, b);
  }
  const found = sh.findPairs(fps, mode.maxDistance);
  return leaderLabels(texts.length, found.a, found.b);
}

export async function similarityReport(print, context = {}) {
  const started = performance.now();
  const { core, sh } = context.core ? context : await loadCore();
  const corpora = [loadEnglish(), loadChinese(), loadLongDocuments()];
  const summary = [];
  for (const protocol of ['natural', 'planted']) {
    print(`\n## ${protocol === 'natural' ? 12 : 13}. Dedup by similarity, ${protocol} protocol\n`);
    for (const corpus of corpora) {
      let texts = corpus.records;
      let collection = null;
      if (protocol === 'planted') {
        collection = plantedCollection(corpus, buildDataset(corpus));
        texts = collection.texts;
      }
      const t0 = performance.now();
      const join = similarityJoin(core, encodeBatch(texts), 0.5);
      const joinSeconds = (performance.now() - t0) / 1000;
      const fps = sh.fingerprintAll(texts);
      const distance = Uint8Array.from(join.a, (a, p) => popcount64(fps[a] ^ fps[join.b[p]]));
      const count = (s) => join.similarity.filter((x) => x >= s).length;
      print(`### ${corpus.name}, ${protocol}: ${texts.length} texts; exact join in ${joinSeconds.toFixed(1)} s: ` +
        `${count(0.5)} pairs with J >= 0.5, ${count(0.8)} with J >= 0.8\n`);
      const legacy = new ShingleSets(3, canonical);
      const rows = [];
      for (const mode of modes()) {
        const label = await labelsOf(sh, mode, texts, fps, join, distance);
        const close = scoreAgainstJoin(label, join, 0.8, 0.5);
        const atS = mode.similarity !== undefined ? scoreAgainstJoin(label, join, mode.similarity) : null;
        const near = scoreAgainstJoin(label, join, 0.5);
        const row = { mode, close, atS, near };
        if (collection) row.labels = scoreAgainstLabels(label, collection.positives, (i, j) => legacy.jaccard(texts[i], texts[j]) >= 0.5);
        summary.push({ protocol, corpus: corpus.name, ...row });
        const groups = new Set(label).size;
        rows.push([mode.similarity !== undefined ? `${mode.name} (${filterOf(mode.similarity, texts)})` : mode.name, texts.length - groups,
          f3(close.precision), f3(close.recall), f3(close.f1),
          f3(near.precision), f3(near.recall), f3(near.f1),
          atS ? `${f3(atS.precision)} / ${f3(atS.recall)} / ${f3(atS.f1)}` : '',
          ...(collection ? [`${f3(row.labels.precision)} / ${f3(row.labels.recall)} / ${f3(row.labels.f1)}`] : [])]);
      }
      print(table(['mode', 'removed', 'close P', 'R', 'F1', 'J>=0.5 P', 'R', 'F1', 'J>=s P / R / F1',
        ...(collection ? ['labels P / R / F1'] : [])], rows));
      print('');
    }
  }
  print(`## 14. Recommended default similarity: ${RECOMMENDED_SIMILARITY} (banding for short texts, else radius ${candidateRadius(RECOMMENDED_SIMILARITY)})\n`);
  const at = summary.filter((r) => r.mode.similarity === RECOMMENDED_SIMILARITY);
  print(table(['protocol', 'corpus', 'close-duplicate F1', 'J >= 0.5 F1', `J >= ${RECOMMENDED_SIMILARITY} F1`, 'planted labels F1'],
    at.map((r) => [r.protocol, r.corpus, f3(r.close.f1), f3(r.near.f1), f3(r.atS.f1), r.labels ? f3(r.labels.f1) : ''])));
  print(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return summary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await similarityReport((line = '') => console.log(line));
