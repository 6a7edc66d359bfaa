// `node tests/bench/review-natural.js`: dedup's review pairs (README "Review") on whole
// natural collections, no edits planted: per group of light-edits.js (English and Chinese
// fortunes and Japanese manual-page sentences of 10-300 code points; the PostgreSQL
// manual and the Chinese and Japanese Debian Reference as documents), dedup of every
// record at the defaults with review 0.5: the groups, the pairs of groups to review by
// similarity, the time, and 10 review pairs below 0.8 drawn at random (seeded), numbered
// for a person to judge: should the two be merged? Writes tests/output/review-natural.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { groups } from './light-edits.js';
import { Random } from './quality/random.js';
import { loadCore } from './quality/exact.js';
import { table } from './quality/table.js';

const SHOWN = 10;
const DOCUMENT_HEAD = 200; // code points of a document shown
const BUCKETS = [0.5, 0.6, 0.7, 0.8];

const lines = [];
const print = (text = '') => {
  console.log(text);
  lines.push(text);
};
const { sh } = await loadCore();
const rows = [];
const samples = [];
for (const group of groups()) {
  const records = group.records;
  const start = performance.now();
  const result = await sh.dedup(records, { review: 0.5, reviewLimit: 0xffffffff });
  const seconds = (performance.now() - start) / 1000;
  const counts = BUCKETS.map((low, b) => result.review.filter((p) => p.similarity >= low && (b + 1 === BUCKETS.length || p.similarity < BUCKETS[b + 1])).length);
  rows.push([group.name, records.length.toLocaleString('en'), result.groups.length.toLocaleString('en'), result.review.length.toLocaleString('en'),
    ...counts.map((c) => c.toLocaleString('en')), `${seconds.toFixed(2)} s`]);
  const below = result.review.filter((p) => p.similarity < 0.8);
  const shown = new Random(`${group.name}/review-sample`).sampleIndices(below.length, Math.min(SHOWN, below.length)).map((i) => below[i]);
  samples.push([group, shown]);
}
print('$ node tests/bench/review-natural.js\n');
print('dedup(records, { review: 0.5 }) of each whole collection (no edits): pairs of groups to review, by similarity\n');
print(table(['collection', 'records', 'groups at 0.8', 'review pairs', '0.5-0.6', '0.6-0.7', '0.7-0.8', '≥ 0.8 (kept apart)', 'time'], rows));
const show = (text, group) => {
  const flat = text.replace(/\s+/g, ' ');
  return group.size === 'document' ? `${[...flat].slice(0, DOCUMENT_HEAD).join('')}…` : flat;
};
for (const [group, shown] of samples) {
  print(`\n### ${group.name}: ${shown.length} review pairs below 0.8, drawn at random\n`);
  shown.forEach((p, n) => {
    print(`${n + 1}. ${p.similarity.toFixed(3)}`);
    print(`   a: ${show(group.records[p.a], group)}`);
    print(`   b: ${show(group.records[p.b], group)}`);
  });
}
mkdirSync(new URL('../output/', import.meta.url), { recursive: true });
writeFileSync(new URL('../output/review-natural.txt', import.meta.url), lines.join('\n') + '\n');
