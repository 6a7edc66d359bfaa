// What the pool's test files share: the timing slack of a loaded machine, the process's
// threads (a worker_threads worker is one), and an abort timed.
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
