// The worker of `simhash-wasm/worker` (pool/scheduler.js): one WASM instance per worker,
// driven by messages. The same file runs as a Web Worker module in browsers (created with
// `new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' })`, which
// bundlers follow) and as a worker_threads worker in Node.
//
// Messages in: { id, op: 'init', wasmBinary?, wasmUrl? } first, then
//   { id, op: 'fingerprint', texts, options, idf? }              -> BigUint64Array
//   { id, op: 'fingerprintEncoded', utf8, bounds, options, idf? } -> BigUint64Array (text.js encodeTexts' layout)
//   { id, op: 'group', fingerprints, texts?, k, similarity, banding, records, grouping, review, reviewLimit }
//     -> { fingerprints, labels, review } (fingerprints null when banding: the texts alone decide)
//     (dedup's search over distinct texts: dedup.js searchLabels; texts when similarity > 0,
//     as { utf8, bounds }: pool/search.js encodeTextsPaced),
//     with progress messages { id, progress, phase } (thousandths done of 'pairs' or
//     'review') after each slice
//   { id, op: 'review', texts, labels, review, reviewLimit } -> the review pairs
//     of those groups (review-pairs.js searchReview), with progress messages as 'group'
//   { id, op: 'pairShard', fingerprints, maxDistance, shard, shards, texts?, similarity, maxCandidates }
//     -> { words, candidates } (pairs.js searchShard: one shard's pairs, verified by
//     similarity when it is above 0; words null past maxCandidates), with progress
//     messages { id, progress } (the shard's fraction done) after each slice
//   { id, op: 'itemPairShard', fingerprints, maxDistance, shard, shards, maxPairs }
//     -> { words, total, repeated } (pairs.js searchItemShard: one shard of findPairs over
//     items, fingerprints repeated or not; words null past maxPairs), with progress messages
//   { id, op: 'leaderOfPairs', count, words } -> labels (pairs.js leaderOfPairs: the core's leader
//     rule over (a, b, distance) words)
//   { id, op: 'leaderPath', fingerprints, maxDistance, items } -> { pairs, maxCandidates } (pairs.js
//     leaderUsesPairs, and leaderPairBound of `items`)
//   { id, op: 'records', columns, cells, count, left?, options } -> dedup's result of records
//     without `unique` (records.js dedupRecords; the rows' text cells by column
//     (simhash-pool.js recordColumns), options { fields, probability, review,
//     reviewLimit } checked by the calling thread), or with `left` link's of rows' first `left`
//     and the rest (linkRecords), with progress messages { id, progress, phase } (thousandths
//     done of 'fields', 'candidates' or 'groups'); and asks { id, ask, ticket }, ask
//     { op: 'similarPairs', … }, that another worker run a search (records/candidates.js
//     similarCandidates' helper), answered { op: 'answer', ticket, result }, result
//     null when no worker was idle to take it or it failed (this worker then runs it itself)
//   { id, op: 'similarPairs', texts, measure, similarity, weights } -> { a, b }
//     (candidates.js searchSimilarPairs of the texts { utf8, bounds }; weights as toData()
//     gives them, or null), with progress messages as 'group' ('candidates')
// `idf` is { id, bytes?, drop? }: IdfWeights are loaded once per worker from their bytes and
// kept under the id given by the calling thread, which also says which to drop.
// Messages out: { id, ok: true, result, memoryBytes } or { id, ok: false, error: { name, message } },
// and before them, for some ops, { id, progress, phase? }. A WebAssembly trap leaves this worker's
// instance unusable (js/core/traps.js): the reply then says `trapped: true`, the scheduler
// replaces the worker, and any later message here gets the same error.
// Typed arrays travel by transfer both ways.
//
// No top-level await and no static import of Node modules: bundlers build this file for
// browsers (Vite as an IIFE worker by default).
import createSimhashCore from '../wasm/simhash_core.mjs';
import { isNode, nodeModule, wasmLoadError } from '../core/environment.js';
import { fingerprintAll, fingerprintEncoded } from '../bindings/fingerprints.js';
import { listForms, memoryBytes } from '../bindings/memory.js';
import { useListForms } from '../core/legal-forms.js';
import { searchLabels } from '../dedup/dedup.js';
import { idfHandle, loadIdf } from '../bindings/idf.js';
import { checkOptions } from '../bindings/options.js';
import { Pacer } from '../core/pacing.js';
import { leaderOfPairs, leaderPairBound, leaderUsesPairs, searchItemShard, searchShard } from '../bindings/pairs.js';
import { searchReview } from '../bindings/review-pairs.js';
import { withSimilarity } from '../bindings/shingle-sets.js';
import { trustedWeights } from '../bindings/word-weights.js';
import { dedupRecords, linkRecords } from '../records/records.js';
import { searchSimilarPairs } from '../records/candidates.js';
import { encodeTexts } from '../core/text.js';

