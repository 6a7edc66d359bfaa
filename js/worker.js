// `simhash-wasm/worker`: the API of simhash.js run in a pool of Web Workers (browsers) or
// worker_threads (Node), with the same results bit for bit and in the same order.
//
// The calling thread only checks arguments, cuts the texts into chunks, and assembles
// results; every WASM call runs in a worker. Fingerprinting is spread over all workers
// (in Node a chunk of texts is encoded to UTF-8 here, when it is posted, and moves by
// transfer, which spares the workers decoding strings; browsers get the strings, see
// ENCODE_CHUNKS; fingerprints come back by transfer; texts that NFKC or Intl.Segmenter must
// change first always go as strings, that work being spread too). findPairs and the
// grouping of dedup are one WASM call and run in one worker, to which the fingerprints
// move by transfer and from which they come back.
//
// Cancellation terminates the workers running the job (freeing their memory) and
// rejects at once; the pool starts new workers when it next has work.
import {
  typeName, checkOptions, checkMaxDistance, checkDedupArguments, toFingerprintArray, abortError, yieldToEventLoop,
  encodeTexts, preparedInJs, textOptions,
} from './simhash.js';

/** At most this many texts per fingerprint task... */
const CHUNK_TEXTS = 2048;
/** ...and at most this many UTF-16 code units: about 10-30 ms of work per task. */
const CHUNK_CHARS = 1 << 19;
/** Verification tasks per worker (more than one, to balance components of unequal cost). */
const VERIFY_TASKS_PER_WORKER = 4;
/** Estimated cost of comparing one pair, in characters of shingling. */
const VERIFY_PAIR_COST = 64;
/** Result entries (kept items, groups) built between checks of the clock. */
const RESULT_SLICE = 16384;
/** Tasks a worker holds at once (one running, one waiting), so it never waits for us. */
const PIPELINE = 2;
/** A worker whose WASM memory grew past this is replaced once idle (memory never shrinks). */
const RECYCLE_BYTES = 64 * 1024 * 1024;
/** Longest stretch of work on the calling thread between two yields to the event loop. */
const SLICE_MS = 12;
/** Progress is reported at least this often while a job runs (repeating the last report if need be). */
const PROGRESS_MS = 50;
const MAX_SIZE = 1024;
/** IDF weights a worker keeps loaded (the oldest is dropped past this). */
const MAX_WORKER_IDFS = 8;

// Paths held in variables so that bundlers do not take the Node-only `new URL(...)` calls
// below for assets; the browser's worker URL is the literal pattern they do follow.
const WORKER_FILE = './pool-worker.js';
const WASM_FILE = 'simhash_core.wasm';
const WASM_PATH = './wasm/simhash_core.wasm';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/**
 * Whether fingerprint chunks are encoded to UTF-8 on the calling thread (`npm run
 * bench:transfer`, per 2,048-text chunk on the calling thread): Node posts strings in
 * 0.1-0.3 ms and encodes them in 1.6-3.1 ms, but the workers then skip decoding and
 * re-encoding them (pool fingerprinting of 1M texts 1.7x one thread, against 1.5x with
 * strings); Chromium takes 2.5-3.3 ms to post strings and 5-7 ms to encode and post, on
 * the thread that draws the page, for no clear gain (the browser pool test's 200,000-item
 * dedup: 813-1062 ms encoded, 898-1027 ms as strings; tasks over 50 ms in 4 of 6 runs of its
 * 20,000-item page encoded, 3 of 18 as strings).
 */
const ENCODE_CHUNKS = isNode;

/** A Node built-in module, hidden from bundlers (this code never runs in a browser). */
function nodeModule(name) {
  return process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}

const now = () => performance.now();

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

