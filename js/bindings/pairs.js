// The core's pair search and leader grouping over fingerprints: in one call (findPairs,
// leaderLabels), or a slice at a time with pauses between (searchPairs, searchLeaders),
// each slice about SLICE_WORK units of the core's work (pairs.h: about 1 ns each in WASM).
import { coreCall, copyOut, resultArray, resultColumns, withAllocations } from './memory.js';
import { STEP_ITERATIONS, runSteps } from '../core/pacing.js';

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

/** findPairs' error when there are `total` > maxPairs pairs, `repeated` items repeating an earlier item's fingerprint. */
export function tooManyPairs(total, repeated, maxPairs = MAX_PAIRS) {
  const advice = repeated > 0 ? `${repeated} items repeat a fingerprint (dedup's leader grouping lists no pairs), or lower maxDistance` : 'lower maxDistance';
  return new RangeError(`findPairs would produce ${total} pairs, more than the ${maxPairs} it can return: ${advice}`);
}

/**
 * Every pair a < b within k, sorted by (a, b), as three parallel arrays, from one call into
 * the core, which searches equal fingerprints once and lists their pairs once their number
 * is known to fit (MAX_PAIRS).
 */
export function findPairs(core, fingerprints, k) {
  if (fingerprints.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
  const total = withAllocations(core, (mem) => core._findPairs(mem.copyIn(fingerprints), fingerprints.length, k, MAX_PAIRS));
  if (total > MAX_PAIRS) throw tooManyPairs(total, resultArray(core, Uint32Array, 1)[0]);
  // The result buffer holds the a's, the b's, then the distances (helpers.h findPairs).
  const [a, b, distance] = resultColumns(core, total, [Uint32Array, Uint32Array, Uint8Array]);
  return { a, b, distance };
}

/** leaderOfPairs of findPairs(core, fingerprints, k)'s pairs, computed in the core without listing them. */
export function leaderLabels(core, fingerprints, k) {
  return withAllocations(core, (mem) => {
    const out = mem.alloc(fingerprints.length * 4);
    coreCall(() => core._leaderLabels(mem.copyIn(fingerprints), fingerprints.length, k, out));
    return copyOut(core, Uint32Array, out, fingerprints.length);
  });
}

/**
 * The leader rule (pairs.h leaderOfSortedPairs, the core's one implementation of it) over
 * (a, b, distance) uint32 triples with a < b < count, in any order: each item's label.
 */
export function leaderOfPairs(core, count, words) {
  return withAllocations(core, (mem) => {
    const out = mem.alloc(count * 4);
    coreCall(() => core._leaderOfPairs(mem.copyIn(words), words.length / 3, count, out));
    return copyOut(core, Uint32Array, out, count);
  });
}

/**
 * Lists of (a, b, distance) uint32 triples, each sorted by (a, b) and no (a, b) in two of
 * them, merged into three parallel arrays sorted by (a, b): a generator of work for
 * runSteps or runStepsPaced (pacing.js). O(pairs × lists).
 */
export function* mergeSortedTriplesSteps(lists) {
  let total = 0;
  for (const words of lists) total += words.length / 3;
  const a = new Uint32Array(total);
  const b = new Uint32Array(total);
  const distance = new Uint8Array(total);
  const at = new Array(lists.length).fill(0); // the next triple of each list, in words
  for (let out = 0; out < total; out++) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      const words = lists[l];
      const p = at[l];
      if (p === words.length) continue;
      if (best >= 0) {
        const q = at[best];
        const bestWords = lists[best];
        if (words[p] > bestWords[q] || (words[p] === bestWords[q] && words[p + 1] > bestWords[q + 1])) continue;
      }
      best = l;
    }
    const words = lists[best];
    const p = at[best];
    a[out] = words[p];
    b[out] = words[p + 1];
    distance[out] = words[p + 2];
    at[best] = p + 3;
    if ((out & (STEP_ITERATIONS - 1)) === STEP_ITERATIONS - 1) yield;
  }
  return { a, b, distance };
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
 * uint32 triples in the order found. With `similarity`, only the pairs whose texts' sets
 * (in the caller's ShingleSets handle `sets`, shingle-sets.js) reach it are kept.
 * `candidates` counts the pairs within k before verification; once it passes
 * `maxCandidates` the search stops and `words` is null.
 */
async function collectPairs(core, fingerprints, k, { shard = 0, shards = 1, ...verification }, step) {
  let collected;
  await withSearch(core, fingerprints, (fps) => core._pairSearchCreate(fps, fingerprints.length, k, shard, shards), '_pairSearchDelete', async (search) => {
    collected = await drainPairSearch(core, search, verification, step);
  });
  return collected;
}

/** A PairSearch handle run to the end: collectPairs' answer. */
async function drainPairSearch(core, search, { sets = 0, similarity = 0, maxCandidates = Infinity }, step) {
  const chunks = [];
  let total = 0;
  let candidates = 0;
  for (let done = false; !done;) {
    done = coreCall(() => core._pairSearchRun(search, SLICE_WORK));
    candidates += core._pairSearchFound(search);
    if (candidates > maxCandidates) return { words: null, candidates };
    if (similarity > 0) coreCall(() => core._pairSearchVerify(search, sets, similarity));
    const found = core._pairSearchFound(search);
    if (found > 0) {
      chunks.push(copyOut(core, Uint32Array, core._pairSearchFoundAddress(search), found * 3));
      total += found;
    }
    core._pairSearchClear(search);
    await step(core._pairSearchProgress(search));
  }
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
 * progress in thousandths), sorted. With `verification` { sets, similarity }, only the
 * pairs whose texts' sets (the caller's ShingleSets handle) reach it are kept.
 */
