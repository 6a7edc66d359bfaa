// The core's pair search and leader grouping over fingerprints.
import { coreCall, copyOut, resultWords, withAllocations } from './memory.js';

/** The most pairs findPairs returns: 9 bytes each in JS, 12 in the core's result buffer. */
export const MAX_PAIRS = 2 ** 27;

/**
 * Items with equal fingerprints, collapsed: reps[g] is the first item of group g, groupOf[i]
 * the group of item i. With `keyOf`, items also need equal keys to share a group.
 */
export function exactGroups(fingerprints, keyOf) {
  const groupOf = new Uint32Array(fingerprints.length);
  const reps = [];
  const seen = new Map();
  for (let i = 0; i < fingerprints.length; i++) {
    const key = keyOf ? `${fingerprints[i]}:${keyOf(i)}` : fingerprints[i];
    let group = seen.get(key);
    if (group === undefined) {
      seen.set(key, (group = reps.length));
      reps.push(i);
    }
    groupOf[i] = group;
  }
  return { groupOf, reps: Uint32Array.from(reps) };
}

/** Labels of every item from the labels of the groups' first items (exactGroups). */
export function expandLabels(repLabels, { groupOf, reps }) {
  const labels = new Uint32Array(groupOf.length);
  for (let i = 0; i < labels.length; i++) labels[i] = reps[repLabels[groupOf[i]]];
  return labels;
}

/**
 * Every pair a < b within k, sorted by (a, b), as three parallel arrays. Equal
 * fingerprints are searched once: the core sees the distinct ones, and their pairs are
 * expanded here, after their number is known to fit (MAX_PAIRS).
 */
export function findPairs(core, fingerprints, k) {
  if (fingerprints.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
  const { groupOf, reps } = exactGroups(fingerprints);
  const distinct = reps.length === fingerprints.length ? fingerprints : BigUint64Array.from(reps, (i) => fingerprints[i]);
  const words = withAllocations(core, (mem) => resultWords(core, core._findPairs(mem.copyIn(distinct), distinct.length, k) * 3));
  const count = words.length / 3;
  if (distinct === fingerprints) {
    const a = new Uint32Array(count);
    const b = new Uint32Array(count);
    const distance = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      a[i] = words[3 * i];
      b[i] = words[3 * i + 1];
      distance[i] = words[3 * i + 2];
    }
    return { a, b, distance };
  }
  return expandPairs(groupOf, reps.length, words);
}

/** The pairs of every item from the pairs (g, h, distance) of their groups. */
function expandPairs(groupOf, groups, words) {
  const n = groupOf.length;
  // Members of each group in ascending order.
  const sizes = new Uint32Array(groups + 1);
  for (let i = 0; i < n; i++) sizes[groupOf[i] + 1]++;
  const firstMember = sizes.slice();
  for (let g = 0; g < groups; g++) firstMember[g + 1] += firstMember[g];
  const members = new Uint32Array(n);
  const fill = firstMember.slice(0, groups);
  for (let i = 0; i < n; i++) members[fill[groupOf[i]]++] = i;
  let total = 0;
  for (let g = 0; g < groups; g++) total += (sizes[g + 1] * (sizes[g + 1] - 1)) / 2;
  // Neighbouring groups of each group, both ways.
  const degree = new Uint32Array(groups + 1);
  for (let p = 0; p < words.length; p += 3) {
    degree[words[p] + 1]++;
    degree[words[p + 1] + 1]++;
    total += sizes[words[p] + 1] * sizes[words[p + 1] + 1];
  }
  if (total > MAX_PAIRS) {
    throw new RangeError(`findPairs would produce ${total} pairs, more than the ${MAX_PAIRS} it can return: ${n - groups} items repeat a fingerprint (dedup's leader grouping lists no pairs), or lower maxDistance`);
  }
  for (let g = 0; g < groups; g++) degree[g + 1] += degree[g];
  const neighbour = new Uint32Array(degree[groups]);
  const neighbourDistance = new Uint8Array(degree[groups]);
  const at = degree.slice(0, groups);
  for (let p = 0; p < words.length; p += 3) {
    const [g, h, d] = [words[p], words[p + 1], words[p + 2]];
    neighbour[at[g]] = h;
    neighbourDistance[at[g]++] = d;
    neighbour[at[h]] = g;
    neighbourDistance[at[h]++] = d;
  }
  const a = new Uint32Array(total);
  const b = new Uint32Array(total);
  const distance = new Uint8Array(total);
  let out = 0;
  const partners = [];
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    partners.length = 0;
    for (let m = firstMember[g]; m < firstMember[g + 1]; m++) if (members[m] > i) partners.push(members[m] * 128);
    for (let e = degree[g]; e < degree[g + 1]; e++) {
      const h = neighbour[e];
      for (let m = firstMember[h]; m < firstMember[h + 1]; m++) if (members[m] > i) partners.push(members[m] * 128 + neighbourDistance[e]);
    }
    partners.sort((x, y) => x - y);
    for (const p of partners) {
      a[out] = i;
      b[out] = Math.floor(p / 128);
      distance[out++] = p % 128;
    }
  }
  return { a, b, distance };
}

/** leaderOfPairs(count, findPairs(core, fingerprints, k)), computed in the core without listing the pairs. */
export function leaderLabels(core, fingerprints, k) {
  return withAllocations(core, (mem) => {
    const out = mem.alloc(fingerprints.length * 4);
    coreCall(() => core._leaderLabels(mem.copyIn(fingerprints), fingerprints.length, k, out));
    return copyOut(core, Uint32Array, out, fingerprints.length);
  });
}
