// Word weights of the short-string similarity (README "Similarity of short strings";
// cpp/include/simhash/word_weights.h): how many texts of a list hold each word. Learned in
// the core, held in JS as plain arrays (no WASM memory to free; a pool posts them to its
// workers as they are), and lent to the core for the length of each call that weighs by them.
import { typeName } from '../core/checks.js';
import { coreCall, forEachByteSliceAsync, forEachEncodedSlice, forEachEncodedSliceAsync, resultColumns, withAllocations } from './memory.js';

/** Word weights: the texts learned from and, ascending by hash, each word's hash and count. */
export class WordWeights {
  #data;

  /**
   * @param {{ texts: number, hashes: BigUint64Array, counts: Uint32Array }} data: toJSON's
   * form (the core checks, when lent them, that the hashes ascend and each count is within 1..texts).
   */
  constructor(data) {
    const { texts, hashes, counts } = data ?? {};
    if (!Number.isInteger(texts) || texts < 0 || texts > 0xffffffff) throw new TypeError(`data.texts must be an integer in [0, 2^32), got ${typeName(texts)}`);
    if (!(hashes instanceof BigUint64Array)) throw new TypeError(`data.hashes must be a BigUint64Array, got ${typeName(hashes)}`);
    if (!(counts instanceof Uint32Array) || counts.length !== hashes.length) {
      throw new TypeError(`data.counts must be a Uint32Array as long as data.hashes (${hashes.length}), got ${typeName(counts)}`);
    }
    this.#data = { texts, hashes, counts };
  }

  /** Number of texts learned from. */
  get texts() {
    return this.#data.texts;
  }

  /** Number of distinct words. */
  get words() {
    return this.#data.hashes.length;
  }

  /** The weights as plain data, which `new WordWeights(data)` restores (and a pool posts to its workers). */
  toData() {
    const { texts, hashes, counts } = this.#data;
    return { texts, hashes: hashes.slice(), counts: counts.slice() };
  }

  /** The data without a copy, for lendWeights. */
  static dataOf(weights) {
    return weights.#data;
  }
}

/** Checks a `weights` option: WordWeights, or null for none. */
export function checkWeights(value, name) {
  if (value === null || value instanceof WordWeights) return value;
  throw new TypeError(`${name} must be WordWeights from sh.learnWeights (or null for none), got ${typeName(value)}`);
}

/** The weights a learning handle finished with (wordWeightsFinish), for `texts` texts. */
function finish(core, handle, texts) {
  const words = coreCall(() => core._wordWeightsFinish(handle));
  const [low, high, counts] = resultColumns(core, words, [Uint32Array, Uint32Array, Uint32Array]);
  const hashes = new BigUint64Array(words);
  for (let i = 0; i < words; i++) hashes[i] = BigInt(high[i]) << 32n | BigInt(low[i]);
  return new WordWeights({ texts, hashes, counts });
}

const learner = (core) => coreCall(() => core._wordWeightsCreate(0, 0, 0, 0));
const counter = (core, handle) => (utf8, offsets, count) => coreCall(() => core._wordWeightsCount(handle, utf8, offsets, count));

/** sh.learnWeights: the word weights of a list of texts, in one call. */
export function learnWeights(core, texts) {
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
  const handle = learner(core);
  try {
    forEachEncodedSlice(core, texts, 'texts', counter(core, handle));
    return finish(core, handle, texts.length);
  } finally {
    core._wordWeightsDelete(handle);
  }
}

/**
 * dedup's learnWeights, a slice at a time, awaiting between() after each: `texts` strings,
 * or their UTF-8 end to end with their bounds (text.js encodeTexts' layout).
 */
export async function learnWeightsAsync(core, texts, between) {
  const handle = learner(core);
  try {
    if (Array.isArray(texts)) await forEachEncodedSliceAsync(core, texts, 'texts', counter(core, handle), between);
    else await forEachByteSliceAsync(core, texts, counter(core, handle), between, 1 << 20);
    return finish(core, handle, Array.isArray(texts) ? texts.length : texts.bounds.length - 1);
  } finally {
    core._wordWeightsDelete(handle);
  }
}

/**
 * use(handle) with the weights copied into the core for the call (handle 0 for null), freed
 * once it returns or, when it returns a promise, once that settles.
 */
export function lendWeights(core, weights, use) {
  if (!weights) return use(0);
  const { texts, hashes, counts } = WordWeights.dataOf(weights);
  const handle = withAllocations(core, (mem) => core._wordWeightsCreate(texts, mem.copyIn(hashes), mem.copyIn(counts), hashes.length));
  if (!handle) throw new TypeError('weights: the word hashes must ascend and each count lie within 1..texts');
  let result;
  try {
    result = use(handle);
  } catch (error) {
    core._wordWeightsDelete(handle);
    throw error;
  }
  if (!(result instanceof Promise)) {
    core._wordWeightsDelete(handle);
    return result;
  }
  return result.finally(() => core._wordWeightsDelete(handle));
}
