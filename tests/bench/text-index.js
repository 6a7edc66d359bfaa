// `npm run bench:text-index`: the costs issue 28 sets the text index (sh.createTextIndex),
// WASM through the package (js/node.js), one thread, at the default similarity. Texts: short
// ones, every record of Debian's `fortunes` in a seeded order, then copies with 1-3 word
// edits (fortune-texts.js, as bench:dedup).
//   - The stream, for N = 200k and 1M: each text queried (limit 1, as the CLI's --index)
//     and added when nothing is found. Per text, query and add together; the texts kept
//     (checked equal to dedup's uniqueIndices: the stream contract); the index's WASM heap
//     (sh.heapBytesInUse after, less before creating it) against the UTF-8 of the kept texts;
//     and the same N through sh.dedup (the batch tool, one thread), per text, as a ratio.
//   - 1M stored: the first 1M texts, duplicates and all, through addAll in batches of
//     --batch (10,000); then 10,000 further texts of the same stream queried and added when
//     nothing is found, against them (each base record has about 48 edited copies among
//     the 1M, so a query verifies dozens of candidates); untimed, the further texts' full
//     answers (mean count) and the slowest single query; the heap against the stored texts'
//     UTF-8; serialize() and loadTextIndex() of the index (median of --runs each), the loaded
//     index checked to answer the further texts as the original.
// The core verifies every candidate whatever the limit, so limit 1 costs what a full query
// costs but for the answers' JS objects.
// Medians of --runs runs (3) for N < 1M; one run for N >= 1M and for the 1M stored index.
// The machine is shared: the load average is printed with the figures. The 1M parts run
// within 1,200 MB of JS heap (--max-old-space-size=1200) and about 2 GB resident with the
// WASM memory; where Node's default heap limit is lower, run
// `node --max-old-space-size=8000 tests/bench/text-index.js`.
// Prints a table and writes it, with the command and the machine, to
// tests/bench/results/text-index.txt.
// Usage: node tests/bench/text-index.js [N ...] [--runs=R] [--stored=M] [--batch=B] [--further=F]
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { DEFAULT_SIMILARITY, init } from '../../js/node.js';
import { makeTexts } from './fortune-texts.js';

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SIZES = args.filter((a) => !a.startsWith('--')).map(Number);
if (SIZES.length === 0) SIZES.push(200_000, 1_000_000);
const RUNS = option('runs', 3);
const STORED = option('stored', 1_000_000);
const BATCH = option('batch', 10_000);
const FURTHER = option('further', 10_000);

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const count = (n) => n.toLocaleString('en');
const us = (ms, n) => `${((ms * 1000) / n).toFixed(2)} µs`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const utf8Bytes = (texts) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);

const sh = await init();
const loadBefore = loadavg()[0];
const texts = makeTexts(Math.max(...SIZES, STORED + FURTHER)).texts;

/** The stream over texts: the indices kept, its time and the index's WASM heap. */
function stream(slice) {
  const heapBefore = sh.heapBytesInUse;
  const index = sh.createTextIndex();
  const kept = [];
  const start = performance.now();
  for (let i = 0; i < slice.length; i++) {
    if (index.query(slice[i], { limit: 1 }).length === 0) {
      index.add(slice[i]);
      kept.push(i);
    }
  }
  const ms = performance.now() - start;
  const heap = sh.heapBytesInUse - heapBefore;
  index.dispose();
  return { ms, kept, heap };
}

async function timedDedup(slice) {
  const start = performance.now();
  const result = await sh.dedup(slice);
  return { ms: performance.now() - start, result };
}

const streamRows = [];
for (const n of SIZES) {
  const slice = texts.slice(0, n);
  const runs = n >= 1_000_000 ? 1 : RUNS;
  const streams = [];
  const dedups = [];
  for (let r = 0; r < runs; r++) {
    streams.push(stream(slice));
    log(`N = ${count(n)}: stream ${seconds(streams.at(-1).ms)}`);
    dedups.push(await timedDedup(slice));
    log(`N = ${count(n)}: dedup ${seconds(dedups.at(-1).ms)}`);
  }
  const { kept, heap } = streams[0];
  const same = JSON.stringify(kept) === JSON.stringify(dedups[0].result.uniqueIndices);
  const keptBytes = utf8Bytes(kept.map((i) => slice[i]));
  const streamMs = median(streams.map((x) => x.ms));
  const dedupMs = median(dedups.map((x) => x.ms));
  streamRows.push([count(n), runs, us(streamMs, n), count(kept.length), same ? 'yes' : 'NO',
    `${mib(heap)} / ${mib(keptBytes)} = ${(heap / keptBytes).toFixed(2)}×`, us(dedupMs, n), `${(streamMs / dedupMs).toFixed(2)}×`]);
}

