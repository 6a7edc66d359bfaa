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
