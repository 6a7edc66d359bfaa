// `node tests/bench/lists-peers.js`: dedup() at its defaults set against the peers on every
// labelled list of tests/data/lists/ (lists-data.js), in three parts (docs/lists.md, "Against
// the peers"):
//
// 1. The operating point. dedup(list) with no options gives one point, pair precision P and
//    recall R against the entity labels. Each peer threshold scorer (lists.js defaultMethods,
//    entries with peer: true and type 'threshold') gives a curve: for every distinct score t, the
//    pairs scoring >= t (lists-metrics.js precisionRecallCurve). From the curve: the peer's
//    recall at our precision (the highest recall of its points with precision >= P) and its
//    precision at our recall (the highest precision of its points with recall >= R). The
//    defaults are DOMINATED by the peer when either exceeds ours by more than TOLERANCE
//    (0.01). Beside it, fuzzball's `dedupe` at its defaults (a grouping: one point), whose F1
//    ours must reach.
// 2. The effort of the review. One person reads ours and each peer alike (lists-metrics.js
//    readingCurve): pairs in order, confirming the true ones and skipping, at no cost, a pair
//    whose answer is known (its items already joined by confirmed pairs, or their groups
//    already found different); found after r reads: the true pairs implied by the
//    confirmations (items joined by a chain of confirmed pairs). Ours, for dedup(list,
//    { review: REVIEW }) (the README's setting for lists, reviewLimit at its default): a read
//    for each group member beside its kept entry, which sorts the group into its entities,
//    then the review entries in order (the
//    JSON also keeps the count without skipping or chains: every entry read, found the pairs
//    grouped or in two groups an entry joins, as lists.js counts them). A peer: its pairs from
//    the highest score down (ties in row-major order). The best peer is the one that finds the
//    most in as many reads as ours; ours must find at least as many. A peer "reaches 95%
//    within 2 reads a pair" when, at the first read count r where it has found 95% of the true
//    pairs, r <= 2 x found; where one does, ours must reach 95% too.
// 3. Look-alikes merged: the pairs dedup() groups at its defaults (two members of one group)
//    that are different entities and differ in a number (a token with a digit, folded as
//    js/core/look-alikes.js identifyingParts folds; a number of one that the other lacks), of
//    which how many have a number changed (one left on each side) and how many the look-alike
//    rule itself (differingParts) says differ in numbers; and, for contrast, the merged true
//    pairs that differ in a number.
//
// Threshold scorers score every pair, O(n²): those with maxItems (fuzzball's, SLOW_ITEMS in
// lists.js) run on a sample of whole entities (--sample, default 1500, seed --seed), and ours is
// run again on that sample, so each peer is set against ours on the items it scored. A list
// longer than the sample gets two runs: all items (the uncapped peers) and the sample (every
// peer). A list passes when every run does.
//
// Usage: node tests/bench/lists-peers.js [--lists=a,b] [--max=N] [--peers=a,b] [--sample=N]
//          [--seed=N] [--review=R] [--review-limit=N] [--json FILE] [--markdown]
//   --peers keeps the peers whose name contains one of the given strings; --review and
//   --review-limit set the review read (default: review 0.4, reviewLimit dedup's); --json writes every
//   figure; --markdown prints the closing summary as a Markdown table.
// The WASM build must exist (npm run build).
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { differingParts, identifyingParts } from '../../js/core/look-alikes.js';
import { loadLists, sampleEntities } from './lists-data.js';
import { defaultMethods, scoreAllPairs } from './lists.js';
import {
  entityCodes, linkedPartitionPairs, overlappingGroupPairs, partitionPairs, precisionAtRecall, precisionRecallCurve,
  prf, readingCurve, recallAtPrecision, topPairs, truePairCount,
} from './lists-metrics.js';

/** How far a peer may lie above our point before it dominates it. */
export const TOLERANCE = 0.01;
/** The README's review setting for lists. */
export const REVIEW = 0.4;
const DEFAULT_SAMPLE = 1500;
// Float noise allowed on top of TOLERANCE (precision and recall are ratios of counts).
const EPSILON = 1e-9;

// ---- ours -----------------------------------------------------------------------------------

