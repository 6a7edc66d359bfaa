// dedup's `verify`: candidate pairs confirmed by the exact Jaccard similarity of their
// texts' character shingle sets.
import { checkInteger, typeName } from './checks.js';

const MAX_SHINGLE = 16;
/** Pairs verified between pauses of the calling thread. */
const VERIFY_SLICE = 4096;

export function checkVerify(verify) {
  if (verify === null || typeof verify !== 'object') throw new TypeError(`options.verify must be an object, got ${typeName(verify)}`);
  const { minJaccard, shingle = 3 } = verify;
  if (typeof minJaccard !== 'number') throw new TypeError(`options.verify.minJaccard must be a number, got ${typeName(minJaccard)}`);
  if (!(minJaccard >= 0 && minJaccard <= 1)) throw new RangeError(`options.verify.minJaccard must be from 0 to 1, got ${minJaccard}`);
  checkInteger(shingle, 'options.verify.shingle', 1, MAX_SHINGLE);
  return { minJaccard, shingle };
}

/** A text as verification sees it: lower-cased, each whitespace run one space, ends trimmed. */
export function shingleText(text) {
  return text.toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The set of character shingles that verification compares: n-grams of code points of
 * shingleText(text); a text shorter than n is one shingle.
 */
export function shingles(text, n) {
  const chars = Array.from(shingleText(text));
  const set = new Set();
  if (chars.length <= n) {
    if (chars.length > 0) set.add(chars.join(''));
    return set;
  }
  for (let i = 0; i + n <= chars.length; i++) set.add(chars.slice(i, i + n).join(''));
  return set;
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical (1). */
export function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Sets keep[p] = 1 for the pairs p in [from, to) whose texts reach minJaccard (a and b
 * index `texts`); `sets` caches each text's shingle set, built once.
 */
export function markConfirmed(texts, a, b, { minJaccard, shingle }, keep, sets, from = 0, to = a.length) {
  const setOf = (i) => (sets[i] ??= shingles(texts[i], shingle));
  for (let p = from; p < to; p++) keep[p] = jaccard(setOf(a[p]), setOf(b[p])) >= minJaccard ? 1 : 0;
}

/** The pairs p with keep[p] set, in their order. */
export function keptPairs(pairs, keep) {
  let kept = 0;
  for (let i = 0; i < keep.length; i++) kept += keep[i];
  const out = { a: new Uint32Array(kept), b: new Uint32Array(kept), distance: new Uint8Array(kept) };
  for (let i = 0, j = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    out.a[j] = pairs.a[i];
    out.b[j] = pairs.b[i];
    if (pairs.distance) out.distance[j] = pairs.distance[i];
    j++;
  }
  return out;
}

/** The pairs whose texts' shingle sets reach minJaccard (exact, not estimated), a slice at a time. */
export async function verifyPairs(pairs, texts, verifier, pacer) {
  const count = pairs.a.length;
  const keep = new Uint8Array(count);
  const sets = new Array(texts.length);
  for (let from = 0; from < count; from += VERIFY_SLICE) {
    const to = Math.min(count, from + VERIFY_SLICE);
    markConfirmed(texts, pairs.a, pairs.b, verifier, keep, sets, from, to);
    await pacer.step('verify', to, count);
  }
  if (count === 0) await pacer.step('verify', 0, 0);
  return keptPairs(pairs, keep);
}
