// `node tests/bench/calibrate.js`: the Hamming radius that makes fingerprints a safe candidate
// filter for a similarity threshold s (js/core/thresholds.js holds the resulting table).
//
// For each benchmark corpus (English and Chinese fortunes, the PostgreSQL manual as long
// documents), the collection is the corpus records plus the planted variants of the quality
// benchmark (quality/dataset.js), so that every similarity level has hundreds of pairs. The
// exact similarity join (the core's, through WASM) finds every pair with J >= 0.5; the
// default fingerprints give each pair's distance. Per s it prints the smallest radius that
// keeps >= 99% of the pairs with J >= s, and what a radius costs: candidates per million
// pairs, from 2,000,000 random pairs of the corpus records alone (nothing planted: the rate
// of chance candidates a real collection sees). From BANDING_FROM up, dedup takes its
// candidates from MinHash banding instead (cpp/include/simhash/similar_groups.h): for those
// s it also prints the banding's recall on the same pairs and its chance candidates on the
// same random pairs, and the last table gives what dedup uses on each corpus (banding for
// short texts only: js/core/thresholds.js usesBanding). Writes tests/output/calibration.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadEnglish, loadChinese, loadLongDocuments } from './quality/corpora.js';
import { buildDataset } from './quality/dataset.js';
import { plantedCollection } from './quality/collection.js';
import { Random } from './quality/random.js';
import { loadCore, encodeBatch, similarityJoin } from './quality/exact.js';
import { table, f3 } from './quality/table.js';
import { BANDING_FROM, candidateRadius, RADIUS_TABLE, usesBanding } from '../../js/core/thresholds.js';
import { withSimilarity } from '../../js/bindings/shingle-sets.js';

const SIMILARITIES = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];
const RECALL = 0.99;
const RANDOM_PAIRS = 2_000_000;
const LENGTHS = [{ name: '< 100 chars', max: 99 }, { name: '100-299', max: 299 }, { name: '300-1999', max: 1999 }, { name: '2000+', max: Infinity }];

const lines = [];
const print = (text = '') => {
  console.log(text);
  lines.push(text);
};
const started = performance.now();
const { core, sh } = await loadCore();

function popcount64(x) {
  let n = 0;
  for (; x; n++) x &= x - 1n;
  return n;
}

