// dedup on the calling thread: fingerprints a slice at a time, then the pairs or the
// leader search, optional verification, and the groups, with progress, cancellation and
// yields between the slices (pacing.js).
import { checkKnownKeys, typeName } from './checks.js';
import { fingerprintAll } from './fingerprints.js';
import { GROUPINGS, dedupResult, flatGroups, labelsOfPairs } from './grouping.js';
import { checkMaxDistance, checkOptions } from './options.js';
import { Pacer, checkSignal } from './pacing.js';
import { exactGroups, expandLabels, findPairs, leaderLabels } from './pairs.js';
import { checkVerify, shingleText, verifyPairs } from './verify.js';

/** Items fingerprinted between progress reports, cancellation checks and yields. */
const DEDUP_SLICE = 4096;
const DEDUP_OPTIONS = ['key', 'maxDistance', 'options', 'grouping', 'verify', 'onProgress', 'signal'];

/** Checks dedup's arguments (the same for the pool's dedup) and returns them parsed. */
export function checkDedupArguments(items, options) {
  if (!Array.isArray(items)) throw new TypeError(`items must be an array, got ${typeName(items)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
  checkKnownKeys(options, 'options', DEDUP_OPTIONS);
  const { key, maxDistance, options: fingerprintOptions, grouping = 'leader', onProgress, signal, verify } = options;
  if (key !== undefined && typeof key !== 'function') throw new TypeError(`options.key must be a function, got ${typeName(key)}`);
  if (!GROUPINGS.includes(grouping)) throw new RangeError(`options.grouping must be 'leader' or 'components', got ${String(grouping)}`);
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`options.onProgress must be a function, got ${typeName(onProgress)}`);
  checkSignal(signal, 'options.signal');
  const verifier = verify === undefined ? undefined : checkVerify(verify);
  const k = checkMaxDistance(maxDistance, 'options.maxDistance');
  checkOptions(fingerprintOptions);
  return { key, k, fingerprintOptions, grouping, onProgress, signal, verifier };
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

/** sh.dedup over the core. */
export async function dedup(core, items, options) {
  const { key, k, fingerprintOptions, grouping, onProgress, signal, verifier } = checkDedupArguments(items, options);
  const texts = key || items.some((item) => typeof item !== 'string') ? items.map((_, i) => itemText(items, key, i)) : items;
  const pacer = new Pacer({ signal, onProgress });
  const total = texts.length;
  const fingerprints = new BigUint64Array(total);
  await pacer.step('fingerprint', 0, total);
  for (let start = 0; start < total; start += DEDUP_SLICE) {
    const end = Math.min(total, start + DEDUP_SLICE);
    fingerprints.set(fingerprintAll(core, texts.slice(start, end), fingerprintOptions), start);
    await pacer.step('fingerprint', end, total);
  }
  let labels;
  if (grouping === 'leader' && !verifier) {
    labels = leaderLabels(core, fingerprints, k); // no pairs listed
    await pacer.step('pairs', 1, 1);
  } else {
    // Items alike in everything the pairs depend on (the fingerprint; with verify, the
    // shingled text too) are grouped as one: cost and memory follow the distinct items.
    const alike = exactGroups(fingerprints, verifier ? (i) => shingleText(texts[i]) : undefined);
    let pairs = findPairs(core, BigUint64Array.from(alike.reps, (i) => fingerprints[i]), k);
    await pacer.step('pairs', 1, 1);
    if (verifier) pairs = await verifyPairs(pairs, Array.from(alike.reps, (i) => texts[i]), verifier, pacer);
    labels = expandLabels(labelsOfPairs(alike.reps.length, pairs, grouping), alike);
  }
  const result = await dedupResult(items, flatGroups(labels), pacer);
  pacer.report('groups', 1, 1);
  return { ...result, fingerprints };
}
