// dedup of records (README "Records"): rows of fields, each compared by its kind, the
// evidence of the fields weighed by a Fellegi-Sunter model learned from the list itself
// (model.js), groups of the pairs that match with a high probability under the leader rule
// (each member matches its kept row directly, so weak links do not chain), and a review of
// the uncertain pairs, each explained field by field.
//
// Pipeline: identical rows collapsed; fields.js's fields and keys; candidates.js's
// candidates and random pairs; the levels of both in every field; the model; the
// probabilities; groups (identity differences kept apart); review.
import { checkInteger, checkKnownKeys, checkNumber } from '../core/checks.js';
import { Pacer, checkOnProgress, checkSignal } from '../core/pacing.js';
import { assertUsable } from '../core/traps.js';
import { buildShingleSets, createShingleSets, deleteShingleSets, setSimilarities } from '../bindings/shingle-sets.js';
import { learnWeights, lendWeights } from '../bindings/word-weights.js';
import { differenceOf, partsOfItems, splitLookAlikes } from '../dedup/look-alikes.js';
import { differingParts, hasNumbers } from '../core/look-alikes.js';
import { centralLeaderLabels, dedupResult, flatGroups } from '../dedup/grouping.js';
import { collapseTexts } from '../dedup/dedup.js';
import { contains, wordsOf } from '../dedup/contained.js';
import { checkFields, checkRows, recordFields } from './fields.js';
import { LEVELS, MISSING, SHORT_NUMBER, keyLevel, keySignature, signaturesApart, similarityLevel } from './levels.js';
import { KEYED, fieldsWhere, proposeCandidates, randomPairs } from './candidates.js';
import { bits, exactWeight, learnModel, logistic, logit } from './model.js';

const SIMILAR = LEVELS.name.indexOf('similar');
const DIFFERENT = LEVELS.name.indexOf('different');

const RECORD_OPTIONS = ['fields', 'probability', 'review', 'reviewLimit', 'onProgress', 'signal'];

/** Match probability from which two rows are grouped, and from which review lists them. */
export const DEFAULT_PROBABILITY = 0.99;
export const DEFAULT_RECORD_REVIEW = 0.1;
/** Links from the probability from which dedup lists a pair for review: a wrong link loses no row. */
export const DEFAULT_LINK_PROBABILITY = DEFAULT_RECORD_REVIEW;
/** The names' similarity from which link's candidates are proposed where no row keys are (candidates.js CANDIDATE_SIMILARITY). */
const LINK_CANDIDATE_SIMILARITY = 0.5;
const DEFAULT_REVIEW_LIMIT = 1000;

/** Random pairs counted for u. */
const RANDOM_PAIRS = 20000;

/**
 * Kinds that identify a row rather than what it shares with others (a phone line, an
 * address, an employer), and the weight (20 bits: about one chance in a million) of their
 * agreement that overrides a disagreeing identity.
 */
const IDENTIFIERS = new Set(['email', 'date', 'exact']);
const IDENTIFIER_NATS = 20 * Math.LN2;

/** Checks link's lists and options: { items (left's rows, then right's), parsed (checkRecordArguments') }. */
export function checkLinkArguments(left, right, options) {
  checkRows(left, 'left');
  checkRows(right, 'right');
  const items = [...left, ...right];
  return { items, parsed: checkRecordArguments(items, options, DEFAULT_LINK_PROBABILITY) };
}

/** Whether dedup's items are records (README "Records"): objects, with no options.key to make texts of them (SimHash#dedup and the pool's dedup ask). */
export function isRecords(items, options) {
  const head = Array.isArray(items) ? items[0] : undefined;
  return options?.key === undefined && head !== null && typeof head === 'object' && !Array.isArray(head);
}

/** Checks dedup's options for records (link's: `probability` defaults lower); returns them parsed. */
export function checkRecordArguments(items, options, defaultProbability = DEFAULT_PROBABILITY) {
  checkRows(items);
  checkKnownKeys(options, 'options', RECORD_OPTIONS);
  const fields = checkFields(options.fields, 'options.fields');
  const probability = checkProbability(options.probability ?? defaultProbability, 'options.probability', 1);
  const review = checkProbability(options.review ?? Math.min(DEFAULT_RECORD_REVIEW, probability / 2), 'options.review', probability);
  const reviewLimit = options.reviewLimit === undefined ? DEFAULT_REVIEW_LIMIT : checkInteger(options.reviewLimit, 'options.reviewLimit', 1, 0xffffffff);
  const { onProgress, signal } = options;
  checkOnProgress(onProgress, 'options.onProgress');
  checkSignal(signal, 'options.signal');
  return { fields, probability, review, reviewLimit, onProgress, signal };
}

