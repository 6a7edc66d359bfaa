// One call on the pool: its signal, its progress reports, its failure, and the pacing of
// the work it does on the calling thread.
import { checkObject } from '../core/checks.js';
import { isNode } from '../core/environment.js';
import { Pacer, abortError, checkOnProgress, checkSignal } from '../core/pacing.js';

/** Longest stretch of work on the calling thread between two yields to the event loop. */
const SLICE_MS = 12;
/** Progress is reported at least this often while a job runs (repeating the last report if need be). */
const PROGRESS_MS = 50;

const now = () => performance.now();

/** The `task` argument of the pool's methods: { onProgress?, signal? }. */
export function checkTaskOptions(task) {
  const { onProgress, signal } = checkObject(task, 'task');
  checkOnProgress(onProgress, 'task.onProgress');
  checkSignal(signal, 'task.signal');
  return { onProgress, signal };
}

export class Job {
  /** onEnd(job, cancel) drops the job's queued tasks; cancel also stops the workers running them. */
  constructor(signal, onProgress, onEnd) {
    this.signal = signal;
    this.onProgress = onProgress;
    this.onEnd = onEnd;
    this.failed = null;
    this.ended = false;
    this.last = null;
    this.lastAt = 0;
    this.timer = null;
    let reject;
    this.stopped = new Promise((_, no) => { reject = no; });
    this.stopped.catch(() => {});
    this.rejectStopped = reject;
    if (signal?.aborted) throw abortError(signal);
    this.onAbort = () => this.fail(abortError(signal), true);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Ends the job with an error: its queued tasks are dropped, cancelled ones also stop their workers. */
  fail(error, cancel = false) {
    if (this.failed) return;
    this.failed = { error };
    this.onEnd(this, cancel);
    this.rejectStopped(error);
  }

  /** Resolves as `promise` does, or rejects as soon as the job fails (aborted, a task failed). */
  guard(promise) {
    return Promise.race([promise, this.stopped]);
  }

  check() {
    if (this.failed) throw this.failed.error;
  }

  report(phase, done, total) {
    this.last = { phase, done, total };
    this.emit();
  }

  /** report() of progress a worker sent: an onProgress that throws has failed the job with its error already. */
  reportFromWorker(phase, done, total) {
    try {
      this.report(phase, done, total);
    } catch {
      // the job has failed: its promise rejects with the error
    }
  }

  emit() {
    if (!this.onProgress || this.failed) return;
    this.lastAt = now();
    try {
      this.onProgress({ ...this.last });
    } catch (error) {
      this.fail(error);
      throw error;
    }
    if (!this.timer) this.arm(PROGRESS_MS);
  }

  /** A pacer for loops on the calling thread: yields every SLICE_MS, repeating stale progress, throwing once the job failed. */
  pacer() {
    return new Pacer({ sliceMs: SLICE_MS, beforeYield: () => this.tick(), guard: (promise) => this.guard(promise), check: () => this.check() });
  }

  /** Repeats the last report if it is PROGRESS_MS old (between slices of work on this thread). */
  tick() {
    if (this.last && now() - this.lastAt >= PROGRESS_MS) this.emit();
  }

  /** Repeats the last report when nothing new came for PROGRESS_MS (e.g. during one long WASM call). */
  arm(delay) {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.failed || this.ended) return;
      const waited = now() - this.lastAt;
      if (waited >= PROGRESS_MS - 1) {
        try {
          this.emit();
        } catch {
          // fail() has rejected the job with this error
        }
      } else {
        this.arm(PROGRESS_MS - waited);
      }
    }, delay);
    if (isNode) this.timer.unref?.();
  }

  end() {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.signal?.removeEventListener('abort', this.onAbort);
    if (!this.failed) this.onEnd(this, false);
  }
}