/** One worker with a uniform interface over Web Workers and worker_threads. */
class WorkerHandle {
  constructor(worker, onMessage, onFailure) {
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
        onFailure(new Error(`simhash-wasm worker failed: ${event.message ?? 'could not load its script'}`));
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

// IdfWeights -> { id, bytes }: how the weights travel to workers.
const idfWire = new WeakMap();
let nextIdfId = 1;

function idfBytes(idf) {
  let wire = idfWire.get(idf);
  if (!wire) {
    wire = { id: nextIdfId++, bytes: idf.toBytes() };
    idfWire.set(idf, wire);
  }
  return wire;
}

/** A call on the pool: its tasks, its signal, its progress reports. */
class Job {
  constructor(pool, signal, onProgress) {
    this.pool = pool;
    this.signal = signal;
    this.onProgress = onProgress;
    this.failed = null;
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
    this.pool._dropJob(this, cancel);
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

  /**
   * For loops on this thread, called every so many iterations: once SLICE_MS has passed,
   * yields to the event loop (and throws if the job failed meanwhile).
   */
  pacer() {
    let sliceStart = now();
    return async () => {
      if (now() - sliceStart < SLICE_MS) return;
      this.tick();
      await this.guard(yieldToEventLoop());
      this.check();
      sliceStart = now();
    };
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
    if (!this.failed) this.pool._dropJob(this, false);
  }
}

function checkTaskOptions(task) {
  if (task === undefined) return {};
  if (task === null || typeof task !== 'object') throw new TypeError(`task must be an object, got ${typeName(task)}`);
  const { onProgress, signal } = task;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`task.onProgress must be a function, got ${typeName(onProgress)}`);
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError(`task.signal must be an AbortSignal, got ${typeName(signal)}`);
  }
  return { onProgress, signal };
}

/**
 * Texts of a list checked (or made by `key`) a slice at a time, yielding to the event loop
 * between slices, with the chunk boundaries for fingerprint tasks.
 */
async function prepareTexts(items, key, name, job) {
  const texts = key ? new Array(items.length) : items;
  const bounds = [0];
  const pause = job.pacer();
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    let text;
    if (key) {
      text = key(items[i], i);
      if (typeof text !== 'string') throw new TypeError(`options.key must return a string, got ${typeName(text)} for items[${i}]`);
      texts[i] = text;
    } else {
      text = items[i];
      if (typeof text !== 'string') {
        throw new TypeError(name === 'items'
          ? `items[${i}] must be a string (or pass options.key), got ${typeName(text)}`
          : `${name}[${i}] must be a string, got ${typeName(text)}`);
      }
    }
    const start = bounds[bounds.length - 1];
    if (i > start && (i - start >= CHUNK_TEXTS || chars + text.length > CHUNK_CHARS)) {
      bounds.push(i);
      chars = 0;
    }
    chars += text.length;
    if ((i & 1023) === 1023) await pause();
  }
  if (items.length > 0) bounds.push(items.length);
  return { texts, bounds };
}

class SimHashPool {
  #size;
  #handles;
  #queue = [];
  #nextId = 1;
  #init;
  #spawn;
  #terminated = false;
  #dispatchScheduled = false;
  #jobs = new Set();

  constructor(size, init, spawn) {
    this.#size = size;
    this.#init = init;
    this.#spawn = spawn;
    this.#handles = new Array(size).fill(null);
  }

  /** Number of workers (some may be stopped, and are started again when there is work). */
  get size() {
    return this.#size;
  }

  /** Starts every worker and waits until each has loaded the WASM module. */
  async _start() {
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
        (error) => this.#onFailure(handle, error));
      handle.tasks.set(id, init);
      handle.post({ id, op: 'init', ...this.#init }, []);
    });
    ready.catch(() => {});
    this.#handles[index] = handle;
    return ready;
  }

