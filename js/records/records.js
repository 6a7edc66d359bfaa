// dedup of records (README "Records"): rows of fields, each compared by its kind, the
// evidence of the fields weighed by a Fellegi-Sunter model learned from the list itself
// (model.js), groups of the pairs that match with a high probability under the leader rule
// (each member matches its kept row directly, so weak links do not chain), and a review of
// the uncertain pairs, each explained field by field.
//
// Pipeline: identical rows collapsed; fields.js's fields and keys; matching.js's candidates,
// model and probabilities; groups (identity differences kept apart); review.
import { mapArray } from '../core/arrays.js';
import { checkInteger, checkKnownKeys, checkNumber } from '../core/checks.js';
import { DEFAULT_REVIEW_LIMIT, MAX_REVIEW_LIMIT } from '../core/thresholds.js';
import { Pacer, checkOnProgress, checkSignal } from '../core/pacing.js';
import { assertUsable } from '../core/traps.js';
import { differenceOf, splitLookAlikes } from '../dedup/look-alikes.js';
import { centralLeaderLabels, dedupResult, flatGroups } from '../dedup/grouping.js';
import { collapseTexts } from '../dedup/dedup.js';
import { checkFields, checkRows, recordFields, rowNamer } from './fields.js';
import { LEVELS, MISSING, SHORT_NUMBER } from './levels.js';
import { KEYED, fieldsWhere } from './candidates.js';
import { bits } from './model.js';
import { matchRecords } from './matching.js';

const RECORD_OPTIONS = ['fields', 'probability', 'review', 'reviewLimit', 'onProgress', 'signal'];

/** Match probability from which two rows are grouped, and from which review lists them. */
export const DEFAULT_PROBABILITY = 0.99;
export const DEFAULT_RECORD_REVIEW = 0.1;
/** Links from the probability from which dedup lists a pair for review: a wrong link loses no row. */
export const DEFAULT_LINK_PROBABILITY = DEFAULT_RECORD_REVIEW;
/** The names' similarity from which link's candidates are proposed where no row keys are (candidates.js CANDIDATE_SIMILARITY). */
const LINK_CANDIDATE_SIMILARITY = 0.5;

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
  const reviewLimit = options.reviewLimit === undefined ? DEFAULT_REVIEW_LIMIT : checkInteger(options.reviewLimit, 'options.reviewLimit', 1, MAX_REVIEW_LIMIT);
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
 * `12`/`14 Oak Street`), and the other fields but the identity do not agree beyond chance,
 * or when its identities are a typo apart while an e-mail or a date differs outright and no
 * key agrees exactly (keysTellApart: `Robert`/`Roberta Brown`); unless its identifiers say
 * otherwise: agreeing addresses, phones and employers do not make two people one. `levels`
 * and `apart` are matching.js matchRecords' of the candidates { a, b }.
 */
function identityDifferences(fields, rows, { a, b }, { levels, apart }, probability, threshold, fieldWeightOf, identified) {
  const f = fields.length;
  const identities = fields.filter((field) => field.identity);
  const identityNames = identities.map((field) => field.name).join(' ');
  const identityOf = (r) => identities.map((field) => field.keys[r]).filter(Boolean).join(' ');
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
      why = { field: identityNames, differs: differenceOf(identityText(fields, ra), identityText(fields, rb)) ?? differenceOf(x, y) };
    } else {
      // A number that differs outright: of up to four digits in an 'exact' field (a house, a
      // year, an edition), or in a name field's value whose words agree (withComparer's `apart`).
      const inName = apart.get(p);
      const j = inName ?? numbers.find((k) => levels[p * f + k] === LEVELS.exact.length - 1
        && SHORT_NUMBER.test(fields[k].texts[ra]) && SHORT_NUMBER.test(fields[k].texts[rb]));
      if (j === undefined) {
        if (!keysTellApart(fields, levels, p, fieldWeightOf)) continue;
        why = { field: identityNames, differs: { words: wordsApart(identityText(fields, ra), identityText(fields, rb)) } };
      } else {
        // Unless the fields but the identity and that number agree beyond chance: a record whose
        // address, postcode and date of birth agree has a mistyped house number. A number inside
        // an address is outweighed by half as much: a phone line alone says one place.
        let rest = 0;
        for (let k = 0; k < f; k++) if (k !== j && !fields[k].identity) rest += Math.max(0, fieldWeightOf(p, k));
        if (rest >= (inName === undefined ? IDENTIFIER_NATS : IDENTIFIER_NATS / 2)) continue;
        const [x, y] = [fields[j].texts[ra], fields[j].texts[rb]];
        why = { field: fields[j].name, differs: (inName !== undefined && differenceOf(x, y)) || { numbers: [[x], [y]] } };
      }
    }
    // The name was mistyped or swapped where the identifiers say the row is the same.
    if (!identified(p)) differs.set(p, why);
  }
  return differs;
}

