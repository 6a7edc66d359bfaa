// The public API over the Embind module. Arguments are checked here, before any call
// into WASM, so bad input becomes a TypeError/RangeError naming the argument and the
// module never sees it. Bulk data crosses once per batch: strings are UTF-8 encoded
// into one WASM buffer, results are copied out of the heap before it can grow again.

// 'segmenter' is Intl.Segmenter's word segmentation in JS, handed to the core's
// 'separated' mode (tokens joined by U+001F).
const TOKENIZERS = { auto: 0, words: 1, chars: 2, separated: 3, segmenter: 3 };
const TOKEN_SEPARATOR = '\x1f';
const WEIGHTINGS = { tf: 0, binary: 1 };
const MAX_NGRAM = 16;
const MAX_DISTANCE = 64;
const U64_MAX = (1n << 64n) - 1n;
// Batches are encoded a slice at a time so the scratch buffer stays bounded.
const BATCH_CHARS = 1 << 22;

/** Defaults of FingerprintOptions (README, "Fingerprint specification"). */
export const DEFAULT_OPTIONS = Object.freeze({
  tokenizer: 'auto',
  wordNgram: 1,
  charNgram: 2,
  caseFold: true,
  stripPunctuation: true,
  weighting: 'binary',
  nfkc: false,
  locale: 'und',
  idf: null,
});
export const DEFAULT_MAX_DISTANCE = 3;

export function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}

function checkInteger(value, name, min, max) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeName(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function checkFingerprint(value, name) {
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a bigint, got ${typeName(value)}`);
  if (value < 0n || value > U64_MAX) throw new RangeError(`${name} must be an unsigned 64-bit bigint, got ${value}`);
  return value;
}

export function checkMaxDistance(value, name = 'maxDistance') {
  return checkInteger(value ?? DEFAULT_MAX_DISTANCE, name, 0, MAX_DISTANCE);
}

export function checkOptions(options) {
  if (options === undefined) return encodeOptions(DEFAULT_OPTIONS);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${typeName(options)}`);
  }
  const o = { ...DEFAULT_OPTIONS, ...options };
  for (const key of Object.keys(options)) {
    if (!(key in DEFAULT_OPTIONS)) throw new TypeError(`options.${key} is not an option (known: ${Object.keys(DEFAULT_OPTIONS).join(', ')})`);
  }
  if (!(o.tokenizer in TOKENIZERS)) throw new RangeError(`options.tokenizer must be one of ${Object.keys(TOKENIZERS).join(', ')}, got ${String(o.tokenizer)}`);
  if (!(o.weighting in WEIGHTINGS)) throw new RangeError(`options.weighting must be one of ${Object.keys(WEIGHTINGS).join(', ')}, got ${String(o.weighting)}`);
  if (typeof o.caseFold !== 'boolean') throw new TypeError(`options.caseFold must be a boolean, got ${typeName(o.caseFold)}`);
  if (typeof o.stripPunctuation !== 'boolean') throw new TypeError(`options.stripPunctuation must be a boolean, got ${typeName(o.stripPunctuation)}`);
  if (typeof o.nfkc !== 'boolean') throw new TypeError(`options.nfkc must be a boolean, got ${typeName(o.nfkc)}`);
  if (typeof o.locale !== 'string') throw new TypeError(`options.locale must be a string, got ${typeName(o.locale)}`);
  if (o.tokenizer === 'segmenter') wordSegmenter(o.locale); // throws when unavailable or the locale is invalid
  checkInteger(o.wordNgram, 'options.wordNgram', 1, MAX_NGRAM);
  checkInteger(o.charNgram, 'options.charNgram', 1, MAX_NGRAM);
  if (o.idf !== null) {
    const learned = idfEntry(o.idf, 'options.idf').options;
    for (const key of LEARNED_OPTIONS) {
      if (key in options && options[key] !== learned[key]) {
        throw new RangeError(`options.${key} is ${String(options[key])} but the IDF weights were learned with ${String(learned[key])}`);
      }
    }
  }
  return encodeOptions(o);
}

// The options wire format (cpp/bindings/helpers.h): the serialized IDF header's option
// bytes 6..11 (tokenizer mode, wordNgram, charNgram, tokenizer flags, weighting, caller
// flags) as a little-endian 48-bit integer.
const TOKENIZER_FLAG_CASE_FOLD = 1;
const TOKENIZER_FLAG_STRIP_PUNCTUATION = 2;
const CALLER_FLAG_NFKC = 1;
const CALLER_FLAG_SEGMENTER = 2;
const TOKENIZER_NAMES = ['auto', 'words', 'chars', 'separated'];
const WEIGHTING_NAMES = ['tf', 'binary'];