let core;
let ready;
let trap; // the error data of the trap that made this worker's instance unusable
/**
 * Distinct texts from which a records search runs in a helper (another worker) while this
 * worker proposes the keys' pairs: fewer cost more to post than they save.
 */
const HELPED_FROM = 20000;
const idfs = new Map(); // id from the calling thread -> IdfWeights of this worker's instance

function load({ wasmBinary, wasmUrl }) {
  const moduleOptions = {};
  if (wasmBinary) moduleOptions.wasmBinary = wasmBinary;
  // The .wasm where the calling thread located it, and the Han table beside it.
  if (wasmUrl) moduleOptions.locateFile = (file) => (file.endsWith('.wasm') ? wasmUrl : new URL(file, wasmUrl).href);
  return createSimhashCore(moduleOptions).then((instance) => {
    core = instance;
    useListForms(listForms(core));
    // Node's fetch() takes no file: URL (han-table.js).
    if (isNode) core.fetchHanTable = async () => (await nodeModule('node:fs/promises')).readFile(new URL(core.hanTableUrl));
  }, async (error) => {
    throw await wasmLoadError(error, wasmBinary ? null : wasmUrl ?? new URL('../wasm/simhash_core.wasm', import.meta.url).href);
  });
}

/** The options with `idf` replaced by this worker's copy of the weights. */
function workerOptions(options, idf) {
  if (!idf) return options;
  if (idf.drop !== undefined) {
    idfs.get(idf.drop)?.dispose();
    idfs.delete(idf.drop);
  }
  if (idf.bytes) idfs.set(idf.id, loadIdf(core, idf.bytes));
  const weights = idfs.get(idf.id);
  if (!weights) throw new Error(`simhash-wasm worker: IDF weights ${idf.id} were not sent`);
  return { ...options, idf: weights };
}

/** A Pacer that reports each slice's progress in thousandths, with its phase. Slices only matter on a page's thread: here they run back to back. */
function progressPacer(progress) {
  return new Pacer({ sliceMs: Infinity, onProgress: ({ phase, done, total }) => progress(Math.floor((done / total) * 1000), phase) });
}

/** The buffers of searchReview's pairs, to transfer. */
function reviewBuffers(pairs) {
  return pairs ? [pairs.a.buffer, pairs.b.buffer, pairs.similarity.buffer] : [];
}