/**
 * Whether candidate p's identifiers of the row itself (an e-mail, a date of birth, a number)
 * agree beyond chance (IDENTIFIER_NATS), none that identifies a row on its own (its exact
 * agreement weighs IDENTIFIER_NATS / 2 or more: an e-mail, a social security number; not a
 * house number or a postcode) against: (fields, levels, model, fieldWeightOf) => p => boolean.
 */
function identifiedBy(fields, levels, model, fieldWeightOf) {
  const f = fields.length;
  const identifiers = fieldsWhere(fields, (field) => IDENTIFIERS.has(field.kind));
  return (p) => {
    let evidence = 0;
    for (const j of identifiers) {
      const level = levels[p * f + j];
      if (level === MISSING) continue;
      const weights = model.fields[j].weights;
      if (level === weights.length - 1 && weights[0] >= IDENTIFIER_NATS / 2) return false;
      evidence += Math.max(0, fieldWeightOf(p, j));
    }
    return evidence >= IDENTIFIER_NATS;
  };
}

/**
 * The weight from which an exact agreement of an 'exact' field says one row (8 bits: one pair
 * in 256 shares it by chance), as a social security number or a customer id does; a postcode
 * or a house number a household shares weighs less.
 */
const OWN_NUMBER_NATS = 8 * Math.LN2;
/** Kinds whose outright difference says two people where the names look alike (an e-mail, a date of birth). */
const OUTRIGHT_KEYS = new Set(['email', 'date']);

/**
 * Whether candidate p's identity fields are not alike exactly (a typo: `Robert` / `Roberta`,
 * `Johnson` / `Johnston`; a name and its short form or suffix: `Alex` / `Alexandra`, `John
 * Smith` / `John Smith Sr.`) while its e-mail or date differs outright and no key agrees
 * exactly (an e-mail, a phone, a date, a code, or a number by OWN_NUMBER_NATS): two people,
 * whatever else they share (a household's city and postcode, an employer, phones a digit
 * apart); EM on a short list learns such pairs as matches. A date that differs outright
 * (born decades apart) outweighs a phone that agrees, a household's line, where the list
 * says so: that level weighs half a bit or more against (a date of birth; a sign-up date
 * differs as often as not between copies).
 */
function keysTellApart(fields, levels, p, fieldWeightOf) {
  const f = fields.length;
  let typo = false;
  let differs = false;
  let dateDiffers = false;
  let phoneAgrees = false;
  for (let j = 0; j < f; j++) {
    const { kind, identity } = fields[j];
    const level = levels[p * f + j];
    if (level === MISSING) continue;
    const outright = level === LEVELS[kind].length - 1;
    if (identity) typo ||= level > 0;
    else if (kind === 'phone') phoneAgrees ||= level === 0;
    else if (KEYED.has(kind) && level === 0 && (kind !== 'exact' || fieldWeightOf(p, j) >= OWN_NUMBER_NATS)) return false;
    differs ||= OUTRIGHT_KEYS.has(kind) && outright;
    dateDiffers ||= kind === 'date' && outright && fieldWeightOf(p, j) <= -Math.LN2 / 2;
  }
  return typo && (dateDiffers || differs && !phoneAgrees);
}

