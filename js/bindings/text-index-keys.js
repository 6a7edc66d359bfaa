// What an add of a text to a TextIndex would store, read without storing it, the sketch
// test its query applies, and the short measure's similarities by word weights held in the
// core: for the shared index (redis/shared-index.js), which must propose, set aside and
// verify the candidates as a TextIndex of the same parameters does. Node only, so outside
// the browser bundle; the index lends its core and handle (CORE_OF).
import { SINGLE_CALL_BYTES, copyOut, coreCall, singleCallScratch, withAllocations, withEncodedTexts } from './memory.js';
import { CORE_OF, withText } from './text-index.js';
import { requireHanTable } from './han-table.js';
import { encodeInto } from '../core/text.js';
import { measureCode } from '../core/thresholds.js';
import { handleRegistry } from '../core/traps.js';

/** u32 words before the keys in keysOf's result buffer: counts, shingles, sketch (cpp/bindings/helpers.h). */
const HEAD_WORDS = 20;
/** Bytes of a set's sketch (TextIndex::kSketchWords u64). */
export const SKETCH_BYTES = 64;

/** Decodes the normalized texts: one for every call. */
const utf8Decoder = new TextDecoder();

/**
 * { keys, normalized, reviewKeys, sketch, shingles }: text's band keys in band order and its
 * normalized text (TextIndex::keysOf); with review its review bands' keys, its set's sketch
 * (SKETCH_BYTES) and its distinct shingles (TextIndex::reviewKeysOf), without an empty
 * reviewKeys, a sketch of zeros and 0. Stores nothing.
 */
export function keysOf(textIndex, text) {
  const [core, handle] = textIndex[CORE_OF]();
  if (textIndex.measure === 'short') requireHanTable(core, [text]);
  const count = withText(core, text, (utf8, length) => core._textIndexKeysOf(handle, utf8, length));
  const address = core._resultAddress();
  const reviewCount = new Uint32Array(core.HEAPU8.buffer, address, HEAD_WORDS)[2];
  const words = new Uint32Array(core.HEAPU8.buffer, address, HEAD_WORDS + count + reviewCount);
  const keys = words.slice(HEAD_WORDS, HEAD_WORDS + count);
  const reviewKeys = words.slice(HEAD_WORDS + count);
  const sketch = core.HEAPU8.slice(address + 16, address + 16 + SKETCH_BYTES);
  const start = address + 4 * words.length;
  const normalized = utf8Decoder.decode(core.HEAPU8.subarray(start, start + words[1]));
  const shingles = words[3];
  core._resultRelease();
  return { keys, normalized, reviewKeys, sketch, shingles };
}

/**
 * With review, which stored texts that only the review bands propose the index's query
 * goes on to verify (TextIndex::reviewMayReach): sketches holds the query's sketch then each
 * stored text's (SKETCH_BYTES each, as keysOf gives them), shingles their distinct shingles
 * (the query's first). A Uint8Array of 1 (verified) or 0 per stored text.
 */
export function reviewFilter(textIndex, sketches, shingles) {
  const [core, handle] = textIndex[CORE_OF]();
  const count = shingles.length - 1;
  return withAllocations(core, (mem) => {
    const sketchesAddress = mem.copyIn(sketches);
    const shinglesAddress = mem.copyIn(shingles);
    const out = mem.alloc(Math.max(count, 1));
    coreCall(() => core._textIndexReviewFilter(handle, sketchesAddress, shinglesAddress, count, out));
    return core.HEAPU8.slice(out, out + count);
  });
}

// Held weights whose owner was forgotten without releaseWeights: [core, handle] pairs.
const heldRegistry = handleRegistry('_wordWeightsDelete');

/**
 * The handle of a copy of `weights` (WordWeights) in textIndex's core, held until
 * releaseWeights(textIndex, handle, owner) (or freed once `owner` is collected): for a
 * caller that weighs many calls by the same weights. Lent per call, as sh.similarity lends
 * them, each call copies and checks every word again (about 1 ms at 100,000 words).
 */
export function holdWeights(textIndex, weights, owner) {
  const [core] = textIndex[CORE_OF]();
  const { texts, hashes, counts } = weights.toData();
  const handle = withAllocations(core, (mem) => core._wordWeightsCreate(texts, mem.copyIn(hashes), mem.copyIn(counts), hashes.length));
  // WordWeights keep the contract the core checks again (assign), so this does not happen.
  if (!handle) throw new Error('invalid word weights data: the core refused them');
  heldRegistry.register(owner, [core, handle], owner);
  return handle;
}

/** Frees holdWeights' copy. */
export function releaseWeights(textIndex, handle, owner) {
  const [core] = textIndex[CORE_OF]();
  heldRegistry.unregister(owner);
  core._wordWeightsDelete(handle);
}

/** Up to this many texts are compared a pair at a time (25 µs a short pair); more in one batch (600 µs, then little per pair). */
const PAIRWISE_MOST = 16;

/**
 * similarity(text, texts[i]) by the short measure for every i, as sh.similarity answers it
 * with the weights of holdWeights' `weights` handle (0 for none). A Float64Array.
 */
export function shortSimilarities(textIndex, weights, text, texts) {
  const [core] = textIndex[CORE_OF]();
  requireHanTable(core, [text, ...texts]);
  const measure = measureCode('short');
  const count = texts.length;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: the pair fits the single-call scratch.
  if (count <= PAIRWISE_MOST && texts.every((other) => 3 * (text.length + other.length) <= SINGLE_CALL_BYTES)) {
    const out = new Float64Array(count);
    const a = singleCallScratch(core);
    const lengthA = encodeInto(text, core.HEAPU8.subarray(a, a + SINGLE_CALL_BYTES));
    for (let i = 0; i < count; i++) {
      const b = a + lengthA;
      // The view taken again for each text: a call may have grown the memory.
      const lengthB = encodeInto(texts[i], core.HEAPU8.subarray(b, a + SINGLE_CALL_BYTES));
      out[i] = coreCall(() => core._simhash_similarity_one(a, lengthA, b, lengthB, measure, weights));
    }
    return out;
  }
  return withEncodedTexts(core, [text, ...texts], (utf8, offsets, n, mem) => {
    const b = new Uint32Array(count);
    for (let i = 0; i < count; i++) b[i] = i + 1;
    const out = mem.alloc(count * 8);
    coreCall(() => core._pairSimilarities(utf8, offsets, n, mem.copyIn(new Uint32Array(count)), mem.copyIn(b), count, out, measure, weights));
    return copyOut(core, Float64Array, out, count);
  });
}
