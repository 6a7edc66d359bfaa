// The core's pair search and leader grouping over fingerprints: in one call (findPairs,
// leaderLabels), or a slice at a time with pauses between (searchPairs, searchLeaders),
// each slice about SLICE_WORK units of the core's work (pairs.h: about 1 ns each in WASM).
import { coreCall, copyOut, resultWords, withAllocations } from './memory.js';
import { STEP_ITERATIONS, runSteps } from './pacing.js';

const SLICE_WORK = 1e7;

/** (a, b, distance) uint32 triples as three arrays. */
export function splitTriples(words, count) {
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

/** The most pairs findPairs returns: 9 bytes each in JS and in the core's result buffer, 12 in its list (24 while sorting). */
export const MAX_PAIRS = 2 ** 27;

/**
 * Items with equal fingerprints, collapsed (reps[g] is the first item of group g, groupOf[i]
 * the group of item i), as a generator of work for runSteps or runStepsPaced (pacing.js):
 * the pool's findPairs (pool-search.js; the core groups them for findPairs below). An open
 * addressing table of item indices over the fingerprints' two 32-bit halves, which makes
 * no BigInt (a Map of them costs about 20x more and pauses for its collections).
 */
export function* exactGroupSteps(fingerprints) {
  const n = fingerprints.length;
  const halves = new Uint32Array(fingerprints.buffer, fingerprints.byteOffset, 2 * n);
  const bits = Math.max(4, 32 - Math.clz32(2 * n)); // a table at most half full
  const mask = 2 ** bits - 1;
  // Slot s holds a fingerprint's halves and its group + 1 (0: empty) side by side, so a
  // probe reads one place in memory.
  const table = new Uint32Array(3 * (mask + 1));
  const groupOf = new Uint32Array(n);
  const reps = new Uint32Array(n);
  let groups = 0;
  for (let i = 0; i < n; i++) {
    const low = halves[2 * i];
    const high = halves[2 * i + 1];
    let at = 3 * ((Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> (32 - bits)) & mask);
    for (;;) {
      const group = table[at + 2];
      if (group === 0) {
        table[at] = low;
        table[at + 1] = high;
        table[at + 2] = groups + 1;
        reps[groups] = i;
        groupOf[i] = groups++;
        break;
      }
      if (table[at] === low && table[at + 1] === high) {
        groupOf[i] = group - 1;
        break;
      }
      at = at + 3 === table.length ? 0 : at + 3;
    }
    if ((i & (STEP_ITERATIONS - 1)) === STEP_ITERATIONS - 1) yield;
  }
  return { groupOf, reps: reps.slice(0, groups) };
}

/**
 * Every pair a < b within k, sorted by (a, b), as three parallel arrays, from one call into
 * the core, which searches equal fingerprints once and lists their pairs once their number
 * is known to fit (MAX_PAIRS).
 */
export function findPairs(core, fingerprints, k) {
  if (fingerprints.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
  const total = withAllocations(core, (mem) => core._findPairs(mem.copyIn(fingerprints), fingerprints.length, k, MAX_PAIRS));
  if (total > MAX_PAIRS) {
    const [repeated] = resultWords(core, 1);
    const advice = repeated > 0 ? `${repeated} items repeat a fingerprint (dedup's leader grouping lists no pairs), or lower maxDistance` : 'lower maxDistance';
    throw new RangeError(`findPairs would produce ${total} pairs, more than the ${MAX_PAIRS} it can return: ${advice}`);
  }
  // The result buffer holds the a's, the b's, then the distances (helpers.h findPairs).
  const at = core._resultAddress();
  const { buffer } = core.HEAPU8;
  const pairs = {
    a: new Uint32Array(buffer, at, total).slice(),
    b: new Uint32Array(buffer, at + 4 * total, total).slice(),
    distance: new Uint8Array(buffer, at + 8 * total, total).slice(),
  };
  core._resultRelease();
  return pairs;
}

/** fingerprints[reps[g]] for every g, copied as 32-bit halves (no bigint per item): the pool's findPairs. */
export function gather(fingerprints, reps) {
  const from = new Uint32Array(fingerprints.buffer, fingerprints.byteOffset, 2 * fingerprints.length);
  const out = new BigUint64Array(reps.length);
  const to = new Uint32Array(out.buffer);
  for (let g = 0; g < reps.length; g++) {
    to[2 * g] = from[2 * reps[g]];
    to[2 * g + 1] = from[2 * reps[g] + 1];
  }
  return out;
}

/** The pairs of every item from the pairs (g, h, distance) of their groups: the pool's findPairs. */
export function expandPairs(groupOf, groups, words) {
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
    if (partners.length > 1) partners.sort((x, y) => x - y);
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

/** Pairs sorted by (a, b): two stable counting passes, by b then by a. */
export function sortPairs(count, pairs) {
  return runSteps(sortPairsSteps(count, pairs));
}

/** sortPairs as a generator of work for runSteps or runStepsPaced (pacing.js). */
export function* sortPairsSteps(count, pairs) {
  let { a, b, distance } = pairs;
  const n = a.length;
  for (const key of ['b', 'a']) {
    const keys = key === 'a' ? a : b;
    const starts = new Uint32Array(count + 1);
    for (let i = 0; i < n; i++) {
      starts[keys[i] + 1]++;
      if ((i & (STEP_ITERATIONS - 1)) === STEP_ITERATIONS - 1) yield;
    }
    for (let i = 0; i < count; i++) {
      starts[i + 1] += starts[i];
      if ((i & (STEP_ITERATIONS - 1)) === STEP_ITERATIONS - 1) yield;
    }
    const nextA = new Uint32Array(n);
    const nextB = new Uint32Array(n);
    const nextDistance = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const at = starts[keys[i]]++;
      nextA[at] = a[i];
      nextB[at] = b[i];
      nextDistance[at] = distance[i];
      if ((i & (STEP_ITERATIONS - 1)) === STEP_ITERATIONS - 1) yield;
    }
    [a, b, distance] = [nextA, nextB, nextDistance];
  }
  return { a, b, distance };
}

/**
 * The pairs within k of shard `shard` of `shards` (pairs.h PairSearch), a slice at a time
 * with `await step(progress)` between slices (progress in [0, 1]), as (a, b, distance)
 * uint32 triples in the order found. With `similarity`, only the pairs whose texts (built
 * by the caller with _similarityCount and _similarityAdd) reach it are kept. `candidates` counts the pairs
 * within k before verification; once it passes `maxCandidates` the search stops and
 * `words` is null.
 */
async function collectPairs(core, fingerprints, k, { shard = 0, shards = 1, similarity = 0, maxCandidates = Infinity }, step) {
  const chunks = [];
  let total = 0;
  let candidates = 0;
  await withSearch(core, fingerprints, (fps) => core._pairSearchCreate(fps, fingerprints.length, k, shard, shards), '_pairSearchDelete', async (search) => {
    for (let done = false; !done;) {
      done = coreCall(() => core._pairSearchRun(search, SLICE_WORK));
      candidates += core._pairSearchFound(search);
      if (candidates > maxCandidates) return;
      if (similarity > 0) coreCall(() => core._pairSearchVerify(search, similarity));
      const found = core._pairSearchFound(search);
      if (found > 0) {
        chunks.push(copyOut(core, Uint32Array, core._pairSearchFoundAddress(search), found * 3));
        total += found;
      }
      core._pairSearchClear(search);
      await step(core._pairSearchProgress(search));
    }
  });
  if (candidates > maxCandidates) return { words: null, candidates };
  return { words: concatWords(chunks, total * 3), candidates };
}

/** Uint32Arrays end to end. */
export function concatWords(chunks, length) {
  if (chunks.length === 1) return chunks[0];
  const words = new Uint32Array(length);
  let at = 0;
  for (const chunk of chunks) {
    words.set(chunk, at);
    at += chunk.length;
  }
  return words;
}

/**
 * The pairs within k, a slice at a time (`pacer.step(phase, ...)` between slices, with
 * progress in thousandths), sorted. With `similarity`, only the pairs whose texts (built
 * by the caller with _similarityCount and _similarityAdd) reach it are kept.
 */
export async function searchPairs(core, fingerprints, k, pacer, phase, similarity = 0) {
  const { words } = await collectPairs(core, fingerprints, k, { similarity }, (progress) => pacer.step(phase, Math.round(progress * 1000), 1000));
  return sortPairs(fingerprints.length, splitTriples(words, words.length / 3));
}

/**
 * One shard of the pair search run to the end (a pool's worker: js/pool-search.js), with
 * `onSlice(progress)` after each slice: collectPairs' { words, candidates }.
 */
export function searchShard(core, fingerprints, k, shard, shards, { similarity = 0, maxCandidates = Infinity }, onSlice) {
  return collectPairs(core, fingerprints, k, { shard, shards, similarity, maxCandidates }, onSlice);
}

/** Whether LeaderSearch takes its pair path on these fingerprints (pairs.h; a few ms). */
export function leaderUsesPairs(core, fingerprints, k) {
  let usesPairs = false;
  return withSearch(core, fingerprints, (fps) => core._leaderSearchCreate(fps, fingerprints.length, k, 0), '_leaderSearchDelete', (search) => {
    usesPairs = core._leaderSearchUsesPairs(search);
  }).then(() => usesPairs);
}

/**
 * leaderLabels a slice at a time, with `pacer.step(phase, ...)` between slices. With
 * `similarity`, a kept item takes an item only if their texts (built by the caller with
 * _similarityCount and _similarityAdd) reach it.
 */
export async function searchLeaders(core, fingerprints, k, pacer, phase, similarity = 0) {
  let labels;
  await withSearch(core, fingerprints, (fps) => core._leaderSearchCreate(fps, fingerprints.length, k, similarity), '_leaderSearchDelete', async (search) => {
    for (let done = false; !done;) {
      done = coreCall(() => core._leaderSearchRun(search, SLICE_WORK));
      await pacer.step(phase, Math.round(core._leaderSearchProgress(search) * 1000), 1000);
    }
    const out = core._malloc(Math.max(4 * fingerprints.length, 8));
    if (!out) throw new Error(`out of WebAssembly memory allocating ${4 * fingerprints.length} bytes`);
    try {
      core._leaderSearchTake(search, out);
      labels = copyOut(core, Uint32Array, out, fingerprints.length);
    } finally {
      core._free(out);
    }
  });
  return labels;
}

/** Runs body(search) over a search handle whose fingerprints live in WASM, freeing both on every exit. */
async function withSearch(core, fingerprints, create, deleteName, body) {
  const fps = core._malloc(Math.max(fingerprints.byteLength, 8));
  if (!fps) throw new Error(`out of WebAssembly memory allocating ${fingerprints.byteLength} bytes`);
  let search = 0;
  try {
    core.HEAPU8.set(new Uint8Array(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength), fps);
    search = coreCall(() => create(fps));
    await body(search);
  } finally {
    if (search) core[deleteName](search);
    core._free(fps);
  }
}
