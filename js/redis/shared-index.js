// simhash-wasm/redis: a text index that several processes share through Redis
// (docs/redis.md). Node only; never in the browser bundle.
//
// The answers are TextIndex's (text-index.js): the same band keys propose the same
// candidates (a TextIndex of the same threshold and review computes them: keysOf), the
// candidates of the review bands alone are set aside by the same sketch test on the same
// sketches (reviewFilter, in WASM), and every other candidate is verified exactly in WASM
// (sh.similarity of the query and each candidate's stored normalized text, whose
// similarity is the original text's). Redis holds the texts, their sketches and the band
// tables (redis/scripts.js), and by the short measure the word weights every process
// verifies with (redis/weights.js); each step is one Lua script (one round trip), which the
// server runs alone:
//   query     QUERY: the buckets of the text's keys, and the candidates' texts (and the
//             sketches of those the review bands alone propose);
//   add       ADD: stores the text, its sketch, its entries, the id counter;
//   addIfNew  QUERY, then ADD in its 'if-new' mode, which stores only if the threshold's
//             buckets hold no id the caller has not verified, and otherwise returns those
//             ids' texts to verify (then ADD again): so N processes adding near-duplicates
//             at once store one of them (review matches do not stop an add, as in TextIndex);
//   remove    GET of the text, then REMOVE with its keys.
import { checkInteger, checkKnownKeys, checkObject, checkText, typeName } from '../core/checks.js';
import { ID_MAX, NO_FRESH_ID } from '../core/ids.js';
import { ID_WIDTH, decode, encode, readSketch, runScript, sketchValue } from './scripts.js';
import { SKETCH_BYTES, holdWeights, keysOf, releaseWeights, reviewFilter, shortSimilarities } from '../bindings/text-index-keys.js';
import { describeWeights, weightsBytes, weightsField } from './weights.js';

/** Adds in flight while importing, and texts per addAll while exporting. */
const IMPORT_IN_FLIGHT = 64;
const EXPORT_BATCH = 10_000;

/**
 * The threshold, fresh-id counter, stored texts ({ id, text }, normalized) and word weights'
 * bytes (weights.js weightsBytes' layout, or null) of a text index's bytes as serialize()
 * writes them (format 2, or 3 with review: docs/formats.md; the checksum was checked by
 * loadTextIndex or is the writer's own).
 */
function storedTexts(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(4, true);
  const threshold = view.getFloat64(8, true);
  const nextId = Number(view.getBigUint64(16, true));
  const count = view.getUint32(24, true);
  const sketchBytes = version === 3 ? 64 : 0;
  let at = version === 3 ? 44 : 32;
  // The high nibble of the alphabetic shingle size's byte: bit 1, word weights follow the header(s).
  let weights = null;
  if ((bytes[6] >> 4) & 2) {
    const length = 8 + 12 * view.getUint32(at + 4, true);
    weights = bytes.slice(at, at + length);
    at += length;
  }
  const decoder = new TextDecoder();
  const texts = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = view.getUint32(at, true);
    const length = view.getUint32(at + 8, true);
    texts[i] = { id, text: decoder.decode(bytes.subarray(at + 12, at + 12 + length)) };
    at += 12 + length + sketchBytes;
  }
  return { threshold, nextId, texts, weights };
}

/**
 * Up to this many candidates are verified a pair at a time (sh.similarity: 17 µs a short
 * pair), more in one sh.similarities call (about 300 µs whatever the count, then little per
 * pair): most queries have a candidate or two.
 */
const PAIRWISE_MOST = 16;

/** Sorts matches as TextIndex.query does: duplicates first, each kind by similarity descending, then id. */
function sortMatches(matches) {
  const rank = (m) => (m.kind === 'duplicate' ? 0 : 1);
  return matches.sort((x, y) => rank(x) - rank(y) || y.similarity - x.similarity || x.id - y.id);
}

/** The init of createTextIndex for these parameters (weights only by the short measure). */
export function textIndexInit({ similarity, measure, weights, review, options }) {
  return {
    similarity,
    ...(measure === 'short' && { measure, weights }),
    ...(review !== undefined && { review }),
    ...(options !== undefined && { options }),
  };
}

export class SharedTextIndex {
  #sh;
  #send;
  #keys;
  #signer;
  #similarity;
  #measure;
  #weights;
  #weightsBytes;
  #heldWeights = 0;
  #review;

