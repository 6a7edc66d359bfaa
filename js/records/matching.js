// The model of a list of records and its candidates' match probabilities (README "Records"):
// candidates.js's candidates, compared field by field (comparison.js), the model learned from
// them (model.js), each candidate weighed (weights.js).
import { mapArray } from '../core/arrays.js';
import { KEYED, fieldsWhere, proposeCandidates, randomPairs } from './candidates.js';
import { withComparer } from './comparison.js';
import { LEVELS } from './levels.js';
import { learnModel, logistic, logit } from './model.js';
import { fieldWeight, keyShares, matchWeights } from './weights.js';

/** Random pairs counted for u. */
const RANDOM_PAIRS = 20000;

/**
 * Candidates whose keys all disagree outright (their last level), in KEYS_APART fields or
 * more, have their names and texts compared only where the model says they could reach the
 * caller's least probability with those agreeing as much as they can: a million contacts'
 * candidates are mostly rows whose names are alike and whose e-mail, phone and birthday all
 * differ. The model learns with those names and texts missing: such pairs are nearly all two
 * entities, whose posterior teaches m little either way.
 */
const KEYS_APART = 2;

/**
 * The model of the distinct `rows` (indices into the fields' values) and their candidate
 * pairs: { candidates ({ a, b, sources } indexing rows), levels (theirs, pairs × fields),
 * apart (withComparer's), model, weight (nats) and probability of each candidate,
 * fieldWeightOf(p, j) (nats: field j's in candidate p) }. A candidate whose probability is
 * below `least` (0: none) may hold an upper bound of it, its names and texts MISSING
 * (KEYS_APART). `helper`: candidates.js proposeCandidates'.
 */
export async function matchRecords(core, fields, rows, pacer, similarity, least = 0, helper) {
  const proposed = await proposeCandidates(core, fields, rows, pacer, similarity, helper);
  return withComparer(core, fields, rows, pacer, (comparer) => scoreCandidates(comparer, fields, rows, proposed, least));
}

/** matchRecords' answer for its candidates and their sources' `selects`, compared by `comparer`. */
async function scoreCandidates(comparer, fields, rows, { candidates, selects }, least) {
  const f = fields.length;
  const keyed = fieldsWhere(fields, (field) => KEYED.has(field.kind));
  const compared = fieldsWhere(fields, (field) => !KEYED.has(field.kind));
  const found = await comparer.levels(candidates, keyed);
  const sampled = await comparer.levels(randomPairs(rows.length, RANDOM_PAIRS), fields.map((_, j) => j));
  const count = candidates.a.length;
  const aside = new Uint8Array(count);
  const kept = [];
  const last = fields.map(({ kind }) => LEVELS[kind].length - 1);
  for (let p = 0; p < count; p++) {
    let apart = keyed.length >= KEYS_APART;
    for (let i = 0; i < keyed.length && apart; i++) apart = found.levels[p * f + keyed[i]] === last[keyed[i]];
    if (apart) aside[p] = 1;
    else kept.push(p);
  }
  await comparer.levels(candidates, compared, found, kept);
  const n = rows.length;
  const model = learnModel(fields, found.levels, { sources: candidates.sources, selects }, sampled.levels, Math.max(1, (n * (n - 1)) / 2));
  const shares = keyShares(fields, rows);
  const weight = new Float64Array(count);
  const weigh = (at) => matchWeights(model, fields, rows, candidates, found.levels, shares, at).forEach((w, q) => { weight[at[q]] = w; });
  weigh(kept);
  // Each pair set aside (its keys at their last level, its names and texts missing), its names
  // and texts at their strongest weight (an exact agreement on the rarer of the two values):
  // compared when that reaches `least`, else that bound kept.
  const apartWeight = keyed.reduce((w, j) => w + model.fields[j].weights[last[j]], logit(model.prior));
  const strongest = compared.map((j) => mapArray(rows, (r) => (fields[j].keys[r] === '' ? NaN : fieldWeight(model, fields, shares, j, 0, r, r)), Float64Array));
  const reach = logit(least);
  const doubtful = [];
  for (let p = 0; p < count; p++) {
    if (!aside[p]) continue;
    let most = apartWeight;
    for (const weights of strongest) {
      const [x, y] = [weights[candidates.a[p]], weights[candidates.b[p]]];
      if (x === x && y === y) most += Math.min(x, y);
    }
    if (most >= reach) doubtful.push(p);
    else weight[p] = most;
  }
  if (doubtful.length) {
    await comparer.levels(candidates, compared, found, doubtful);
    weigh(doubtful);
  }
  const { a, b } = candidates;
  const fieldWeightOf = (p, j) => fieldWeight(model, fields, shares, j, found.levels[p * f + j], rows[a[p]], rows[b[p]]);
  return { candidates, levels: found.levels, apart: found.apart, model, weight, fieldWeightOf, probability: mapArray(weight, logistic, Float64Array) };
}

/** The match probability of any pairs { a, b } of rows under `model` (matchRecords'): what the candidates are checked against. */
export async function pairProbabilities(core, fields, rows, model, pairs, pacer) {
  const { levels } = await withComparer(core, fields, rows, pacer, (comparer) => comparer.levels(pairs, fields.map((_, j) => j)));
  return mapArray(matchWeights(model, fields, rows, pairs, levels, keyShares(fields, rows)), logistic, Float64Array);
}
