// `npm run bench:lists`: near-duplicate methods on the labelled public lists of
// tests/data/lists/ (lists-data.js; names, companies, addresses, restaurants, product titles,
// person records). For each list and method: pair precision, recall and F1 against the
// entity labels (true pairs: two items of one entity), as a plain-text table per list.
//
// Two kinds of method (defaultMethods lists them; add one by adding an entry):
//   - threshold: a score in [0, 1] for every pair i < j; reported at its best-F1 threshold,
//     scanned over the observed scores (lists-metrics.js bestThreshold). Give one of
//       score(a, b) -> number, or
//       prepare(texts) -> (i, j) -> number (precompute per text), or
//       scorePairs(texts, a: Uint32Array, b: Uint32Array) -> Float64Array (batched);
//   - grouping: group(texts) -> { labels } (a partition: one label per item), or
//     { groups, overlapping: true } (groups that may share items), or { labels, links }
//     (a partition and links between its groups, as dedup's review pairs); may be async.
// An entry with peer: true is another library's (not ours): lists-peers.js sets dedup() at its
// defaults against each of them.
// An entry may set maxItems: on a longer list it runs on a sample of whole entities of that
// many items (seed --seed), in a second table, next to every other method run on the same
// sample, so that its figures can be set against theirs.
//
// Usage: node tests/bench/lists.js [--lists=a,b] [--max=N] [--methods=a,b] [--sample=N]
//          [--seed=N] [--scorers=MODULE]... [--json FILE]
//   --max caps every list (whole entities sampled); --methods keeps the methods whose name
//   contains one of the given strings; --sample sets the sample of the maxItems methods
//   (default 1500); --scorers adds the methods of a module whose default export is an
//   array of entries or a function (context) -> entries, context { sh, fuzz, stringSimilarity };
//   --json writes every figure. Such a module, e.g.:
//     export default ({ sh }) => [{ name: 'my scorer', type: 'threshold', score: (a, b) => mine(a, b) }];
// The WASM build must exist (npm run build, or `npm run bench:lists`, which builds first).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fuzz from 'fuzzball';
import stringSimilarity from 'string-similarity';
import { loadLists, sampleEntities } from './lists-data.js';
import {
  bestThreshold, entityCodes, linkedPartitionPairs, overlappingGroupPairs, partitionPairs, prf, truePairCount,
} from './lists-metrics.js';

const DEFAULT_SAMPLE = 1500;
// fuzzball's scorers take 1-15 µs a pair (names to one-line records): all 12.5M pairs of 5,000
// records would take 2-3 minutes each, its dedupe as long.
const SLOW_ITEMS = 1500;

// ---- OpenRefine's key collision keyers, written from its documentation ("Clustering in
// depth", openrefine.org/docs/technical-reference/clustering-in-depth) -------------------------

