// The demo's analysis, run on the page for small inputs and in demo/worker.js for large
// ones, with the package's public API, by either measure (README "Similarity", "Similarity of
// short strings"); identical texts are collapsed by dedup's own rule (js/dedup/dedup.js
// collapseTexts), so copies are grouped as dedup groups them.
//
// By the text measure: fingerprints with progress and cancellation from sh.dedup, the
// pairs from sh.findPairs, their exact similarities from sh.similarities, dedup's 'leader'
// grouping from sh.groupLabels: the groups of dedup given maxDistance
// candidateRadius(similarity) (without it, dedup takes MinHash bands for lists of short
// texts, which also find pairs beyond the radius: two of the Names sample at 0.8). It keeps
// the fingerprints, the pairs and their similarities: the histogram needs the pairs'
// distances, and the sliders regroup from what is kept without fingerprinting or searching
// again.
//
// By the short measure (names, addresses, titles): sh.dedup finds the groups itself (its
// candidates are MinHash bands of word bigrams, which fingerprints cannot stand in for),
// weighing words by the list's word weights, which it learns on the first call and the
// engine keeps for regrouping; each member's similarity to its kept text comes from one
// sh.similarities call with those weights. Fingerprint distances say nothing of this
// measure: its results have no distances and no histogram.
//
// A view is what decides near-duplicates, as dedup's options do:
//   { by: 'similarity', similarity }  by the text measure, candidates within
//                                     candidateRadius(similarity) bits, kept if their exact
//                                     similarity reaches it (dedup's default); by the short
//                                     measure, dedup's groups at that similarity;
//   { by: 'distance', maxDistance }   fingerprints within maxDistance (the fingerprint-only
//                                     mode; the text measure only).
//
// Records (README "Records": rows of two or more columns, each compared by its kind):
// sh.dedup(rows, { fields }) at its defaults finds the groups and the review entries, each
// explained field by field; the view is { by: 'probability', probability }, dedup's
// default, and the result has no similarities, distances or histogram.
//
// The settings of an analysis: { measure: 'auto' | 'text' | 'short', view, similarityOf:
// { text, short }, and the fingerprint options (fingerprintOptions) }. 'auto' is resolved here,
// on the distinct texts, by dedup's own rule; a view by similarity, and any view by the short
// measure, takes the similarity of similarityOf for the measure. Results say the measure and
// the view they were made by, and the measure 'auto' takes for the texts (autoMeasure), so the
// page can follow.
import { candidateRadius } from 'simhash-wasm';
import { measureFor } from '../js/core/thresholds.js';
import { collapseTexts } from '../js/dedup/dedup.js';
import { Pacer } from '../js/core/pacing.js';
import { DEFAULT_LINK_PROBABILITY, DEFAULT_PROBABILITY } from '../js/records/records.js';
import { recordText } from './formats.js';

/** Largest max distance the distance slider offers. */
export const SLIDER_MAX = 12;
/** Lowest similarity the similarity slider offers by the text measure (its candidate radius is 21 bits). */
export const SIMILARITY_MIN = 0.6;
/**
 * Lowest similarity the slider offers per measure: the short measure's bands serve any
 * threshold, and 0.5 stays above its review threshold.
 */
export const SIMILARITY_MIN_OF = Object.freeze({ text: SIMILARITY_MIN, short: 0.5 });
/** The histogram shows pair distances 0..HISTOGRAM_MAX. */
export const HISTOGRAM_MAX = 16;
/**
 * Pairs of groups from this similarity (below the view's) are listed for a person to confirm
 * (dedup's review), per measure: by the text measure dedup's lowest, by the short measure
 * 0.4: on the Names sample (js/cli/names-sample.js) its lowest, 0.3, adds pairs that merely share
 * a word such as 'Corporation'.
 */
export const REVIEW_OF = Object.freeze({ text: 0.5, short: 0.4 });
/** How many such pairs an analysis lists, the most similar. */
const REVIEW_LIMIT = 200;

/** The view of records: dedup's groups from its default match probability. */
export const RECORDS_VIEW = Object.freeze({ by: 'probability', probability: DEFAULT_PROBABILITY });
/** The view of two files of records linked: link's links, from its default match probability. */
export const LINK_VIEW = Object.freeze({ by: 'probability', probability: DEFAULT_LINK_PROBABILITY });

/** The Hamming radius whose pairs a view needs. */
export function viewRadius(view) {
  return view.by === 'similarity' ? candidateRadius(view.similarity) : view.maxDistance;
}

