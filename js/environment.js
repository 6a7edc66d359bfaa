// What differs between the places the package runs (browsers, workers, bundlers, Node),
// in one module that the entries, the pool and its workers import.

/** Whether this is Node's main thread or a worker_threads worker (not a Web Worker). */
export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string'
  && typeof WorkerGlobalScope === 'undefined';

/**
 * A Node built-in module. Bundlers building for browsers must not follow it: the name is a
 * variable, and the import carries the ignore comments webpack and Vite honour.
 */
export function nodeModule(name) {
  return process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/**
 * The Error for a WebAssembly module that could not be loaded from `url` (an absolute URL,
 * or null when the caller passed the bytes): it names the URL, says why when a second
 * request can tell (an HTTP status, or a response that is not WebAssembly, such as an
 * HTML page), and how to fix it. `error` (the glue's own, often a bare abort) is the cause.
 */
export async function wasmLoadError(error, url) {
  // The glue's aborts read "Aborted(why). Build with -s ASSERTIONS=1 for more info.", advice
  // meant for this package's builders; only `why` is kept.
  const reason = (error instanceof Error ? error.message : String(error))
    .replace(/^Aborted\((.*)\)\. Build with -s ASSERTIONS=1 for more info\.$/s, '$1');
  if (url === null) {
    return new Error(`simhash-wasm: options.wasmBinary is not a WebAssembly module this version can use (${reason}); pass the bytes of this package's js/wasm/simhash_core.wasm`, { cause: error });
  }
  let why = reason;
  if (typeof fetch === 'function') {
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) {
        why = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      } else {
        const head = new Uint8Array(await response.arrayBuffer(), 0, 4);
        if (!WASM_MAGIC.every((byte, i) => head[i] === byte)) {
          why = `the response is not WebAssembly: it starts with ${JSON.stringify(String.fromCharCode(...head))}${response.headers.get('content-type') ? ` and is ${response.headers.get('content-type')}` : ''}`;
        }
      }
    } catch (fetchError) {
      why = `the request failed: ${fetchError.message}`;
    }
  }
  return new Error(`simhash-wasm: could not load its WebAssembly module from ${url} (${why}). `
    + 'Serve the package\'s js/wasm/simhash_core.wasm at that URL (bundlers: see "Browsers and bundlers" in the README), '
    + "or say where it is: init({ locateFile: (file) => '/path/to/' + file }), or pass its bytes: init({ wasmBinary })", { cause: error });
}
