// The ids both indexes share (README "Index ids"): what a caller passes, checked once, and
// the error when fresh ids run out.
import { checkInteger, typeName } from './checks.js';

export const ID_MAX = 0xffffffff;

export const NO_FRESH_ID = 'this index has no fresh id left: it has handed out ids up to 4294967295 (ids chosen by the caller can still be added)';

/**
 * ids for a batch of `count` items named `itemsName`, as a Uint32Array of distinct ids, each
 * checked. Repeats are found here, before the core reserves room for the batch, so a
 * rejected batch leaves the WASM heap as it was.
 */
export function checkIds(ids, count, itemsName) {
  if (!(ids instanceof Uint32Array) && !Array.isArray(ids)) {
    throw new TypeError(`ids must be a Uint32Array or an array of numbers, got ${typeName(ids)}`);
  }
  if (ids.length !== count) throw new RangeError(`ids has ${ids.length} entries but ${itemsName} has ${count}`);
  const array = ids instanceof Uint32Array ? ids : Uint32Array.from(ids, (id, i) => checkInteger(id, `ids[${i}]`, 0, ID_MAX));
  const first = new Map();
  for (let i = 0; i < array.length; i++) {
    const earlier = first.get(array[i]);
    if (earlier !== undefined) throw new Error(`ids[${i}] = ${array[i]} repeats ids[${earlier}]`);
    first.set(array[i], i);
  }
  return array;
}
