// Types of `simhash-wasm/worker`: the single-threaded API of `simhash-wasm` run in a pool of
// Web Workers (browsers, bundlers) or worker_threads (Node).
import type { DedupOptions, DedupResult, FingerprintOptions, Pairs, Progress, RecordDedupOptions, RecordDedupResult, RecordLinkOptions, RecordLinkResult } from './index.js';

export type {
  DedupOptions, DedupResult, FingerprintOptions, Measure, Pairs, Progress, ReviewPair, LookAlikeDifference, WordWeights, WordWeightsData,
  FieldKind, FieldLevel, RecordDedupOptions, RecordDedupResult, RecordLinkOptions, RecordLinkResult, RecordModel, RecordReviewPair,
} from './index.js';

/**
 * `[Symbol.asyncDispose](): Promise<void>` (so `await using pool = await createPool()`)
 * where the TypeScript lib declares `Symbol.asyncDispose` (lib `esnext.disposable` or
 * later, or @types/node); elsewhere nothing, and no lib is required. The method exists at
 * runtime wherever the engine has `Symbol.asyncDispose`.
 */
type AsyncDisposableWhereTyped = {
  [K in SymbolConstructor extends { readonly asyncDispose: infer K extends symbol } ? K : never]: () => Promise<void>;
};

export interface PoolOptions {
  /**
   * Number of workers, 1..1024. Default: `navigator.hardwareConcurrency - 1` (at least 1)
   * in browsers, leaving a core to the page; `os.availableParallelism()` in Node.
   */
  size?: number;
  /** The bytes of `simhash_core.wasm`; copied to each worker. In Node the pool reads the file itself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where to fetch `simhash_core.wasm` from (browsers), when you host it yourself. Called once,
   * on the calling thread; a relative result is resolved against the page's URL.
   */
  locateFile?: (file: string, scriptDirectory: string) => string;
}

/** Progress and cancellation of one pool call (`fingerprintAll`, `findPairs`). */
export interface TaskOptions {
  /**
   * Called as work proceeds, and at least every 100 ms while the call runs (repeating the
   * last report during one long WASM call, such as the pair search).
   * `fingerprintAll` reports phase 'fingerprint'; `findPairs` reports 'pairs' in thousandths
   * (done of total 1000) as the workers search, ending with 1000/1000.
   */
  onProgress?: (progress: Progress) => void;
  /** Aborting rejects the promise at once with the signal's reason and stops the workers running the call. */
  signal?: AbortSignal;
}

/**
 * A pool of workers, each with its own WASM instance. Every method returns the same values,
 * bit for bit and in the same order, as the method of the same name on `SimHash`. Calls may
 * overlap; their tasks share the workers first come, first served.
 */
export interface SimHashPool extends AsyncDisposableWhereTyped {
  /**
   * Number of workers. A worker stopped by a cancellation, or replaced because its WASM
   * memory grew past 64 MiB (it never shrinks), is started again when there is work.
   */
  readonly size: number;
  /**
   * `SimHash#fingerprintAll` spread across the workers: the strings go to them in chunks
   * (at most 2048 texts or 512K UTF-16 code units each), the fingerprints come back by
   * transfer. `options.idf` (weights learned on the calling thread) reaches each worker once,
   * as `idf.toBytes()`.
   */
  fingerprintAll(texts: string[], options?: FingerprintOptions, task?: TaskOptions): Promise<BigUint64Array>;
  /**
   * `SimHash#findPairs` split across the workers: each gets a copy of the fingerprints by
   * transfer, collapses identical ones, searches a disjoint shard of the distinct ones and
   * lists that shard's pairs of items, sorted; the calling thread merges the lists a slice
   * at a time. A BigUint64Array argument is copied first: yours stays usable.
   */
  findPairs(fingerprints: BigUint64Array | bigint[], maxDistance?: number, task?: TaskOptions): Promise<Pairs>;
  /**
   * `SimHash#dedup`, with the same options and results: identical texts collapsed on the
   * calling thread, fingerprints across the workers, then the pair search (and its
   * verification by similarity, for which the distinct texts go to the workers) split
   * across the workers, with the groups formed on the calling thread a slice at a time;
   * the leader grouping runs in one worker instead when its search would not list pairs
   * (dense near-duplicates, docs/search-engine.md "The worker pool"), and so does every search in a pool of
   * one worker. `key` runs on the calling thread (items never leave it; their texts do).
   * Progress: 'fingerprint' per finished chunk, 'pairs' in thousandths (of 1000), 'groups'
   * 1/1, and at least every 100 ms throughout. Aborting stops the workers running this call.
   */
  dedup(items: string[], options?: DedupOptions<string>): Promise<DedupResult<string>>;
  dedup<T>(items: T[], options: DedupOptions<T> & { key: (item: T, index: number) => string }): Promise<DedupResult<T>>;
  /**
   * `SimHash#dedup` of records (plain objects, no `key`; README "Records"), with the same
   * options and results, run in one worker: the arguments are checked here, each row's own
   * columns (those `fields` names, when it names them) go to the worker as the text dedup
   * reads in each cell, and `unique` holds your own rows. Progress: 'fields' 0/1, then the
   * worker's 'fields', 'candidates' and 'groups' in thousandths (of 1000), 'groups' 1/1 last.
   * Aborting stops the worker.
   */
  dedup<T extends object>(rows: T[], options?: RecordDedupOptions<T>): Promise<RecordDedupResult<T>>;
  /** `SimHash#link` of two lists of records, with the same options and result, run in one worker as `dedup` of records is. */
  link<L extends object, R extends object>(left: L[], right: R[], options?: RecordLinkOptions<L & R>): Promise<RecordLinkResult>;
  /** Stops every worker and frees its memory. Pending calls reject; later calls reject. Safe to call twice. */
  terminate(): Promise<void>;
}

/**
 * Starts a pool and resolves once every worker has loaded the WASM module (so a missing or
 * blocked `.wasm` rejects here). Arguments are checked as in `simhash-wasm`: wrong types
 * TypeError, out-of-range values RangeError, naming the argument.
 * In Node, idle workers do not keep the process running; `terminate()` frees them at once.
 */
export function createPool(options?: PoolOptions): Promise<SimHashPool>;
