// The shared text index's side in Redis (redis/shared-index.js, docs/redis.md): the key layout and the
// id and key codes, the Lua scripts that read and write it, and sending commands and
// scripts through either client.
import { createHash } from 'node:crypto';
import { typeName } from '../core/checks.js';

/** What the meta hash's `magic` field holds in an index of this library. */
export const MAGIC = 'simhash-wasm text index';
/**
 * The key layout's version (docs/redis.md): 2 for an index without review; 3 with review,
 * which adds the review bands' buckets and the texts' sketches, and which a reader of
 * layout 2 must refuse.
 */
export const LAYOUT = '2';
export const REVIEW_LAYOUT = '3';
/**
 * The similarity's definition, per measure: how the texts are stored normalized; a change
 * of normalization changes it. 'text': as text index format 2 stores them (half-width
 * katakana folded); 'short': the list normalization of revision 4 (text_index_format.cpp
 * kListRevision: legal forms and traditional Han characters folded, CJK legal forms dropped,
 * legal forms of several words shortened, `(株)` written out, address counters dropped). Another
 * measure's value, so that a reader that knows only the text measure refuses a short index.
 */
export const DEFINITIONS = Object.freeze({ text: '2', short: 'short-4' });

/**
 * Numbers as fixed-width codes of 6 bits a character, so that a bucket is a string of
 * fixed-size records that Lua searches with string.find (docs/redis.md).
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const DIGIT_VALUE = new Map([...DIGITS].map((c, i) => [c, i]));
export const ID_WIDTH = 6; // 36 bits: every u32 id
const LOW_WIDTH = 3; // 18 bits: a band key's low 16
const RECORD = LOW_WIDTH + ID_WIDTH;

export function encode(value, width) {
  let out = '';
  for (let i = width - 1; i >= 0; i--) out += DIGITS[Math.floor(value / 2 ** (6 * i)) % 64];
  return out;
}

export function decode(code) {
  let value = 0;
  for (const c of code) value = value * 64 + DIGIT_VALUE.get(c);
  return value;
}

/**
 * Keys (docs/redis.md): every key of an index under one hash tag, {name}, so that a
 * Cluster keeps them in one slot and the scripts run unchanged there.
 *   simhash:{name}:meta        hash: magic, layout, definition, threshold, bands, next,
 *                              count; with review (layout 3) review and reviewBands too;
 *                              by the short measure measure ('short') and weights (the
 *                              weights' SHA-256, or 'none')
 *   simhash:{name}:w           string: by the short measure with weights, their bytes in
 *                              base64 (redis/weights.js), written once with the meta hash
 *   simhash:{name}:t:<id>      string: the stored text, normalized (id: its 6-character code)
 *   simhash:{name}:b:<hi>      string: the records (low 16 bits of the band key, 3
 *                              characters; id, 6) of the entries whose band key's high 16
 *                              bits are hi (base 36)
 *   simhash:{name}:r:<hi>      string: the same of the review bands' keys (layout 3)
 *   simhash:{name}:s:<id>      string: the text's distinct shingles (6 characters) and its
 *                              set's sketch (64 bytes in base64url, 86) (layout 3)
 */
export function keyNames(name) {
  const prefix = `simhash:{${name}}:`;
  return {
    meta: `${prefix}meta`,
    weights: `${prefix}w`,
    text: (id) => `${prefix}t:${encode(id, ID_WIDTH)}`,
    textPrefix: `${prefix}t:`,
    bucket: (key) => `${prefix}b:${(key >>> 16).toString(36)}`,
    reviewBucket: (key) => `${prefix}r:${(key >>> 16).toString(36)}`,
    field: (key) => encode(key & 0xffff, LOW_WIDTH),
  };
}

/** The sketch key's value: a text's distinct shingles and its set's sketch (64 bytes). */
export function sketchValue(shingles, sketch) {
  return encode(shingles, ID_WIDTH) + Buffer.from(sketch.buffer, sketch.byteOffset, sketch.byteLength).toString('base64url');
}

/** sketchValue's inverse: the shingles, and the sketch written into `into` at `at`. */
export function readSketch(value, into, at) {
  into.set(Buffer.from(value.slice(ID_WIDTH), 'base64url'), at);
  return decode(value.slice(0, ID_WIDTH));
}

// Each script takes KEYS[1] = the meta hash, then a bucket key per band key (repeated when
// two share one): the threshold's bands' then the review bands', and the band keys' low
// codes in ARGV, in the same order. Ids cross as their codes.
const LUA_HELPERS = `
local prefix = string.sub(KEYS[1], 1, -5)
-- MGET in slices: unpack takes at most about 8,000 values.
local function mget(keys)
  local out = {}
  for first = 1, #keys, 4000 do
    local got = redis.call('MGET', unpack(keys, first, math.min(#keys, first + 3999)))
    for i = 1, #got do out[first + i - 1] = got[i] end
  end
  return out
end
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
-- {id, text, id, text, ...} of the ids still stored, after head.
local function withTexts(ids, head)
  local out = head or {}
  if #ids == 0 then return out end
  local keys = {}
  for i, id in ipairs(ids) do keys[i] = prefix .. 't:' .. id end
  local texts = mget(keys)
  for i, id in ipairs(ids) do if texts[i] then out[#out + 1] = id; out[#out + 1] = texts[i] end end
  return out
end
-- {id, sketch, text, ...} of the ids still stored, after out's.
local function withSketches(ids, out)
  if #ids == 0 then return out end
  local keys = {}
  for i, id in ipairs(ids) do keys[2 * i - 1] = prefix .. 't:' .. id; keys[2 * i] = prefix .. 's:' .. id end
  local got = mget(keys)
  for i, id in ipairs(ids) do
    if got[2 * i - 1] then out[#out + 1] = id; out[#out + 1] = got[2 * i] or ''; out[#out + 1] = got[2 * i - 1] end
  end
  return out
end
-- The buckets KEYS[first, last] and their low codes, from ARGV[lowsAt] on.
local function buckets(first, last, lowsAt)
  if last < first then return {}, {} end
  local lows = {}
  for i = first, last do lows[#lows + 1] = ARGV[lowsAt + i - first] end
  return mget({unpack(KEYS, first, last)}), lows
end
`;

