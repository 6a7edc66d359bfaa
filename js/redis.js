// simhash-wasm/redis: a text index that several processes share through Redis
// (docs/redis.md). Node only; never in the browser bundle.
//
// The answers are TextIndex's (text-index.js): the same band keys propose the same
// candidates (a TextIndex of the same threshold computes them: KEYS_OF), and every
// candidate is verified exactly in WASM (sh.similarity of the query and each candidate's
// stored normalized text, whose similarity is the original text's). Redis holds the texts
// and the band table; each step is one Lua script (one round trip), which the server runs
// alone:
//   query     QUERY: the buckets of the text's keys, and the candidates' texts;
//   add       ADD: stores the text, its entries, the id counter;
//   addIfNew  QUERY, then ADD in its 'if-new' mode, which stores only if the buckets hold
//             no id the caller has not verified, and otherwise returns those ids' texts to
//             verify (then ADD again): so N processes adding near-duplicates at once store
//             one of them;
//   remove    GET of the text, then REMOVE with its keys.
import { createHash } from 'node:crypto';
import { checkInteger, checkKnownKeys, checkObject, typeName } from './checks.js';
import { ID_MAX, NO_FRESH_ID } from './ids.js';
import { init as loadModule } from './node.js';
import { DEFAULT_SIMILARITY, checkSimilarity } from './similarity.js';
import { KEYS_OF } from './text-index.js';

/** What the meta hash's `magic` field holds in an index of this library. */
const MAGIC = 'simhash-wasm text index';
/** The key layout and scripts' version (docs/redis.md). */
const LAYOUT = '2';
/**
 * The similarity's definition: texts are stored normalized as text index format 2 stores
 * them (half-width katakana folded); a change of normalization changes it.
 */
const DEFINITION = '2';

/**
 * Numbers as fixed-width codes of 6 bits a character, so that a bucket is a string of
 * fixed-size records that Lua searches with string.find (docs/redis.md).
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const DIGIT_VALUE = new Map([...DIGITS].map((c, i) => [c, i]));
const ID_WIDTH = 6; // 36 bits: every u32 id
const LOW_WIDTH = 3; // 18 bits: a band key's low 16
const RECORD = LOW_WIDTH + ID_WIDTH;

function encode(value, width) {
  let out = '';
  for (let i = width - 1; i >= 0; i--) out += DIGITS[Math.floor(value / 2 ** (6 * i)) % 64];
  return out;
}

function decode(code) {
  let value = 0;
  for (const c of code) value = value * 64 + DIGIT_VALUE.get(c);
  return value;
}

/**
 * Keys (docs/redis.md): every key of an index under one hash tag, {name}, so that a
 * Cluster keeps them in one slot and the scripts run unchanged there.
 *   simhash:{name}:meta        hash: magic, layout, definition, threshold, bands, next, count
 *   simhash:{name}:t:<id>      string: the stored text, normalized (id: its 6-character code)
 *   simhash:{name}:b:<hi>      string: the records (low 16 bits of the band key, 3
 *                              characters; id, 6) of the entries whose band key's high 16
 *                              bits are hi (base 36)
 */
function keyNames(name) {
  const prefix = `simhash:{${name}}:`;
  return {
    meta: `${prefix}meta`,
    text: (id) => `${prefix}t:${encode(id, ID_WIDTH)}`,
    textPrefix: `${prefix}t:`,
    bucket: (key) => `${prefix}b:${(key >>> 16).toString(36)}`,
    field: (key) => encode(key & 0xffff, LOW_WIDTH),
  };
}

