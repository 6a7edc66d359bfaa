// The pool's workers and its queue of tasks: which worker runs what, worker failures and
// restarts, and the messages' transfer (README "Worker pool"; the protocol is described
// in pool/pool-worker.js).
import { isNode } from '../core/environment.js';
import { yieldToEventLoop } from '../core/pacing.js';
import { encodeTexts } from '../core/text.js';

/** Tasks a worker holds at once (one running, one waiting), so it never waits for us. */
const PIPELINE = 2;
/** A worker whose WASM memory grew past this is replaced once idle (memory never shrinks). */
const RECYCLE_BYTES = 64 * 1024 * 1024;
/** IDF weights a worker keeps loaded (the oldest is dropped past this). */
const MAX_WORKER_IDFS = 8;

function rebuildError({ name, message }) {
  const Type = { TypeError, RangeError }[name] ?? Error;
  const error = new Type(message);
  if (error.name !== name) error.name = name;
  return error;
}

/** A fingerprint task's message with its texts encoded, and the buffers to transfer. */
function encodedMessage({ id, texts, options }) {
  const { utf8, bounds } = encodeTexts(texts);
  return [{ id, op: 'fingerprintEncoded', utf8, bounds, options }, [utf8.buffer, bounds.buffer]];
}

// IdfWeights -> { id, bytes }: how the weights travel to workers.
const idfWire = new WeakMap();
let nextIdfId = 1;

/** IDF weights as workers receive them, taken when the call is made (the caller may dispose of them afterwards). */
export function idfForWorkers(idf) {
  let wire = idfWire.get(idf);
  if (!wire) {
    wire = { id: nextIdfId++, bytes: idf.toBytes() };
    idfWire.set(idf, wire);
  }
  return wire;
}

/** One worker with a uniform interface over Web Workers and worker_threads. */
class WorkerHandle {
  constructor(worker, onMessage, onFailure, workerUrl) {
    this.worker = worker;
    this.tasks = new Map(); // id -> task
    this.exclusive = false; // running a task that must not share the worker
    this.memoryBytes = 0;
    this.idfs = []; // ids of the IDF weights this worker holds, oldest first
    if (isNode) {
      worker.on('message', onMessage);
      worker.on('error', onFailure);
      worker.on('exit', (code) => onFailure(new Error(`simhash-wasm worker exited with code ${code}`)));
      worker.on('messageerror', onFailure);
    } else {
      worker.onmessage = (event) => onMessage(event.data);
      worker.onerror = (event) => {
        event.preventDefault?.();
        onFailure(new Error(`simhash-wasm: the pool's worker script ${workerUrl} did not start (${event.message || 'it did not load'}); `
          + 'serve js/pool/pool-worker.js there as a module worker (README "Browsers and bundlers")'));
      };
      worker.onmessageerror = () => onFailure(new Error('simhash-wasm worker sent a message that could not be read'));
    }
  }

  post(message, transfer) {
    if (isNode && this.tasks.size === 0) this.worker.ref();
    this.worker.postMessage(message, transfer);
  }

  /** What a task's message says about IDF weights: their bytes only when this worker lacks them. */
  idfMessage({ id, bytes }) {
    if (this.idfs.includes(id)) return { id };
    this.idfs.push(id);
    const drop = this.idfs.length > MAX_WORKER_IDFS ? this.idfs.shift() : undefined;
    return { id, bytes, drop };
  }

  idle() {
    if (isNode) this.worker.unref(); // an idle pool does not keep Node running
  }

  terminate() {
    return this.worker.terminate();
  }
}

export class Scheduler {
  #size;
  #handles;
  #queue = [];
  #nextId = 1;
  #init;
  #spawn;
  #workerUrl;
  #terminated = false;
  #dispatchScheduled = false;

  /**
   * `init`: the first message of every worker ({ wasmBinary?, wasmUrl? }); `spawn()`: a new
   * worker; `workerUrl`: where its script is expected, for messages.
   */
  constructor(size, init, spawn, workerUrl) {
    this.#size = size;
    this.#init = init;
    this.#spawn = spawn;
    this.#workerUrl = workerUrl;
    this.#handles = new Array(size).fill(null);
  }

  get size() {
    return this.#size;
  }

  get terminated() {
    return this.#terminated;
  }

