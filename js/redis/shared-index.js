// simhash-wasm/redis: a text index that several processes share through Redis
// (docs/redis.md). Node only; never in the browser bundle.
//
// The answers are TextIndex's (text-index.js): the same band keys propose the same
// candidates (a TextIndex of the same threshold computes them: KEYS_OF), and every
// candidate is verified exactly in WASM (sh.similarity of the query and each candidate's
// stored normalized text, whose similarity is the original text's). Redis holds the texts
// and the band table (redis/scripts.js); each step is one Lua script (one round trip),
// which the server runs alone:
//   query     QUERY: the buckets of the text's keys, and the candidates' texts;
//   add       ADD: stores the text, its entries, the id counter;
//   addIfNew  QUERY, then ADD in its 'if-new' mode, which stores only if the buckets hold
//             no id the caller has not verified, and otherwise returns those ids' texts to
//             verify (then ADD again): so N processes adding near-duplicates at once store
//             one of them;
//   remove    GET of the text, then REMOVE with its keys.
import { checkInteger, checkKnownKeys, checkObject, checkText, typeName } from '../core/checks.js';
import { ID_MAX, NO_FRESH_ID } from '../core/ids.js';
import { init as loadModule } from '../node.js';
import { DEFINITION, ID_WIDTH, LAYOUT, MAGIC, commandsOf, decode, encode, keyNames, runScript } from './scripts.js';
import { DEFAULT_SIMILARITY, checkSimilarity } from '../core/thresholds.js';
import { KEYS_OF } from '../bindings/text-index.js';

/** Adds in flight while importing, and texts per addAll while exporting. */
const IMPORT_IN_FLIGHT = 64;
const EXPORT_BATCH = 10_000;

/**
 * The threshold, fresh-id counter and stored texts ({ id, text }, normalized) of a text
 * index's bytes as serialize() writes them (format 2, or 3 with review: text_index.h "The
 * versioned byte format"; the checksum was checked by loadTextIndex or is the writer's own).
 */
function storedTexts(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(4, true);
  const threshold = view.getFloat64(8, true);
  const nextId = Number(view.getBigUint64(16, true));
  const count = view.getUint32(24, true);
  const sketchBytes = version === 3 ? 64 : 0;
  let at = version === 3 ? 44 : 32;
  const decoder = new TextDecoder();
  const texts = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = view.getUint32(at, true);
    const length = view.getUint32(at + 8, true);
    texts[i] = { id, text: decoder.decode(bytes.subarray(at + 12, at + 12 + length)) };
    at += 12 + length + sketchBytes;
  }
  return { threshold, nextId, texts };
}

/**
 * Up to this many candidates are verified a pair at a time (sh.similarity: 17 µs a short
 * pair), more in one sh.similarities call (about 300 µs whatever the count, then little per
 * pair): most queries have a candidate or two.
 */
const PAIRWISE_MOST = 16;

export class SharedTextIndex {
  #sh;
  #send;
  #keys;
  #signer;
  #similarity;

  constructor(sh, send, keys, similarity) {
    this.#sh = sh;
    this.#send = send;
    this.#keys = keys;
    this.#similarity = similarity;
    this.#signer = sh.createTextIndex({ similarity });
  }

  get similarity() {
    return this.#similarity;
  }

  #live() {
    if (!this.#signer) throw new Error('this shared text index has been closed');
    return this.#signer;
  }