// Each script takes KEYS[1] = the meta hash, then a bucket key per band key (repeated when
// two share one), and the band keys' low codes in ARGV, in the same order. Ids cross as
// their codes.
const LUA_HELPERS = `
local prefix = string.sub(KEYS[1], 1, -5)
local RECORD, LOW = ${RECORD}, ${LOW_WIDTH}
local DIGITS = '${DIGITS}'
local function code(n)
  local s = ''
  for _ = 1, ${ID_WIDTH} do local d = n % 64; s = string.sub(DIGITS, d + 1, d + 1) .. s; n = (n - d) / 64 end
  return s
end
-- The ids (codes) of the records of low code lows[i] in buckets[i], each once, not in skip.
local function idsIn(buckets, lows, skip)
  local seen, out = {}, {}
  for i = 1, #lows do
    local bucket, low = buckets[i], lows[i]
    if bucket then
      local at = 1
      while true do
        local pos = string.find(bucket, low, at, true)
        if not pos then break end
        if (pos - 1) % RECORD == 0 then
          local id = string.sub(bucket, pos + LOW, pos + RECORD - 1)
          if not seen[id] and not (skip and skip[id]) then seen[id] = true; out[#out + 1] = id end
          at = pos + RECORD
        else
          at = pos + 1
        end
      end
    end
  end
  return out
end
-- {id, text, id, text, ...} of the ids still stored.
local function withTexts(ids, head)
  local out = head or {}
  if #ids == 0 then return out end
  local keys = {}
  for i, id in ipairs(ids) do keys[i] = prefix .. 't:' .. id end
  local texts = redis.call('MGET', unpack(keys))
  for i, id in ipairs(ids) do if texts[i] then out[#out + 1] = id; out[#out + 1] = texts[i] end end
  return out
end
local function buckets()
  if #KEYS == 1 then return {} end
  return redis.call('MGET', unpack(KEYS, 2))
end
`;

const SCRIPTS = {
  // OPEN: ARGV magic, layout, definition, threshold, bands. Creates the meta hash when the
  // key is free; returns the stored fields (magic, layout, definition, threshold, bands),
  // or {'not-hash', type} when the key holds something else.
  open: `#!lua
local meta = KEYS[1]
local kind = redis.call('TYPE', meta)['ok']
if kind == 'none' then
  redis.call('HSET', meta, 'magic', ARGV[1], 'layout', ARGV[2], 'definition', ARGV[3], 'threshold', ARGV[4], 'bands', ARGV[5], 'next', '0', 'count', '0')
elseif kind ~= 'hash' then
  return {'not-hash', kind}
end
return redis.call('HMGET', meta, 'magic', 'layout', 'definition', 'threshold', 'bands')`,

  // QUERY: returns {id, text, id, text, ...} of the candidates: one MGET of the buckets,
  // one of the texts.
  query: `#!lua flags=no-writes
${LUA_HELPERS}
return withTexts(idsIn(buckets(), ARGV))`,

  // ADD: ARGV[1] the id's code or '' for a fresh one, ARGV[2] the normalized text,
  // ARGV[3] 'if-new' to store only when every id in the buckets is among ARGV[4] (the
  // codes the caller verified, concatenated), then the low codes. Returns {'added', id},
  // {'taken'} (that id is stored), {'no-fresh-id'}, or {'changed', id, text, ...} for the
  // ids the caller has not verified.
  add: `#!lua
${LUA_HELPERS}
local meta = KEYS[1]
local lows = {}
for i = 5, #ARGV do lows[#lows + 1] = ARGV[i] end
if ARGV[3] == 'if-new' then
  local known = {}
  for k = 1, #ARGV[4], ${ID_WIDTH} do known[string.sub(ARGV[4], k, k + ${ID_WIDTH - 1})] = true end
  local out = withTexts(idsIn(buckets(), lows, known), {'changed'})
  if #out > 1 then return out end
end
local id
if ARGV[1] == '' then
  local next = tonumber(redis.call('HGET', meta, 'next'))
  while next <= 4294967295 and redis.call('EXISTS', prefix .. 't:' .. code(next)) == 1 do next = next + 1 end
  if next > 4294967295 then return {'no-fresh-id'} end
  redis.call('HSET', meta, 'next', tostring(next + 1))
  id = code(next)
else
  id = ARGV[1]
  if redis.call('EXISTS', prefix .. 't:' .. id) == 1 then return {'taken'} end
end
redis.call('SET', prefix .. 't:' .. id, ARGV[2])
-- GET and SET rather than APPEND, whose spare room would hold as much again as the records.
for i = 2, #KEYS do redis.call('SET', KEYS[i], (redis.call('GET', KEYS[i]) or '') .. lows[i - 1] .. id) end
redis.call('HINCRBY', meta, 'count', 1)
return {'added', id}`,

  // EXPORT: ARGV[1] a SCAN cursor, ARGV[2] the text keys' pattern. Returns {next cursor, id,
  // text, id, text, ...}: a script, so that a Cluster runs the SCAN on the node holding the
  // index's slot.
  export: `#!lua flags=no-writes
local found = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', 1000)
local out = {found[1]}
if #found[2] > 0 then
  local texts = redis.call('MGET', unpack(found[2]))
  local skip = #ARGV[3] + 1
  for i, key in ipairs(found[2]) do
    if texts[i] then out[#out + 1] = string.sub(key, skip); out[#out + 1] = texts[i] end
  end
end
return out`,

  // REMOVE: ARGV[1] the id's code, ARGV[2] its text as the caller read it, then the low
  // codes. Returns 1 when it removed the text, 0 when it was not stored.
  remove: `#!lua
${LUA_HELPERS}
local meta = KEYS[1]
local key = prefix .. 't:' .. ARGV[1]
if redis.call('GET', key) ~= ARGV[2] then return 0 end
for i = 2, #KEYS do
  local bucket = redis.call('GET', KEYS[i])
  local record = ARGV[i + 1] .. ARGV[1]
  local at = 1
  while bucket do
    local pos = string.find(bucket, record, at, true)
    if not pos then break end
    if (pos - 1) % RECORD == 0 then
      bucket = string.sub(bucket, 1, pos - 1) .. string.sub(bucket, pos + RECORD)
      if bucket == '' then redis.call('DEL', KEYS[i]) else redis.call('SET', KEYS[i], bucket) end
      break
    end
    at = pos + 1
  end
end
redis.call('DEL', key)
redis.call('HINCRBY', meta, 'count', -1)
return 1`,
};