export async function searchPairs(core, fingerprints, k, pacer, phase, verification = {}) {
  const { words } = await collectPairs(core, fingerprints, k, verification, (progress) => pacer.step(phase, Math.round(progress * 1000), 1000));
  return sortPairs(fingerprints.length, splitTriples(words, words.length / 3));
}

/**
 * One shard of the pair search run to the end (a pool's worker: js/pool/search.js), with
 * `onSlice(progress)` after each slice: collectPairs' { words, candidates }.
 */
export function searchShard(core, fingerprints, k, shard, shards, verification, onSlice) {
  return collectPairs(core, fingerprints, k, { shard, shards, ...verification }, onSlice);
}

/**
 * One shard of findPairs over items, fingerprints repeated or not (a pool's worker:
 * js/pool/search.js poolPairs): equal fingerprints grouped in the core (pairs.h
 * EqualFingerprints), the shard's share of the distinct ones searched a slice at a time
 * with `onSlice(progress)` after each, and the pairs of items behind the pairs found
 * listed in the core, with the pairs of copies in shard 0: { words, total, repeated },
 * `words` the (a, b, distance) triples sorted by (a, b), or null when there are `total`
 * > maxPairs of them; `repeated` the items whose fingerprint an earlier item has. The
 * union of the shards' pairs is findPairs' answer.
 */
export async function searchItemShard(core, fingerprints, k, shard, shards, maxPairs, onSlice) {
  const groups = withAllocations(core, (mem) => coreCall(() => core._equalFingerprintsCreate(mem.copyIn(fingerprints), fingerprints.length)));
  let search = 0;
  try {
    const distinct = core._equalFingerprintsDistinctCount(groups);
    search = coreCall(() => core._pairSearchCreate(core._equalFingerprintsDistinct(groups), distinct, k, shard, shards));
    const { words: groupPairs } = await drainPairSearch(core, search, {}, onSlice);
    core._pairSearchDelete(search);
    search = 0;
    const total = withAllocations(core, (mem) => coreCall(() => core._equalFingerprintsExpand(groups, mem.copyIn(groupPairs), groupPairs.length / 3, shard === 0, maxPairs)));
    const repeated = core._equalFingerprintsRepeated(groups);
    return { words: total > maxPairs ? null : resultArray(core, Uint32Array, 3 * total), total, repeated };
  } finally {
    if (search) core._pairSearchDelete(search);
    core._equalFingerprintsDelete(groups);
  }
}

/** Whether LeaderSearch takes its pair path on these fingerprints (pairs.h; a few ms). */
/** LeaderSearch::pairBound: the most pairs a leader grouping of `items` lists before LeaderSearch's lookup path costs less. */
export const leaderPairBound = (core, items) => core._leaderSearchPairBound(items);

export function leaderUsesPairs(core, fingerprints, k) {
  let usesPairs = false;
  return withSearch(core, fingerprints, (fps) => core._leaderSearchCreate(fps, fingerprints.length, k, 0, 0), '_leaderSearchDelete', (search) => {
    usesPairs = core._leaderSearchUsesPairs(search) !== 0;
  }).then(() => usesPairs);
}

/**
 * leaderLabels a slice at a time, with `pacer.step(phase, ...)` between slices. With
 * `verification` { sets, similarity }, a kept item takes an item only if their texts'
 * sets (the caller's ShingleSets handle) reach it.
 */
export async function searchLeaders(core, fingerprints, k, pacer, phase, { sets = 0, similarity = 0 } = {}) {
  let labels;
  await withSearch(core, fingerprints, (fps) => core._leaderSearchCreate(fps, fingerprints.length, k, sets, similarity), '_leaderSearchDelete', async (search) => {
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
