// dedup on the calling thread. Identical texts are collapsed first (a copy joins what its
// first occurrence joins, under either grouping), so the cost follows the distinct texts.
// Then, a slice at a time with progress, cancellation and yields (pacing.js):
//   - by similarity (the default): fingerprints; the texts' shingle sets; candidates from
//     MinHash banding of the sets (similar-groups.js) where thresholds.js usesBanding, else
//     (or with maxDistance) the pairs of fingerprints within the radius that
//     thresholds.js calibrates, each verified exactly in the core as it is found; groups
//     of the verified pairs;
//   - by fingerprints only (maxDistance without similarity): fingerprints; the leader
//     search (no pairs listed) or the pairs within maxDistance for components.
import { checkInteger, checkKnownKeys, typeName } from '../core/checks.js';
import { fingerprintAll, fingerprintEncodedAsync } from '../bindings/fingerprints.js';
import { idfHandle } from '../bindings/idf.js';
import { GROUPINGS, centralLeaderLabels, componentsOfPairs, dedupResult, flatGroups } from './grouping.js';
import { checkMaxDistance, checkOptions, textOptions } from '../bindings/options.js';
import { Pacer, checkOnProgress, checkSignal } from '../core/pacing.js';
import { searchLeaders, searchPairs } from '../bindings/pairs.js';
import {
  DEFAULT_REVIEW_LIMIT, DEFAULT_SIMILARITY_OF, MAX_REVIEW_LIMIT, candidateRadius, checkMeasure, checkReview, checkSimilarity, isRecordList, measureFor,
  usesBanding,
} from '../core/thresholds.js';
import { reviewResult, searchAllPairs } from '../bindings/review-pairs.js';
import { searchSimilarGroups } from '../bindings/similar-groups.js';
import { buildShingleSets, setSimilarities, withShingleSets, withSimilarity } from '../bindings/shingle-sets.js';
import { alikeItems, differenceOf, splitLookAlikes, textsByIndex } from './look-alikes.js';
import { listDifference } from '../core/look-alikes.js';
import { apartReview, reviewPairs } from './review.js';
import { encodeTextsPaced, preparedInJs } from '../core/text.js';
import { checkWeights, learnWeights, lendWeights } from '../bindings/word-weights.js';
import { assertUsable } from '../core/traps.js';
import { recordFields } from '../core/thresholds.js';
import { dateKey } from '../core/dates.js';

/**
 * Texts fingerprinted between progress reports, cancellation checks and yields, and at
 * most so many bytes of them when encoded already (about 10 ms of work in WASM).
 */
const DEDUP_SLICE = 4096;
const FINGERPRINT_SLICE_BYTES = 1 << 20;
const DEDUP_OPTIONS = ['key', 'similarity', 'maxDistance', 'measure', 'weights', 'review', 'reviewLimit', 'options', 'grouping',
  'onProgress', 'signal'];

/**
 * Checks dedup's arguments (the same for the pool's dedup) and returns them parsed. What
 * depends on the measure, which 'auto' takes from the distinct texts, searchFor settles:
 * here `similarity` is 0 in the fingerprint-only mode, else the given threshold or
 * undefined; `review` the given review threshold or 0 when none is asked for.
 */