/** Checked, complete options in the wire format. */
function encodeOptions(o) {
  const bytes = [
    TOKENIZERS[o.tokenizer],
    o.wordNgram,
    o.charNgram,
    (o.caseFold ? TOKENIZER_FLAG_CASE_FOLD : 0) | (o.stripPunctuation ? TOKENIZER_FLAG_STRIP_PUNCTUATION : 0),
    WEIGHTINGS[o.weighting],
    (o.nfkc ? CALLER_FLAG_NFKC : 0) | (o.tokenizer === 'segmenter' ? CALLER_FLAG_SEGMENTER : 0),
  ];
  return bytes.reduceRight((wire, byte) => wire * 256 + byte, 0);
}

/** The options a wire number encodes (those IDF weights were learned with). */
function decodeOptions(wire) {
  const bytes = [];
  for (let i = 0; i < 6; i++, wire = Math.floor(wire / 256)) bytes.push(wire % 256);
  const [mode, wordNgram, charNgram, tokenizerFlags, weighting, callerFlags] = bytes;
  return {
    tokenizer: callerFlags & CALLER_FLAG_SEGMENTER ? 'segmenter' : TOKENIZER_NAMES[mode],
    wordNgram,
    charNgram,
    caseFold: Boolean(tokenizerFlags & TOKENIZER_FLAG_CASE_FOLD),
    stripPunctuation: Boolean(tokenizerFlags & TOKENIZER_FLAG_STRIP_PUNCTUATION),
    weighting: WEIGHTING_NAMES[weighting],
    nfkc: Boolean(callerFlags & CALLER_FLAG_NFKC),
  };
}

const segmenters = new Map();