/** One label per item: its group's index, or a group of its own. */
function labelsOf(n, groups) {
  const labels = Int32Array.from({ length: n }, (_, i) => n + i);
  groups.forEach((group, g) => { for (const i of group) labels[i] = g; });
  return labels;
}

/** Reads of the groups: each member beside its kept entry. */
const memberReads = (groups) => groups.reduce((sum, group) => sum + group.length - 1, 0);

/** A review setting ({ review, reviewLimit? }) as printed. */
const settingName = ({ review, reviewLimit }) => `review: ${review}${reviewLimit === undefined ? '' : `, reviewLimit: ${reviewLimit}`}`;

/**
 * dedup() at its defaults and with `review` on one set of items: our point, our groups, and
 * the reads and true pairs found of each setting (the defaults: the groups alone).
 */
async function runOurs(sh, texts, codes, actual, review) {
  const plain = await sh.dedup(texts);
  const grouped = partitionPairs(labelsOf(texts.length, plain.groups), codes);
  const reviewed = await sh.dedup(texts, review);
  const entries = reviewed.review ?? [];
  const linked = linkedPartitionPairs(labelsOf(texts.length, reviewed.groups), entries, codes);
  const groupReads = memberReads(reviewed.groups);
  // Read as a peer is read (readingCurve): the groups first, a read for each member beside its
  // kept entry, which sort each group into its entities (as many reads: joining each entity's
  // members, then telling the entities apart); then the review entries in order, a pair whose
  // answer is known skipped.
  const groupPairs = reviewed.groups.flatMap((group) => {
    const cells = new Map(); // entity code -> its members in the group, the kept entry's first
    for (const item of group) cells.set(codes[item], [...(cells.get(codes[item]) ?? []), item]);
    const heads = [...cells.values()].map((cell) => cell[0]);
    return [...[...cells.values()].flatMap((cell) => cell.slice(1).map((item) => [cell[0], item])), ...heads.slice(1).map((head) => [heads[0], head])];
  });
  const ranked = [...groupPairs, ...entries.map(({ a, b }) => [a, b])];
  const reading = readingCurve({ a: Uint32Array.from(ranked, ([a]) => a), b: Uint32Array.from(ranked, ([, b]) => b) }, codes);
  return {
    point: { tp: grouped.tp, predicted: grouped.predicted, ...prf(grouped.tp, grouped.predicted, actual) },
    measure: plain.measure, similarity: plain.similarity, groups: plain.groups,
    effort: [
      { setting: 'defaults', reads: memberReads(plain.groups), groupReads: memberReads(plain.groups), reviewEntries: 0, omitted: 0, found: grouped.tp },
      {
        setting: settingName(review), reads: reading.reads, groupReads, reviewEntries: entries.length,
        omitted: reviewed.reviewOmitted ?? 0, found: reading.reads ? reading.implied[reading.reads - 1] : 0,
        // Every entry read and links not followed from one to the next, as counted before the
        // reading above: { reads, found }.
        listed: { reads: groupReads + entries.length, found: linked.tp },
      },
    ].map((e) => ({ ...e, recall: actual ? e.found / actual : 1 })),
  };
}

// ---- a peer ---------------------------------------------------------------------------------

/** The point of best F1 of a curve (ties to the higher threshold, as bestThreshold). */
function bestOfCurve(curve) {
  let best = { f1: -1 };
  for (let k = 0; k < curve.tp.length; k++) {
    const metrics = prf(curve.tp[k], curve.predicted[k], curve.actual);
    if (metrics.f1 > best.f1) best = { threshold: curve.threshold[k], ...metrics };
  }
  return best;
}

/**
 * A threshold peer on one set of items against our point and reads: its recall at our
 * precision, precision at our recall, the verdict, and its reading curve at our read counts.
 */
