// The public findPairs of another checkout and of this one on the same 1M planted
// fingerprints (planted.js), called alternately in one process so that both see the same
// load; prints the medians of wall and CPU milliseconds and their ratio.
//   node tests/bench/pairs-compare.js OTHER_CHECKOUT [KS [RUNS]]   (defaults: 3,6  7)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { plantedFingerprints } from './planted.js';

const [other, KS = '3,6', RUNS = '7'] = process.argv.slice(2);
if (!other) {
  console.error('usage: node tests/bench/pairs-compare.js OTHER_CHECKOUT [KS [RUNS]]');
  process.exit(2);
}

async function load(root) {
  const { init } = await import(pathToFileURL(`${root}/js/node.js`).href);
  return init({ wasmBinary: readFileSync(`${root}/js/wasm/simhash_core.wasm`) });
}

const versions = [['other', await load(other)], ['this', await load(new URL('../..', import.meta.url).pathname)]];
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const k of KS.split(',').map(Number)) {
  const fps = plantedFingerprints(1_000_000, k, 42);
  const wall = versions.map(() => []);
  const cpu = versions.map(() => []);
  const counts = versions.map(() => 0);
  for (let run = 0; run < Number(RUNS); run++) {
    versions.forEach(([, sh], v) => {
      const usage = process.cpuUsage();
      const start = performance.now();
      counts[v] = sh.findPairs(fps, k).a.length;
      wall[v].push(performance.now() - start);
      const used = process.cpuUsage(usage);
      cpu[v].push((used.user + used.system) / 1000);
    });
  }
  const cells = versions.map(([name], v) => `${name} ${median(wall[v]).toFixed(0)} / ${median(cpu[v]).toFixed(0)} ms (${counts[v]} pairs)`);
  console.log(`k=${k}, medians of ${RUNS} (wall / CPU): ${cells.join(', ')}; this / other: ${(median(wall[1]) / median(wall[0])).toFixed(2)} wall, ${(median(cpu[1]) / median(cpu[0])).toFixed(2)} CPU`);
}
