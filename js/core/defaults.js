// The defaults of the public options. No imports, so the CommonJS entry can be generated
// from this file.

/** Defaults of FingerprintOptions (docs/spec.md). */
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

/** maxDistance of createIndex, findPairs and dedup when none is given (of 64 bits). */
export const DEFAULT_MAX_DISTANCE = 3;
