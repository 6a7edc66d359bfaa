// `node tests/bench/light-edits.js` (also `npm run bench:quality`, its last section): the
// light-edit protocol of issue 27. For one-line texts (10-300 code points: English and
// Chinese fortunes, Japanese manual-page sentences) and documents (2-20 KB: the PostgreSQL
// manual, the Chinese and Japanese Debian Reference) apart, every kind of light edit at its
// maximum (quality/light-edits.js) and two kinds of negatives: random record pairs, and
// topical neighbours (record pairs whose current similarity is 0.3-0.5, from the core's
// exact join over a sample of the records). It prints, per measure (quality/measures.js),
// the share of each kind's pairs whose similarity is at least s, for s = 0.5 ... 0.9.
// The current similarity is the core's (WASM, build/wasm/bench); the JS mirror of it must
// agree on every pair (checked). The candidates are exact definitions computed in JS.
// For each set-based measure it also gives the J that 97% of each kind's pairs reach in
// its own sets, and what MinHash banding at that J would cost: the expected chance
// candidates per million random pairs (bandingFor's rule, cpp/src/bands/similar_groups.cpp).
// Last, what dedup does with each pair: grouped at the defaults, and grouped or listed for
// review with review 0.5 (README "Review"), against the targets of issue 35.
// Seeded (quality/random.js); writes tests/output/light-edits.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEnglish, loadChinese, loadJapanese, loadLongDocuments, loadReferenceDocuments } from './quality/corpora.js';
import { lightEditPairs, randomPairs, KIND_NAMES } from './quality/light-edits.js';
import { Measured, SET_MEASURES } from './quality/measures.js';
import { Random } from './quality/random.js';
import { loadCore, encodeBatch, similarityJoin, pairSimilarities } from './quality/exact.js';
import { table, f3 } from './quality/table.js';

export const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
export const TARGET_RECALL = 0.97;   // issue 27: each kind of light edit grouped at least this often
export const TARGET_NEGATIVES = 0.005; // ... and at most this share of each kind of negative
const SHORT_BASES = 1000;
const DOCUMENT_BASES = 150;
const RANDOM = { short: 10000, document: 2000 };
const NEIGHBOUR_SAMPLE = { short: 5000, document: 800 }; // records the join looks among
const NEIGHBOURS = 2000;           // neighbour pairs kept (at most)
const EDIT_MAX_TOKENS = 100;       // the edit similarity is defined for texts of at most this many tokens
const NEGATIVE_KINDS = ['random', 'neighbours'];

const fits = (record) => {
  const n = [...record].length;
  return n >= 10 && n <= 300;
};

/** The groups: one-line texts per language, then documents per language. */
export function groups() {
  const short = [loadEnglish(), loadChinese(), loadJapanese()].map((c) => ({
    name: `${c.name} one-line`, language: c.language ?? c.name, size: 'short', records: c.records.filter(fits), bases: SHORT_BASES,
  }));
  const documents = [loadLongDocuments(), loadReferenceDocuments('chinese'), loadReferenceDocuments('japanese')].map((c) => ({
    name: `${c.name} documents`, language: c.language, size: 'document', records: c.records, bases: Math.min(DOCUMENT_BASES, c.records.length),
  }));
  return [...short, ...documents];
}

/** The records of one group that the natural pairs and the neighbours are drawn among (seeded). */
export function naturalSample(group) {
  return new Random(`${group.name}/neighbour-sample`).sampleIndices(group.records.length, NEIGHBOUR_SAMPLE[group.size]).map((i) => group.records[i]);
}

