// The demo's analysis, run on the page for small inputs and in demo/worker.js for large
// ones, with the package's public API: fingerprints with progress and cancellation from
// sh.dedup, the pairs from sh.findPairs, their exact similarities from sh.similarities,
// dedup's 'leader' grouping from sh.groupLabels; identical texts are collapsed by dedup's
// own rule (js/dedup/dedup.js collapseTexts), so the groups are dedup's. It keeps the
// fingerprints, the pairs and their similarities: the histogram needs the pairs'
// distances, and the sliders regroup from what is kept without fingerprinting or
// searching again.
//
// A view is what decides near-duplicates, as dedup's options do:
//   { by: 'similarity', similarity }  candidates within candidateRadius(similarity) bits,
//                                     kept if their exact similarity reaches it (dedup's default);
//   { by: 'distance', maxDistance }   fingerprints within maxDistance (the fingerprint-only mode).
import { candidateRadius } from 'simhash-wasm';
import { collapseTexts } from '../js/dedup/dedup.js';
import { Pacer } from '../js/core/pacing.js';

/** Largest max distance the distance slider offers. */
export const SLIDER_MAX = 12;
/** Lowest similarity the similarity slider offers (its candidate radius is 21 bits). */
export const SIMILARITY_MIN = 0.6;
/** The histogram shows pair distances 0..HISTOGRAM_MAX. */
export const HISTOGRAM_MAX = 16;
/** Pairs of groups from this similarity (below the view's) are listed for a person to confirm (dedup's review). */
export const REVIEW = 0.5;
/**
 * The demo compares by the text measure (README "Similarity"): its views regroup the
 * fingerprints' candidate pairs by their `sh.similarities`.
 */
export const MEASURE = 'text';
/** How many such pairs an analysis lists, the most similar. */
const REVIEW_LIMIT = 200;

/** The Hamming radius whose pairs a view needs. */
export function viewRadius(view) {
  return view.by === 'similarity' ? candidateRadius(view.similarity) : view.maxDistance;
}

export function sameView(x, y) {
  return x.by === y.by && (x.by === 'similarity' ? x.similarity === y.similarity : x.maxDistance === y.maxDistance);
}

/**
 * Widest distance whose pairs are computed up front, from the number of distinct texts:
 * findPairs at k = 16-21 is a scan of all pairs, fine for a few thousand items; at 100,000
 * even k = 12 takes seconds, so large inputs compute only what the view asks for.
 */
export function pairsRange(distinct, radius) {
  if (distinct <= 5000) return Math.max(HISTOGRAM_MAX, candidateRadius(SIMILARITY_MIN));
  if (distinct <= 20000) return Math.max(SLIDER_MAX, radius);
  return radius;
}

export function segmenterAvailable() {
  return typeof Intl === 'object' && typeof Intl.Segmenter === 'function';
}

/** The library's fingerprint options of the demo's settings. */
export function fingerprintOptions(settings) {
  const { tokenizer, wordNgram, charNgram, caseFold, stripPunctuation, weighting, nfkc } = settings;
  return { tokenizer, wordNgram, charNgram, caseFold, stripPunctuation, weighting, nfkc };
}

/** Runs work() and appends [label, its duration in ms] to timings; returns what work returns. */
function timed(timings, label, work) {
  const mark = performance.now();
  const value = work();
  timings.push([label, performance.now() - mark]);
  return value;
}

export class Engine {
  #sh;
  #state = null;

  constructor(sh) {
    this.#sh = sh;
  }

  /**
   * Fingerprints `texts` and groups them as settings.view says. Identical texts are
   * fingerprinted once and grouped with their first copy (so a log of many equal lines
   * costs no more than its distinct lines, and their pairs are counted, not listed).
   */
  async analyze(texts, settings, { onProgress, signal } = {}) {
    this.#state = null;
    const started = performance.now();
    const count = texts.length;
    const { distinct: distinctTexts, of: itemDistinct, first: firstItem } = await collapseTexts(texts, new Pacer({ signal }));
    const copies = new Uint32Array(distinctTexts.length);
    for (const d of itemDistinct) copies[d]++;
    const { view } = settings;
    const k = viewRadius(view);
    const timings = [['preparing texts', performance.now() - started]];

    const mark = performance.now();
    const fingerprints = await this.#fingerprints(distinctTexts, settings, onProgress, signal);
    timings.push(['fingerprints', performance.now() - mark]);
    this.#state = {
      count, itemDistinct, firstItem, copies, distinctTexts, fingerprints,
      pairs: null, pairsK: -1, similarities: null,
    };

