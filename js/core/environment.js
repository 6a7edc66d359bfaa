// What differs between the places the package runs (browsers, workers, bundlers, Node),
// in one module that the entries, the pool and its workers import.

// `process` is reached as globalThis.process: a free `process` makes Parcel install and
// bundle a polyfill for browser builds.

/** Whether this is Node's main thread or a worker_threads worker (not a Web Worker). */
export const isNode = typeof globalThis.process?.versions?.node === 'string' && typeof WorkerGlobalScope === 'undefined';

/**
 * A Node built-in module. Bundlers building for browsers must not follow it: the name is a
 * variable, and the import carries the ignore comments webpack and Vite honour.
 */
export function nodeModule(name) {
  return globalThis.process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}

/**
 * The Error for a WebAssembly module that could not be loaded from `url` (absolute; null
 * when the caller passed the bytes): it names the URL, says why when a second request can
 * tell (an HTTP status, or a response that is not WebAssembly, such as an HTML page), and
 * how to fix it (the options of init() and createPool()). `error`, the glue's own (often a
 * bare abort), is its cause.
 */
export async function wasmLoadError(error, url) {
  // The glue's aborts end ". Build with -s ASSERTIONS=1 for more info.", advice meant for
  // this package's builders.
  let why = String(error?.message ?? error).replace(/^Aborted\((.*)\)\. Build with.*$/s, '$1');
  try {
    const response = await fetch(url);
    const head = String.fromCharCode(...new Uint8Array(await response.arrayBuffer()).subarray(0, 4));
    if (!response.ok) why = `HTTP ${response.status}`;
    else if (head !== '\0asm') why = `not WebAssembly: it starts with ${JSON.stringify(head)}`;
  } catch {
    // No url, or no answer: the glue's reason stands.
  }
  return new Error(`simhash-wasm: could not load ${url ?? 'options.wasmBinary'} (${why}); `
    + 'options.locateFile says where js/wasm/simhash_core.wasm is served, options.wasmBinary passes its bytes', { cause: error });
}

// V8's memory flags, which worker threads refuse in execArgv, and the resourceLimits field
// each maps to: heap sizes in MB (the young generation is three semi-spaces), the stack
// in KB.
const MEMORY_FLAGS = {
  'max-old-space-size': (mb) => ({ maxOldGenerationSizeMb: mb }),
  'max-semi-space-size': (mb) => ({ maxYoungGenerationSizeMb: 3 * mb }),
  'stack-size': (kb) => ({ stackSizeMb: kb / 1024 }),
};
// Options about the parent's own entry: with them (`node --input-type=module -e ...`) a
// worker would refuse its file. Those with a separate value take the next argument.
const ENTRY_FLAGS = ['--input-type', '-e', '--eval', '-p', '--print'];

/**
 * The options of a Node worker from its parent's execArgv: the flags a worker thread can
 * take carry over, memory flags become resourceLimits, flags about the parent's entry are
 * dropped. Which other flags a worker refuses is known only to Node, so spawnNodeWorker
 * drops those when a Worker names them.
 */
export function nodeWorkerOptions(execArgv) {
  const flags = [];
  const resourceLimits = {};
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (ENTRY_FLAGS.includes(arg)) {
      i++;
      continue;
    }
    if (/^--(input-type|eval|print)=/.test(arg)) continue;
    const memory = /^--([a-z_-]+)=(\d+(?:\.\d+)?)$/.exec(arg);
    const limit = memory && MEMORY_FLAGS[memory[1].replaceAll('_', '-')];
    if (limit) Object.assign(resourceLimits, limit(Number(memory[2])));
    else flags.push(arg);
  }
  return { execArgv: flags, resourceLimits };
}

/**
 * new Worker(file, options), retried without the execArgv flags that Node says a worker
 * thread refuses (ERR_WORKER_INVALID_EXEC_ARGV: --title, --expose-gc, ...); options.execArgv
 * is updated so that later workers start at once.
 */
export function spawnNodeWorker(Worker, file, options) {
  for (;;) {
    try {
      return new Worker(file, options);
    } catch (error) {
      if (error?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || options.execArgv.length === 0) throw error;
      const refused = new Set(String(error.message).split(': ').slice(1).join(': ').split(', ').map((flag) => flag.trim()));
      const kept = options.execArgv.filter((flag) => !refused.has(flag));
      options.execArgv = kept.length < options.execArgv.length ? kept : [];
    }
  }
}
