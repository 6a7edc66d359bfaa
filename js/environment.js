// What the pool needs to know about where it runs: Node (worker_threads) or a browser
// (Web Workers). Node built-ins are reached only through nodeModule, hidden from bundlers.

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string'
  && typeof WorkerGlobalScope === 'undefined';

/** A Node built-in module, hidden from bundlers (this code never runs in a browser). */
export function nodeModule(name) {
  return process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
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
