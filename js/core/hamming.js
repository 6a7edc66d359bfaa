// Fingerprint arithmetic that needs no WASM: distance, hex, fingerprint arrays.
import { checkFingerprint, typeName } from './checks.js';

function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Number of differing bits of two 64-bit fingerprints. */
export function distance(a, b) {
  const x = checkFingerprint(a, 'a') ^ checkFingerprint(b, 'b');
  return popcount32(Number(x & 0xffffffffn)) + popcount32(Number(x >> 32n));
}

/** 16 lowercase hex digits. */
export function toHex(fingerprint) {
  return checkFingerprint(fingerprint, 'fingerprint').toString(16).padStart(16, '0');
}

/** The fingerprint of 1 to 16 hex digits. */
export function fromHex(hex) {
  if (typeof hex !== 'string') throw new TypeError(`hex must be a string, got ${typeName(hex)}`);
  if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) throw new RangeError(`hex must be 1 to 16 hex digits, got "${hex}"`);
  return BigInt('0x' + hex);
}

/** A BigUint64Array of fingerprints from a BigUint64Array or an array of bigints. */
export function toFingerprintArray(fingerprints, name) {
  if (fingerprints instanceof BigUint64Array) return fingerprints;
  if (!Array.isArray(fingerprints)) {
    throw new TypeError(`${name} must be a BigUint64Array or an array of bigints, got ${typeName(fingerprints)}`);
  }
  const out = new BigUint64Array(fingerprints.length);
  for (let i = 0; i < fingerprints.length; i++) out[i] = checkFingerprint(fingerprints[i], `${name}[${i}]`);
  return out;
}