  /** The text's band keys as KEYS (buckets) and fields, and its normalized text. */
  #signed(text) {
    const { keys, normalized } = this.#live()[KEYS_OF](text);
    const buckets = [];
    const fields = [];
    for (const key of keys) {
      buckets.push(this.#keys.bucket(key));
      fields.push(this.#keys.field(key));
    }
    return { buckets, fields, normalized };
  }

  /** The matches among {id, text, ...} pairs: verified exactly, at or above the threshold, sorted. */
  #verify(text, flat) {
    const count = flat.length / 2;
    let similarities;
    if (count <= PAIRWISE_MOST) {
      similarities = new Float64Array(count);
      for (let i = 0; i < count; i++) similarities[i] = this.#sh.similarity(text, flat[2 * i + 1]);
    } else {
      const texts = [text];
      const a = new Uint32Array(count);
      const b = new Uint32Array(count);
      for (let i = 0; i < count; i++) {
        texts.push(flat[2 * i + 1]);
        b[i] = i + 1;
      }
      similarities = this.#sh.similarities(texts, { a, b });
    }
    const matches = [];
    for (let i = 0; i < count; i++) {
      if (similarities[i] >= this.#similarity) matches.push({ id: decode(flat[2 * i]), similarity: similarities[i], kind: 'duplicate' });
    }
    return matches.sort((x, y) => y.similarity - x.similarity || x.id - y.id);
  }

  /** Every stored text whose similarity with text reaches the threshold, as TextIndex.query answers. */
  async query(text, options) {
    checkText(text, 'text');
    const o = checkObject(options, 'options');
    checkKnownKeys(o, 'options', ['limit']);
    const limit = o.limit === undefined ? ID_MAX : checkInteger(o.limit, 'options.limit', 1, ID_MAX);
    const { buckets, fields } = this.#signed(text);
    const flat = await runScript(this.#send, 'query', [this.#keys.meta, ...buckets], fields);
    return this.#verify(text, flat).slice(0, limit);
  }

  /** Stores text under id (or a fresh id) and resolves to the id; a stored id rejects, storing nothing. */
  async add(text, id) {
    checkText(text, 'text');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const { buckets, fields, normalized } = this.#signed(text);
    return this.#added(await runScript(this.#send, 'add', [this.#keys.meta, ...buckets], [id === undefined ? '' : encode(id, ID_WIDTH), normalized, '', '', ...fields]), id);
  }

  #added(reply, id) {
    if (reply[0] === 'added') return decode(reply[1]);
    if (reply[0] === 'taken') throw new Error(`id ${id} is already stored in this index`);
    if (reply[0] === 'no-fresh-id') throw new Error(NO_FRESH_ID);
    throw new Error(`unexpected reply from the add script: ${JSON.stringify(reply)}`);
  }

  /**
   * Stores text unless a stored text reaches the threshold, atomically across processes.
   * Resolves to { added: true, id } or { added: false, matches } (matches as query's).
   * Retried with the same id after a lost connection, it stores the text once.
   */
  async addIfNew(text, id) {
    checkText(text, 'text');
    if (id !== undefined) checkInteger(id, 'id', 0, ID_MAX);
    const { buckets, fields, normalized } = this.#signed(text);
    const keys = [this.#keys.meta, ...buckets];
    let flat = await runScript(this.#send, 'query', keys, fields);
    const known = [];
    const matches = [];
    for (;;) {
      // An earlier attempt with this id stored this very text: it is added, once.
      for (let i = 0; i < flat.length; i += 2) {
        if (id !== undefined && decode(flat[i]) === id && flat[i + 1] === normalized) return { added: true, id };
      }
      matches.push(...this.#verify(text, flat));
      if (matches.length > 0) return { added: false, matches: matches.sort((x, y) => y.similarity - x.similarity || x.id - y.id) };
      for (let i = 0; i < flat.length; i += 2) known.push(flat[i]);
      const reply = await runScript(this.#send, 'add', keys, [id === undefined ? '' : encode(id, ID_WIDTH), normalized, 'if-new', known.join(''), ...fields]);
      if (reply[0] !== 'changed') return { added: true, id: this.#added(reply, id) };
      flat = reply.slice(1);
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
   * must be empty and of the same threshold. Not atomic: import before other processes use
   * the index. Review, which this index does not keep, is dropped.
   */
  async importFrom(source) {
    const sh = this.#sh;
    let bytes;
    if (source instanceof Uint8Array) {
      const loaded = sh.loadTextIndex(source); // checked, and any older format normalized again
      try {
        bytes = loaded.serialize();
      } finally {
        loaded.dispose();
      }
    } else if (source && typeof source.serialize === 'function' && typeof source.similarity === 'number') {
      bytes = source.serialize();
    } else {
      throw new TypeError(`source must be a TextIndex or its serialized bytes, got ${typeName(source)}`);
    }
    const { threshold, nextId, texts } = storedTexts(bytes);
    if (threshold !== this.#similarity) throw new Error(`the text index's similarity ${threshold} differs from this index's ${this.#similarity}`);
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
    const index = this.#sh.createTextIndex({ similarity: this.#similarity });
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
    this.#signer?.dispose();
    this.#signer = null;
  }
}

/**
 * Opens (creating when the key is free) the shared text index `name` on a connected client.
 * An index whose stored parameters differ from these, or a key that is not this library's
 * index, is refused with an Error naming what differs.
 */
export async function createSharedTextIndex(client, init) {
  const send = commandsOf(client);
  const o = checkObject(init, 'init');
  checkKnownKeys(o, 'init', ['name', 'similarity']);
  if (typeof o.name !== 'string' || o.name === '' || /[{}]/.test(o.name)) {
    throw new TypeError(`init.name must be a non-empty string without braces, got ${typeName(o.name)}`);
  }
  const similarity = checkSimilarity(o.similarity ?? DEFAULT_SIMILARITY, 'init.similarity');
  const sh = await loadModule();
  const keys = keyNames(o.name);
  const probe = sh.createTextIndex({ similarity });
  const bands = probe[KEYS_OF]('').keys.length;
  probe.dispose();
  const expected = [MAGIC, LAYOUT, DEFINITION, String(similarity), String(bands)];
  const stored = await runScript(send, 'open', [keys.meta], expected);
  if (stored[0] === 'not-hash') throw new Error(`${keys.meta} is not a simhash-wasm text index: it holds a ${stored[1]}`);
  if (stored[0] !== MAGIC) throw new Error(`${keys.meta} is not a simhash-wasm text index: its magic field is ${JSON.stringify(stored[0])}`);
  const names = ['magic', 'layout', 'definition', 'threshold', 'bands'];
  const differ = names.map((field, i) => [field, stored[i], expected[i]]).filter(([, was, want]) => was !== want);
  if (differ.length > 0) {
    throw new Error(`the index ${o.name} was made with other parameters: ${differ.map(([field, was, want]) => `${field} ${was} (this call: ${want})`).join(', ')}`);
  }
  return new SharedTextIndex(sh, send, keys, similarity);
}