/** A number above 0 and below `below` (1: 'below 1'; else 'below the probability …'). */
function checkProbability(value, name, below) {
  if (!(checkNumber(value, name) > 0 && value < below)) throw new RangeError(`${name} must be above 0 and below ${below === 1 ? 1 : `the probability ${below}`}, got ${value}`);
  return value;
}


/**
 * use(comparer), a comparison of pairs of distinct rows field by field, whose
 * `levels(pairs, on, out, at)` writes the levels of the pairs { a, b } at the indices `at`
 * (all when not given) in the fields `on` (indices) into `out` ({ levels (pairs × fields,
 * row-major; MISSING where not compared), apart }; new when not given), and returns it. A
 * name or text field's distinct values are shingled when the field is first compared, and
 * held until `use` settles, so that pairs compared later (matchRecords' KEYS_APART) cost no
 * second building. Two values of a name field beside the identity (an address, a branch)
 * whose words are alike and whose numbers differ (`3555` / `3570 Las Vegas Blvd.`:
 * core/look-alikes.js) are 'different': two houses of one street, two flats of one building
 * are two places; `apart` maps each such pair to the first such field.
 */
async function withComparer(core, fields, rows, pacer, use) {
  const shingled = new Map(); // field index -> its values' sets and what its levels ask of them
  const rowKeys = []; // field index -> its keys of the rows
  const rowSignatures = []; // field index -> keySignature's of its rows' keys
  /** Field j's distinct values (of its rows' `keys`) in one set each, by its measure. */
  async function shingle(j, keys) {
    const field = fields[j];
    const { distinct: values, of: slot } = await collapseTexts(keys, pacer);
    const measure = field.kind === 'name' ? 'short' : 'text';
    const wordSets = new Array(values.length);
    const partsOf = partsOfItems((v) => values[v]);
    const compared = {
      sets: createShingleSets(core),
      slot,
      wordsAt: (v) => (wordSets[v] ??= wordsOf(values[v])),
      numbersDiffer: (x, y) => !field.identity && measure === 'short' && hasNumbers(partsOf(x)) && hasNumbers(partsOf(y))
        && differingParts(partsOf(x), partsOf(y))?.numbers !== undefined,
    };
    shingled.set(j, compared);
    const build = (weights) => buildShingleSets(core, compared.sets, values, () => pacer.pause(), 0, measure, weights);
    if (measure === 'short') await lendWeights(core, await learnWeights(core, values, () => pacer.pause()), build);
    else await build(0);
    return compared;
  }
  const comparer = {
    async levels({ a, b }, on, out = { levels: new Uint8Array(a.length * fields.length).fill(MISSING), apart: new Map() }, at = null) {
      const f = fields.length;
      const count = at ? at.length : a.length;
      const { levels, apart } = out;
      for (const j of on) {
        const field = fields[j];
        const keys = (rowKeys[j] ??= Array.from(rows, (r) => field.keys[r]));
        if (KEYED.has(field.kind)) {
          const last = LEVELS[field.kind].length - 1;
          let signatures = rowSignatures[j];
          if (!signatures && field.kind !== 'code') {
            signatures = rowSignatures[j] = new Uint32Array(keys.length);
            for (let r = 0; r < keys.length; r++) signatures[r] = keySignature(field.kind, keys[r]);
          }
          for (let q = 0; q < count; q++) {
            const p = at ? at[q] : q;
            const x = keys[a[p]];
            const y = keys[b[p]];
            if (x !== '' && y !== '') levels[p * f + j] = signatures && signaturesApart(signatures[a[p]], signatures[b[p]]) ? last : keyLevel(field.kind, x, y);
          }
          continue;
        }
        const { sets, slot, wordsAt, numbersDiffer } = shingled.get(j) ?? await shingle(j, keys);
        const [slotsA, slotsB] = [new Uint32Array(count), new Uint32Array(count)];
        for (let q = 0; q < count; q++) {
          const p = at ? at[q] : q;
          [slotsA[q], slotsB[q]] = [slot[a[p]], slot[b[p]]];
        }
        const similarity = setSimilarities(core, sets, slotsA, slotsB);
        for (let q = 0; q < count; q++) {
          const p = at ? at[q] : q;
          if (keys[a[p]] === '' || keys[b[p]] === '') continue;
          const [x, y] = [slotsA[q], slotsB[q]];
          const level = similarityLevel(similarity[q], x === y);
          if (level === DIFFERENT) levels[p * f + j] = contains(wordsAt(x), wordsAt(y)) ? SIMILAR : level;
          else if (level > 0 && numbersDiffer(x, y)) {
            levels[p * f + j] = DIFFERENT;
            if (!apart.has(p)) apart.set(p, j);
          } else levels[p * f + j] = level;
        }
        await pacer.pause();
      }
      return out;
    },
  };
  try {
    return await use(comparer);
  } finally {
    for (const { sets } of shingled.values()) deleteShingleSets(core, sets);
  }
}