/** The pairs of one group, each with its kind and the core's current similarity. */
function groupPairs(core, group) {
  const edits = lightEditPairs(group);
  const texts = [...edits.texts];
  const indexOf = new Map(texts.map((t, i) => [t, i]));
  const add = (t) => {
    let i = indexOf.get(t);
    if (i === undefined) indexOf.set(t, (i = texts.push(t) - 1));
    return i;
  };
  const pairs = edits.pairs.map((p) => ({ ...p }));
  for (const [i, j] of randomPairs(group, RANDOM[group.size])) pairs.push({ a: add(group.records[i]), b: add(group.records[j]), kind: 'random' });
  const sample = naturalSample(group);
  const join = similarityJoin(core, encodeBatch(sample), 0.3);
  const near = [];
  for (let p = 0; p < join.a.length; p++) if (join.similarity[p] < 0.5) near.push(p);
  const kept = new Random(`${group.name}/neighbours`).sampleIndices(near.length, NEIGHBOURS).map((q) => near[q]);
  for (const p of kept) pairs.push({ a: add(sample[join.a[p]]), b: add(sample[join.b[p]]), kind: 'neighbours' });
  const current = pairSimilarities(core, encodeBatch(texts), Uint32Array.from(pairs, (p) => p.a), Uint32Array.from(pairs, (p) => p.b));
  pairs.forEach((p, i) => (p.current = current[i]));
  const natural = THRESHOLDS.map((s) => join.similarity.filter((x) => x >= s - 1e-12).length);
  const examples = [];
  for (const p of new Random(`${group.name}/natural-examples`).shuffled([...join.a.keys()])) {
    if (join.similarity[p] >= 0.5 && join.similarity[p] < 0.65 && examples.length < 4) examples.push([join.similarity[p], sample[join.a[p]], sample[join.b[p]]]);
  }
  return { texts, pairs, neighboursFound: near.length, sampled: sample.length, natural, examples };
}

const shareAtLeast = (values, s) => (values.length ? values.filter((v) => v >= s - 1e-12).length / values.length : NaN);
const percentile = (values, q) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** Banding as cpp/src/bands/similar_groups.cpp bandingFor chooses it for threshold t. */
export function bandingFor(t) {
  for (let rows = 5; rows >= 1; rows--) {
    const perBand = t ** rows;
    for (let bands = 1; rows * bands <= 256; bands++) {
      if (1 - (1 - perBand) ** bands >= 0.995) {
        if (rows * bands <= 128 || rows === 1) return { rows, bands };
        break;
      }
    }
  }
  return { rows: 1, bands: 256 };
}
const candidateProbability = ({ rows, bands }, j) => 1 - (1 - j ** rows) ** bands;

