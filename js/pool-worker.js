// The worker of `simhash-wasm/worker` (pool-scheduler.js): one WASM instance per worker,
// driven by messages. The same file runs as a Web Worker module in browsers (created with
// `new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' })`, which
// bundlers follow) and as a worker_threads worker in Node.
//
// Messages in: { id, op: 'init', wasmBinary?, wasmUrl? } first, then
//   { id, op: 'fingerprint', texts, options, idf? }              -> BigUint64Array
//   { id, op: 'fingerprintEncoded', utf8, bounds, options, idf? } -> BigUint64Array (text.js encodeTexts' layout)
//   { id, op: 'pairs', fingerprints, maxDistance, grouping? }    -> { fingerprints, a, b, distance }
//                                                                   or, with grouping, { fingerprints, ...flatGroups }
//   { id, op: 'verify', texts, a, b, minJaccard, shingle }       -> Uint8Array, 1 where a pair is confirmed
// `idf` is { id, bytes?, drop? }: IdfWeights are loaded once per worker from their bytes and
// kept under the id given by the calling thread, which also says which to drop.
// Messages out: { id, ok: true, result, memoryBytes } or { id, ok: false, error: { name, message } }.
// Typed arrays travel by transfer both ways.
//
// No top-level await and no static import of Node modules: bundlers build this file for
// browsers (Vite as an IIFE worker by default).
import createSimhashCore from './wasm/simhash_core.mjs';
import { isNode, nodeModule } from './environment.js';
import { fingerprintAll, fingerprintEncoded } from './fingerprints.js';
import { flatGroups, labelsOfPairs } from './grouping.js';
import { idfHandle, loadIdf } from './idf.js';
import { checkOptions } from './options.js';
import { exactGroups, expandLabels, findPairs, leaderLabels } from './pairs.js';
import { markConfirmed } from './verify.js';

let core;
let ready;
const idfs = new Map(); // id from the calling thread -> IdfWeights of this worker's instance

function load({ wasmBinary, wasmUrl }) {
  const moduleOptions = {};
  if (wasmBinary) moduleOptions.wasmBinary = wasmBinary;
  if (wasmUrl) moduleOptions.locateFile = () => wasmUrl;
  return createSimhashCore(moduleOptions).then((instance) => {
    core = instance;
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

const groupsTransfer = (groups) => [groups.unique.buffer, groups.groupStarts.buffer, groups.groupItems.buffer];

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
  pairs({ fingerprints, maxDistance, grouping }) {
    if (grouping === 'leader') { // as SimHash#dedup: no pairs listed
      const groups = flatGroups(leaderLabels(core, fingerprints, maxDistance));
      return [{ fingerprints, ...groups }, [fingerprints.buffer, ...groupsTransfer(groups)]];
    }
    if (!grouping) {
      const pairs = findPairs(core, fingerprints, maxDistance);
      return [{ fingerprints, ...pairs }, [fingerprints.buffer, pairs.a.buffer, pairs.b.buffer, pairs.distance.buffer]];
    }
    // Equal fingerprints searched once, as in SimHash#dedup.
    const alike = exactGroups(fingerprints);
    const pairs = findPairs(core, BigUint64Array.from(alike.reps, (i) => fingerprints[i]), maxDistance);
    const groups = flatGroups(expandLabels(labelsOfPairs(alike.reps.length, pairs, grouping), alike));
    return [{ fingerprints, ...groups }, [fingerprints.buffer, ...groupsTransfer(groups)]];
  },
  // dedup's verification of a slice of the pairs (a and b index `texts`).
  verify({ texts, a, b, minJaccard, shingle }) {
    const keep = new Uint8Array(a.length);
    markConfirmed(texts, a, b, { minJaccard, shingle }, keep, new Array(texts.length));
    return [keep, [keep.buffer]];
  },
};

function errorData(error) {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

function handle(message, reply) {
  const { id, op } = message;
  if (op === 'init') {
    ready = load(message);
    ready.then(() => reply({ id, ok: true }), (error) => reply({ id, ok: false, error: errorData(error) }));
    return;
  }
  ready.then(() => {
    const [result, transfer] = OPS[op](message);
    reply({ id, ok: true, result, memoryBytes: core.HEAPU8.length }, transfer);
  }).catch((error) => reply({ id, ok: false, error: errorData(error) }));
}

if (isNode) {
  Promise.resolve(nodeModule('node:worker_threads')).then(({ parentPort }) => {
    parentPort.on('message', (message) => handle(message, (data, transfer) => parentPort.postMessage(data, transfer)));
  });
} else {
  self.onmessage = (event) => handle(event.data, (data, transfer) => self.postMessage(data, transfer));
}
