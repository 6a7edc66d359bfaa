// `node tests/bench/dedup.js --natural [--runs=3] [--collections=paragraphs,one-line]`: dedup
// on whole natural collections (natural-collections.js: Debian's 61k package descriptions as
// paragraphs and as one-line synopses), nothing planted, on one thread: the default, lower
// similarities and the review, each run in turn with the default in every round, so a
// variant's cost is its ratio to the default's time in the same round. Prints per collection
// the default's median time and, per variant, the median ratio and the range over the rounds,
// with the groups and review entries it found.
import { init } from '../../js/node.js';
import { debianDescriptions } from './natural-collections.js';

export const VARIANTS = [
  ['the default', {}],
  ['similarity: 0.7', { similarity: 0.7 }],
  ['similarity: 0.6', { similarity: 0.6 }],
  ['similarity: 0.5', { similarity: 0.5 }],
  ['review: 0.5', { review: 0.5 }],
  ['review: 0.5, reviewLimit: 1e9', { review: 0.5, reviewLimit: 1e9 }],
];

export const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** The collections by name: the descriptions as paragraphs and as one-line synopses. */
export function naturalCollections() {
  const { paragraphs, synopses } = debianDescriptions();
  return { paragraphs, 'one-line': synopses };
}

/** The texts of the collection `name`; a RangeError naming the known ones otherwise. */
export function naturalCollection(collections, name) {
  const texts = collections[name];
  if (!texts) throw new RangeError(`unknown collection ${name}; known: ${Object.keys(collections).join(', ')}`);
  return texts;
}

export async function main(args) {
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);
  const wanted = args.find((a) => a.startsWith('--collections='))?.split('=')[1].split(',') ?? ['paragraphs', 'one-line'];
  const collections = naturalCollections();
  const sh = await init();
  for (const name of wanted) {
    const texts = naturalCollection(collections, name);
    const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    console.log(`\n${name}: ${texts.length.toLocaleString('en')} Debian package descriptions, ${(bytes / texts.length).toFixed(0)} bytes each on average; ${runs} rounds`);
    const times = VARIANTS.map(() => []);
    const found = [];
    for (let round = 0; round < runs; round++) {
      for (const [v, [, options]] of VARIANTS.entries()) {
        const start = performance.now();
        const result = await sh.dedup(texts, options);
        times[v].push(performance.now() - start);
        found[v] = `${result.groups.length.toLocaleString('en')} groups${result.review ? `, ${result.review.length.toLocaleString('en')} review entries (+${result.reviewOmitted.toLocaleString('en')} omitted)` : ''}`;
      }
    }
    console.log('| variant | median time | ratio to the default (median, range) | found |\n|---|---:|---|---|');
    for (const [v, [label]] of VARIANTS.entries()) {
      const ratios = times[v].map((ms, round) => ms / times[0][round]);
      const range = `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
      console.log(`| ${label} | ${(median(times[v]) / 1000).toFixed(2)} s | ${median(ratios).toFixed(2)}× (${range}) | ${found[v]} |`);
    }
  }
}
