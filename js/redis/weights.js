// The short measure's word weights as the shared index keeps them beside its keys
// (docs/redis.md "Keys"): simhash:{name}:w holds their bytes in base64 and the meta hash's
// `weights` field their SHA-256 (or 'none'), both written by OPEN in the script that creates
// the index, never again. Every process that opens the index reads them back and checks
// them against that digest, so that every process weighs by the same words, or none opens.
import { createHash } from 'node:crypto';

/** The meta hash's `weights` field of a short-measure index without word weights. */
export const NO_WEIGHTS = 'none';

/**
 * The bytes of WordWeights (or null for none), little-endian as the text index format
 * writes them (docs/formats.md): u32 texts · u32 words · words × (u64 hash, u32 count).
 */
export function weightsBytes(weights) {
  if (weights === null) return null;
  const { texts, hashes, counts } = weights.toData();
  const bytes = new Uint8Array(8 + 12 * hashes.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, texts, true);
  view.setUint32(4, hashes.length, true);
  for (let i = 0, at = 8; i < hashes.length; i++, at += 12) {
    view.setBigUint64(at, hashes[i], true);
    view.setUint32(at + 8, counts[i], true);
  }
  return bytes;
}

/** The meta hash's `weights` field for weightsBytes' bytes: their SHA-256 in hex, or NO_WEIGHTS. */
export function weightsField(bytes) {
  return bytes === null ? NO_WEIGHTS : createHash('sha256').update(bytes).digest('hex');
}

/** The bytes' weights as the errors name them: 'none', or their texts, words and digest. */
export function describeWeights(bytes) {
  if (bytes === null) return 'none';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return `${view.getUint32(0, true)} texts and ${view.getUint32(4, true)} words, SHA-256 ${weightsField(bytes).slice(0, 16)}`;
}

/**
 * The stored weights, checked: { weights: WordWeights or null, bytes }. `field` is the meta
 * hash's `weights` field, `type` and `value` what OPEN read of the key `key`. Anything that
 * is not the weights the field names (a missing field or key, a key of another type, bytes
 * that are not base64 of weights, another digest, data out of WordWeights' contract) is an
 * Error naming the index, the key and what is wrong.
 */
export function readWeights(sh, name, key, field, type, value) {
  const damaged = (what) => new Error(`the word weights of the index ${name} are damaged: ${what}; the index cannot be opened`);
  if (field === null || field === undefined || field === '') throw damaged('its meta hash has no weights field');
  if (field === NO_WEIGHTS) return { weights: null, bytes: null };
  if (type === 'none') throw damaged(`${key} is missing (the meta hash names weights of SHA-256 ${field.slice(0, 16)})`);
  if (type !== 'string') throw damaged(`${key} holds a ${type}, not a string`);
  const bytes = new Uint8Array(Buffer.from(value, 'base64'));
  if (Buffer.from(bytes).toString('base64') !== value) throw damaged(`${key} is not base64`);
  const words = bytes.length >= 8 ? new DataView(bytes.buffer).getUint32(4, true) : -1;
  if (bytes.length !== 8 + 12 * words) throw damaged(`${key} holds ${bytes.length} bytes, not 8 + 12 per word of weights`);
  const digest = weightsField(bytes);
  if (digest !== field) throw damaged(`${key} has SHA-256 ${digest.slice(0, 16)}, where the meta hash names ${field.slice(0, 16)}`);
  const view = new DataView(bytes.buffer);
  const hashes = new BigUint64Array(words);
  const counts = new Uint32Array(words);
  for (let i = 0, at = 8; i < words; i++, at += 12) {
    hashes[i] = view.getBigUint64(at, true);
    counts[i] = view.getUint32(at + 8, true);
  }
  try {
    return { weights: sh.loadWeights({ texts: view.getUint32(0, true), hashes, counts }), bytes };
  } catch (error) {
    throw damaged(`${key}: ${error.message}`);
  }
}