export function sameView(x, y) {
  if (x.by !== y.by) return false;
  if (x.by === 'probability') return x.probability === y.probability;
  return x.by === 'similarity' ? x.similarity === y.similarity : x.maxDistance === y.maxDistance;
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

/**
 * The measure and the view of an analysis of texts whose 'auto' measure is `autoMeasure`
 * (see the settings above).
 */
export function analysisView(settings, autoMeasure) {
  const measure = settings.measure === 'auto' ? autoMeasure : settings.measure;
  const view = settings.view.by === 'distance' && measure === 'text'
    ? settings.view
    : { by: 'similarity', similarity: settings.similarityOf[measure] };
  return { measure, view };
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

/** Checks that a view suits the measure: fingerprint distance applies to the text measure only. */
function checkView(view, measure) {
  if (measure === 'short' && view.by !== 'similarity') {
    throw new RangeError('the short measure groups by similarity only: fingerprint distances say nothing of it');
  }
}

export class Engine {
  #sh;
  #state = null;

  constructor(sh) {
    this.#sh = sh;
  }

  /**
   * Groups `texts` by the measure and the view of the settings (analysisView); by the text
   * measure, with the fingerprint options of the settings. Identical texts are compared once
   * and grouped with their first copy (so a log of many equal lines costs no more than its
   * distinct lines, and their pairs are counted, not listed). Progress reports carry the
   * measure, and by the text measure the radius of the pairs searched.
   */
  async analyze(texts, settings, { onProgress, signal } = {}) {
    this.#state = null;
    const started = performance.now();
    const count = texts.length;
    const { distinct: distinctTexts, of: itemDistinct, first: firstItem } = await collapseTexts(texts, new Pacer({ signal }));
    const copies = new Uint32Array(distinctTexts.length);
    for (const d of itemDistinct) copies[d]++;
    const autoMeasure = measureFor(distinctTexts);
    const { measure, view } = analysisView(settings, autoMeasure);
    const timings = [['preparing texts', performance.now() - started]];
    const shared = { measure, count, itemDistinct, firstItem, copies, distinctTexts };
    const report = onProgress && ((progress) => onProgress({ ...progress, measure, radius: measure === 'text' ? viewRadius(view) : undefined }));

    if (measure === 'short') {
      this.#state = { ...shared, weights: undefined };
      const result = await this.#shortResult(view, timings, { onProgress: report, signal });
      return { ...result, autoMeasure, timings, total: performance.now() - started };
    }

    const mark = performance.now();
    const fingerprints = await this.#fingerprints(distinctTexts, settings, report, signal);
    timings.push(['fingerprints', performance.now() - mark]);
    this.#state = { ...shared, fingerprints, pairs: null, pairsK: -1, similarities: null };

    // A long call: let the page show its phase first.
    const phase = async (name) => {
      report?.({ phase: name, done: 0, total: 1 });
      if (distinctTexts.length > 5000) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signal?.throwIfAborted();
      }
    };
    // One findPairs call gives the groups, the histogram and every smaller radius.
    const k = viewRadius(view);
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
    report?.({ phase: 'groups', done: 1, total: 1 });
    return { ...result, autoMeasure, timings, total: performance.now() - started };
  }

  /**
   * Groups records (`records`: input.js's { rows, fields, columns, left? }; see the top of this
   * file), or with `left` links the rows' first `left` with the rest (sh.link): each link a
   * group of two, its first-file row kept, and `links` link's links. Review entries are rows
   * a < b (link's: pairs across). autoMeasure says what 'auto' takes for the records' texts
   * (formats.js recordText of `columns`), which the lookup box looks up.
   */
  async analyzeRecords({ rows, fields, columns, left }, { onProgress, signal } = {}) {
    this.#state = null;
    const started = performance.now();
    const linking = left !== undefined;
    const options = { ...(fields && { fields }), reviewLimit: REVIEW_LIMIT, onProgress: onProgress && ((progress) => onProgress({ ...progress, measure: 'records' })), signal };
    const found = await (linking ? this.#sh.link(rows.slice(0, left), rows.slice(left), options) : this.#sh.dedup(rows, options));
    const timings = [[linking ? 'links' : 'groups', performance.now() - started]];
    const count = rows.length;
    const leader = Uint32Array.from(rows, (_, i) => i);
    const across = (entry) => ({ ...entry, b: left + entry.b }); // link's b indexes the second list
    // Why each member joined its kept row (link's: its link): the match probability and each field's level.
    const why = [];
    if (linking) {
      for (const { a, b, probability, fields: levels } of found.links) {
        leader[left + b] = a;
        why[left + b] = { kept: a, probability, levels: levels.map(({ name, level }) => ({ name, level })) };
      }
    } else {
      found.groups.forEach(([kept, ...members], g) => members.forEach((member, m) => {
        leader[member] = kept;
        const { probability, levels } = found.merged[g][m];
        why[member] = { kept, probability, levels: found.fields.map(({ name }, j) => ({ name, level: levels[j] })) };
      }));
    }
    const autoMeasure = measureFor([...new Set(rows.map((row) => recordText(row, columns)))]);
    this.#state = { measure: 'records' };
    return {
      view: linking ? LINK_VIEW : RECORDS_VIEW, measure: 'records', count, unique: linking ? count - found.links.length : found.unique.length, leader,
      distance: null, similarity: null, radius: -1, histogram: null, histogramMax: -1, fields: found.fields, why,
      review: linking ? found.review.map(across) : found.review, reviewOmitted: found.reviewOmitted, compared: found.compared,
      ...(linking && { links: found.links.map(across), left }), autoMeasure, timings, total: performance.now() - started,
    };
  }

  /** Regroups the analysed items for a view, computing wider pairs or similarities only when needed. */
  async group(view) {
    if (!this.#state) throw new Error('nothing has been analysed');
    if (this.#state.measure === 'records') throw new RangeError('records have one view: dedup\'s default match probability');
    checkView(view, this.#state.measure);
    const started = performance.now();
    const timings = [];
    if (this.#state.measure === 'short') {
      const result = await this.#shortResult(view, timings, {});
      return { ...result, timings, total: performance.now() - started };
    }
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
   * Possible duplicates by the text measure: dedup's review pairs of the distinct texts at
   * the view's similarity (the rare candidate the fingerprint radius and the bands propose
   * differently can make a pair fall within one of the page's groups: reviewOfItems leaves
   * it out).
   */
  async #review(result, signal) {
    const { distinctTexts, firstItem } = this.#state;
    const { review, reviewOmitted } = await this.#sh.dedup(distinctTexts, {
      similarity: result.view.similarity, measure: 'text', review: REVIEW_OF.text, reviewLimit: REVIEW_LIMIT, signal,
    });
    const pairs = this.#explained(reviewOfItems(review, firstItem, result.leader), result, { measure: 'text' });
    return { review: pairs, reviewOmitted };
  }

  /**
   * The review pairs (reviewOfItems) with, on each at or above the view's similarity that is
   * not a look-alike kept apart (no `differs`), why the grouping left the two apart, as
   * `apart`: { member, kept, similarity } when one of the two, `member`, is in a group whose
   * kept item the other reaches at `similarity` only, below the view's (the leader rule: a
   * member joins by its similarity to the kept item, README "API", dedup's grouping); null
   * when each reaches the other's kept item, so the candidate search missed a pair. The
   * similarities to the kept items come from one sh.similarities call by `options` (the
   * result's measure and weights).
   */
  #explained(pairs, result, options) {
    const { itemDistinct, distinctTexts } = this.#state;
    const { leader, view } = result;
    const asked = []; // { pair, member, kept, other }
    for (const pair of pairs) {
      if (pair.similarity < view.similarity || pair.differs) continue;
      pair.apart = null;
      for (const [member, other] of [[pair.a, pair.b], [pair.b, pair.a]]) {
        if (leader[member] !== member) asked.push({ pair, member, kept: leader[member], other });
      }
    }
    if (asked.length === 0) return pairs;
    const similarities = this.#sh.similarities(distinctTexts, {
      a: Uint32Array.from(asked, ({ other }) => itemDistinct[other]),
      b: Uint32Array.from(asked, ({ kept }) => itemDistinct[kept]),
    }, options);
    asked.forEach(({ pair, member, kept }, i) => {
      if (pair.apart === null && similarities[i] < view.similarity) pair.apart = { member, kept, similarity: similarities[i] };
    });
    return pairs;
  }

  /**
   * The result by the short measure at view.similarity: dedup's groups and review pairs of
   * the distinct texts, by the list's word weights (learned by the first call, then given
   * back: the same distinct texts give the same weights), and each member's similarity to its
   * kept text. Appends its phases to `timings`.
   */
  async #shortResult(view, timings, { onProgress, signal }) {
    const state = this.#state;
    const { distinctTexts } = state;
    let mark = performance.now();
    const found = await this.#sh.dedup(distinctTexts, {
      measure: 'short', similarity: view.similarity, weights: state.weights,
      review: REVIEW_OF.short, reviewLimit: REVIEW_LIMIT, signal, onProgress,
    });
    // WordWeights are plain JS arrays (js/bindings/word-weights.js): nothing to dispose.
    state.weights = found.weights;
    timings.push(['groups', performance.now() - mark]);

    mark = performance.now();
    const distinctLeader = Uint32Array.from(distinctTexts, (_, d) => d);
    const members = found.groups.reduce((sum, group) => sum + group.length - 1, 0);
    const pairs = { a: new Uint32Array(members), b: new Uint32Array(members) };
    let p = 0;
    for (const [kept, ...rest] of found.groups) {
      for (const member of rest) {
        distinctLeader[member] = kept;
        pairs.a[p] = kept;
        pairs.b[p++] = member;
      }
    }
    const similarities = this.#sh.similarities(distinctTexts, pairs, { measure: 'short', weights: found.weights });
    const distinctSimilarity = new Float64Array(distinctTexts.length).fill(1);
    for (let i = 0; i < members; i++) distinctSimilarity[pairs.b[i]] = similarities[i];
    timings.push(['similarities', performance.now() - mark]);

    const result = this.#itemsOf(view, distinctLeader, null, distinctSimilarity);
    const review = this.#explained(reviewOfItems(found.review, state.firstItem, result.leader), result, { measure: 'short', weights: found.weights });
    onProgress?.({ phase: 'groups', done: 1, total: 1 });
    return { ...result, radius: -1, histogram: null, histogramMax: -1, review, reviewOmitted: found.reviewOmitted };
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
    state.similarities ??= this.#sh.similarities(state.distinctTexts, state.pairs, { measure: 'text' });
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

  /** The result by the text measure: the fingerprints' pairs regrouped for the view. */
  #result(view) {
    const { fingerprints, pairs, similarities } = this.#state;
    const k = viewRadius(view);
    const bySimilarity = view.by === 'similarity';
    const options = bySimilarity ? { maxDistance: k, similarity: view.similarity, similarities } : { maxDistance: k };
    const distinctLeader = this.#sh.groupLabels(fingerprints.length, pairs, options);
    const distinctDistance = new Uint8Array(distinctLeader.length);
    const distinctSimilarity = bySimilarity ? new Float64Array(distinctLeader.length).fill(1) : null;
    for (let p = 0; p < pairs.a.length; p++) {
      const b = pairs.b[p];
      if (distinctLeader[b] !== pairs.a[p]) continue; // not the pair that joined b to its group
      distinctDistance[b] = pairs.distance[p];
      if (bySimilarity) distinctSimilarity[b] = similarities[p];
    }
    return { ...this.#itemsOf(view, distinctLeader, distinctDistance, distinctSimilarity), radius: k, ...this.#histogram() };
  }

  /**
   * Per item, from the same per distinct text: the item it is grouped under (itself when
   * kept), its fingerprint distance (null: none, by the short measure) and its similarity
   * (null: none, by fingerprint distance) to it; copies of a text are at distance 0,
   * similarity 1.
   */
  #itemsOf(view, distinctLeader, distinctDistance, distinctSimilarity) {
    const { measure, count, itemDistinct, firstItem } = this.#state;
    const leader = new Uint32Array(count);
    const distance = distinctDistance && new Uint8Array(count);
    const similarity = distinctSimilarity && new Float64Array(count);
    let unique = 0;
    for (let i = 0; i < count; i++) {
      const d = itemDistinct[i];
      leader[i] = firstItem[distinctLeader[d]];
      const copy = distinctLeader[d] === d; // grouped under its own first occurrence
      if (distance) distance[i] = copy ? 0 : distinctDistance[d];
      if (similarity) similarity[i] = copy ? 1 : distinctSimilarity[d];
      if (leader[i] === i) unique++;
    }
    return { view, measure, count, distinct: distinctLeader.length, unique, leader, distance, similarity };
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

/**
 * Review pairs of distinct texts as pairs of items ({ a, b, similarity, differs?, contained? }, a < b, the first
 * copy of each text), each two of the groups of `leader` (per item) once, most similar
 * first as dedup lists them; a pair within one group is left out.
 */
function reviewOfItems(review, firstItem, leader) {
  const seen = new Set();
  const pairs = [];
  for (const { a, b, similarity, differs, contained } of review) {
    const [x, y] = [firstItem[a], firstItem[b]];
    const [gx, gy] = [leader[x], leader[y]];
    const key = gx < gy ? `${gx},${gy}` : `${gy},${gx}`;
    if (gx === gy || seen.has(key)) continue;
    seen.add(key);
    const swapped = (sides) => (x < y ? sides : [sides[1], sides[0]]);
    const reason = differs && Object.fromEntries(Object.entries(differs).map(([kind, sides]) => [kind, swapped(sides)]));
    pairs.push({ a: Math.min(x, y), b: Math.max(x, y), similarity, ...(reason && { differs: reason }), ...(contained && { contained }) });
  }
  return pairs;
}