/** How many rows hold the rarest code that codes x and y (space-separated) share. */
function rarestShared(x, y, counts) {
  const codes = new Set(x.split(' '));
  let least = Infinity;
  for (const code of y.split(' ')) if (codes.has(code)) least = Math.min(least, counts.get(code) ?? 1);
  return Number.isFinite(least) ? least : 1;
}

/** Each field's share of rows per key, for the weight of an exact agreement. */
function keyShares(fields, rows) {
  return fields.map((field) => {
    const counts = new Map();
    let present = 0;
    for (const r of rows) {
      const key = field.keys[r];
      if (key === '') continue;
      present++;
      for (const part of field.kind === 'code' ? key.split(' ') : [key]) counts.set(part, (counts.get(part) ?? 0) + 1);
    }
    // The share of the value two random rows agree on, on average: sum of p^3 over sum of p^2.
    let squares = 0;
    let cubes = 0;
    for (const count of counts.values()) {
      const p = count / present;
      squares += p * p;
      cubes += p * p * p;
    }
    return { counts, present, typical: squares > 0 ? cubes / squares : 1 };
  });
}

/** The weight (nats) of field j's `level` for rows r and s: an exact agreement weighs by the value's rarity (keyShares' `shares`). */
function fieldWeight(model, fields, shares, j, level, r, s) {
  if (level === MISSING) return 0;
  if (level !== 0 || fields[j].kind === 'text') return model.fields[j].weights[level];
  const { counts, present, typical } = shares[j];
  const [x, y] = [fields[j].keys[r], fields[j].keys[s]];
  const share = (fields[j].kind === 'code' ? rarestShared(x, y, counts) : Math.max(counts.get(x) ?? 1, counts.get(y) ?? 1)) / present;
  return exactWeight(model.fields[j], share, typical, present);
}

/** The match weight (nats) of each pair, or of those at the indices `at`. */
function matchWeights(model, fields, rows, { a, b }, levels, shares, at = null) {
  const f = fields.length;
  const base = logit(model.prior);
  const total = new Float64Array(at ? at.length : a.length);
  for (let q = 0; q < total.length; q++) {
    const p = at ? at[q] : q;
    let t = base;
    for (let j = 0; j < f; j++) t += fieldWeight(model, fields, shares, j, levels[p * f + j], rows[a[p]], rows[b[p]]);
    total[q] = t;
  }
  return total;
}

/** Row r's identity fields as written, joined. */
const identityText = (fields, r) => fields.filter((field) => field.identity).map((field) => field.texts[r]).filter(Boolean).join(' ');

/**
 * The pairs at the threshold whose identity disagrees, kept apart and listed (a wrong merge
 * loses a record, a missed one costs a glance): Map of pair to why, { field, differs? }.
 * A pair's identity disagrees when its identity fields, joined in either order, show a
 * look-alike's difference (README "Look-alikes": `Michael`/`Michelle Brown`, a model
 * number, `Palace Court`/`Cafe Roma`), or when an 'exact' field holds numbers of up to
 * four digits that differ (a house number, a year: a journal's version of a paper), or a
 * name field beside the identity numbers that differ in words alike (withComparer's `apart`:
 * `12`/`14 Oak Street`), and the other fields but the identity do not agree beyond chance;
 * unless its identifiers say otherwise: agreeing addresses, phones and employers do not make
 * two people one. `levels` and `apart` are withComparer's of the candidates { a, b }.
 */