const SHA = Object.fromEntries(Object.entries(SCRIPTS).map(([name, source]) => [name, createHash('sha1').update(source).digest('hex')]));

/**
 * One way to send a command with either client: node-redis (the npm package `redis`,
 * whose clients have sendCommand(args), and whose Cluster clients sendCommand(firstKey,
 * isReadonly, args): the key routes the command to its slot's node) or ioredis (call(command,
 * ...args), a Cluster routing by the command's keys). Replies are strings, numbers, arrays
 * and null in both. Every command this module sends names a key of the index: a script
 * its KEYS[1], any other its first argument.
 */
function commandsOf(client) {
  if (client && typeof client.callBuffer === 'function' && typeof client.call === 'function') {
    return (args) => client.call(...args);
  }
  if (client && typeof client.sendCommand === 'function' && typeof client.getSlotRandomNode === 'function') {
    return (args) => client.sendCommand(/^EVAL/.test(args[0]) ? args[3] : args[1], false, args);
  }
  if (client && typeof client.sendCommand === 'function') return (args) => client.sendCommand(args);
  throw new TypeError(`client must be a connected node-redis or ioredis client, got ${typeName(client)}`);
}

/** Runs a script by its SHA, loading it once the server says it does not have it. */
async function runScript(send, name, keys, args) {
  try {
    return await send(['EVALSHA', SHA[name], String(keys.length), ...keys, ...args]);
  } catch (error) {
    if (!/NOSCRIPT/.test(error?.message)) throw error;
    return send(['EVAL', SCRIPTS[name], String(keys.length), ...keys, ...args]);
  }
}

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

function checkText(text, name) {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string, got ${typeName(text)}`);
  return text;
}

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
