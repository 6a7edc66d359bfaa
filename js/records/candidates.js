// The pairs of records dedup compares (README "Records", docs/records.md#candidates), without
// blocking rules written by hand: rows sharing a selective key (of a name field beside the
// identity, its first word, where the names are not searched joined), or one a character
// apart; rows whose identity fields joined, and (where the other name fields add little to
// them) all name fields joined, reach CANDIDATE_SIMILARITY by the short measure (0.7 where an
// e-mail, a phone or a date proposes pairs too; MinHash bands and exact verification in the
// core, as dedup's review search), or, without names, whose text fields joined reach 0.5 by
// the text measure; and random pairs, for the model's u.
import { mapArray } from '../core/arrays.js';
import { searchAllPairs } from '../bindings/review-pairs.js';
import { collapseTexts } from '../dedup/dedup.js';
import { withSimilarity } from '../bindings/shingle-sets.js';
import { learnWeights, lendWeights } from '../bindings/word-weights.js';
import { LEVELS, PHONE_SUFFIX, keyLevel, phoneNeighbourhood } from './levels.js';

/**
 * Similarity of the joined identity (or name) fields from which two rows are candidates (the
 * short measure's least review); `link` asks for 0.5, as a row's most probable match across
 * two lists may be a title worded apart (Amazon-Google's pair F1 across them 0.485 → 0.511).
 */
const CANDIDATE_SIMILARITY = 0.6;
/**
 * The same where an e-mail, a phone or a date proposes the rows' pairs by its keys: a pair of
 * one person whose names are further apart is found through those, and two people's names
 * at 0.6-0.7 (a shared given name or surname) are mostly two people. 100,000 contacts: 0.66x
 * the time and 98,569 pairs compared instead of 224,716, the same groups (docs/records.md).
 */
const KEYED_CANDIDATE_SIMILARITY = 0.7;
const ROW_KEYS = new Set(['email', 'phone', 'date']);
/**
 * How much longer than the identity fields' texts all name fields' may be for their joined
 * search to run beside the identity's: it costs about as much as its texts. A manufacturer
 * beside a title (Amazon-Google: 1.10×) costs little and finds pairs the title alone misses;
 * addresses, companies or authors (2.3-4.3× on the benchmark's lists) cost a third of
 * 100,000 contacts' time, and their first words stand in for them (keyCandidates).
 */
const JOINED_MOST_LENGTH = 1.5;
/**
 * Rows sharing a key: the key proposes them only when at most so many share it (a field's
 * key, or a band key of the searches: more is a part many share, a city or a given name),
 * and the field when its keys average at most KEY_SELECTIVE rows.
 */
const MAX_BLOCK = 50;
const KEY_SELECTIVE = 4;
/** Lengths of the keys whose one-character deletions propose rows too. */
const MIN_DELETION_KEY = 5;
const MAX_DELETION_KEY = 16;

/** Kinds compared by their keys (fields.js), which may propose candidates. */
export const KEYED = new Set(['email', 'phone', 'date', 'exact', 'code']);

/** keyLevel's level of two keys one edit apart, the same in every kind a deletion proposes. */
const CLOSE = LEVELS.exact.indexOf('close');

/**
 * Candidate pairs (a < b) and what proposed each: a field's key (source j for field j), the
 * joined name (or text) fields (SOURCE_JOINED) or identity fields (SOURCE_IDENTITY), so that
 * the model does not learn from a field on the pairs it selected (model.js).
 */
class PairSet {
  constructor(n) {
    this.n = n;
    this.keys = new Float64Array(1024);
    this.size = 0;
  }

  /** Proposes (a, b) by the fields of `source` (an index below 32: one field's bit, or SOURCES_JOINED). */
  add(a, b, source) {
    if (a === b) return;
    if (this.size === this.keys.length) {
      const keys = new Float64Array(Math.max(1024, 2 * this.size));
      keys.set(this.keys);
      this.keys = keys;
    }
    this.keys[this.size++] = (a < b ? a * this.n + b : b * this.n + a) * 64 + source;
  }