function identityDifferences(fields, rows, { a, b }, { levels, apart }, probability, threshold, model, fieldWeightOf) {
  const f = fields.length;
  const identities = fields.filter((field) => field.identity);
  const identityOf = (r) => identities.map((field) => field.keys[r]).filter(Boolean).join(' ');
  const identifiers = fieldsWhere(fields, (field) => IDENTIFIERS.has(field.kind));
  const numbers = fieldsWhere(fields, (field) => field.kind === 'exact');
  const codes = fields.findIndex((field) => field.kind === 'code');
  const differs = new Map();
  for (let p = 0; p < probability.length; p++) {
    if (probability[p] < threshold) continue;
    const [ra, rb] = [rows[a[p]], rows[b[p]]];
    let why = null;
    // A model code both share names one product, however else the titles are worded.
    const sharesCode = codes >= 0 && levels[p * f + codes] === 0;
    const [x, y] = [identityOf(ra), identityOf(rb)];
    if (x && y && !sharesCode && differenceOf(x, y)) {
      // The difference of the keys (nicknames in full) decides; that of the texts says it as written.
      why = { field: identities.map((field) => field.name).join(' '), differs: differenceOf(identityText(fields, ra), identityText(fields, rb)) ?? differenceOf(x, y) };
    } else {
      // A number that differs outright: of up to four digits in an 'exact' field (a house, a
      // year, an edition), or in a name field's value whose words agree (withComparer's `apart`).
      const inName = apart.get(p);
      const j = inName ?? numbers.find((k) => levels[p * f + k] === LEVELS.exact.length - 1
        && SHORT_NUMBER.test(fields[k].texts[ra]) && SHORT_NUMBER.test(fields[k].texts[rb]));
      if (j === undefined) continue;
      // Unless the fields but the identity and that number agree beyond chance: a record whose
      // address, postcode and date of birth agree has a mistyped house number. A number inside
      // an address is outweighed by half as much: a phone line alone says one place.
      let rest = 0;
      for (let k = 0; k < f; k++) if (k !== j && !fields[k].identity) rest += Math.max(0, fieldWeightOf(p, k));
      if (rest >= (inName === undefined ? IDENTIFIER_NATS : IDENTIFIER_NATS / 2)) continue;
      const [x, y] = [fields[j].texts[ra], fields[j].texts[rb]];
      why = { field: fields[j].name, differs: (inName !== undefined && differenceOf(x, y)) || { numbers: [[x], [y]] } };
    }
    // Identifiers of the row itself (an e-mail, a date of birth, a number) that agree beyond
    // chance, and none that identifies a row on its own (its exact agreement weighs
    // IDENTIFIER_NATS / 2 or more: an e-mail, a social security number; not a house number or
    // a postcode) against: the name was mistyped or swapped, the row is the same.
    let evidence = 0;
    let against = false;
    for (const j of identifiers) {
      const level = levels[p * f + j];
      if (level === MISSING) continue;
      const weights = model.fields[j].weights;
      if (level === weights.length - 1 && weights[0] >= IDENTIFIER_NATS / 2) against = true;
      evidence += Math.max(0, fieldWeightOf(p, j));
    }
    if (against || evidence < IDENTIFIER_NATS) differs.set(p, why);
  }
  return differs;
}

/**
 * The labels of n rows grouped by the pairs whose probability reaches `threshold`, those in
 * `differs` aside, under the central leader rule (grouping.js centralLeaderLabels). Then two
 * members whose identities' numbers differ (`identityOf(row)`: `iPhone 14` / `15` under
 * `iPhone`) are split as a list's (dedup/look-alikes.js), each already checked against its kept row.
 */
function centralLeaders(core, n, { a, b }, probability, threshold, differs, identityOf) {
  const grouping = new Set();
  for (let p = 0; p < probability.length; p++) if (probability[p] >= threshold && !differs.has(p)) grouping.add(a[p] * n + b[p]);
  const pairs = { a: new Uint32Array(grouping.size), b: new Uint32Array(grouping.size) };
  let at = 0;
  for (const pair of grouping) [pairs.a[at], pairs.b[at++]] = [Math.floor(pair / n), pair % n];
  return splitLookAlikes(centralLeaderLabels(core, n, pairs), identityOf,
    (firsts, y) => firsts.map((x) => grouping.has(Math.min(x, y) * n + Math.max(x, y))), { keptChecked: true }).labels;
}

/** The model as the result reports it: per field its kind and per level m, u and the weight in bits. */
function describeModel(model, fields) {
  return {
    prior: model.prior,
    fields: fields.map(({ name, kind }, j) => ({
      name,
      kind,
      levels: LEVELS[kind].map((level, l) => ({
        level, m: model.fields[j].m[l], u: model.fields[j].u[l], weight: bits(model.fields[j].weights[l]),
      })),
    })),
  };
}

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
 * (KEYS_APART).
 */
