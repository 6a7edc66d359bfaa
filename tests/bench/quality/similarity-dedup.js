// The dedup that issue 13 proposes, as the benchmarks run it, and how it is scored.
//   similarity mode: candidates within candidateRadius(s) (js/core/thresholds.js) by findPairs,
//     kept iff their exact similarity is >= s (the core's verifyPairs), then leader grouping;
//   fingerprint-only mode: every pair within k, then leader grouping (today's dedup).
// Leader grouping: items in index order; each joins the earliest kept item it is paired
// with, or is kept. So every removed item is paired with (and, verified, at or above s
// with) the item kept for it.
import { candidateRadius } from '../../../js/core/thresholds.js';
import { verifyPairs } from './exact.js';

/** label[i] = the kept item of i's group (i itself when kept), from pairs (a < b) sorted by (a, b). */
export function leaderLabels(n, a, b) {
  const earlier = Array.from({ length: n }, () => []);
  for (let p = 0; p < a.length; p++) earlier[b[p]].push(a[p]);
  const label = new Uint32Array(n);
  for (let j = 0; j < n; j++) {
    label[j] = j;
    for (const i of earlier[j]) {
      if (label[i] === i) {
        label[j] = i; // pairs are sorted by a: the earliest kept item
        break;
      }
    }
  }
  return label;
}

/** Runs a mode on fingerprints (and texts); returns { label, candidates, kept pairs, seconds }. */
export function runDedup(sh, core, batch, fps, mode) {
  const t0 = performance.now();
  const radius = mode.similarity !== undefined ? (mode.maxDistance ?? candidateRadius(mode.similarity)) : mode.maxDistance;
  const found = sh.findPairs(fps, radius);
  const t1 = performance.now();
  let { a, b } = found;
  if (mode.similarity !== undefined && a.length) {
    const ok = verifyPairs(core, batch, a, b, mode.similarity);
    const keep = [];
    for (let p = 0; p < ok.length; p++) if (ok[p]) keep.push(p);
    a = Uint32Array.from(keep, (p) => found.a[p]);
    b = Uint32Array.from(keep, (p) => found.b[p]);
  }
  const t2 = performance.now();
  return { label: leaderLabels(fps.length, a, b), radius, candidates: found.a.length, pairs: a.length,
    findSeconds: (t1 - t0) / 1000, verifySeconds: (t2 - t1) / 1000 };
}

/** Every pair of items in one group (same label), as [i, j] with i < j. */
export function groupedPairs(label) {
  const members = new Map();
  label.forEach((l, i) => {
    if (!members.has(l)) members.set(l, []);
    members.get(l).push(i);
  });
  const pairs = [];
  for (const list of members.values()) {
    for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) pairs.push([list[x], list[y]]);
  }
  return pairs;
}

const prf = (tp, fp, fn) => {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, tp, fp, fn };
};

/**
 * Pairwise P/R/F1 of a grouping against an exact join (pairs with their similarity, all
 * pairs >= some floor; pairs not in it are below the floor). Truth: similarity >= truth;
 * pairs with neutralFrom <= similarity < truth count as neither right nor wrong.
 */
export function scoreAgainstJoin(label, join, truth, neutralFrom = truth) {
  const n = label.length;
  const similarity = new Map();
  for (let p = 0; p < join.a.length; p++) similarity.set(join.a[p] * n + join.b[p], join.similarity[p]);
  let tp = 0;
  let fp = 0;
  for (const [i, j] of groupedPairs(label)) {
    const s = similarity.get(i * n + j) ?? 0;
    if (s >= truth) tp++;
    else if (s < neutralFrom) fp++;
  }
  let positives = 0;
  for (let p = 0; p < join.a.length; p++) if (join.similarity[p] >= truth) positives++;
  return prf(tp, fp, positives - tp);
}

/**
 * Pairwise P/R/F1 against labelled pairs (the planted protocol): a grouped pair is right
 * when isDuplicate(i, j); recall over the labelled duplicate pairs.
 */
export function scoreAgainstLabels(label, positives, isDuplicate) {
  let tp = 0;
  let fp = 0;
  for (const [i, j] of groupedPairs(label)) (isDuplicate(i, j) ? tp++ : fp++);
  let found = 0;
  for (const [i, j] of positives) if (label[i] === label[j]) found++;
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = positives.length ? found / positives.length : 1;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, tp, fp, fn: positives.length - found };
}