function runThresholdPeer(method, texts, codes, ours) {
  const { all, trueScores, seconds } = scoreAllPairs(method, texts, codes);
  const actual = trueScores.length;
  const sorted = all.slice();
  const curve = precisionRecallCurve(sorted, trueScores);
  const { precision, recall } = ours.point;
  const recallAtOurs = recallAtPrecision(curve, precision);
  const precisionAtOurs = precisionAtRecall(curve, recall);
  const dominated = recallAtOurs > recall + TOLERANCE + EPSILON || precisionAtOurs > precision + TOLERANCE + EPSILON;

  // Read far enough for our read counts and for 95% within 2 reads a pair (at most 2 x the
  // true pairs), taking more of the ranking while skipped pairs leave reads to make.
  const needed = Math.max(...ours.effort.map((e) => e.reads), 2 * actual);
  let ranked = Math.min(all.length, needed);
  let reading;
  for (;;) {
    reading = readingCurve(topPairs(all, sorted, texts.length, ranked), codes, needed);
    if (reading.reads >= needed || ranked === all.length) break;
    ranked = Math.min(all.length, ranked * 4);
  }
  const depth = reading.reads;
  const after = (reads) => {
    const r = Math.min(reads, depth) - 1;
    return r < 0 ? { reads, read: 0, found: 0 } : { reads, read: reading.read[r], found: reading.implied[r] };
  };
  let reach95 = null;
  for (let r = 0; r < depth; r++) {
    if (reading.implied[r] >= 0.95 * actual) {
      reach95 = { reads: r + 1, found: reading.implied[r], perPair: (r + 1) / reading.implied[r] };
      break;
    }
  }
  return {
    method: method.name, seconds, best: bestOfCurve(curve), recallAtOurs, precisionAtOurs, dominated,
    reading: ours.effort.map((e) => after(e.reads)),
    depth, reach95, // reach95 null: not within `depth` reads (so not within 2 reads a pair)
    within2: reach95 !== null && reach95.reads <= 2 * reach95.found,
  };
}

/** fuzzball's dedupe (a grouping whose groups may overlap) as one point. */
async function runGroupingPeer(method, texts, codes, actual) {
  const start = performance.now();
  const grouping = await method.group(texts);
  const seconds = (performance.now() - start) / 1000;
  const counts = grouping.overlapping ? overlappingGroupPairs(grouping.groups, codes) : partitionPairs(grouping.labels, codes);
  return { method: method.name, seconds, tp: counts.tp, predicted: counts.predicted, ...prf(counts.tp, counts.predicted, actual) };
}

/** Ours and the peers on one set of items, with the verdicts of this run. */
async function runOn(sh, peers, { texts, entities }, review) {
  const codes = entityCodes(entities);
  const actual = truePairCount(entities);
  const start = performance.now();
  const ours = await runOurs(sh, texts, codes, actual, review);
  ours.seconds = (performance.now() - start) / 1000;
  const thresholds = [];
  const groupings = [];
  for (const method of peers) {
    if (method.type === 'threshold') thresholds.push(runThresholdPeer(method, texts, codes, ours));
    else groupings.push(await runGroupingPeer(method, texts, codes, actual));
  }
  // The best peer for the effort: the most true pairs found in as many reads as ours (review).
  const withReview = ours.effort.length - 1;
  const bestReader = thresholds.reduce((best, p) => (!best || p.reading[withReview].found > best.reading[withReview].found ? p : best), null);
  const mine = ours.effort[withReview];
  const verdict = {
    dominatedBy: thresholds.filter((p) => p.dominated).map((p) => p.method),
    belowDedupe: groupings.filter((g) => ours.point.f1 < g.f1).map((g) => g.method),
    effort: bestReader ? {
      peer: bestReader.method, peerFound: bestReader.reading[withReview].found, oursFound: mine.found,
      atLeastAsMany: mine.found >= bestReader.reading[withReview].found,
      needs95: thresholds.filter((p) => p.within2).map((p) => p.method),
    } : null,
  };
  if (verdict.effort) verdict.effort.reaches95 = verdict.effort.needs95.length === 0 || mine.recall >= 0.95;
  verdict.pass = verdict.dominatedBy.length === 0 && verdict.belowDedupe.length === 0
    && (!verdict.effort || (verdict.effort.atLeastAsMany && verdict.effort.reaches95));
  return { items: texts.length, truePairs: actual, ours, thresholds, groupings, verdict };
}

// ---- look-alikes merged -----------------------------------------------------------------------

const DIGIT = /\p{Nd}/u;

/** The number tokens (with a digit) of a text's identifying parts, folded. */
const numbersOf = (parts) => parts.tokens.filter((t) => DIGIT.test(t.key)).map((t) => t.key);

