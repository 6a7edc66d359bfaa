// Precision, recall and F1 of the rule "near-duplicate iff distance <= k", from weighted
// distance histograms of labelled pairs.

function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Hamming distance of every pair. fingerprints: { bits: 32|64, words: Uint32Array } with
 * bits/32 words per text (a BigUint64Array viewed as Uint32Array has that layout).
 */
export function pairDistances(fingerprints, pairs) {
  const w = fingerprints.bits / 32;
  const words = fingerprints.words;
  const out = new Uint8Array(pairs.length);
  pairs.forEach((p, i) => {
    let d = 0;
    for (let j = 0; j < w; j++) d += popcount32(words[p.a * w + j] ^ words[p.b * w + j]);
    out[i] = d;
  });
  return out;
}

/**
 * Weights that restrict the evaluation to a subset of pairs while keeping its
 * duplicate : non-duplicate mix. Pairs the predicate selects weigh 1. The natural and
 * random non-duplicates of a base are shared by its edit pairs: each weighs the share of
 * that base's edit pairs the predicate selects. So "edit type X" is judged against the
 * negatives its bases would meet, at the same ratio as the whole set.
 */
export function subsetWeights(pairs, predicate) {
  const edits = new Map();
  const selected = new Map();
  for (const p of pairs) {
    if (p.kind !== 'edit') continue;
    edits.set(p.base, (edits.get(p.base) ?? 0) + 1);
    if (predicate(p)) selected.set(p.base, (selected.get(p.base) ?? 0) + 1);
  }
  return Float64Array.from(pairs, (p) => {
    if (predicate(p)) return 1;
    if (p.kind === 'edit' || p.duplicate) return 0;
    return (selected.get(p.base) ?? 0) / (edits.get(p.base) ?? 1);
  });
}

/** Weighted counts of duplicate and non-duplicate pairs at each distance 0..bits. */
export function histograms(pairs, distances, weights, bits) {
  const duplicate = new Float64Array(bits + 1);
  const other = new Float64Array(bits + 1);
  pairs.forEach((p, i) => {
    const w = weights ? weights[i] : 1;
    if (w) (p.duplicate ? duplicate : other)[distances[i]] += w;
  });
  return { duplicate, other };
}

/** [{ k, precision, recall, f1, predicted }] for k = 0..maxK; precision is 1 when nothing is predicted. */
export function scoresByK({ duplicate, other }, maxK) {
  const positives = duplicate.reduce((s, x) => s + x, 0);
  const scores = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k <= maxK; k++) {
    tp += duplicate[k] ?? 0;
    fp += other[k] ?? 0;
    const precision = tp + fp > 0 ? tp / (tp + fp) : 1;
    const recall = positives > 0 ? tp / positives : 1;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    scores.push({ k, precision, recall, f1, predicted: tp + fp });
  }
  return scores;
}

/** The k of highest F1 (the smallest such k on ties). */
export function bestScore(scores) {
  return scores.reduce((best, s) => (s.f1 > best.f1 + 1e-12 ? s : best), scores[0]);
}

/** Area under the ROC curve from the histograms: how well distance ranks pairs, for any k. */
export function rocAuc({ duplicate, other }) {
  const positives = duplicate.reduce((s, x) => s + x, 0);
  const negatives = other.reduce((s, x) => s + x, 0);
  let area = 0;
  let negativesBelow = 0;
  for (let d = 0; d < duplicate.length; d++) {
    // a duplicate at distance d outranks every non-duplicate farther away; ties count half
    area += duplicate[d] * (negatives - negativesBelow - other[d] / 2);
    negativesBelow += other[d];
  }
  return positives && negatives ? area / (positives * negatives) : 1;
}