const SCRIPTS = {
  // OPEN: ARGV magic, layout, definition, threshold, bands, review, reviewBands (both ''
  // without review), measure, weights (both '' by the text measure, whose meta hash has
  // neither), the weights key's value ('' for none). Creates the meta hash (and the weights
  // key) when the key is free; returns the stored fields (magic, layout, definition,
  // threshold, bands, review, reviewBands, measure, weights), then by the short measure the
  // weights key's type and value; or {'not-hash', type} when the key holds something else.
  open: `#!lua
local meta = KEYS[1]
local weights = string.sub(meta, 1, -5) .. 'w'
local kind = redis.call('TYPE', meta)['ok']
if kind == 'none' then
  redis.call('HSET', meta, 'magic', ARGV[1], 'layout', ARGV[2], 'definition', ARGV[3], 'threshold', ARGV[4], 'bands', ARGV[5], 'next', '0', 'count', '0')
  if ARGV[6] ~= '' then redis.call('HSET', meta, 'review', ARGV[6], 'reviewBands', ARGV[7]) end
  if ARGV[8] ~= '' then redis.call('HSET', meta, 'measure', ARGV[8], 'weights', ARGV[9]) end
  if ARGV[10] ~= '' then redis.call('SET', weights, ARGV[10]) end
elseif kind ~= 'hash' then
  return {'not-hash', kind}
end
local out = redis.call('HMGET', meta, 'magic', 'layout', 'definition', 'threshold', 'bands', 'review', 'reviewBands', 'measure', 'weights')
if out[8] == 'short' then
  local weightsKind = redis.call('TYPE', weights)['ok']
  out[10] = weightsKind
  if weightsKind == 'string' then out[11] = redis.call('GET', weights) end
end
return out`,

  // QUERY: ARGV[1] the threshold's band keys B, then the low codes. Returns {n, id, text,
  // ...} of the n candidates of the threshold's bands, then {id, sketch, text, ...} of
  // those of the review bands alone: one MGET of the buckets, one of the texts (and sketches).
  query: `#!lua flags=no-writes
${LUA_HELPERS}
local B = tonumber(ARGV[1])
local near = idsIn(buckets(2, B + 1, 2))
local out = withTexts(near, {0})
out[1] = (#out - 1) / 2
if #KEYS > B + 1 then
  local seen = {}
  for _, id in ipairs(near) do seen[id] = true end
  local bucketsFar, lowsFar = buckets(B + 2, #KEYS, B + 2)
  withSketches(idsIn(bucketsFar, lowsFar, seen), out)
end
return out`,

  // ADD: ARGV[1] the id's code or '' for a fresh one, ARGV[2] the normalized text,
  // ARGV[3] 'if-new' to store only when every id in the threshold's buckets is among
  // ARGV[4] (the codes the caller verified, concatenated), ARGV[5] the threshold's band
  // keys B, ARGV[6] the sketch key's value ('' without review), then the low codes.
  // Returns {'added', id}, {'taken'} (that id is stored), {'no-fresh-id'}, or {'changed',
  // id, text, ...} for the ids the caller has not verified.
  add: `#!lua
${LUA_HELPERS}
local meta = KEYS[1]
local lows = {}
for i = 7, #ARGV do lows[#lows + 1] = ARGV[i] end
if ARGV[3] == 'if-new' then
  local known = {}
  for k = 1, #ARGV[4], ${ID_WIDTH} do known[string.sub(ARGV[4], k, k + ${ID_WIDTH - 1})] = true end
  local B = tonumber(ARGV[5])
  local bucketsNear, lowsNear = buckets(2, B + 1, 7)
  local out = withTexts(idsIn(bucketsNear, lowsNear, known), {'changed'})
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
if ARGV[6] ~= '' then redis.call('SET', prefix .. 's:' .. id, ARGV[6]) end
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
redis.call('DEL', key, prefix .. 's:' .. ARGV[1])
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
export function commandsOf(client) {
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
export async function runScript(send, name, keys, args) {
  try {
    return await send(['EVALSHA', SHA[name], String(keys.length), ...keys, ...args]);
  } catch (error) {
    if (!/NOSCRIPT/.test(error?.message)) throw error;
    return send(['EVAL', SCRIPTS[name], String(keys.length), ...keys, ...args]);
  }
}
