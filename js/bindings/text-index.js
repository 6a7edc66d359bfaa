// TextIndex: stored texts answered by exact similarity (cpp/include/simhash/text_index.h),
// living in WASM memory; dispose() frees it. A text crosses as UTF-8 written into the
// module's single-call scratch buffer (memory.js), or into a buffer of its own when it is
// longer; matches come back through the result buffer.
import { checkInteger, checkKnownKeys, checkObject, checkText, checkTextArray, typeName } from '../core/checks.js';
import { ID_MAX, checkIds } from '../core/ids.js';
import { SINGLE_CALL_BYTES, addedId, addedIds, coreCall, loadHandleInPieces, resultBytesInPieces, resultColumns, singleCallScratch, withAllocations, withEncodedTexts } from './memory.js';
import { checkOptions } from './options.js';
import { requireHanTable } from './han-table.js';
import { DEFAULT_SIMILARITY, DEFAULT_SIMILARITY_OF, MEASURES, checkMeasure, checkReview, checkSimilarity, measureCode } from '../core/thresholds.js';
import { encodeInto } from '../core/text.js';
import { checkWeights, lendWeights } from './word-weights.js';
import { bindCore, guardMethods, handleRegistry } from '../core/traps.js';

/**
 * textIndex[CORE_OF](): [core, handle], for text-index-keys.js, which reads what an add of a
 * text would store for the shared index (Node only: kept out of the browser bundle). Not
 * public API.
 */
export const CORE_OF = Symbol('coreOf');

/** A match's kind by the core's MatchKind (text_index.h). */
const MATCH_KINDS = ['duplicate', 'review'];

/** Longest text encoded into the single-call scratch buffer (UTF-8 takes at most 3 bytes per UTF-16 unit). */
const SCRATCH_CHARS = Math.floor(SINGLE_CALL_BYTES / 3);

// Text indexes forgotten without dispose() are freed when collected: [core, address] pairs.
const registry = handleRegistry('_textIndexDelete');

/** Calls use(address, length) with text's UTF-8 in WASM memory: the scratch buffer for short texts. */
export function withText(core, text, use) {
  if (text.length <= SCRATCH_CHARS) {
    const address = singleCallScratch(core);
    return coreCall(() => use(address, encodeInto(text, core.HEAPU8.subarray(address, address + SINGLE_CALL_BYTES))));
  }
  return withAllocations(core, (mem) => {
    const address = mem.alloc(text.length * 3);
    return use(address, encodeInto(text, core.HEAPU8.subarray(address, address + text.length * 3)));
  });
}

