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
