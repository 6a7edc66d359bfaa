// Long asynchronous jobs on the calling thread: progress reports, yields to the event
// loop so the page stays responsive, and cancellation by AbortSignal.
import { typeName } from './checks.js';

/** Longest stretch of work between two yields to the event loop, by default. */
const YIELD_MS = 40;

/** Checks an onProgress option: a function, or undefined. */
export function checkOnProgress(onProgress, name) {
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`${name} must be a function, got ${typeName(onProgress)}`);
}

export function checkSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError(`${name} must be an AbortSignal, got ${typeName(signal)}`);
  }
}

/** The rejection of an aborted job: the signal's reason, or an AbortError. */
export function abortError(signal) {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

// A macrotask yield that is not clamped to 4 ms like nested setTimeout in browsers.
export const yieldToEventLoop = typeof MessageChannel === 'function'
  ? () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  })
  : () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The rhythm of one job: `report` passes progress on, `pause` (called between small units
 * of work) yields once `sliceMs` of work has passed and throws once the job is cancelled.
 * Each job has its own: jobs that overlap on one instance each yield after a slice of
 * their own work, so the thread never runs more than one slice between yields.
 * Hooks for the pool: `beforeYield` runs before each yield, `guard(promise)` may end a
 * yield early (a failed job), `check()` throws if the job has failed.
 */
export class Pacer {
  #signal;
  #onProgress;
  #sliceMs;
  #beforeYield;
  #guard;
  #check;
  #lastYield = performance.now();

  constructor({ signal, onProgress, sliceMs = YIELD_MS, beforeYield, guard, check } = {}) {
    this.#signal = signal;
    this.#onProgress = onProgress;
    this.#sliceMs = sliceMs;
    this.#beforeYield = beforeYield;
    this.#guard = guard;
    this.#check = check;
    if (signal?.aborted) throw abortError(signal);
  }

  report(phase, done, total) {
    this.#onProgress?.({ phase, done, total });
  }

  async pause() {
    if (performance.now() - this.#lastYield >= this.#sliceMs) {
      this.#beforeYield?.();
      await (this.#guard ? this.#guard(yieldToEventLoop()) : yieldToEventLoop());
      this.#lastYield = performance.now();
    }
    this.#check?.();
    if (this.#signal?.aborted) throw abortError(this.#signal);
  }

  /** report, then pause. */
  async step(phase, done, total) {
    this.report(phase, done, total);
    await this.pause();
  }
}

/** Iterations of a stepped loop between two yields of its generator (runSteps, runStepsPaced). */
export const STEP_ITERATIONS = 1 << 14;

/** Runs a generator of work (yielding every STEP_ITERATIONS or so) to its end; returns its result. */
export function runSteps(steps) {
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

/** runSteps with pacer.pause() at each yield: long work on the calling thread, cut into slices. */
export async function runStepsPaced(steps, pacer) {
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
    await pacer.pause();
  }
}