  /** Starts every worker and waits until each has loaded the WASM module. */
  async startAll() {
    const started = [];
    for (let i = 0; i < this.#size; i++) started.push(this.#start(i));
    try {
      await Promise.all(started);
    } catch (error) {
      await this.terminate();
      throw error;
    }
  }

  #start(index) {
    const id = this.#nextId++;
    let handle;
    const ready = new Promise((resolve, reject) => {
      const init = { id, job: null, resolve, reject, init: true };
      handle = new WorkerHandle(this.#spawn(), (message) => this.#onMessage(handle, message),
        (error) => this.#onFailure(handle, error), this.#workerUrl);
      handle.tasks.set(id, init);
      handle.post({ id, op: 'init', ...this.#init }, []);
    });
    ready.catch(() => {});
    this.#handles[index] = handle;
    return ready;
  }

  #onMessage(handle, { id, ok, result, error, memoryBytes, progress, phase, trapped, ask, ticket }) {
    const task = handle.tasks.get(id);
    if (!task) return;
    if (progress !== undefined) {
      task.onProgress?.(progress, phase);
      return;
    }
    if (ask !== undefined) {
      this.#answer(handle, task, ask, ticket);
      return;
    }
    if (trapped) { // its instance is unusable (traps.js): the worker's tasks fail with the trap, and a new worker takes its place
      this.#onFailure(handle, rebuildError(error));
      return;
    }
    handle.tasks.delete(id);
    if (task.exclusive) handle.exclusive = false;
    if (memoryBytes) handle.memoryBytes = memoryBytes;
    if (ok) task.resolve(result);
    else task.reject(rebuildError(error));
    if (handle.tasks.size === 0) {
      handle.idle();
      if (handle.memoryBytes > RECYCLE_BYTES) this.#stop(handle);
    }
    this.#dispatch();
  }

  /**
   * Answers a worker's ask (pool-worker.js) with what its task's `onAsk(ask)` gives: a
   * promise of [result, transfer], or null for none. A helper that fails answers null too:
   * the worker then does the work itself, and meets the failure there if it is the work's.
   */
  #answer(handle, task, ask, ticket) {
    Promise.resolve(task.onAsk?.(ask)).catch(() => null).then((helped) => {
      const [result, transfer] = helped ?? [null, []];
      if (this.#handles.includes(handle)) handle.post({ op: 'answer', ticket, result }, transfer);
    });
  }

  #onFailure(handle, error) {
    const index = this.#handles.indexOf(handle);
    if (index < 0) return; // already stopped
    this.#handles[index] = null;
    handle.terminate();
    for (const task of handle.tasks.values()) task.reject(error);
    handle.tasks.clear();
    this.#dispatch();
  }

  /** Stops a worker; its tasks of other jobs go back to the front of the queue. */
  #stop(handle, requeue = []) {
    const index = this.#handles.indexOf(handle);
    if (index >= 0) this.#handles[index] = null;
    handle.terminate();
    handle.tasks.clear();
    this.#queue.unshift(...requeue);
  }

  /**
   * Posts the first queued task to the least busy worker that can take it, and the next
   * ones one per turn of the event loop: posting a chunk of texts costs Chromium's calling
   * thread 2.5-40 ms (structured cloning flattens and copies every string), so posting
   * several in one task would make a long task of the page.
   */
  #dispatch() {
    if (this.#dispatchScheduled || this.#queue.length === 0 || this.#terminated) return;
    const task = this.#queue[0];
    let best = -1;
    let bestLoad = Infinity;
    for (let i = 0; i < this.#handles.length; i++) {
      const handle = this.#handles[i];
      const load = handle ? handle.tasks.size : 0;
      if (handle?.exclusive || load >= PIPELINE || (task.exclusive && load > 0)) continue;
      if (load < bestLoad) {
        best = i;
        bestLoad = load;
      }
    }
    if (best < 0) return; // every worker is busy: the next result dispatches again
    this.#queue.shift();
    if (!this.#handles[best]) {
      this.#start(best).catch(() => {}); // a failed start rejects the tasks posted after it
    }
    const handle = this.#handles[best];
    const [message, transfer] = task.encode ? encodedMessage(task.message) : [task.message, task.transfer];
    handle.post(task.idf ? { ...message, idf: handle.idfMessage(task.idf) } : message, transfer);
    handle.tasks.set(task.message.id, task);
    if (task.exclusive) handle.exclusive = true;
    // Tasks queued before the next turn (the rest of a job's chunks, say) wait for it.
    this.#dispatchScheduled = true;
    yieldToEventLoop().then(() => {
      this.#dispatchScheduled = false;
      this.#dispatch();
    });
  }

  /**
   * Queues a task of a job; resolves with the worker's result. `exclusive`: the worker runs
   * nothing else meanwhile; `idf`: idfForWorkers' weights; `encode`: a fingerprint task
   * whose texts are encoded to UTF-8 when posted; `onProgress(progress, phase)`: what the
   * worker reports while it runs the task; `onAsk(ask)`: the answer to its asks (#answer).
   */
  task(job, message, { transfer = [], exclusive = false, idf, encode = false, onProgress, onAsk } = {}) {
    return new Promise((resolve, reject) => {
      job.check();
      message.id = this.#nextId++;
      this.#queue.push({ job, message, transfer, exclusive, idf, encode, onProgress, onAsk, resolve, reject });
      this.#dispatch();
    });
  }

  /**
   * As task(), when a worker is idle now and no task waits; else null. A worker that asks for
   * help runs the work itself rather than wait: the worker it waited for could be waiting on it.
   */
  taskIfIdle(job, message, options) {
    if (this.#queue.length > 0 || !this.#handles.some((handle) => !handle || handle.tasks.size === 0)) return null;
    return this.task(job, message, options);
  }

  /** Drops a job's queued tasks; on cancellation also stops the workers running its tasks. */
  dropJob(job, cancel) {
    this.#queue = this.#queue.filter((task) => task.job !== job);
    if (!cancel) return;
    for (const handle of this.#handles) {
      if (!handle) continue;
      const tasks = [...handle.tasks.values()];
      if (!tasks.some((task) => task.job === job)) continue;
      // A worker can hold tasks of other jobs (fingerprint and verify tasks share workers):
      // they go back to the queue, and fingerprint tasks keep their strings (encoded anew
      // when posted again).
      this.#stop(handle, tasks.filter((task) => task.job !== job && !task.init));
    }
    this.#dispatch();
  }

  /** Stops every worker; queued and running tasks reject with `error`. */
  async terminate(error = new Error('this pool has been terminated')) {
    if (this.#terminated) return;
    this.#terminated = true;
    for (const task of this.#queue) task.reject(error);
    this.#queue = [];
    const stopping = [];
    for (const handle of this.#handles) {
      if (!handle) continue;
      for (const task of handle.tasks.values()) task.reject(error);
      handle.tasks.clear();
      stopping.push(handle.terminate());
    }
    this.#handles.fill(null);
    await Promise.all(stopping);
  }
}
