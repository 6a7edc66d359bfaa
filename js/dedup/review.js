// dedup's review by similarity (README "Review"): the pairs of groups for a person to
// confirm, as searchReview finds them, and by the short measure first those one of whose
// texts holds the other's words and last those whose numbers differ; without a review
// threshold, the look-alikes kept apart. The layout is searchReview's (review-pairs.js), which
// reviewResult turns into dedup's answer.
import { hasNumbers, listDifference } from '../core/look-alikes.js';
import { MAX_REVIEW_LIMIT } from '../core/thresholds.js';
import { searchReview } from '../bindings/review-pairs.js';
import { setSimilarities } from '../bindings/shingle-sets.js';
import { containedPairs } from './contained.js';
import { partsOfItems, textsByIndex } from './look-alikes.js';

/**
 * The review pairs of searchReview's layout without a review threshold: the pairs of
 * splitLookAlikes' `apart`, one per two groups of `labels` (the most similar), most similar
 * first, then by (a, b), the first `reviewLimit` kept.
 */
export function apartReview(core, sets, labels, { a, b }, { reviewLimit }) {
  const similarity = setSimilarities(core, sets, a, b);
  const order = Array.from(a.keys()).sort((x, y) => similarity[y] - similarity[x] || a[x] - a[y] || b[x] - b[y]);
  const seen = new Set();
  const kept = order.filter((p) => {
    // A record's kept item may come after its members: the two groups in either order.
    const key = `${Math.min(labels[a[p]], labels[b[p]])},${Math.max(labels[a[p]], labels[b[p]])}`;
    return !seen.has(key) && seen.add(key);
  });
  const listed = kept.slice(0, reviewLimit);
  return {
    a: Uint32Array.from(listed, (p) => a[p]), b: Uint32Array.from(listed, (p) => b[p]), similarity: Float64Array.from(listed, (p) => similarity[p]),
    total: kept.length,
  };
}

/**
 * searchReview's pairs of groups of `labels` and, by the short measure, first the pairs of
 * groups one of whose texts holds the other's words (contained.js), however similar, then
 * the others but those whose numbers differ (look-alikes.js listDifference: `125` / `123
 * Main Street`, `iPhone 14` / `15`), then those: each two groups once: { a, b, similarity,
 * total, contained (1 for a pair of words held) }, each kind most similar first, then by
 * (a, b), the first reviewLimit kept. Pairs whose numbers differ are rarely one entity
 * (docs/lists.md#review), and listed first they filled the limit on product and address
 * lists. Read most similar first, the search's pairs are asked whether their numbers differ
 * until enough others fill the limit; the search is asked for four times as many while
 * its answer runs out first and it found more. So the answer is the unlimited one cut at
 * the limit; `total` is exact when the search found fewer, else a lower bound, as the
 * search's.
 */
export async function reviewPairs(core, sets, texts, labels, search, pacer) {
  if (search.measure !== 'short') return searchReview(core, sets, labels, search, pacer, 'review');
  const n = labels.length;
  const pairOf = (x, y) => Math.min(labels[x], labels[y]) * n + Math.max(labels[x], labels[y]);
  const textOf = textsByIndex(texts);
  const held = containedPairs(n, textOf, labels);
  const heldGroups = new Set(Array.from(held.a, (x, p) => pairOf(x, held.b[p])));
  const contained = Array.from(setSimilarities(core, sets, held.a, held.b), (similarity, p) => [held.a[p], held.b[p], similarity, 1, 2]);
  const partsOf = partsOfItems(textOf);
  const numbersDiffer = (x, y) => hasNumbers(partsOf(x)) && hasNumbers(partsOf(y)) && listDifference(partsOf(x), partsOf(y))?.numbers !== undefined;
  // Progress of the searches asked again stays where the first left it.
  let reported = 0;
  const steady = { step: (phase, done, total) => pacer.step(phase, (reported = Math.max(reported, done)), total) };
  const others = []; // the search's pairs not contained, in its order, each with its kind: 1, or 0 where numbers differ
  let wanted = search.reviewLimit - contained.length; // pairs of kind 1 that would fill the limit
  let found;
  let read = 0; // the search's pairs read so far: each search's answer begins with the last's
  for (let ask = search.reviewLimit; ; ask = Math.min(4 * ask, MAX_REVIEW_LIMIT)) {
    found = await searchReview(core, sets, labels, { ...search, reviewLimit: ask }, steady, 'review');
    for (; read < found.a.length && wanted > 0; read++) {
      const [x, y] = [found.a[read], found.b[read]];
      if (heldGroups.has(pairOf(x, y))) continue;
      const kind = numbersDiffer(x, y) ? 0 : 1;
      wanted -= kind;
      others.push([x, y, found.similarity[read], 0, kind]);
    }
    if (wanted <= 0 || found.total <= ask) break;
  }
  let listed = contained.length;
  found.a.forEach((x, p) => { listed += !heldGroups.has(pairOf(x, found.b[p])); });
  const kept = contained.concat(others).sort((x, y) => y[4] - x[4] || y[2] - x[2] || x[0] - y[0] || x[1] - y[1]).slice(0, search.reviewLimit);
  const column = (Type, c) => Type.from(kept, (entry) => entry[c]);
  return { a: column(Uint32Array, 0), b: column(Uint32Array, 1), similarity: column(Float64Array, 2), contained: column(Array, 3), total: Math.max(found.total, listed) };
}
