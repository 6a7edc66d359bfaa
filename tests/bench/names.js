// `node tests/bench/names.js [N] [--runs=3]`: dedup of N distinct person names (default
// 100,000), made by pairing FEBRL's given names and surnames (tests/data/lists/febrl-names.tsv)
// at random with a fixed seed, in WASM on one thread: by the short measure at the defaults, at
// 0.8, without weights, and by the text measure, each timed by phase (onProgress), median
// of the runs. The goal of issue 43: 100k names in at most 1 s. `--write=FILE` only writes the
// names, NUL-separated, for `build/native/simhash_bench candidates FILE S short [ROWS BANDS]`
// (the native build: bash .ci/build.sh --native).
import { writeFileSync } from 'node:fs';
import { init } from '../../js/node.js';
import { syntheticNames } from './synthetic-names.js';

const args = process.argv.slice(2);
const count = Number(args.find((a) => !a.startsWith('--')) ?? 100_000);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);

const names = syntheticNames(count);
const writeTo = args.find((a) => a.startsWith('--write='))?.slice('--write='.length);
if (writeTo) {
  writeFileSync(writeTo, names.join('\0'));
  process.exit(0);
}
const sh = await init();
const bytes = names.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
console.log(`${count.toLocaleString('en')} names (${(bytes / count).toFixed(1)} bytes each on average), ${runs} runs, medians`);
const cases = [['defaults', {}], ['short at 0.8', { similarity: 0.8 }], ['short, no weights', { weights: null }], ['text measure', { measure: 'text' }]];
for (const [name, options] of cases) {
  const totals = [];
  let phases;
  let result;
  for (let run = 0; run < runs; run++) {
    const times = {};
    let mark = performance.now();
    let phase = 'start';
    const started = mark;
    result = await sh.dedup(names, {
      ...options,
      onProgress: (p) => {
        if (p.phase === phase) return;
        times[phase] = (times[phase] ?? 0) + performance.now() - mark;
        mark = performance.now();
        phase = p.phase;
      },
    });
    times[phase] = (times[phase] ?? 0) + performance.now() - mark;
    totals.push(performance.now() - started);
    if (run === 0) phases = times;
  }
  const median = [...totals].sort((a, b) => a - b)[totals.length >> 1];
  const split = Object.entries(phases).filter(([p]) => p !== 'start').map(([p, ms]) => `${p} ${ms.toFixed(0)}`).join(', ');
  console.log(`${name.padEnd(18)} ${result.measure} at ${result.similarity}: ${(median / 1000).toFixed(2)} s (first run: ${split} ms); ${result.groups.length} groups`);
}
