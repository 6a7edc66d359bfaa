// Per-call costs of the JS API, the figures `npm run bench` prints for single calls against
// their batch paths: fingerprint vs fingerprintAll, index.add vs addAll, query, and the
// streaming use (query, then add, item by item), plus dedup end to end.
//   node tests/bench/calls.js [PACKAGE_DIR]   (default: this repository's js/, e.g. another
//   checkout's js/ to compare two versions in one run)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SAMPLE } from '../../js/sample.js';

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

export async function measureCalls(packageDir = new URL('../../js/', import.meta.url).pathname) {
  const { init } = await import(pathToFileURL(`${packageDir}/node.js`).href);
  const sh = await init({ wasmBinary: readFileSync(`${packageDir}/wasm/simhash_core.wasm`) });
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

  const stream = perItem(time(() => {
    const live = sh.createIndex({ maxDistance: 3 });
    for (const fp of fps) {
      live.query(fp);
      live.add(fp);
    }
    live.dispose();
  }, 1), N_INDEX);
  rows.push(['query then add, item by item, k=3, 200k items, per item', stream]);

  const many = Array.from({ length: 100000 }, (_, i) => `${SAMPLE[i % SAMPLE.length]} ${i % 997}`);
  let started = performance.now();
  await sh.dedup(many);
  rows.push(['dedup 100k short texts, defaults, total', (performance.now() - started) / 1000 * 1e6]);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await measureCalls(process.argv[2]);
  console.log('| call | µs | / batch |\n|---|---|---|');
  for (const [name, us, ratio] of rows) console.log(`| ${name} | ${us.toFixed(2)} | ${ratio ? ratio.toFixed(2) + '×' : ''} |`);
}