  /** { a, b, sources } sorted by (a, b), without repeats: `sources` the bitmask of the sources that proposed each. */
  take() {
    const keys = this.keys.subarray(0, this.size).sort();
    const a = new Uint32Array(this.size);
    const b = new Uint32Array(this.size);
    const sources = new Uint32Array(this.size);
    let m = -1;
    let last = -1;
    for (let i = 0; i < this.size; i++) {
      const key = keys[i];
      const pair = Math.floor(key / 64);
      if (pair !== last) {
        m++;
        a[m] = Math.floor(pair / this.n);
        b[m] = pair % this.n;
        last = pair;
      }
      sources[m] |= 1 << (key - pair * 64);
    }
    this.keys = new Float64Array(0);
    this.size = 0;
    return { a: a.slice(0, m + 1), b: b.slice(0, m + 1), sources: sources.slice(0, m + 1) };
  }
}

/**
 * PairSet's sources of pairs proposed by the joined name (or text) fields and by the joined
 * identity fields; fields above 29 propose none.
 */
const SOURCE_JOINED = 31;
const SOURCE_IDENTITY = 30;
const MAX_SOURCE_FIELD = 29;

/**
 * Candidates from the selective keys: rows of one key, when at most MAX_BLOCK share it; for
 * phones and identifiers, also rows one digit or character apart (a key with one character
 * deleted, shared: `…6543` / `…6544`; phoneNeighbours) whose keys are 'close' (levels.js
 * keyLevel). The name fields `byFirstWord` are keyed by their first words: `Brightline` /
 * `Brightline Consulting`. Returns the kinds of the fields that proposed.
 */
function keyCandidates(fields, rows, byFirstWord, pairs) {
  const proposing = [];
  for (let j = 0; j < Math.min(fields.length, MAX_SOURCE_FIELD + 1); j++) {
    const field = fields[j];
    const firstWord = byFirstWord.includes(j);
    if (!KEYED.has(field.kind) && !firstWord) continue;
    const blocks = new Map();
    const deletions = new Map();
    // A key's row, or its rows once a second shares it: most keys (deletions above all) have one.
    const add = (map, key, r) => {
      const block = map.get(key);
      if (block === undefined) map.set(key, r);
      else if (typeof block === 'number') map.set(key, [block, r]);
      else block.push(r);
    };
    // One pass: each key, and for identifiers its one-character deletions; the field proposes
    // nothing unless its keys are selective.
    const deletable = field.kind === 'exact';
    let present = 0;
    for (let r = 0; r < rows.length; r++) {
      let key = field.keys[rows[r]];
      if (key === '') continue;
      if (field.kind === 'phone') key = key.slice(-PHONE_SUFFIX);
      else if (firstWord) key = key.split(' ', 1)[0];
      present++;
      for (const part of field.kind === 'code' ? key.split(' ') : [key]) add(blocks, part, r);
      if (deletable && key.length >= MIN_DELETION_KEY && key.length <= MAX_DELETION_KEY) {
        for (let i = 0; i < key.length; i++) add(deletions, `${key.slice(0, i)}${key.slice(i + 1)}`, r);
      }
    }
    if (present > KEY_SELECTIVE * blocks.size) continue;
    proposing.push(field.kind);
    const keyOf = (r) => field.keys[rows[r]];
    const addClose = (r, s) => {
      const [x, y] = [keyOf(r), keyOf(s)];
      if (x !== y && keyLevel(field.kind, x, y) <= CLOSE) pairs.add(r, s, j);
    };
    for (const block of blocks.values()) {
      if (!(block.length <= MAX_BLOCK)) continue; // one row (a number), or too many
      for (let i = 0; i < block.length; i++) for (let k = i + 1; k < block.length; k++) pairs.add(block[i], block[k], j);
    }
    for (const block of deletions.values()) {
      if (!(block.length <= MAX_BLOCK)) continue;
      for (let i = 0; i < block.length; i++) for (let k = i + 1; k < block.length; k++) addClose(block[i], block[k]);
    }
    if (field.kind === 'phone') phoneNeighbours(mapArray(rows, (r) => field.keys[r]), addClose);
  }
  return proposing;
}