/** The words of x and of y (trimmed, as written) that the other lacks, case aside: [x's, y's]. */
function wordsApart(x, y) {
  const words = (text) => text.split(/\s+/);
  return [[x, y], [y, x]].map(([own, other]) => {
    const others = words(other.toLowerCase());
    return words(own).filter((word) => !others.includes(word.toLowerCase()));
  });
}

/**
 * { labels, grouping }: the labels of n rows grouped by the pairs whose probability reaches
 * `threshold`, those in `differs` aside (`grouping`: each such pair's candidate, by a * n +
 * b), under the central leader rule (grouping.js centralLeaderLabels). Then two
 * members whose identities' numbers differ (`identityOf(row)`: `iPhone 14` / `15` under
 * `iPhone`) are split as a list's (dedup/look-alikes.js), each already checked against its kept
 * row; and a member kept apart from one before it in its group (`differs`) is a group of its
 * own where its kept row only bridges the two (`bridges(apart, withKept, kept)`: the two
 * members' candidate, undefined where they are not kept apart; the member's with its kept
 * row; that row).
 */
function centralLeaders(core, n, { a, b }, probability, threshold, differs, identityOf, bridges) {
  const grouping = new Map(); // pair -> candidate
  for (let p = 0; p < probability.length; p++) if (probability[p] >= threshold && !differs.has(p)) grouping.set(a[p] * n + b[p], p);
  const pairs = { a: new Uint32Array(grouping.size), b: new Uint32Array(grouping.size) };
  let at = 0;
  for (const pair of grouping.keys()) [pairs.a[at], pairs.b[at++]] = [Math.floor(pair / n), pair % n];
  const { labels } = splitLookAlikes(centralLeaderLabels(core, n, pairs), identityOf,
    (firsts, y) => firsts.map((x) => grouping.has(Math.min(x, y) * n + Math.max(x, y))), { keptChecked: true });
  const apart = new Map();
  for (const p of differs.keys()) apart.set(a[p] * n + b[p], p);
  const members = []; // per kept row, its members so far
  for (let r = 0; r < n; r++) {
    const kept = labels[r];
    if (kept === r) continue;
    const withKept = grouping.get(Math.min(kept, r) * n + Math.max(kept, r));
    if ((members[kept] ??= []).some((x) => bridges(apart.get(x * n + r), withKept, kept))) labels[r] = r;
    else members[kept].push(r);
  }
  return { labels, grouping };
}

