// The worker of `simhash-wasm/worker` (js/worker.js): one WASM instance per worker, driven
// by messages. The same file runs as a Web Worker module in browsers (created with
// `new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' })`, which
// bundlers follow) and as a worker_threads worker in Node.
//
// Messages in: { id, op: 'init', wasmBinary?, wasmUrl? } first, then
//   { id, op: 'fingerprint', texts, options, idf? }              -> BigUint64Array
//   { id, op: 'fingerprintEncoded', utf8, bounds, options, idf? } -> BigUint64Array (encodeTexts' layout)
//   { id, op: 'pairs', fingerprints, maxDistance, grouping? }    -> { fingerprints, a, b, distance }
//                                                                   or, with grouping, { fingerprints, ...layout }
//   { id, op: 'group', count, a, b, grouping }                   -> layout: { unique, groupStarts, groupItems }
//   { id, op: 'verify', texts, a, b, minJaccard, shingle }       -> Uint8Array, 1 where a pair is confirmed
// `idf` is { id, bytes?, drop? }: IdfWeights are loaded once per worker from their bytes and
// kept under the id given by the calling thread, which also says which to drop.
// Messages out: { id, ok: true, result, memoryBytes } or { id, ok: false, error: { name, message } }.
// Typed arrays travel by transfer both ways.
//
// No top-level await and no static import of Node modules: bundlers build this file for
// browsers (Vite as an IIFE worker by default).
import createSimhashCore from './wasm/simhash_core.mjs';
import { SimHash, leaderGroups, leaderLabels, shingles, jaccard } from './simhash.js';

let core;
let sh;
let ready;
const idfs = new Map(); // id from the calling thread -> IdfWeights of this worker's instance

function load({ wasmBinary, wasmUrl }) {
  const moduleOptions = {};
  if (wasmBinary) moduleOptions.wasmBinary = wasmBinary;
  if (wasmUrl) moduleOptions.locateFile = () => wasmUrl;
  return createSimhashCore(moduleOptions).then((instance) => {
    core = instance;
    sh = new SimHash(instance);
  });
}

/** Connected-component labels, as SimHash#componentLabels computes them (the same WASM call). */
function componentLabels(count, pairs) {
  const bytes = [pairs.a.byteLength, pairs.b.byteLength, count * 4];
  const addresses = bytes.map((n) => core._malloc(Math.max(n, 8)));
  try {
    if (addresses.some((address) => !address)) throw new Error('out of WebAssembly memory computing groups');
    core.HEAPU8.set(new Uint8Array(pairs.a.buffer, pairs.a.byteOffset, pairs.a.byteLength), addresses[0]);
    core.HEAPU8.set(new Uint8Array(pairs.b.buffer, pairs.b.byteOffset, pairs.b.byteLength), addresses[1]);
    core._componentLabels(addresses[0], addresses[1], pairs.a.length, count, addresses[2]);
    return new Uint32Array(core.HEAPU8.buffer, addresses[2], count).slice();
  } finally {
    for (const address of addresses) if (address) core._free(address);
  }
}

/**
 * The groups of SimHash#dedup (collectGroups) in flat arrays: the kept items ascending;
 * groups ordered by kept item, each as kept item then members ascending, group g being
 * groupItems[groupStarts[g] .. groupStarts[g + 1]).
 */
