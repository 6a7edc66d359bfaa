// The core's exact similarity (cpp/include/simhash/similarity.h) called straight from the
// WASM module, for the benchmarks: texts encoded once into WASM memory with the module's
// _malloc, pairs as two Uint32Arrays, one call per batch, everything freed in a finally
// block (each call's sets are its own and freed by the core, also after an error).
import { readFileSync } from 'node:fs';
import createSimhashCore from '../../../build/wasm/bench/simhash_core.mjs';
import { SimHash } from '../../../js/simhash.js';
import { readsHanTable } from '../../../js/node-loader.js';

/** The raw module and a SimHash over the same instance. */
export async function loadCore() {
  const wasmBinary = readFileSync(new URL('../../../build/wasm/bench/simhash_core.wasm', import.meta.url));
  const core = await createSimhashCore({ wasmBinary });
  return { core, sh: new SimHash(readsHanTable(core)) };
}

const encoder = new TextEncoder();

/** Texts as one UTF-8 buffer and count + 1 offsets, in JS memory. */
export function encodeBatch(texts) {
  let bytes = 0;
  for (const t of texts) bytes += t.length * 3;
  const utf8 = new Uint8Array(bytes);
  const offsets = new Uint32Array(texts.length + 1);
  let written = 0;
  texts.forEach((t, i) => {
    offsets[i] = written;
    written += encoder.encodeInto(t, utf8.subarray(written)).written;
  });
  offsets[texts.length] = written;
  return { utf8: utf8.subarray(0, written), offsets, count: texts.length };
}

function withHeap(core, body) {
  const addresses = [];
  const alloc = (bytes) => {
    const address = core._malloc(Math.max(bytes, 8));
    if (!address) throw new Error(`out of WebAssembly memory allocating ${bytes} bytes`);
    addresses.push(address);
    return address;
  };
  const copyIn = (array) => {
    const address = alloc(array.byteLength);
    core.HEAPU8.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), address);
    return address;
  };
  try {
    return body(alloc, copyIn);
  } finally {
    for (const address of addresses) core._free(address);
  }
}

/** out[p] = 1 iff similarity(texts a[p], b[p]) >= threshold; batch from encodeBatch. */
export function verifyPairs(core, batch, a, b, threshold) {
  return withHeap(core, (alloc, copyIn) => {
    const out = alloc(a.length);
    core._verifyPairs(copyIn(batch.utf8), copyIn(batch.offsets), batch.count, copyIn(a), copyIn(b), a.length, threshold, out);
    return core.HEAPU8.slice(out, out + a.length);
  });
}

/** out[p] = similarity(texts a[p], b[p]). */
export function pairSimilarities(core, batch, a, b) {
  return withHeap(core, (alloc, copyIn) => {
    const out = alloc(a.length * 8); // malloc aligns to 8
    core._pairSimilarities(copyIn(batch.utf8), copyIn(batch.offsets), batch.count, copyIn(a), copyIn(b), a.length, out);
    return new Float64Array(core.HEAPU8.buffer, out, a.length).slice();
  });
}

/**
 * Every pair i < j with similarity >= threshold > 0: the core's exact join (brute force
 * over texts sorted by set size, pruned by the size filter). Returns { a, b, similarity }
 * sorted by (a, b).
 */
export function similarityJoin(core, batch, threshold) {
  const { a, b } = withHeap(core, (alloc, copyIn) => {
    const count = core._similarityJoin(copyIn(batch.utf8), copyIn(batch.offsets), batch.count, threshold);
    const words = new Uint32Array(core.HEAPU8.buffer, core._resultAddress(), 2 * count);
    const pairs = { a: Uint32Array.from({ length: count }, (_, p) => words[2 * p]), b: Uint32Array.from({ length: count }, (_, p) => words[2 * p + 1]) };
    core._resultRelease();
    return pairs;
  });
  return { a, b, similarity: pairSimilarities(core, batch, a, b) };
}