function wordSegmenter(locale) {
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    if (typeof Intl.Segmenter !== 'function') throw new Error("options.tokenizer 'segmenter' needs Intl.Segmenter, which this runtime lacks");
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

// Intl.Segmenter is super-linear on long strings in some engines (Node 20: 100k Chinese
// characters take seconds), so long texts are segmented in pieces cut at a space or
// punctuation mark near this length.
const SEGMENT_CHARS = 2000;
const CUT = /[\s\p{P}]/u;

function* segmentPieces(text) {
  let start = 0;
  while (text.length - start > SEGMENT_CHARS) {
    let end = start + SEGMENT_CHARS;
    let cut = end;
    while (cut > end - 200 && !CUT.test(text[cut - 1])) cut--;
    if (cut > end - 200) end = cut;
    else if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--; // never split a surrogate pair
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

/** The word-like segments of a text joined by U+001F; without any, its whitespace-separated pieces. */
function segmentWords(text, segmenter) {
  const tokens = [];
  for (const piece of segmentPieces(text)) {
    for (const { segment, isWordLike } of segmenter.segment(piece)) if (isWordLike) tokens.push(segment);
  }
  if (tokens.length === 0) return text.trim().split(/\s+/u).join(TOKEN_SEPARATOR);
  return tokens.join(TOKEN_SEPARATOR);
}

// What IDF weights fix about fingerprinting: the features they weigh and how they count.
const LEARNED_OPTIONS = ['tokenizer', 'wordNgram', 'charNgram', 'caseFold', 'stripPunctuation', 'weighting', 'nfkc'];

// IdfWeights objects -> { core, handle, options }; handle 0 once disposed.
const idfEntries = new WeakMap();
const idfRegistry = new FinalizationRegistry(([core, handle]) => core._idfDelete(handle));

function idfEntry(idf, name) {
  const entry = idfEntries.get(idf);
  if (!entry) throw new TypeError(`${name} must be IdfWeights from sh.learnIdf or sh.loadIdf, got ${typeName(idf)}`);
  if (!entry.handle) throw new Error(`${name} has been disposed`);
  return entry;
}

/** Inverse document frequencies learned from a corpus; owns WASM memory: dispose() it. */
export class IdfWeights {
  constructor(core, handle) {
    const options = decodeOptions(core._idfOptions(handle));
    idfEntries.set(this, { core, handle, options });
    idfRegistry.register(this, [core, handle], this);
  }

  /** The fingerprint options the weights were learned with (and fingerprint with). */
  get options() {
    return { ...idfEntry(this, 'this').options };
  }

  /** Number of documents learned from. */
  get documents() {
    const { core, handle } = idfEntry(this, 'this');
    return core._idfDocuments(handle);
  }

  /** Number of distinct features with a learned weight. */
  get features() {
    const { core, handle } = idfEntry(this, 'this');
    return core._idfFeatures(handle);
  }

  /** A versioned, checksummed snapshot; `sh.loadIdf` restores it. */
  toBytes() {
    const { core, handle } = idfEntry(this, 'this');
    const length = coreCall(() => core._idfSerialize(handle));
    return new Uint8Array(core.HEAPU8.buffer, core._resultAddress(), length).slice();
  }

  /** Frees the WASM memory; later use throws. Safe to call twice. */
  dispose() {
    const entry = idfEntries.get(this);
    if (!entry?.handle) return;
    idfRegistry.unregister(this);
    entry.core._idfDelete(entry.handle);
    entry.handle = 0;
  }
}

if (Symbol.dispose) IdfWeights.prototype[Symbol.dispose] = IdfWeights.prototype.dispose;

/** The options that shape texts: IDF weights bring the options they were learned with. */
export function textOptions(options) {
  return options?.idf ? { ...options, ...options.idf.options } : options;
}

/** Whether these options (textOptions) change texts in JS (NFKC, Intl.Segmenter) before the core sees them. */
export function preparedInJs(options) {
  return options?.nfkc === true || options?.tokenizer === 'segmenter';
}

/** Texts as the core sees them: NFKC-normalized and/or segmented when the options ask for it. */
function prepareTexts(texts, options, name) {
  if (!preparedInJs(options)) return texts;
  const nfkc = options.nfkc === true;
  const segmenter = options.tokenizer === 'segmenter' ? wordSegmenter(options.locale ?? DEFAULT_OPTIONS.locale) : undefined;
  return texts.map((text, i) => {
    if (typeof text !== 'string') throw new TypeError(`${name}[${i}] must be a string, got ${typeName(text)}`);
    const normalized = nfkc ? text.normalize('NFKC') : text;
    return segmenter ? segmentWords(normalized, segmenter) : normalized;
  });
}

/** A BigUint64Array of fingerprints from a BigUint64Array or an array of bigints. */
export function toFingerprintArray(fingerprints, name) {
  if (fingerprints instanceof BigUint64Array) return fingerprints;
  if (!Array.isArray(fingerprints)) {
    throw new TypeError(`${name} must be a BigUint64Array or an array of bigints, got ${typeName(fingerprints)}`);
  }
  const out = new BigUint64Array(fingerprints.length);
  for (let i = 0; i < fingerprints.length; i++) out[i] = checkFingerprint(fingerprints[i], `${name}[${i}]`);
  return out;
}

function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Number of differing bits of two 64-bit fingerprints. */
export function distance(a, b) {
  const x = checkFingerprint(a, 'a') ^ checkFingerprint(b, 'b');
  return popcount32(Number(x & 0xffffffffn)) + popcount32(Number(x >> 32n));
}

/** 16 lowercase hex digits. */
export function toHex(fingerprint) {
  return checkFingerprint(fingerprint, 'fingerprint').toString(16).padStart(16, '0');
}

export function fromHex(hex) {
  if (typeof hex !== 'string') throw new TypeError(`hex must be a string, got ${typeName(hex)}`);
  if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) throw new RangeError(`hex must be 1 to 16 hex digits, got "${hex}"`);
  return BigInt('0x' + hex);
}

/** Owns WASM allocations and frees them all at once. */
class Allocations {
  constructor(core) {
    this.core = core;
    this.addresses = [];
  }
  alloc(bytes) {
    const address = this.core._malloc(Math.max(bytes, 8));
    if (!address) throw new Error(`out of WebAssembly memory allocating ${bytes} bytes`);
    this.addresses.push(address);
    return address;
  }
  /** Copies a typed array into WASM memory and returns its address. */
  copyIn(array) {
    const address = this.alloc(array.byteLength);
    this.core.HEAPU8.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), address);
    return address;
  }
  free() {
    for (const address of this.addresses) this.core._free(address);
    this.addresses.length = 0;
  }
}

/**
 * What the core throws when an allocation inside it fails: C++ throws std::bad_alloc,
 * which reaches JS as a bare number (exceptions are not caught inside the WASM build),
 * and growing the memory past its maximum is a RangeError. Either becomes an Error that
 * says so; the module stays usable, and the operation that failed did nothing.
 */
