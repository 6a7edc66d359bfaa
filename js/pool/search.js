// The pool's pair search split across its workers: each worker runs one shard of the
// core's PairSearch (pairs.h: shard s of S takes a fixed, disjoint share of the buckets,
// and the union of the S shards' pairs is every pair), and the calling thread joins,
// sorts and groups the pairs a slice at a time with the job's pacer, so the page's thread
// never runs one long task.
import { componentSteps } from '../dedup/grouping.js';
import { runStepsPaced } from '../core/pacing.js';
import { MAX_PAIRS, concatWords, mergeSortedTriplesSteps, splitTriples, tooManyPairs } from '../bindings/pairs.js';

/**
 * How many times LeaderSearch's pair bound the pool's leader grouping allows. By
 * fingerprints only, 1: the pairs are kept, in the workers and then on the calling thread,
 * so memory stays within what LeaderSearch's pair path may take. By similarity, the
 * number of workers: candidates are verified a slice at a time in the workers and only
 * the verified pairs are kept, and the pair path's work (the join and one verification
 * per candidate) is shared by the workers, while the lookup path runs in one; so the
 * break-even LeaderSearch puts at 24 pairs per item moves to about 24 per item per
 * worker. Measured in WASM on 191k distinct fortunes with edits at similarity 0.8
 * (radius 16, 32 candidates per item, where LeaderSearch takes its lookup path): lookups
 * 18.3 s; the pair path with verification 19.1 s as one shard, 10.6 s and 9.0 s as two.
 */
const leaderSpread = (scheduler, similarity) => (similarity > 0 ? scheduler.size : 1);

/**
 * Encoded texts for one task and the buffers to transfer: a copy, or with `move` the texts
 * themselves (they are then unusable here).
 */
export function copyTexts(encoded, move = false) {
  if (!encoded) return [undefined, []];
  const texts = move ? encoded : { utf8: encoded.utf8.slice(), bounds: encoded.bounds.slice() };
  return [texts, [texts.utf8.buffer, texts.bounds.buffer]];
}

/**
 * One task per shard of `only` (all of the scheduler's, one per worker, by default),
 * `message(shard, shards)` giving each its [message, transfer], with their progress (the
 * fraction of each shard done) reported as 'pairs' in thousandths of the whole, never
 * going back: the tasks' results, in the order of `only`.
 */
async function shardTasks(scheduler, job, message, only = Array.from({ length: scheduler.size }, (_, shard) => shard)) {
  const shards = scheduler.size;
  const done = new Float64Array(shards);
  let reported = 0;
  const tasks = [];
  for (const shard of only) {
    const onProgress = (progress) => {
      done[shard] = progress;
      let sum = 0;
      for (const d of done) sum += d;
      const thousandths = Math.floor((sum / shards) * 1000);
      if (thousandths <= reported) return;
      reported = thousandths;
      job.reportFromWorker('pairs', thousandths, 1000);
    };
    const [body, transfer] = message(shard, shards);
    tasks.push(scheduler.task(job, body, { transfer, exclusive: true, onProgress }));
  }
  return job.guard(Promise.all(tasks));
}

/**
 * The (a, b, distance) words of every pair within k, in no particular order, found by the
 * pool's workers, one shard each; verified by similarity (each worker builds the shingle
 * sets of `texts`, encodeTextsPaced's) when `similarity` is above 0. Null when the
 * shards' candidates (before verification) pass `maxCandidates`.
 */
async function shardedWords(scheduler, job, fingerprints, k, { texts, similarity = 0, measure, maxCandidates = Infinity } = {}) {
  const results = await shardTasks(scheduler, job, (shard, shards) => {
    const fps = fingerprints.slice(); // each worker holds all fingerprints; the copy moves
    const [textsCopy, textBuffers] = copyTexts(texts);
    return [{ op: 'pairShard', fingerprints: fps, maxDistance: k, shard, shards, texts: textsCopy, similarity, measure,
      maxCandidates: maxCandidates / shards },
      [fps.buffer, ...textBuffers]];
  });
  if (results.some((result) => !result.words)) return null;
  let length = 0;
  for (const result of results) length += result.words.length;
  return concatWords(results.map((result) => result.words), length);
}

/** Fingerprints 0, n, 2n, ... copied through their 32-bit halves (no BigInt made). */
function everyNth(fingerprints, n) {
  const halves = new Uint32Array(fingerprints.buffer, fingerprints.byteOffset, 2 * fingerprints.length);
  const out = new Uint32Array(2 * Math.ceil(fingerprints.length / n));
  for (let i = 0, j = 0; i < fingerprints.length; i += n, j += 2) {
    out[j] = halves[2 * i];
    out[j + 1] = halves[2 * i + 1];
  }
  return new BigUint64Array(out.buffer);
}

