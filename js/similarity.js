// The similarity threshold and the Hamming radius that serves it as a candidate filter.
// Pure functions, no WASM: the integrator's dedup, CLI, pool and demo share this table.
//
// The similarity of two texts is the Jaccard similarity of their sets of character shingles
// after the fingerprint's normalization (README "Similarity"; computed exactly by the core,
// cpp/include/simhash/similarity.h). SimHash distance only approximates it, so dedup takes
// the pairs within candidateRadius(s) as candidates and keeps those whose exact similarity
// is >= s.

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

/** The similarity dedup uses by default (README "Detection quality": both protocols). */
export const DEFAULT_SIMILARITY = 0.8;

/**
 * The Hamming radius (of 64 bits) to take as candidates for similarity threshold s,
 * 0 < s <= 1: the radius of the table's largest similarity not above s (a lower threshold
 * needs a larger radius); below the table's first row, 64 (every pair: no filter).
 * The caller checks s (a number in (0, 1]).
 */
export function candidateRadius(similarity) {
  let radius = 64;
  for (const [s, r] of RADIUS_TABLE) if (s <= similarity) radius = r;
  return radius;
}