const OPS = {
  fingerprint({ texts, options, idf }) {
    const fingerprints = fingerprintAll(core, texts, workerOptions(options, idf));
    return [fingerprints, [fingerprints.buffer]];
  },
  fingerprintEncoded({ utf8, bounds, options, idf }) {
    const o = workerOptions(options, idf);
    const fingerprints = fingerprintEncoded(core, utf8, bounds, checkOptions(o), o?.idf ? idfHandle(o.idf, core, 'options.idf') : 0);
    return [fingerprints, [fingerprints.buffer]];
  },
  async group({ fingerprints, texts, k, similarity, measure, weights, banding, records, grouping, review, reviewLimit }, progress) {
    const search = { k, similarity, measure, weights: weights && trustedWeights(weights), banding, records, grouping, review, reviewLimit };
    const grouped = await searchLabels(core, texts ?? [], fingerprints, search, progressPacer(progress));
    const transfer = [grouped.labels.buffer, ...reviewBuffers(grouped.review)];
    const reply = { fingerprints, ...grouped, weights: grouped.weights && grouped.weights.toData() };
    return [reply, fingerprints ? [fingerprints.buffer, ...transfer] : transfer];
  },
  async review({ texts, labels, review, reviewLimit, measure }, progress) {
    const pacer = progressPacer(progress);
    const pairs = await withSimilarity(core, texts, (sets) => searchReview(core, sets, labels, { review, reviewLimit }, pacer, 'review'),
      undefined, measure);
    return [pairs, reviewBuffers(pairs)];
  },
  async pairShard({ fingerprints, maxDistance, shard, shards, texts, similarity, measure, maxCandidates }, progress) {
    const search = (sets = 0) => searchShard(core, fingerprints, maxDistance, shard, shards, { sets, similarity, maxCandidates }, progress);
    const result = similarity > 0 ? await withSimilarity(core, texts, search, undefined, measure) : await search();
    return [result, result.words ? [result.words.buffer] : []];
  },
  async itemPairShard({ fingerprints, maxDistance, shard, shards, maxPairs }, progress) {
    const result = await searchItemShard(core, fingerprints, maxDistance, shard, shards, maxPairs, progress);
    return [result, result.words ? [result.words.buffer] : []];
  },
  leaderOfPairs({ count, words }) {
    const labels = leaderOfPairs(core, count, words);
    return [labels, [labels.buffer]];
  },
  async leaderPath({ fingerprints, maxDistance, items }) {
    return [{ pairs: await leaderUsesPairs(core, fingerprints, maxDistance), maxCandidates: leaderPairBound(core, items) }, []];
  },
  async records({ columns, cells, count, left, options }, progress, ask) {
    const rows = rowsOfColumns(columns, cells, count);
    const onProgress = ({ phase, done, total }) => progress(Math.floor((done / total) * 1000), phase);
    // A search another worker may run, from HELPED_FROM texts: the texts travel as bytes,
    // the weights as their data.
    const helper = (distinct, measure, similarity, weights) => {
      if (distinct.length < HELPED_FROM) return null;
      const texts = encodeTexts(distinct);
      return ask({ op: 'similarPairs', texts, measure, similarity, weights: weights && weights.toData() }, [texts.utf8.buffer, texts.bounds.buffer]);
    };
    if (left !== undefined) return [await linkRecords(core, rows.slice(0, left), rows.slice(left), { ...options, onProgress }, helper), []];
    const { unique, ...result } = await dedupRecords(core, rows, { ...options, onProgress }, helper); // the calling thread has the rows
    return [result, []];
  },
  async similarPairs({ texts, measure, similarity, weights }, progress) {
    const { a, b } = await searchSimilarPairs(core, texts, texts.bounds.length - 1, measure, similarity, weights && trustedWeights(weights), progressPacer(progress));
    return [{ a, b }, [a.buffer, b.buffer]];
  },
};

const asked = new Map(); // ticket -> the resolve of an ask awaiting its answer
let nextTicket = 1;

/** Asks the calling thread, for task `id`, that another worker run `message`: a promise of its result, or of null when none takes it. */
function askCalling(id, message, transfer, reply) {
  const ticket = nextTicket++;
  return new Promise((resolve) => {
    asked.set(ticket, resolve);
    reply({ id, ask: message, ticket }, transfer);
  });
}

/**
 * The rows of simhash-pool.js recordColumns' columns: each row's cells under their columns'
 * names, in the columns' order (the order in which they first appear in the rows, which
 * fields.js reads again).
 */
function rowsOfColumns(columns, cells, count) {
  const rows = [];
  for (let i = 0; i < count; i++) rows.push({});
  columns.forEach((column, c) => {
    for (let i = 0; i < count; i++) rows[i][column] = cells[c][i];
  });
  return rows;
}

function errorData(error) {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

function handle(message, reply) {
  const { id, op } = message;
  if (op === 'answer') {
    asked.get(message.ticket)?.(message.result);
    asked.delete(message.ticket);
    return;
  }
  if (op === 'init') {
    ready = load(message);
    ready.then(() => reply({ id, ok: true }), (error) => reply({ id, ok: false, error: errorData(error) }));
    return;
  }
  ready.then(async () => {
    if (trap) throw trap;
    const [result, transfer] = await OPS[op](message, (progress, phase) => reply({ id, progress, phase }),
      (ask, transfer) => askCalling(id, ask, transfer, reply));
    reply({ id, ok: true, result, memoryBytes: memoryBytes(core) }, transfer);
  }).catch((error) => {
    if (error instanceof WebAssembly.RuntimeError) {
      trap ??= new Error(`simhash-wasm worker: ${op} hit a WebAssembly trap (${error.message}); the pool replaces the worker`);
    }
    reply({ id, ok: false, error: errorData(trap ?? error), trapped: trap !== undefined });
  });
}

if (isNode) {
  Promise.resolve(nodeModule('node:worker_threads')).then(({ parentPort }) => {
    parentPort.on('message', (message) => handle(message, (data, transfer) => parentPort.postMessage(data, transfer)));
  });
} else {
  self.onmessage = (event) => handle(event.data, (data, transfer) => self.postMessage(data, transfer));
}
