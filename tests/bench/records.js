// `npm run bench:records`: dedup on the labelled lists of records of tests/data/records/
// (records-data.js; FEBRL 1-4, DBLP-ACM, Abt-Buy, Amazon-Google, Fodors-Zagat and a hand-made
// contacts list; SOURCE.md there). For each list, these ways of calling the package:
//   records  sh.dedup(rows): the rows as plain objects, every field compared by its kind;
//   key      sh.dedup(rows, { key }): today's way, one string a row, its non-empty field values
//            joined by ', ' in the CSV's column order;
//   link     on two-source lists, sh.link(first source's rows, second's): its links as groups.
// For each: pair precision, recall and F1 against the entities (a true pair: two rows of one
// entity; a found pair: two rows of one group; lists-metrics.js partitionPairs), the wrong pairs,
// on two-source lists the same across the sources only (pairs of one row of each file, as
// two-source matchers such as ZeroER report theirs; pairs within one file left out of both
// counts),
// the review entries (when the result has `review`: how many, how many join two rows of one
// entity, and the recall of the pairs grouped or joined by a review entry between their groups,
// lists-metrics.js linkedPartitionPairs), the time, and the memory: the size of the WASM
// memory of a module loaded for that call alone, after it, and its growth during the call (it
// never shrinks, so that is the call's peak) and the peak of the JS heap above its level before the call (sampled every few ms, and
// after a GC when node runs with --expose-gc). A call that throws is reported as n/a with its
// message, and the other calls go on.
//
// Usage: node tests/bench/records.js [--lists=a,b] [--methods=records,key] [--json FILE]
// The WASM build must exist (npm run build, or `npm run bench:records`, which builds first).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { SimHash } from '../../js/simhash.js';
import { readsHanTable } from '../../js/node-loader.js';
import { loadRecords } from './records-data.js';
import { entityCodes, linkedPartitionPairs, partitionPairs, prf, truePairCount } from './lists-metrics.js';

const wasmBinary = readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url));
const SAMPLE_MS = 5;
const MiB = 2 ** 20;

/** The non-empty values of a row's fields, joined: the one key per row that dedup takes today. */
export const joinedKey = (fields) => (row) => fields.map((field) => row[field]).filter((value) => value !== '').join(', ');

export const METHODS = {
  records: { label: 'sh.dedup(rows)', run: (sh, list) => sh.dedup(list.rows) },
  key: { label: "key: fields joined by ', '", run: (sh, list) => sh.dedup(list.rows, { key: joinedKey(list.fields) }) },
  // Two-source lists only: each link a group of two, the review's rows indexing the whole list.
  link: {
    label: 'sh.link(first, second)',
    sides: true,
    run: async (sh, list) => {
      const n = list.sides[0].rows;
      const { links, review, ...result } = await sh.link(list.rows.slice(0, n), list.rows.slice(n));
      return { ...result, groups: links.map(({ a, b }) => [a, n + b]), review: review.map((entry) => ({ ...entry, b: n + entry.b })) };
    },
  },
};

/** One label per item from dedup's groups (item indices); an item in no group is alone. */
function labelsOfGroups(n, groups) {
  const labels = Int32Array.from({ length: n }, (_, i) => i);
  for (const group of groups) for (const i of group) labels[i] = group[0];
  return labels;
}

