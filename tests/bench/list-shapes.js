// `node tests/bench/list-shapes.js [N=3000] [--runs=3]`: which measure `measure: 'auto'`
// takes by a list's shape (js/core/thresholds.js measureFor), and what it costs.
//   1. The corpora the light-edit figures use (tests/bench/quality/corpora.js: English and
//      Chinese fortunes, Japanese manual sentences, 10-300 characters, as light-edits.js keeps
//      them; skipped when they are not fetched) and the labelled lists of tests/data/lists/:
//      the mean bytes of UTF-8, the share of texts that read as sentences, the measure taken.
//   2. Lists of one shape, dedup at the defaults against `measure: 'text'`, in one process
//      (medians of --runs): N lines of a template (`Order 17 of customer 4: shipped to the
//      warehouse on day 9, status ok`: no full stop, every pair's numbers differ; N <= 39,091), and eight
//      long product titles, pairs a model or a size apart (each pair two products).
// The WASM build must exist (npm run build).
import { init } from '../../js/node.js';
import { SENTENCE, measureFor } from '../../js/core/thresholds.js';
import { loadLists } from './lists-data.js';
import { loadChinese, loadEnglish, loadJapanese } from './quality/corpora.js';

const args = process.argv.slice(2);
const count = Number(args.find((a) => !a.startsWith('--')) ?? 3000);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);

function shape(name, texts) {
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / texts.length;
  const sentences = texts.filter((t) => SENTENCE.test(t)).length / texts.length;
  console.log(`${name.padEnd(28)} ${String(texts.length).padStart(6)} texts, ${bytes.toFixed(0).padStart(4)} bytes on average, `
    + `${(100 * sentences).toFixed(1).padStart(5)}% sentences: ${measureFor([...new Set(texts)])}`);
}

console.log('1. The measure taken');
for (const load of [loadEnglish, loadChinese, loadJapanese]) {
  let corpus;
  try {
    corpus = load();
  } catch (error) {
    console.log(`${load.name}: skipped (${error.message}; bash tests/bench/fetch-corpora.sh)`);
    continue;
  }
  const fits = (t) => [...t].length >= 10 && [...t].length <= 300;
  shape(`${corpus.name} (light edits)`, corpus.records.map((r) => r.text ?? r).filter(fits));
}
for (const list of loadLists()) shape(list.name, list.texts);

const sh = await init();
// Every line's numbers differ from every other's (97 × 13 × 31 > N); the short measure's groups
// hold hundreds of such lines before the look-alike split parts them.
const template = Array.from({ length: count }, (_, i) => `Order ${i % 97} of customer ${i % 13}: shipped to the warehouse on day ${i % 31}, status ok`);
const titles = [
  'Sony WH-1000XM5 Wireless Industry Leading Noise Canceling Headphones with Auto Noise Canceling Optimizer, Black',
  'Sony WH-1000XM4 Wireless Industry Leading Noise Canceling Headphones with Auto Noise Canceling Optimizer, Black',
  'Apple iPhone 15 Pro Max, 256GB, Natural Titanium - Unlocked (Renewed Premium) with 1 Year Warranty',
  'Apple iPhone 14 Pro Max, 256GB, Natural Titanium - Unlocked (Renewed Premium) with 1 Year Warranty',
  'Samsung Galaxy S24 Ultra Cell Phone, 512GB AI Smartphone, Unlocked Android, 200MP Camera, Titanium Black',
  'Samsung Galaxy S23 Ultra Cell Phone, 512GB AI Smartphone, Unlocked Android, 200MP Camera, Titanium Black',
  'Instant Pot Duo 7-in-1 Electric Pressure Cooker, Slow Cooker, Rice Cooker, Steamer, 6 Quart, Stainless Steel',
  'Instant Pot Duo 7-in-1 Electric Pressure Cooker, Slow Cooker, Rice Cooker, Steamer, 8 Quart, Stainless Steel',
];

console.log(`\n2. dedup at the defaults against measure 'text' (medians of ${runs})`);
for (const [name, texts] of [[`${count.toLocaleString('en')} template lines`, template], ['8 long product titles', titles]]) {
  for (const options of [{}, { measure: 'text' }]) {
    const times = [];
    let result;
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      result = await sh.dedup(texts, options);
      times.push(performance.now() - start);
    }
    const median = times.sort((a, b) => a - b)[times.length >> 1];
    const members = result.groups.reduce((sum, g) => sum + g.length - 1, 0);
    console.log(`${name.padEnd(24)} ${(options.measure ?? 'auto').padEnd(5)} -> ${result.measure}: ${median.toFixed(0).padStart(6)} ms, `
      + `${result.groups.length} groups (${members} members merged), ${result.review?.length ?? 0} listed`);
  }
}
