// createPool: starts the pool of `simhash-wasm/worker`, the API of simhash.js run in Web Workers
// (browsers) or worker_threads (Node). Cancellation terminates the workers running the job
// (freeing their memory) and rejects at once; the pool starts new workers when it next has
// work.
import { checkInteger, checkKnownKeys, checkObject, typeName } from '../core/checks.js';
import { isNode, nodeModule, nodeWorkerOptions, spawnNodeWorker } from '../core/environment.js';
import { SimHashPool } from './simhash-pool.js';
import { Scheduler } from './scheduler.js';

const MAX_SIZE = 1024;
const POOL_OPTIONS = ['size', 'wasmBinary', 'locateFile'];

// Paths held in variables so that bundlers do not take the Node-only `new URL(...)` calls
// below for assets; the browser's worker URL is the literal pattern they do follow.
const WORKER_FILE = './pool-worker.js';
const WASM_FILE = 'simhash_core.wasm';
const WASM_PATH = '../wasm/simhash_core.wasm';

/**
 * Starts a pool of `size` workers (default: the number of logical cores in Node, one less
 * in browsers) and resolves once each has loaded the WASM module.
 */
export async function createPool(options) {
  const o = checkObject(options, 'options');
  checkKnownKeys(o, 'options', POOL_OPTIONS);
  const { size, wasmBinary, locateFile } = o;
  if (size !== undefined) checkInteger(size, 'options.size', 1, MAX_SIZE);
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
      init.wasmBinary = await readFile(new URL(/* webpackIgnore: true */ WASM_PATH, import.meta.url));
    }
    const file = new URL(/* webpackIgnore: true */ WORKER_FILE, import.meta.url);
    const workerOptions = nodeWorkerOptions(globalThis.process.execArgv);
    spawn = () => spawnNodeWorker(Worker, file, workerOptions);
  } else {
    // One core is left to the page: with every core busy in workers, the page's thread is
    // starved of time and its tasks grow long.
    count ??= Math.max(1, (globalThis.navigator?.hardwareConcurrency || 4) - 1);
    if (locateFile && !wasmBinary) {
      // Functions cannot reach a worker: resolve the URL here, against this page.
      const scriptDirectory = new URL('../wasm/', import.meta.url).href;
      init.wasmUrl = new URL(locateFile(WASM_FILE, scriptDirectory), globalThis.location?.href ?? import.meta.url).href;
    }
    spawn = () => new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' });
  }
  // Where unbundled code (and esbuild or Rollup output) looks for the worker script, for messages.
  const workerUrl = new URL(/* webpackIgnore: true */ WORKER_FILE, import.meta.url).href;
  const scheduler = new Scheduler(Math.min(count, MAX_SIZE), init, spawn, workerUrl);
  await scheduler.startAll();
  return new SimHashPool(scheduler);
}
