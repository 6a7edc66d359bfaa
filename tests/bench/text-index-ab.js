// Two builds of the package's text index in one process, on the same texts, so that the
// noise of a shared machine falls on both alike: `text-index.js`'s synthetic stored part
// (--stored lines through addAll, then --further texts queried, limit 1, and added when
// nothing is found), the further texts in alternating chunks of --chunk (which build goes
// first alternates too), then every further text queried again (full answers, no adds),
// alternately as well, then serialize() and loadTextIndex 5 times each, alternately. Prints
// per build: addAll, query + add and query per text, the adds' share and the slowest add
// (a merge of the band table, or a growth), serialize and load (and how much each grew
// the WASM memory); the ratios B/A, and whether both wrote the same bytes. Each build is a checkout with its WASM module built (js/wasm/); for the
// code of another commit: `git worktree add /tmp/base COMMIT`, then in it
// `cmake --preset wasm -B build/wasm && cmake --build build/wasm --target simhash_wasm`,
// copy build/wasm/simhash_core.* to js/wasm/ and run `node .ci/cjs.js`.
// Usage: node tests/bench/text-index-ab.js ROOT_A ROOT_B [--stored=200000] [--further=40000]
//   [--chunk=500] [--runs=1]; two 1M indexes need `node --max-old-space-size=8000`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTexts, syntheticCorpus } from './fortune-texts.js';

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('--'));
if (roots.length !== 2) throw new Error('usage: node tests/bench/text-index-ab.js ROOT_A ROOT_B [--stored=N] [--further=N] [--chunk=N] [--runs=N]');
const number = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const STORED = number('stored', 200_000);
const FURTHER = number('further', 40_000);
const CHUNK = number('chunk', 500);
const RUNS = number('runs', 1);

const fortuneTexts = makeTexts(1);
const { texts } = makeTexts(fortuneTexts.records);
const { stored, further } = syntheticCorpus(texts, STORED, FURTHER);
const builds = [];
for (const root of roots) {
  const { init } = await import(pathToFileURL(resolve(root, 'js/node.js')).href);
  builds.push({ root, sh: await init() });
}
const perText = (ms, n) => `${((ms * 1000) / n).toFixed(2)} µs`;

/** Runs `step(build, from, to)` over [0, FURTHER) in alternating chunks; returns each build's milliseconds. */
function alternate(step) {
  const ms = builds.map(() => 0);
  for (let from = 0, c = 0; from < FURTHER; from += CHUNK, c++) {
    const order = c % 2 === 0 ? [0, 1] : [1, 0];
    for (const b of order) {
      const start = performance.now();
      step(builds[b], from, Math.min(FURTHER, from + CHUNK));
      ms[b] += performance.now() - start;
    }
  }
  return ms;
}

for (let run = 0; run < RUNS; run++) {
  const sides = builds.map(({ sh }) => {
    const index = sh.createTextIndex();
    const start = performance.now();
    for (let b = 0; b < STORED; b += 10_000) index.addAll(stored.slice(b, b + 10_000));
    return { index, addAllMs: performance.now() - start, addMs: 0, slowestAdd: 0, added: 0 };
  });
  const streamMs = alternate((build, from, to) => {
    const side = sides[builds.indexOf(build)];
    for (let i = from; i < to; i++) {
      if (side.index.query(further[i], { limit: 1 }).length > 0) continue;
      const start = performance.now();
      side.index.add(further[i]);
      const ms = performance.now() - start;
      side.addMs += ms;
      side.slowestAdd = Math.max(side.slowestAdd, ms);
      side.added++;
    }
  });
  const queryMs = alternate((build, from, to) => {
    const { index } = sides[builds.indexOf(build)];
    for (let i = from; i < to; i++) index.query(further[i]);
  });
  // serialize() and loadTextIndex, 5 times each, alternately; the first serialize of each
  // build may grow its WASM memory, and both builds must write the same bytes.
  const serializeMs = builds.map(() => []);
  const loadMs = builds.map(() => []);
  const grew = builds.map(() => 0);
  const loadGrew = builds.map(() => 0);
  const written = [];
  for (let r = 0; r < 5; r++) {
    for (const b of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const { sh } = builds[b];
      const before = sh.memoryBytes;
      let start = performance.now();
      written[b] = sides[b].index.serialize();
      serializeMs[b].push(performance.now() - start);
      grew[b] += sh.memoryBytes - before;
      const beforeLoad = sh.memoryBytes;
      start = performance.now();
      const loaded = sh.loadTextIndex(written[b]);
      loadMs[b].push(performance.now() - start);
      loadGrew[b] += sh.memoryBytes - beforeLoad;
      loaded.dispose();
    }
  }
  const median = (values) => [...values].sort((x, y) => x - y)[2];
  console.log(`run ${run + 1}: ${STORED.toLocaleString('en')} stored, ${FURTHER.toLocaleString('en')} further texts`);
  sides.forEach((side, b) => {
    console.log(`  ${b === 0 ? 'A' : 'B'} ${roots[b]}: addAll ${perText(side.addAllMs, STORED)}, query + add ${perText(streamMs[b], FURTHER)} `
      + `(adds ${perText(side.addMs, FURTHER)}, ${side.added.toLocaleString('en')} added, slowest ${side.slowestAdd.toFixed(1)} ms), `
      + `query ${perText(queryMs[b], FURTHER)}; serialize ${median(serializeMs[b]).toFixed(0)} ms (${serializeMs[b].map((ms) => ms.toFixed(0)).join(', ')}), `
      + `WASM memory +${(grew[b] / 2 ** 20).toFixed(1)} MiB; loadTextIndex ${median(loadMs[b]).toFixed(0)} ms (${loadMs[b].map((ms) => ms.toFixed(0)).join(', ')}), `
      + `WASM memory +${(loadGrew[b] / 2 ** 20).toFixed(1)} MiB`);
    side.index.dispose();
  });
  console.log(`  B/A: query + add ${(streamMs[1] / streamMs[0]).toFixed(3)}, query ${(queryMs[1] / queryMs[0]).toFixed(3)}, `
    + `serialize ${(median(serializeMs[1]) / median(serializeMs[0])).toFixed(3)}, load ${(median(loadMs[1]) / median(loadMs[0])).toFixed(3)}; `
    + `the same ${written[0].length.toLocaleString('en')} bytes: ${Buffer.compare(written[0], written[1]) === 0}`);
}
