// simhash-wasm/redis: a text index that several processes share through Redis
// (docs/redis.md). Node only; never in the browser bundle.
//
// The answers are TextIndex's (text-index.js): the same band keys propose the same
// candidates (a TextIndex of the same threshold computes them: KEYS_OF), and every
// candidate is verified exactly in WASM (sh.similarities over the query and the
// candidates' stored normalized texts, whose similarity is the original texts'). Redis
// holds the texts and the band table; each operation is one Lua script (one round trip),
// run atomically by the server:
//   query     QUERY   the buckets of the text's keys, and the candidates' texts;
//   add       ADD     stores the text, its entries, the id counter;
//   addIfNew  QUERY, then ADD_IF_NEW, which stores only if the buckets hold no id the
//             caller has not verified, and otherwise returns those ids' texts to verify
//             (then ADD_IF_NEW again): so N processes adding near-duplicates at once store
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
const LAYOUT = '1';
/**
 * The similarity's definition: texts are stored normalized as text index format 2 stores
 * them (half-width katakana folded); a change of normalization changes it.
 */
const DEFINITION = '2';

/**
 * Keys (docs/redis.md): every key of an index under one hash tag, {name}, so that a
 * Cluster keeps them in one slot and the scripts run unchanged there.
 *   simhash:{name}:meta        hash: magic, layout, definition, threshold, bands, next, count
 *   simhash:{name}:t:<id>      string: the stored text, normalized
 *   simhash:{name}:b:<hi>      hash: field <lo> → the ids (base 36, comma-separated) of the
 *                              entries whose band key is hi << 16 | lo (hi, lo base 36)
 * 65,536 bucket hashes keep each one small (listpack-encoded: about 12 bytes an entry).
 */
function keyNames(name) {
  const prefix = `simhash:{${name}}:`;
  return {
    meta: `${prefix}meta`,
    text: (id) => `${prefix}t:${id}`,
    textPrefix: `${prefix}t:`,
    bucketPrefix: `${prefix}b:`,
    bucket: (key) => `${prefix}b:${(key >>> 16).toString(36)}`,
    field: (key) => (key & 0xffff).toString(36),
  };
}

// Each script takes KEYS[1] = the meta hash, then the keys it names; ARGV as each says.
// Ids in bucket lists are base 36; ids in replies and text keys are decimal.
const LUA_HELPERS = `
local function ids(list)
  local out = {}
  if list then for id in string.gmatch(list, '[^,]+') do out[#out + 1] = tonumber(id, 36) end end
  return out
end
local function b36(n)
  local digits = '0123456789abcdefghijklmnopqrstuvwxyz'
  if n == 0 then return '0' end
  local s = ''
  while n > 0 do local d = n % 36; s = string.sub(digits, d + 1, d + 1) .. s; n = (n - d) / 36 end
  return s
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

  // QUERY: KEYS[2..] the buckets of ARGV's fields, pairwise (KEYS[1 + i] holds field
  // ARGV[i]). Returns {id, text, id, text, ...} of the distinct ids found.
  query: `#!lua flags=no-writes
