// The text index of the loaded list that the "Find near-duplicates of…" box (lookup.js)
// queries: sh.createTextIndex by a measure at a similarity threshold, with review matches
// from the measure's REVIEW_OF (engine.js) below it, holding item i's text under id i. By
// the short measure it weighs words by the list's word weights, learned from its distinct
// texts as dedup learns them (sh.learnWeights), so that the box scores as the groups do.
// It is filled by addAll in chunks, yielding to the page between slices of work, so that a
// list of 100,000 lines is indexed without freezing the page. The box runs on the page, not
// in the demo's worker: a query takes milliseconds (on 100,000 generated lines, in Node,
// 0.06 ms on average at similarity 0.8 and 5 ms at 0.6, where far more candidates are
// verified), and a worker would need the list sent over and a message round trip per query.
//
// One index at a time: asking for another list or threshold stops the build under way and
// disposes the index it replaces, so the WebAssembly heap holds at most one.
import { abortError, Pacer } from '../js/core/pacing.js';
import { REVIEW_OF } from './engine.js';

/**
 * What one addAll call should take. The texts per call follow from the time per text of
 * the last call, between CHUNK_MIN and CHUNK_MAX: that time depends on the texts' lengths
 * and on the threshold (100,000 generated lines in Node: 10 µs per text at 0.9, 13-19 at
 * 0.8, 34 at 0.6).
 */
const CHUNK_MS = 8;
const CHUNK_MIN = 16;
const CHUNK_MAX = 4096;
/** UTF-16 units per addAll call at most (a text longer than that is a call of its own). */
const CHUNK_CHARS = 100_000;
/** Longest stretch of indexing between two yields to the page. */
const SLICE_MS = 16;

export class ListIndex {
  #sh;
  #onProgress;
  /** What the held or pending index is of: the list's texts array and the threshold. */
  #texts = null;
  #similarity = NaN;
  /** The build of that index: a promise of { index, ms }, null when nothing is held. */
  #pending = null;
  #controller = null;
  /** The measure of that index. */
  #measure = '';
  /** What #pending resolved to: the built TextIndex (disposed by release()) and its build time. */
  #built = null;

  /** onProgress(done, total): texts indexed so far, after each chunk of a build. */
  constructor(sh, { onProgress } = {}) {
    this.#sh = sh;
    this.#onProgress = onProgress;
  }

  #holds(texts, similarity, measure) {
    return this.#pending !== null && texts === this.#texts && similarity === this.#similarity && measure === this.#measure;
  }

  /** { index, ms } when the index of `texts` at `similarity` by `measure` is built (indexOf), else null. */
  built(texts, similarity, measure) {
    return this.#holds(texts, similarity, measure) ? this.#built : null;
  }

  /**
   * The index of `texts` (an array that is not changed afterwards; a new list is a new
   * array) at `similarity` by `measure`, and how long building it took in ms: the one held
   * or being built when it is of these, else a new one, replacing it. Rejects with an
   * AbortError when a newer call or release() replaces it before it is built, and with the
   * package's error when a text cannot be indexed.
   */
  indexOf(texts, similarity, measure) {
    if (this.#holds(texts, similarity, measure)) return this.#pending;
    this.release();
    const controller = new AbortController();
    this.#controller = controller;
    this.#texts = texts;
    this.#similarity = similarity;
    this.#measure = measure;
    const started = performance.now();
    const pending = this.#build(texts, similarity, measure, controller.signal).then(
      (index) => {
        if (controller.signal.aborted) { // replaced while its last chunk was being added
          index.dispose();
          throw abortError(controller.signal);
        }
        this.#built = { index, ms: performance.now() - started };
        return this.#built;
      },
      (error) => {
        if (this.#pending === pending) this.#forget(); // a later call tries again
        throw error;
      },
    );
    pending.catch(() => {}); // the caller sees the rejection; an abandoned build's is expected
    this.#pending = pending;
    return pending;
  }

  /** Stops a build under way and disposes the index held. */
  release() {
    this.#controller?.abort(new DOMException('A newer list or threshold replaced this index', 'AbortError'));
    this.#built?.index.dispose();
    this.#forget();
  }

  #forget() {
    this.#controller = null;
    this.#built = null;
    this.#pending = null;
    this.#texts = null;
    this.#similarity = NaN;
    this.#measure = '';
  }

  async #build(texts, similarity, measure, signal) {
    const pacer = new Pacer({ signal, sliceMs: SLICE_MS });
    const review = similarity > REVIEW_OF[measure] ? REVIEW_OF[measure] : undefined;
    // By the short measure, the Han table before the synchronous calls below, for the list and
    // for what is typed into the box (README "Similarity of short strings").
    if (measure === 'short') await this.#sh.loadHanTable();
    // WordWeights are plain JS arrays (js/bindings/word-weights.js): the index keeps a copy, nothing to dispose.
    const weights = measure === 'short' ? this.#sh.learnWeights([...new Set(texts)]) : undefined;
    await pacer.pause();
    const index = this.#sh.createTextIndex({ similarity, review, measure, weights });
    this.#onProgress?.(0, texts.length);
    try {
      let chunk = CHUNK_MIN;
      for (let start = 0; start < texts.length;) {
        let end = start;
        for (let chars = 0; end < texts.length && end - start < chunk && chars < CHUNK_CHARS; end++) chars += texts[end].length;
        const ids = new Uint32Array(end - start);
        for (let i = 0; i < ids.length; i++) ids[i] = start + i;
        const mark = performance.now();
        index.addAll(texts.slice(start, end), ids);
        const perText = Math.max(performance.now() - mark, 0.1) / (end - start);
        chunk = Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, Math.floor(CHUNK_MS / perText)));
        start = end;
        this.#onProgress?.(start, texts.length);
        await pacer.pause();
      }
      return index;
    } catch (error) {
      index.dispose();
      throw error;
    }
  }
}
