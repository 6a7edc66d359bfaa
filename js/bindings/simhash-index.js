// SimHashIndex: an exact Hamming index that lives in WASM memory; dispose() frees it.
import { checkFingerprint, checkInteger, checkObject, typeName } from '../core/checks.js';
import { toFingerprintArray } from '../core/hamming.js';
import { ID_MAX, checkIds } from '../core/ids.js';
import { addedId, addedIds, asError, coreCall, loadHandle, resultArray, withAllocations } from './memory.js';
import { checkMaxDistance } from './options.js';
import { bindCore, guardMethods, handleRegistry } from '../core/traps.js';

// Indexes forgotten without dispose() are freed when collected: [core, address] pairs.
const indexRegistry = handleRegistry('_indexDelete');

export class SimHashIndex {
  #core;
  #handle;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    bindCore(this, core);
    indexRegistry.register(this, [core, handle], this);
  }

  #live() {
    if (!this.#handle) throw new Error('this index has been disposed');
    return this.#handle;
  }

  get maxDistance() {
    return this.#core._indexMaxDistance(this.#live());
  }

  get size() {
    return this.#core._indexSize(this.#live());
  }

  add(fingerprint, id) {
    checkFingerprint(fingerprint, 'fingerprint');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const handle = this.#live();
    const low = Number(BigInt.asUintN(32, fingerprint));
    const high = Number(fingerprint >> 32n);
    let added;
    try {
      added = this.#core._simhash_index_add_one(handle, low, high, id ?? 0, id === undefined ? 0 : 1);
    } catch (error) {
      throw asError(error);
    }
    return addedId(added, id);
  }

  addAll(fingerprints, ids) {
    const fps = toFingerprintArray(fingerprints, 'fingerprints');
    return this.#add(fps, ids === undefined ? undefined : checkIds(ids, fps.length, 'fingerprints'));
  }

  /** Stores fps under ids (checked; fresh ids when undefined), all or nothing (the core undoes a failed batch, id counter included). */
  #add(fps, ids) {
    const handle = this.#live();
    const core = this.#core;
    return withAllocations(core, (mem) => {
      const fpAddress = mem.copyIn(fps);
      const idsAddress = ids ? mem.copyIn(ids) : 0;
      const outAddress = mem.alloc(fps.length * 4);
      return addedIds(core, coreCall(() => core._indexAddBatch(handle, fpAddress, idsAddress, fps.length, outAddress)), fps.length, outAddress, ids);
    });
  }

  query(fingerprint) {
    checkFingerprint(fingerprint, 'fingerprint');
    const handle = this.#live();
    const core = this.#core;
    let count;
    try {
      count = core._simhash_index_query_one(handle, Number(BigInt.asUintN(32, fingerprint)), Number(fingerprint >> 32n));
    } catch (error) {
      throw asError(error);
    }
    if (count === 0) return [];
    // The matches are read straight from the result buffer, then it is released (freed when large).
    const words = new Uint32Array(core.HEAPU8.buffer, core._resultAddress(), count * 2);
    const matches = new Array(count);
    for (let i = 0; i < count; i++) matches[i] = { id: words[2 * i], distance: words[2 * i + 1] };
    core._resultRelease();
    return matches;
  }

  remove(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    return this.#core._indexRemove(this.#live(), id) !== 0;
  }

  clear() {
    this.#core._indexClear(this.#live());
  }

  serialize() {
    const handle = this.#live();
    return resultArray(this.#core, Uint8Array, coreCall(() => this.#core._indexSerialize(handle)));
  }

  dispose() {
    if (!this.#handle) return;
    indexRegistry.unregister(this);
    this.#core._indexDelete(this.#handle);
    this.#handle = 0;
  }
}

guardMethods(SimHashIndex, 'index');

/** sh.createIndex. */
export function createIndex(core, options) {
  const o = checkObject(options, 'options');
  const maxDistance = checkMaxDistance(o.maxDistance, 'options.maxDistance');
  return new SimHashIndex(core, coreCall(() => core._indexCreate(maxDistance)));
}

/** sh.loadIndex: restores index.serialize(); corrupted or truncated bytes throw an Error. */
export function loadIndex(core, bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${typeName(bytes)}`);
  const handle = loadHandle(core, bytes, () => core._indexCreate(0), (h, address, length) => core._indexLoad(h, address, length), (h) => core._indexDelete(h));
  return new SimHashIndex(core, handle);
}
