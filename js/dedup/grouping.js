// Groups from pairs or labels, the one pipeline of dedup in every entry (the single-threaded
// API, the pool and its workers, the demo through sh.groupLabels):
//   pairs --leader rule (the core's) or componentsOfPairs--> labels --flatGroups--> typed arrays
//   --dedupResult--> { unique, uniqueIndices, groups }.
// A label is the index of the item an item is grouped under: itself when it is kept.
import { mapArray } from '../core/arrays.js';
import { checkInteger, checkKnownKeys, checkObject, checkPairIndices, typeName } from '../core/checks.js';
import { STEP_ITERATIONS, runSteps } from '../core/pacing.js';
import { checkSimilarity } from '../core/thresholds.js';
import { leaderOfPairs } from '../bindings/pairs.js';

export const GROUPINGS = ['leader', 'components'];

const STEP_MASK = STEP_ITERATIONS - 1;

/** Connected components of the pairs: each item is labelled with its component's smallest index. */
export function componentsOfPairs(count, pairs, maxDistance = Infinity) {
  return runSteps(componentSteps(count, pairs, maxDistance));
}

/** componentsOfPairs as a generator of work for runSteps or runStepsPaced (pacing.js). */
export function* componentSteps(count, pairs, maxDistance = Infinity) {
  const { a, b, distance } = pairs;
  const parent = new Uint32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (x) => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]]; // path halving
    return x;
  };
  for (let i = 0; i < a.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    if (distance && distance[i] > maxDistance) continue;
    const ra = find(a[i]);
    const rb = find(b[i]);
    // The smaller index becomes the root, so each root is its component's minimum.
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  }
  for (let i = 0; i < count; i++) {
    parent[i] = find(i);
    if ((i & STEP_MASK) === STEP_MASK) yield;
  }
  return parent;
}

/**
 * Labels of the pairs { a, b, distance? } (as findPairs returns them) by `grouping`, pairs
 * whose distance exceeds maxDistance ignored: leader grouping by the core's rule
 * (bindings/pairs.js leaderOfPairs), components here.
 */
export function labelsOfPairs(core, count, pairs, grouping, maxDistance = Infinity) {
  if (grouping === 'components') return componentsOfPairs(count, pairs, maxDistance);
  const { a, b, distance } = pairs;
  const words = new Uint32Array(3 * a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (distance && distance[i] > maxDistance) continue;
    words[n++] = a[i];
    words[n++] = b[i];
    words[n++] = distance ? distance[i] : 0;
  }
  return leaderOfPairs(core, count, words.subarray(0, n));
}

/**
 * The labels of `count` items by the leader rule over the pairs (a[i], b[i]), taken in order
 * of how many items each matches, most first, then by index: an item that many match leads
 * their group, as the original of its copies does, where index order would let one copy
 * lead and leave out the copies that match the original but not it (records, one-line
 * records: README "Records"). An item's matches are the pairs p that `counts(p)` accepts
 * (all by default); every pair may join. Each item is labelled with its kept item.
 */
export function centralLeaderLabels(core, count, { a, b }, counts = () => true) {
  const degree = new Uint32Array(count);
  for (let p = 0; p < a.length; p++) {
    if (!counts(p)) continue;
    degree[a[p]]++;
    degree[b[p]]++;
  }
  const itemOfRank = Uint32Array.from(degree.keys()).sort((x, y) => degree[y] - degree[x] || x - y);
  const rank = new Uint32Array(count);
  for (let r = 0; r < count; r++) rank[itemOfRank[r]] = r;
  const words = new Uint32Array(3 * a.length);
  for (let p = 0; p < a.length; p++) {
    const [x, y] = [rank[a[p]], rank[b[p]]];
    words[3 * p] = Math.min(x, y);
    words[3 * p + 1] = Math.max(x, y);
  }
  const leaderRanks = leaderOfPairs(core, count, words);
  return mapArray(rank, (r) => itemOfRank[leaderRanks[r]], Uint32Array);
}

/** The pairs i with keep(i), as a new pairs object. */
function pairsWhere(pairs, keep) {
  const kept = [];
  for (let i = 0; i < pairs.a.length; i++) if (keep(i)) kept.push(i);
  const pick = (array) => array && array.constructor.from(kept, (i) => array[i]);
  return { a: pick(pairs.a), b: pick(pairs.b), distance: pick(pairs.distance) };
}

