// The similarity threshold and the Hamming radius that serves it as a candidate filter.
// Pure functions, no WASM: dedup, the CLI, the pool and the public candidateRadius share
// this table.
//
// The similarity of two texts is the Jaccard similarity of their sets of character shingles
// after the fingerprint's normalization (README "Similarity"; computed exactly by the core,
// cpp/include/simhash/similarity.h). SimHash distance only approximates it, so dedup takes
// the pairs within candidateRadius(s) as candidates and keeps those whose exact similarity
// is >= s.

import { checkNumber, checkText } from './checks.js';
import { utf8Length } from './text.js';

/**
 * [similarity, radius] rows, similarity ascending: at radius r, at least 99% of the pairs
 * with similarity >= s were within distance r of each other (default fingerprint options)
 * on each benchmark corpus: English and Chinese fortunes and the PostgreSQL manual as
 * 2-20 KB documents, each with planted variants (`node tests/bench/calibrate.js`; the
 * radius is the largest of the three). Below 0.6 it stops paying: long documents that
 * merely share a manual's vocabulary reach J 0.5, so 0.5 needs 32 bits (half of 64:
 * nearly every pair is a candidate) and 0.55 needs 27; short texts alone would need 23.
 */
export const RADIUS_TABLE = Object.freeze([
  [0.5, 32],
  [0.55, 27],
  [0.6, 21],
  [0.65, 20],
  [0.7, 19],
  [0.75, 18],
  [0.8, 16],
  [0.85, 14],
  [0.9, 12],
  [0.95, 9],
  [1, 1],
].map((row) => Object.freeze(row)));

/**
 * dedup without maxDistance takes its candidates from MinHash banding of the shingle sets
 * (cpp/include/simhash/similar_groups.h) rather than from the fingerprints when both
 * hold (README "Choosing thresholds", `node tests/bench/calibrate.js`):
 * - the similarity is at least BANDING_FROM, the lowest threshold dedup serves fast (the
 *   sets' 512-bit summaries set aside most of the chance candidates before the exact
 *   test, and below 0.7 long or weighted sets get more rows: similar_groups.h kSketchBelow,
 *   bandingFor);
 * - the distinct texts average at most BANDING_MAX_MEAN_LENGTH UTF-16 units: short texts,
 *   where banding keeps at least 99% of the pairs with a seventh of the chance candidates
 *   of radius 16 of 64 bits and linear work where the radius search is quadratic in
 *   practice. Long documents on one subject share much of their vocabulary (unrelated
 *   pages of one manual reach J 0.3-0.5), and there banding's chance candidates outnumber
 *   the radius's six to one.
 */
export const BANDING_FROM = 0.5;
export const BANDING_MAX_MEAN_LENGTH = 2000;

/**
 * Whether dedup at `similarity` without maxDistance bands these distinct texts (see above);
 * by the short-string measure always: its sets are small, and the fingerprints say little
 * of them.
 */
export function usesBanding(similarity, texts, measure = 'text') {
  if (measure === 'short') return true;
  if (!(similarity >= BANDING_FROM)) return false;
  let length = 0;
  for (const text of texts) length += text.length;
  return length <= BANDING_MAX_MEAN_LENGTH * texts.length;
}

/** The similarity dedup uses by default (README "Detection quality": both protocols). */
export const DEFAULT_SIMILARITY = 0.8;

/**
 * The measures of similarity (README "Similarity", "Similarity of short strings"): 'text'
 * the Jaccard similarity of character 3-grams (CJK bigrams), 'short' that of bigrams of
 * the words with their diacritics removed, each framed by spaces (names, addresses,
 * titles, one-line records). The core numbers them by their position here.
 */
export const MEASURES = Object.freeze(['text', 'short']);

/** The core's number of a measure (cpp/bindings/helpers.h shingleOptionsOf). */
export function measureCode(measure) {
  return MEASURES.indexOf(measure);
}

/** A measure option: one of MEASURES, or with `auto` also 'auto'. */
export function checkMeasure(value, name, auto = false) {
  checkText(value, name);
  if (!MEASURES.includes(value) && !(auto && value === 'auto')) {
    const known = [...(auto ? ['auto'] : []), ...MEASURES].map((m) => `'${m}'`).join(', ');
    throw new RangeError(`${name} must be one of ${known}, got '${value}'`);
  }
  return value;
}

/**
 * The distinct texts of a list that 'auto' compares as short strings average at most so
 * many bytes of UTF-8, whatever their shape: names, addresses, titles and one-line records
 * (13-58 on tests/bench/lists.js's lists). Up to RECORD_MAX_BYTES, lists of titles do too,
 * sentences not (measureFor): the natural one-line collections of tests/bench/light-edits.js
 * average 104 English characters, 63 Chinese and 85 Japanese ones.
 */
export const SHORT_MAX_MEAN_BYTES = 64;

/**
 * A one-line record: at most this many bytes of UTF-8 on one line, of at least RECORD_FIELDS
 * fields (split at `,`, `;`, `|` or a tab; those with a letter or digit) of at most
 * RECORD_FIELD_WORDS words each: a person's name, address and date of birth, not a sentence
 * with commas (1.1% of the fortunes' one-line quotes pass, 99.7% of the FEBRL records).
 */
