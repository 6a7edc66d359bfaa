// dedup's grouping by similarity with candidates from MinHash banding: the core's
// SimilarGroups (cpp/include/simhash/similar_groups.h) over the call's shingle sets
// (shingle-sets.js; it signs each set as it is built), a slice at a time.
import { coreCall, copyOut } from './memory.js';

/**
 * Work units per slice: about 10-20 ms in WASM (a unit is about one min-hash bin or one
 * shingle signed, one band looked up or one shingle compared).
 */
const SLICE_WORK = 2e6;

/**
 * Labels of the `count` texts (leader or components, as dedup returns them), with
 * `pacer.step(phase, ...)` between slices, progress in thousandths. `sets` is the call's
 * ShingleSets handle, empty; `build(groups)` fills it, passing `groups` (the core's
 * SimilarGroups, which signs each set as it is built) to _shingleSetsAdd.
 */
export async function searchSimilarGroups(core, sets, count, similarity, grouping, build, pacer, phase) {
  const groups = coreCall(() => core._similarGroupsCreate(sets, similarity, grouping === 'components'));
  try {
    await build(groups);
    for (let done = false; !done;) {
      done = coreCall(() => core._similarGroupsRun(groups, SLICE_WORK));
      await pacer.step(phase, Math.round(core._similarGroupsProgress(groups) * 1000), 1000);
    }
    const out = core._malloc(Math.max(4 * count, 8));
    if (!out) throw new Error(`out of WebAssembly memory allocating ${4 * count} bytes`);
    try {
      core._similarGroupsTake(groups, out);
      return copyOut(core, Uint32Array, out, count);
    } finally {
      core._free(out);
    }
  } finally {
    core._similarGroupsDelete(groups);
  }
}