/**
 * Calls close(r, s) for the phones (`phones[r]`, digits) whose last PHONE_SUFFIX
 * share a one-digit deletion, held by at most MAX_BLOCK, at positions at most one apart:
 * one digit replaced is deleted at one position of both, two adjacent swapped at neighbouring
 * ones (phones sharing a deletion only further apart, most of those that share one by
 * chance, are two edits apart), and only in one neighbourhood (levels.js phoneNeighbourhood:
 * most phones sharing a deletion by chance differ before it; phones of one suffix are its
 * block's pairs). Each deletion is a number below 2^21 (the digits after a leading 1, so
 * that zeros count), held with its row and position in one sorted array: no map, no strings.
 */
function phoneNeighbours(phones, close) {
  const above = 2 ** 32; // a deletion's place above its row and position (r * 8 + i)
  const entries = new Float64Array(phones.length * PHONE_SUFFIX);
  const neighbourhood = mapArray(phones, phoneNeighbourhood, Uint32Array);
  let m = 0;
  for (let r = 0; r < phones.length; r++) {
    const key = phones[r].slice(-PHONE_SUFFIX);
    if (key.length < MIN_DELETION_KEY) continue;
    const digits = +`1${key}`;
    for (let i = 0, p = 1; i < key.length; i++, p *= 10) entries[m++] = (Math.floor(digits / (10 * p)) * p + (digits % p)) * above + r * 8 + i;
  }
  const sorted = entries.subarray(0, m).sort();
  for (let x = 0, end; x < m; x = end) {
    const deletion = Math.floor(sorted[x] / above);
    for (end = x + 1; end < m && Math.floor(sorted[end] / above) === deletion;) end++;
    if (end - x > MAX_BLOCK) continue;
    for (let a = x; a < end; a++) {
      for (let b = a + 1; b < end; b++) {
        const ea = sorted[a] % above;
        const eb = sorted[b] % above;
        if (Math.abs((ea & 7) - (eb & 7)) <= 1 && neighbourhood[ea >>> 3] === neighbourhood[eb >>> 3]) close(ea >>> 3, eb >>> 3);
      }
    }
  }
}

/** The keys of the fields `on` of each distinct row, joined by spaces. */
const joinedTexts = (fields, rows, on) => mapArray(rows, (r) => on.map((j) => fields[j].keys[r]).filter(Boolean).join(' '));

/** The length of the keys of the fields `on`, over all rows. */
const keysLength = (fields, rows, on) => on.reduce((sum, j) => rows.reduce((s, r) => s + fields[j].keys[r].length, sum), 0);

/**
 * Candidates from the fields `on` joined (all 'name' fields, or 'text' ones; or the identity
 * fields): pairs reaching a similarity (the short measure; the text one at 0.5), proposed as
 * `source`. The search runs over the distinct joined texts (the words weighed by their rows),
 * started here in `helper` (proposeCandidates') at the similarity `likely`; returns async
 * (pairs, similarity) => the pairs at `similarity` added to `pairs`, the helper's answer
 * where it gave one at that similarity, else searched here. A pair of texts proposes every
 * pair of their rows unless each is held by over MAX_BLOCK rows.
 */
async function similarCandidates(core, fields, rows, on, source, likely, pacer, helper) {
  const texts = joinedTexts(fields, rows, on);
  const { distinct, of } = await collapseTexts(texts, pacer);
  const measure = fields[on[0]].kind === 'text' ? 'text' : 'short';
  const weights = measure === 'short' ? await learnWeights(core, texts, () => pacer.pause()) : null;
  const helped = helper?.(distinct, measure, likely, weights);
  return async (pairs, similarity) => {
    const answer = await helped;
    const found = (similarity === likely && answer) || await searchSimilarPairs(core, distinct, distinct.length, measure, similarity, weights, pacer);
    const rowsOf = distinct.map(() => []);
    for (let r = 0; r < of.length; r++) if (distinct[of[r]]) rowsOf[of[r]].push(r);
    // Texts that over MAX_BLOCK rows hold each (a common name) propose no pairs of their rows
    // between them, as a key's block: those rows are found through their other keys. A text of
    // fewer rows (a typo) proposes its rows with each of the other's.
    const addRows = (x, y) => {
      if (rowsOf[x].length > MAX_BLOCK && rowsOf[y].length > MAX_BLOCK) return;
      for (const r of rowsOf[x]) for (const s of rowsOf[y]) pairs.add(r, s, source);
    };
    for (let p = 0; p < found.a.length; p++) addRows(found.a[p], found.b[p]);
    for (let x = 0; x < distinct.length; x++) addRows(x, x); // the pairs of a text's rows
  };
}