// Punctuation and control characters: Unicode punctuation, the ASCII symbols Java's
// \p{Punct} also counts (OpenRefine is Java), and C0/C1 controls.
const PUNCTUATION_OR_CONTROL = /[\p{P}$+<=>^`|~\p{Cc}]/gu;
// Letters NFD does not decompose, folded as ASCII transliterations usually do.
const ASCII_LETTERS = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/** "Normalize extended western characters to their ASCII representation": diacritics dropped. */
export function asciiFold(text) {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[ßæœøđðłþı]/g, (c) => ASCII_LETTERS[c]);
}

/**
 * Fingerprint keyer: trim, lowercase, remove punctuation and control characters, fold to
 * ASCII, split on whitespace, sort the tokens and drop duplicates, join with spaces.
 */
export function fingerprintKey(text) {
  const folded = asciiFold(text.trim().toLowerCase().replace(PUNCTUATION_OR_CONTROL, ''));
  return [...new Set(folded.split(/\s+/).filter(Boolean))].sort().join(' ');
}

/**
 * N-gram fingerprint keyer: lowercase, remove punctuation, whitespace and control characters,
 * take every n-gram (of code points), sort them and drop duplicates, join, fold to ASCII.
 * A text shorter than n has no n-gram: its key is empty.
 */
export function ngramFingerprintKey(text, n = 2) {
  const chars = Array.from(text.toLowerCase().replace(PUNCTUATION_OR_CONTROL, '').replace(/\s+/gu, ''));
  const grams = new Set();
  for (let i = 0; i + n <= chars.length; i++) grams.add(chars.slice(i, i + n).join(''));
  return asciiFold([...grams].sort().join(''));
}

/** Key collision as a partition: equal keys, one group; an empty key joins nothing. */
function keyLabels(texts, keyOf) {
  return texts.map((text, i) => {
    const key = keyOf(text);
    return key === '' ? `\u0000${i}` : key;
  });
}

// ---- normalized Levenshtein ------------------------------------------------------------------

const codePoints = (text) => Int32Array.from(Array.from(text.toLowerCase()), (c) => c.codePointAt(0));

/** Edit distance (insert, delete, substitute: 1 each) of two code point arrays. */
function levenshtein(a, b, row) {
  if (a.length < b.length) [a, b] = [b, a];
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(above + 1, row[j - 1] + 1, diagonal + (ai === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** 1 - distance / longer length, on lowercased code points; 1 for two empty strings. */
export function normalizedLevenshtein(a, b) {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const longer = Math.max(ca.length, cb.length);
  return longer ? 1 - levenshtein(ca, cb, new Int32Array(longer + 1)) / longer : 1;
}

/**
 * normalizedLevenshtein of texts[i] and texts[j], the same values, by the bit-parallel
 * algorithm of Hyyrö (2003) in blocks of 32 rows (as rapidfuzz's levenshtein_hyrroe2003_block):
 * O(length × blocks) a pair instead of O(length²). Per text: its code points as indices into
 * the list's alphabet, and the match masks of each symbol in each block (for its use as the
 * pattern, the shorter text of a pair).
 */
export function prepareNormalizedLevenshtein(texts) {
  const alphabet = new Map();
  const symbols = texts.map((text) => Int32Array.from(codePoints(text), (c) => {
    if (!alphabet.has(c)) alphabet.set(c, alphabet.size);
    return alphabet.get(c);
  }));
  const size = alphabet.size;
  const masks = symbols.map((pattern) => {
    const blocks = Math.ceil(pattern.length / 32);
    const peq = new Int32Array(size * blocks); // peq[symbol * blocks + block]
    pattern.forEach((symbol, row) => { peq[symbol * blocks + (row >> 5)] |= 1 << (row & 31); });
    return peq;
  });
  const maxBlocks = Math.max(1, ...symbols.map((p) => Math.ceil(p.length / 32)));
  const vp = new Int32Array(maxBlocks);
  const vn = new Int32Array(maxBlocks);
  return (i, j) => {
    if (symbols[i].length > symbols[j].length) [i, j] = [j, i];
    const pattern = symbols[i];
    const text = symbols[j];
    const m = pattern.length;
    if (m === 0) return text.length ? 0 : 1;
    const blocks = Math.ceil(m / 32);
    const peq = masks[i];
    const last = 1 << ((m - 1) & 31);
    vp.fill(-1, 0, blocks);
    vn.fill(0, 0, blocks);
    let distance = m;
    for (let t = 0; t < text.length; t++) {
      const row = text[t] * blocks;
      let hpCarry = 1; // the top row D[0][t] = t rises by one a column
      let hnCarry = 0;
      for (let k = 0; k < blocks; k++) {
        const VP = vp[k];
        const VN = vn[k];
        const X = peq[row + k] | hnCarry;
        const D0 = ((((X & VP) + VP) | 0) ^ VP) | X | VN;
        let HP = VN | ~(D0 | VP);
        let HN = D0 & VP;
        const hpIn = hpCarry;
        const hnIn = hnCarry;
        if (k < blocks - 1) {
          hpCarry = HP >>> 31;
          hnCarry = HN >>> 31;
        } else {
          hpCarry = (HP & last) !== 0 ? 1 : 0;
          hnCarry = (HN & last) !== 0 ? 1 : 0;
        }
        HP = (HP << 1) | hpIn;
        HN = (HN << 1) | hnIn;
        vp[k] = HN | ~(D0 | HP);
        vn[k] = HP & D0;
      }
      distance += hpCarry - hnCarry;
    }
    return 1 - distance / text.length;
  };
}

// ---- Dice (string-similarity) -------------------------------------------------------------

/**
 * stringSimilarity.compareTwoStrings of texts[i] and texts[j], the same values, from each
 * text's bigrams computed once: compareTwoStrings (string-similarity 4.0.4) removes whitespace,
 * gives 1 to equal strings and 0 when either is shorter than 2 UTF-16 units, else
 * 2 |A ∩ B| / (|A| + |B|) over the multisets of bigrams (pairs of adjacent UTF-16 units), here
 * sorted integer ids intersected by a merge.
 */
export function prepareDice(texts) {
  const ids = new Map();
  const stripped = texts.map((text) => text.replace(/\s+/g, ''));
  const bigrams = stripped.map((s) => {
    const out = new Int32Array(Math.max(0, s.length - 1));
    for (let k = 0; k + 1 < s.length; k++) {
      const bigram = s.substring(k, k + 2);
      if (!ids.has(bigram)) ids.set(bigram, ids.size);
      out[k] = ids.get(bigram);
    }
    return out.sort();
  });
  return (i, j) => {
    if (stripped[i] === stripped[j]) return 1;
    const x = bigrams[i];
    const y = bigrams[j];
    if (x.length < 1 || y.length < 1) return 0;
    let shared = 0;
    for (let p = 0, q = 0; p < x.length && q < y.length;) {
      if (x[p] === y[q]) { shared++; p++; q++; } else if (x[p] < y[q]) p++;
      else q++;
    }
    return (2.0 * shared) / (stripped[i].length + stripped[j].length - 2);
  };
}

// ---- the methods ---------------------------------------------------------------------------

/**
 * The compared methods, built on a loaded module: `sh` from js/node.js's init().
 * @returns {object[]} entries as the header describes
 */
export function defaultMethods(sh) {
  const labelsOfGroups = (n, groups) => {
    const labels = Int32Array.from({ length: n }, (_, i) => n + i); // a text in no group: a group of one
    groups.forEach((group, g) => { for (const i of group) labels[i] = g; });
    return labels;
  };
  // The list's own word weights, as dedup learns them (from its distinct texts), for the short measure's rows.
  const weightsOf = new WeakMap();
  const listWeights = (texts) => {
    if (!weightsOf.has(texts)) weightsOf.set(texts, sh.learnWeights([...new Set(texts)]));
    return weightsOf.get(texts);
  };
  return [
    {
      name: 'sh.similarity (text)', type: 'threshold',
      score: (a, b) => sh.similarity(a, b),
      // sh.similarities gives each pair the value sh.similarity gives it, in one call a batch.
      scorePairs: (texts, a, b) => sh.similarities(texts, { a, b }),
    },
    {
      name: 'sh.similarity (short)', type: 'threshold',
      score: (a, b) => sh.similarity(a, b, { measure: 'short' }),
      scorePairs: (texts, a, b) => sh.similarities(texts, { a, b }, { measure: 'short' }),
    },
    {
      name: 'sh.similarity (short, weights)', type: 'threshold',
      scorePairs: (texts, a, b) => sh.similarities(texts, { a, b }, { measure: 'short', weights: listWeights(texts) }),
    },
    // peer: another library's scorer or grouping, against which lists-peers.js sets dedup().
    { name: 'normalized Levenshtein', type: 'threshold', peer: true, score: normalizedLevenshtein, prepare: prepareNormalizedLevenshtein },
    {
      name: 'string-similarity (Dice)', type: 'threshold', peer: true,
      score: (a, b) => stringSimilarity.compareTwoStrings(a, b), prepare: prepareDice,
    },
    { name: 'fuzzball ratio', type: 'threshold', peer: true, maxItems: SLOW_ITEMS, score: (a, b) => fuzz.ratio(a, b) / 100 },
    { name: 'fuzzball token_sort_ratio', type: 'threshold', peer: true, maxItems: SLOW_ITEMS, score: (a, b) => fuzz.token_sort_ratio(a, b) / 100 },
    { name: 'fuzzball token_set_ratio', type: 'threshold', peer: true, maxItems: SLOW_ITEMS, score: (a, b) => fuzz.token_set_ratio(a, b) / 100 },
    { name: 'OpenRefine fingerprint', type: 'grouping', group: (texts) => ({ labels: keyLabels(texts, fingerprintKey) }) },
    { name: 'OpenRefine 2-gram fingerprint', type: 'grouping', group: (texts) => ({ labels: keyLabels(texts, (t) => ngramFingerprintKey(t, 2)) }) },
    {
      // fuzzball's dedupe at its defaults (QRatio, cutoff 70): for each item, the items scoring
      // >= 70 with it, represented by the longest. keepmap (which changes no decision) returns
      // each representative with that list of matches: a group; groups may overlap.
      name: 'fuzzball dedupe (defaults)', type: 'grouping', peer: true, maxItems: SLOW_ITEMS,
      group(texts) {
        const result = quietly(() => fuzz.dedupe(texts, { keepmap: true }));
        return { groups: result.map(([, , matches]) => matches.map((match) => Number(match[2]))), overlapping: true };
      },
    },
    {
      name: 'sh.dedup (defaults)', type: 'grouping',
      async group(texts) {
        const { groups } = await sh.dedup(texts);
        return { labels: labelsOfGroups(texts.length, groups) };
      },
    },
    {
      name: 'sh.dedup (text measure)', type: 'grouping',
      async group(texts) {
        const { groups } = await sh.dedup(texts, { measure: 'text' });
        return { labels: labelsOfGroups(texts.length, groups) };
      },
    },
    // Groups as the defaults', and the review pairs linking two groups: the row counts a
    // pair found when its items share a group or their groups are linked.
    ...[0.5, 0.4, 0.3].map((review) => ({
      name: `sh.dedup + review ${review}`, type: 'grouping',
      async group(texts) {
        const { groups, review: links = [], reviewOmitted = 0 } = await sh.dedup(texts, { review });
        return { labels: labelsOfGroups(texts.length, groups), links, reviewOmitted };
      },
    })),
  ];
}

/** fn's result, with console.log and console.warn silenced (fuzzball's dedupe logs its defaults). */
function quietly(fn) {
  const { log, warn } = console;
  console.log = console.warn = () => {};
  try {
    return fn();
  } finally {
    Object.assign(console, { log, warn });
  }
}

// ---- running -------------------------------------------------------------------------------

const PAIR_BATCH = 1 << 20;

/** Scores of every pair i < j (row-major) and of the true pairs, as float32; and the seconds taken. */
export function scoreAllPairs(method, texts, codes) {
  const n = texts.length;
  const all = new Float32Array((n * (n - 1)) / 2);
  const start = performance.now();
  if (method.scorePairs) {
    const a = new Uint32Array(PAIR_BATCH);
    const b = new Uint32Array(PAIR_BATCH);
    let filled = 0;
    let written = 0;
    const flush = () => {
      all.set(method.scorePairs(texts, a.subarray(0, filled), b.subarray(0, filled)), written);
      written += filled;
      filled = 0;
    };
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        a[filled] = i;
        b[filled] = j;
        if (++filled === PAIR_BATCH) flush();
      }
    }
    if (filled) flush();
  } else {
    const scoreOf = method.prepare ? method.prepare(texts) : (i, j) => method.score(texts[i], texts[j]);
    let k = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) all[k++] = scoreOf(i, j);
  }
  const seconds = (performance.now() - start) / 1000;
  const trueScores = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++, k++) if (codes[i] === codes[j]) trueScores.push(all[k]);
  }
  return { all, trueScores: Float32Array.from(trueScores), seconds };
}

async function runMethod(method, texts, codes, actual) {
  if (method.type === 'threshold') {
    const { all, trueScores, seconds } = scoreAllPairs(method, texts, codes);
    return { ...bestThreshold(all, trueScores), seconds };
  }
  const start = performance.now();
  const grouping = await method.group(texts);
  const seconds = (performance.now() - start) / 1000;
  if (grouping.links) {
    const counts = linkedPartitionPairs(grouping.labels, grouping.links, codes);
    const grouped = partitionPairs(grouping.labels, codes);
    return {
      tp: counts.tp, predicted: counts.predicted, ...prf(counts.tp, counts.predicted, actual), seconds,
      review: {
        entries: grouping.links.length, omitted: grouping.reviewOmitted ?? 0, groupedRecall: actual ? grouped.tp / actual : 1,
        linkedTruePairs: counts.linkedTp, linkedPairs: counts.linkedPredicted,
      },
    };
  }
  const counts = grouping.overlapping ? overlappingGroupPairs(grouping.groups, codes) : partitionPairs(grouping.labels, codes);
  return { tp: counts.tp, predicted: counts.predicted, ...prf(counts.tp, counts.predicted, actual), seconds };
}

/** Rows of the methods on one set of items. */
async function runOn(methods, { texts, entities }) {
  const codes = entityCodes(entities);
  const actual = truePairCount(entities);
  const rows = [];
  for (const method of methods) {
    try {
      rows.push({ method: method.name, type: method.type, ...(await runMethod(method, texts, codes, actual)) });
    } catch (error) {
      // A method that refuses these items (e.g. options the module rejects) is reported, not fatal.
      rows.push({ method: method.name, type: method.type, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { items: texts.length, truePairs: actual, rows };
}

/**
 * Runs the methods on every list.
 * @param {object[]} methods entries as the header describes
 * @param {{ lists?: string[], max?: number, sample?: number, seed?: number, onList?: (result) => void }} [options]
 * @returns {Promise<object[]>} per list: { name, kind, items, entities, truePairs, runs: [{ items, truePairs, sample?, rows }] }
 */
export async function scoreLists(methods, { lists: names, max, sample = DEFAULT_SAMPLE, seed = 1, onList } = {}) {
  const results = [];
  for (const list of loadLists({ names, maxItems: max, seed })) {
    const n = list.texts.length;
    const runs = [await runOn(methods.filter((m) => !(m.maxItems < n)), list)];
    const capped = methods.filter((m) => m.maxItems < n);
    if (capped.length) {
      const size = Math.min(sample, ...capped.map((m) => m.maxItems));
      const subset = sampleEntities(list, size, seed);
      runs.push({ ...(await runOn(methods, subset)), sample: { size, seed } });
    }
    const result = { name: list.name, kind: list.kind, items: n, entities: new Set(list.entities).size, truePairs: truePairCount(list.entities), runs };
    onList?.(result);
    results.push(result);
  }
  return results;
}

// ---- output --------------------------------------------------------------------------------

const fixed = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const seconds = (s) => (s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`);

