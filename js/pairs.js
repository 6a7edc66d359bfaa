// The core's pair search and leader grouping over fingerprints.
import { coreCall, copyOut, resultWords, withAllocations } from './memory.js';

/** Every pair a < b within k, sorted by (a, b), as three parallel arrays. */
export function findPairs(core, fingerprints, k) {
  if (fingerprints.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
  const words = withAllocations(core, (mem) => resultWords(core, core._findPairs(mem.copyIn(fingerprints), fingerprints.length, k) * 3));
  const count = words.length / 3;
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

/** leaderOfPairs(count, findPairs(core, fingerprints, k)), computed in the core without listing the pairs. */
export function leaderLabels(core, fingerprints, k) {
  return withAllocations(core, (mem) => {
    const out = mem.alloc(fingerprints.length * 4);
    coreCall(() => core._leaderLabels(mem.copyIn(fingerprints), fingerprints.length, k, out));
    return copyOut(core, Uint32Array, out, fingerprints.length);
  });
}
