// Hostile and broken input from JS: every case is a clear TypeError/RangeError/Error,
// never a crash or a hang, and the instance keeps working afterwards.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sh } from './helpers.js';

const REFERENCE = sh.fingerprint('the instance still works');

/** A test name for any value, symbols and bigints included. */
function describeValue(value) {
  if (typeof value === 'symbol' || typeof value === 'function' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (value instanceof String) return 'a String object';
  return JSON.stringify(value) ?? String(value);
}

function stillWorks() {
  assert.equal(sh.fingerprint('the instance still works'), REFERENCE);
  const index = sh.createIndex();
  index.add(REFERENCE, 1);
  assert.deepEqual(index.query(REFERENCE), [{ id: 1, distance: 0 }]);
  index.dispose();
}

const NOT_STRINGS = [null, undefined, 42, 1n, {}, { toString: () => 'x' }, [], Symbol('s'), () => 'x', new String('boxed')];
const NOT_FINGERPRINTS = [null, undefined, 1, '1', {}, [], Symbol('s'), 1.5];
const BAD_DISTANCES = [NaN, Infinity, -Infinity, -1, 1.5, 65, 2 ** 53, Number.MAX_VALUE];
const BAD_BIGINTS = [-1n, 1n << 64n, -(1n << 63n), (1n << 64n) + 5n];

describe('wrong types are TypeErrors naming the argument', () => {
  for (const value of NOT_STRINGS) {
    test(`text ${describeValue(value)}`, () => {
      assert.throws(() => sh.fingerprint(value), (e) => e instanceof TypeError && /^text must be a string/.test(e.message));
      assert.throws(() => sh.fingerprintAll(['ok', value]), (e) => e instanceof TypeError && /texts\[1\] must be a string/.test(e.message));
      const texts = sh.createTextIndex();
      assert.throws(() => texts.add(value), (e) => e instanceof TypeError && /^text must be a string/.test(e.message));
      assert.throws(() => texts.query(value), (e) => e instanceof TypeError && /^text must be a string/.test(e.message));
      assert.throws(() => texts.addAll(['ok', value]), (e) => e instanceof TypeError && /^texts\[1\] must be a string/.test(e.message));
      assert.equal(texts.size, 0);
      texts.dispose();
      stillWorks();
    });
  }
  for (const value of NOT_FINGERPRINTS) {
    test(`fingerprint ${describeValue(value)}`, () => {
      assert.throws(() => sh.distance(value, 0n), TypeError);
      assert.throws(() => sh.toHex(value), TypeError);
      assert.throws(() => sh.findPairs([0n, value], 3), /fingerprints\[1\] must be a bigint/);
      const index = sh.createIndex();
      assert.throws(() => index.add(value), TypeError);
      assert.throws(() => index.query(value), TypeError);
      index.dispose();
      stillWorks();
    });
  }
  test('arrays with holes', () => {
    // eslint-disable-next-line no-sparse-arrays
    assert.throws(() => sh.fingerprintAll(['a', , 'b']), /texts\[1\] must be a string, got undefined/);
    // eslint-disable-next-line no-sparse-arrays
    assert.throws(() => sh.findPairs([1n, , 2n], 3), /fingerprints\[1\] must be a bigint/);
    // eslint-disable-next-line no-sparse-arrays
    assert.throws(() => sh.fingerprintTokens(['a', , 'b']), /tokens\[1\] must be a string/);
    stillWorks();
  });
  test('the wrong typed-array kinds', () => {
    assert.throws(() => sh.findPairs(new BigInt64Array(3), 3), /fingerprints must be a BigUint64Array/);
    assert.throws(() => sh.findPairs(new Float64Array(3), 3), TypeError);
    assert.throws(() => sh.fingerprintAll(new Uint8Array(3)), /texts must be an array/);
    assert.throws(() => sh.fingerprintTokens(['a'], new Float32Array(1)), /weights must be an array of numbers or a Float64Array/);
    assert.throws(() => sh.loadIndex(new Uint16Array(4)), /bytes must be a Uint8Array/);
    const index = sh.createIndex();
    assert.throws(() => index.addAll([1n], new Int32Array(1)), /ids must be a Uint32Array/);
    index.dispose();
    assert.throws(() => sh.loadTextIndex(new Uint16Array(4)), { name: 'TypeError', message: 'bytes must be a Uint8Array, got Uint16Array' });
    assert.throws(() => sh.loadTextIndex([83, 72, 84, 88]), { name: 'TypeError', message: 'bytes must be a Uint8Array, got an array' });
    const texts = sh.createTextIndex();
    assert.throws(() => texts.addAll('a'), { name: 'TypeError', message: 'texts must be an array of strings, got string' });
    assert.throws(() => texts.addAll(['a'], new Int32Array(1)), { name: 'TypeError', message: 'ids must be a Uint32Array or an array of numbers, got Int32Array' });
    assert.throws(() => texts.addAll(['a'], ['1']), { name: 'TypeError', message: 'ids[0] must be a number, got string' });
    texts.dispose();
    stillWorks();
  });
  test('text index arguments', () => {
    assert.throws(() => sh.createTextIndex(0.8), { name: 'TypeError', message: 'init must be an object, got number' });
    assert.throws(() => sh.createTextIndex(null), { name: 'TypeError', message: 'init must be an object, got null' });
    assert.throws(() => sh.createTextIndex({ threshold: 0.8 }), { name: 'TypeError', message: /^init.threshold is not an option/ });
    assert.throws(() => sh.createTextIndex({ similarity: '0.8' }), { name: 'TypeError', message: 'init.similarity must be a number, got string' });
    assert.throws(() => sh.createTextIndex({ options: 'chars' }), { name: 'TypeError', message: 'options must be an object, got string' });
    assert.throws(() => sh.createTextIndex({ options: { caseFold: 1 } }), { name: 'TypeError', message: 'options.caseFold must be a boolean, got number' });
    const texts = sh.createTextIndex();
    texts.add('stored');
    assert.throws(() => texts.query('stored', 3), { name: 'TypeError', message: 'options must be an object, got number' });
    assert.throws(() => texts.query('stored', { max: 3 }), { name: 'TypeError', message: /^options.max is not an option/ });
    assert.throws(() => texts.query('stored', { limit: '3' }), { name: 'TypeError', message: 'options.limit must be a number, got string' });
    for (const id of [null, '1', 1n, {}]) {
      assert.throws(() => texts.add('x', id), { name: 'TypeError', message: /^id must be a number/ });
      assert.throws(() => texts.remove(id), { name: 'TypeError', message: /^id must be a number/ });
      assert.throws(() => texts.has(id), { name: 'TypeError', message: /^id must be a number/ });
    }
    assert.equal(texts.size, 1);
    assert.deepEqual(texts.query('stored'), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
    texts.dispose();
    stillWorks();
  });
});

describe('out-of-range values are RangeErrors', () => {
  for (const k of BAD_DISTANCES) {
    test(`maxDistance ${k}`, async () => {
      assert.throws(() => sh.findPairs([1n, 2n], k), RangeError);
      assert.throws(() => sh.createIndex({ maxDistance: k }), RangeError);
      await assert.rejects(sh.dedup(['a'], { maxDistance: k }), RangeError);
      stillWorks();
    });
  }
  for (const value of BAD_BIGINTS) {
    test(`bigint ${value}`, () => {
      assert.throws(() => sh.distance(value, 0n), RangeError);
      assert.throws(() => sh.findPairs([value], 3), RangeError);
      const index = sh.createIndex();
      assert.throws(() => index.add(value), RangeError);
      index.dispose();
      stillWorks();
    });
  }
  test('ids and n-gram sizes', () => {
    const index = sh.createIndex();
    for (const id of [-1, 2 ** 32, 1.5, NaN]) assert.throws(() => index.add(1n, id), RangeError);
    index.dispose();
    for (const n of [0, 17, 2.5, Infinity]) assert.throws(() => sh.fingerprint('x', { charNgram: n }), RangeError);
    stillWorks();
  });
  test('text index ids, thresholds, limits and options', () => {
    const texts = sh.createTextIndex();
    texts.add('stored');
    for (const id of [-1, 2 ** 32, 2 ** 53, 1.5, NaN, Infinity, -0.5]) {
      const named = (name) => (e) => e instanceof RangeError && e.message === `${name} must be an integer from 0 to 4294967295, got ${id}`;
      assert.throws(() => texts.add('x', id), named('id'));
      assert.throws(() => texts.remove(id), named('id'));
      assert.throws(() => texts.has(id), named('id'));
      assert.throws(() => texts.addAll(['x', 'y'], [1, id]), named('ids[1]'));
    }
    assert.throws(() => texts.addAll(['x', 'y'], [1]), { name: 'RangeError', message: 'ids has 1 entries but texts has 2' });
    for (const limit of [0, -1, 1.5, NaN, Infinity, 2 ** 32]) {
      assert.throws(() => texts.query('stored', { limit }), (e) => e instanceof RangeError && e.message.startsWith('options.limit must be an integer from 1 to 4294967295'));
    }
    for (const similarity of [0, -0.1, 1.01, NaN, Infinity, -Infinity]) {
      assert.throws(() => sh.createTextIndex({ similarity }), { name: 'RangeError', message: `init.similarity must be above 0 and at most 1, got ${similarity}` });
    }
    assert.throws(() => sh.createTextIndex({ options: { tokenizer: 'letters' } }), (e) => e instanceof RangeError && /^options.tokenizer must be one of/.test(e.message));
    assert.throws(() => sh.createTextIndex({ options: { charNgram: 0 } }), RangeError);
    assert.equal(texts.size, 1);
    assert.deepEqual(texts.query('stored'), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
    texts.dispose();
    stillWorks();
  });
  test('a failed text index add or addAll leaves the size, the ids and the WASM heap as they were', () => {
    const texts = sh.createTextIndex();
    texts.addAll(['first text', 'second text', 'third text']);
    texts.add('a text under a chosen id', 100);
    texts.query('warm the scratch up');
    const ids = () => [0, 1, 2, 3, 100, 101].filter((id) => texts.has(id));
    const failures = [
      [() => texts.add('first text again', 1), /^id 1 is already stored/],
      [() => texts.add('x'.repeat(100_000), 100), /^id 100 is already stored/],
      [() => texts.addAll(['new one', 'new two'], [101, 2]), /^ids\[1\] = 2 is already stored/],
      [() => texts.addAll(['new one', 'new two', 'new three'], [101, 102, 101]), /^ids\[2\] = 101 repeats ids\[0\]/],
      [() => texts.addAll(['new one', 5]), /^texts\[1\] must be a string/],
      [() => texts.addAll(['new one', 'new two'], [101, -1]), /^ids\[1\] must be an integer/],
    ];
    // A first round settles the allocator's free lists (a freed chunk may come back a few
    // bytes larger, and bytes in use count that).
    for (const [fail] of failures) assert.throws(fail);
    const before = sh.heapBytesInUse;
    for (const [fail, message] of failures) {
      assert.throws(fail, { message });
      assert.equal(texts.size, 4);
      assert.deepEqual(ids(), [0, 1, 2, 100]);
      assert.equal(sh.heapBytesInUse, before, String(message));
    }
    assert.equal(texts.add('next'), 3, 'the id counter did not move');
    texts.dispose();
    stillWorks();
  });
});

describe('big and degenerate inputs', () => {
  test('a 50 MB string', () => {
    const big = 'near duplicate detection at scale, '.repeat(Math.ceil(50e6 / 35)).slice(0, 50e6);
    const fp = sh.fingerprint(big);
    assert.equal(fp, sh.fingerprint(big), 'deterministic');
    assert.equal(sh.fingerprint(big.slice(0, 1e6)), fp, 'the same distinct words (binary weighting)');
    stillWorks();
  });

  test('1,000,000 empty strings', () => {
    const fps = sh.fingerprintAll(new Array(1_000_000).fill(''));
    assert.equal(fps.length, 1_000_000);
    const blank = sh.fingerprint('');
    assert.ok(fps.every((fp) => fp === blank));
    stillWorks();
  });

  test('lone surrogates and unpaired halves', () => {
    for (const text of ['\uD800', '\uDC00', 'a\uDBFFb', '\uDC00\uD800', '\uD83D']) {
      assert.equal(typeof sh.fingerprint(text), 'bigint');
      assert.equal(sh.fingerprint(text), sh.fingerprint(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
    }
    stillWorks();
  });

  test('a disposed index, used and disposed again', () => {
    const index = sh.createIndex();
    index.add(1n);
    index.dispose();
    for (const use of [() => index.add(1n), () => index.query(1n), () => index.remove(0), () => index.size, () => index.serialize(), () => index.clear()]) {
      assert.throws(use, /this index has been disposed/);
    }
    index.dispose();
    stillWorks();
  });

  test('a throwing key function and a throwing progress callback reject dedup cleanly', async () => {
    await assert.rejects(sh.dedup([{}], { key: () => { throw new Error('key failed'); } }), /key failed/);
    await assert.rejects(sh.dedup(['a'], { onProgress: () => { throw new Error('progress failed'); } }), /progress failed/);
    const before = sh.heapBytesInUse;
    stillWorks();
    assert.equal(sh.heapBytesInUse, before);
  });
});
