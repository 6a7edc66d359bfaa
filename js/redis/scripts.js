// The shared text index's side in Redis (redis/shared-index.js, docs/redis.md): the key layout and the
// id and key codes, the Lua scripts that read and write it, and sending commands and
// scripts through either client.
import { createHash } from 'node:crypto';
import { typeName } from '../core/checks.js';

/** What the meta hash's `magic` field holds in an index of this library. */
export const MAGIC = 'simhash-wasm text index';
/** The key layout and scripts' version (docs/redis.md). */
export const LAYOUT = '2';
/**
 * The similarity's definition: texts are stored normalized as text index format 2 stores
 * them (half-width katakana folded); a change of normalization changes it.
 */
export const DEFINITION = '2';

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
 *   simhash:{name}:meta        hash: magic, layout, definition, threshold, bands, next, count
 *   simhash:{name}:t:<id>      string: the stored text, normalized (id: its 6-character code)
 *   simhash:{name}:b:<hi>      string: the records (low 16 bits of the band key, 3
 *                              characters; id, 6) of the entries whose band key's high 16
 *                              bits are hi (base 36)
 */
export function keyNames(name) {
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
