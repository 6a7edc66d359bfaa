// The best pair F1 a dedup of DBLP-ACM as one list can reach while it groups the rows no field
// tells apart: pairs of rows of different entities with the same title, the same set of
// authors' surnames and the same year, case, diacritics and punctuation aside (the venue is
// written per source: `SIGMOD Record` / `ACM SIGMOD Record`). With every true pair found and
// only those wrong, precision is true / (true + wrong). docs/records.md quotes it.
//   node tests/bench/records-ceiling.js
import { loadRecords } from './records-data.js';
import { truePairCount } from './lists-metrics.js';

const list = loadRecords({ names: ['dblp-acm'] })[0];
const folded = (value) => String(value).toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const surnames = (authors) => [...new Set(String(authors).split(',').map((name) => folded(name).split(' ').at(-1)).filter(Boolean))].sort().join(' ');
const rowsByKey = new Map();
list.rows.forEach((row, i) => {
  const key = JSON.stringify([folded(row.title), surnames(row.authors), folded(row.year)]);
  rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), i]);
});
let same = 0;
let different = 0;
for (const rows of rowsByKey.values()) {
  for (let x = 0; x < rows.length; x++) for (let y = x + 1; y < rows.length; y++) list.entities[rows[x]] === list.entities[rows[y]] ? same++ : different++;
}
const truePairs = truePairCount(list.entities);
const precision = truePairs / (truePairs + different);
console.log(`dblp-acm: ${truePairs} true pairs; rows no field tells apart: ${same} pairs of one entity, ${different} of two`);
console.log(`ceiling as one list: precision ${precision.toFixed(3)} at recall 1, F1 ${((2 * precision) / (1 + precision)).toFixed(3)}`);
