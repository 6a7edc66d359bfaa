// The demo's analysis, run on the page for small inputs and in demo/worker.js for large
// ones, with the package's public API: fingerprints with progress and cancellation from
// sh.dedup, the pairs from sh.findPairs, dedup's 'leader' grouping from sh.groupLabels.
// It keeps the fingerprints and the pairs: the histogram needs the pairs' distances, and
// the slider regroups from the kept pairs without fingerprinting or searching again.

/** Largest max distance the slider offers. */
export const SLIDER_MAX = 12;
/** The histogram shows pair distances 0..HISTOGRAM_MAX. */
export const HISTOGRAM_MAX = 16;

/**
 * Widest distance whose pairs are computed up front, from the number of distinct texts:
 * findPairs at k=16 is a scan of all pairs, fine for a few thousand items; at 100,000 even
 * k=12 takes seconds, so large inputs compute only what the slider asks for.
 */
export function pairsRange(distinct, maxDistance) {
  if (distinct <= 5000) return HISTOGRAM_MAX;
  if (distinct <= 20000) return SLIDER_MAX;
  return maxDistance;
}

export function segmenterAvailable() {
  return typeof Intl === 'object' && typeof Intl.Segmenter === 'function';
}

/** The library's fingerprint options of the demo's settings. */
export function fingerprintOptions(settings) {
  const { tokenizer, wordNgram, charNgram, caseFold, stripPunctuation, weighting, nfkc } = settings;
  return { tokenizer, wordNgram, charNgram, caseFold, stripPunctuation, weighting, nfkc };
}

export class Engine {
  #sh;
  #state = null;

  constructor(sh) {
    this.#sh = sh;
  }

  /**
   * Fingerprints `texts` and groups them within settings.maxDistance. Identical texts are
   * fingerprinted once and grouped with their first copy (so a log of many equal lines
   * costs no more than its distinct lines, and their pairs are counted, not listed).
   */
  async analyze(texts, settings, { onProgress, signal } = {}) {
    this.#state = null;
    const started = performance.now();
    const count = texts.length;
    const itemDistinct = new Uint32Array(count);
    const ids = new Map();
    const distinctTexts = [];
    const firstItem = [];
    const copies = [];
    for (let i = 0; i < count; i++) {
      const text = texts[i];
      let d = ids.get(text);
      if (d === undefined) {
        d = distinctTexts.length;
        ids.set(text, d);
        distinctTexts.push(text);
        firstItem.push(i);
        copies.push(0);
      }
      copies[d]++;
      itemDistinct[i] = d;
    }
    ids.clear();
    const k = settings.maxDistance;
    const timings = [['preparing texts', performance.now() - started]];

    let mark = performance.now();
    const fingerprints = await this.#fingerprints(distinctTexts, settings, onProgress, signal);
    timings.push(['fingerprints', performance.now() - mark]);
    this.#state = { count, itemDistinct, firstItem: Uint32Array.from(firstItem), copies: Uint32Array.from(copies), fingerprints, pairs: null, pairsK: -1 };

    // One findPairs call gives the groups, the histogram and every smaller max distance.
    onProgress?.({ phase: 'pairs', done: 0, total: 1 });
    if (distinctTexts.length > 5000) { // a long call: let the page show the phase first
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal?.throwIfAborted();
    }
    mark = performance.now();
    this.#ensurePairs(Math.max(pairsRange(distinctTexts.length, k), k));
    timings.push(['pairs', performance.now() - mark]);
    mark = performance.now();
    const leader = this.#sh.groupLabels(distinctTexts.length, this.#state.pairs, { maxDistance: k });
    const result = this.#result(k, leader);
    timings.push(['groups', performance.now() - mark]);
    onProgress?.({ phase: 'groups', done: 1, total: 1 });
    return { ...result, timings, total: performance.now() - started };
  }

  /** Regroups the analysed items within k, computing wider pairs only when needed. */
  group(k) {
    if (!this.#state) throw new Error('nothing has been analysed');
    const started = performance.now();
    const timings = [];
    if (k > this.#state.pairsK) {
      this.#ensurePairs(k);
      timings.push(['pairs', performance.now() - started]);
    }
    const mark = performance.now();
    const leader = this.#sh.groupLabels(this.#state.fingerprints.length, this.#state.pairs, { maxDistance: k });
    timings.push(['groups', performance.now() - mark]);
    return { ...this.#result(k, leader), timings, total: performance.now() - started };
  }

  #ensurePairs(k) {
    const state = this.#state;
    if (state.pairsK >= k) return;
    state.pairs = this.#sh.findPairs(state.fingerprints, k);
    state.pairsK = k;
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

  /** Per item: the item it is grouped under (itself when kept) and its distance to it. */
  #result(k, distinctLeader) {
    const { count, itemDistinct, firstItem, fingerprints } = this.#state;
    const sh = this.#sh;
    const distinctDistance = new Uint8Array(distinctLeader.length);
    for (let d = 0; d < distinctLeader.length; d++) {
      if (distinctLeader[d] !== d) distinctDistance[d] = sh.distance(fingerprints[d], fingerprints[distinctLeader[d]]);
    }
    const leader = new Uint32Array(count);
    const distance = new Uint8Array(count);
    let unique = 0;
    for (let i = 0; i < count; i++) {
      const d = itemDistinct[i];
      leader[i] = firstItem[distinctLeader[d]];
      distance[i] = distinctDistance[d];
      if (leader[i] === i) unique++;
    }
    return { maxDistance: k, count, distinct: distinctLeader.length, unique, leader, distance, ...this.#histogram() };
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
