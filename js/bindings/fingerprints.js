// Fingerprinting in the core: texts (already as the core sees them, text.js coreTexts)
// encoded into WASM a slice at a time, one call per slice, results copied out once.
import { checkNumber, checkText, checkTextArray, typeName } from '../core/checks.js';
import { idfHandle } from './idf.js';
import { DEFAULT_OPTIONS } from '../core/defaults.js';
import { BATCH_CHARS, SINGLE_CALL_BYTES, coreCall, forEachByteSliceAsync, forEachEncodedSlice, singleCallScratch, withAllocations } from './memory.js';
import { checkOptions, textOptions } from './options.js';
import { coreTexts, encodeInto, preparedInJs } from '../core/text.js';
import { encodeOptions } from '../core/wire.js';

const DEFAULT_WIRE = encodeOptions(DEFAULT_OPTIONS);
/** Longest text fingerprinted through the single-call scratch buffer (8 bytes hold the result). */
const SINGLE_CALL_CHARS = Math.floor((SINGLE_CALL_BYTES - 8) / 3);

/** The core's fingerprints of count encoded texts, as a view into WASM memory allocated from mem. */
function fingerprintBatch(core, mem, utf8, offsets, count, wire, idf) {
  const result = mem.alloc(count * 8);
  if (idf) core._fingerprintBatchIdf(utf8, offsets, count, result, idf);
  else core._fingerprintBatch(utf8, offsets, count, result, wire);
  return new BigUint64Array(core.HEAPU8.buffer, result, count);
}

/** Fingerprints of strings with options in the wire format, or IDF weights' handle (idf, else 0). */
export function fingerprintTexts(core, texts, wire, idf) {
  const out = new BigUint64Array(texts.length);
  forEachEncodedSlice(core, texts, 'texts', (utf8, offsets, count, start, mem) => {
    out.set(fingerprintBatch(core, mem, utf8, offsets, count, wire, idf), start);
  });
  return out;
}

/** sh.fingerprintAll: checks the arguments, prepares the texts, fingerprints them. */
export function fingerprintAll(core, texts, options) {
  checkTextArray(texts, 'texts');
  const wire = checkOptions(options);
  const idf = options?.idf ? idfHandle(options.idf, core, 'options.idf') : 0;
  return fingerprintTexts(core, coreTexts(texts, textOptions(options), 'texts'), wire, idf);
}

/** sh.fingerprint: as fingerprintAll of one text, without allocating for short texts. */
export function fingerprintOne(core, text, options) {
  checkText(text, 'text');
  const wire = options === undefined ? DEFAULT_WIRE : checkOptions(options);
  if (text.length > SINGLE_CALL_CHARS || (options !== undefined && preparedInJs(textOptions(options)))) {
    return fingerprintAll(core, [text], options)[0];
  }
  const idf = options?.idf ? idfHandle(options.idf, core, 'options.idf') : 0;
  const out = singleCallScratch(core);
  const utf8 = out + 8;
  const length = encodeInto(text, core.HEAPU8.subarray(utf8, out + SINGLE_CALL_BYTES));
  coreCall(() => (idf ? core._simhash_fingerprint_one_idf(utf8, length, out, idf) : core._simhash_fingerprint_one(utf8, length, out, wire)));
  return new BigUint64Array(core.HEAPU8.buffer, out, 1)[0];
}

/**
 * As fingerprintTexts, for texts encoded already (text.js encodeTexts' layout), a slice
 * of at most sliceBytes (or one text) and sliceTexts texts at a time, awaiting
 * between(end) after each; `idf()` gives the IDF weights' handle (or 0) for each slice.
 */
export async function fingerprintEncodedAsync(core, encoded, wire, idf, between, sliceBytes, sliceTexts) {
  const out = new BigUint64Array(encoded.bounds.length - 1);
  await forEachByteSliceAsync(core, encoded, (utf8, offsets, count, start, mem) => {
    out.set(fingerprintBatch(core, mem, utf8, offsets, count, wire, idf()), start);
  }, between, sliceBytes, sliceTexts);
  return out;
}

/** As fingerprintTexts, for texts encoded already (text.js encodeTexts): text i is utf8[bounds[i] .. bounds[i + 1]). */
export function fingerprintEncoded(core, utf8, bounds, wire, idf) {
  const count = bounds.length - 1;
  return withAllocations(core, (mem) => {
    const text = mem.copyIn(utf8.subarray(0, bounds[count]));
    return fingerprintBatch(core, mem, text, mem.copyIn(bounds), count, wire, idf).slice();
  });
}

/** The fingerprint of the caller's own features (tokens), optionally weighted. */
export function fingerprintTokens(core, tokens, weights) {
  checkTextArray(tokens, 'tokens');
  let weightArray;
  if (weights !== undefined) {
    if (!Array.isArray(weights) && !(weights instanceof Float64Array)) {
      throw new TypeError(`weights must be an array of numbers or a Float64Array, got ${typeName(weights)}`);
    }
    if (weights.length !== tokens.length) throw new RangeError(`weights has ${weights.length} entries but tokens has ${tokens.length}`);
    weightArray = Float64Array.from(weights, (w, i) => {
      if (!Number.isFinite(checkNumber(w, `weights[${i}]`))) throw new RangeError(`weights[${i}] must be finite, got ${w}`);
      return w;
    });
  }
  // Tokens form one feature list, so they must cross in one slice.
  const chars = tokens.reduce((sum, t) => sum + (typeof t === 'string' ? t.length : 0), 0);
  if (chars > BATCH_CHARS) throw new RangeError(`tokens hold ${chars} characters; at most ${BATCH_CHARS} fit one call`);
  if (tokens.length === 0) return 0n; // no features: every sum is 0, a tie, so every bit is 0
  let fingerprint = 0n;
  forEachEncodedSlice(core, tokens, 'tokens', (utf8, offsets, count, _start, mem) => {
    const weightsAddress = weightArray ? mem.copyIn(weightArray) : 0;
    const result = mem.alloc(8);
    core._fingerprintTokens(utf8, offsets, count, weightsAddress, result);
    fingerprint = new BigUint64Array(core.HEAPU8.buffer, result, 1)[0];
  });
  return fingerprint;
}
