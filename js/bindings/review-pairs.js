// dedup's review pairs (README "Review"): the core's ReviewPairs
// (cpp/include/simhash/review_pairs.h) over the call's shingle sets and the grouping's
// labels, a slice at a time: each two groups that some pair of their members joins with a
// similarity of at least `review`, once, through their most similar such pair.
import { coreCall, resultColumns, withAllocations } from './memory.js';
import { MAX_REVIEW_LIMIT } from '../core/thresholds.js';

/** Work units per slice: as similar-groups.js (about 10-20 ms in WASM). */
const SLICE_WORK = 2e6;

/**
 * The review pairs of the distinct texts whose sets the ShingleSets handle `sets` holds,
 * grouped by `labels` (equal labels: one group), with `pacer.step(phase, ...)` between
 * slices, progress in thousandths: { a, b, similarity } parallel arrays of the first
 * `reviewLimit` pairs (most similar first, then by (a, b); a < b index the texts), and
 * `total`, how many pairs of groups were found: all there are when fewer than reviewLimit,
 * else a lower bound (the search stops deciding candidates that cannot enter the list).
 * `maxBucket`: a band key held by more texts proposes none (review_pairs.h); by default every key does.
 * `mostPairs`, `mostProposals`: the search stops once it holds more pairs of groups, or
 * before deciding any candidate when the band keys propose more (review_pairs.h), and
 * returns { total: Infinity } alone.
 */
export async function searchReview(core, sets, labels, { review, reviewLimit, maxBucket = 0xffffffff, mostPairs = Infinity, mostProposals = Infinity }, pacer, phase) {
  const search = withAllocations(core, (mem) => coreCall(() => core._reviewPairsCreate(sets, mem.copyIn(labels), labels.length, review, reviewLimit, maxBucket, mostPairs, mostProposals)));
  try {
    for (let done = false; !done;) {
      done = coreCall(() => core._reviewPairsRun(search, SLICE_WORK));
      await pacer.step(phase, Math.round(core._reviewPairsProgress(search) * 1000), 1000);
    }
    if (core._reviewPairsProgress(search) < 1) return { total: Infinity };
    const total = coreCall(() => core._reviewPairsTake(search, reviewLimit));
    const n = Math.min(total, reviewLimit);
    // The result buffer holds n similarities (float64), then the a's, then the b's (searches.h reviewPairsTake).
    const [similarity, a, b] = resultColumns(core, n, [Float64Array, Uint32Array, Uint32Array]);
    return { a, b, similarity, total };
  } finally {
    core._reviewPairsDelete(search);
  }
}

/**
 * Every pair of the `count` texts of `sets` whose similarity reaches `similarity` (candidate
 * recall as the review's): searchReview over the texts each alone, without a limit;
 * `bounds`: { maxBucket, mostPairs, mostProposals } as searchReview's.
 */
export function searchAllPairs(core, sets, count, similarity, pacer, phase, bounds) {
  return searchReview(core, sets, Uint32Array.from({ length: count }, (_, i) => i), { review: similarity, reviewLimit: MAX_REVIEW_LIMIT, ...bounds }, pacer, phase);
}

/**
 * dedup's `review` and `reviewOmitted` from searchReview's pairs of distinct texts: each
 * text stands for its first item (`first`, dedup.js collapseTexts), which keeps a < b.
 * `differs(a, b)`, if given, says what differs between two distinct texts (or null); an
 * entry takes it as `differs` when it is not null, and `contained: true` where
 * `contained[p]` (dedup/review.js reviewPairs).
 */
export function reviewResult(first, { a, b, similarity, total, contained }, differs) {
  const review = new Array(a.length);
  for (let p = 0; p < a.length; p++) {
    const entry = { a: first[a[p]], b: first[b[p]], similarity: similarity[p] };
    const reason = differs?.(a[p], b[p]);
    if (reason) entry.differs = reason;
    if (contained?.[p]) entry.contained = true;
    review[p] = entry;
  }
  return { review, reviewOmitted: total - a.length };
}