    // A long call: let the page show its phase first.
    const phase = async (name) => {
      onProgress?.({ phase: name, done: 0, total: 1 });
      if (distinctTexts.length > 5000) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signal?.throwIfAborted();
      }
    };
    // One findPairs call gives the groups, the histogram and every smaller radius.
    await phase('pairs');
    timed(timings, 'pairs', () => this.#ensurePairs(pairsRange(distinctTexts.length, k)));
    if (view.by === 'similarity') {
      await phase('similarities');
      timed(timings, 'similarities', () => this.#ensureSimilarities());
    }
    const result = timed(timings, 'groups', () => this.#result(view));
    if (view.by === 'similarity') {
      await phase('review');
      const mark = performance.now();
      Object.assign(result, await this.#review(result, signal));
      timings.push(['review', performance.now() - mark]);
    }
    onProgress?.({ phase: 'groups', done: 1, total: 1 });
    return { ...result, timings, total: performance.now() - started };
  }

  /** Regroups the analysed items for a view, computing wider pairs or similarities only when needed. */
  async group(view) {
    if (!this.#state) throw new Error('nothing has been analysed');
    const started = performance.now();
    const timings = [];
    if (viewRadius(view) > this.#state.pairsK) timed(timings, 'pairs', () => this.#ensurePairs(viewRadius(view)));
    if (view.by === 'similarity' && !this.#state.similarities) timed(timings, 'similarities', () => this.#ensureSimilarities());
    const result = timed(timings, 'groups', () => this.#result(view));
    if (view.by === 'similarity') {
      const mark = performance.now();
      Object.assign(result, await this.#review(result));
      timings.push(['review', performance.now() - mark]);
    }
    return { ...result, timings, total: performance.now() - started };
  }

  /**
   * Possible duplicates: dedup's review pairs of the distinct texts at the view's
   * similarity, as items ({ a, b, similarity }, a < b, the first copy of each text), each
   * two of the result's groups once (dedup's groups are the page's but for the rare
   * candidate the fingerprint radius and the bands propose differently: a pair within one
   * of the page's groups is left out). Most similar first; `reviewOmitted` past the limit.
   */
  async #review(result, signal) {
    const { distinctTexts, firstItem } = this.#state;
    const { review, reviewOmitted } = await this.#sh.dedup(distinctTexts, {
      similarity: result.view.similarity, measure: MEASURE, review: REVIEW, reviewLimit: REVIEW_LIMIT, signal,
    });
    const seen = new Set();
    const pairs = [];
    for (const { a, b, similarity } of review) {
      const [x, y] = [firstItem[a], firstItem[b]];
      const [gx, gy] = [result.leader[x], result.leader[y]];
      const key = gx < gy ? `${gx},${gy}` : `${gy},${gx}`;
      if (gx === gy || seen.has(key)) continue;
      seen.add(key);
      pairs.push({ a: Math.min(x, y), b: Math.max(x, y), similarity });
    }
    return { review: pairs, reviewOmitted };
  }

  #ensurePairs(k) {
    const state = this.#state;
    if (state.pairsK >= k) return;
    state.pairs = this.#sh.findPairs(state.fingerprints, k);
    state.pairsK = k;
    state.similarities = null;
  }

  /** The exact similarity of every kept pair, in one call (shingling each text named once). */
  #ensureSimilarities() {
    const state = this.#state;
    state.similarities ??= this.#sh.similarities(state.distinctTexts, state.pairs);
  }

  /** Item pairs per distance: pairs of distinct texts weigh copies × copies; copies pair at 0. */
  #histogram() {
    const { pairs, pairsK, copies } = this.#state;
    if (!pairs) return { histogram: null, histogramMax: -1 };
    const histogram = new Float64Array(HISTOGRAM_MAX + 1);
    for (let i = 0; i < pairs.a.length; i++) {
      if (pairs.distance[i] <= HISTOGRAM_MAX) histogram[pairs.distance[i]] += copies[pairs.a[i]] * copies[pairs.b[i]];
    }
    for (let d = 0; d < copies.length; d++) histogram[0] += (copies[d] * (copies[d] - 1)) / 2;
    return { histogram, histogramMax: Math.min(pairsK, HISTOGRAM_MAX) };
  }

  /**
   * Per item: the item it is grouped under (itself when kept), and its distance and (by
   * similarity) its similarity to it; copies of a text are at distance 0, similarity 1.
   */
  #result(view) {
    const { count, itemDistinct, firstItem, fingerprints, pairs, similarities } = this.#state;
    const k = viewRadius(view);
    const bySimilarity = view.by === 'similarity';
    const options = bySimilarity ? { maxDistance: k, similarity: view.similarity, similarities } : { maxDistance: k };
    const distinctLeader = this.#sh.groupLabels(fingerprints.length, pairs, options);
    const distinctDistance = new Uint8Array(distinctLeader.length);
    const distinctSimilarity = new Float64Array(distinctLeader.length).fill(1);
    for (let p = 0; p < pairs.a.length; p++) {
      const b = pairs.b[p];
      if (distinctLeader[b] !== pairs.a[p]) continue; // not the pair that joined b to its group
      distinctDistance[b] = pairs.distance[p];
      if (bySimilarity) distinctSimilarity[b] = similarities[p];
    }
    const leader = new Uint32Array(count);
    const distance = new Uint8Array(count);
    const similarity = bySimilarity ? new Float64Array(count) : null;
    let unique = 0;
    for (let i = 0; i < count; i++) {
      const d = itemDistinct[i];
      leader[i] = firstItem[distinctLeader[d]];
      const copy = distinctLeader[d] === d; // grouped under its own first occurrence
      distance[i] = copy ? 0 : distinctDistance[d];
      if (similarity) similarity[i] = copy ? 1 : distinctSimilarity[d];
      if (leader[i] === i) unique++;
    }
    return { view, radius: k, count, distinct: distinctLeader.length, unique, leader, distance, similarity, ...this.#histogram() };
  }

  /**
   * The texts' fingerprints, with progress and cancellation: sh.dedup at maxDistance 0 (the
   * texts are distinct, so its grouping, of identical fingerprints only, costs little).
   */
  async #fingerprints(texts, settings, onProgress, signal) {
    const progress = onProgress && ((p) => p.phase === 'fingerprint' && onProgress(p));
    const { fingerprints } = await this.#sh.dedup(texts, { maxDistance: 0, options: fingerprintOptions(settings), onProgress: progress, signal });
    return fingerprints;
  }
}