/** The numbers of x that y lacks, as multisets. */
function lacking(x, y) {
  const left = new Map();
  for (const key of y) left.set(key, (left.get(key) ?? 0) + 1);
  return x.filter((key) => {
    const count = left.get(key) ?? 0;
    if (count) left.set(key, count - 1);
    return count === 0;
  });
}

/**
 * The pairs merged by `groups` (two members of one group), those of different entities, and
 * of these the ones that differ in a number (see the header), with a few examples.
 */
export function lookAlikesMerged(texts, entities, groups, examples = 3) {
  const codes = entityCodes(entities);
  const parts = new Map();
  const partsOf = (i) => {
    if (!parts.has(i)) parts.set(i, identifyingParts(texts[i]));
    return parts.get(i);
  };
  const counts = { merged: 0, wrong: 0, wrongNumbers: 0, wrongNumberChanged: 0, wrongRuleNumbers: 0, rightNumbers: 0, examples: [] };
  for (const group of groups) {
    for (let x = 0; x < group.length; x++) {
      for (let y = x + 1; y < group.length; y++) {
        const [i, j] = [group[x], group[y]];
        counts.merged++;
        const [a, b] = [numbersOf(partsOf(i)), numbersOf(partsOf(j))];
        const [onlyA, onlyB] = [lacking(a, b), lacking(b, a)];
        const differ = onlyA.length > 0 || onlyB.length > 0;
        if (codes[i] === codes[j]) {
          if (differ) counts.rightNumbers++;
          continue;
        }
        counts.wrong++;
        if (!differ) continue;
        counts.wrongNumbers++;
        if (onlyA.length > 0 && onlyB.length > 0) counts.wrongNumberChanged++;
        if (differingParts(partsOf(i), partsOf(j))?.numbers) counts.wrongRuleNumbers++;
        if (counts.examples.length < examples && !counts.examples.some(([x, y]) => x === texts[i] && y === texts[j])) counts.examples.push([texts[i], texts[j]]);
      }
    }
  }
  return counts;
}

// ---- all lists --------------------------------------------------------------------------------

/**
 * Runs the comparison on every list (or those named).
 * @returns {Promise<object[]>} per list: { name, kind, items, entities, truePairs, runs, lookAlikes, pass }
 */
export async function comparePeers(sh, { lists: names, max, peers: wanted, sample = DEFAULT_SAMPLE, seed = 1, review = REVIEW, reviewLimit, onList } = {}) {
  review = { review, ...(reviewLimit !== undefined && { reviewLimit }) };
  let peers = defaultMethods(sh).filter((m) => m.peer);
  if (wanted) peers = peers.filter((m) => wanted.some((part) => m.name.includes(part)));
  const results = [];
  for (const list of loadLists({ names, maxItems: max, seed })) {
    const n = list.texts.length;
    const full = await runOn(sh, peers.filter((m) => !(m.maxItems < n)), list, review);
    const runs = [full];
    const capped = peers.filter((m) => m.maxItems < n);
    if (capped.length) {
      const size = Math.min(sample, ...capped.map((m) => m.maxItems));
      runs.push({ ...(await runOn(sh, peers, sampleEntities(list, size, seed), review)), sample: { size, seed } });
    }
    const result = {
      name: list.name, kind: list.kind, items: n, entities: new Set(list.entities).size, truePairs: truePairCount(list.entities),
      runs, lookAlikes: lookAlikesMerged(list.texts, list.entities, full.ours.groups), pass: runs.every((run) => run.verdict.pass),
    };
    for (const run of runs) delete run.ours.groups; // not wanted in the JSON
    onList?.(result);
    results.push(result);
  }
  return results;
}

// ---- output -----------------------------------------------------------------------------------

