// Word weights of the short-string similarity (README "Similarity of short strings";
// cpp/include/simhash/word_weights.h): how many texts of a list hold each word. Learned in
// the core, held in JS as plain arrays (no WASM memory to free; a pool posts their data to
// its workers), and lent to the core for the length of each call that weighs by them.
import { typeName } from '../core/checks.js';
import { loadHanTableFor, requireHanTable } from './han-table.js';
import { coreCall, forEachByteSliceAsync, forEachEncodedSlice, forEachEncodedSliceAsync, resultColumns, withAllocations } from './memory.js';

// Passed by this module's callers whose data keeps the contract by construction: weights the
// core learned, and the data of WordWeights posted between the pool and its workers.
const TRUSTED = Symbol('data that keeps the contract');

/**
 * Word weights: the texts learned from and, ascending by hash, each word's hash and count.
 * They hold their own arrays, which keep word_weights.h's contract (WordWeights::assign):
 * hashes strictly ascending, each count within 1..texts.
 */
export class WordWeights {
  #data;

  /**
   * @param data toData()'s form. Wrong types are a TypeError; values out of the contract an
   * Error starting 'invalid word weights data: ' (data restored from storage is checked as
   * serialized bytes are), so that bad data fails where it is loaded, not where it is first
   * used. The arrays are copied, then checked: O(words), once.
   */
  constructor(data, trusted) {
    const { texts, hashes, counts } = data ?? {};
    if (!(texts >>> 0 === texts && hashes instanceof BigUint64Array && counts instanceof Uint32Array && counts.length === hashes.length)) {
      throw new TypeError('weights data must be { texts: integer, hashes: BigUint64Array, counts: Uint32Array as long }');
    }
    if (trusted === TRUSTED) {
      this.#data = { texts, hashes, counts };
      return;
    }
    this.#data = { texts, hashes: hashes.slice(), counts: counts.slice() };
    checkContract(this.#data);
  }

  get texts() {
    return this.#data.texts;
  }

  get words() {
    return this.#data.hashes.length;
  }

  /** Copies of the arrays: structured-cloneable (IndexedDB, postMessage); `new WordWeights(data)` restores them. */
  toData() {
    const { texts, hashes, counts } = this.#data;
    return { texts, hashes: hashes.slice(), counts: counts.slice() };
  }

  /** The data without a copy, for lendWeights. */
  static dataOf(weights) {
    return weights.#data;
  }
}

/** WordWeights of data that keeps the contract by construction (TRUSTED), taken as it is. */
export function trustedWeights(data) {
  return new WordWeights(data, TRUSTED);
}

/** Throws unless the hashes ascend strictly and every count lies within 1..texts. */
function checkContract({ texts, hashes, counts }) {
  for (let i = 0; i < hashes.length; i++) {
    if (i > 0 && hashes[i] <= hashes[i - 1]) {
      throw new Error(`invalid word weights data: hashes[${i}] (${hashes[i]}) is not above hashes[${i - 1}] (${hashes[i - 1]}); the hashes must ascend strictly`);
    }
    if (counts[i] === 0 || counts[i] > texts) {
      throw new Error(`invalid word weights data: counts[${i}] is ${counts[i]}, not within 1..texts (${texts})`);
    }
  }
}

/**
 * Checks a `weights` option: WordWeights, or null for none, given with the short measure
 * (or 'auto', which may take it; undefined stands for none).
 */
export function checkWeights(value, name, measure) {
  if (value !== null && !(value instanceof WordWeights)) {
    throw new TypeError(`${name} must be WordWeights from sh.learnWeights, or null, got ${typeName(value)}`);
  }
  if (measure !== 'short' && measure !== 'auto') throw new TypeError(`${name} needs the measure 'short', not '${measure ?? 'none'}'`);
  return value;
}

/** The weights a learning handle has counted (wordWeightsFinish), of `texts` texts. */
function finish(core, handle, texts) {
  const words = coreCall(() => core._wordWeightsFinish(handle));
  const [low, high, counts] = resultColumns(core, words, [Uint32Array, Uint32Array, Uint32Array]);
  const hashes = new BigUint64Array(words);
  for (let i = 0; i < words; i++) hashes[i] = BigInt(high[i]) << 32n | BigInt(low[i]);
  return trustedWeights({ texts, hashes, counts });
}

/**
 * The word weights of `texts` (strings; or, given `between`, their UTF-8 end to end with their
 * bounds as text.js encodeTexts lays them out), a slice at a time: at once without `between`
 * (sh.learnWeights), else awaiting between() after each slice (dedup).
 */
export function learnWeights(core, texts, between) {
  const strings = Array.isArray(texts);
  if (!strings && !(between && texts?.bounds)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
  const n = strings ? texts.length : texts.bounds.length - 1;
  // Weights are learned of the texts as the short measure normalizes them (han-table.js).
  if (!between) {
    requireHanTable(core, texts);
    const handle = coreCall(() => core._wordWeightsCreate(0, 0, 0, 0));
    return lendHandle(core, handle, () => (forEachEncodedSlice(core, texts, 'texts', counter(core, handle)), finish(core, handle, n)));
  }
  return loadHanTableFor(core, texts).then(() => {
    const handle = coreCall(() => core._wordWeightsCreate(0, 0, 0, 0));
    return lendHandle(core, handle, async () => {
      if (strings) await forEachEncodedSliceAsync(core, texts, 'texts', counter(core, handle), between);
      else await forEachByteSliceAsync(core, texts, counter(core, handle), between, 1 << 20);
      return finish(core, handle, n);
    });
  });
}

/** A slice's words counted into the learner `handle`. */
function counter(core, handle) {
  return (utf8, offsets, n) => coreCall(() => core._wordWeightsCount(handle, utf8, offsets, n));
}

/**
 * use(handle) with the weights copied into the core for the call (handle 0 for null), freed
 * once it returns or, when it returns a promise, once that settles.
 */
export function lendWeights(core, weights, use) {
  if (!weights) return use(0);
  const { texts, hashes, counts } = WordWeights.dataOf(weights);
  const handle = withAllocations(core, (mem) => core._wordWeightsCreate(texts, mem.copyIn(hashes), mem.copyIn(counts), hashes.length));
  // WordWeights keep the contract the core checks again (assign), so this does not happen.
  if (!handle) throw new Error('invalid word weights data: the core refused them');
  return lendHandle(core, handle, use);
}

/** use(handle), then the handle deleted: once it returns or, when it returns a promise, once that settles. */
function lendHandle(core, handle, use) {
  let result;
  try {
    result = use(handle);
  } finally {
    if (!(result instanceof Promise)) core._wordWeightsDelete(handle);
  }
  return result instanceof Promise ? result.finally(() => core._wordWeightsDelete(handle)) : result;
}