export function checkDedupArguments(items, options) {
  if (!Array.isArray(items)) throw new TypeError(`items must be an array, got ${typeName(items)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
  checkKnownKeys(options, 'options', DEDUP_OPTIONS);
  const { key, maxDistance, options: fingerprintOptions, grouping = 'leader', onProgress, signal } = options;
  if (key !== undefined && typeof key !== 'function') throw new TypeError(`options.key must be a function, got ${typeName(key)}`);
  if (!GROUPINGS.includes(grouping)) throw new RangeError(`options.grouping must be 'leader' or 'components', got ${String(grouping)}`);
  checkOnProgress(onProgress, 'options.onProgress');
  checkSignal(signal, 'options.signal');
  checkOptions(fingerprintOptions);
  const fingerprintsOnly = options.similarity === undefined && maxDistance !== undefined;
  const similarity = fingerprintsOnly ? 0 : options.similarity === undefined ? undefined : checkSimilarity(options.similarity, 'options.similarity');
  const k = maxDistance === undefined ? undefined : checkMaxDistance(maxDistance, 'options.maxDistance');
  const bySimilarity = (name) => {
    if (fingerprintsOnly) throw new TypeError(`options.${name} needs dedup by similarity: give options.similarity with options.maxDistance, or neither`);
  };
  if (options.measure !== undefined) bySimilarity('measure');
  const measure = checkMeasure(options.measure ?? 'auto', 'options.measure', true);
  // undefined: learned from the distinct texts (the short measure's default).
  if (options.weights !== undefined) bySimilarity('weights');
  const weights = options.weights === undefined ? undefined : checkWeights(options.weights, 'options.weights', measure);
  let review = 0;
  if (options.review !== undefined) {
    bySimilarity('review');
    // With 'auto', what holds for either measure; searchFor checks the rest once it has chosen.
    review = measure === 'auto'
      ? checkReview(options.review, similarity ?? 1, 'options.review', 'short')
      : checkReview(options.review, similarity ?? DEFAULT_SIMILARITY_OF[measure], 'options.review', measure);
  }
  let reviewLimit = DEFAULT_REVIEW_LIMIT;
  if (options.reviewLimit !== undefined) {
    if (!review) throw new TypeError('options.reviewLimit needs options.review');
    reviewLimit = checkInteger(options.reviewLimit, 'options.reviewLimit', 1, MAX_REVIEW_LIMIT);
  }
  return { key, k, similarity, measure, weights, review, reviewLimit, fingerprintOptions, grouping, onProgress, signal };
}

/**
 * The search of checkDedupArguments' answer for these distinct texts: by similarity, the
 * `measure` ('auto' takes thresholds.js measureFor), whether the texts are one-line records
 * (`records`: by the short measure with leader grouping, thresholds.js isRecordList), the
 * `similarity` (the measure's default unless given), the review threshold
 * checked against it, the candidate radius `k` (maxDistance, else the similarity's) and
 * `banding` where thresholds.js usesBanding and no maxDistance is given. Throws as
 * checkDedupArguments does.
 */
export function searchFor(parsed, distinct) {
  if (parsed.similarity === 0) return { ...parsed, banding: false, records: false };
  const measure = parsed.measure === 'auto' ? measureFor(distinct) : parsed.measure;
  if (parsed.weights !== undefined) checkWeights(parsed.weights, 'options.weights', measure);
  const records = measure === 'short' && parsed.grouping === 'leader' && isRecordList(distinct);
  const similarity = parsed.similarity ?? DEFAULT_SIMILARITY_OF[measure];
  const review = parsed.review && checkReview(parsed.review, similarity, 'options.review', measure);
  const k = parsed.k ?? candidateRadius(similarity);
  return { ...parsed, measure, similarity, review, k, records, banding: parsed.k === undefined && usesBanding(similarity, distinct, measure) };
}

/** The text of item i: the item itself, or what `key` makes of it. */
export function itemText(items, key, i) {
  if (key) {
    const text = key(items[i], i);
    if (typeof text !== 'string') throw new TypeError(`options.key must return a string, got ${typeName(text)} for items[${i}]`);
    return text;
  }
  const text = items[i];
  if (typeof text !== 'string') throw new TypeError(`items[${i}] must be a string (or pass options.key), got ${typeName(text)}`);
  return text;
}

/**
 * Identical texts collapsed, with pacer.pause() every 1024 texts: `distinct` the texts in
 * order of first occurrence, `of[i]` item i's index among them, `first[d]` the first item
 * of distinct text d.
 */
export async function collapseTexts(texts, pacer) {
  const index = new Map();
  const distinct = [];
  const first = [];
  const of = new Uint32Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    let d = index.get(texts[i]);
    if (d === undefined) {
      d = distinct.length;
      index.set(texts[i], d);
      distinct.push(texts[i]);
      first.push(i);
    }
    of[i] = d;
    if ((i & 1023) === 1023) await pacer.pause();
  }
  return { distinct, of, first: Uint32Array.from(first) };
}

/** The fingerprints of the items from those of their distinct texts. */
function expandFingerprints({ of }, fingerprints) {
  const all = new BigUint64Array(of.length);
  for (let i = 0; i < of.length; i++) all[i] = fingerprints[of[i]];
  return all;
}

/**
 * The grouping of distinct texts, in slices with pacer.step between them: the search
 * every entry runs, on the calling thread or in a pool's worker. `labels` (leader or
 * components, by similarity or fingerprints only; phase 'pairs'), `review`, when asked
 * for, the review pairs of those groups (review-pairs.js searchReview; phase 'review'),
 * else null, and by the short measure the `weights` it weighed by (learned from `texts`
 * unless search.weights gives them). `texts` as shingle-sets.js buildShingleSets takes them.
 * One-line records (`search.records`, searchFor) and lists with many rows per entity (the
 * first grouping's groups averaging MANY_ROWS distinct texts) are grouped around the texts
 * most others match (grouping.js centralLeaderLabels); a record's members are asked of
 * look-alikes against each part's first entry only (look-alikes.js splitLookAlikes).
 */
export async function searchLabels(core, texts, fingerprints, search, pacer) {
  const between = () => pacer.step('pairs', 0, 1000);
  if (search.measure !== 'short') return searchLabelsWeighing(core, texts, fingerprints, search, pacer, 0);
  const weighing = (weights, how = search) => lendWeights(core, weights, (handle) => searchLabelsWeighing(core, texts, fingerprints, how, pacer, handle));
  // Many rows per entity: a leader grouping is made again around the rows most others match
  // (an entity's commonest form leads its variants, as a record leads its copies).
  const manyRows = ({ labels }) => new Set(labels).size * MANY_ROWS <= labels.length;
  const central = search.grouping === 'leader' && !search.records && { ...search, central: true };
  if (search.weights !== undefined) {
    const found = await weighing(search.weights);
    return { ...(central && manyRows(found) ? await weighing(search.weights, central) : found), weights: search.weights };
  }
  const weights = await learnWeights(core, texts, between);
  const found = await weighing(weights);
  if (!manyRows(found)) return { ...found, weights };
  // Weights learned per row call such an entity's own name common: the list's words are
  // counted again once per group of an unweighted grouping (a provisional entity), and the
  // list grouped by those weights.
  const provisional = await searchLabelsWeighing(core, texts, fingerprints, { ...search, review: 0 }, pacer, 0);
  const perEntity = await learnWeights(core, groupTexts(texts, provisional.labels), between);
  return { ...await weighing(perEntity, central || search), weights: perEntity };
}

/**
 * Distinct texts a group of the first grouping holds on average, from which a list is taken to
 * have many rows per entity (README "Similarity of short strings"): 4.1 on the Dutch patent
 * applicants (2,379 rows of 102 organisations), 1.3-2.0 on the other lists of tests/bench/lists.js.
 */
const MANY_ROWS = 2.5;

/**
 * The bounds of grouping around central texts, for `count` distinct texts (searchAllPairs'):
 * past them the leader rule groups in the texts' order. Pairs at the threshold: a few dozen
 * a text where an entity has many rows (the patent applicants: 26), while in a list whose
 * texts are nearly all alike they grow with the square of the texts (3,000 near-identical
 * one-line records: 810 MiB of WASM memory and 13 s without a bound). Candidates proposed:
 * 716 a text on the patent applicants, 173 on 50,000 one-line contacts, while on short texts
 * of a small vocabulary they grow with the square of the texts, most of them decided only to
 * fail (50,000 texts of 33 words: 3,567 a text, 160M in 39 s, for 1.65M pairs).
 */
const allPairsBounds = (count) => ({ mostPairs: 2 ** 18 + 32 * count, mostProposals: 2 ** 22 + 1024 * count });

/**
 * One text per group of `labels`, its texts joined by spaces, so that word counting counts
 * each word once per group (strings, whether `texts` are strings or UTF-8 with bounds).
 */
function groupTexts(texts, labels) {
  const textOf = textsByIndex(texts);
  const members = new Map();
  for (let i = 0; i < labels.length; i++) (members.get(labels[i]) ?? members.set(labels[i], []).get(labels[i])).push(i);
  return Array.from(members.values(), (group) => group.map(textOf).join(' '));
}

/**
 * `found`'s pairs of one-line records, and the records sharing a date (of birth: a field
 * dates.js reads, held by at most 10 records) at 0.3 or more, or a date two of whose
 * adjacent digits are swapped (`19180701` / `19810701`; on one side also eight digits that
 * are no date: `19790821` / `19790281`) at SWAPPED_DATE_SIMILARITY or more: a date
 * identifies a person where the rest of a record carries typos and changed fields; a phone
 * does not, a household shares it (docs/lists.md#one-line-records).
 */
function withDatePairs(core, sets, textOf, count, found, similarity) {
  const holders = new Map();
  const dates = []; // record, its date or eight digits, ...
  for (let i = 0; i < count; i++) {
    for (const field of new Set(recordFields(textOf(i)).map((text) => text.trim()))) {
      const date = dateKey(field);
      if (date) (holders.get(date) ?? holders.set(date, []).get(date)).push(i);
      if (date || /^\d{8}$/.test(field)) dates.push(i, date || field);
    }
  }
  const [a, b, least] = [[], [], []];
  for (let d = 0; d < dates.length; d += 2) {
    const [x, date] = [dates[d], dates[d + 1]];
    // k = 0: the date itself, each pair once; k > 0: its digits k - 1 and k swapped, where
    // they differ (a pair may then come twice, two dates each a swap of the other: it joins
    // as once).
    for (let k = 0; k < date.length; k++) {
      if (k && date[k] === date[k - 1]) continue; // the date itself again
      const held = holders.get(k ? date.slice(0, k - 1) + date[k] + date[k - 1] + date.slice(k + 1) : date);
      if (held?.length <= 10) for (const y of held) if (k ? y !== x : y > x) a.push(x) && b.push(y) && least.push(k ? SWAPPED_DATE_SIMILARITY : 0.3);
    }
  }
  // Pairs at `similarity` are found's already.
  const similar = setSimilarities(core, sets, Uint32Array.from(a), Uint32Array.from(b));
  const keep = (array, extra) => Uint32Array.from([...array, ...extra.filter((_, p) => similar[p] >= least[p] && similar[p] < similarity)]);
  return { a: keep(found.a, a), b: keep(found.b, b) };
}

/**
 * From which records whose dates differ by two swapped digits are paired: on febrl-records
 * every such pair from 0.3 is one person, but on one-line contacts from 0.3 fewer copies
 * stay with their original than from 0.45 (docs/lists.md#one-line-records).
 */
const SWAPPED_DATE_SIMILARITY = 0.45;

/** searchLabels with the weights lent to the core (`weights`: a lendWeights handle, or 0). */
async function searchLabelsWeighing(core, texts, fingerprints, search, pacer, weights) {
  const { k, similarity, banding = false, grouping, review = 0, measure } = search;
  const between = () => pacer.step('pairs', 0, 1000);
  const withReview = async (sets, grouped) => {
    // Components chain near-duplicates by design (A~B~C with A far from C): only leader groups are split.
    if (measure !== 'short' || grouping !== 'leader') {
      return { labels: grouped, review: review > 0 ? await reviewPairs(core, sets, texts, grouped, search, pacer) : null };
    }
    // One crossing per member that left its kept item's part.
    const reaches = (firsts, member) => Array.from(setSimilarities(core, sets, Uint32Array.from(firsts), new Uint32Array(firsts.length).fill(member)),
      (s) => s >= similarity);
    const { labels, apart } = splitLookAlikes(grouped, textsByIndex(texts), reaches, { firstOnly: search.records });
    return {
      labels,
      review: review > 0 ? await reviewPairs(core, sets, texts, labels, search, pacer) : apartReview(core, sets, labels, apart, search),
    };
  };
  if (banding) { // no fingerprints needed (a pool's worker gets none)
    const count = Array.isArray(texts) ? texts.length : texts.bounds.length - 1;
    if (search.records || search.central) {
      // Every pair at the threshold, grouped around the texts most match; past allPairsBounds,
      // by the leader rule in the texts' order.
      return withShingleSets(core, async (sets) => {
        await buildShingleSets(core, sets, texts, between, 0, measure, weights);
        const bounds = allPairsBounds(count);
        const found = await searchAllPairs(core, sets, count, similarity, pacer, 'pairs', bounds);
        if (found.total > bounds.mostPairs) return withReview(sets, await searchSimilarGroups(core, sets, count, similarity, grouping, async () => {}, pacer, 'pairs'));
        if (!search.records) return withReview(sets, centralLeaderLabels(core, count, found));
        // A record leads by the records it may keep at the threshold: those whose identifying
        // parts it does not differ from; the pairs by dates may join, not lead. (Asked of
        // every pair, the patent applicants' list took twice as long for 0.001 of recall.)
        const textOf = textsByIndex(texts);
        const alike = alikeItems(textOf);
        return withReview(sets, centralLeaderLabels(core, count, withDatePairs(core, sets, textOf, count, found, similarity),
          (p) => p < found.a.length && alike(found.a[p], found.b[p])));
      });
    }
    return withShingleSets(core, async (sets) => withReview(sets, await searchSimilarGroups(core, sets, count, similarity, grouping,
      (groups) => buildShingleSets(core, sets, texts, between, groups, measure, weights), pacer, 'pairs')));
  }
  if (similarity === 0) {
    const labels = grouping === 'leader'
      ? await searchLeaders(core, fingerprints, k, pacer, 'pairs')
      : componentsOfPairs(fingerprints.length, await searchPairs(core, fingerprints, k, pacer, 'pairs'));
    return { labels, review: null };
  }
  // Progress of the 'pairs' phase stays at 0 while the sets are built: the search reports from there.
  return withSimilarity(core, texts, async (sets) => withReview(sets, grouping === 'leader'
    ? await searchLeaders(core, fingerprints, k, pacer, 'pairs', { sets, similarity })
    : componentsOfPairs(fingerprints.length, await searchPairs(core, fingerprints, k, pacer, 'pairs', { sets, similarity }))),
  between, measure, weights);
}

/**
 * The fingerprints of the distinct texts, a slice at a time, awaiting between(end) after
 * each: from `encoded` (encodeTextsPaced's), if given and the options leave the texts as
 * they are, else from the strings.
 */
async function fingerprintDistinct(core, distinct, encoded, options, between) {
  if (encoded && !preparedInJs(textOptions(options))) {
    // The weights' handle is looked up for each slice: the caller may dispose of them between slices, which then throws.
    const idf = () => (options?.idf ? idfHandle(options.idf, core, 'options.idf') : 0);
    return fingerprintEncodedAsync(core, encoded, checkOptions(options), idf, between, FINGERPRINT_SLICE_BYTES, DEDUP_SLICE);
  }
  const fingerprints = new BigUint64Array(distinct.length);
  for (let start = 0; start < distinct.length; start += DEDUP_SLICE) {
    const end = Math.min(distinct.length, start + DEDUP_SLICE);
    fingerprints.set(fingerprintAll(core, distinct.slice(start, end), options), start);
    await between(end);
  }
  return fingerprints;
}

/** Item labels from the labels of the distinct texts: a copy joins what its first occurrence joins. */
function expandLabels({ of, first }, distinctLabels) {
  const labels = new Uint32Array(of.length);
  for (let i = 0; i < of.length; i++) labels[i] = first[distinctLabels[of[i]]];
  return labels;
}


/**
 * dedup's pipeline, the one every entry runs (SimHash#dedup here, the pool's dedup with its
 * own `entry`): the items' texts, identical texts collapsed, the search chosen for the
 * distinct texts, their fingerprints and grouping, the groups of the items.
 * - `entry.texts(items, key)` resolves to the items' texts, each checked (itemText);
 * - `entry.group(distinct, search)` resolves to the distinct texts' { fingerprints, labels,
 *   review, weights } (searchLabels' answer), reporting the phases 'fingerprint', 'pairs' and
 *   'review' as it goes;
 * - `report(phase, done, total)` reports progress.
 */
export async function runDedup(items, parsed, pacer, report, entry) {
  report('fingerprint', 0, items.length);
  await pacer.pause();
  const collapsed = await collapseTexts(await entry.texts(items, parsed.key), pacer);
  const search = searchFor(parsed, collapsed.distinct);
  const { fingerprints, labels, review, weights } = await entry.group(collapsed.distinct, search);
  const result = await dedupResult(items, flatGroups(expandLabels(collapsed, labels)), pacer);
  report('groups', 1, 1);
  return {
    ...result,
    fingerprints: expandFingerprints(collapsed, fingerprints),
    ...(search.similarity > 0 && { measure: search.measure, similarity: search.similarity }),
    ...(search.measure === 'short' && { weights }),
    ...(review && reviewResult(collapsed.first, review,
      search.measure === 'short' ? (a, b) => differenceOf(collapsed.distinct[a], collapsed.distinct[b], listDifference) : undefined)),
  };
}


/** sh.dedup over the core: runDedup with the fingerprints and the search on this thread. */
export async function dedup(core, items, options) {
  const parsed = checkDedupArguments(items, options);
  const { fingerprintOptions, onProgress, signal } = parsed;
  // Between slices other calls may run on this instance (README "Errors and memory"): one that trapped ends this one.
  const pacer = new Pacer({ signal, onProgress, check: () => assertUsable(core) });
  return runDedup(items, parsed, pacer, (phase, done, total) => pacer.report(phase, done, total), {
    async texts(items, key) {
      const texts = new Array(items.length);
      for (let i = 0; i < items.length; i++) texts[i] = itemText(items, key, i);
      return texts;
    },
    async group(distinct, search) {
      // By similarity the distinct texts' UTF-8 serves twice, so it is encoded once: for the
      // shingle sets, and for the fingerprints unless their options change the texts in JS.
      const encoded = search.similarity > 0 ? await encodeTextsPaced(distinct, pacer) : undefined;
      const fingerprints = await fingerprintDistinct(core, distinct, encoded, fingerprintOptions,
        (end) => pacer.step('fingerprint', Math.round((end / distinct.length) * items.length), items.length));
      return { fingerprints, ...await searchLabels(core, encoded ?? distinct, fingerprints, search, pacer) };
    },
  });
}
