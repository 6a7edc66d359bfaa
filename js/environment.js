// What the pool needs to know about where it runs: Node (worker_threads) or a browser
// (Web Workers). Node built-ins are reached only through nodeModule, hidden from bundlers.

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string'
  && typeof WorkerGlobalScope === 'undefined';

/** A Node built-in module, hidden from bundlers (this code never runs in a browser). */
export function nodeModule(name) {
  return process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}
