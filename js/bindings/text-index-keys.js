// What an add of a text to a TextIndex would store, read without storing it, and the sketch
// test its query applies: for the shared index (redis/shared-index.js), which must propose
// and set aside the candidates a TextIndex of the same parameters does. Node only, so
// outside the browser bundle; the index lends its core and handle (CORE_OF).
import { coreCall, withAllocations } from './memory.js';
import { CORE_OF, withText } from './text-index.js';

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
