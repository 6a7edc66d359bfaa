// The Fellegi-Sunter model of a list of records (README "Records"), learned from the list
// itself without labels. For each field and level: m, the probability of the level when two
// records are one entity; u, when they are not; the level's weight log2(m / u) in bits. A
// pair's match weight is the prior's log-odds plus its fields' weights (a missing value adds
// none), and its probability the logistic of that.
//
// - u is counted on random pairs of the list (nearly all of them non-matches), not learned:
//   learning it too lets EM split the candidates by whatever they share most (the blocking
//   field, a common city) instead of by entity;
// - m and the prior (the share of candidates that match) are learned by EM over the
//   candidate pairs. Field f's m is counted with the posterior of the other fields only
//   (leave one field out), so that a field cannot vouch for itself: candidates proposed
//   because their names are similar do not teach that similar names make a match;
// - m starts from, and is smoothed toward, PRIOR_M by PRIOR_PAIRS pairs' worth, and u toward
//   PRIOR_U by PRIOR_RANDOM pairs' worth, so that a list of 40 rows, or 3, gets sane weights;
// - weights fall with the levels (a weaker agreement never weighs more), 'different' never
//   weighs for a match, an exact agreement never against;
// - an exact agreement on a value weighs by the value's rarity (u = its share of the
//   field's values: two `Smith`s say less than two `Zbigniew`s), never below the level's
//   next weight.
import { LEVELS, MISSING } from './levels.js';

/** m each level starts from, strongest first, by number of levels. */
const PRIOR_M = { 2: [0.9, 0.1], 3: [0.85, 0.1, 0.05], 4: [0.7, 0.15, 0.1, 0.05] };
const PRIOR_PAIRS = 5;
/** u each level is smoothed toward, by number of levels, and by how many random pairs' worth. */
const PRIOR_U = { 2: [0.002, 0.998], 3: [0.005, 0.005, 0.99], 4: [0.002, 0.003, 0.01, 0.985] };
const PRIOR_RANDOM = 100;
/**
 * Kinds whose exact agreement is rare among different people (a household, a switchboard),
 * and the most u their exact level takes. A list where more random pairs share one is mostly
 * one entity's rows: its random pairs are its duplicates, and counted as u they would weigh
 * the agreement at nothing (20 rows of one person, one phone, no group).
 */
const PERSONAL = new Set(['email', 'phone']);
const PERSONAL_EXACT_U = 0.01;
const EM_ITERATIONS = 40;
const EM_TOLERANCE = 1e-5;
const MIN_PRIOR = 1e-7;
const MAX_PRIOR = 0.5;
const INITIAL_PRIOR = 0.1;
/** Pairs another source must propose for a field to learn from them alone; and selectorOf's marks. */
const MIN_TAUGHT = 100;
const UNTAUGHT = -1;
const SELF_TAUGHT = -2;

const LN2 = Math.LN2;
export const logistic = (x) => 1 / (1 + Math.exp(-x));
export const logit = (p) => Math.log(p / (1 - p));

/**
 * u per field and level from the levels of random pairs (Uint8Array pairs × fields),
 * smoothed toward PRIOR_U by PRIOR_RANDOM pairs' worth: a short list has few random pairs,
 * and its duplicates are a large share of them (3 rows, one duplicate: a third).
 */
function countU(fields, randomLevels) {
  const f = fields.length;
  return fields.map(({ kind }, j) => {
    const counts = PRIOR_U[LEVELS[kind].length].map((u) => u * PRIOR_RANDOM);
    for (let p = j; p < randomLevels.length; p += f) if (randomLevels[p] !== MISSING) counts[randomLevels[p]]++;
    const total = counts.reduce((s, c) => s + c, 0);
    const u = counts.map((c) => c / total);
    const most = PERSONAL.has(kind) ? PERSONAL_EXACT_U : 1;
    if (u[0] > most) {
      u[u.length - 1] += u[0] - most;
      u[0] = most;
    }
    return u;
  });
}

/**
 * Matches whose identity fields (the names, the titles: fields.js) or their model codes
 * differ outright: at most this share. The other fields of a candidate that shares a maker
 * and a price, or a hotel's address and phone, agree far beyond chance among different
 * entities too; left to itself, EM then learns that matches' names mostly differ
 * (Amazon-Google: m 0.98 for 'different'). Measured on `npm run bench:records` when it was
 * set: Abt-Buy F1 0.432 at 0.1 against 0.295 at 0.2 and 0.3; DBLP-ACM 0.942 at 0.1 and 0.2,
 * 0.950 at 0.3; FEBRL3 0.989-0.990 at each.
 */
const IDENTITY_DIFFERENT = 0.1;

/** m of a field, its 'different' level held to IDENTITY_DIFFERENT for an identity field or its codes (the rest scaled up). */
function boundIdentity(field, m) {
  const last = m.length - 1;
  const most = field.identity || field.kind === 'code' ? IDENTITY_DIFFERENT : 1;
  if (m[last] <= most) return m;
  const scale = (1 - most) / (1 - m[last]);
  return m.map((x, l) => (l === last ? most : x * scale));
}

