// `node tests/bench/light-edits-natural.js [--groups=english,chinese] [--measure=NAME]
// [--threshold=S]`: issue 27's "stays as precise as now on whole natural collections",
// read rather than only counted. Over the records light-edits.js samples per group
// (naturalSample: up to 5,000 one-line texts, up to 800 documents), every pair of records
// (no edits) that a lower-threshold rule groups and today's default (current similarity
// 0.8) does not. The rules: the current similarity at 0.5 and at 0.55 (the core's exact
// join at 0.3, values from the core), and a candidate measure of quality/measures.js
// (default 'J 3/2 + words') at its threshold (default 0.5), from its own exact join in JS
// over the same records: a measure with extra elements can exceed the current similarity,
// so the core's join at 0.3 does not bound it (the report counts the pairs it would miss).
// The JS join is checked against the core's: the current measure at 0.5 must give the same
// pairs. It prints, per group, how many pairs each rule groups beyond 0.8, and up to 15 of
// them per rule drawn at random (one shuffled order per group, so the rules share what they
// share), numbered for a person to judge: would one call them near-duplicates?
// Pairs, not dedup's groups: a group of dedup can hold records that are not all pairwise
// at the threshold. Seeded; writes tests/output/light-edits-natural.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { groups, naturalSample } from './light-edits.js';
import { Measured, SET_MEASURES } from './quality/measures.js';
import { Random } from './quality/random.js';
import { loadCore, encodeBatch, similarityJoin } from './quality/exact.js';
import { sharedOfSorted } from './quality/jaccard.js';
import { table, f3 } from './quality/table.js';

const CURRENT = 'J 3/2 (current)';
const DEFAULT = 0.8;                      // today's default threshold
const CURRENT_RULES = [0.5, 0.55];         // the current measure at a lower default
const COUNT_THRESHOLDS = [0.5, 0.55, 0.6]; // the candidate measure's counts
const JOIN_FLOOR = 0.3;                   // the core's join, as light-edits.js runs it
const JUDGED = 15;                        // pairs drawn per rule and group
const DOCUMENT_HEAD = 240;                // code points of a document shown

const argument = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const atLeast = (x, s) => x >= s - 1e-12;

/** Each text's set as a sorted Int32Array of element ids (ids shared within one call). */
function idSets(texts, measured, measure) {
  const ids = new Map();
  return texts.map((t) => {
    const set = measured.set(t, measure);
    const out = new Int32Array(set.size);
    let k = 0;
    for (const x of set) {
      let id = ids.get(x);
      if (id === undefined) ids.set(x, (id = ids.size));
      out[k++] = id;
    }
    return out.sort();
  });
}

/**
 * Every pair i < j whose Jaccard is at least threshold, exactly: brute force over the sets
 * sorted by size, pruned by the size filter (|small| >= threshold |large|). Map "i,j" → J.
 */
