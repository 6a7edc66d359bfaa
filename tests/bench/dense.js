// `npm run bench:dense`: dedup of a list where every text has hundreds of near-duplicates,
// the case that listing all pairs cannot afford. N texts (default 1,000,000) are copies of
// the English records of Debian's `fortunes` of 300 characters or more (the first R, default
// all 1,902, as the quality benchmark reads them), each with one word replaced by one of five
// tokens, in a seeded order. Prints, for k = 3: the fingerprinting time, dedup with the
// default leader grouping (no pairs listed), and findPairs (every pair), which may run out of
// the 2 GB of WASM memory, and the route dedup took before (fingerprints, findPairs, the
// leader rule over the pairs in JS), whose groups must equal dedup's.
//
// Usage: node tests/bench/dense.js [N] [R]
import { sh, random64 } from '../js/helpers.js';
import { loadEnglish } from './quality/corpora.js';

const [N = 1_000_000, R = 20_000] = process.argv.slice(2).map(Number);
const K = 3;

// Records of 300 characters or more, where a one-word edit moves few bits: copies stay near.
const records = loadEnglish().records.filter((record) => record.length >= 300).slice(0, R).map((record) => record.split(/\s+/));
const next = random64(7);
const pick = (count) => Number(next() % BigInt(count));
const texts = [];
while (texts.length < N) {
  const words = records[pick(records.length)].slice();
  words[pick(words.length)] = `x${pick(5)}`;
  texts.push(words.join(' '));
}
const mb = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 1e6;
const time = async (fn) => {
  const start = performance.now();
  const result = await fn();
  return { seconds: (performance.now() - start) / 1000, result };
};

const fingerprints = await time(() => sh.fingerprintAll(texts));
const dedup = await time(() => sh.dedup(texts, { maxDistance: K }));
const viaPairs = async () => sh.groupLabels(N, sh.findPairs(sh.fingerprintAll(texts), K)); // the route before leaderLabels
console.log(`${N.toLocaleString('en')} texts (${mb.toFixed(1)} MB) from ${records.length.toLocaleString('en')} fortunes, k = ${K}, Node ${process.versions.node}:`);
console.log(`  fingerprintAll:               ${fingerprints.seconds.toFixed(2)} s`);
console.log(`  dedup (fingerprints + leader grouping, no pairs): ${dedup.seconds.toFixed(2)} s, ${dedup.result.groups.length.toLocaleString('en')} groups, ${dedup.result.unique.length.toLocaleString('en')} kept`);
try {
  const pairs = await time(() => sh.findPairs(fingerprints.result, K));
  console.log(`  findPairs (every pair):       ${pairs.seconds.toFixed(2)} s, ${pairs.result.a.length.toLocaleString('en')} pairs`);
  const routed = await time(viaPairs);
  console.log(`  fingerprints + findPairs + leader rule in JS: ${routed.seconds.toFixed(2)} s`);
  const leaderOf = routed.result;
  const same = dedup.result.uniqueIndices.length === leaderOf.filter((leader, i) => leader === i).length
    && dedup.result.groups.every((group) => group.every((item) => leaderOf[item] === group[0]));
  if (!same) throw new Error('dedup groups differ from the leader rule over findPairs');
  console.log('  groups equal the leader rule applied to findPairs\' pairs');
} catch (error) {
  if (!/out of WebAssembly memory/.test(error.message)) throw error;
  console.log(`  findPairs (every pair):       ${error.message}`);
}