function asError(error) {
  if (error instanceof Error && !(error instanceof RangeError && /memory/i.test(error.message))) return error;
  return new Error('out of WebAssembly memory: the operation was abandoned');
}

/** Runs a call into the core that allocates inside it. */
function coreCall(call) {
  try {
    return call();
  } catch (error) {
    throw asError(error);
  }
}

/** Runs a call into the core with its scratch allocations, freeing them afterwards. */
function withAllocations(core, body) {
  const allocations = new Allocations(core);
  try {
    return body(allocations);
  } catch (error) {
    throw asError(error);
  } finally {
    allocations.free();
  }
}

/** Result buffer of the last findPairs/query/serialize call, copied out. */
function resultWords(core, count) {
  return new Uint32Array(core.HEAPU8.buffer, core._resultAddress(), count).slice();
}

const encoder = new TextEncoder();

/**
 * Texts encoded back to back as UTF-8, as the worker pool sends them: text i is
 * utf8[bounds[i] .. bounds[i + 1]); the buffer may be longer.
 */
export function encodeTexts(texts) {
  let chars = 0;
  for (const text of texts) chars += text.length;
  const utf8 = new Uint8Array(chars * 3); // encodeInto writes at most 3 bytes per UTF-16 unit
  const bounds = new Uint32Array(texts.length + 1);
  writeUtf8(texts, 0, utf8, bounds);
  return { utf8, bounds };
}

/** Encodes texts[start ..) back to back into utf8 (3 bytes per UTF-16 unit of room); text i ends at bounds[i + 1]. */
function writeUtf8(texts, start, utf8, bounds) {
  const count = bounds.length - 1;
  let written = 0;
  for (let i = 0; i < count; i++) {
    bounds[i] = written;
    written += encoder.encodeInto(texts[start + i], utf8.subarray(written)).written;
  }
  bounds[count] = written;
}

/** Encodes strings into one UTF-8 buffer in WASM memory; calls use(utf8, offsets, n) per slice. */
function forEachEncodedSlice(core, texts, name, use) {
  let start = 0;
  while (start < texts.length) {
    let chars = 0;
    let end = start;
    for (; end < texts.length; end++) {
      const text = texts[end];
      if (typeof text !== 'string') throw new TypeError(`${name}[${end}] must be a string, got ${typeName(text)}`);
      if (end > start && chars + text.length > BATCH_CHARS) break;
      chars += text.length;
    }
    withAllocations(core, (mem) => {
      const count = end - start;
      const utf8 = mem.alloc(chars * 3); // encodeInto writes at most 3 bytes per UTF-16 unit
      const offsets = mem.alloc((count + 1) * 4);
      const heap = core.HEAPU8;
      writeUtf8(texts, start, heap.subarray(utf8, utf8 + chars * 3), new Uint32Array(heap.buffer, offsets, count + 1));
      use(utf8, offsets, count, start, mem);
    });
    start = end;
  }
}

// Indexes forgotten without dispose() are freed when collected: [core, address] pairs.
const indexRegistry = new FinalizationRegistry(([core, address]) => core._indexDelete(address));

