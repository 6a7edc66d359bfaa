// IDF weights: learned in the core from the caller's corpus, owned through a handle.
import { typeName } from '../core/checks.js';
import { coreCall, forEachEncodedSlice, loadHandle, resultArray } from './memory.js';
import { coreTexts } from '../core/text.js';
import { bindCore, guardMethods, handleRegistry } from '../core/traps.js';
import { decodeOptions } from '../core/wire.js';

// IdfWeights objects -> { core, handle, options }; handle 0 once disposed.
const idfEntries = new WeakMap();
const idfRegistry = handleRegistry('_idfDelete');

function idfEntry(idf, name) {
  const entry = idfEntries.get(idf);
  if (!entry) throw new TypeError(`${name} must be IdfWeights from sh.learnIdf or sh.loadIdf, got ${typeName(idf)}`);
  if (!entry.handle) throw new Error(name === 'this' ? 'these IDF weights have been disposed' : `${name} has been disposed`);
  return entry;
}

/** The fingerprint options IDF weights were learned with (checks that `idf` is live IdfWeights). */
export function learnedOptions(idf, name) {
  return idfEntry(idf, name).options;
}

/** The core's handle of IDF weights, which must belong to this core. */
export function idfHandle(idf, core, name) {
  const entry = idfEntry(idf, name);
  if (entry.core !== core) throw new Error(`${name} belongs to another instance of the module`);
  return entry.handle;
}

/** Inverse document frequencies learned from a corpus; owns WASM memory: dispose() it. */
export class IdfWeights {
  constructor(core, handle) {
    idfEntries.set(this, { core, handle, options: decodeOptions(core._idfOptions(handle)) });
    bindCore(this, core);
    idfRegistry.register(this, [core, handle], this);
  }

  /** The fingerprint options the weights were learned with (and fingerprint with). */
  get options() {
    return { ...idfEntry(this, 'this').options };
  }

  /** Number of documents learned from. */
  get documents() {
    const { core, handle } = idfEntry(this, 'this');
    return core._idfDocuments(handle);
  }

  /** Number of distinct features with a learned weight. */
  get features() {
    const { core, handle } = idfEntry(this, 'this');
    return core._idfFeatures(handle);
  }

  /** A versioned, checksummed snapshot; `sh.loadIdf` restores it. */
  toBytes() {
    const { core, handle } = idfEntry(this, 'this');
    return resultArray(core, Uint8Array, coreCall(() => core._idfSerialize(handle)));
  }

  /** Frees the WASM memory; later use throws. Safe to call twice. */
  dispose() {
    const entry = idfEntries.get(this);
    if (!entry?.handle) return;
    idfRegistry.unregister(this);
    entry.core._idfDelete(entry.handle);
    entry.handle = 0;
  }
}

guardMethods(IdfWeights, 'idf');

/** Learns weights from texts; `wire` and `options` are the checked options (no idf). */
export function learnIdf(core, texts, options, wire) {
  const learner = coreCall(() => core._idfLearnerCreate(wire));
  try {
    forEachEncodedSlice(core, coreTexts(texts, options, 'texts'), 'texts', (utf8, offsets, count) => {
      core._idfLearnerAdd(learner, utf8, offsets, count);
    });
    return new IdfWeights(core, coreCall(() => core._idfLearnerTable(learner)));
  } finally {
    core._idfLearnerDelete(learner);
  }
}

/** Restores `idf.toBytes()`; corrupted or truncated bytes throw an Error. */
export function loadIdf(core, bytes) {
  const handle = loadHandle(core, bytes, () => core._idfCreate(), (h, address, length) => core._idfLoad(h, address, length), (h) => core._idfDelete(h));
  return new IdfWeights(core, handle);
}
