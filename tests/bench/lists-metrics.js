// Pair metrics for labelled lists (lists-data.js): items i < j form a true pair when
// entities[i] === entities[j]; a method's predicted pairs are set against them.

/** Every true pair [i, j], i < j, in order of i then j. */
export function truePairs(entities) {
  const membersOf = new Map();
  entities.forEach((entity, i) => {
    if (!membersOf.has(entity)) membersOf.set(entity, []);
    membersOf.get(entity).push(i);
  });
  const pairs = [];
  for (const members of membersOf.values()) {
    for (let x = 0; x < members.length; x++) for (let y = x + 1; y < members.length; y++) pairs.push([members[x], members[y]]);
  }
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/** How many true pairs (sum over entities of C(size, 2)), without listing them. */
export function truePairCount(entities) {
  return pairsWithin(countBy(entities));
}

/** Entity ids as small integers (equal ids, equal integers), for fast comparisons. */
export function entityCodes(entities) {
  const codes = new Map();
  return Int32Array.from(entities, (entity) => {
    if (!codes.has(entity)) codes.set(entity, codes.size);
    return codes.get(entity);
  });
}

/**
 * Precision, recall and F1 of tp true positives among `predicted` pairs, out of `actual` true
 * pairs. Precision is 1 with nothing predicted (no false positive), recall 1 with nothing to find.
 */
export function prf(tp, predicted, actual) {
  const precision = predicted ? tp / predicted : 1;
  const recall = actual ? tp / actual : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/**
 * The threshold t of best F1 when the predicted pairs are those scoring >= t, t scanned over
 * every observed score. Ties in F1 go to the higher threshold.
 * @param {Float32Array} allScores the score of every pair i < j (any order); SORTED IN PLACE
 * @param {Float32Array} trueScores the scores of the true pairs (every one of them, so its
 *   length is the number of true pairs), as the same float32 values as in allScores
 * @returns {{ threshold: number, tp: number, predicted: number, precision: number, recall: number, f1: number }}
 */
export function bestThreshold(allScores, trueScores) {
  allScores.sort();
  const truth = Float32Array.from(trueScores).sort();
  const actual = truth.length;
  let best = { threshold: Infinity, tp: 0, predicted: 0, ...prf(0, 0, actual) };
  let t = truth.length; // truth[t..] are the true scores >= the current threshold
  for (let i = allScores.length - 1; i >= 0;) {
    const value = allScores[i];
    while (i >= 0 && allScores[i] === value) i--;
    while (t > 0 && truth[t - 1] >= value) t--;
    const predicted = allScores.length - 1 - i;
    const tp = truth.length - t;
    const metrics = prf(tp, predicted, actual);
    if (metrics.f1 > best.f1) best = { threshold: value, tp, predicted, ...metrics };
  }
  return best;
}

/**
 * A scorer's precision-recall curve over pairs: one point per distinct score t, from the
 * highest down, whose predicted pairs are those scoring >= t (the last point predicts every
 * pair, recall 1).
 * @param {Float32Array} allScores the score of every pair (any order); SORTED IN PLACE
 * @param {Float32Array} trueScores the scores of the true pairs, all of them, as in bestThreshold
 * @returns {{ threshold: Float64Array, tp: Float64Array, predicted: Float64Array, actual: number }}
 *   point k: the pairs scoring >= threshold[k] number predicted[k], tp[k] of them true
 */
export function precisionRecallCurve(allScores, trueScores) {
  allScores.sort();
  const truth = Float32Array.from(trueScores).sort();
  let points = 0;
  for (let i = 0; i < allScores.length; i++) if (i === 0 || allScores[i] !== allScores[i - 1]) points++;
  const curve = { threshold: new Float64Array(points), tp: new Float64Array(points), predicted: new Float64Array(points), actual: truth.length };
  let t = truth.length;
  let k = 0;
  for (let i = allScores.length - 1; i >= 0; k++) {
    const value = allScores[i];
    while (i >= 0 && allScores[i] === value) i--;
    while (t > 0 && truth[t - 1] >= value) t--;
    curve.threshold[k] = value;
    curve.predicted[k] = allScores.length - 1 - i;
    curve.tp[k] = truth.length - t;
  }
  return curve;
}

// Comparisons of a curve's precision or recall with a point's allow for the rounding of the
// point's own ratio (tp / predicted computed the other way round).
const SLACK = 1e-12;

/**
 * The highest recall of a curve's points whose precision is at least `precision`; 0 when none
 * is (precision is 1 with nothing predicted, as prf says, but a curve has no such point).
 */
export function recallAtPrecision(curve, precision) {
  let best = 0;
  for (let k = 0; k < curve.tp.length; k++) {
    const { precision: p, recall: r } = prf(curve.tp[k], curve.predicted[k], curve.actual);
    if (p >= precision - SLACK && r > best) best = r;
  }
  return best;
}

/** The highest precision of a curve's points whose recall is at least `recall` (the last point's recall is 1). */
export function precisionAtRecall(curve, recall) {
  let best = 0;
  for (let k = 0; k < curve.tp.length; k++) {
    const { precision: p, recall: r } = prf(curve.tp[k], curve.predicted[k], curve.actual);
    if (r >= recall - SLACK && p > best) best = p;
  }
  return best;
}

/**
 * The first `count` pairs i < j of n items ranked by score, highest first, ties in row-major
 * order (i, then j): the order a person reads a scorer's pairs in.
 * @param {Float32Array} allScores the score of every pair i < j in row-major order (unsorted)
 * @param {Float32Array} sortedScores the same scores sorted ascending
 * @returns {{ a: Uint32Array, b: Uint32Array }}
 */
export function topPairs(allScores, sortedScores, n, count) {
  count = Math.min(count, allScores.length);
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  if (count === 0) return { a, b };
  const least = sortedScores[sortedScores.length - count]; // the count-th highest score
  let above = 0;
  for (let i = sortedScores.length - 1; i >= 0 && sortedScores[i] > least; i--) above++;
  const picked = new Uint32Array(count); // row-major indices: those above `least`, then the first ties
  let filled = 0;
  let ties = count - above;
  for (let k = 0; k < allScores.length; k++) {
    if (allScores[k] > least || (allScores[k] === least && ties > 0 && ties--)) picked[filled++] = k;
  }
  const order = Array.from(picked.keys()).sort((x, y) => allScores[picked[y]] - allScores[picked[x]] || picked[x] - picked[y]);
  // Row i starts at k = i * n - i * (i + 1) / 2; walk the rows along the sorted indices.
  const rowOf = (k) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) { // the last row starting at or before k
      const mid = (lo + hi + 1) >> 1;
      if (mid * n - (mid * (mid + 1)) / 2 <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  order.forEach((at, r) => {
    const k = picked[at];
    const i = rowOf(k);
    a[r] = i;
    b[r] = i + 1 + (k - (i * n - (i * (i + 1)) / 2));
  });
  return { a, b };
}

/**
 * What a person finds reading ranked pairs in order and confirming the true ones. A pair whose
 * answer follows from what was read is skipped at no cost: its two items already joined by a
 * chain of confirmed pairs, or their two groups (items so joined) already found different by a
 * pair read between them. After r + 1 reads, `read[r]` true pairs were read and `implied[r]`
 * true pairs are joined (the pairs within the groups the confirmations make, as the pairs
 * within a dedup group are counted found).
 * @param {{ a: Uint32Array, b: Uint32Array }} ranked
 * @param {ArrayLike<number>} codes entityCodes of the items
 * @param {number} [maxReads] stop after this many reads
 * @returns {{ read: Float64Array, implied: Float64Array, reads: number }} reads: how many were
 *   made (the arrays' length), fewer than maxReads when the ranked pairs ran out first
 */
export function readingCurve(ranked, codes, maxReads = ranked.a.length) {
  const parent = new Int32Array(codes.length).map((_, i) => i);
  const size = new Float64Array(codes.length).fill(1);
  const different = new Map(); // group root -> roots of the groups found different from it
  const find = (x) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const differentOf = (root) => {
    if (!different.has(root)) different.set(root, new Set());
    return different.get(root);
  };
  const limit = Math.min(maxReads, ranked.a.length);
  const read = new Float64Array(limit);
  const implied = new Float64Array(limit);
  let reads = 0;
  let tp = 0;
  let joined = 0;
  for (let r = 0; r < ranked.a.length && reads < limit; r++) {
    const x = find(ranked.a[r]);
    const y = find(ranked.b[r]);
    if (x === y || different.get(x)?.has(y)) continue; // known: no read
    if (codes[ranked.a[r]] === codes[ranked.b[r]]) {
      tp++;
      joined += size[x] * size[y];
      const [root, other] = size[x] < size[y] ? [y, x] : [x, y];
      parent[other] = root;
      size[root] += size[other];
      const moved = different.get(other);
      if (moved) { // the groups found different from `other` are so from the joined group
        const into = differentOf(root);
        for (const z of moved) {
          into.add(z);
          const back = different.get(z);
          back.delete(other);
          back.add(root);
        }
        different.delete(other);
      }
    } else {
      differentOf(x).add(y);
      differentOf(y).add(x);
    }
    read[reads] = tp;
    implied[reads] = joined;
    reads++;
  }
  return { read: read.subarray(0, reads), implied: implied.subarray(0, reads), reads };
}

/**
 * Pair counts of a partition: the predicted pairs are those of two items with the same label.
 * @param {ArrayLike<number|string>} labels one group label per item
 * @param {ArrayLike<number>} codes entityCodes of the items
 * @returns {{ tp: number, predicted: number }}
 */
export function partitionPairs(labels, codes) {
  const groupSizes = countBy(Array.from(labels));
  const cellSizes = countBy(Array.from(labels, (label, i) => `${label}\u0000${codes[i]}`));
  return { tp: pairsWithin(cellSizes), predicted: pairsWithin(groupSizes) };
}

/**
 * Pair counts of groups that may overlap (an item in several groups): the predicted pairs are
 * the distinct pairs of two items sharing some group.
 * @param {number[][]} groups item indices
 * @param {ArrayLike<number>} codes entityCodes of the items
 */
export function overlappingGroupPairs(groups, codes) {
  const n = codes.length;
  const seen = new Set();
  let tp = 0;
  for (const group of groups) {
    for (let x = 0; x < group.length; x++) {
      for (let y = x + 1; y < group.length; y++) {
        const i = Math.min(group[x], group[y]);
        const j = Math.max(group[x], group[y]);
        if (i === j) continue;
        const key = i * n + j;
        if (seen.has(key)) continue;
        seen.add(key);
        if (codes[i] === codes[j]) tp++;
      }
    }
  }
  return { tp, predicted: seen.size };
}

/**
 * Pair counts of a partition extended by links between its groups (dedup's review pairs): a
 * pair is predicted when its two items share a group, or their two groups are joined by a link
 * {a, b} (group of a, group of b) directly; links are not followed transitively.
 * @param {ArrayLike<number>} labels group label per item (integers)
 * @param {{ a: number, b: number }[]} links
 * @param {ArrayLike<number>} codes entityCodes of the items
 * @returns {{ tp: number, predicted: number, linkedTp: number, linkedPredicted: number, linkedGroupPairs: number }}
 *   tp, predicted: grouped or linked; linked*: those through a link only
 */
export function linkedPartitionPairs(labels, links, codes) {
  const grouped = partitionPairs(labels, codes);
  const groupSize = countBy(Array.from(labels));
  const groupEntitySize = countBy(Array.from(labels, (label, i) => `${label}\u0000${codes[i]}`));
  const entitiesOfGroup = new Map(); // group -> [entity code, count][]
  for (const [cell, count] of groupEntitySize) {
    const [label, code] = cell.split('\u0000');
    if (!entitiesOfGroup.has(label)) entitiesOfGroup.set(label, []);
    entitiesOfGroup.get(label).push([code, count]);
  }
  const linkedGroups = new Set();
  let linkedTp = 0;
  let linkedPredicted = 0;
  for (const { a, b } of links) {
    const ga = String(labels[a]);
    const gb = String(labels[b]);
    if (ga === gb) continue;
    const key = ga < gb ? `${ga}\u0000${gb}` : `${gb}\u0000${ga}`;
    if (linkedGroups.has(key)) continue;
    linkedGroups.add(key);
    linkedPredicted += groupSize.get(ga) * groupSize.get(gb);
    const countsB = new Map(entitiesOfGroup.get(gb));
    for (const [code, count] of entitiesOfGroup.get(ga)) linkedTp += count * (countsB.get(code) ?? 0);
  }
  return {
    tp: grouped.tp + linkedTp, predicted: grouped.predicted + linkedPredicted,
    linkedTp, linkedPredicted, linkedGroupPairs: linkedGroups.size,
  };
}

function countBy(values) {
  const counts = new Map();
  for (const value of values) {
    const key = String(value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function pairsWithin(counts) {
  let pairs = 0;
  for (const count of counts.values()) pairs += (count * (count - 1)) / 2;
  return pairs;
}