/**
 * SimHash#findPairs across the pool's workers: each groups equal fingerprints, searches
 * its shard of the distinct ones and lists its pairs of items, sorted (pairs.js
 * searchItemShard); the shards' lists are merged here. At most `maxPairs` pairs (more:
 * findPairs' RangeError), and never more than that listed at once across the workers:
 * each shard lists its pairs only if they are at most its share, maxPairs / shards, and
 * otherwise counts them; a shard over its share while the union fits runs again with
 * the room the others leave.
 */
export async function poolPairs(scheduler, job, fingerprints, k, maxPairs = MAX_PAIRS) {
  const message = (bound) => (shard, shards) => {
    const fps = fingerprints.slice(); // each worker holds all fingerprints; the copy moves
    return [{ op: 'itemPairShard', fingerprints: fps, maxDistance: k, shard, shards, maxPairs: bound }, [fps.buffer]];
  };
  const results = await shardTasks(scheduler, job, message(Math.floor(maxPairs / scheduler.size)));
  let total = 0;
  for (const result of results) total += result.total;
  if (total > maxPairs) throw tooManyPairs(total, results[0].repeated, maxPairs);
  const over = [];
  let listed = 0;
  results.forEach((result, shard) => (result.words ? (listed += result.total) : over.push(shard)));
  if (over.length > 0) {
    const again = await shardTasks(scheduler, job, message(maxPairs - listed), over);
    over.forEach((shard, i) => { results[shard] = again[i]; });
  }
  return runStepsPaced(mergeSortedTriplesSteps(results.map((result) => result.words)), job.pacer());
}

/**
 * dedup's labels of the distinct texts (dedup.js searchLabels' answer) from a search split
 * across the workers, or null when one worker's search is the better plan (`texts`:
 * encodeTextsPaced's, when similarity is above 0):
 * - a pool of one worker: sharding gains nothing;
 * - candidates by banding (similar-groups.js): linear work over one worker's sets;
 * - the short measure: its word weights are learned from all the texts, in the worker
 *   that then searches (dedup.js searchLabels);
 * - components: the pairs (verified in the workers) joined here;
 * - leader: the rule is sequential, so the workers list the pairs and one of them applies
 *   the core's rule to their union (pairs.h leaderOfSortedPairs: exactly LeaderSearch's
 *   answer). That pays only where the pairs are few enough: LeaderSearch estimates their
 *   number from a sample and takes its lookup path for dense near-duplicates, which lists
 *   none. So one worker asks LeaderSearch which path it takes (a few ms), scaled by
 *   leaderSpread; on the lookup path, or when the shards find more candidates than
 *   LeaderSearch's pair bound (the sample underestimated them), null: one worker runs
 *   LeaderSearch.
 */
export async function poolLabels(scheduler, job, fingerprints, texts, { k, similarity, measure, banding, grouping }, pacer) {
  if (scheduler.size < 2 || banding || measure === 'short') return null;
  const count = fingerprints.length;
  const verified = { texts: similarity > 0 ? texts : undefined, similarity, measure };
  if (grouping === 'components') {
    const words = await shardedWords(scheduler, job, fingerprints, k, verified);
    // Components do not depend on the pairs' order.
    return runStepsPaced(componentSteps(count, splitTriples(words, words.length / 3)), pacer);
  }
  // LeaderSearch estimates the pairs from a sample: on every spread-th fingerprint it
  // takes the pair path when the pairs of all of them are at most about
  // 24 * spread * count (a subset of count / spread items holds 1 / spread^2 of them).
  const spread = leaderSpread(scheduler, similarity);
  const fps = spread > 1 ? everyNth(fingerprints, spread) : fingerprints.slice();
  // Past LeaderSearch's own pair bound (pairs.h pairBound) for spread * count items, the
  // shards leave the search to one worker's LeaderSearch.
  const path = await job.guard(scheduler.task(job, { op: 'leaderPath', fingerprints: fps, maxDistance: k, items: spread * count }, { transfer: [fps.buffer] }));
  if (!path.pairs) return null;
  const words = await shardedWords(scheduler, job, fingerprints, k, { ...verified, maxCandidates: path.maxCandidates });
  if (!words) return null;
  // The core's leader rule (pairs.h leaderOfSortedPairs) over the shards' pairs, in a worker.
  return job.guard(scheduler.task(job, { op: 'leaderOfPairs', count, words }, { transfer: [words.buffer] }));
}
