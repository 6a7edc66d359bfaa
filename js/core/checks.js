// Argument checks shared by every module: each names the argument it rejects, so bad
// input becomes a TypeError/RangeError that says what to fix before anything reaches WASM.
// No imports, so the CommonJS entry can be generated from this file.

export const U64_MAX = (1n << 64n) - 1n;

/** A value's kind, for messages: 'null', 'an array', 'string', 'Map', ... */
export function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}

/** A number, else a TypeError naming `name`. */
export function checkNumber(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeName(value)}`);
  return value;
}

export function checkInteger(value, name, min, max) {
  if (!Number.isInteger(checkNumber(value, name)) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

export function checkFingerprint(value, name) {
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a bigint, got ${typeName(value)}`);
  if (value < 0n || value > U64_MAX) throw new RangeError(`${name} must be an unsigned 64-bit bigint, got ${value}`);
  return value;
}

/** An options object: undefined becomes {}, anything but a plain object is a TypeError. */
export function checkObject(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object') throw new TypeError(`${name} must be an object, got ${typeName(value)}`);
  return value;
}

/** Rejects keys of an options object that are not in `known`. */
export function checkKnownKeys(value, name, known) {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new TypeError(`${name}.${key} is not an option (known: ${known.join(', ')})`);
  }
}

/** A text argument: a string, else a TypeError naming it. */
export function checkText(text, name) {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string, got ${typeName(text)}`);
  return text;
}

/** An array of texts: an array, else a TypeError naming it (its items are checked as they are read). */
export function checkTextArray(texts, name) {
  if (!Array.isArray(texts)) throw new TypeError(`${name} must be an array of strings, got ${typeName(texts)}`);
  return texts;
}

/**
 * Checks pairs { a: Uint32Array, b: Uint32Array, distance?: Uint8Array } (as findPairs
 * returns them): arrays of one length, every index below `count` (named `countName`).
 */
export function checkPairIndices(pairs, count, countName) {
  if (pairs === null || typeof pairs !== 'object' || !(pairs.a instanceof Uint32Array) || !(pairs.b instanceof Uint32Array)) {
    throw new TypeError(`pairs must be { a: Uint32Array, b: Uint32Array, distance?: Uint8Array } as findPairs returns, got ${typeName(pairs)}`);
  }
  if (pairs.b.length !== pairs.a.length || (pairs.distance !== undefined && pairs.distance.length !== pairs.a.length)) {
    throw new RangeError('pairs.a, pairs.b and pairs.distance must have the same length');
  }
  for (let i = 0; i < pairs.a.length; i++) {
    if (pairs.a[i] >= count || pairs.b[i] >= count) throw new RangeError(`pairs[${i}] must name items below ${countName} (${count}), got (${pairs.a[i]}, ${pairs.b[i]})`);
  }
}