export async function matchRecords(core, fields, rows, pacer, similarity, least = 0) {
  const proposed = await proposeCandidates(core, fields, rows, pacer, similarity);
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
    let apart = 0;
    for (const j of keyed) apart += found.levels[p * f + j] === last[j] ? 1 : -Infinity;
    if (apart >= KEYS_APART) aside[p] = 1;
    else kept.push(p);
  }
  await comparer.levels(candidates, compared, found, kept);
  const n = rows.length;
  const model = learnModel(fields, found.levels, { sources: candidates.sources, selects }, sampled.levels, Math.max(1, (n * (n - 1)) / 2));
  const shares = keyShares(fields, rows);
  const weight = new Float64Array(count);
  matchWeights(model, fields, rows, candidates, found.levels, shares, kept).forEach((w, q) => { weight[kept[q]] = w; });
  // Each pair set aside (its keys at their last level, its names and texts missing), its names
  // and texts at their strongest weight (an exact agreement on the rarer of the two values):
  // compared when that reaches `least`, else that bound kept.
  const apartWeight = keyed.reduce((w, j) => w + model.fields[j].weights[last[j]], logit(model.prior));
  const strongest = compared.map((j) => Float64Array.from(rows, (r) => (fields[j].keys[r] === '' ? NaN : fieldWeight(model, fields, shares, j, 0, r, r))));
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
    const rescored = matchWeights(model, fields, rows, candidates, found.levels, shares, doubtful);
    doubtful.forEach((p, q) => { weight[p] = rescored[q]; });
  }
  const { a, b } = candidates;
  const fieldWeightOf = (p, j) => fieldWeight(model, fields, shares, j, found.levels[p * f + j], rows[a[p]], rows[b[p]]);
  return { candidates, levels: found.levels, apart: found.apart, model, weight, fieldWeightOf, probability: Float64Array.from(weight, logistic) };
}

/** The match probability of any pairs { a, b } of rows under `model` (matchRecords'): what the candidates are checked against. */
export async function pairProbabilities(core, fields, rows, model, pairs, pacer) {
  const { levels } = await withComparer(core, fields, rows, pacer, (comparer) => comparer.levels(pairs, fields.map((_, j) => j)));
  return Float64Array.from(matchWeights(model, fields, rows, pairs, levels, keyShares(fields, rows)), logistic);
}

/** sh.dedup of records: checkRecordArguments, then the pipeline above. */
export async function dedupRecords(core, items, options) {
  const parsed = checkRecordArguments(items, options);
  const pacer = new Pacer({ signal: parsed.signal, onProgress: parsed.onProgress, check: () => assertUsable(core) });
  pacer.report('fields', 0, 1);
  const fields = recordFields(items, parsed.fields);
  // Identical rows (equal texts in every field) collapsed: `rows` the first of each, `of[i]` row i's among them.
  const { first: rows, of } = await collapseTexts(Array.from(items, (_, i) => fields.map((field) => field.texts[i]).join('\u0000')), pacer);
  const n = rows.length;
  await pacer.pause();
  const { candidates, levels, apart, model, weight, probability, fieldWeightOf } = await matchRecords(core, fields, rows, pacer, undefined, parsed.review);
  pacer.report('groups', 0, 1);
  const differs = identityDifferences(fields, rows, candidates, { levels, apart }, probability, parsed.probability, model, fieldWeightOf);
  const distinctLabels = centralLeaders(core, n, candidates, probability, parsed.probability, differs, (r) => identityText(fields, rows[r]));
  const labels = new Uint32Array(items.length);
  for (let i = 0; i < items.length; i++) labels[i] = rows[distinctLabels[of[i]]];
  const result = await dedupResult(items, flatGroups(labels), pacer);
  // Review: the pair joining each two groups, at least parsed.review, not grouped: one kept apart, else the most probable.
  const best = new Map();
  for (let p = 0; p < probability.length; p++) {
    if (probability[p] < parsed.review) continue;
    const ga = distinctLabels[candidates.a[p]];
    const gb = distinctLabels[candidates.b[p]];
    if (ga === gb) continue;
    const key = ga < gb ? ga * n + gb : gb * n + ga;
    const seen = best.get(key);
    if (seen === undefined || (differs.has(p) - differs.has(seen) || probability[p] - probability[seen]) > 0) best.set(key, p);
  }
  const order = [...best.values()].sort((x, y) => probability[y] - probability[x] || candidates.a[x] - candidates.a[y] || candidates.b[x] - candidates.b[y]);
  const explain = pairExplainer(fields, rows, candidates, levels, weight, fieldWeightOf, differs);
  const review = order.slice(0, parsed.reviewLimit).map((p) => explain(p, rows[candidates.a[p]], rows[candidates.b[p]], probability[p]));
  pacer.report('groups', 1, 1);
  return { ...result, ...describeMatching(fields, model, review, order, candidates) };
}