class SimHashIndex {
  #core;
  #handle;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    indexRegistry.register(this, [core, handle], this);
  }

  #live() {
    if (!this.#handle) throw new Error('this index has been disposed');
    return this.#handle;
  }

  get maxDistance() {
    return this.#core._indexMaxDistance(this.#live());
  }

  get size() {
    return this.#core._indexSize(this.#live());
  }

  add(fingerprint, id) {
    checkFingerprint(fingerprint, 'fingerprint');
    if (id !== undefined) checkInteger(id, 'id', 0, 0xffffffff);
    return this.addAll([fingerprint], id === undefined ? undefined : [id])[0];
  }

  addAll(fingerprints, ids) {
    const handle = this.#live();
    const fps = toFingerprintArray(fingerprints, 'fingerprints');
    let idArray;
    if (ids !== undefined) {
      if (!(ids instanceof Uint32Array) && !Array.isArray(ids)) {
        throw new TypeError(`ids must be a Uint32Array or an array of numbers, got ${typeName(ids)}`);
      }
      if (ids.length !== fps.length) throw new RangeError(`ids has ${ids.length} entries but fingerprints has ${fps.length}`);
      idArray = ids instanceof Uint32Array ? ids : Uint32Array.from(ids, (id, i) => checkInteger(id, `ids[${i}]`, 0, 0xffffffff));
    }
    const core = this.#core;
    return withAllocations(core, (mem) => {
      const fpAddress = mem.copyIn(fps);
      const idsAddress = idArray ? mem.copyIn(idArray) : 0;
      const outAddress = mem.alloc(fps.length * 4);
      const added = core._indexAddBatch(handle, fpAddress, idsAddress, fps.length, outAddress);
      const assigned = new Uint32Array(core.HEAPU8.buffer, outAddress, fps.length).slice();
      if (added < fps.length) {
        for (let i = 0; i < added; i++) core._indexRemove(handle, assigned[i]); // all or nothing
        throw idArray
          ? new Error(`ids[${added}] = ${idArray[added]} is already stored in this index`)
          : new Error('this index has used up its 2^32 ids');
      }
      return assigned;
    });
  }

  query(fingerprint) {
    checkFingerprint(fingerprint, 'fingerprint');
    const handle = this.#live();
    const core = this.#core;
    const words = withAllocations(core, (mem) => {
      const count = core._indexQuery(handle, mem.copyIn(new BigUint64Array([fingerprint])));
      return resultWords(core, count * 2);
    });
    const matches = new Array(words.length / 2);
    for (let i = 0; i < matches.length; i++) matches[i] = { id: words[2 * i], distance: words[2 * i + 1] };
    return matches;
  }

  remove(id) {
    checkInteger(id, 'id', 0, 0xffffffff);
    return this.#core._indexRemove(this.#live(), id);
  }

  clear() {
    this.#core._indexClear(this.#live());
  }

  serialize() {
    const handle = this.#live();
    const length = coreCall(() => this.#core._indexSerialize(handle));
    return new Uint8Array(this.#core.HEAPU8.buffer, this.#core._resultAddress(), length).slice();
  }

  dispose() {
    if (!this.#handle) return;
    indexRegistry.unregister(this);
    this.#core._indexDelete(this.#handle);
    this.#handle = 0;
  }
}

// `using index = sh.createIndex()` where the runtime has explicit resource management.
if (Symbol.dispose) SimHashIndex.prototype[Symbol.dispose] = SimHashIndex.prototype.dispose;

/** The API bound to one instantiated WASM module. */
export class SimHash {
  #core;

  constructor(core) {
    this.#core = core;
  }

  /** Version of the fingerprint definition (README "Fingerprint specification"); stored fingerprints compare only within one version. */
  get formatVersion() {
    return this.#core._formatVersion();
  }

  /** Bytes of WASM linear memory (it grows, never shrinks). */
  get memoryBytes() {
    return this.#core.HEAPU8.length;
  }

  /** Bytes of the WASM heap allocated now (indexes and scratch buffers), for leak checks. */
  get heapBytesInUse() {
    return this.#core._heapInUse();
  }

  fingerprint(text, options) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeName(text)}`);
    return this.fingerprintAll([text], options)[0];
  }

  fingerprintAll(texts, options) {
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
    const args = checkOptions(options);
    const core = this.#core;
    const idf = options?.idf ? this.#idfHandle(options.idf) : 0;
    const prepared = prepareTexts(texts, textOptions(options), 'texts');
    const out = new BigUint64Array(texts.length);
    forEachEncodedSlice(core, prepared, 'texts', (utf8, offsets, count, start, mem) => {
      out.set(this.#fingerprintBatch(mem, utf8, offsets, count, args, idf), start);
    });
    return out;
  }

  /**
   * fingerprintAll of texts that the worker pool's calling thread encoded already: text i is
   * utf8[bounds[i] .. bounds[i + 1]). Only for options that are not preparedInJs. Internal.
   */
  _fingerprintEncoded(utf8, bounds, options) {
    const args = checkOptions(options);
    const idf = options?.idf ? this.#idfHandle(options.idf) : 0;
    const count = bounds.length - 1;
    return withAllocations(this.#core, (mem) => {
      const text = mem.copyIn(utf8.subarray(0, bounds[count]));
      return this.#fingerprintBatch(mem, text, mem.copyIn(bounds), count, args, idf).slice();
    });
  }

  /** The core's fingerprints of count encoded texts, as a view into WASM memory allocated from mem. */
  #fingerprintBatch(mem, utf8, offsets, count, args, idf) {
    const core = this.#core;
    const result = mem.alloc(count * 8);
    if (idf) core._fingerprintBatchIdf(utf8, offsets, count, result, idf);
    else core._fingerprintBatch(utf8, offsets, count, result, args);
    return new BigUint64Array(core.HEAPU8.buffer, result, count);
  }

  fingerprintTokens(tokens, weights) {
    if (!Array.isArray(tokens)) throw new TypeError(`tokens must be an array of strings, got ${typeName(tokens)}`);
    let weightArray;
    if (weights !== undefined) {
      if (!Array.isArray(weights) && !(weights instanceof Float64Array)) {
        throw new TypeError(`weights must be an array of numbers or a Float64Array, got ${typeName(weights)}`);
      }
      if (weights.length !== tokens.length) throw new RangeError(`weights has ${weights.length} entries but tokens has ${tokens.length}`);
      weightArray = Float64Array.from(weights, (w, i) => {
        if (typeof w !== 'number') throw new TypeError(`weights[${i}] must be a number, got ${typeName(w)}`);
        if (!Number.isFinite(w)) throw new RangeError(`weights[${i}] must be finite, got ${w}`);
        return w;
      });
    }
    const core = this.#core;
    let fingerprint = 0n;
    // Tokens form one feature list, so they must cross in one slice.
    const chars = tokens.reduce((sum, t) => sum + (typeof t === 'string' ? t.length : 0), 0);
    if (chars > BATCH_CHARS) throw new RangeError(`tokens hold ${chars} characters; at most ${BATCH_CHARS} fit one call`);
    if (tokens.length === 0) return 0n; // no features: every sum is 0, a tie, so every bit is 0
    forEachEncodedSlice(core, tokens, 'tokens', (utf8, offsets, count, _start, mem) => {
      const weightsAddress = weightArray ? mem.copyIn(weightArray) : 0;
      const result = mem.alloc(8);
      core._fingerprintTokens(utf8, offsets, count, weightsAddress, result);
      fingerprint = new BigUint64Array(core.HEAPU8.buffer, result, 1)[0];
    });
    return fingerprint;
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

  createIndex(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
    const maxDistance = checkMaxDistance(options.maxDistance, 'options.maxDistance');
    return new SimHashIndex(this.#core, coreCall(() => this.#core._indexCreate(maxDistance)));
  }

  /**
   * Learns IDF weights from a corpus (the caller's own texts) for the given options;
   * pass the result as `options.idf` to fingerprint with them.
   */
  learnIdf(texts, options) {
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
    if (options?.idf) throw new TypeError('options.idf cannot be given when learning IDF weights');
    const wire = checkOptions(options);
    const core = this.#core;
    const learner = coreCall(() => core._idfLearnerCreate(wire));
    try {
      forEachEncodedSlice(core, prepareTexts(texts, options, 'texts'), 'texts', (utf8, offsets, count) => {
        core._idfLearnerAdd(learner, utf8, offsets, count);
      });
      return new IdfWeights(core, coreCall(() => core._idfLearnerTable(learner)));
    } finally {
      core._idfLearnerDelete(learner);
    }
  }

  /** Restores `idf.toBytes()`; corrupted or truncated bytes throw an Error. */
  loadIdf(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${typeName(bytes)}`);
    const core = this.#core;
    const handle = coreCall(() => core._idfCreate());
    const error = withAllocations(core, (mem) => core._idfLoad(handle, mem.copyIn(bytes), bytes.length));
    if (error) {
      core._idfDelete(handle);
      throw new Error(error);
    }
    return new IdfWeights(core, handle);
  }

  #idfHandle(idf) {
    const entry = idfEntry(idf, 'options.idf');
    if (entry.core !== this.#core) throw new Error('options.idf belongs to another instance of the module');
    return entry.handle;
  }

  loadIndex(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${typeName(bytes)}`);
    const core = this.#core;
    const handle = coreCall(() => core._indexCreate(0));
    const error = withAllocations(core, (mem) => core._indexLoad(handle, mem.copyIn(bytes), bytes.length));
    if (error) {
      core._indexDelete(handle);
      throw new Error(error);
    }
    return new SimHashIndex(core, handle);
  }

  findPairs(fingerprints, maxDistance) {
    const fps = toFingerprintArray(fingerprints, 'fingerprints');
    const k = checkMaxDistance(maxDistance);
    if (fps.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
    const core = this.#core;
    const words = withAllocations(core, (mem) => resultWords(core, core._findPairs(mem.copyIn(fps), fps.length, k) * 3));
    const count = words.length / 3;
    const a = new Uint32Array(count);
    const b = new Uint32Array(count);
    const dist = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      a[i] = words[3 * i];
      b[i] = words[3 * i + 1];
      dist[i] = words[3 * i + 2];
    }
    return { a, b, distance: dist };
  }

  /**
   * Near-duplicate groups of a list. Asynchronous so that long runs can report progress,
   * be cancelled and let the page breathe: it yields to the event loop about every
   * YIELD_MS of work.
   */
  async dedup(items, options = {}) {
    const { key, k, fingerprintOptions, grouping, onProgress, signal, verifier } = checkDedupArguments(items, options);
    const texts = key ? items.map((item, i) => {
      const text = key(item, i);
      if (typeof text !== 'string') throw new TypeError(`options.key must return a string, got ${typeName(text)} for items[${i}]`);
      return text;
    }) : items;
    if (!key) items.forEach((item, i) => {
      if (typeof item !== 'string') throw new TypeError(`items[${i}] must be a string (or pass options.key), got ${typeName(item)}`);
    });

    const pacer = new Pacer(signal, onProgress);
    const total = texts.length;
    const fingerprints = new BigUint64Array(total);
    await pacer.step('fingerprint', 0, total);
    for (let start = 0; start < total; start += DEDUP_SLICE) {
      const end = Math.min(total, start + DEDUP_SLICE);
      fingerprints.set(this.fingerprintAll(texts.slice(start, end), fingerprintOptions), start);
      await pacer.step('fingerprint', end, total);
    }
    let leaderOf;
    if (grouping === 'leader' && !verifier) {
      leaderOf = leaderLabels(this.#core, fingerprints, k); // no pairs materialised
      await pacer.step('pairs', 1, 1);
    } else {
      let pairs = this.findPairs(fingerprints, k);
      await pacer.step('pairs', 1, 1);
      if (verifier) pairs = await verifyPairs(pairs, texts, verifier, pacer);
      leaderOf = grouping === 'leader' ? leaderGroups(total, pairs) : this.#componentLabels(total, pairs);
    }
    const result = collectGroups(items, leaderOf, fingerprints);
    await pacer.step('groups', 1, 1, true);
    return result;
  }

  #componentLabels(count, pairs) {
    const core = this.#core;
    return withAllocations(core, (mem) => {
      const out = mem.alloc(count * 4);
      core._componentLabels(mem.copyIn(pairs.a), mem.copyIn(pairs.b), pairs.a.length, count, out);
      return new Uint32Array(core.HEAPU8.buffer, out, count).slice();
    });
  }
}

/** Items fingerprinted between progress reports, cancellation checks and yields. */
const DEDUP_SLICE = 4096;
/** Longest stretch of work between two yields to the event loop. */
const YIELD_MS = 40;

export function checkSignal(signal) {
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError(`options.signal must be an AbortSignal, got ${typeName(signal)}`);
  }
}

export function abortError(signal) {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

// A macrotask yield that is not clamped to 4 ms like nested setTimeout in browsers.
export const yieldToEventLoop = typeof MessageChannel === 'function'
  ? () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  })
  : () => new Promise((resolve) => setTimeout(resolve, 0));

/** Progress reports, cancellation checks and yields of a long asynchronous job. */
export class Pacer {
  #signal;
  #onProgress;
  #lastYield = performance.now();

  constructor(signal, onProgress) {
    this.#signal = signal;
    this.#onProgress = onProgress;
    if (signal?.aborted) throw abortError(signal);
  }

  /** Reports progress, and yields (then checks for cancellation) when the job has run long enough. */
  async step(phase, done, total, last = false) {
    this.#onProgress?.({ phase, done, total });
    if (last) return;
    if (performance.now() - this.#lastYield >= YIELD_MS) {
      await yieldToEventLoop();
      this.#lastYield = performance.now();
    }
    if (this.#signal?.aborted) throw abortError(this.#signal);
  }
}

/** Checks dedup's arguments (shared with the worker pool's dedup) and returns them parsed. */
export function checkDedupArguments(items, options) {
  if (!Array.isArray(items)) throw new TypeError(`items must be an array, got ${typeName(items)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
  const { key, maxDistance, options: fingerprintOptions, grouping = 'leader', onProgress, signal, verify } = options;
  if (key !== undefined && typeof key !== 'function') throw new TypeError(`options.key must be a function, got ${typeName(key)}`);
  if (grouping !== 'leader' && grouping !== 'components') throw new RangeError(`options.grouping must be 'leader' or 'components', got ${String(grouping)}`);
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`options.onProgress must be a function, got ${typeName(onProgress)}`);
  checkSignal(signal);
  const verifier = verify === undefined ? undefined : checkVerify(verify);
  const k = checkMaxDistance(maxDistance, 'options.maxDistance');
  checkOptions(fingerprintOptions);
  return { key, k, fingerprintOptions, grouping, onProgress, signal, verifier };
}