export async function lightEditReport(print, context = {}) {
  const started = performance.now();
  const { core, sh } = context.core ? context : await loadCore();
  const only = process.argv.find((a) => a.startsWith('--groups='))?.slice(9);
  const all = groups().filter((g) => !only || only.split(',').some((x) => g.name.startsWith(x)));
  const kinds = [...KIND_NAMES, ...NEGATIVE_KINDS];
  const data = [];
  const groupTexts = new Map(); // group name -> the texts its pairs index

  print(`\n## Light edits (issue 27): per kind, per language, one-line texts and documents apart\n`);
  for (const group of all) {
    const t0 = performance.now();
    const { texts, pairs, neighboursFound, sampled, natural, examples } = groupPairs(core, group);
    const measured = new Measured(); // per group: the sets of one group's texts at a time
    // The JS mirror of the current definition must agree with the core on every pair.
    let disagree = 0;
    for (const p of pairs) {
      p.values = {};
      for (const m of Object.keys(SET_MEASURES)) p.values[m] = measured.jaccard(texts[p.a], texts[p.b], m);
      p.values['edit tokens'] = measured.edit(texts[p.a], texts[p.b], EDIT_MAX_TOKENS);
      p.values['max(J 3/2, edit tokens)'] = Math.max(p.current, p.values['edit tokens'] ?? 0);
      p.tokens = Math.max(measured.tokens(texts[p.a]).length, measured.tokens(texts[p.b]).length);
      if (Math.abs(p.values['J 3/2 (current)'] - p.current) > 1e-9) disagree++;
    }
    data.push({ group, pairs, natural, examples, sampled });
    groupTexts.set(group.name, texts);
    const count = (k) => pairs.filter((p) => p.kind === k).length;
    print(`${group.name}: ${group.records.length} records, ${group.bases} bases; pairs: ${KIND_NAMES.map((k) => `${k} ${count(k)}`).join(', ')}; ` +
      `random ${count('random')}; neighbours ${count('neighbours')} (of ${neighboursFound} with current J 0.3-0.5 among ${sampled} records); ` +
      `JS mirror vs core: ${disagree} of ${pairs.length} pairs differ (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }

  const valuesOf = (pairs, kind, measure) => pairs.filter((p) => p.kind === kind).map((p) => p.values[measure] ?? p.current);
  const kindsOf = (pairs) => kinds.filter((k) => pairs.some((p) => p.kind === k));

  print(`\n### Natural pairs: pairs of the sampled records (no edits) with current similarity ≥ s\n`);
  print(table(['group', 'records', ...THRESHOLDS.map(String)], data.map((d) => [d.group.name, d.sampled, ...d.natural])));
  print('\nExamples with current similarity 0.5-0.65 (one-line texts, up to 4 per group, drawn at random):\n');
  for (const d of data.filter((x) => x.group.size === 'short')) {
    for (const [j, a, b] of d.examples) print(`- ${d.group.name}, ${f3(j)}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }

  // Full tables for the current definition.
  print(`\n### Current definition (core, README "Similarity"): share of pairs with similarity ≥ s\n`);
  for (const { group, pairs } of data) {
    print(`${group.name}:\n`);
    print(table(['kind', 'pairs', 'p3 J', ...THRESHOLDS.map(String)], kindsOf(pairs).map((k) => {
      const v = pairs.filter((p) => p.kind === k).map((p) => p.current);
      return [k, v.length, f3(percentile(v, 0.03)), ...THRESHOLDS.map((s) => f3(shareAtLeast(v, s)))];
    })));
    print('');
  }

  for (const measure of ['edit tokens', 'max(J 3/2, edit tokens)']) {
    print(`### ${measure}: share of pairs with similarity ≥ s (one-line texts)\n`);
    for (const { group, pairs } of data.filter((d) => d.group.size === 'short')) {
      const usable = pairs.filter((p) => p.values[measure] !== null);
      print(`${group.name}:\n`);
      print(table(['kind', 'pairs', 'p3', ...THRESHOLDS.map(String)], kindsOf(usable).map((k) => {
        const v = valuesOf(usable, k, measure);
        return [k, v.length, f3(percentile(v, 0.03)), ...THRESHOLDS.map((s) => f3(shareAtLeast(v, s)))];
      })));
      print('');
    }
  }

  // Summary per measure: the worst light-edit kind and the worst negative at each s.
  const measures = [...Object.keys(SET_MEASURES), 'edit tokens', 'max(J 3/2, edit tokens)'];
  print(`### Every measure: worst kind's share ≥ s (light edits) / highest negative share ≥ s, per group\n`);
  print(`(edit tokens: 1 - Levenshtein/max over tokens — words and CJK characters — for texts of at most ${EDIT_MAX_TOKENS} tokens)\n`);
  for (const measure of measures) {
    const rows = data.map(({ group, pairs }) => {
      const usable = pairs.filter((p) => p.values[measure] !== null);
      const edits = KIND_NAMES.filter((k) => usable.some((p) => p.kind === k));
      return [group.name, ...THRESHOLDS.map((s) => {
        const worst = edits.length ? Math.min(...edits.map((k) => shareAtLeast(valuesOf(usable, k, measure), s))) : NaN;
        const negative = Math.max(...NEGATIVE_KINDS.map((k) => shareAtLeast(valuesOf(usable, k, measure), s) || 0));
        return `${f3(worst)} / ${f3(negative)}`;
      })];
    });
    print(`${measure}:\n`);
    print(table(['group', ...THRESHOLDS.map(String)], rows));
    print('');
  }

  // Per set measure: the J 97% of each light-edit kind reach, and banding's chance candidates there.
  print(`### Candidate path: the J that ${TARGET_RECALL * 100}% of every light-edit kind reach in each measure's own sets, and banding at it\n`);
  print('Chance candidates: expected candidate pairs per million random record pairs, with bandingFor\'s rows × bands at that J.\n');
  const bandingRows = [];
  for (const measure of Object.keys(SET_MEASURES)) {
    for (const { group, pairs } of data) {
      const edits = KIND_NAMES.filter((k) => pairs.some((p) => p.kind === k));
      const needed = Math.min(...edits.map((k) => percentile(valuesOf(pairs, k, measure), 1 - TARGET_RECALL)));
      const weakest = edits.reduce((w, k) => (percentile(valuesOf(pairs, k, measure), 1 - TARGET_RECALL) < percentile(valuesOf(pairs, w, measure), 1 - TARGET_RECALL) ? k : w));
      const b = bandingFor(Math.max(needed, 0.05));
      const random = valuesOf(pairs, 'random', measure);
      const chance = (1e6 * random.reduce((sum, j) => sum + candidateProbability(b, j), 0)) / random.length;
      bandingRows.push([measure, group.name, f3(needed), weakest, `${b.rows} × ${b.bands}`, chance.toFixed(0)]);
    }
  }
  for (const { group, pairs } of data) {
    const b = bandingFor(0.8);
    const random = valuesOf(pairs, 'random', 'J 3/2 (current)');
    const chance = (1e6 * random.reduce((sum, j) => sum + candidateProbability(b, j), 0)) / random.length;
    bandingRows.push(['J 3/2 at today\'s default 0.8 (reference)', group.name, '', '', `${b.rows} × ${b.bands}`, chance.toFixed(0)]);
  }
  print(table(['measure', 'group', 'J reached by 97%', 'weakest kind', 'banding', 'chance per 1M'], bandingRows));

  print(`\n### What dedup does with each pair: grouped at the defaults (0.8), and grouped or listed for review with \`review: 0.5\`\n`);
  print(`Each pair deduplicated on its own (\`sh.dedup([a, b], { review: 0.5 })\`: its groups are those of the defaults), so candidates, the`);
  print(`sketches and verification all count. Targets: the format edits (whitespace, punctuation, case, width, swapped sentences) grouped`);
  print(`at the defaults ≥ ${TARGET_RECALL}; every light edit grouped or listed ≥ ${TARGET_RECALL}; negatives grouped or listed ≤ ${TARGET_NEGATIVES} (✗ marks a miss).\n`);
  const FORMAT_KINDS = ['whitespace', 'punctuation', 'case', 'width', 'swap sentences'];
  const dedupRows = [];
  for (const { group, pairs } of data) {
    const texts = groupTexts.get(group.name);
    for (const kind of kindsOf(pairs)) {
      let grouped = 0;
      let either = 0;
      const ofKind = pairs.filter((p) => p.kind === kind);
      for (const p of ofKind) {
        const result = await sh.dedup([texts[p.a], texts[p.b]], { review: 0.5 });
        grouped += result.groups.length;
        either += result.groups.length + result.review.length;
      }
      const negative = NEGATIVE_KINDS.includes(kind);
      const [g, e] = [grouped / ofKind.length, either / ofKind.length];
      const mark = (ok) => (ok ? '' : ' ✗');
      dedupRows.push([group.name, kind, String(ofKind.length),
        `${f3(g)}${mark(!FORMAT_KINDS.includes(kind) || g >= TARGET_RECALL)}`,
        `${f3(e)}${mark(negative ? e <= TARGET_NEGATIVES : e >= TARGET_RECALL)}`]);
    }
  }
  print(table(['group', 'kind', 'pairs', 'grouped at 0.8', 'grouped or listed, review 0.5'], dedupRows));

  print(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return data;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = [];
  const print = (text = '') => {
    console.log(text);
    lines.push(text);
  };
  print('$ node tests/bench/light-edits.js');
  await lightEditReport(print);
  mkdirSync(new URL('../output/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../output/light-edits.txt', import.meta.url), lines.join('\n') + '\n');
}
