// Per-call costs of the JS API: single calls against their batch paths (fingerprint vs
// fingerprintAll, index.add vs addAll, query), dedup end to end, and the index's streaming
// use (query, then add, item by item) at k = 3, 6, 12 over 200k and 1M items, with a query
// at k = 12 on 1M and the build of 1M.
//   node tests/bench/calls.js [PACKAGE_DIR]   (default: this repository's js/, e.g. another
//   checkout's js/ to compare two versions in one run)
//   STREAM_ONLY=1 node tests/bench/calls.js   (the index rows only)
//   node tests/bench/calls.js --compare OTHER_JS_DIR   (the k = 3, 200k stream, and the
//   build of and a query on 1M at k = 12, through another checkout's js/ and this one,
//   alternately, twice each)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SAMPLE } from '../../js/cli/sample.js';

const N_TEXTS = 20000;
const N_INDEX = 200000;
const REPEATS = 5;

function splitmix64(seed) {
  let state = BigInt(seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
}

/** Median seconds of `repeats` runs of fn. */
function time(fn, repeats = REPEATS) {
  const runs = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    fn();
    runs.push((performance.now() - start) / 1000);
  }
  return runs.sort((a, b) => a - b)[Math.floor(repeats / 2)];
}

/**
 * n uniform random fingerprints, every 8th replaced by an earlier one with 0..k+1 bits
 * flipped (a planted neighbour at every distance around k).
 */
function streamFingerprints(n, k, seed) {
  const next = splitmix64(seed);
  const fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    fps[i] = next();
    if (i % 8 !== 7) continue;
    let fp = fps[Number(next() % BigInt(i))];
    const flips = Number(next() % BigInt(k + 2));
    for (let f = 0; f < flips; f++) fp ^= 1n << (next() % 64n);
    fps[i] = fp;
  }
  return fps;
}

/**
 * Query, then add, item by item over n items: µs per item over the whole stream (wall;
 * CPU, which a loaded machine inflates less, in the label) and over its last tenth
 * (which would grow with n if the per-item cost did).
 */
function streamRow(sh, k, n) {
  const fps = streamFingerprints(n, k, 1000 + k);
  const index = sh.createIndex({ maxDistance: k });
  let matches = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let lastTenth = start;
  for (let i = 0; i < n; i++) {
    if (i === n - n / 10) lastTenth = performance.now();
    matches += index.query(fps[i]).length;
    index.add(fps[i]);
  }
  const end = performance.now();
  const used = process.cpuUsage(cpu);
  index.dispose();
  const cpuPerItem = (used.user + used.system) / n;
  return [`query then add, item by item, k=${k}, ${n / 1000}k items: per item (CPU ${cpuPerItem.toFixed(2)} µs; last tenth ${((end - lastTenth) * 1e3 / (n / 10)).toFixed(2)} µs; ${matches} matches)`, (end - start) * 1e3 / n];
}

export function measureIndex(sh) {
  const rows = [];
  for (const [k, n] of [[3, 200000], [3, 1000000], [6, 200000], [6, 1000000], [12, 200000]]) {
    rows.push(streamRow(sh, k, n));
    process.stderr.write(`${rows.at(-1)[0]}: ${rows.at(-1)[1].toFixed(2)}\n`);
  }
  return rows.concat(buildAndQueryRows(sh));
}

/** Build (addAll and the first query) of 1M at k = 12, and a query on it. */
function buildAndQueryRows(sh) {
  const rows = [];
  const fps = streamFingerprints(1000000, 12, 42);
  const next = splitmix64(9);
  const queries = Array.from({ length: 2000 }, (_, i) => (i % 2 ? fps[i * 499] : next()));
  const index = sh.createIndex({ maxDistance: 12 });
  const start = performance.now();
  index.addAll(fps);
  index.query(queries[0]);
  rows.push(['index of 1M: addAll and the first query, k=12, total', (performance.now() - start) * 1e3]);
  const cpu = process.cpuUsage();
  const query = time(() => { for (const q of queries) index.query(q); }) * 1e6 / queries.length;
  const used = process.cpuUsage(cpu);
  rows.push([`index.query k=12 on 1M, per call (half stored items, half random; CPU ${((used.user + used.system) / queries.length / REPEATS).toFixed(1)} µs)`, query]);
  index.dispose();
  return rows;
}

export async function measureCalls(packageDir = new URL('../../js/', import.meta.url).pathname) {
  const sh = await loadPackage(packageDir);
  if (process.env.STREAM_ONLY) return measureIndex(sh);
  const texts = Array.from({ length: N_TEXTS }, (_, i) => `${SAMPLE[i % SAMPLE.length]} ${i}`);
  const next = splitmix64(7);
  const fps = new BigUint64Array(N_INDEX).map(() => next());
  const rows = [];
  const perItem = (seconds, n) => (seconds / n) * 1e6;

  const batch = perItem(time(() => sh.fingerprintAll(texts)), N_TEXTS);
  const single = perItem(time(() => { for (const t of texts) sh.fingerprint(t); }), N_TEXTS);
  rows.push(['fingerprintAll, per text', batch], ['fingerprint(text), per call', single, single / batch]);

  const addAll = perItem(time(() => { const index = sh.createIndex({ maxDistance: 3 }); index.addAll(fps); index.dispose(); }), N_INDEX);
  const add = perItem(time(() => { const index = sh.createIndex({ maxDistance: 3 }); for (const fp of fps) index.add(fp); index.dispose(); }, 3), N_INDEX);
  rows.push(['index.addAll, per item', addAll], ['index.add, per call', add, add / addAll]);

  const index = sh.createIndex({ maxDistance: 3 });
  index.addAll(fps);
  index.query(fps[0]);
  const query = perItem(time(() => { for (let i = 0; i < 20000; i++) index.query(fps[i]); }), 20000);
  index.dispose();
  rows.push(['index.query k=3 on 200k, per call', query]);

  const many = Array.from({ length: 100000 }, (_, i) => `${SAMPLE[i % SAMPLE.length]} ${i % 997}`);
  let started = performance.now();
  await sh.dedup(many);
  rows.push(['dedup 100k short texts, defaults, total', (performance.now() - started) / 1000 * 1e6]);
  return rows.concat(measureIndex(sh));
}

async function loadPackage(packageDir) {
  const { init } = await import(pathToFileURL(`${packageDir}/node.js`).href);
  return init({ wasmBinary: readFileSync(`${packageDir}/wasm/simhash_core.wasm`) });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--compare') {
  const packages = [[process.argv[3], await loadPackage(process.argv[3])], ['this', await loadPackage(new URL('../../js/', import.meta.url).pathname)]];
  for (let round = 0; round < 2; round++) {
    for (const [name, sh] of packages) {
      for (const [label, us] of [streamRow(sh, 3, 200000), ...buildAndQueryRows(sh)]) console.log(`${name}: ${label}: ${us.toFixed(2)} µs`);
    }
  }
} else if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await measureCalls(process.argv[2]);
  console.log('| call | µs | / batch |\n|---|---|---|');
  for (const [name, us, ratio] of rows) console.log(`| ${name} | ${us.toFixed(2)} | ${ratio ? ratio.toFixed(2) + '×' : ''} |`);
}