const MAX_SHINGLE = 16;

function checkVerify(verify) {
  if (verify === null || typeof verify !== 'object') throw new TypeError(`options.verify must be an object, got ${typeName(verify)}`);
  const { minJaccard, shingle = 3 } = verify;
  if (typeof minJaccard !== 'number') throw new TypeError(`options.verify.minJaccard must be a number, got ${typeName(minJaccard)}`);
  if (!(minJaccard >= 0 && minJaccard <= 1)) throw new RangeError(`options.verify.minJaccard must be from 0 to 1, got ${minJaccard}`);
  checkInteger(shingle, 'options.verify.shingle', 1, MAX_SHINGLE);
  return { minJaccard, shingle };
}

/**
 * The set of character shingles that verification compares: n-grams of code points of
 * the lower-cased text, each whitespace run one space, ends trimmed; a text shorter
 * than n is one shingle.
 */
export function shingles(text, n) {
  const chars = Array.from(text.toLowerCase().replace(/\s+/gu, ' ').trim());
  const set = new Set();
  if (chars.length <= n) {
    if (chars.length > 0) set.add(chars.join(''));
    return set;
  }
  for (let i = 0; i + n <= chars.length; i++) set.add(chars.slice(i, i + n).join(''));
  return set;
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical (1). */
export function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Keeps the pairs whose texts' shingle sets reach minJaccard (exact, not estimated). */
async function verifyPairs(pairs, texts, { minJaccard, shingle }, pacer) {
  const cache = new Map();
  const setOf = (i) => {
    let set = cache.get(i);
    if (!set) cache.set(i, (set = shingles(texts[i], shingle)));
    return set;
  };
  const count = pairs.a.length;
  const keep = new Uint8Array(count);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    if (jaccard(setOf(pairs.a[i]), setOf(pairs.b[i])) >= minJaccard) {
      keep[i] = 1;
      kept++;
    }
    if ((i & 4095) === 4095) await pacer.step('verify', i + 1, count);
  }
  await pacer.step('verify', count, count);
  const out = { a: new Uint32Array(kept), b: new Uint32Array(kept), distance: new Uint8Array(kept) };
  for (let i = 0, j = 0; i < count; i++) {
    if (!keep[i]) continue;
    out.a[j] = pairs.a[i];
    out.b[j] = pairs.b[i];
    out.distance[j++] = pairs.distance[i];
  }
  return out;
}