export const RECORD_MAX_BYTES = 150;
export const RECORD_FIELDS = 3;
const RECORD_FIELD_WORDS = 4;

/** The fields of a line as a one-line record counts them: pieces between separators that hold a letter or digit. */
export function recordFields(text) {
  return text.split(/[,;|\t]/).filter((field) => /[\p{L}\p{N}]/u.test(field));
}

const SEPARATORS = /[,;|\t]/g;

/** Whether a text is a one-line record (RECORD_MAX_BYTES). Most texts are told apart by their length or separators alone. */
export function isRecord(text) {
  if (text.length > RECORD_MAX_BYTES || (text.match(SEPARATORS)?.length ?? 0) < RECORD_FIELDS - 1) return false;
  if (utf8Length(text) > RECORD_MAX_BYTES || /[\n\r]/.test(text)) return false;
  const fields = recordFields(text);
  return fields.length >= RECORD_FIELDS && fields.every((field) => field.trim().split(/\s+/u).length <= RECORD_FIELD_WORDS);
}

/**
 * A text that reads as a sentence: it ends in a sentence's punctuation (a closing quote or
 * bracket after it), or holds a CJK sentence's, or a line break: 99% of the English
 * fortunes tests/bench/light-edits.js edits, all of the Chinese, 92% of the Japanese
 * sentences; of the labelled lists, at most 11% but for company names ending `N.V.`
 * (tests/bench/list-shapes.js).
 */
export const SENTENCE = /[.!?]['"’”)\]]*\s*$|[、。，！？\n]/;

/**
 * The measure 'auto' takes for these distinct texts, by the list's shape: 'short' when they
 * average at most SHORT_MAX_MEAN_BYTES (names, addresses, titles), or at most
 * RECORD_MAX_BYTES with fewer than half reading as sentences (long product titles, CJK
 * titles, one-line records), or are one-line records (isRecordList); else 'text'
 * (sentences and paragraphs).
 */
export function measureFor(texts) {
  const n = texts.length;
  if (n === 0) return 'text';
  let bytes = 0;
  for (const text of texts) bytes += utf8Length(text);
  if (bytes <= SHORT_MAX_MEAN_BYTES * n) return 'short';
  const titles = bytes <= RECORD_MAX_BYTES * n && 2 * texts.filter((text) => SENTENCE.test(text)).length < n;
  return titles || isRecordList(texts) ? 'short' : 'text';
}

/** Whether at least half of these texts are one-line records (isRecord). */
export function isRecordList(texts) {
  let records = 0;
  for (let i = 0; i < texts.length && 2 * (records + texts.length - i) >= texts.length; i++) {
    if (isRecord(texts[i]) && 2 * ++records >= texts.length) return true;
  }
  return false;
}

/** Digits from which a number identifies a person: a date of birth, a phone, an account; not a house number or a postcode. */
export const IDENTIFIER_DIGITS = 6;

/**
 * The default similarity threshold of each measure: for 'short', with the word weights of the
 * list, the best pair F1 of the lists of tests/bench/lists.js lies at 0.4-0.8, and 0.6 gives
 * the largest sum (README "Similarity of short strings").
 */
export const DEFAULT_SIMILARITY_OF = Object.freeze({ text: DEFAULT_SIMILARITY, short: 0.6 });

/** A similarity threshold: a number above 0 and at most 1. */
export function checkSimilarity(value, name) {
  if (!(checkNumber(value, name) > 0 && value <= 1)) throw new RangeError(`${name} must be above 0 and at most 1, got ${value}`);
  return value;
}

/**
 * The lowest review threshold of each measure: review pairs come from banding at the review
 * threshold (README "Review"). Short strings have few bigrams, so their chance candidates stay
 * few at lower thresholds (tests/bench/lists.js).
 */
export const MIN_REVIEW_OF = Object.freeze({ text: BANDING_FROM, short: 0.3 });
export const MIN_REVIEW = MIN_REVIEW_OF.text;

/** How many review pairs dedup returns unless options.reviewLimit says otherwise: a page's worth for a person to act on. */
export const DEFAULT_REVIEW_LIMIT = 1000;
/** The largest options.reviewLimit: the core counts review pairs in 32 bits. */
export const MAX_REVIEW_LIMIT = 0xffffffff;

/** A review threshold for dedup at `similarity` by `measure`: a number in [MIN_REVIEW_OF[measure], similarity). */
export function checkReview(value, similarity, name, measure = 'text') {
  checkNumber(value, name);
  const least = MIN_REVIEW_OF[measure];
  if (!(value >= least && value < similarity)) {
    throw new RangeError(`${name} must be at least ${least} and below the similarity ${similarity}, got ${value}`);
  }
  return value;
}

/**
 * The Hamming radius (of 64 bits) dedup takes as candidates for similarity threshold s,
 * 0 < s <= 1: the radius of the table's largest similarity not above s (a lower threshold
 * needs a larger radius); below the table's first row, 64 (every pair: no filter).
 */
export function candidateRadius(similarity) {
  checkSimilarity(similarity, 'similarity');
  let radius = 64;
  for (const [s, r] of RADIUS_TABLE) if (s <= similarity) radius = r;
  return radius;
}