  /**
   * The parameters as createSharedTextIndex checked them and the stored ones confirmed:
   * similarity, measure, weights (WordWeights or null; by the short measure the stored ones)
   * and their bytes, review (or undefined), options (fingerprint options, checked as
   * createTextIndex checks them; they do not change the answers).
   */
  constructor(sh, send, keys, parameters) {
    this.#sh = sh;
    this.#send = send;
    this.#keys = keys;
    this.#similarity = parameters.similarity;
    this.#measure = parameters.measure;
    this.#weights = parameters.weights;
    this.#weightsBytes = parameters.weightsBytes;
    this.#review = parameters.review;
    this.#signer = sh.createTextIndex(textIndexInit(parameters));
    // Verification weighs by a copy held in the core: lent per call, they would be copied per call.
    if (this.#weights) this.#heldWeights = holdWeights(this.#signer, this.#weights, this);
  }

  get similarity() {
    return this.#similarity;
  }

  /** The measure of similarity: 'text' or 'short'. */
  get measure() {
    return this.#measure;
  }

  /** By the short measure, the word weights stored beside the index (null for none); null by 'text'. */
  get weights() {
    return this.#weights;
  }

  /** The review threshold, or undefined when the index has none. */
  get review() {
    return this.#review;
  }

  #live() {
    if (!this.#signer) throw new Error('this shared text index has been closed');
    return this.#signer;
  }

  /**
   * The text's band keys as KEYS (buckets: the threshold's `bands`, then the review bands')
   * and fields, its normalized text, and with review its sketch and distinct shingles.
   */
  #signed(text) {
    const { keys, normalized, reviewKeys, sketch, shingles } = keysOf(this.#live(), text);
    const buckets = [];
    const fields = [];
    for (const key of keys) {
      buckets.push(this.#keys.bucket(key));
      fields.push(this.#keys.field(key));
    }
    for (const key of reviewKeys) {
      buckets.push(this.#keys.reviewBucket(key));
      fields.push(this.#keys.field(key));
    }
    return { buckets, fields, bands: keys.length, normalized, sketch, shingles };
  }

  /** The exact similarities of text and each of texts, by the index's measure (and weights). */
  #similarities(text, texts) {
    if (this.#measure === 'short') return shortSimilarities(this.#live(), this.#heldWeights, text, texts);
    const count = texts.length;
    if (count <= PAIRWISE_MOST) {
      const similarities = new Float64Array(count);
      for (let i = 0; i < count; i++) similarities[i] = this.#sh.similarity(text, texts[i]);
      return similarities;
    }
    const a = new Uint32Array(count);
    const b = new Uint32Array(count);
    for (let i = 0; i < count; i++) b[i] = i + 1;
    return this.#sh.similarities([text, ...texts], { a, b });
  }

  /**
   * The matches among a QUERY reply's candidates ({n, id, text, ... of the threshold's
   * bands, then id, sketch, text, ... of the review bands alone}), unsorted, as
   * TextIndex.query finds them: a candidate of the threshold's bands reaching the threshold
   * is a duplicate; any other reaching the review threshold is a review match, once the
   * candidates of the review bands alone have passed the sketch test.
   */
  #matches(text, signed, reply) {
    const near = Number(reply[0]);
    const ids = [];
    const texts = [];
    for (let i = 0; i < near; i++) {
      ids.push(reply[1 + 2 * i]);
      texts.push(reply[2 + 2 * i]);
    }
    const far = (reply.length - 1 - 2 * near) / 3;
    if (far > 0) {
      const sketches = new Uint8Array(SKETCH_BYTES * (far + 1));
      const shingles = new Uint32Array(far + 1);
      sketches.set(signed.sketch);
      shingles[0] = signed.shingles;
      const at = 1 + 2 * near;
      for (let k = 0; k < far; k++) shingles[k + 1] = readSketch(reply[at + 3 * k + 1], sketches, SKETCH_BYTES * (k + 1));
      const pass = reviewFilter(this.#live(), sketches, shingles);
      for (let k = 0; k < far; k++) {
        if (pass[k]) {
          ids.push(reply[at + 3 * k]);
          texts.push(reply[at + 3 * k + 2]);
        }
      }
    }
    const similarities = this.#similarities(text, texts);
    const matches = [];
    for (let i = 0; i < ids.length; i++) {
      const similarity = similarities[i];
      if (i < near && similarity >= this.#similarity) matches.push({ id: decode(ids[i]), similarity, kind: 'duplicate' });
      else if (this.#review !== undefined && similarity >= this.#review) matches.push({ id: decode(ids[i]), similarity, kind: 'review' });
    }
    return matches;
  }

  /**
   * Every stored text whose similarity with text reaches the threshold, and with review every
   * other reaching the review threshold (kind 'review'), as TextIndex.query answers.
   */
  async query(text, options) {
    checkText(text, 'text');
    const o = checkObject(options, 'options');
    checkKnownKeys(o, 'options', ['limit']);
    const limit = o.limit === undefined ? ID_MAX : checkInteger(o.limit, 'options.limit', 1, ID_MAX);
    const signed = this.#signed(text);
    const reply = await runScript(this.#send, 'query', [this.#keys.meta, ...signed.buckets], [String(signed.bands), ...signed.fields]);
    return sortMatches(this.#matches(text, signed, reply)).slice(0, limit);
  }

  /** ADD's arguments after the id's code: the text, the mode and verified ids, the bands, the sketch, the low codes. */
  #addArgs(signed, mode, known) {
    const sketch = this.#review === undefined ? '' : sketchValue(signed.shingles, signed.sketch);
    return [signed.normalized, mode, known, String(signed.bands), sketch, ...signed.fields];
  }

  /** Stores text under id (or a fresh id) and resolves to the id; a stored id rejects, storing nothing. */
  async add(text, id) {
    checkText(text, 'text');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const signed = this.#signed(text);
    const reply = await runScript(this.#send, 'add', [this.#keys.meta, ...signed.buckets], [id === undefined ? '' : encode(id, ID_WIDTH), ...this.#addArgs(signed, '', '')]);
    return this.#added(reply, id);
  }

  #added(reply, id) {
    if (reply[0] === 'added') return decode(reply[1]);
    if (reply[0] === 'taken') throw new Error(`id ${id} is already stored in this index`);
    if (reply[0] === 'no-fresh-id') throw new Error(NO_FRESH_ID);
    throw new Error(`unexpected reply from the add script: ${JSON.stringify(reply)}`);
  }

  /**
   * Stores text unless a stored text is a duplicate of it (reaches the threshold among the
   * threshold's candidates), atomically across processes; review matches do not stop it.
   * Resolves to { added: true, id } or { added: false, matches } (matches as query's).
   * Retried with the same id after a lost connection, it stores the text once.
   */
  async addIfNew(text, id) {
    checkText(text, 'text');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const signed = this.#signed(text);
    const keys = [this.#keys.meta, ...signed.buckets];
    let reply = await runScript(this.#send, 'query', keys, [String(signed.bands), ...signed.fields]);
    const known = [];
    const matches = [];
    for (;;) {
      // An earlier attempt with this id stored this very text: it is added, once.
      const near = Number(reply[0]);
      for (let i = 0; i < near; i++) {
        if (id !== undefined && decode(reply[1 + 2 * i]) === id && reply[2 + 2 * i] === signed.normalized) return { added: true, id };
      }
      matches.push(...this.#matches(text, signed, reply));
      if (matches.some((m) => m.kind === 'duplicate')) return { added: false, matches: sortMatches(matches) };
      for (let i = 0; i < near; i++) known.push(reply[1 + 2 * i]);
      const added = await runScript(this.#send, 'add', keys, [id === undefined ? '' : encode(id, ID_WIDTH), ...this.#addArgs(signed, 'if-new', known.join(''))]);
      if (added[0] !== 'changed') return { added: true, id: this.#added(added, id) };
      // The ids stored since, in the threshold's buckets: verified as QUERY's candidates.
      reply = [(added.length - 1) / 2, ...added.slice(1)];
    }
  }

  /** Resolves to whether the id was stored. */
  async remove(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    const stored = await this.#send(['GET', this.#keys.text(id)]);
    if (stored === null) return false;
    const { buckets, fields } = this.#signed(stored);
    return (await runScript(this.#send, 'remove', [this.#keys.meta, ...buckets], [encode(id, ID_WIDTH), stored, ...fields])) === 1;
  }

  async has(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    return (await this.#send(['EXISTS', this.#keys.text(id)])) === 1;
  }

  async size() {
    return Number(await this.#send(['HGET', this.#keys.meta, 'count']));
  }

  /**
   * Stores the texts of an in-memory TextIndex (or its serialized bytes, any format
   * loadTextIndex reads) under their ids, and its fresh-id counter, into this index, which
   * must be empty, of the same threshold and measure, and by the short measure of the same
   * word weights (its texts are normalized and weighed by them). Not atomic: import before
   * other processes use the index. Review matches come from this index's review, whatever
   * the source's.
   */
  async importFrom(source) {
    const sh = this.#sh;
    let bytes;
    const measured = (index) => {
      if (index.measure !== this.#measure) throw new Error(`the text index compares by the '${index.measure}' measure; this shared index by '${this.#measure}'`);
      return index.serialize();
    };
    if (source instanceof Uint8Array) {
      const loaded = sh.loadTextIndex(source); // checked, and any older format normalized again
      try {
        bytes = measured(loaded);
      } finally {
        loaded.dispose();
      }
    } else if (source && typeof source.serialize === 'function' && typeof source.similarity === 'number') {
      bytes = measured(source);
    } else {
      throw new TypeError(`source must be a TextIndex or its serialized bytes, got ${typeName(source)}`);
    }
    const { threshold, nextId, texts, weights } = storedTexts(bytes);
    if (threshold !== this.#similarity) throw new Error(`the text index's similarity ${threshold} differs from this index's ${this.#similarity}`);
    if (weightsField(weights) !== weightsField(this.#weightsBytes)) {
      throw new Error(`the text index's word weights (${describeWeights(weights)}) differ from this index's (${describeWeights(this.#weightsBytes)}): import into a shared index made with the same weights`);
    }
    if ((await this.size()) !== 0) throw new Error('this shared index is not empty: import into a new one');
    for (let i = 0; i < texts.length; i += IMPORT_IN_FLIGHT) {
      await Promise.all(texts.slice(i, i + IMPORT_IN_FLIGHT).map(({ id, text }) => this.add(text, id)));
    }
    // The counter never moves back: ids this index handed out and removed stay unused.
    const counter = Number(await this.#send(['HGET', this.#keys.meta, 'next']));
    await this.#send(['HSET', this.#keys.meta, 'next', String(Math.max(counter, nextId))]);
  }

  /**
   * An in-memory TextIndex with this index's texts, ids and fresh-id counter: it answers as
   * this index does and hands out the same fresh ids. A snapshot: not atomic across writers.
   */
  async exportTo() {
    const stored = new Map();
    const pattern = `${this.#keys.textPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`; // the name's glob characters escaped
    for (let cursor = '0'; ;) {
      const reply = await runScript(this.#send, 'export', [this.#keys.meta], [cursor, pattern, this.#keys.textPrefix]);
      for (let i = 1; i < reply.length; i += 2) stored.set(decode(reply[i]), reply[i + 1]);
      cursor = String(reply[0]);
      if (cursor === '0') break;
    }
    const counter = Number(await this.#send(['HGET', this.#keys.meta, 'next']));
    const index = this.#sh.createTextIndex(textIndexInit({ similarity: this.#similarity, measure: this.#measure, weights: this.#weights, review: this.#review }));
    try {
      // Every id below the counter handed out as a fresh id, in order, so that the counter
      // ends where this index's is; the ids no text holds (removed) are removed again.
      for (let start = 0; start < counter; start += EXPORT_BATCH) {
        const end = Math.min(counter, start + EXPORT_BATCH);
        const batch = [];
        for (let id = start; id < end; id++) batch.push(stored.get(id) ?? '');
        index.addAll(batch);
        for (let id = start; id < end; id++) if (!stored.has(id)) index.remove(id);
      }
      const chosen = [...stored.keys()].filter((id) => id >= counter).sort((a, b) => a - b);
      if (chosen.length > 0) index.addAll(chosen.map((id) => stored.get(id)), chosen);
      return index;
    } catch (error) {
      index.dispose();
      throw error;
    }
  }

  /** Frees this process's WASM side; the client stays the caller's, the index stays in Redis. */
  async close() {
    if (this.#heldWeights) releaseWeights(this.#signer, this.#heldWeights, this);
    this.#heldWeights = 0;
    this.#signer?.dispose();
    this.#signer = null;
  }
}