/**
 * Weights in nats, log(m / u), made to fall with the levels: adjacent levels out of order
 * are pooled (their m and u summed, as one level: isotonic regression), so a rare strong
 * level (`close` titles) is not cut down to a weaker one's weight; then 'different' at
 * most 0 and 'exact' at least 0.
 */
function levelWeights(m, u) {
  const blocks = []; // { m, u, count } of pooled adjacent levels
  for (let l = 0; l < m.length; l++) {
    blocks.push({ m: m[l], u: u[l], count: 1 });
    while (blocks.length > 1) {
      const [x, y] = blocks.slice(-2);
      if (Math.log(x.m / x.u) >= Math.log(y.m / y.u)) break;
      blocks.splice(-2, 2, { m: x.m + y.m, u: x.u + y.u, count: x.count + y.count });
    }
  }
  const w = blocks.flatMap((block) => Array(block.count).fill(Math.log(block.m / block.u)));
  w[0] = Math.max(w[0], 0);
  w[w.length - 1] = Math.min(w[w.length - 1], 0);
  for (let l = 1; l < w.length; l++) w[l] = Math.min(w[l], w[l - 1]);
  return w;
}

/** Fields whose levels, 3 bits each (MISSING as 7), make a key below 2^53: a number, else a string. */
const NUMERIC_KEY_FIELDS = 17;

/** A key equal for two pairs exactly when their levels levels[at, at + f) are. */
function levelsKey(levels, at, f) {
  if (f > NUMERIC_KEY_FIELDS) return levels.subarray(at, at + f).join();
  let key = 0;
  for (let j = 0; j < f; j++) key = key * 8 + Math.min(levels[at + j], 7);
  return key;
}

/**
 * The model of `fields` ([{ kind }]) from the levels of the candidate pairs and of random
 * pairs (Uint8Array, pairs × fields, row-major; MISSING where a value is missing), what
 * proposed each candidate (`sources`, a bitmask of sources per pair; `selects[s]`, the
 * fields source s selects on), of a list of `allPairs` pairs: { prior (the probability that
 * two rows of the list match), fields: [{ m, u, weights (nats) }] }.
 *
 * A pair agrees on the fields that selected it by construction, so those fields are no
 * evidence on it. Field j's m is counted on the pairs some source other than j proposed
 * (the first such: its selector), each by the posterior of the fields neither j nor the
 * selector's, under the selector's own prior (the share of its pairs that match). A pair
 * only j proposed teaches j nothing. Without that, candidates that share a postcode by
 * chance teach that a shared postcode makes a match, and the model drifts until every such
 * pair is one; and names that no source but the name search proposed would teach that a
 * match's names are mostly different.
 */