  #onMessage(handle, { id, ok, result, error, memoryBytes }) {
    const task = handle.tasks.get(id);
    if (!task) return;
    handle.tasks.delete(id);
    if (task.exclusive) handle.exclusive = false;
    if (memoryBytes) handle.memoryBytes = memoryBytes;
    if (ok) task.resolve(result);
    else task.reject(rebuildError(error));
    this.#afterTask(handle);
  }

  #afterTask(handle) {
    if (handle.tasks.size === 0) {
      handle.idle();
      if (handle.memoryBytes > RECYCLE_BYTES) this.#stop(handle);
    }
    this.#dispatch();
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
   * thread 2.5-40 ms (structured cloning flattens and copies every string), and a job's
   * first dispatch would otherwise post PIPELINE chunks per worker in one task (the browser
   * pool test traced 34-66 ms tasks there with one worker).
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

  /** Queues a task of a job; resolves with the worker's result. */
  #task(job, message, { transfer = [], exclusive = false, idf, encode = false } = {}) {
    return new Promise((resolve, reject) => {
      job.check();
      message.id = this.#nextId++;
      this.#queue.push({ job, message, transfer, exclusive, idf, encode, resolve, reject });
      this.#dispatch();
    });
  }

  /** Drops a job's queued tasks; on cancellation also stops the workers running its tasks. */
  _dropJob(job, cancel) {
    this.#jobs.delete(job);
    this.#queue = this.#queue.filter((task) => task.job !== job);
    if (!cancel) return;
    for (const handle of this.#handles) {
      if (!handle) continue;
      const tasks = [...handle.tasks.values()];
      if (!tasks.some((task) => task.job === job)) continue;
      // Only fingerprint tasks share a worker, and they keep their strings (encoded anew when
      // posted again).
      this.#stop(handle, tasks.filter((task) => task.job !== job && !task.init));
    }
    this.#dispatch();
  }

  #live() {
    if (this.#terminated) throw new Error('this pool has been terminated');
  }

  #job(signal, onProgress) {
    const job = new Job(this, signal, onProgress);
    this.#jobs.add(job);
    return job;
  }

  async #fingerprint(job, texts, bounds, options) {
    // IdfWeights live in one WASM instance: each worker gets their bytes once and loads its own.
    const idf = options?.idf ? idfBytes(options.idf) : undefined;
    const encode = ENCODE_CHUNKS && !preparedInJs(textOptions(options));
    if (options && 'idf' in options) options = { ...options, idf: null };
    const total = texts.length;
    const fingerprints = new BigUint64Array(total);
    let done = 0;
    const chunks = [];
    for (let c = 0; c + 1 < bounds.length; c++) {
      const start = bounds[c];
      const end = bounds[c + 1];
      chunks.push(this.#task(job, { op: 'fingerprint', texts: texts.slice(start, end), options }, { idf, encode }).then((fps) => {
        fingerprints.set(fps, start);
        done += end - start;
        job.report('fingerprint', done, total);
      }));
    }
    await job.guard(Promise.all(chunks));
    return fingerprints;
  }

  /** Fingerprints of many texts, identical to SimHash#fingerprintAll, computed across the workers. */
  async fingerprintAll(texts, options, task) {
    this.#live();
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${typeName(texts)}`);
    checkOptions(options);
    const { onProgress, signal } = checkTaskOptions(task);
    const job = this.#job(signal, onProgress);
    try {
      job.report('fingerprint', 0, texts.length);
      const { bounds } = await prepareTexts(texts, undefined, 'texts', job);
      const fingerprints = await this.#fingerprint(job, texts, bounds, options);
      return fingerprints;
    } catch (error) {
      job.fail(error);
      throw job.failed.error;
    } finally {
      job.end();
    }
  }

  /** Every pair within maxDistance, identical to SimHash#findPairs, computed in one worker. */
  async findPairs(fingerprints, maxDistance, task) {
    this.#live();
    let fps = toFingerprintArray(fingerprints, 'fingerprints');
    const k = checkMaxDistance(maxDistance);
    if (fps.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
    const { onProgress, signal } = checkTaskOptions(task);
    if (fps === fingerprints) fps = fps.slice(); // the caller's array stays usable; the copy moves
    const job = this.#job(signal, onProgress);
    try {
      job.report('pairs', 0, 1);
      const result = await job.guard(this.#task(job, { op: 'pairs', fingerprints: fps, maxDistance: k },
        { transfer: [fps.buffer], exclusive: true }));
      job.report('pairs', 1, 1);
      return { a: result.a, b: result.b, distance: result.distance };
    } catch (error) {
      job.fail(error);
      throw job.failed.error;
    } finally {
      job.end();
    }
  }

  /**
   * Near-duplicate groups, identical to SimHash#dedup: fingerprints across the workers, the
   * pair search and grouping in one, the optional verification across the workers again.
   */
  async dedup(items, options = {}) {
    this.#live();
    const { key, k, fingerprintOptions, grouping, onProgress, signal, verifier } = checkDedupArguments(items, options);
    const job = this.#job(signal, onProgress);
    try {
      const total = items.length;
      job.report('fingerprint', 0, total);
      // The items' texts are checked (and `key` called) a slice at a time: a bad one still
      // rejects before any work is posted, as in SimHash#dedup.
      const { texts, bounds } = await prepareTexts(items, key, 'items', job);
      const fps = await this.#fingerprint(job, texts, bounds, fingerprintOptions);
      job.report('pairs', 0, 1);
      const pairsTask = { op: 'pairs', fingerprints: fps, maxDistance: k, grouping: verifier ? undefined : grouping };
      const found = await job.guard(this.#task(job, pairsTask, { transfer: [fps.buffer], exclusive: true }));
      job.report('pairs', 1, 1);
      let layout = found;
      if (verifier) {
        const kept = await this.#verify(job, found, texts, verifier);
        layout = await job.guard(this.#task(job, { op: 'group', count: total, a: kept.a, b: kept.b, grouping },
          { transfer: [kept.a.buffer, kept.b.buffer], exclusive: true }));
      }
      const result = await this.#result(job, items, layout);
      job.report('groups', 1, 1);
      return { ...result, fingerprints: found.fingerprints };
    } catch (error) {
      job.fail(error);
      throw job.failed.error;
    } finally {
      job.end();
    }
  }

  /**
   * The pairs whose texts pass SimHash#dedup's verification, checked across the workers.
   * The pairs of one connected component go to one task, so each text is sent, and its
   * shingle set built, once (as the single-threaded code builds each once); components
   * are spread over a few tasks per worker by estimated cost (characters and pairs).
   */
  async #verify(job, pairs, texts, { minJaccard, shingle }) {
    const count = pairs.a.length;
    const total = texts.length;
    job.report('verify', 0, count);
    if (count === 0) return { a: new Uint32Array(0), b: new Uint32Array(0) };
    const pause = job.pacer();
    // Union-find over the items in pairs (parent -1: not in any pair).
    const parent = new Int32Array(total).fill(-1);
    const involved = [];
    const find = (x) => {
      if (parent[x] < 0) {
        parent[x] = x;
        involved.push(x);
        return x;
      }
      while (parent[x] !== x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (let i = 0; i < count; i++) {
      const ra = find(pairs.a[i]);
      const rb = find(pairs.b[i]);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      if ((i & 1023) === 1023) await pause();
    }
    // The work of each component, estimated; components are never split (a text in two
    // tasks would be sent and shingled twice), so one giant component (a long chain, common
    // at a large maxDistance) takes about the single-threaded time.
    const cost = new Map(); // root -> estimated work
    for (let i = 0; i < involved.length; i++) {
      const root = find(involved[i]);
      cost.set(root, (cost.get(root) ?? 0) + texts[involved[i]].length);
      if ((i & 1023) === 1023) await pause();
    }
    for (let i = 0; i < count; i++) {
      const root = find(pairs.a[i]);
      cost.set(root, cost.get(root) + VERIFY_PAIR_COST);
      if ((i & 1023) === 1023) await pause();
    }
    // Longest processing time first: each component to the least loaded task.
    const roots = [...cost.keys()].sort((x, y) => cost.get(y) - cost.get(x));
    const taskCount = Math.min(roots.length, this.#size * VERIFY_TASKS_PER_WORKER);
    const load = new Float64Array(taskCount);
    const taskOf = new Map();
    for (const root of roots) {
      let best = 0;
      for (let t = 1; t < taskCount; t++) if (load[t] < load[best]) best = t;
      load[best] += cost.get(root);
      taskOf.set(root, best);
    }
    // Each task's pairs, in their order.
    const pairTask = new Uint32Array(count);
    const sizes = new Uint32Array(taskCount + 1);
    for (let i = 0; i < count; i++) {
      pairTask[i] = taskOf.get(find(pairs.a[i]));
      sizes[pairTask[i] + 1]++;
      if ((i & 1023) === 1023) await pause();
    }
    for (let t = 0; t < taskCount; t++) sizes[t + 1] += sizes[t];
    const order = new Uint32Array(count); // pair indices grouped by task
    const fill = sizes.slice(0, taskCount);
    for (let i = 0; i < count; i++) order[fill[pairTask[i]]++] = i;

    const keep = new Uint8Array(count);
    let done = 0;
    const tasks = [];
    const local = new Int32Array(total).fill(-1); // an item's index in its task's texts (one task per item)
    for (let t = 0; t < taskCount; t++) {
      const from = sizes[t];
      const to = sizes[t + 1];
      const localTexts = [];
      const localIndex = (item) => {
        if (local[item] < 0) local[item] = localTexts.push(texts[item]) - 1;
        return local[item];
      };
      const a = new Uint32Array(to - from);
      const b = new Uint32Array(to - from);
      for (let p = from; p < to; p++) {
        a[p - from] = localIndex(pairs.a[order[p]]);
        b[p - from] = localIndex(pairs.b[order[p]]);
        if ((p & 1023) === 1023) await pause();
      }
      const task = this.#task(job, { op: 'verify', texts: localTexts, a, b, minJaccard, shingle }).then((flags) => {
        for (let p = from; p < to; p++) keep[order[p]] = flags[p - from];
        done += to - from;
        job.report('verify', done, count);
      });
      task.catch(() => {}); // handled by Promise.all below, which may be reached only later
      tasks.push(task);
    }
    await job.guard(Promise.all(tasks));
    let kept = 0;
    for (let i = 0; i < count; i++) kept += keep[i];
    const out = { a: new Uint32Array(kept), b: new Uint32Array(kept) };
    for (let i = 0, j = 0; i < count; i++) {
      if (!keep[i]) continue;
      out.a[j] = pairs.a[i];
      out.b[j++] = pairs.b[i];
    }
    return out;
  }

  /** The result's plain arrays from a group layout, a slice at a time, yielding between slices. */
  async #result(job, items, { unique, groupStarts, groupItems }) {
    const uniqueIndices = new Array(unique.length);
    const uniqueItems = new Array(unique.length);
    const groups = new Array(groupStarts.length - 1);
    const entries = unique.length + groups.length;
    let sliceStart = now();
    for (let from = 0; from < entries; from += RESULT_SLICE) {
      const to = Math.min(entries, from + RESULT_SLICE);
      for (let i = from; i < Math.min(to, unique.length); i++) {
        uniqueIndices[i] = unique[i];
        uniqueItems[i] = items[unique[i]];
      }
      for (let g = Math.max(from, unique.length) - unique.length; g < to - unique.length; g++) {
        groups[g] = Array.from(groupItems.subarray(groupStarts[g], groupStarts[g + 1]));
      }
      if (to < entries && now() - sliceStart >= SLICE_MS) {
        job.tick();
        await job.guard(yieldToEventLoop());
        job.check();
        sliceStart = now();
      }
    }
    return { unique: uniqueItems, uniqueIndices, groups };
  }

  /** Stops every worker; pending calls reject, later calls throw. */
  async terminate() {
    if (this.#terminated) return;
    this.#terminated = true;
    const error = new Error('this pool has been terminated');
    for (const job of [...this.#jobs]) job.fail(error);
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

if (Symbol.asyncDispose) SimHashPool.prototype[Symbol.asyncDispose] = SimHashPool.prototype.terminate;

/**
 * The parent's Node options minus those about the parent's own entry (`node --input-type=module
 * -e ...` would make the worker refuse its file); the rest, e.g. memory limits, carry over.
 */
function workerExecArgv(execArgv) {
  const out = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (['--input-type', '-e', '--eval', '-p', '--print'].includes(arg)) i++;
    else if (!/^--(input-type|eval|print)=/.test(arg)) out.push(arg);
  }
  return out;
}

const KNOWN = ['size', 'wasmBinary', 'locateFile'];

/**
 * Starts a pool of `size` workers (default: the number of logical cores) and resolves
 * once each has loaded the WASM module.
 */
export async function createPool(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
  for (const name of Object.keys(options)) {
    if (!KNOWN.includes(name)) throw new TypeError(`options.${name} is not an option (known: ${KNOWN.join(', ')})`);
  }
  const { size, wasmBinary, locateFile } = options;
  if (size !== undefined) {
    if (typeof size !== 'number') throw new TypeError(`options.size must be a number, got ${typeName(size)}`);
    if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) throw new RangeError(`options.size must be an integer from 1 to ${MAX_SIZE}, got ${size}`);
  }
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError(`options.wasmBinary must be an ArrayBuffer or a Uint8Array, got ${typeName(wasmBinary)}`);
  }
  if (locateFile !== undefined && typeof locateFile !== 'function') throw new TypeError(`options.locateFile must be a function, got ${typeName(locateFile)}`);

  let spawn;
  let count = size;
  const init = {};
  if (wasmBinary) init.wasmBinary = wasmBinary;
  if (isNode) {
    const [{ Worker }, os] = await Promise.all([nodeModule('node:worker_threads'), nodeModule('node:os')]);
    count ??= os.availableParallelism?.() ?? os.cpus().length;
    if (!wasmBinary) {
      const { readFile } = await nodeModule('node:fs/promises');
      init.wasmBinary = await readFile(new URL(WASM_PATH, import.meta.url));
    }
    const file = new URL(WORKER_FILE, import.meta.url);
    const execArgv = workerExecArgv(process.execArgv);
    spawn = () => new Worker(file, { execArgv });
  } else {
    // One core is left to the page: with every core busy in workers, the main thread is
    // starved (Chromium on 2 cores, the browser pool test: with 2 workers, 50-52 ms tasks in
    // 2 of 8 runs of its 20,000-item page and the 200,000-item dedup in 811-1040 ms; with 1,
    // none in 10 runs and 957-1229 ms).
    count ??= Math.max(1, (globalThis.navigator?.hardwareConcurrency || 4) - 1);
    if (locateFile && !wasmBinary) {
      // Functions cannot reach a worker: resolve the URL here, against this page.
      const scriptDirectory = import.meta.url.slice(0, import.meta.url.lastIndexOf('/') + 1) + 'wasm/';
      init.wasmUrl = new URL(locateFile(WASM_FILE, scriptDirectory), globalThis.location?.href ?? import.meta.url).href;
    }
    spawn = () => new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' });
  }
  const pool = new SimHashPool(Math.min(count, MAX_SIZE), init, spawn);
  await pool._start();
  return pool;
}