const results = [];
// --corpus=NAME runs one corpus only (english, chinese, postgres-doc).
const only = process.argv.find((a) => a.startsWith('--corpus='))?.slice(9);
for (const corpus of [loadEnglish, loadChinese, loadLongDocuments].map((load) => load()).filter((c) => !only || c.name === only)) {
  const dataset = buildDataset(corpus);
  const collection = plantedCollection(corpus, dataset);
  const texts = collection.texts;
  const t0 = performance.now();
  const join = similarityJoin(core, encodeBatch(texts), 0.5);
  const joinSeconds = (performance.now() - t0) / 1000;
  const fps = sh.fingerprintAll(texts);
  const distance = Uint8Array.from(join.a, (a, p) => popcount64(fps[a] ^ fps[join.b[p]]));
  const length = texts.map((t) => [...t].length);
  const rng = new Random(`${corpus.name}/calibration`);
  const randomAt = new Float64Array(65);
  const records = corpus.records.length; // the collection lists the records first
  for (let s = 0; s < RANDOM_PAIRS; s++) {
    const a = rng.int(records);
    let b = rng.int(records - 1);
    if (b >= a) b++;
    randomAt[popcount64(fps[a] ^ fps[b])]++;
  }
  const perMillionWithin = (r) => (1e6 * randomAt.slice(0, r + 1).reduce((x, y) => x + y, 0)) / RANDOM_PAIRS;
  const radiusFor = (pairs) => {
    if (pairs.length === 0) return null;
    const sorted = pairs.map((p) => distance[p]).sort((x, y) => x - y);
    return sorted[Math.ceil(RECALL * sorted.length) - 1];
  };
  // Banding: each s's bands over the collection's sets, then which pairs share one.
  const banded = new Map();
  await withSimilarity(core, texts, async (sets) => {
    for (const s of SIMILARITIES.filter((x) => x >= BANDING_FROM)) {
      const groups = core._similarGroupsCreate(sets, s, false);
      const bands = core._similarGroupsBands(groups);
      const out = core._malloc(4 * bands);
      try {
        // Every text's band keys once; two texts are candidates when a band's keys agree.
        const keys = new Uint32Array(texts.length * bands);
        for (let i = 0; i < texts.length; i++) {
          core._similarGroupsBandKeys(groups, i, out);
          keys.set(new Uint32Array(core.HEAPU8.buffer, out, bands), i * bands);
        }
        const shareBand = (a, b) => {
          for (let j = 0; j < bands; j++) if (keys[a * bands + j] === keys[b * bands + j]) return true;
          return false;
        };
        const pairs = [];
        for (let p = 0; p < join.a.length; p++) if (join.similarity[p] >= s) pairs.push(p);
        const found = pairs.filter((p) => shareBand(join.a[p], join.b[p])).length;
        const chance = new Random(`${corpus.name}/calibration`);
        let candidates = 0;
        for (let r = 0; r < RANDOM_PAIRS; r++) {
          const a = chance.int(records);
          let b = chance.int(records - 1);
          if (b >= a) b++;
          candidates += shareBand(a, b);
        }
        banded.set(s, { recall: pairs.length ? found / pairs.length : 1, perMillion: (1e6 * candidates) / RANDOM_PAIRS });
      } finally {
        core._free(out);
        core._similarGroupsDelete(groups);
      }
    }
  });
  const rows = SIMILARITIES.map((s) => {
    const pairs = [];
    for (let p = 0; p < join.a.length; p++) if (join.similarity[p] >= s) pairs.push(p);
    const radius = radiusFor(pairs);
    const byLength = LENGTHS.map((bucket, i) => radiusFor(pairs.filter((p) => {
      const l = Math.min(length[join.a[p]], length[join.b[p]]);
      return l <= bucket.max && (i === 0 || l > LENGTHS[i - 1].max);
    })));
    const chosen = candidateRadius(s);
    const recall = pairs.length ? pairs.filter((p) => distance[p] <= chosen).length / pairs.length : 1;
    return { s, pairs: pairs.length, radius, max: pairs.length ? pairs.reduce((m, p) => Math.max(m, distance[p]), 0) : null, byLength, chosen, recall, perMillion: perMillionWithin(chosen), perMillionAt: perMillionWithin, banded: banded.get(s) };
  });
  results.push({ corpus, texts: texts.length, rows, bands: (s) => usesBanding(s, texts) });
  print(`\n## ${corpus.name}: ${texts.length} texts (${corpus.records.length} records + planted variants), ${join.a.length} pairs with J >= 0.5 (join ${joinSeconds.toFixed(1)} s)\n`);
  print(table(['s', 'pairs J >= s', `radius for ${RECALL * 100}%`, 'max distance', ...LENGTHS.map((l) => `radius, ${l.name}`),
    'js/core/thresholds.js radius', 'recall there', 'candidates per 1M pairs there', 'banding recall', 'banding per 1M pairs'],
  rows.map((r) => [r.s, r.pairs, r.radius ?? '', r.max ?? '', ...r.byLength.map((x) => x ?? ''), r.chosen, f3(r.recall), r.perMillion.toFixed(1),
    r.banded ? f3(r.banded.recall) : '', r.banded ? r.banded.perMillion.toFixed(1) : ''])));
}

print('\n## Candidates per million pairs by radius (random pairs of each corpus\'s records)\n');
const radii = [3, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28];
print(table(['radius', ...results.map((r) => r.corpus.name)], radii.map((k) => [k, ...results.map((r) => r.rows[0].perMillionAt(k).toFixed(1))])));

print(`\n## What dedup uses at each s (banding from ${BANDING_FROM} for short texts, the radius of js/core/thresholds.js otherwise), checked\n`);
const used = (r, x) => (r.bands(x.s) ? { how: 'banding', ...x.banded } : { how: `radius ${x.chosen}`, recall: x.recall, perMillion: x.perMillion });
print(table(['s', ...results.flatMap((r) => [r.corpus.name, 'recall', 'per 1M'])],
  RADIUS_TABLE.map(([s]) => {
    const row = [s];
    for (const r of results) {
      const x = r.rows.find((y) => Math.abs(y.s - s) < 1e-9);
      const u = x && used(r, x);
      row.push(u ? u.how : '', u ? f3(u.recall) : '', u ? u.perMillion.toFixed(1) : '');
    }
    return row;
  })));
const misses = results.flatMap((r) => r.rows.filter((x) => x.pairs >= 50 && used(r, x).recall < RECALL).map((x) => `${r.corpus.name} s=${x.s} recall ${f3(used(r, x).recall)}`));
print(misses.length ? `\nBelow ${RECALL} recall: ${misses.join(', ')}` : `\nEvery s with at least 50 pairs reaches ${RECALL} recall with dedup's candidates on every corpus.`);
print(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
mkdirSync(new URL('../output/', import.meta.url), { recursive: true });
writeFileSync(new URL('../output/calibration.txt', import.meta.url), lines.join('\n') + '\n');