/** One list's tables, as plain text. */
export function formatList(result) {
  const lines = [`== ${result.name}: ${result.kind}; ${result.items} items, ${result.entities} entities, ${result.truePairs} true pairs`];
  for (const run of result.runs) {
    lines.push(run.sample
      ? `-- on a sample of ${run.items} items (whole entities, seed ${run.sample.seed}; ${run.truePairs} true pairs), for the methods capped at ${run.sample.size}:`
      : `-- all ${run.items} items:`);
    const header = ['method', 'threshold', 'P', 'R', 'F1', 'pairs', 'time'];
    const table = run.rows.map((row) => (row.error ? [row.method, 'failed', '-', '-', '-', '-', '-'] : [row.method, row.type === 'threshold' ? fixed(row.threshold) : '-', fixed(row.precision),
      fixed(row.recall), fixed(row.f1), String(row.predicted), seconds(row.seconds)]));
    const widths = header.map((h, c) => Math.max(h.length, ...table.map((cells) => cells[c].length)));
    const render = (cells) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
    lines.push(render(header), ...table.map(render));
    for (const row of run.rows) {
      if (row.error) lines.push(`   ${row.method} failed: ${row.error}`);
      if (!row.review) continue;
      const { entries, omitted, groupedRecall, linkedTruePairs } = row.review;
      lines.push(`   ${row.method}: ${entries} review entries${omitted ? ` (+${omitted} omitted past reviewLimit)` : ''}; recall `
        + `${fixed(groupedRecall)} grouped -> ${fixed(row.recall)} with the linked groups; ${linkedTruePairs} true pairs found through `
        + `links only, ${linkedTruePairs ? fixed(entries / linkedTruePairs, 2) : '-'} review entries per such pair`);
    }
  }
  return lines.join('\n');
}

