// The options wire format, the one encoding of FingerprintOptions between JS and the core
// (cpp/bindings/helpers.h): the serialized IDF header's option bytes 6..11 (tokenizer
// mode, wordNgram, charNgram, tokenizer flags, weighting, caller flags) as one
// little-endian 48-bit integer, exact in a JS number.

// 'segmenter' is Intl.Segmenter's word segmentation in JS, handed to the core's
// 'separated' mode (tokens joined by U+001F).
export const TOKENIZERS = { auto: 0, words: 1, chars: 2, separated: 3, segmenter: 3 };
export const WEIGHTINGS = { tf: 0, binary: 1 };
const TOKENIZER_NAMES = ['auto', 'words', 'chars', 'separated'];
const WEIGHTING_NAMES = ['tf', 'binary'];
const TOKENIZER_FLAG_CASE_FOLD = 1;
const TOKENIZER_FLAG_STRIP_PUNCTUATION = 2;
// Caller flags: what JS did to the texts before the core saw them (stored with IDF weights).
const CALLER_FLAG_NFKC = 1;
const CALLER_FLAG_SEGMENTER = 2;

/** Complete, checked options (every key of DEFAULT_OPTIONS) as a wire number. */
export function encodeOptions(o) {
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

/** The options a wire number encodes (locale and idf are not part of it). */
export function decodeOptions(wire) {
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
