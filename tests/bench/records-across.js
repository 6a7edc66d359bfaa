// `node tests/bench/records-across.js [--lists=a,b]`: what the match probabilities of
// `sh.dedup(rows)` allow on the two-source lists of tests/data/records/ (records.json `sides`),
// counted across the sources only, as two-source matchers (ZeroER, Splink's link_only) count:
// a pair of one row of each file, true when their entity ids are equal.
//
// Every candidate pair's probability comes from one call with the group threshold just below 1
// and the review threshold just above 0, no review limit (the review's pair between two groups
// is its most probable; the few pairs grouped at that threshold count as probability 1). Then,
// over every threshold t, the pairs at t or above:
//   best F1           the threshold of the best F1 across the sources, with its P and R;
//   R at P >= x       the most recall whose precision is at least x (0.9, 0.95, 0.99);
//   P at F1 >= 0.48   the most precision among the thresholds whose F1 reaches 0.48 (the
//                     anchor issue 52 sets for Amazon-Google): what merges must accept to reach it;
//   mutual best       pairs at the review threshold (0.1) or above that are each row's most
//                     probable pair in the other file (one-to-one linkage), P / R / F1;
//   defaults          sh.dedup(rows) with no options, its groups' pairs across the sources.
import { loadRecords } from './records-data.js';
import { init } from '../../js/node.js';

const ANCHOR_F1 = 0.48;
const REVIEW = 0.1;

const prf = (tp, predicted, actual) => {
  const precision = predicted ? tp / predicted : 1;
  const recall = tp / actual;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
};

/** [{ a, b, probability }] of every candidate pair of rows across the sides, and the true cross pairs. */
async function crossPairs(sh, list, side) {
  const result = await sh.dedup(list.rows, { probability: 1 - 1e-12, review: 1e-9, reviewLimit: 0xffffffff });
  const pairs = result.review.filter(({ a, b }) => side[a] !== side[b]).map(({ a, b, probability }) => ({ a, b, probability }));
  for (const group of result.groups) {
    for (let x = 0; x < group.length; x++) for (let y = x + 1; y < group.length; y++) {
      if (side[group[x]] !== side[group[y]]) pairs.push({ a: group[x], b: group[y], probability: 1 });
    }
  }
  return pairs;
}

function truePairsAcross(list, side) {
  const rowsOf = new Map();
  list.entities.forEach((entity, i) => rowsOf.set(entity, [...(rowsOf.get(entity) ?? []), i]));
  let count = 0;
  for (const rows of rowsOf.values()) {
    for (let x = 0; x < rows.length; x++) for (let y = x + 1; y < rows.length; y++) count += side[rows[x]] !== side[rows[y]];
  }
  return count;
}

/** The pairs of `pairs` that are each row's most probable pair across (ties: the first), at REVIEW or above. */
function mutualBest(pairs) {
  const best = new Map();
  for (const pair of pairs) {
    for (const row of [pair.a, pair.b]) if (!best.has(row) || pair.probability > best.get(row).probability) best.set(row, pair);
  }
  return pairs.filter((pair) => pair.probability >= REVIEW && best.get(pair.a) === pair && best.get(pair.b) === pair);
}

async function main() {
  const names = process.argv.find((a) => a.startsWith('--lists='))?.split('=')[1].split(',');
  const sh = await init();
  const f = (x) => x.toFixed(3);
  console.log('| list | true pairs across | best F1 (P / R, threshold) | R at P >= 0.9 / 0.95 / 0.99 | P at F1 >= 0.48 | mutual best at 0.1: P / R / F1 | defaults: P / R / F1 |');
  console.log('|---|---:|---|---|---|---|---|');
  for (const list of loadRecords({ names }).filter((l) => l.sides)) {
    const side = new Uint8Array(list.rows.length);
    side.fill(1, list.sides[0].rows);
    const actual = truePairsAcross(list, side);
    const pairs = (await crossPairs(sh, list, side)).sort((x, y) => y.probability - x.probability);
    const same = (pair) => list.entities[pair.a] === list.entities[pair.b];
    let tp = 0;
    let best = { f1: 0 };
    const recallAt = { 0.9: 0, 0.95: 0, 0.99: 0 };
    let anchorPrecision = null;
    pairs.forEach((pair, i) => {
      tp += same(pair);
      if (i + 1 < pairs.length && pairs[i + 1].probability === pair.probability) return; // a threshold takes every tie
      const point = { ...prf(tp, i + 1, actual), threshold: pair.probability };
      if (point.f1 > best.f1) best = point;
      for (const x of Object.keys(recallAt)) if (point.precision >= Number(x)) recallAt[x] = Math.max(recallAt[x], point.recall);
      if (point.f1 >= ANCHOR_F1) anchorPrecision = Math.max(anchorPrecision ?? 0, point.precision);
    });
    const linked = mutualBest(pairs);
    const mutual = prf(linked.filter(same).length, linked.length, actual);
    const defaults = await sh.dedup(list.rows);
    let found = 0;
    let right = 0;
    for (const group of defaults.groups) {
      for (let x = 0; x < group.length; x++) for (let y = x + 1; y < group.length; y++) {
        if (side[group[x]] === side[group[y]]) continue;
        found++;
        right += list.entities[group[x]] === list.entities[group[y]];
      }
    }
    const ours = prf(right, found, actual);
    console.log(`| ${list.name} | ${actual.toLocaleString('en')} | ${f(best.f1)} (${f(best.precision)} / ${f(best.recall)}, ${best.threshold.toPrecision(2)}) | `
      + `${Object.values(recallAt).map(f).join(' / ')} | ${anchorPrecision === null ? 'never' : f(anchorPrecision)} | `
      + `${f(mutual.precision)} / ${f(mutual.recall)} / ${f(mutual.f1)} | ${f(ours.precision)} / ${f(ours.recall)} / ${f(ours.f1)} |`);
  }
}

await main();
