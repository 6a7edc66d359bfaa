// Node's loading of a WebAssembly module the build made (its glue's factory and its .wasm
// file): one SimHash per module, made once; js/node.js loads the module every entry shares,
// simhash-wasm/redis the one with the shared index's calls too (CMakeLists.txt).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SimHash } from './simhash.js';
import { isUsable } from './core/traps.js';
import { wasmLoadError } from './core/environment.js';

const tableFile = fileURLToPath(new URL('./wasm/han_variants.bin', import.meta.url));

/** `core`, reading the short measure's Han table (han-table.js) from the package when a call first needs it: every module built of the core installs the same. */
export function readsHanTable(core) {
  core.readHanTable = () => readFileSync(tableFile);
  return core;
}

/**
 * init() of the module made by `createCore` from the file at `wasmUrl` (options.wasmBinary
 * instead, when given): later calls return the same instance, or a new one once it is
 * unusable (a WebAssembly trap: README "Errors and memory"); a failed load may be retried.
 */
export function nodeLoader(createCore, wasmUrl) {
  let instance;
  let loaded; // the instance once it has loaded
  return (options = {}) => {
    if (loaded && !isUsable(loaded)) instance = loaded = undefined;
    instance ??= load(createCore, wasmUrl, options).then((core) => (loaded = new SimHash(readsHanTable(core))));
    instance.catch(() => { instance = undefined; });
    return instance;
  };
}

async function load(createCore, wasmUrl, options) {
  if (options.wasmBinary) {
    try {
      return await createCore({ ...options });
    } catch (error) {
      throw await wasmLoadError(error, null);
    }
  }
  const file = fileURLToPath(wasmUrl);
  try {
    return await createCore({ ...options, wasmBinary: await readFile(file) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`simhash-wasm: could not load its WebAssembly module ${file} (${reason}); reinstall the package, or pass the bytes: init({ wasmBinary })`, { cause: error });
  }
}
