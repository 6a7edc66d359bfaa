// Everything the benchmark fingerprints with, behind one shape:
//   { name, group, bits, fingerprint(texts) -> { bits, words: Uint32Array } }
// Our configurations are FingerprintOptions plus optional JS preprocessing, or tokens from
// Intl.Segmenter through fingerprintTokens. The two npm packages are used as their READMEs
// show; both produce 32-bit hashes.
import simhashJsPackage from 'simhash-js';
import simhashPackage from 'simhash';

// Both packages predate Buffer.from and trigger Node's DEP0005 warning; keep it out of the tables.
process.noDeprecation = true;

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Bopomofo}';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])\\s+(?=[${CJK}])`, 'gu');

/** JS-side normalizations (issue 4, item 3), composable. */
export const normalize = {
  nfkc: (t) => t.normalize('NFKC'),
  stripPunctuation: (t) => t.replace(/\p{P}+/gu, ''),
  // Chinese and Japanese are written without spaces, so a line break inside a sentence is
  // removed rather than turned into a space (which would split a CJK run in two).
  collapseWhitespace: (t) => t.replace(SPACE_BETWEEN_CJK, '').replace(/\s+/gu, ' ').trim(),
};
const compose = (...steps) => (t) => steps.reduce((s, step) => step(s), t);

function ours64(fps) {
  return { bits: 64, words: new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2) };
}

/** Our library with options, after an optional JS preprocessing of each text. */
function library(sh, name, options, prepare = null) {
  return {
    name, group: 'ours', bits: 64, options, prepare,
    fingerprint: (texts) => ours64(sh.fingerprintAll(prepare ? texts.map(prepare) : texts, options)),
  };
}

/** Word tokens of Intl.Segmenter (what a `segmenter` tokenizer in the JS layer would do). */
export function segmenter(sh, locale) {
  const words = new Intl.Segmenter(locale, { granularity: 'word' });
  const tokens = (text) => {
    const out = [];
    for (const s of words.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) out.push(s.segment);
    return out;
  };
  return {
    name: `Intl.Segmenter('${locale}') words, NFKC`, group: 'ours', bits: 64, tokens,
    fingerprint: (texts) => ours64(BigUint64Array.from(texts, (t) => sh.fingerprintTokens(tokens(t)))),
  };
}

// Our `auto` features rebuilt in JS (words, and character bigrams inside CJK runs), to
// give the `simhash` package, which hashes a caller's token list, the same features.
const FEATURE_RUN = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const IS_CJK = new RegExp(`[${CJK}]`, 'u');
export function autoFeatures(text) {
  const features = [];
  for (const [run] of text.toLowerCase().matchAll(FEATURE_RUN)) {
    if (!IS_CJK.test(run)) {
      features.push(run);
      continue;
    }
    const chars = Array.from(run);
    if (chars.length < 2) features.push(run);
    for (let i = 0; i + 2 <= chars.length; i++) features.push(chars[i] + chars[i + 1]);
  }
  return features;
}

/**
 * A preview of issue 4 item 4 (IDF weighting), through fingerprintTokens: each occurrence
 * of a feature weighs ln((N + 1) / (df + 1)) + 1, with df learned from the very texts being
 * fingerprinted, as `learnIdf` on the caller's own corpus would.
 */
function idfWeighted(sh, name, features) {
  return {
    name, group: 'ours', bits: 64,
    fingerprint: (texts) => {
      const lists = texts.map(features);
      const df = new Map();
      for (const list of lists) for (const f of new Set(list)) df.set(f, (df.get(f) ?? 0) + 1);
      const n = texts.length;
      return ours64(BigUint64Array.from(lists, (list) => (list.length === 0 ? 0n
        : sh.fingerprintTokens(list, list.map((f) => Math.log((n + 1) / (df.get(f) + 1)) + 1)))));
    },
  };
}

/** simhash-js: `new SimHash().hash(text)`, a 32-bit number (its defaults: 4-character shingles). */
function simhashJs() {
  const hasher = new simhashJsPackage.SimHash();
  return {
    name: 'simhash-js 1.0.0 (32-bit, raw text)', group: 'npm', bits: 32,
    fingerprint: (texts) => ({ bits: 32, words: Uint32Array.from(texts, (t) => hasher.hash(t) >>> 0) }),
  };
}

/** simhash: `require('simhash')()(tokens)`, 32 bits as an array of 0/1 (bit j at index j). */
function simhashCrc32() {
  const hash = simhashPackage();
  const toNumber = (bits) => bits.reduce((n, bit, j) => (bit ? (n | (1 << j)) >>> 0 : n), 0);
  return {
    name: 'simhash 0.1.0 (32-bit crc32, our auto features)', group: 'npm', bits: 32,
    fingerprint: (texts) => ({ bits: 32, words: Uint32Array.from(texts, (t) => toNumber(hash(autoFeatures(t)))) }),
  };
}