${LUA_HELPERS}
local prefix = string.sub(KEYS[1], 1, -5)
local seen, out = {}, {}
for i = 2, #KEYS do
  for _, id in ipairs(ids(redis.call('HGET', KEYS[i], ARGV[i - 1]))) do
    if not seen[id] then
      seen[id] = true
      local text = redis.call('GET', prefix .. 't:' .. id)
      if text then out[#out + 1] = tostring(id); out[#out + 1] = text end
    end
  end
end
return out`,

  // ADD: KEYS[2..] buckets as QUERY's; ARGV[1] the id or '' for a fresh one, ARGV[2] the
  // normalized text, ARGV[3] 'if-new' to store only when every id in the buckets is among
  // ARGV[4] (the ids the caller verified, comma-separated decimal), then the fields.
  // Returns {'added', id}, {'taken', id} (that id is stored), {'no-fresh-id'}, or
  // {'changed', id, text, ...} for the ids the caller has not verified.
  add: `#!lua
${LUA_HELPERS}
local meta = KEYS[1]
local prefix = string.sub(meta, 1, -5)
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
if ARGV[3] == 'if-new' then
  local known = {}
  for id in string.gmatch(ARGV[4], '[^,]+') do known[tonumber(id)] = true end
  local out = {'changed'}
  local seen = {}
  for i = 2, #KEYS do
    for _, id in ipairs(ids(redis.call('HGET', KEYS[i], fields[i - 1]))) do
      if not known[id] and not seen[id] then
        seen[id] = true
        local text = redis.call('GET', prefix .. 't:' .. id)
        if text then out[#out + 1] = tostring(id); out[#out + 1] = text end
      end
    end
  end
  if #out > 1 then return out end
end
local id
if ARGV[1] == '' then
  id = tonumber(redis.call('HGET', meta, 'next'))
  while id <= 4294967295 and redis.call('EXISTS', prefix .. 't:' .. id) == 1 do id = id + 1 end
  if id > 4294967295 then return {'no-fresh-id'} end
  redis.call('HSET', meta, 'next', tostring(id + 1))
else
  id = tonumber(ARGV[1])
  if redis.call('EXISTS', prefix .. 't:' .. id) == 1 then return {'taken', tostring(id)} end
end
redis.call('SET', prefix .. 't:' .. id, ARGV[2])
local entry = b36(id)
for i = 2, #KEYS do
  local list = redis.call('HGET', KEYS[i], fields[i - 1])
  redis.call('HSET', KEYS[i], fields[i - 1], list and (list .. ',' .. entry) or entry)
end
redis.call('HINCRBY', meta, 'count', 1)
return {'added', tostring(id)}`,

  // REMOVE: KEYS[2..] buckets as QUERY's; ARGV[1] the id, ARGV[2] its text as the caller
  // read it, then the fields. Returns 1 when it removed the text, 0 when it was not stored.
  remove: `#!lua
${LUA_HELPERS}
local meta = KEYS[1]
local prefix = string.sub(meta, 1, -5)
local key = prefix .. 't:' .. ARGV[1]
if redis.call('GET', key) ~= ARGV[2] then return 0 end
local id = tonumber(ARGV[1])
for i = 2, #KEYS do
  local kept = {}
  for _, other in ipairs(ids(redis.call('HGET', KEYS[i], ARGV[i + 1]))) do
    if other ~= id then kept[#kept + 1] = b36(other) end
  end
  if #kept == 0 then redis.call('HDEL', KEYS[i], ARGV[i + 1]) else redis.call('HSET', KEYS[i], ARGV[i + 1], table.concat(kept, ',')) end
end
redis.call('DEL', key)
redis.call('HINCRBY', meta, 'count', -1)
return 1`,
};

const SHA = Object.fromEntries(Object.entries(SCRIPTS).map(([name, source]) => [name, createHash('sha1').update(source).digest('hex')]));

/**
 * One way to send a command with either client: node-redis (the npm package `redis`,
 * whose clients have sendCommand(args)) or ioredis (call(command, ...args)). Replies are
 * strings, numbers, arrays and null in both.
 */
function commandsOf(client) {
  if (client && typeof client.callBuffer === 'function' && typeof client.call === 'function') {
    return (args) => client.call(...args);
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
    if (count === 0) return [];
    const texts = [text];
    const a = new Uint32Array(count);
    const b = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      texts.push(flat[2 * i + 1]);
      b[i] = i + 1;
    }
    const similarities = this.#sh.similarities(texts, { a, b });
    const matches = [];
    for (let i = 0; i < count; i++) {
      if (similarities[i] >= this.#similarity) matches.push({ id: Number(flat[2 * i]), similarity: similarities[i], kind: 'duplicate' });
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
    return this.#added(await runScript(this.#send, 'add', [this.#keys.meta, ...buckets], [id === undefined ? '' : String(id), normalized, '', '', ...fields]), id);
  }

  #added(reply, id) {
    if (reply[0] === 'added') return Number(reply[1]);
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
        if (id !== undefined && Number(flat[i]) === id && flat[i + 1] === normalized) return { added: true, id };
      }
      matches.push(...this.#verify(text, flat));
      if (matches.length > 0) return { added: false, matches: matches.sort((x, y) => y.similarity - x.similarity || x.id - y.id) };
      for (let i = 0; i < flat.length; i += 2) known.push(flat[i]);
      const reply = await runScript(this.#send, 'add', keys, [id === undefined ? '' : String(id), normalized, 'if-new', known.join(','), ...fields]);
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
    return (await runScript(this.#send, 'remove', [this.#keys.meta, ...buckets], [String(id), stored, ...fields])) === 1;
  }

  async has(id) {
    checkInteger(id, 'id', 0, ID_MAX);
    return (await this.#send(['EXISTS', this.#keys.text(id)])) === 1;
  }

  async size() {
    return Number(await this.#send(['HGET', this.#keys.meta, 'count']));
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
