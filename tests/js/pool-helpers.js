// What the pool's test files share: the timing slack of a loaded machine, the process's
// threads (a worker_threads worker is one), and an abort timed and checked.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';

// The pool reports every 100 ms and rejects at once on abort; on a loaded 2-core CI machine
// timers and thread scheduling run late by tens of milliseconds, which this slack absorbs.
export const TIMER_SLACK_MS = 100;
export const HAS_PROC = existsSync('/proc/self/task');
/** Threads of this process: a worker_threads worker is one, and goes when it is terminated. */
export const threads = () => readdirSync('/proc/self/task').length;

/** Whether condition() holds within `ms`, asked every 10 ms. */
export async function waitFor(condition, ms = 2000) {
  const end = performance.now() + ms;
  while (!condition() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

/** Time from abort() to the call's rejection, and the rejection. */
export async function abortAndTime(promise, controller, reason) {
  const start = performance.now();
  controller.abort(reason);
  const error = await promise.then(() => null, (e) => e);
  return { ms: performance.now() - start, error };
}

/** { started, onProgress }: a promise that resolves at the first progress report that passes `test`, and the onProgress to pass. */
export function startedWhen(test) {
  let resolveStarted;
  const started = new Promise((resolve) => { resolveStarted = resolve; });
  return { started, onProgress: (p) => { if (test(p)) resolveStarted(); } };
}

/**
 * Aborts the call (with `reason`, if given) and checks that it rejects with the reason (an
 * AbortError without one) within 100 ms, and that the process's threads fall below
 * `threadsBefore` (its workers stopped).
 */
export async function assertAbortStops(t, call, controller, threadsBefore, reason) {
  const { ms, error } = await abortAndTime(call, controller, reason);
  t.diagnostic(`rejected ${ms.toFixed(2)} ms after abort()`);
  if (reason) assert.equal(error, reason);
  else assert.equal(error.name, 'AbortError');
  assert.ok(ms < 100 + TIMER_SLACK_MS, `rejected ${ms.toFixed(1)} ms after abort()`);
  assert.ok(await waitFor(() => threads() < threadsBefore), `worker threads: ${threads()} before ${threadsBefore}`);
}
