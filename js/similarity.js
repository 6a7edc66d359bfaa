// The similarity threshold and the Hamming radius that serves it as a candidate filter.
// Pure functions, no WASM: dedup, the CLI, the pool and the public candidateRadius share
// this table.
//
// The similarity of two texts is the Jaccard similarity of their sets of character shingles
// after the fingerprint's normalization (README "Similarity"; computed exactly by the core,
// cpp/include/simhash/similarity.h). SimHash distance only approximates it, so dedup takes
// the pairs within candidateRadius(s) as candidates and keeps those whose exact similarity
// is >= s.

import { typeName } from './checks.js';

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
 * From this similarity up, dedup (without maxDistance) takes its candidates from MinHash
 * banding of the shingle sets (cpp/include/simhash/similar_groups.h), not from the
 * fingerprints: at least 99% of the pairs at the threshold by construction, and linear in
 * the texts where radius 16 of 64 bits is quadratic in practice (README "Similarity").
 * Below it, banding's few rows per band make chance candidates abound, and the radius
 * table serves.
 */
export const BANDING_FROM = 0.7;

/** The similarity dedup uses by default (README "Detection quality": both protocols). */
export const DEFAULT_SIMILARITY = 0.8;

/** A similarity threshold: a number above 0 and at most 1. */
export function checkSimilarity(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeName(value)}`);
  if (!(value > 0 && value <= 1)) throw new RangeError(`${name} must be above 0 and at most 1, got ${value}`);
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
