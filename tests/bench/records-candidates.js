// `node tests/bench/records-candidates.js [--rows=2500] [--lists=a,b]`: how many of the pairs
// that records' dedup would list or group its candidates hold (README "Records", docs/records.md
// "Candidates"). For each labelled list of tests/data/records/ (records-data.js), its first
// `rows` rows: the model and candidates of `matchRecords`, then every pair of rows scored
// under that model (`pairProbabilities`); printed, the pairs at the review threshold's default
// (0.1) and at the grouping's (0.99), how many of each the candidates hold, and of those left
// out how many are one entity. The goal the issue sets: 99% held at the review threshold.
import { readFileSync } from 'node:fs';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { Pacer } from '../../js/core/pacing.js';
import { DEFAULT_PROBABILITY, DEFAULT_RECORD_REVIEW } from '../../js/records/records.js';
import { matchRecords, pairProbabilities } from '../../js/records/matching.js';
import { recordFields } from '../../js/records/fields.js';
import { loadRecords } from './records-data.js';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const maxRows = Number(option('rows') ?? 2500);
const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url)) });

console.log('| list | rows | candidates | held at 0.1 | left out, one entity | held at 0.99 | left out, one entity |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const list of loadRecords({ names: option('lists')?.split(',') })) {
  const items = list.rows.slice(0, maxRows);
  const fields = recordFields(items);
  const rows = Uint32Array.from(items.keys());
  const pacer = new Pacer({});
  const { candidates, model } = await matchRecords(core, fields, rows, pacer);
  const n = rows.length;
  const all = { a: new Uint32Array((n * (n - 1)) / 2), b: new Uint32Array((n * (n - 1)) / 2) };
  for (let x = 0, p = 0; x < n; x++) for (let y = x + 1; y < n; y++, p++) [all.a[p], all.b[p]] = [x, y];
  const probability = await pairProbabilities(core, fields, rows, model, all, pacer);
  const held = new Set(Array.from(candidates.a, (x, p) => x * n + candidates.b[p]));
  const tally = [DEFAULT_RECORD_REVIEW, DEFAULT_PROBABILITY].map((at) => ({ at, above: 0, held: 0, missedTrue: 0 }));
  for (let p = 0; p < probability.length; p++) {
    for (const t of tally) {
      if (probability[p] < t.at) continue;
      t.above++;
      if (held.has(all.a[p] * n + all.b[p])) t.held++;
      else if (list.entities[all.a[p]] === list.entities[all.b[p]]) t.missedTrue++;
    }
  }
  const cells = tally.flatMap((t) => [`${t.held.toLocaleString('en')} of ${t.above.toLocaleString('en')} (${t.above ? (t.held / t.above).toFixed(3) : '-'})`, String(t.missedTrue)]);
  console.log(`| ${list.name} | ${n.toLocaleString('en')} | ${candidates.a.length.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
