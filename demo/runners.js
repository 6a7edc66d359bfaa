// Where an analysis runs: the same Engine (engine.js) on this page or in the demo's Web
// Worker (worker.js), behind one asynchronous interface:
//   analyze(texts, settings, onProgress) → the result of Engine.analyze
//   analyzeRecords(records, onProgress)  → the result of Engine.analyzeRecords (two files' links with records.left)
//   group(view)                          → the result of Engine.group, for the last analysis
//   cancel()                             → the running call rejects with an AbortError
//   where                                → the place, in words
import { init } from 'simhash-wasm';
import { Engine } from './engine.js';

/** The page's Engine, loading from the start; the page is ready when it resolves. */
export const pageEngine = init().then((sh) => new Engine(sh));

class PageRunner {
  #controller = null;
  where = 'on this page';

  async analyze(texts, settings, onProgress) {
    this.#controller = new AbortController();
    return (await pageEngine).analyze(texts, settings, { onProgress, signal: this.#controller.signal });
  }

  async analyzeRecords(records, onProgress) {
    this.#controller = new AbortController();
    return (await pageEngine).analyzeRecords(records, { onProgress, signal: this.#controller.signal });
  }

  async group(view) {
    return (await pageEngine).group(view);
  }

  cancel() {
    this.#controller?.abort(new DOMException('Cancelled', 'AbortError'));
  }
}

/** The worker's protocol is worker.js's; the worker starts with the first call. */
class WorkerRunner {
  #worker = null;
  #pending = new Map();
  #next = 1;
  where = 'in a Web Worker';

  /** Whether the worker still holds the last analysis (cancelling terminates it). */
  get alive() {
    return this.#worker !== null;
  }

  #start() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'simhash-demo' });
    worker.onmessage = ({ data }) => {
      const call = this.#pending.get(data.id);
      if (!call) return;
      if (data.type === 'progress') {
        call.onProgress?.(data.progress);
        return;
      }
      this.#pending.delete(data.id);
      if (data.type === 'done') call.resolve(data.result);
      else call.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new Error(`the worker failed: ${event.message || 'it could not start'}`));
    };
    worker.onmessageerror = () => this.#fail(new Error('the worker sent a message that could not be read'));
    this.#worker = worker;
  }

  #call(message, onProgress) {
    if (!this.#worker) this.#start();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ id, ...message });
    });
  }

  analyze(texts, settings, onProgress) {
    return this.#call({ type: 'analyze', texts, settings }, onProgress);
  }

  analyzeRecords(records, onProgress) {
    return this.#call({ type: 'records', records }, onProgress);
  }

  group(view) {
    if (!this.#worker) return Promise.reject(new Error('the worker was stopped'));
    return this.#call({ type: 'group', view });
  }

  #fail(error) {
    this.#worker?.terminate();
    this.#worker = null;
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }

  /** Stops at once, even inside a long WebAssembly call; the next call starts a new worker. */
  cancel() {
    this.#fail(new DOMException('Cancelled', 'AbortError'));
  }
}

export const pageRunner = new PageRunner();
export const workerRunner = new WorkerRunner();