function parseArguments(argv) {
  const options = { scorers: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--lists') options.lists = value().split(',');
    else if (flag === '--max') options.max = Number(value());
    else if (flag === '--methods') options.methods = value().split(',');
    else if (flag === '--sample') options.sample = Number(value());
    else if (flag === '--seed') options.seed = Number(value());
    else if (flag === '--scorers') options.scorers.push(value());
    else if (flag === '--json') options.json = value();
    else throw new Error(`unknown argument ${argv[i]}; see the header of tests/bench/lists.js`);
  }
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const { init } = await import('../../js/node.js');
  const sh = await init();
  let methods = defaultMethods(sh);
  for (const file of options.scorers) {
    const extra = (await import(pathToFileURL(resolve(file)).href)).default;
    methods.push(...(typeof extra === 'function' ? await extra({ sh, fuzz, stringSimilarity }) : extra));
  }
  if (options.methods) methods = methods.filter((m) => options.methods.some((part) => m.name.includes(part)));
  const started = performance.now();
  const results = await scoreLists(methods, { ...options, onList: (result) => console.log(`${formatList(result)}\n`) });
  console.log(`total ${seconds((performance.now() - started) / 1000)}; thresholds are the best-F1 ones, found with the labels (an upper bound for a threshold chosen blind)`);
  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ node: process.version, date: new Date().toISOString(), lists: results }, null, 2) + '\n');
    console.log(`wrote ${options.json}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