const fixed = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const count = (x) => Math.round(x).toLocaleString('en');
const seconds = (s) => (s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`);
const clip = (text, width = 60) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

function table(header, rows) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((cells) => cells[c].length)));
  const render = (cells) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [render(header), ...rows.map(render)];
}

/** One run's lines: our point, the peers' curves at it, fuzzball's dedupe, the effort. */
function formatRun(run) {
  const { ours } = run;
  const p = ours.point;
  const lines = [run.sample
    ? `-- on a sample of ${run.items} items (whole entities, seed ${run.sample.seed}; ${count(run.truePairs)} true pairs), for the peers capped at ${run.sample.size}:`
    : `-- all ${run.items} items (${count(run.truePairs)} true pairs):`];
  lines.push(`ours, dedup() at its defaults ('${ours.measure}' at ${ours.similarity}): P ${fixed(p.precision)}  R ${fixed(p.recall)}  F1 ${fixed(p.f1)}  (${count(p.predicted)} pairs grouped; ${seconds(ours.seconds)} with the review run)`);
  if (run.thresholds.length) {
    lines.push(...table(['peer (threshold scorer)', 'R at our P', 'P at our R', 'best F1 (t)', 'verdict', 'time'], run.thresholds.map((peer) => [
      peer.method, `${fixed(peer.recallAtOurs)} (${signed(peer.recallAtOurs - p.recall)})`, `${fixed(peer.precisionAtOurs)} (${signed(peer.precisionAtOurs - p.precision)})`,
      `${fixed(peer.best.f1)} (${fixed(peer.best.threshold, 2)})`, peer.dominated ? 'DOMINATES ours' : 'not dominating', seconds(peer.seconds),
    ])).map((line) => `   ${line}`));
  }
  for (const g of run.groupings) {
    lines.push(`   ${g.method}: P ${fixed(g.precision)}  R ${fixed(g.recall)}  F1 ${fixed(g.f1)}; ours ${fixed(p.f1)} (${signed(p.f1 - g.f1)}) ${p.f1 >= g.f1 ? 'at least as high' : 'BELOW'}  (${seconds(g.seconds)})`);
  }
  if (run.thresholds.length) {
    const header = ['effort', 'reads', 'ours found', ...run.thresholds.map((peer) => peer.method)];
    const rows = ours.effort.map((e, k) => [
      e.setting === 'defaults' ? 'defaults (groups only)' : `${e.setting} (${count(e.groupReads)} + ${count(e.reviewEntries)} entries${e.omitted ? `, ${count(e.omitted)} omitted` : ''})`,
      count(e.reads), `${count(e.found)} (${fixed(e.recall)})`,
      ...run.thresholds.map((peer) => `${count(peer.reading[k].found)} (${count(peer.reading[k].read)} read)`),
    ]);
    rows.push(['peer reaches 95% of the true pairs', '-', '-', ...run.thresholds.map((peer) => (peer.reach95
      ? `at ${count(peer.reach95.reads)} reads (${fixed(peer.reach95.perPair, 2)}/pair)` : `beyond ${count(peer.depth)} reads`))]);
    lines.push(...table(header, rows).map((line) => `   ${line}`));
  }
  const v = run.verdict;
  const parts = [v.dominatedBy.length ? `dominated by ${v.dominatedBy.join(', ')}` : 'not dominated'];
  if (run.groupings.length) parts.push(v.belowDedupe.length ? 'F1 below fuzzball dedupe' : 'F1 ≥ fuzzball dedupe');
  if (v.effort) {
    parts.push(`review finds ${count(v.effort.oursFound)} against ${count(v.effort.peerFound)} for the best reader (${v.effort.peer}): ${v.effort.atLeastAsMany ? 'at least as many' : 'FEWER'}`);
    if (v.effort.needs95.length) parts.push(`95% needed (${v.effort.needs95.join(', ')} within 2 reads a pair): ${v.effort.reaches95 ? 'reached' : 'NOT reached'}`);
  }
  lines.push(`   verdict: ${parts.join('; ')} -> ${v.pass ? 'PASS' : 'FAIL'}`);
  return lines;
}

/** One list's report, as plain text. */
export function formatList(result) {
  const lines = [`== ${result.name}: ${result.kind}; ${result.items} items, ${result.entities} entities, ${count(result.truePairs)} true pairs`];
  for (const run of result.runs) lines.push(...formatRun(run));
  const l = result.lookAlikes;
  lines.push(`-- look-alikes merged (all items, defaults): ${count(l.merged)} pairs grouped, ${count(l.wrong)} of different entities; `
    + `${count(l.wrongNumbers)} of these differ in a number (${count(l.wrongNumberChanged)} with a number changed on both sides, `
    + `${count(l.wrongRuleNumbers)} that differingParts says differ in numbers); ${count(l.rightNumbers)} grouped true pairs differ in a number`);
  for (const [a, b] of l.examples) lines.push(`   e.g. ${JSON.stringify(clip(a))} / ${JSON.stringify(clip(b))}`);
  lines.push(`-- ${result.name}: ${result.pass ? 'PASS' : 'FAIL'}`);
  return lines.join('\n');
}

/** The closing summary: a row per list and run. */
export function summaryRows(results) {
  const rows = [];
  for (const result of results) {
    for (const run of result.runs) {
      const p = run.ours.point;
      const worst = run.thresholds.reduce((w, peer) => {
        const margin = Math.max(peer.recallAtOurs - p.recall, peer.precisionAtOurs - p.precision);
        return !w || margin > w.margin ? { peer: peer.method, margin } : w;
      }, null);
      const dedupe = run.groupings[0];
      const e = run.verdict.effort;
      const review = run.ours.effort[run.ours.effort.length - 1];
      rows.push([
        run.sample ? `${result.name} (sample ${run.items})` : result.name,
        `${fixed(p.precision)} / ${fixed(p.recall)} / ${fixed(p.f1)}`,
        worst ? `${signed(worst.margin)} ${worst.peer}` : '-',
        run.verdict.dominatedBy.length ? 'dominated' : 'not dominated',
        dedupe ? `${fixed(dedupe.f1)}` : '-',
        `${count(review.reads)}: ${count(review.found)}`,
        e ? `${count(e.peerFound)} ${e.peer}` : '-',
        e && e.needs95.length ? (e.reaches95 ? 'yes, reached' : 'yes, NOT reached') : 'no',
        run.sample ? '' : `${count(result.lookAlikes.wrongNumbers)} (${count(result.lookAlikes.wrongNumberChanged)})`,
        run.verdict.pass ? 'PASS' : 'FAIL',
      ]);
    }
  }
  return {
    header: ['list', 'ours P / R / F1', 'largest peer margin', 'verdict', 'dedupe F1', 'review reads: found', 'best peer found', '95% needed', 'look-alikes merged (changed)', ''],
    rows,
  };
}

function parseArguments(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--lists') options.lists = value().split(',');
    else if (flag === '--max') options.max = Number(value());
    else if (flag === '--peers') options.peers = value().split(',');
    else if (flag === '--sample') options.sample = Number(value());
    else if (flag === '--seed') options.seed = Number(value());
    else if (flag === '--review') options.review = Number(value());
    else if (flag === '--review-limit') options.reviewLimit = Number(value());
    else if (flag === '--json') options.json = value();
    else if (flag === '--markdown') options.markdown = true;
    else throw new Error(`unknown argument ${argv[i]}; see the header of tests/bench/lists-peers.js`);
  }
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const { init } = await import('../../js/node.js');
  const sh = await init();
  const started = performance.now();
  const results = await comparePeers(sh, { ...options, onList: (result) => console.log(`${formatList(result)}\n`) });
  const { header, rows } = summaryRows(results);
  console.log(`== summary: margin = the most a peer's recall at our precision or precision at our recall exceeds ours (dominated above +${TOLERANCE}); `
    + `review reads: found = dedup(list, { ${settingName({ review: options.review ?? REVIEW, reviewLimit: options.reviewLimit })} })'s members and entries read, skipping known answers, and the true pairs the confirmations imply; best peer found = in as many reads, `
    + 'true pairs implied by the confirmed pairs; look-alikes merged = grouped pairs of different entities that differ in a number');
  if (options.markdown) {
    console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } else {
    console.log(table(header, rows).join('\n'));
  }
  console.log(`${results.filter((r) => r.pass).length} of ${results.length} lists pass; total ${seconds((performance.now() - started) / 1000)}`);
  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ node: process.version, date: new Date().toISOString(), tolerance: TOLERANCE, review: options.review ?? REVIEW, reviewLimit: options.reviewLimit, lists: results }, null, 2) + '\n');
    console.log(`wrote ${options.json}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
