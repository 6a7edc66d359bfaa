// Deduplication at collection scale. The labelled pairs (dataset.js) hold 8 non-duplicates
// per base, but a real dedup compares every text with every other: n texts make n(n-1)/2
// candidate pairs, and a k that looks fine on a few hard negatives can flood the result.
// Here the whole corpus plus every planted variant goes through findPairs; each reported
// pair is labelled by its exact Jaccard, and recall is the share of the labelled duplicate
// pairs that are reported.
//
// Loose k on short texts reports millions of pairs, so at each distance at most
// SAMPLE_PER_DISTANCE reported pairs (a seeded sample) are labelled and the share found
// there stands for all pairs at that distance: exact below the cap, within ±3% (95%) above.
import { ShingleSets, canonical } from './jaccard.js';
import { DUPLICATE_JACCARD, lengthBucket } from './dataset.js';
import { Random } from './random.js';

export const SAMPLE_PER_DISTANCE = 1000;

/**
 * Corpus records and the dataset's texts as one list, with the labelled duplicate pairs as
 * index pairs into it. keep(text) restricts both (e.g. to short texts).
 */
export function plantedCollection(corpus, dataset, keep = () => true, label = dataset.name) {
  const index = new Map();
  const texts = [];
  const add = (t) => {
    if (!index.has(t)) {
      index.set(t, texts.length);
      texts.push(t);
    }
    return index.get(t);
  };
  corpus.records.filter(keep).forEach(add);
  dataset.texts.filter(keep).forEach(add); // variants too, including those labelled non-duplicate
  const positives = dataset.pairs
    .filter((p) => p.duplicate && keep(dataset.texts[p.a]) && keep(dataset.texts[p.b]))
    .map((p) => [add(dataset.texts[p.a]), add(dataset.texts[p.b])]);
  return { name: label, texts, positives, index };
}

export const inBucket = (bucket) => (text) => lengthBucket(text) === bucket;

/** A 32-bit hash written twice into 64 bits, so findPairs(k64 = 2 k32) finds pairs within k32. */
export function asFingerprints64({ bits, words }) {
  if (bits === 64) return new BigUint64Array(words.buffer, words.byteOffset, words.length / 2);
  return BigUint64Array.from(words, (w) => (BigInt(w) << 32n) | BigInt(w));
}

const groundTruth = new ShingleSets(3, canonical);

/**
 * Collection P/R/F1 for k = 0..maxK (in the fingerprinter's own bits), for the plain rule
 * "distance <= k" and for each verifier { name, shingles: ShingleSets, minJaccard }: "distance
 * <= k and the verifier's Jaccard >= minJaccard".
 * Returns { plain: scores, verified: { [name]: scores }, reportedAtMaxK, findSeconds }.
 */
export function evaluateCollection(sh, fingerprints, collection, maxK, verifiers = []) {
  const fps = asFingerprints64(fingerprints);
  const scale = 64 / fingerprints.bits;
  const start = performance.now();
  const found = sh.findPairs(fps, maxK * scale);
  const findSeconds = (performance.now() - start) / 1000;
  const { texts } = collection;

  const byDistance = Array.from({ length: maxK + 1 }, () => []);
  for (let i = 0; i < found.a.length; i++) byDistance[found.distance[i] / scale].push(i);

  const rules = [{ name: null, passes: () => true }, ...verifiers.map((v) => ({
    name: v.name,
    passes: (a, b) => v.shingles.jaccard(texts[a], texts[b]) >= v.minJaccard,
  }))];
  const rng = new Random(`${collection.name}/collection-sample`);
  // per rule and distance: estimated reported pairs passing the rule, and duplicates among them
  const kept = rules.map(() => new Float64Array(maxK + 1));
  const correct = rules.map(() => new Float64Array(maxK + 1));
  byDistance.forEach((indices, d) => {
    if (indices.length === 0) return;
    const sample = indices.length <= SAMPLE_PER_DISTANCE
      ? indices
      : rng.sampleIndices(indices.length, SAMPLE_PER_DISTANCE).map((i) => indices[i]);
    const scaleUp = indices.length / sample.length;
    for (const i of sample) {
      const a = found.a[i];
      const b = found.b[i];
      const duplicate = groundTruth.jaccard(texts[a], texts[b]) >= DUPLICATE_JACCARD;
      rules.forEach((rule, r) => {
        if (!rule.passes(a, b)) return;
        kept[r][d] += scaleUp;
        if (duplicate) correct[r][d] += scaleUp;
      });
    }
  });

  const recalledAt = rules.map(() => new Float64Array(maxK + 1));
  for (const [a, b] of collection.positives) {
    const d = sh.distance(fps[a], fps[b]) / scale;
    if (d > maxK) continue;
    rules.forEach((rule, r) => rule.passes(a, b) && recalledAt[r][d]++);
  }

  const scoresOf = (r) => {
    const scores = [];
    let reported = 0;
    let duplicates = 0;
    let recalled = 0;
    for (let k = 0; k <= maxK; k++) {
      reported += kept[r][k];
      duplicates += correct[r][k];
      recalled += recalledAt[r][k];
      const precision = reported ? duplicates / reported : 1;
      const recall = collection.positives.length ? recalled / collection.positives.length : 1;
      const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
      scores.push({ k, reported, precision, recall, f1 });
    }
    return scores;
  };
  const verified = {};
  verifiers.forEach((v, i) => { verified[v.name] = scoresOf(i + 1); });
  return { plain: scoresOf(0), verified, reportedAtMaxK: found.a.length, findSeconds };
}

/**
 * The largest k <= maxK at which findPairs is expected to report at most budget pairs,
 * estimated from the distances of 20,000 random pairs. Beyond it precision is already
 * negligible, and the pairs would only cost memory and time.
 */
export function affordableMaxK(sh, fingerprints, maxK, budget, name) {
  const fps = asFingerprints64(fingerprints);
  const scale = 64 / fingerprints.bits;
  const n = fps.length;
  const rng = new Random(`${name}/affordable-k`);
  const samples = 20000;
  const at = new Float64Array(65);
  for (let s = 0; s < samples; s++) {
    const a = rng.int(n);
    let b = rng.int(n - 1);
    if (b >= a) b++;
    at[sh.distance(fps[a], fps[b]) / scale]++;
  }
  const total = (n * (n - 1)) / 2;
  let cumulative = 0;
  let k = 0;
  for (let d = 0; d <= maxK; d++) {
    cumulative += at[d];
    if ((cumulative / samples) * total > budget) break;
    k = d;
  }
  return k;
}