/** Leader grouping: in order, each item joins the earliest kept item within reach. */
/** leaderGroups(count, findPairs(fingerprints, k)), computed in one WASM call without the pairs. */
export function leaderLabels(core, fingerprints, k) {
  return withAllocations(core, (mem) => {
    const out = mem.alloc(fingerprints.length * 4);
    core._leaderLabels(mem.copyIn(fingerprints), fingerprints.length, k, out);
    return new Uint32Array(core.HEAPU8.buffer, out, fingerprints.length).slice();
  });
}

export function leaderGroups(count, pairs) {
  // pairs come sorted by (a, b); bucket them by b so item b sees its earlier neighbours.
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < pairs.b.length; i++) starts[pairs.b[i] + 1]++;
  for (let i = 0; i < count; i++) starts[i + 1] += starts[i];
  const earlier = new Uint32Array(pairs.b.length);
  const fill = starts.slice(0, count);
  for (let i = 0; i < pairs.b.length; i++) earlier[fill[pairs.b[i]]++] = pairs.a[i]; // ascending a
  const leaderOf = new Uint32Array(count);
  for (let item = 0; item < count; item++) {
    leaderOf[item] = item;
    for (let p = starts[item]; p < starts[item + 1]; p++) {
      const candidate = earlier[p];
      if (leaderOf[candidate] === candidate) {
        leaderOf[item] = candidate;
        break;
      }
    }
  }
  return leaderOf;
}

function collectGroups(items, leaderOf, fingerprints) {
  const members = new Map();
  const uniqueIndices = [];
  for (let i = 0; i < items.length; i++) {
    const leader = leaderOf[i];
    if (leader === i) uniqueIndices.push(i);
    else if (members.has(leader)) members.get(leader).push(i);
    else members.set(leader, [leader, i]);
  }
  const groups = [...members.values()].sort((x, y) => x[0] - y[0]);
  return { unique: uniqueIndices.map((i) => items[i]), uniqueIndices, groups, fingerprints };
}
