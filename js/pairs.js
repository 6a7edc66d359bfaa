// The core's pair search and leader grouping over fingerprints: in one call (findPairs,
// leaderLabels), or a slice at a time with pauses between (searchPairs, searchLeaders),
// each slice about SLICE_WORK units of the core's work (pairs.h: 2-4 ns each in WASM).
import { coreCall, copyOut, resultWords, withAllocations } from './memory.js';

const SLICE_WORK = 1e7;

/** (a, b, distance) uint32 triples as three arrays. */
function splitTriples(words, count) {
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

/** Every pair a < b within k, sorted by (a, b), as three parallel arrays. */
export function findPairs(core, fingerprints, k) {
  if (fingerprints.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
  const words = withAllocations(core, (mem) => resultWords(core, core._findPairs(mem.copyIn(fingerprints), fingerprints.length, k) * 3));
  return splitTriples(words, words.length / 3);
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
  let { a, b, distance } = pairs;
  for (const key of ['b', 'a']) {
    const keys = key === 'a' ? a : b;
    const starts = new Uint32Array(count + 1);
    for (let i = 0; i < keys.length; i++) starts[keys[i] + 1]++;
    for (let i = 0; i < count; i++) starts[i + 1] += starts[i];
    const order = new Uint32Array(keys.length);
    for (let i = 0; i < keys.length; i++) order[starts[keys[i]]++] = i;
    a = order.map((i) => a[i]);
    b = order.map((i) => b[i]);
    distance = Uint8Array.from(order, (i) => distance[i]);
  }
  return { a, b, distance };
}

/**
 * The pairs within k, a slice at a time (`pacer.step(phase, ...)` between slices, with
 * progress in thousandths), sorted. With `similarity`, only the pairs whose texts (built
 * by the caller with _similarityBuild) reach it are kept.
 */
export async function searchPairs(core, fingerprints, k, pacer, phase, similarity = 0) {
  const chunks = [];
  let total = 0;
  await withSearch(core, fingerprints, (fps) => core._pairSearchCreate(fps, fingerprints.length, k, 0, 1), '_pairSearchDelete', async (search) => {
    for (let done = false; !done;) {
      done = coreCall(() => core._pairSearchRun(search, SLICE_WORK));
      if (similarity > 0) coreCall(() => core._pairSearchVerify(search, similarity));
      const found = core._pairSearchFound(search);
      if (found > 0) {
        chunks.push(copyOut(core, Uint32Array, core._pairSearchFoundAddress(search), found * 3));
        total += found;
        core._pairSearchClear(search);
      }
      await pacer.step(phase, Math.round(core._pairSearchProgress(search) * 1000), 1000);
    }
  });
  const words = new Uint32Array(total * 3);
  let at = 0;
  for (const chunk of chunks) {
    words.set(chunk, at);
    at += chunk.length;
  }
  return sortPairs(fingerprints.length, splitTriples(words, total));
}

/**
 * leaderLabels a slice at a time, with `pacer.step(phase, ...)` between slices. With
 * `similarity`, a kept item takes an item only if their texts (built by the caller with
 * _similarityBuild) reach it.
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
