// The shingle sets a similarity dedup verifies against, built in the core. Each call owns
// its sets through a handle (cpp/bindings/searches.h shingleSetsCreate), deleted when the
// call ends, fails or is aborted: calls that overlap on one instance (a dedup waiting
// between slices, and whatever runs meanwhile, from its onProgress or another promise)
// never share them.
import { copyOut, coreCall, forEachByteSliceAsync, forEachEncodedSliceAsync, withAllocations } from './memory.js';
import { measureCode } from '../core/thresholds.js';
import { loadHanTableFor } from './han-table.js';

/**
 * Characters of text in WASM memory at once while the sets are built (768 KB at most):
 * about 20-40 ms of work per call in WASM for short texts.
 */
const SETS_SLICE_CHARS = 1 << 18;

/** Runs `use(sets)` with a new ShingleSets handle, deleted on every exit. */
export async function withShingleSets(core, use) {
  const sets = createShingleSets(core);
  try {
    return await use(sets);
  } finally {
    deleteShingleSets(core, sets);
  }
}

/** A new, empty ShingleSets handle, which the caller deletes (deleteShingleSets) where a scope (withShingleSets) cannot hold it. */
export const createShingleSets = (core) => coreCall(() => core._shingleSetsCreate());
export const deleteShingleSets = (core, sets) => core._shingleSetsDelete(sets);

/**
 * Builds the texts' sets into the handle `sets`, a slice of texts at a time (two passes:
 * the code points are numbered by frequency first), so the texts' UTF-8 is never all in
 * WASM memory at once, awaiting `between()` after each slice. The similarity is of the
 * texts themselves (README "Similarity"), whatever the fingerprint options. `texts`:
 * strings, or the UTF-8 bytes of the texts end to end with their bounds (text.js
 * encodeTexts' layout). `groups`: a _similarGroupsCreate handle that signs each set as it
 * is built, or 0. `measure`: thresholds.js MEASURES'; `weights`: a word-weights.js lendWeights
 * handle, or 0.
 */
export async function buildShingleSets(core, sets, texts, between = async () => {}, groups = 0, measure = 'text', weights = 0) {
  if (measure === 'short') await loadHanTableFor(core, texts);
  const code = measureCode(measure);
  const countPass = (utf8, offsets, count) => coreCall(() => core._shingleSetsCount(sets, utf8, offsets, count, code, weights));
  const addPass = (utf8, offsets, count) => coreCall(() => core._shingleSetsAdd(sets, utf8, offsets, count, groups));
  for (const use of [countPass, addPass]) {
    if (Array.isArray(texts)) await forEachEncodedSliceAsync(core, texts, 'texts', use, between, SETS_SLICE_CHARS);
    else await forEachByteSliceAsync(core, texts, use, between, 3 * SETS_SLICE_CHARS);
  }
}

/** Runs `body(sets)` with the texts' sets built (buildShingleSets) in a handle of its own, deleted on every exit. */
export function withSimilarity(core, texts, body, between, measure = 'text', weights = 0) {
  return withShingleSets(core, async (sets) => {
    await buildShingleSets(core, sets, texts, between, 0, measure, weights);
    return body(sets);
  });
}

/** The similarity of the built sets a[i] and b[i] of the handle `sets`, for every i, as a Float64Array. */
export function setSimilarities(core, sets, a, b) {
  if (a.length === 0) return new Float64Array(0);
  return withAllocations(core, (mem) => {
    const out = mem.alloc(a.length * 8); // malloc aligns to 8 bytes at least
    coreCall(() => core._shingleSetsSimilarities(sets, mem.copyIn(a), mem.copyIn(b), a.length, out));
    return copyOut(core, Float64Array, out, a.length);
  });
}