/**
 * The pairs { a, b } (and searchAllPairs' rest) of the `count` texts (strings, or text.js
 * encodeTexts' bytes) whose similarity by `measure` reaches `similarity` (by the short
 * measure; 0.5 by the text one), with `weights` (WordWeights, or null), a band key held by
 * over MAX_BLOCK texts proposing none: similarCandidates' search, here or in a helper
 * (pool-worker.js similarPairs).
 */
export function searchSimilarPairs(core, texts, count, measure, similarity, weights, pacer) {
  return lendWeights(core, weights, (handle) => withSimilarity(core, texts,
    (sets) => searchAllPairs(core, sets, count, measure === 'text' ? 0.5 : similarity, pacer, 'candidates', { maxBucket: MAX_BLOCK }), () => pacer.pause(), measure, handle));
}

/**
 * The candidate pairs of the distinct `rows`: { candidates: { a, b, sources }, selects },
 * `selects[s]` the fields source s selects on (a key's field, the joined fields, the
 * identity fields), for the model (model.js learnModel). The searches start first, in
 * `helper` ((distinct texts, measure, similarity, weights) => a promise of
 * searchSimilarPairs' answer, or of null where it runs none), at the similarity a row key
 * likely asks, while the keys propose theirs.
 */
export async function proposeCandidates(core, fields, rows, pacer, least = CANDIDATE_SIMILARITY, helper) {
  const proposed = new PairSet(rows.length);
  const indices = (test) => fieldsWhere(fields, test);
  const names = indices((field) => field.kind === 'name');
  const identity = indices((field) => field.identity); // some name fields, where there are any
  const others = names.filter((j) => !fields[j].identity);
  const joinedToo = others.length > 0 && keysLength(fields, rows, names) <= JOINED_MOST_LENGTH * keysLength(fields, rows, identity);
  const joined = names.length ? names : indices((field) => field.kind === 'text');
  const likely = fields.some((field) => ROW_KEYS.has(field.kind)) ? KEYED_CANDIDATE_SIMILARITY : least;
  const searches = [];
  if (joinedToo || !names.length) searches.push(await similarCandidates(core, fields, rows, joined, SOURCE_JOINED, likely, pacer, helper));
  if (identity.length) searches.push(await similarCandidates(core, fields, rows, identity, SOURCE_IDENTITY, likely, pacer, helper));
  const keyed = keyCandidates(fields, rows, joinedToo ? [] : others, proposed);
  const similarity = keyed.some((kind) => ROW_KEYS.has(kind)) ? KEYED_CANDIDATE_SIMILARITY : least;
  for (const addPairs of searches) await addPairs(proposed, similarity);
  const selects = Array.from({ length: SOURCE_JOINED + 1 }, (_, source) => (source === SOURCE_JOINED ? joined : source === SOURCE_IDENTITY ? identity : source < fields.length ? [source] : []));
  return { candidates: proposed.take(), selects };
}

/** The indices of the fields that pass `test`. */
export const fieldsWhere = (fields, test) => fields.flatMap((field, j) => (test(field) ? [j] : []));

/** `count` random pairs of distinct rows among n (all of them when there are fewer), deterministic. */
export function randomPairs(n, count) {
  const all = (n * (n - 1)) / 2;
  if (all <= count) {
    const a = new Uint32Array(all);
    const b = new Uint32Array(all);
    for (let x = 0, p = 0; x < n; x++) for (let y = x + 1; y < n; y++, p++) [a[p], b[p]] = [x, y];
    return { a, b };
  }
  let seed = 1;
  const next = () => Math.floor(((seed = (seed * 48271) % 0x7fffffff) / 0x7fffffff) * n); // Park-Miller, exact in doubles
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  for (let p = 0; p < count;) {
    const x = next();
    const y = next();
    if (x === y) continue;
    [a[p], b[p]] = x < y ? [x, y] : [y, x];
    p++;
  }
  return { a, b };
}
