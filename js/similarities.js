// The exact similarity of given pairs of texts (README "Similarity"), computed by the core
// in one call: the texts encoded once, each text named by a pair shingled once; and of a
// single pair, through the core's single-pair path (the same double).
import { typeName } from './checks.js';
import { checkPairIndices } from './grouping.js';
import { SINGLE_CALL_BYTES, copyOut, coreCall, singleCallScratch, withAllocations, withEncodedTexts } from './memory.js';
import { encodeInto } from './text.js';

/** similarity(texts[a[i]], texts[b[i]]) for every pair i, as sh.similarities. */
export function similarities(core, texts, pairs) {
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
  for (let i = 0; i < texts.length; i++) {
    if (typeof texts[i] !== 'string') throw new TypeError(`texts[${i}] must be a string, got ${typeName(texts[i])}`);
  }
  checkPairIndices(pairs, texts.length, 'texts.length');
  const { a, b } = pairs;
  if (a.length === 0) return new Float64Array(0);
  try {
    return withEncodedTexts(core, texts, (utf8, offsets, count, mem) => {
      const out = mem.alloc(a.length * 8); // malloc aligns to 8 bytes at least
      coreCall(() => core._pairSimilarities(utf8, offsets, count, mem.copyIn(a), mem.copyIn(b), a.length, out));
      return copyOut(core, Float64Array, out, a.length);
    });
  } finally {
    core._similarityRelease();
  }
}

/** Pairs whose UTF-16 units fit the single-call scratch buffer (3 UTF-8 bytes per unit at most). */
const SINGLE_CALL_CHARS = Math.floor(SINGLE_CALL_BYTES / 3);

/** x and y encoded one after the other into the `room` bytes at utf8, and their similarity. */
function similarityAt(core, utf8, room, x, y) {
  const heap = core.HEAPU8; // after any allocation, which can grow the memory
  const lengthA = encodeInto(x, heap.subarray(utf8, utf8 + room));
  const lengthB = encodeInto(y, heap.subarray(utf8 + lengthA, utf8 + room));
  return coreCall(() => core._simhash_similarity_one(utf8, lengthA, lengthB));
}

/**
 * The similarity of two texts, as sh.similarity: one call into the core, which shingles
 * the two texts alone (no batch numbering). Short pairs go through the single-call
 * scratch buffer and allocate nothing.
 */
export function similarity(core, x, y) {
  if (typeof x !== 'string') throw new TypeError(`a must be a string, got ${typeName(x)}`);
  if (typeof y !== 'string') throw new TypeError(`b must be a string, got ${typeName(y)}`);
  if (x.length + y.length <= SINGLE_CALL_CHARS) return similarityAt(core, singleCallScratch(core), SINGLE_CALL_BYTES, x, y);
  return withAllocations(core, (mem) => {
    const room = (x.length + y.length) * 3;
    return similarityAt(core, mem.alloc(room), room, x, y);
  });
}