export function learnModel(fields, levels, { sources, selects }, randomLevels, allPairs) {
  const f = fields.length;
  const pairs = levels.length / f;
  const u = countU(fields, randomLevels);
  const prior = fields.map(({ kind }) => PRIOR_M[LEVELS[kind].length]);
  // selected[s * f + j]: whether source s selects on field j.
  const selected = new Uint8Array(selects.length * f);
  selects.forEach((on, s) => on.forEach((j) => { selected[s * f + j] = 1; }));
  // Pairs of one set of sources and one vector of levels count as one pattern, weighed by
  // how many they are (a few thousand patterns, whatever the pairs).
  const patternsOf = new Map(); // sources -> levelsKey -> pattern
  const patternLevels = [];
  const patternSources = [];
  const patternCount = [];
  for (let p = 0, at = 0; p < pairs; p++, at += f) {
    let patternOf = patternsOf.get(sources[p]);
    if (!patternOf) patternsOf.set(sources[p], (patternOf = new Map()));
    const key = levelsKey(levels, at, f);
    const known = patternOf.get(key);
    if (known !== undefined) {
      patternCount[known]++;
      continue;
    }
    patternOf.set(key, patternCount.length);
    for (let j = 0; j < f; j++) patternLevels.push(levels[at + j]);
    patternSources.push(sources[p]);
    patternCount.push(1);
  }
  // Per pattern, each source it has (lowest first) and per field the selector that teaches it (-1: none).
  const sourceList = patternSources.map((mask) => selects.flatMap((_, s) => (mask & (2 ** s) ? [s] : [])));
  const selectorOf = sourceList.map((list) => Int8Array.from({ length: f }, (_, j) => list.find((s) => !selected[s * f + j]) ?? UNTAUGHT));
  // A field no other source teaches (every source selects on it: one search over the names
  // and titles) learns from the pairs anyway, by the posterior of every other field.
  const taught = new Float64Array(f);
  patternCount.forEach((n, q) => selectorOf[q].forEach((s, j) => { if (s >= 0 && patternLevels[q * f + j] !== MISSING) taught[j] += n; }));
  for (let j = 0; j < f; j++) {
    if (taught[j] >= MIN_TAUGHT) continue;
    selectorOf.forEach((selectors, q) => { if (selectors[j] < 0) selectors[j] = SELF_TAUGHT; });
  }
  const sizes = new Float64Array(selects.length);
  patternCount.forEach((count, q) => sourceList[q].forEach((s) => { sizes[s] += count; }));
  let lambdas;
  let m;
  let weights;
  // The log-odds of pattern q under source s's prior from the fields s does not select on, `skip` aside.
  const evidence = (q, s, logits, skip) => {
    const self = s === SELF_TAUGHT;
    let t = logits[self ? sourceList[q][0] : s];
    for (let j = 0, at = q * f; j < f; j++) {
      const level = patternLevels[at + j];
      if (level !== MISSING && j !== skip && (self || !selected[s * f + j])) t += weights[j][level];
    }
    return t;
  };
  const count = patternCount.length;
  // EM from PRIOR_M, its first E-step weighing agreements only where `agreements`; returns
  // the matches expected among the candidates, each by its first source.
  const learn = (agreements) => {
    lambdas = new Float64Array(selects.length).fill(INITIAL_PRIOR);
    m = prior.map((p) => Float64Array.from(p));
    weights = m.map((mj, j) => levelWeights(mj, u[j]).map((w) => (agreements ? Math.max(0, w) : w)));
    for (let iteration = 0; iteration < EM_ITERATIONS && pairs > 0; iteration++) {
      const counts = prior.map((p) => p.map((x) => x * PRIOR_PAIRS));
      const totals = new Float64Array(f).fill(PRIOR_PAIRS);
      const matches = new Float64Array(selects.length);
      const logits = Array.from(lambdas, logit);
      for (let q = 0; q < count; q++) {
        const n = patternCount[q];
        for (const s of sourceList[q]) matches[s] += n * logistic(evidence(q, s, logits, -1));
        for (let j = 0; j < f; j++) {
          const level = patternLevels[q * f + j];
          const s = selectorOf[q][j];
          if (level === MISSING || s === UNTAUGHT) continue;
          const g = n * logistic(evidence(q, s, logits, j));
          counts[j][level] += g;
          totals[j] += g;
        }
      }
      const next = counts.map((c, j) => boundIdentity(fields[j], Float64Array.from(c, (x) => x / totals[j])));
      const nextLambdas = Float64Array.from(matches, (x, s) => (sizes[s] ? Math.min(MAX_PRIOR, Math.max(MIN_PRIOR, x / sizes[s])) : INITIAL_PRIOR));
      let change = 0;
      for (let s = 0; s < lambdas.length; s++) change = Math.max(change, Math.abs(nextLambdas[s] - lambdas[s]));
      for (let j = 0; j < f; j++) for (let l = 0; l < next[j].length; l++) change = Math.max(change, Math.abs(next[j][l] - m[j][l]));
      m = next;
      lambdas = nextLambdas;
      weights = m.map((mj, j) => levelWeights(mj, u[j]));
      if (change < EM_TOLERANCE) break;
    }
    const logits = Array.from(lambdas, logit);
    let expected = 0;
    for (let q = 0; q < count; q++) expected += patternCount[q] * logistic(evidence(q, sourceList[q][0], logits, -1));
    return expected;
  };
  // No match among the candidates: PRIOR_M's weights against (an e-mail, a date that differs)
  // outweighed them all from the start, and EM, learning m from those posteriors, never
  // learned that the list's copies differ there (a sign-up date). Once more, weighing
  // agreements alone at first: from there on a list with many chance candidates (syllable
  // names) would learn their shared fields as a match.
  let expected = learn(false);
  if (pairs > 0 && expected < 1) expected = learn(true);
  // The prior of a pair of the list, candidate or not: the matches expected among the
  // candidates (all of them, as far as candidates hold every likely pair) over all pairs.
  const lambda = Math.min(MAX_PRIOR, Math.max(MIN_PRIOR, (pairs > 0 ? expected : INITIAL_PRIOR) / allPairs));
  return { prior: lambda, fields: fields.map((_, j) => ({ m: Array.from(m[j]), u: u[j], weights: weights[j] })) };
}

/**
 * The weight in nats of an exact agreement on a value whose share of the field's non-empty
 * values is `share`, where `typical` is the share of the value two random rows agree on,
 * on average (keyShares): the level's weight, plus log(typical / share), within [the next
 * level's weight, the level's weight with u at one value in `values`]. Two `Smith`s weigh
 * less than two `Zbigniew`s; on a list whose values are all distinct, every agreement weighs the same.
 */
export function exactWeight(field, share, typical, values) {
  const { m, weights } = field;
  if (weights[0] <= 0) return weights[0];
  return Math.min(Math.max(Math.log(m[0] * values), weights[0]), Math.max(weights[1], weights[0] + Math.log(typical / share)));
}

/** Nats to bits, for the result. */
export const bits = (nats) => nats / LN2;
