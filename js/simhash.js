// SimHash: the public API bound to one instantiated WASM module. Each method checks its
// arguments and hands the work to the module of its job; bulk data crosses once per batch.
import { checkTextArray, typeName } from './core/checks.js';
import { dedup } from './dedup/dedup.js';
import { dedupRecords, isRecords, linkRecords } from './records/records.js';
import { fingerprintAll, fingerprintOne, fingerprintTokens } from './bindings/fingerprints.js';
import { groupLabels } from './dedup/grouping.js';
import { distance, fromHex, toFingerprintArray, toHex } from './core/hamming.js';
import { learnIdf, loadIdf } from './bindings/idf.js';
import { WordWeights, learnWeights } from './bindings/word-weights.js';
import { checkMaxDistance, checkOptions } from './bindings/options.js';
import { formatVersion, heapInUse, listForms, memoryBytes } from './bindings/memory.js';
import { findPairs } from './bindings/pairs.js';
import { createIndex, loadIndex } from './bindings/simhash-index.js';
import { similarities, similarity } from './bindings/similarities.js';
import { createTextIndex, loadTextIndex } from './bindings/text-index.js';
import { bindCore, guardMethods } from './core/traps.js';
import { loadHanTable } from './bindings/han-table.js';
import { useListForms } from './core/legal-forms.js';

export class SimHash {
  #core;

  constructor(core) {
    this.#core = core;
    useListForms(listForms(core));
    bindCore(this, core);
  }

  /**
   * Loads the table by which the short measure folds traditional Han characters to simplified
   * ones. dedup, link and the pool load it themselves for texts that hold Han characters, and
   * Node reads it when first needed; a page calls this before similarity, learnWeights or a
   * text index compares such texts by the short measure.
   */
  async loadHanTable() {
    return loadHanTable(this.#core);
  }

  /** Version of the fingerprint definition (docs/spec.md); stored fingerprints compare only within one version. */
  get formatVersion() {
    return formatVersion(this.#core);
  }

  /** Bytes of WASM linear memory (it grows, never shrinks). */
  get memoryBytes() {
    return memoryBytes(this.#core);
  }

  /** Bytes of the WASM heap allocated now (indexes and scratch buffers), for leak checks. */
  get heapBytesInUse() {
    return heapInUse(this.#core);
  }

  fingerprint(text, options) {
    return fingerprintOne(this.#core, text, options);
  }

  fingerprintAll(texts, options) {
    return fingerprintAll(this.#core, texts, options);
  }

  fingerprintTokens(tokens, weights) {
    return fingerprintTokens(this.#core, tokens, weights);
  }

  distance(a, b) {
    return distance(a, b);
  }

  toHex(fingerprint) {
    return toHex(fingerprint);
  }

  fromHex(hex) {
    return fromHex(hex);
  }

  createIndex(options) {
    return createIndex(this.#core, options);
  }

  loadIndex(bytes) {
    return loadIndex(this.#core, bytes);
  }

  /** An index of texts answering by exact similarity, with dedup's threshold and candidates (text-index.js). */
  createTextIndex(init) {
    return createTextIndex(this.#core, init);
  }

  /** Restores `textIndex.serialize()` bytes; corrupted or truncated bytes throw an Error. */
  loadTextIndex(bytes) {
    return loadTextIndex(this.#core, bytes);
  }

  /**
   * Learns IDF weights from a corpus (the caller's own texts) for the given options;
   * pass the result as `options.idf` to fingerprint with them.
   */
  /** The word weights of a list (README "Similarity of short strings"), for the short measure's options.weights. */
  learnWeights(texts) {
    return learnWeights(this.#core, texts);
  }

  /**
   * Word weights from weights.toData() (kept in IndexedDB, say), copied; wrong types throw a
   * TypeError, data out of the contract an Error (word-weights.js WordWeights).
   */
  loadWeights(data) {
    return new WordWeights(data);
  }

  learnIdf(texts, options) {
    checkTextArray(texts, 'texts');
    if (options?.idf) throw new TypeError('options.idf cannot be given when learning IDF weights');
    return learnIdf(this.#core, texts, options, checkOptions(options));
  }

  /** Restores `idf.toBytes()`; corrupted or truncated bytes throw an Error. */
  loadIdf(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${typeName(bytes)}`);
    return loadIdf(this.#core, bytes);
  }

  findPairs(fingerprints, maxDistance) {
    const fps = toFingerprintArray(fingerprints, 'fingerprints');
    return findPairs(this.#core, fps, checkMaxDistance(maxDistance));
  }

  /** The exact similarity of two texts (README "Similarity"), in [0, 1], by options.measure ('text' unless given). */
  similarity(a, b, options) {
    return similarity(this.#core, a, b, options);
  }

  /** The exact similarity of each pair (a[i], b[i]) of the texts, in one call. */
  similarities(texts, pairs, options) {
    return similarities(this.#core, texts, pairs, options);
  }

  /** Group labels of `count` items from their pairs (dedup's grouping rules), without WASM. */
  groupLabels(count, pairs, options) {
    return groupLabels(this.#core, count, pairs, options);
  }

  /**
   * Near-duplicate groups of a list. Asynchronous so that long runs can report progress,
   * be cancelled and let the page breathe.
   */
  async dedup(items, options = {}) {
    return isRecords(items, options) ? dedupRecords(this.#core, items, options) : dedup(this.#core, items, options);
  }

  /** Each record of `left` linked to at most one of `right`, the most probable match of both (README "Records"). */
  async link(left, right, options = {}) {
    return linkRecords(this.#core, left, right, options);
  }
}

// A WebAssembly trap makes the instance unusable, and every call says so (traps.js).
guardMethods(SimHash, 'sh');
