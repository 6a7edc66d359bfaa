// `npm run bench:dense`: dedup of a list where almost every text has dozens of near-duplicates,
// the case that listing all pairs cannot afford. N texts (default 1,000,000) are copies of
// the first R (default 20,000) English records of Debian's `fortunes` (as the quality
// benchmark reads them), each with one word replaced
// by one of five tokens, in a seeded order. Prints, for k = 3: the fingerprinting time,
// dedup with the default leader grouping (no pairs listed), and findPairs (every pair),
// which may run out of the 2 GB of WASM memory; the groups are checked against the leader
// rule applied to findPairs' answer whenever it fits.
//
// Usage: node tests/bench/dense.js [N] [R]
import { sh, random64 } from '../js/helpers.js';
import { leaderGroups } from '../../js/simhash.js';
import { loadEnglish } from './quality/corpora.js';

const [N = 1_000_000, R = 20_000] = process.argv.slice(2).map(Number);
const K = 3;

const records = loadEnglish().records.slice(0, R).map((record) => record.split(/\s+/));
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
console.log(`${N.toLocaleString('en')} texts (${mb.toFixed(1)} MB) from ${records.length.toLocaleString('en')} fortunes, k = ${K}, Node ${process.versions.node}:`);
console.log(`  fingerprintAll:               ${fingerprints.seconds.toFixed(2)} s`);
console.log(`  dedup (leader, no pairs):     ${dedup.seconds.toFixed(2)} s, ${dedup.result.groups.length.toLocaleString('en')} groups, ${dedup.result.unique.length.toLocaleString('en')} kept`);
try {
  const pairs = await time(() => sh.findPairs(fingerprints.result, K));
  console.log(`  findPairs (every pair):       ${pairs.seconds.toFixed(2)} s, ${pairs.result.a.length.toLocaleString('en')} pairs`);
  const leaderOf = leaderGroups(N, pairs.result);
  const same = dedup.result.uniqueIndices.length === leaderOf.filter((leader, i) => leader === i).length
    && dedup.result.groups.every((group) => group.every((item) => leaderOf[item] === group[0]));
  if (!same) throw new Error('dedup groups differ from the leader rule over findPairs');
  console.log('  groups equal the leader rule applied to findPairs\' pairs');
} catch (error) {
  if (!/out of WebAssembly memory/.test(error.message)) throw error;
  console.log(`  findPairs (every pair):       ${error.message}`);
}