export class TextIndex {
  #core;
  #handle;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    bindCore(this, core);
    registry.register(this, [core, handle], this);
  }

  #live() {
    if (!this.#handle) throw new Error('this text index has been disposed');
    return this.#handle;
  }

  /** Before texts are compared: the Han table they need, by the short measure (han-table.js). */
  #foldable(texts) {
    if (this.measure === 'short') requireHanTable(this.#core, texts);
  }

  /** The measure of similarity the index compares by (thresholds.js MEASURES). */
  get measure() {
    return MEASURES[this.#core._textIndexMeasure(this.#live())];
  }

  /** The threshold: query's duplicates reach this similarity. */
  get similarity() {
    return this.#core._textIndexThreshold(this.#live());
  }

  /** The review threshold query's review matches reach, or undefined when the index has none. */
  get review() {
    return this.#core._textIndexReview(this.#live()) || undefined;
  }

  /** Stored texts. */
  get size() {
    return this.#core._simhash_text_index_size(this.#live());
  }

  /** Stores text under id (or a fresh id) and returns the id; an id already stored throws, storing nothing. */
  add(text, id) {
    checkText(text, 'text');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const handle = this.#live();
    const core = this.#core;
    this.#foldable([text]);
    const added = withText(core, text, (utf8, length) => core._simhash_text_index_add_one(handle, utf8, length, id ?? 0, id === undefined ? 0 : 1));
    return addedId(added, id);
  }

  /** Stores every text, all or nothing, and returns their ids. */
  addAll(texts, ids) {
    checkTextArray(texts, 'texts');
    texts.forEach((text, i) => checkText(text, `texts[${i}]`));
    const idArray = ids === undefined ? undefined : checkIds(ids, texts.length, 'texts');
    const handle = this.#live();
    const core = this.#core;
    this.#foldable(texts);
    // One call for the whole batch: the core undoes a failed batch, id counter included.
    return withEncodedTexts(core, texts, (utf8, offsets, count, mem) => {
      const idsAddress = idArray ? mem.copyIn(idArray) : 0;
      const out = mem.alloc(count * 4);
      return addedIds(core, coreCall(() => core._textIndexAddBatch(handle, utf8, offsets, count, idsAddress, out)), count, out, idArray);
    });
  }

  /**
   * Every stored text whose similarity with text reaches the threshold among the banding
   * candidates (kind 'duplicate'), and with review, every other reaching the review
   * threshold among its candidates (kind 'review'); duplicates first, each kind by
   * similarity descending then id ascending; the first options.limit.
   */
  query(text, options) {
    checkText(text, 'text');
    const o = checkObject(options, 'options');
    checkKnownKeys(o, 'options', ['limit']);
    const limit = o.limit === undefined ? ID_MAX : checkInteger(o.limit, 'options.limit', 1, ID_MAX);
    const handle = this.#live();
    const core = this.#core;
    this.#foldable([text]);
    const count = withText(core, text, (utf8, length) => core._simhash_text_index_query_one(handle, utf8, length, limit));
    if (count === 0) return [];
    const [similarities, ids, kinds] = resultColumns(core, count, [Float64Array, Uint32Array, Uint32Array]);
    const matches = new Array(count);
    for (let i = 0; i < count; i++) matches[i] = { id: ids[i], similarity: similarities[i], kind: MATCH_KINDS[kinds[i]] };
    return matches;
  }

  [CORE_OF]() {
    return [this.#core, this.#live()];
  }

  /** @returns whether the id was stored. */
  remove(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    return this.#core._simhash_text_index_remove(this.#live(), id) !== 0;
  }

  has(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    return this.#core._simhash_text_index_has(this.#live(), id) !== 0;
  }

  /** The versioned, checksummed "SHTX" bytes (text_index.h); loadTextIndex restores them. */
  serialize() {
    const handle = this.#live();
    const core = this.#core;
    return resultBytesInPieces(core,
      () => core._textIndexSerializeBegin(handle),
      (capacity) => core._textIndexSerializeNext(handle, capacity),
      () => core._textIndexSerializeEnd(handle));
  }

  dispose() {
    if (!this.#handle) return;
    registry.unregister(this);
    this.#core._textIndexDelete(this.#handle);
    this.#handle = 0;
  }
}

guardMethods(TextIndex, 'textIndex');

/**
 * sh.createTextIndex. `review`, as dedup's, adds review matches. `options` are fingerprint
 * options, checked as dedup's for parity with it: the similarity is of the texts
 * themselves, so they do not change the answers.
 */
export function createTextIndex(core, init) {
  const o = checkObject(init, 'init');
  checkKnownKeys(o, 'init', ['similarity', 'measure', 'weights', 'review', 'options']);
  const measure = checkMeasure(o.measure ?? 'text', 'init.measure');
  const weights = o.weights === undefined ? null : checkWeights(o.weights, 'init.weights', measure);
  const similarity = checkSimilarity(o.similarity ?? DEFAULT_SIMILARITY_OF[measure], 'init.similarity');
  const review = o.review === undefined ? 0 : checkReview(o.review, similarity, 'init.review', measure);
  checkOptions(o.options);
  // The index keeps its own copy of the weights.
  return new TextIndex(core, lendWeights(core, weights, (handle) => coreCall(() => core._textIndexCreate(similarity, review,
    measureCode(measure), handle))));
}

/** The revision of the list normalization text index bytes are written by (text_index_format.cpp kListRevision). */
const LIST_REVISION = 4;

/** sh.loadTextIndex: restores textIndex.serialize(); corrupted or truncated bytes throw an Error. */
export function loadTextIndex(core, bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${typeName(bytes)}`);
  // Bytes of the short measure from an earlier revision of its definition have their texts
  // normalized again as they load: the list normalization (flag 1), its revision (the flags'
  // bits 2-3, and above them the CJK shingle size's high nibble) below LIST_REVISION.
  const flags = bytes[6] >> 4;
  if ((flags & 1) === 1 && ((flags >> 2) | ((bytes[7] >> 4) << 2)) < LIST_REVISION) requireHanTable(core, { utf8: bytes });
  const handle = loadHandleInPieces(core, bytes, () => core._textIndexCreate(DEFAULT_SIMILARITY, 0, 0, 0), {
    begin: (h, length) => core._textIndexLoadBegin(h, length),
    next: (h, address, length) => core._textIndexLoadNext(h, address, length),
    end: (h) => core._textIndexLoadEnd(h),
  }, (h) => core._textIndexDelete(h));
  return new TextIndex(core, handle);
}