/** What both results of records end with: the fields, the model, the review and how many pairs were compared. */
const describeMatching = (fields, model, review, order, candidates) => ({
  fields: fields.map(({ name, kind }) => ({ name, kind })),
  model: describeModel(model, fields),
  review,
  reviewOmitted: order.length - review.length,
  compared: candidates.a.length,
});

/**
 * A function of a candidate p (indexing the distinct `rows`), its rows' indices as the result
 * gives them (a and b) and its probability, to the pair as the result explains it: its
 * weight, why it was kept apart, and per field the two values, the level and the weight.
 */
function pairExplainer(fields, rows, candidates, levels, weight, fieldWeightOf, differs) {
  const f = fields.length;
  return (p, a, b, probability) => ({
    a,
    b,
    probability,
    weight: bits(weight[p]),
    ...(differs.has(p) && { apart: differs.get(p) }),
    fields: fields.map(({ name, kind, texts }, j) => {
      const level = levels[p * f + j];
      return { name, a: texts[rows[candidates.a[p]]], b: texts[rows[candidates.b[p]]], level: level === MISSING ? 'missing' : LEVELS[kind][level], weight: bits(fieldWeightOf(p, j)) };
    }),
  });
}

/**
 * sh.link of two lists of records (README "Records"): the rows of `left` and `right` matched
 * as dedup matches a list's, the model learned from both; each row linked to the row of the
 * other list that is its most probable match when it is that row's too (one-to-one: each
 * list holds an entity once), at `probability` or above and their identities not differing.
 * A wrong link loses no row, so links start at a lower probability than dedup's groups.
 * Review: the other pairs across at `review` or above, most probable first.
 */
export async function linkRecords(core, left, right, options) {
  const { items, parsed } = checkLinkArguments(left, right, options);
  const pacer = new Pacer({ signal: parsed.signal, onProgress: parsed.onProgress, check: () => assertUsable(core) });
  pacer.report('fields', 0, 1);
  const fields = recordFields(items, parsed.fields);
  const n = left.length;
  // Rows equal in every field within one list collapsed, as dedup collapses them (one list's
  // copies would teach the model that equal fields match less often); the copies stay unlinked.
  const { first: rows } = await collapseTexts(Array.from(items, (_, i) => (i < n) + fields.map((field) => field.texts[i]).join('\u0000')), pacer);
  const { candidates, levels, apart, model, weight, probability, fieldWeightOf } = await matchRecords(core, fields, rows, pacer, LINK_CANDIDATE_SIMILARITY, parsed.review);
  pacer.report('groups', 0, 1);
  const differs = identityDifferences(fields, rows, candidates, { levels, apart }, probability, parsed.probability, model, fieldWeightOf);
  // `rows` ascend, so a candidate across (a < b) has a in left and b in right.
  const across = [];
  const best = new Int32Array(rows.length).fill(-1);
  for (let p = 0; p < probability.length; p++) {
    if (rows[candidates.a[p]] >= n || rows[candidates.b[p]] < n || probability[p] < parsed.review) continue;
    across.push(p);
    if (probability[p] < parsed.probability || differs.has(p)) continue;
    for (const r of [candidates.a[p], candidates.b[p]]) if (best[r] < 0 || probability[p] > probability[best[r]]) best[r] = p;
  }
  const linked = (p) => best[candidates.a[p]] === p && best[candidates.b[p]] === p;
  const explain = pairExplainer(fields, rows, candidates, levels, weight, fieldWeightOf, differs);
  const entry = (p) => explain(p, rows[candidates.a[p]], rows[candidates.b[p]] - n, probability[p]);
  const order = across.filter((p) => !linked(p)).sort((x, y) => probability[y] - probability[x] || x - y);
  const review = order.slice(0, parsed.reviewLimit).map(entry);
  pacer.report('groups', 1, 1);
  return { links: across.filter(linked).map(entry), ...describeMatching(fields, model, review, order, candidates) };
}