/** A 64-bit fingerprinter cut to its low 32 bits, to compare with the packages at equal width. */
export function low32(f) {
  return {
    name: `${f.name}, low 32 bits`, group: 'npm', bits: 32,
    fingerprint: (texts) => {
      const { words } = f.fingerprint(texts);
      return { bits: 32, words: Uint32Array.from({ length: words.length / 2 }, (_, i) => words[2 * i]) };
    },
  };
}

/** The options of fingerprint format 1 (README), spelled out so a change of defaults does not move the baseline. */
export const FORMAT1_DEFAULTS = Object.freeze({ tokenizer: 'auto', wordNgram: 1, charNgram: 2, caseFold: true, stripPunctuation: false, weighting: 'tf' });

export const NORMALIZED = compose(normalize.nfkc, normalize.stripPunctuation, normalize.collapseWhitespace);

/** The configurations of our library the benchmark compares (issue 4, items 2-4). */
export function libraryConfigs(sh) {
  const defaults = FORMAT1_DEFAULTS;
  const norm = 'NFKC+strip punct+collapse ws';
  return [
    library(sh, 'format-1 defaults: auto, wordNgram 1, charNgram 2, tf', defaults),
    library(sh, 'auto, wordNgram 2', { ...defaults, wordNgram: 2 }),
    library(sh, 'auto, wordNgram 3', { ...defaults, wordNgram: 3 }),
    library(sh, 'auto, charNgram 3', { ...defaults, charNgram: 3 }),
    library(sh, 'chars, charNgram 2', { ...defaults, tokenizer: 'chars', charNgram: 2 }),
    library(sh, 'chars, charNgram 3', { ...defaults, tokenizer: 'chars', charNgram: 3 }),
    library(sh, 'chars, charNgram 4', { ...defaults, tokenizer: 'chars', charNgram: 4 }),
    library(sh, 'format-2 defaults (format 1 + binary weighting)', { ...defaults, weighting: 'binary' }),
    // The library's own defaults, whatever they are: options {} and no preprocessing.
    library(sh, 'library defaults (format 4: binary, stripPunctuation)', {}),
    library(sh, 'library defaults + NFKC', { nfkc: true }),
    library(sh, 'library defaults, tf', { weighting: 'tf' }),
    library(sh, 'library defaults, chars 3', { tokenizer: 'chars', charNgram: 3 }),
    library(sh, 'library defaults, charNgram 3', { charNgram: 3 }),
    library(sh, 'defaults + NFKC', defaults, normalize.nfkc),
    library(sh, 'defaults + strip punct', defaults, normalize.stripPunctuation),
    library(sh, 'defaults + collapse ws', defaults, normalize.collapseWhitespace),
    library(sh, `defaults + ${norm}`, defaults, NORMALIZED),
    library(sh, `auto, charNgram 3 + ${norm}`, { ...defaults, charNgram: 3 }, NORMALIZED),
    library(sh, `chars 3 + ${norm}`, { ...defaults, tokenizer: 'chars', charNgram: 3 }, NORMALIZED),
    library(sh, `chars 4 + ${norm}`, { ...defaults, tokenizer: 'chars', charNgram: 4 }, NORMALIZED),
    library(sh, 'binary + NFKC', { ...defaults, weighting: 'binary' }, normalize.nfkc),
    library(sh, 'binary + NFKC+collapse ws', { ...defaults, weighting: 'binary' }, compose(normalize.nfkc, normalize.collapseWhitespace)),
    library(sh, `binary + ${norm}`, { ...defaults, weighting: 'binary' }, NORMALIZED),
    library(sh, `chars 3, binary + ${norm}`, { ...defaults, tokenizer: 'chars', charNgram: 3, weighting: 'binary' }, NORMALIZED),
    library(sh, `chars 4, binary + ${norm}`, { ...defaults, tokenizer: 'chars', charNgram: 4, weighting: 'binary' }, NORMALIZED),
    idfWeighted(sh, `IDF (preview), auto features + ${norm}`, (t) => autoFeatures(NORMALIZED(t))),
    segmenter(sh, 'zh'),
  ];
}

export function competitorConfigs(sh) {
  const defaults = library(sh, 'simhash-wasm defaults', FORMAT1_DEFAULTS);
  return [simhashJs(), simhashCrc32(), low32(defaults)];
}
