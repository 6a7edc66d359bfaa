// `npm run bench:text-index`: the costs issue 28 sets the text index (sh.createTextIndex),
// WASM through the package (js/node.js), one thread, at the default similarity.
//   - The stream, for N = 200k and 1M, on short texts: every record of Debian's `fortunes`
//     in a seeded order, then copies with 1-3 word edits (fortune-texts.js, as bench:dedup).
//     Each text queried (limit 1, as the CLI's --index) and added when nothing is found.
//     Per text, query and add together; the texts kept (checked equal to dedup's
//     uniqueIndices: the stream contract); the index's WASM heap (sh.heapBytesInUse after,
//     less before creating it) against the UTF-8 of the kept texts; and the same N through
//     sh.dedup (the batch tool, one thread), per text, as a ratio.
//   - 1M stored (--stored, through addAll in batches of --batch, 10,000), then --further
//     texts (200,000) queried (limit 1) and added when nothing is found, against them: enough
//     adds that the band table's merges (cpp/src/text_index/band_table.h: one per twelfth of growth)
//     weigh in the mean as they do in a long stream. Each query and add is timed alone:
//     the median and the slowest single call of each (a page stalls on its slowest call).
//     After the untimed passes below, --removes (10,000) random stored texts are removed,
//     each timed alone (median, slowest). What is stored, by --stored-corpus (one or both, comma-separated, run in that order):
//       synthetic (the default): an index a user fills holds texts that are mostly not
//         copies of each other, so these are short lines of 6-30 words (uniformly), each
//         word drawn at random from the words of the fortunes, weighted by how often each
//         occurs there (shingle statistics as natural text's; word order random), seeded.
//         They are checked not to be near-duplicates by sampling: the stream over the
//         first --check (200,000) keeps nearly all, and --sample (10,000) random stored
//         texts, queried against the full index, find nearly only themselves. The further
//         texts: in a seeded order, half copies of random stored texts with 1-3 word edits
//         (as fortune-texts.js: a word dropped, repeated or replaced by a drawn word), half
//         fresh lines; reported apart: how many edits found the text they copy.
//       fortunes: the first texts of the stream's corpus, duplicates and all, and the
//         further texts next in it: every record has about 48 edited copies among 1M, so a
//         query verifies dozens of candidates and finds dozens of answers. This measures a
//         copies-heavy index; synthetic, a query's cost when few stored texts resemble it.
//     Untimed: the further texts' full answers among the stored texts (mean count); the heap against the stored texts' UTF-8; serialize() and
//     loadTextIndex() of the index (median of --runs each), the loaded index checked to
//     answer the further texts as the original; loadTextIndex() in a fresh process (a page
//     that loads its index when it starts: no memory already grown by the index), with
//     the WASM memory it leaves. The API reports nothing about candidates,
//     so neither does this.
// The core verifies every candidate whatever the limit, so limit 1 costs what a full query
// costs but for the answers' JS objects.
// Medians of --runs runs (3) for N < 1M; one run for N >= 1M and for the 1M stored index.
// The machine is shared: the load average is printed with the figures. The defaults with
// both stored corpora run within 1,200 MB of JS heap (--max-old-space-size=1200) and 3.2 GB
// resident with the WASM memory; where Node's default heap limit is lower, run
// `node --max-old-space-size=8000 tests/bench/text-index.js`.
// Prints a table and writes it, with the command and the machine, to
// tests/bench/results/text-index.txt.
// --review=R: every index with review at R (createTextIndex({ review })): the stream adds a
// text when its first match is not a duplicate, the answers counted are the duplicates, and
// the table goes to tests/bench/results/text-index-review.txt.
// Usage: node tests/bench/text-index.js [N ...] [--runs=R] [--stored=M] [--batch=B] [--further=F]
//   [--stored-corpus=synthetic|fortunes] [--check=C] [--sample=S] [--removes=D] [--review=R]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SIMILARITY, init } from '../../js/node.js';
import { random64 } from '../js/helpers.js';
import { makeTexts, syntheticCorpus } from './fortune-texts.js';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const number = (name, fallback) => Number(option(name, fallback));
const SIZES = args.filter((a) => !a.startsWith('--')).map(Number);
if (SIZES.length === 0) SIZES.push(200_000, 1_000_000);
const RUNS = number('runs', 3);
const STORED = number('stored', 1_000_000);
const BATCH = number('batch', 10_000);
const FURTHER = number('further', 200_000);
const CHECK = number('check', 200_000);
const SAMPLE = number('sample', 10_000);
const REMOVES = number('removes', 10_000);
const CORPORA = option('stored-corpus', 'synthetic').split(',');
const REVIEW = option('review') === undefined ? undefined : number('review');
// The stream's rule: add a text unless its first match (duplicates come first) is a duplicate.
const hasDuplicate = (index, text) => index.query(text, { limit: 1 })[0]?.kind === 'duplicate';
const duplicatesOf = (index, text) => index.query(text).filter((m) => m.kind === 'duplicate');
for (const corpus of CORPORA) {
  if (corpus !== 'synthetic' && corpus !== 'fortunes') throw new Error(`--stored-corpus: synthetic or fortunes (comma-separated), got ${corpus}`);
}

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const count = (n) => n.toLocaleString('en');
const us = (ms, n) => `${((ms * 1000) / n).toFixed(2)} µs`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
// The median and the slowest of single calls' milliseconds.
const spread = (ms) => `${us(median(ms), 1)}, ${ms.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} ms`;
const utf8Bytes = (texts) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);

