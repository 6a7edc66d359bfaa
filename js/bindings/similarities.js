// The exact similarity of given pairs of texts (README "Similarity"), computed by the core
// in one call: the texts encoded once, each text named by a pair shingled once. One pair
// alone takes the core's similarity() directly (no code point table).
import { checkKnownKeys, checkPairIndices, checkText, checkTextArray, typeName } from '../core/checks.js';
import { SINGLE_CALL_BYTES, copyOut, coreCall, singleCallScratch, withEncodedTexts } from './memory.js';
import { encodeInto } from '../core/text.js';
import { checkMeasure, measureCode } from '../core/thresholds.js';
import { checkWeights, lendWeights } from './word-weights.js';
import { requireHanTable } from './han-table.js';

/** The { measure, weights } of sh.similarity's and sh.similarities' options: 'text' and none unless they say. */
function parseOptions(options) {
  if (options === undefined) return { measure: 'text', weights: null };
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
  checkKnownKeys(options, 'options', ['measure', 'weights']);
  const measure = options.measure === undefined ? 'text' : checkMeasure(options.measure, 'options.measure');
  return { measure, weights: options.weights === undefined ? null : checkWeights(options.weights, 'options.weights', measure) };
}

/** similarity(texts[a[i]], texts[b[i]]) for every pair i, as sh.similarities, by options.measure. */
export function similarities(core, texts, pairs, options) {
  checkTextArray(texts, 'texts');
  for (let i = 0; i < texts.length; i++) {
    checkText(texts[i], `texts[${i}]`);
  }
  checkPairIndices(pairs, texts.length, 'texts.length');
  const { measure, weights } = parseOptions(options);
  const { a, b } = pairs;
  if (a.length === 0) return new Float64Array(0);
  if (measure === 'short') requireHanTable(core, texts);
  return lendWeights(core, weights, (handle) => withEncodedTexts(core, texts, (utf8, offsets, count, mem) => {
    const out = mem.alloc(a.length * 8); // malloc aligns to 8 bytes at least
    coreCall(() => core._pairSimilarities(utf8, offsets, count, mem.copyIn(a), mem.copyIn(b), a.length, out, measureCode(measure), handle));
    return copyOut(core, Float64Array, out, a.length);
  }));
}

/** The similarity of two texts, as sh.similarity: both in the single-call scratch when they fit, no table built. */
export function similarity(core, x, y, options) {
  checkText(x, 'a');
  checkText(y, 'b');
  const parsed = parseOptions(options);
  if (parsed.measure === 'short') requireHanTable(core, [x, y]);
  if (3 * (x.length + y.length) > SINGLE_CALL_BYTES) { // UTF-8 takes at most 3 bytes per UTF-16 unit
    return similarities(core, [x, y], { a: Uint32Array.of(0), b: Uint32Array.of(1) }, options)[0];
  }
  const a = singleCallScratch(core);
  const lengthA = encodeInto(x, core.HEAPU8.subarray(a, a + SINGLE_CALL_BYTES));
  const b = a + lengthA;
  const lengthB = encodeInto(y, core.HEAPU8.subarray(b, a + SINGLE_CALL_BYTES));
  // Lent after the texts are written: lending allocates, which may grow the memory under the views.
  return lendWeights(core, parsed.weights, (handle) => coreCall(() => core._simhash_similarity_one(a, lengthA, b, lengthB,
    measureCode(parsed.measure), handle)));
}
