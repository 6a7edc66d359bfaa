// Builds of the package's dedup in one process, on the same texts, so that the noise of a
// shared machine falls on all alike: each round runs every build in turn (the first build
// alternates between rounds), and each build runs every variant with its default in the
// same round. Prints per build, for each variant: the median time (and each round's), the
// median ratio to that build's default, the median ratio to the first build's time for
// the same variant, and what it found (groups; review entries and omitted). Each build is
// a checkout with its WASM module built (js/wasm/); for the code of another commit:
// `git worktree add /tmp/base COMMIT`, then in it `cmake --preset wasm && cmake --build
// --preset wasm --target simhash_wasm`, and copy build/wasm/simhash_core.* to js/wasm/.
// Collections (--texts=), on one thread, or in a pool of --pool=WORKERS:
//   paragraphs, one-line  Debian's package descriptions (natural-collections.js), with the
//                         variants of `dedup.js --natural` (dedup-natural.js VARIANTS; one-line:
//                         measure 'text' unless --auto, the README's rule then choosing 'short')
//   fortunes              N fortunes with 1-3 word edits (fortune-texts.js; --n=, 1M by
//                         default), the default only
//   names                 N distinct person names (synthetic-names.js, as names.js draws them;
//                         --n=, 1M by default), the default only (the short measure)
// Usage: node tests/bench/dedup-ab.js ROOT [ROOT ...] [--texts=paragraphs] [--runs=3]
//   [--n=1000000] [--pool=2] [--auto]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VARIANTS, median, naturalCollection, naturalCollections } from './dedup-natural.js';
import { makeTexts } from './fortune-texts.js';
import { syntheticNames } from './synthetic-names.js';

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('--'));
const value = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const COLLECTION = value('texts', 'paragraphs');
const RUNS = Number(value('runs', 3));
const POOL = Number(value('pool', 0));
if (roots.length === 0) throw new Error('usage: node tests/bench/dedup-ab.js ROOT [ROOT ...] [--texts=paragraphs|one-line|fortunes|names] [--runs=3] [--n=N] [--pool=W] [--auto]');

if (!['paragraphs', 'one-line', 'fortunes', 'names'].includes(COLLECTION)) throw new RangeError(`--texts=${COLLECTION}: paragraphs, one-line, fortunes or names`);
let texts;
let variants = VARIANTS;
if (COLLECTION === 'fortunes' || COLLECTION === 'names') {
  const n = Number(value('n', 1_000_000));
  texts = COLLECTION === 'fortunes' ? makeTexts(n).texts : syntheticNames(n);
  variants = VARIANTS.slice(0, 1); // the default
} else {
  texts = naturalCollection(naturalCollections(), COLLECTION);
  if (COLLECTION === 'one-line' && !args.includes('--auto')) variants = VARIANTS.map(([label, options]) => [label, { measure: 'text', ...options }]);
}

const builds = [];
for (const root of roots) {
  const at = (file) => pathToFileURL(resolve(root, 'js', file)).href;
  const run = POOL > 0
    ? await (await import(at('worker.js'))).createPool({ size: POOL })
    : await (await import(at('node.js'))).init();
  builds.push({ root, run, times: variants.map(() => []), found: [] });
}

for (let round = 0; round < RUNS; round++) {
  for (let k = 0; k < builds.length; k++) {
    const build = builds[(k + round) % builds.length];
    for (const [v, [, options]] of variants.entries()) {
      const start = performance.now();
      const result = await build.run.dedup(texts, options);
      build.times[v].push(performance.now() - start);
      build.found[v] = `${result.groups.length} groups${result.review ? `, ${result.review.length} + ${result.reviewOmitted} review` : ''}`;
    }
  }
}

const where = POOL > 0 ? `a pool of ${POOL}` : 'one thread';
console.log(`${texts.length} texts (${COLLECTION}), ${where}, ${RUNS} rounds; medians: time, ratio to the build's default, ratio to the first build`);
for (const build of builds) {
  const cells = variants.map(([label], v) => {
    const own = median(build.times[v].map((ms, r) => ms / build.times[0][r]));
    const first = median(build.times[v].map((ms, r) => ms / builds[0].times[v][r]));
    const rounds = build.times[v].map((ms) => (ms / 1000).toFixed(2)).join('/');
    return `${label} ${(median(build.times[v]) / 1000).toFixed(2)} s (${rounds}), ${own.toFixed(2)}×, ${first.toFixed(3)}× [${build.found[v]}]`;
  });
  console.log(`${build.root}: ${cells.join(' | ')}`);
}
for (const build of builds) if (POOL > 0) await build.run.terminate();