function groupLayout(leaderOf) {
  const count = leaderOf.length;
  const members = new Uint32Array(count); // members per leader, leader excluded
  let uniqueCount = 0;
  for (let i = 0; i < count; i++) {
    const leader = leaderOf[i];
    if (leader === i) uniqueCount++;
    else members[leader]++;
  }
  const unique = new Uint32Array(uniqueCount);
  const slot = new Uint32Array(count); // where a leader's next member goes in groupItems
  let groupCount = 0;
  let items = 0;
  for (let leader = 0; leader < count; leader++) {
    if (members[leader]) {
      groupCount++;
      items += members[leader] + 1;
    }
  }
  const groupStarts = new Uint32Array(groupCount + 1);
  const groupItems = new Uint32Array(items);
  for (let leader = 0, g = 0, at = 0; leader < count; leader++) {
    if (!members[leader]) continue;
    groupStarts[g++] = at;
    groupItems[at] = leader;
    slot[leader] = at + 1;
    at += members[leader] + 1;
  }
  groupStarts[groupCount] = items;
  for (let i = 0, u = 0; i < count; i++) {
    const leader = leaderOf[i];
    if (leader === i) unique[u++] = i;
    else groupItems[slot[leader]++] = i;
  }
  return { unique, groupStarts, groupItems };
}

/** The options with `idf` replaced by this worker's copy of the weights. */
function workerOptions(options, idf) {
  if (!idf) return options;
  if (idf.drop !== undefined) {
    idfs.get(idf.drop)?.dispose();
    idfs.delete(idf.drop);
  }
  if (idf.bytes) idfs.set(idf.id, sh.loadIdf(idf.bytes));
  const weights = idfs.get(idf.id);
  if (!weights) throw new Error(`simhash-wasm worker: IDF weights ${idf.id} were not sent`);
  return { ...options, idf: weights };
}

function groupsOf(count, pairs, grouping) {
  return groupLayout(grouping === 'leader' ? leaderGroups(count, pairs) : componentLabels(count, pairs));
}

const layoutTransfer = (layout) => [layout.unique.buffer, layout.groupStarts.buffer, layout.groupItems.buffer];

const OPS = {
  fingerprint({ texts, options, idf }) {
    const fingerprints = sh.fingerprintAll(texts, workerOptions(options, idf));
    return [fingerprints, [fingerprints.buffer]];
  },
  fingerprintEncoded({ utf8, bounds, options, idf }) {
    const fingerprints = sh._fingerprintEncoded(utf8, bounds, workerOptions(options, idf));
    return [fingerprints, [fingerprints.buffer]];
  },
  pairs({ fingerprints, maxDistance, grouping }) {
    if (grouping === 'leader') { // as SimHash#dedup: no pairs materialised
      const layout = groupLayout(leaderLabels(core, fingerprints, maxDistance));
      return [{ fingerprints, ...layout }, [fingerprints.buffer, ...layoutTransfer(layout)]];
    }
    const pairs = sh.findPairs(fingerprints, maxDistance);
    if (!grouping) {
      return [{ fingerprints, ...pairs }, [fingerprints.buffer, pairs.a.buffer, pairs.b.buffer, pairs.distance.buffer]];
    }
    const layout = groupsOf(fingerprints.length, pairs, grouping);
    return [{ fingerprints, ...layout }, [fingerprints.buffer, ...layoutTransfer(layout)]];
  },
  group({ count, a, b, grouping }) {
    const layout = groupsOf(count, { a, b }, grouping);
    return [layout, layoutTransfer(layout)];
  },
  // The test of SimHash#dedup's verifyPairs, on the texts of a slice of the pairs
  // (a and b index `texts`), with the same shingles and jaccard functions.
  verify({ texts, a, b, minJaccard, shingle }) {
    const sets = new Array(texts.length);
    const setOf = (i) => (sets[i] ??= shingles(texts[i], shingle));
    const keep = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) keep[i] = jaccard(setOf(a[i]), setOf(b[i])) >= minJaccard ? 1 : 0;
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

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string'
  && typeof WorkerGlobalScope === 'undefined';

if (isNode) {
  // Hidden from bundlers: this branch never runs in a browser.
  const name = 'node:worker_threads';
  const threads = process.getBuiltinModule?.(name) ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
  Promise.resolve(threads).then(({ parentPort }) => {
    parentPort.on('message', (message) => handle(message, (data, transfer) => parentPort.postMessage(data, transfer)));
  });
} else {
  self.onmessage = (event) => handle(event.data, (data, transfer) => self.postMessage(data, transfer));
}
