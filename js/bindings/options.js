// Fingerprint options and distances: checked here, once, for every entry point (the
// single-threaded API, the pool, the pool's workers), then encoded in the wire format.
import { checkInteger, checkKnownKeys, checkText, typeName } from '../core/checks.js';
import { DEFAULT_MAX_DISTANCE, DEFAULT_OPTIONS } from '../core/defaults.js';
import { learnedOptions } from './idf.js';
import { wordSegmenter } from '../core/text.js';
import { TOKENIZERS, WEIGHTINGS, encodeOptions } from '../core/wire.js';

const MAX_NGRAM = 16;
const MAX_DISTANCE = 64;
// What IDF weights fix about fingerprinting: the features they weigh and how they count.
const LEARNED_OPTIONS = ['tokenizer', 'wordNgram', 'charNgram', 'caseFold', 'stripPunctuation', 'weighting', 'nfkc'];

export function checkMaxDistance(value, name = 'maxDistance') {
  return checkInteger(value ?? DEFAULT_MAX_DISTANCE, name, 0, MAX_DISTANCE);
}

/** Checks FingerprintOptions (undefined: the defaults) and returns them in the wire format. */
export function checkOptions(options) {
  if (options === undefined) return encodeOptions(DEFAULT_OPTIONS);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${typeName(options)}`);
  }
  checkKnownKeys(options, 'options', Object.keys(DEFAULT_OPTIONS));
  const o = { ...DEFAULT_OPTIONS, ...options };
  if (!(o.tokenizer in TOKENIZERS)) throw new RangeError(`options.tokenizer must be one of ${Object.keys(TOKENIZERS).join(', ')}, got ${String(o.tokenizer)}`);
  if (!(o.weighting in WEIGHTINGS)) throw new RangeError(`options.weighting must be one of ${Object.keys(WEIGHTINGS).join(', ')}, got ${String(o.weighting)}`);
  for (const key of ['caseFold', 'stripPunctuation', 'nfkc']) {
    if (typeof o[key] !== 'boolean') throw new TypeError(`options.${key} must be a boolean, got ${typeName(o[key])}`);
  }
  checkText(o.locale, 'options.locale');
  if (o.tokenizer === 'segmenter') wordSegmenter(o.locale); // throws when unavailable or the locale is invalid
  checkInteger(o.wordNgram, 'options.wordNgram', 1, MAX_NGRAM);
  checkInteger(o.charNgram, 'options.charNgram', 1, MAX_NGRAM);
  if (o.idf !== null) {
    const learned = learnedOptions(o.idf, 'options.idf');
    for (const key of LEARNED_OPTIONS) {
      if (key in options && options[key] !== learned[key]) {
        throw new RangeError(`options.${key} is ${String(options[key])} but the IDF weights were learned with ${String(learned[key])}`);
      }
    }
  }
  return encodeOptions(o);
}

/** The options that shape texts: IDF weights bring the options they were learned with. */
export function textOptions(options) {
  return options?.idf ? { ...options, ...options.idf.options } : options;
}