/** A level as the result names it: LEVELS' name for the field's kind, or 'missing'. */
const levelName = (kind, level) => (level === MISSING ? 'missing' : LEVELS[kind][level]);

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
 * sh.dedup of records: checkRecordArguments, then the pipeline above. `helper`: a search
 * another worker may run (matching.js matchRecords').
 */
export async function dedupRecords(core, items, options, helper) {
  const parsed = checkRecordArguments(items, options);
  const pacer = new Pacer({ signal: parsed.signal, onProgress: parsed.onProgress, check: () => assertUsable(core) });
  pacer.report('fields', 0, 1);
  const fields = recordFields(items, parsed.fields);
  // Identical rows (equal texts in every field) collapsed: `rows` the first of each, `of[i]` row i's among them.
  const { first: rows, of } = await collapseTexts(mapArray(items, (_, i) => fields.map((field) => field.texts[i]).join('\u0000')), pacer);
  const n = rows.length;
  await pacer.pause();
  const { candidates, levels, apart, model, weight, probability, fieldWeightOf } = await matchRecords(core, fields, rows, pacer, undefined, parsed.review, helper);
  pacer.report('groups', 0, 1);
  const identified = identifiedBy(fields, levels, model, fieldWeightOf);
  const differs = identityDifferences(fields, rows, candidates, { levels, apart }, probability, parsed.probability, fieldWeightOf, identified);
  // A kept row that lacks the e-mail or date two of its members differ in outright joins two
  // people (`Alex Taylor` without a birth date, `Alex` and `Alexandra`), unless its identifiers
  // and the member's say one row: the copies of one record, each with its own typos, differ
  // from one another but not from it.
  const keys = fieldsWhere(fields, (field) => OUTRIGHT_KEYS.has(field.kind));
  const bridges = (apart, withKept, kept) => apart !== undefined && !identified(withKept)
    && keys.some((j) => levels[apart * fields.length + j] === LEVELS[fields[j].kind].length - 1 && !fields[j].texts[rows[kept]]);
  const { labels: distinctLabels, grouping } = centralLeaders(core, n, candidates, probability, parsed.probability, differs, (r) => identityText(fields, rows[r]), bridges);
  const labels = new Uint32Array(items.length);
  for (let i = 0; i < items.length; i++) labels[i] = rows[distinctLabels[of[i]]];
  const result = await dedupResult(items, flatGroups(labels), pacer);
  // Why each member joined its kept row: their pair's probability and each field's level (a
  // row identical to the kept one: exact wherever it has a value). A member that is no copy
  // joined through a pair at the threshold (centralLeaders' `grouping`).
  const merged = result.groups.map((group) => group.slice(1).map((i) => {
    const [x, y] = [of[group[0]], of[i]];
    if (x === y) return { probability: 1, levels: fields.map(({ texts }) => (texts[i] === '' ? 'missing' : 'exact')) };
    const p = grouping.get(Math.min(x, y) * n + Math.max(x, y));
    return { probability: probability[p], levels: fields.map(({ kind }, j) => levelName(kind, levels[p * fields.length + j])) };
  }));
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
  return { ...result, merged, ...describeMatching(fields, model, review, order, candidates) };
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
      return { name, a: texts[rows[candidates.a[p]]], b: texts[rows[candidates.b[p]]], level: levelName(kind, level), weight: bits(fieldWeightOf(p, j)) };
    }),
  });
}

/**
 * sh.link of two lists of records (README "Records"): the rows of `left` and `right` matched
 * as dedup matches a list's, the model learned from both; each row linked to the row of the
 * other list that is its most probable match when it is that row's too (one-to-one: each
 * list holds an entity once), at `probability` or above and their identities not differing.
 * A wrong link loses no row, so links start at a lower probability than dedup's groups.
 * Review: the other pairs across at `review` or above, most probable first. `helper`: as dedupRecords'.
 */
export async function linkRecords(core, left, right, options, helper) {
  const { items, parsed } = checkLinkArguments(left, right, options);
  const pacer = new Pacer({ signal: parsed.signal, onProgress: parsed.onProgress, check: () => assertUsable(core) });
  pacer.report('fields', 0, 1);
  const fields = recordFields(items, parsed.fields, rowNamer(left.length));
  const n = left.length;
  // Rows equal in every field within one list collapsed, as dedup collapses them (one list's
  // copies would teach the model that equal fields match less often); the copies stay unlinked.
  const { first: rows } = await collapseTexts(mapArray(items, (_, i) => (i < n) + fields.map((field) => field.texts[i]).join('\u0000')), pacer);
  const { candidates, levels, apart, model, weight, probability, fieldWeightOf } = await matchRecords(core, fields, rows, pacer, LINK_CANDIDATE_SIMILARITY, parsed.review, helper);
  pacer.report('groups', 0, 1);
  const differs = identityDifferences(fields, rows, candidates, { levels, apart }, probability, parsed.probability, fieldWeightOf, identifiedBy(fields, levels, model, fieldWeightOf));
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