/** sh.groupLabels: checks its arguments, then labelsOfPairs. */
export function groupLabels(core, count, pairs, options) {
  checkInteger(count, 'count', 0, 0xffffffff);
  checkPairIndices(pairs, count, 'count');
  for (let i = 0; i < pairs.a.length; i++) {
    if (pairs.a[i] >= pairs.b[i]) throw new RangeError(`pairs[${i}] must have a < b, got (${pairs.a[i]}, ${pairs.b[i]})`);
    if (i > 0 && (pairs.a[i] < pairs.a[i - 1] || (pairs.a[i] === pairs.a[i - 1] && pairs.b[i] <= pairs.b[i - 1]))) {
      throw new RangeError(`pairs must be sorted by (a, b) without repeats, as findPairs returns them; pairs[${i}] is not`);
    }
  }
  const o = checkObject(options, 'options');
  checkKnownKeys(o, 'options', ['grouping', 'maxDistance', 'similarity', 'similarities']);
  const { grouping = 'leader', maxDistance = 64, similarity, similarities } = o;
  if (!GROUPINGS.includes(grouping)) throw new RangeError(`options.grouping must be 'leader' or 'components', got ${String(grouping)}`);
  checkInteger(maxDistance, 'options.maxDistance', 0, 64);
  if ((similarity === undefined) !== (similarities === undefined)) {
    throw new TypeError('options.similarity and options.similarities go together: the threshold and the similarity of each pair (sh.similarities)');
  }
  if (similarity === undefined) return labelsOfPairs(core, count, pairs, grouping, maxDistance);
  checkSimilarity(similarity, 'options.similarity');
  if (!(similarities instanceof Float64Array)) throw new TypeError(`options.similarities must be a Float64Array, got ${typeName(similarities)}`);
  if (similarities.length !== pairs.a.length) throw new RangeError(`options.similarities must have one value per pair (${pairs.a.length}), got ${similarities.length}`);
  return labelsOfPairs(core, count, pairsWhere(pairs, (i) => similarities[i] >= similarity), grouping, maxDistance);
}

/**
 * Labels as flat typed arrays (they travel by transfer): the kept items ascending; groups
 * ordered by kept item, each as kept item then members ascending, group g being
 * groupItems[groupStarts[g] .. groupStarts[g + 1]). Only groups of two or more.
 */
export function flatGroups(labels) {
  const count = labels.length;
  const members = new Uint32Array(count); // members per kept item, itself excluded
  let uniqueCount = 0;
  for (let i = 0; i < count; i++) {
    if (labels[i] === i) uniqueCount++;
    else members[labels[i]]++;
  }
  let groupCount = 0;
  let items = 0;
  for (let leader = 0; leader < count; leader++) {
    if (!members[leader]) continue;
    groupCount++;
    items += members[leader] + 1;
  }
  const unique = new Uint32Array(uniqueCount);
  const groupStarts = new Uint32Array(groupCount + 1);
  const groupItems = new Uint32Array(items);
  const slot = new Uint32Array(count); // where a kept item's next member goes in groupItems
  for (let leader = 0, g = 0, at = 0; leader < count; leader++) {
    if (!members[leader]) continue;
    groupStarts[g++] = at;
    groupItems[at] = leader;
    slot[leader] = at + 1;
    at += members[leader] + 1;
  }
  groupStarts[groupCount] = items;
  for (let i = 0, u = 0; i < count; i++) {
    if (labels[i] === i) unique[u++] = i;
    else groupItems[slot[labels[i]]++] = i;
  }
  return { unique, groupStarts, groupItems };
}

/** Result entries (kept items, groups) built between pauses. */
const RESULT_SLICE = 16384;

/** dedup's plain arrays from flat groups, a slice at a time with pacer.pause() between slices. */
export async function dedupResult(items, { unique, groupStarts, groupItems }, pacer) {
  const uniqueIndices = new Array(unique.length);
  const uniqueItems = new Array(unique.length);
  const groups = new Array(groupStarts.length - 1);
  const entries = unique.length + groups.length;
  for (let from = 0; from < entries; from += RESULT_SLICE) {
    const to = Math.min(entries, from + RESULT_SLICE);
    for (let i = from; i < Math.min(to, unique.length); i++) {
      uniqueIndices[i] = unique[i];
      uniqueItems[i] = items[unique[i]];
    }
    for (let g = Math.max(from, unique.length) - unique.length; g < to - unique.length; g++) {
      groups[g] = Array.from(groupItems.subarray(groupStarts[g], groupStarts[g + 1]));
    }
    if (to < entries) await pacer.pause();
  }
  return { unique: uniqueItems, uniqueIndices, groups };
}