/** fn() run on a fresh module, timed, with its WASM growth and JS heap peak. */
async function measured(fn) {
  const sh = new SimHash(readsHanTable(await createSimhashCore({ wasmBinary })));
  globalThis.gc?.();
  const wasmBefore = sh.memoryBytes;
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); }, SAMPLE_MS);
  const started = performance.now();
  try {
    const result = await fn(sh);
    const ms = performance.now() - started;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    return { result, ms, wasmGrowth: sh.memoryBytes - wasmBefore, wasmBytes: sh.memoryBytes, heapPeak: heapPeak - heapBefore };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Pair counts across two sources, the first `firstRows` rows from one: { tp, predicted, actual }
 * of the pairs of one row of each, by the labels (a found pair) and the entity codes (a true one).
 */
function crossSourcePairs(labels, codes, firstRows) {
  const count = (keys) => {
    const sides = new Map(); // key -> [rows of the first source, rows of the second]
    keys.forEach((key, i) => {
      if (!sides.has(key)) sides.set(key, [0, 0]);
      sides.get(key)[i < firstRows ? 0 : 1]++;
    });
    let pairs = 0;
    for (const [first, second] of sides.values()) pairs += first * second;
    return pairs;
  };
  return {
    tp: count(Array.from(labels, (label, i) => `${label} ${codes[i]}`)),
    predicted: count(Array.from(labels)),
    actual: count(Array.from(codes)),
  };
}

/** Figures of one method on one list: { error } when the call threw. */
export async function scoreMethod(method, list) {
  let run;
  try {
    run = await measured((sh) => method.run(sh, list));
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  const { result } = run;
  const codes = entityCodes(list.entities);
  const actual = truePairCount(list.entities);
  const labels = labelsOfGroups(list.rows.length, result.groups);
  const { tp, predicted } = partitionPairs(labels, codes);
  const across = list.sides && crossSourcePairs(labels, codes, list.sides[0].rows);
  const figures = {
    ...(across && { across: prf(across.tp, across.predicted, across.actual) }),
    ms: run.ms, wasmGrowth: run.wasmGrowth, wasmBytes: run.wasmBytes, heapPeak: run.heapPeak,
    groups: result.groups.length, tp, predicted, wrong: predicted - tp, actual, ...prf(tp, predicted, actual),
  };
  if (Array.isArray(result.review)) {
    const links = result.review.filter((entry) => Number.isInteger(entry?.a) && Number.isInteger(entry?.b));
    const linked = linkedPartitionPairs(labels, links, codes);
    Object.assign(figures, {
      review: result.review.length,
      reviewOmitted: result.reviewOmitted ?? 0,
      reviewTrue: links.filter(({ a, b }) => codes[a] === codes[b]).length,
      reviewRecall: prf(linked.tp, linked.predicted, actual).recall,
    });
  }
  for (const key of ['fields', 'kinds']) if (result[key] !== undefined) figures[key] = result[key];
  return figures;
}

export async function scoreLists({ lists, methods = Object.keys(METHODS), onRow } = {}) {
  const rows = [];
  for (const list of loadRecords({ names: lists })) {
    for (const name of methods) {
      if (METHODS[name].sides && !list.sides) continue;
      const row = { list: list.name, rows: list.rows.length, truePairs: truePairCount(list.entities), method: name, ...await scoreMethod(METHODS[name], list) };
      rows.push(row);
      onRow?.(row);
    }
  }
  return rows;
}

const fixed = (x, digits = 3) => x.toFixed(digits);
const count = (n) => n.toLocaleString('en');

export const HEADER = ['list', 'rows', 'true pairs', 'method', 'P', 'R', 'F1', 'across sources: P / R / F1', 'found', 'wrong', 'review: true / entries', 'R grouped or reviewed', 'time', 'WASM MiB (+growth)', 'JS heap peak +MiB'];

/** A markdown table row of scoreLists' row. */
export function formatRow(row) {
  const head = [row.list, count(row.rows), count(row.truePairs), METHODS[row.method].label];
  if (row.error) return `| ${[...head, 'n/a', 'n/a', 'n/a', ...Array(HEADER.length - head.length - 3).fill('')].join(' | ')} |`;
  const review = row.review === undefined ? '' : `${count(row.reviewTrue)} / ${count(row.review)}${row.reviewOmitted ? ` (+${count(row.reviewOmitted)} omitted)` : ''}`;
  const across = row.across ? `${fixed(row.across.precision)} / ${fixed(row.across.recall)} / ${fixed(row.across.f1)}` : '';
  return `| ${[...head, fixed(row.precision), fixed(row.recall), fixed(row.f1), across, count(row.predicted), count(row.wrong), review,
    row.review === undefined ? '' : fixed(row.reviewRecall), `${(row.ms / 1000).toFixed(2)} s`, `${(row.wasmBytes / MiB).toFixed(0)} (+${(row.wasmGrowth / MiB).toFixed(0)})`, (row.heapPeak / MiB).toFixed(1)].join(' | ')} |`;
}

function parseArguments(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--lists') options.lists = value().split(',');
    else if (flag === '--methods') options.methods = value().split(',');
    else if (flag === '--json') options.json = value();
    else throw new Error(`unknown argument ${argv[i]}; see the header of tests/bench/records.js`);
  }
  const unknown = (options.methods ?? []).filter((name) => !METHODS[name]);
  if (unknown.length) throw new Error(`unknown method(s) ${unknown.join(', ')}; known: ${Object.keys(METHODS).join(', ')}`);
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  console.log(`| ${HEADER.join(' | ')} |\n|${HEADER.map(() => '---').join('|')}|`);
  const started = performance.now();
  const rows = await scoreLists({ ...options, onRow: (row) => console.log(formatRow(row)) });
  console.log('');
  for (const row of rows) {
    if (row.error) console.log(`${row.list}, ${METHODS[row.method].label}: n/a (${row.error})`);
    if (row.fields !== undefined) console.log(`${row.list}, ${METHODS[row.method].label}: fields ${JSON.stringify(row.fields)}`);
    if (row.kinds !== undefined) console.log(`${row.list}, ${METHODS[row.method].label}: kinds ${JSON.stringify(row.kinds)}`);
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s, node ${process.version}${globalThis.gc ? '' : ' (JS heap peaks without a GC before each call: run node with --expose-gc for steadier ones)'}`);
  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2) + '\n');
    console.log(`wrote ${options.json}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