function jaccardJoin(sets, threshold) {
  const order = [...sets.keys()].sort((x, y) => sets[x].length - sets[y].length);
  const out = new Map();
  for (let p = 0; p < order.length; p++) {
    const a = sets[order[p]];
    for (let q = p + 1; q < order.length; q++) {
      const b = sets[order[q]];
      if (a.length < threshold * b.length - 1e-9) break;
      const shared = sharedOfSorted(a, b);
      const union = a.length + b.length - shared;
      const j = union ? shared / union : 1;
      if (atLeast(j, threshold)) out.set(`${Math.min(order[p], order[q])},${Math.max(order[p], order[q])}`, j);
    }
  }
  return out;
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
function shown(text, size) {
  if (size === 'short') return JSON.stringify(text);
  const cps = [...oneLine(text)];
  return `(${[...text].length} code points) ${JSON.stringify(cps.slice(0, DOCUMENT_HEAD).join('') + (cps.length > DOCUMENT_HEAD ? ' …' : ''))}`;
}

export async function naturalReport(print) {
  const started = performance.now();
  const { core } = await loadCore();
  const only = argument('groups');
  const measure = argument('measure') ?? 'J 3/2 + words';
  const threshold = Number(argument('threshold') ?? 0.5);
  if (!SET_MEASURES[measure]) throw new RangeError(`--measure: one of ${Object.keys(SET_MEASURES).join(', ')}`);
  const all = groups().filter((g) => !only || only.split(',').some((x) => g.name.startsWith(x)));
  const rules = [
    ...CURRENT_RULES.map((s) => ({ name: `current ≥ ${s}`, short: `c${s}`, grouped: (p) => atLeast(p.current, s) })),
    { name: `${measure} ≥ ${threshold}`, short: 'new', grouped: (p) => atLeast(p.candidate, threshold) },
  ];
  const joinFloor = Math.min(threshold, ...COUNT_THRESHOLDS);

  print(`\n## Natural pairs that a lower threshold groups beyond today's default ${DEFAULT}\n`);
  print(`Rules: ${rules.map((r) => `${r.short} = ${r.name}`).join('; ')}. Pairs of the sampled records (light-edits.js naturalSample), no edits.\n`);
  const counts = [];
  const reports = [];
  for (const group of all) {
    const t0 = performance.now();
    const sample = naturalSample(group);
    const measured = new Measured();
    const join = similarityJoin(core, encodeBatch(sample), JOIN_FLOOR);
    const current = new Map();
    for (let p = 0; p < join.a.length; p++) current.set(`${join.a[p]},${join.b[p]}`, join.similarity[p]);
    // The JS join must find exactly the core's pairs for the current measure.
    const check = jaccardJoin(idSets(sample, measured, CURRENT), CURRENT_RULES[0]);
    const coreAt = [...current].filter(([, j]) => atLeast(j, CURRENT_RULES[0]));
    const coreKeys = new Set(coreAt.map(([k]) => k));
    const mismatched = coreAt.filter(([k, j]) => !check.has(k) || Math.abs(check.get(k) - j) > 1e-9).length + [...check.keys()].filter((k) => !coreKeys.has(k)).length;
    const candidate = jaccardJoin(idSets(sample, measured, measure), joinFloor);
    // Every pair some rule groups, with both values (current from the core, or the JS mirror below the core's floor).
    const pairs = new Map();
    const currentOf = (k) => current.get(k) ?? measured.jaccard(...k.split(',').map((i) => sample[Number(i)]), CURRENT);
    for (const [k, j] of current) if (atLeast(j, Math.min(...CURRENT_RULES))) pairs.set(k, { key: k, current: j, candidate: candidate.get(k) ?? measured.jaccard(...k.split(',').map((i) => sample[Number(i)]), measure) });
    for (const [k, j] of candidate) if (!pairs.has(k)) pairs.set(k, { key: k, current: currentOf(k), candidate: j });
    const list = [...pairs.values()];
    const atDefault = [...current.values()].filter((j) => atLeast(j, DEFAULT)).length;
    const beyond = (grouped) => list.filter((p) => grouped(p) && !atLeast(p.current, DEFAULT)).length;
    const below = (s, floor) => list.filter((p) => atLeast(p.candidate, s) && p.current < floor).length;
    counts.push([group.name, sample.length, atDefault,
      ...CURRENT_RULES.map((s) => `${list.filter((p) => atLeast(p.current, s)).length} / ${beyond((p) => atLeast(p.current, s))}`),
      ...COUNT_THRESHOLDS.map((s) => `${list.filter((p) => atLeast(p.candidate, s)).length} / ${beyond((p) => atLeast(p.candidate, s))}`),
      below(threshold, 0.5), below(threshold, JOIN_FLOOR), mismatched]);

    // One shuffled order of the pairs grouped beyond the default; each rule's first JUDGED in it.
    const extra = new Random(`${group.name}/natural-judged`).shuffled(list.filter((p) => !atLeast(p.current, DEFAULT)));
    const judged = new Set();
    for (const rule of rules) for (const p of extra.filter(rule.grouped).slice(0, JUDGED)) judged.add(p);
    reports.push({ group, sample, judged: extra.filter((p) => judged.has(p)) });
    print(`${group.name}: ${sample.length} records, ${list.length} pairs grouped by some rule (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }

  print(`\n### Pairs grouped / of them beyond current ≥ ${DEFAULT}\n`);
  print(`(new = ${measure}; "new < 0.5" and "new < ${JOIN_FLOOR}": pairs ${measure} ≥ ${threshold} groups whose current similarity is below 0.5 / below the core join's floor; ` +
    `"JS join ≠ core": pairs at current ≥ ${CURRENT_RULES[0]} where the JS join and the core's disagree)\n`);
  print(table(['group', 'records', `current ≥ ${DEFAULT}`, ...CURRENT_RULES.map((s) => `current ≥ ${s}`), ...COUNT_THRESHOLDS.map((s) => `new ≥ ${s}`),
    `new ≥ ${threshold}, current < 0.5`, `new ≥ ${threshold}, current < ${JOIN_FLOOR}`, 'JS join ≠ core'], counts));

  print(`\n### Pairs to judge: up to ${JUDGED} per rule and group, drawn at random among those beyond ${DEFAULT}\n`);
  for (const { group, sample, judged } of reports) {
    print(`${group.name}:\n`);
    judged.forEach((p, n) => {
      const [a, b] = p.key.split(',').map(Number);
      const tags = rules.filter((r) => r.grouped(p)).map((r) => r.short).join(' ');
      print(`${n + 1}. [${tags}] current ${f3(p.current)}, new ${f3(p.candidate)}`);
      print(`   A: ${shown(sample[a], group.size)}`);
      print(`   B: ${shown(sample[b], group.size)}`);
    });
    print('');
  }
  print(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = [];
  const print = (text = '') => {
    console.log(text);
    lines.push(text);
  };
  print(`$ node tests/bench/light-edits-natural.js ${process.argv.slice(2).join(' ')}`.trimEnd());
  await naturalReport(print);
  mkdirSync(new URL('../output/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../output/light-edits-natural.txt', import.meta.url), lines.join('\n') + '\n');
}