// The stored index: the first STORED texts, then FURTHER texts streamed against them.
const stored = texts.slice(0, STORED);
const further = texts.slice(STORED, STORED + FURTHER);
const heapBefore = sh.heapBytesInUse;
const index = sh.createTextIndex();
let start = performance.now();
for (let b = 0; b < stored.length; b += BATCH) index.addAll(stored.slice(b, b + BATCH));
const addAllMs = performance.now() - start;
log(`${count(STORED)} stored: addAll ${seconds(addAllMs)}`);
const storedHeap = sh.heapBytesInUse - heapBefore;
const storedBytes = utf8Bytes(stored);
let added = 0;
let answered = 0;
start = performance.now();
for (const text of further) {
  if (index.query(text, { limit: 1 }).length === 0) {
    index.add(text);
    added++;
  } else {
    answered++;
  }
}
const furtherMs = performance.now() - start;
log(`${count(STORED)} stored: ${count(FURTHER)} further texts ${seconds(furtherMs)}`);
// Untimed above: the answers of full queries of the further texts, and the slowest one.
let answers = 0;
let slowest = 0;
for (const text of further) {
  start = performance.now();
  answers += index.query(text).length;
  slowest = Math.max(slowest, performance.now() - start);
}
const serializeRuns = [];
const loadRuns = [];
let bytes;
for (let r = 0; r < RUNS; r++) {
  start = performance.now();
  bytes = index.serialize();
  serializeRuns.push(performance.now() - start);
  start = performance.now();
  const loaded = sh.loadTextIndex(bytes);
  loadRuns.push(performance.now() - start);
  log(`${count(STORED)} stored: serialize ${seconds(serializeRuns.at(-1))}, load ${seconds(loadRuns.at(-1))}`);
  if (r === 0) {
    const answers = (ix) => JSON.stringify(further.map((t) => ix.query(t)));
    if (loaded.size !== index.size || answers(loaded) !== answers(index)) throw new Error('the loaded index answers differently');
  }
  loaded.dispose();
}
const storedSize = index.size;
index.dispose();

const lines = [];
lines.push(`text index at the default similarity (${DEFAULT_SIMILARITY}), WASM, one thread; fortunes with 1-3 word edits (tests/bench/fortune-texts.js)`);
lines.push(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
lines.push('');
lines.push('Stream: query each text (limit 1), add it when nothing is found; heap = WASM heap of the index / UTF-8 of the kept texts');
lines.push('');
lines.push('| N | runs (median) | query + add per text | kept | kept = dedup\'s uniqueIndices | heap / UTF-8 | sh.dedup per text | stream / dedup |');
lines.push('|---|---|---|---|---|---|---|---|');
for (const row of streamRows) lines.push(`| ${row.join(' | ')} |`);
lines.push('');
lines.push(`${count(STORED)} texts stored (addAll in batches of ${count(BATCH)}, duplicates included), one run; serialize and load: median of ${RUNS}`);
lines.push('');
lines.push('| addAll per text | heap / UTF-8 | further texts | query + add per text | added | answers per query, slowest query | serialize | loadTextIndex | bytes |');
lines.push('|---|---|---|---|---|---|---|---|---|');
lines.push(`| ${us(addAllMs, STORED)} | ${mib(storedHeap)} / ${mib(storedBytes)} = ${(storedHeap / storedBytes).toFixed(2)}× | ${count(FURTHER)} (${count(answered)} found a match) `
  + `| ${us(furtherMs, FURTHER)} | ${count(added)} (${count(storedSize)} stored after) | ${(answers / FURTHER).toFixed(1)}, ${(slowest).toFixed(1)} ms `
  + `| ${seconds(median(serializeRuns))} | ${seconds(median(loadRuns))} | ${count(bytes.length)} (${mib(bytes.length)}) |`);

const table = lines.join('\n');
console.log(table);
const command = ['node', ...process.execArgv, 'tests/bench/text-index.js', ...args].join(' ');
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} logical cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.versions.node}`;
writeFileSync(new URL('./results/text-index.txt', import.meta.url), `$ ${command}\n\n${machine}\n\n${table}\n`);