const sh = await init();
const loadBefore = loadavg()[0];
// Enough texts for the stream, for the fortunes stored part, and to hold every record
// (the synthetic lines' words).
const needed = Math.max(...SIZES, CORPORA.includes('fortunes') ? STORED + FURTHER : 0);
let fortuneTexts = makeTexts(needed);
if (fortuneTexts.records > needed) fortuneTexts = makeTexts(fortuneTexts.records);
const { texts } = fortuneTexts;

/** The stream over texts: the indices kept, its time and the index's WASM heap. */
function stream(slice) {
  const heapBefore = sh.heapBytesInUse;
  const index = sh.createTextIndex({ review: REVIEW });
  const kept = [];
  const start = performance.now();
  for (let i = 0; i < slice.length; i++) {
    if (!hasDuplicate(index, slice[i])) {
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

/**
 * The stored part on one corpus: `stored` through addAll (fresh ids: stored[i] has id i),
 * `further` queried and added when nothing is found. source[i], when given, is the stored
 * position further[i] copies (-1: none); `notes`, lines printed under the description.
 * Returns the lines of its tables.
 */
/**
 * loadTextIndex of the bytes in a new process, as a page that loads its index when it
 * starts: `runs` times, each one's milliseconds and the module's WASM memory after it.
 */
function loadInFreshProcesses(bytes, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-text-index-'));
  try {
    const file = join(dir, 'index.bin');
    writeFileSync(file, bytes);
    const program = `import { init } from ${JSON.stringify(new URL('../../js/node.js', import.meta.url).href)};
      import { readFileSync } from 'node:fs';
      const sh = await init();
      const bytes = new Uint8Array(readFileSync(${JSON.stringify(file)}));
      const start = performance.now();
      sh.loadTextIndex(bytes);
      console.log(JSON.stringify({ ms: performance.now() - start, memory: sh.memoryBytes }));`;
    return Array.from({ length: runs }, () => JSON.parse(execFileSync(process.execPath, ['--max-old-space-size=4000', '--input-type=module', '-e', program], { encoding: 'utf8' })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function storedPart(name, description, stored, further, source, notes = []) {
  const heapBefore = sh.heapBytesInUse;
  const index = sh.createTextIndex({ review: REVIEW });
  let start = performance.now();
  for (let b = 0; b < stored.length; b += BATCH) index.addAll(stored.slice(b, b + BATCH));
  const addAllMs = performance.now() - start;
  log(`${name}: addAll ${seconds(addAllMs)}`);
  const storedHeap = sh.heapBytesInUse - heapBefore;
  const storedBytes = utf8Bytes(stored);
  // Untimed: sampled stored texts queried against all of them; another answer than
  // itself is a near-duplicate among the stored texts.
  let sampledWithOther = 0;
  let sampledFoundSelf = 0;
  if (source) {
    const next = random64(29);
    for (let s = 0; s < SAMPLE; s++) {
      const id = Number(next() % BigInt(stored.length));
      const answers = duplicatesOf(index, stored[id]);
      if (answers.some((a) => a.id === id)) sampledFoundSelf++;
      if (answers.some((a) => a.id !== id)) sampledWithOther++;
    }
  }
  let added = 0;
  let answered = 0;
  // Each call timed alone: the median and the slowest (a page stalls on the slowest).
  const queryMs = new Float64Array(further.length);
  const addMs = new Float64Array(further.length);
  start = performance.now();
  for (let i = 0; i < further.length; i++) {
    const queryStart = performance.now();
    const duplicate = hasDuplicate(index, further[i]);
    const addStart = performance.now();
    queryMs[i] = addStart - queryStart;
    if (!duplicate) {
      index.add(further[i]);
      addMs[added++] = performance.now() - addStart;
    } else {
      answered++;
    }
  }
  const furtherMs = performance.now() - start;
  log(`${name}: ${count(further.length)} further texts ${seconds(furtherMs)}`);
  // Untimed: the full answers of the further texts among the stored texts (a further text
  // added is its own answer, not counted), the slowest query, and per kind of further text
  // when the corpus says what each copies.
  const kinds = { edited: { texts: 0, found: 0, foundSource: 0, answers: 0 }, fresh: { texts: 0, found: 0, foundSource: 0, answers: 0 } };
  let answers = 0;
  const storedAfter = index.size;
  for (let i = 0; i < further.length; i++) {
    const found = duplicatesOf(index, further[i]);
    const amongStored = found.filter((a) => a.id < stored.length);
    answers += amongStored.length;
    if (source) {
      const kind = kinds[source[i] >= 0 ? 'edited' : 'fresh'];
      kind.texts++;
      kind.answers += amongStored.length;
      if (amongStored.length > 0) kind.found++;
      if (amongStored.some((a) => a.id === source[i])) kind.foundSource++;
    }
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
    log(`${name}: serialize ${seconds(serializeRuns.at(-1))}, load ${seconds(loadRuns.at(-1))}`);
    if (r === 0) {
      const answersOf = (ix) => JSON.stringify(further.map((t) => ix.query(t)));
      if (loaded.size !== index.size || answersOf(loaded) !== answersOf(index)) throw new Error('the loaded index answers differently');
    }
    loaded.dispose();
  }
  // --removes random stored texts removed, each call timed alone.
  const removeMs = new Float64Array(REMOVES);
  const pick = random64(31);
  for (let r = 0; r < REMOVES; r++) {
    const id = Number(pick() % BigInt(stored.length));
    start = performance.now();
    index.remove(id);
    removeMs[r] = performance.now() - start;
  }
  index.dispose();
  const freshLoads = loadInFreshProcesses(bytes, RUNS);
  log(`${name}: load in a fresh process ${freshLoads.map((l) => seconds(l.ms)).join(', ')}, WASM memory ${mib(freshLoads[0].memory)}`);

  const lines = [];
  lines.push(`${count(stored.length)} texts stored, ${name}: ${description}`);
  lines.push(`${mib(storedBytes)} of UTF-8, ${(storedBytes / stored.length).toFixed(0)} bytes per text; addAll in batches of ${count(BATCH)}, one run; serialize and load: median of ${RUNS}`);
  lines.push(...notes);
  if (source) {
    lines.push(`Not near-duplicates: of ${count(SAMPLE)} stored texts sampled and queried against all of them, ${count(sampledWithOther)} found another stored text `
      + `at >= ${DEFAULT_SIMILARITY} (${count(sampledFoundSelf)} found themselves)`);
  }
  lines.push('');
  lines.push('| addAll per text | heap / UTF-8 | further texts | query + add per text | query: median, slowest | added | add: median, slowest | remove: median, slowest | answers per query (among the stored) | serialize | loadTextIndex | loadTextIndex in a fresh process, its WASM memory | bytes |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  lines.push(`| ${us(addAllMs, stored.length)} | ${mib(storedHeap)} / ${mib(storedBytes)} = ${(storedHeap / storedBytes).toFixed(2)}× | ${count(further.length)} (${count(answered)} found a match) `
    + `| ${us(furtherMs, further.length)} | ${spread(queryMs)} | ${count(added)} (${count(storedAfter)} stored after) | ${spread(addMs.subarray(0, added))} `
    + `| ${REMOVES === 0 ? '-' : `${spread(removeMs)} (${count(REMOVES)})`} | ${(answers / further.length).toFixed(2)} `
    + `| ${seconds(median(serializeRuns))} | ${seconds(median(loadRuns))} | ${seconds(median(freshLoads.map((l) => l.ms)))}, ${mib(freshLoads[0].memory)} `
    + `| ${count(bytes.length)} (${mib(bytes.length)}) |`);
  if (source) {
    lines.push('');
    lines.push('Further texts by kind (full queries after the timed pass; answers among the stored texts):');
    lines.push('');
    lines.push('| further texts | count | found a match | found the text they copy | answers per query |');
    lines.push('|---|---|---|---|---|');
    const { edited, fresh } = kinds;
    lines.push(`| copies of stored texts with 1-3 word edits | ${count(edited.texts)} | ${count(edited.found)} | ${count(edited.foundSource)} | ${(edited.answers / edited.texts).toFixed(2)} |`);
    lines.push(`| fresh lines | ${count(fresh.texts)} | ${count(fresh.found)} | - | ${(fresh.answers / fresh.texts).toFixed(2)} |`);
  }
  return lines;
}

const storedLines = [];
for (const corpus of CORPORA) {
  storedLines.push('');
  if (corpus === 'synthetic') {
    const { stored, further, source } = syntheticCorpus(texts.slice(0, fortuneTexts.records), STORED, FURTHER);
    const check = stream(stored.slice(0, CHECK));
    log(`synthetic: stream over the first ${count(CHECK)} kept ${count(check.kept.length)}`);
    storedLines.push(...storedPart('synthetic', 'lines of 6-30 words drawn at random by the words\' frequencies in the fortunes; an index of texts that are '
      + 'not copies of each other. Further texts: half copies of random stored lines with 1-3 word edits, half fresh lines', stored, further, source,
    [`Not near-duplicates: the first ${count(Math.min(CHECK, STORED))} streamed (query, add when nothing is found) keep ${count(check.kept.length)}`]));
  } else {
    storedLines.push(...storedPart('fortunes', 'the stream\'s corpus (fortunes, then copies with 1-3 word edits), duplicates included: each record has '
      + `about ${Math.round(STORED / fortuneTexts.records)} near-copies stored, so a query verifies and finds about as many; a copies-heavy index. Further texts: the next in that corpus`,
    texts.slice(0, STORED), texts.slice(STORED, STORED + FURTHER)));
  }
}

const lines = [];
lines.push(`text index at the default similarity (${DEFAULT_SIMILARITY})${REVIEW === undefined ? "" : `, review ${REVIEW}`}, WASM, one thread`);
lines.push(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
lines.push('');
lines.push('Stream over fortunes with 1-3 word edits (tests/bench/fortune-texts.js): query each text (limit 1), add it when nothing is found; '
  + 'heap = WASM heap of the index / UTF-8 of the kept texts');
lines.push('');
lines.push('| N | runs (median) | query + add per text | kept | kept = dedup\'s uniqueIndices | heap / UTF-8 | sh.dedup per text | stream / dedup |');
lines.push('|---|---|---|---|---|---|---|---|');
for (const row of streamRows) lines.push(`| ${row.join(' | ')} |`);
lines.push(...storedLines);

const table = lines.join('\n');
console.log(table);
const command = ['node', ...process.execArgv, 'tests/bench/text-index.js', ...args].join(' ');
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} logical cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.versions.node}`;
writeFileSync(new URL(`./results/text-index${REVIEW === undefined ? '' : '-review'}.txt`, import.meta.url), `$ ${command}\n\n${machine}\n\n${table}\n`);
