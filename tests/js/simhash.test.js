import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sh, plantedSet, random64, flipBits, disposing } from './helpers.js';
import { init } from '../../js/node.js';
import { SAMPLE } from '../../js/cli/sample.js';
import { jaccard } from './similarity-reference.js';
import { existsSync } from 'node:fs';
import { FORTUNES_DIR, loadChinese, loadEnglish } from '../bench/quality/corpora.js';

function bruteForcePairs(fps, k) {
  const out = [];
  for (let a = 0; a < fps.length; a++) {
    for (let b = a + 1; b < fps.length; b++) {
      const d = sh.distance(fps[a], fps[b]);
      if (d <= k) out.push([a, b, d]);
    }
  }
  return out;
}

describe('fingerprints', () => {
  test('init returns one shared instance', async () => {
    assert.equal(await init(), sh);
  });

  test('fingerprintAll equals fingerprint for each text, across batch slices', () => {
    const texts = [];
    for (let i = 0; i < 3000; i++) texts.push(`item ${i} ${'词'.repeat(i % 7)} text ${i % 13}`);
    texts.push('x'.repeat(3_000_000), '', '中'.repeat(1_500_000)); // forces several 4M-character slices
    const all = sh.fingerprintAll(texts);
    assert.equal(all.length, texts.length);
    for (let i = 0; i < texts.length; i += 97) assert.equal(all[i], sh.fingerprint(texts[i]));
    assert.equal(all[texts.length - 2], 0x2d06800538d394c2n); // blank: XXH3 of the empty feature
  });

  test('blank texts share one fingerprint, away from real texts and from other featureless ones',
    { skip: !existsSync(`${FORTUNES_DIR}/chinese`) && 'needs fortunes and fortunes-zh' }, (t) => {
      const blank = sh.fingerprint('');
      for (const text of [' ', '\t\n', '\u3000', '\r\n\u00a0']) assert.equal(sh.fingerprint(text), blank, JSON.stringify(text));
      for (const text of ['。', '！？', '...', '😀', '🎉👍', '♥♥']) assert.ok(sh.distance(sh.fingerprint(text), blank) > 12, text);
      const fps = sh.fingerprintAll([...loadEnglish().records, ...loadChinese().records]);
      const within12 = (fp) => fps.reduce((n, x) => n + (sh.distance(x, fp) <= 12 ? 1 : 0), 0);
      // Fingerprint 0, what blank texts had before format 4, is near texts whose few features
      // leave most bits tied; the empty feature's hash is as far from them as any text.
      const nearZero = within12(0n);
      const nearBlank = within12(blank);
      t.diagnostic(`within 12 bits, of ${fps.length} fortunes: ${nearZero} of 0, ${nearBlank} of the blank fingerprint`);
      assert.ok(nearZero >= 5, `${nearZero} of ${fps.length} texts within 12 bits of 0`);
      assert.ok(nearBlank <= 2, `${nearBlank} of ${fps.length} texts within 12 bits of the blank fingerprint`);
    });

  test('near-duplicate Chinese sentences are close, unrelated ones ~32 bits apart', () => {
    const near = sh.distance(sh.fingerprint('你妈妈喊你回家吃饭哦，回家罗回家罗'), sh.fingerprint('你妈妈叫你回家吃饭啦，回家罗回家罗'));
    let total = 0;
    for (let i = 0; i < 200; i++) total += sh.distance(sh.fingerprint(`random text number ${i} about ${i * 7}`), sh.fingerprint(`完全不同的内容 ${i}`));
    assert.ok(near < 16, `near = ${near}`);
    assert.ok(total / 200 > 26, `unrelated mean = ${total / 200}`);
  });

  test('options change features as documented', () => {
    assert.equal(sh.fingerprint('Hello World'), sh.fingerprint('hello world'));
    assert.notEqual(sh.fingerprint('Hello World', { caseFold: false }), sh.fingerprint('hello world', { caseFold: false }));
    assert.equal(sh.fingerprint('a b b b c'), sh.fingerprintTokens(['a', 'b', 'c']), 'binary, the default');
    assert.equal(sh.fingerprint('a b b b c', { weighting: 'tf' }), sh.fingerprintTokens(['a', 'b', 'c'], [1, 3, 1]));
    assert.equal(sh.fingerprintTokens([]), 0n);
  });

  test('lone surrogates are encoded as U+FFFD, never a crash', () => {
    assert.equal(sh.fingerprint('ab\uD800cd'), sh.fingerprint('ab\uFFFDcd'));
    assert.equal(sh.fingerprint('ab\uD800cd'), sh.fingerprint('ab cd'));
  });

  test('distance, toHex and fromHex', () => {
    assert.equal(sh.distance(0n, (1n << 64n) - 1n), 64);
    assert.equal(sh.distance(0b1011n, 0b0001n), 2);
    assert.equal(sh.toHex(255n), '00000000000000ff');
    assert.equal(sh.fromHex('ffffffffffffffff'), (1n << 64n) - 1n);
    const fp = sh.fingerprint('round trip');
    assert.equal(sh.fromHex(sh.toHex(fp)), fp);
  });
});

describe('exact search equals brute force', () => {
  for (const k of [0, 1, 3, 6, 10]) {
    test(`findPairs, k = ${k}`, () => {
      const fps = plantedSet(150, k + 2, 1000 + k);
      fps.push(fps[0]);
      const got = sh.findPairs(fps, k);
      const expected = bruteForcePairs(fps, k);
      assert.equal(got.a.length, expected.length);
      assert.deepEqual(expected.map((p, i) => [got.a[i], got.b[i], got.distance[i]]), expected);
      const seen = new Set(got.distance);
      for (let d = 0; d <= k; d++) assert.ok(seen.has(d), `distance ${d} is planted`);
    });

    test(`findPairs over repeated fingerprints and shared halves, k = ${k}`, () => {
      // Equal fingerprints are searched once and expanded: copies, values equal in one
      // 32-bit half only, zero, and a view that starts inside its buffer.
      const base = plantedSet(60, k + 2, 3000 + k);
      const all = [0n, 0n, 1n << 32n, 1n, ...base, ...base.slice(0, 20), (base[1] & 0xffffffffn) | (base[2] & ~0xffffffffn)];
      const buffer = new BigUint64Array(all.length + 3);
      buffer.set(all, 3);
      const fps = buffer.subarray(3);
      const got = sh.findPairs(fps, k);
      const expected = bruteForcePairs(all, k);
      assert.deepEqual(expected.map((p, i) => [got.a[i], got.b[i], got.distance[i]]), expected);
      assert.equal(got.a.length, expected.length);
    });

    test(`index query, k = ${k}`, (t) => {
      const fps = plantedSet(300, k + 2, 2000 + k);
      const index = disposing(t, sh.createIndex({ maxDistance: k }));
      const ids = index.addAll(fps);
      assert.deepEqual([...ids], fps.map((_, i) => i));
      const next = random64(k);
      for (let i = 0; i < fps.length; i += 7) {
        const q = flipBits(fps[i], Number(next() % BigInt(k + 3)), next);
        const expected = fps
          .map((fp, id) => ({ id, distance: sh.distance(q, fp) }))
          .filter((m) => m.distance <= k)
          .sort((x, y) => x.distance - y.distance || x.id - y.id);
        assert.deepEqual(index.query(q), expected);
      }
    });
  }
});

describe('index', () => {
  test('add, remove, clear, size', (t) => {
    const index = disposing(t, sh.createIndex({ maxDistance: 2 }));
    assert.equal(index.maxDistance, 2);
    assert.equal(index.add(0b111n, 10), 10);
    assert.equal(index.add(0b110n), 0); // a caller's id does not move the fresh ids
    assert.equal(index.size, 2);
    assert.deepEqual(index.query(0b111n), [{ id: 10, distance: 0 }, { id: 0, distance: 1 }]);
    assert.equal(index.remove(10), true);
    assert.equal(index.remove(10), false);
    assert.deepEqual(index.query(0b111n), [{ id: 0, distance: 1 }]);
    index.clear();
    assert.equal(index.size, 0);
    assert.deepEqual(index.query(0b111n), []);
  });

  test('a duplicate id in addAll adds nothing and says which', (t) => {
    const index = disposing(t, sh.createIndex());
    index.add(1n, 5);
    assert.throws(() => index.addAll([2n, 3n, 4n], [6, 5, 7]), { name: 'Error', message: /ids\[1\] = 5 is already stored/ });
    assert.equal(index.size, 1);
    assert.throws(() => index.addAll([2n, 3n], [8, 8]), /ids\[1\] = 8 repeats ids\[0\]/);
    assert.equal(index.size, 1);
    assert.deepEqual([...index.addAll([2n, 3n], [8, 9])], [8, 9]);
  });

  test('serialize and loadIndex round-trip', (t) => {
    const fps = plantedSet(100, 4, 77);
    const index = disposing(t, sh.createIndex({ maxDistance: 4 }));
    index.addAll(fps, fps.map((_, i) => i * 3));
    index.remove(0);
    const bytes = index.serialize();
    const restored = disposing(t, sh.loadIndex(bytes));
    assert.equal(restored.size, index.size);
    assert.equal(restored.maxDistance, 4);
    for (const fp of fps.slice(0, 50)) assert.deepEqual(restored.query(fp), index.query(fp));
    assert.deepEqual(restored.serialize(), bytes);
  });

  test('every truncation and byte flip of serialized bytes is a descriptive Error', (t) => {
    const index = disposing(t, sh.createIndex({ maxDistance: 3 }));
    const fps = plantedSet(5, 3, 9);
    index.addAll(fps);
    const bytes = index.serialize();
    for (let length = 0; length < bytes.length; length++) {
      assert.throws(() => sh.loadIndex(bytes.slice(0, length)), { name: 'Error', message: /invalid serialized index: truncated/ });
    }
    for (let pos = 0; pos < bytes.length; pos++) {
      const bad = bytes.slice();
      bad[pos] ^= 0x20;
      assert.throws(() => sh.loadIndex(bad), { name: 'Error', message: /invalid serialized index/ });
    }
    assert.equal(index.size, 25); // the instance and the index still work
    assert.deepEqual(index.query(fps[0])[0], { id: 0, distance: 0 });
    const reloaded = disposing(t, sh.loadIndex(bytes));
    assert.deepEqual(reloaded.query(fps[0])[0], { id: 0, distance: 0 });
  });

  test('a disposed index refuses use with an Error', () => {
    const index = sh.createIndex();
    index.add(1n);
    index.dispose();
    index.dispose(); // idempotent
    assert.throws(() => index.query(1n), { name: 'Error', message: /disposed/ });
    assert.throws(() => index.size, /disposed/);
  });
});

describe('bad input', () => {
  const cases = [
    ['fingerprint(5)', () => sh.fingerprint(5), TypeError, /text must be a string/],
    ['fingerprint(null)', () => sh.fingerprint(null), TypeError, /text/],
    ['fingerprintAll("x")', () => sh.fingerprintAll('x'), TypeError, /texts must be an array/],
    ['fingerprintAll with a hole', () => sh.fingerprintAll(['a', , 'b']), TypeError, /texts\[1\]/], // eslint-disable-line no-sparse-arrays
    ['unknown option', () => sh.fingerprint('a', { tokeniser: 'x' }), TypeError, /options.tokeniser is not an option/],
    ['bad tokenizer', () => sh.fingerprint('a', { tokenizer: 'magic' }), RangeError, /options.tokenizer/],
    ['n-gram 0', () => sh.fingerprint('a', { wordNgram: 0 }), RangeError, /options.wordNgram/],
    ['n-gram 1.5', () => sh.fingerprint('a', { charNgram: 1.5 }), RangeError, /options.charNgram/],
    ['weights NaN', () => sh.fingerprintTokens(['a'], [NaN]), RangeError, /weights\[0\] must be finite/],
    ['weights length', () => sh.fingerprintTokens(['a'], [1, 2]), RangeError, /weights has 2 entries/],
    ['distance(1, 2)', () => sh.distance(1, 2), TypeError, /a must be a bigint/],
    ['distance(-1n)', () => sh.distance(-1n, 0n), RangeError, /unsigned 64-bit/],
    ['distance(2^64)', () => sh.distance(0n, 1n << 64n), RangeError, /b must be an unsigned 64-bit/],
    ['fromHex("xyz")', () => sh.fromHex('xyz'), RangeError, /hex/],
    ['maxDistance -1', () => sh.createIndex({ maxDistance: -1 }), RangeError, /options.maxDistance/],
    ['maxDistance NaN', () => sh.findPairs([1n], NaN), RangeError, /maxDistance/],
    ['maxDistance 65', () => sh.findPairs([1n], 65), RangeError, /maxDistance/],
    ['maxDistance "3"', () => sh.findPairs([1n], '3'), TypeError, /maxDistance must be a number/],
    ['findPairs(Uint32Array)', () => sh.findPairs(new Uint32Array(3), 3), TypeError, /fingerprints must be a BigUint64Array/],
    ['findPairs([1])', () => sh.findPairs([1], 3), TypeError, /fingerprints\[0\] must be a bigint/],
    ['loadIndex([])', () => sh.loadIndex([]), TypeError, /bytes must be a Uint8Array/],
    ['add id -1', () => sh.createIndex().add(1n, -1), RangeError, /id must be an integer/],
  ];
  for (const [name, call, type, message] of cases) {
    test(name, () => {
      assert.throws(call, (error) => error instanceof type && message.test(error.message));
      assert.equal(sh.toHex(sh.fingerprint('still works')), sh.toHex(sh.fingerprint('Still works!')));
    });
  }
});

describe('dedup', () => {
  const items = ['the cat sat on the mat', 'The cat sat on the mat!', 'a completely different sentence', 'the cat sat on the mat'];

  const rejections = [
    ['grouping', () => sh.dedup([], { grouping: 'x' }), RangeError, /options.grouping/],
    ['items', () => sh.dedup([1]), TypeError, /items\[0\] must be a string/],
    ['maxDistance', () => sh.dedup([], { maxDistance: 65 }), RangeError, /options.maxDistance/],
    ['fingerprint options', () => sh.dedup([], { options: { tokenizer: 'x' } }), RangeError, /options.tokenizer/],
    ['onProgress', () => sh.dedup([], { onProgress: 1 }), TypeError, /options.onProgress must be a function/],
    ['signal', () => sh.dedup([], { signal: {} }), TypeError, /options.signal must be an AbortSignal/],
  ];
  for (const [name, call, type, message] of rejections) {
    test(`rejects a bad ${name}`, async () => {
      await assert.rejects(call, (error) => error instanceof type && message.test(error.message));
    });
  }

  test('reports progress through every phase, in order', async () => {
    const texts = Array.from({ length: 10000 }, (_, i) => `item number ${i} of a long list`);
    const reports = [];
    await sh.dedup(texts, { onProgress: (p) => reports.push(p) });
    assert.deepEqual(reports[0], { phase: 'fingerprint', done: 0, total: 10000 });
    assert.deepEqual(reports.at(-1), { phase: 'groups', done: 1, total: 1 });
    const fingerprinting = reports.filter((r) => r.phase === 'fingerprint').map((r) => r.done);
    assert.ok(fingerprinting.length >= 3, 'several fingerprint reports');
    assert.deepEqual(fingerprinting, [...fingerprinting].sort((a, b) => a - b));
    assert.equal(fingerprinting.at(-1), 10000);
    assert.deepEqual([...new Set(reports.map((r) => r.phase))], ['fingerprint', 'pairs', 'groups']);
  });

  test('an aborted signal rejects with its reason, before or during the work', async () => {
    const before = new AbortController();
    before.abort(new Error('stop early'));
    await assert.rejects(sh.dedup(items, { signal: before.signal }), /stop early/);
    const during = new AbortController();
    const texts = Array.from({ length: 20000 }, (_, i) => `text ${i}`);
    let reports = 0;
    await assert.rejects(sh.dedup(texts, {
      signal: during.signal,
      onProgress: () => { if (++reports === 2) during.abort(); },
    }), { name: 'AbortError' });
    assert.equal(reports, 2, 'no work reported after the abort');
    assert.deepEqual((await sh.dedup(items)).groups, [[0, 1, 3]], 'still usable');
  });

  test('leader grouping keeps the first item of each group', async () => {
    const result = await sh.dedup(items);
    assert.deepEqual(result.uniqueIndices, [0, 2]);
    assert.deepEqual(result.unique, [items[0], items[2]]);
    assert.deepEqual(result.groups, [[0, 1, 3]]);
  });

  test('leader groups equal the leader rule applied by brute force, at every k around the texts\' distances', async () => {
    // The sample with edited copies: many near-duplicates, followers and chains.
    const next = random64(17);
    const texts = [...SAMPLE];
    for (let i = 0; i < 600; i++) {
      const words = SAMPLE[Number(next() % BigInt(SAMPLE.length))].split(' ');
      words[Number(next() % BigInt(words.length))] = `edit${i % 7}`;
      texts.push(words.join(' '));
    }
    for (const k of [0, 3, 6, 12, 20]) {
      const { groups, uniqueIndices, fingerprints } = await sh.dedup(texts, { maxDistance: k });
      const leaderOf = [];
      let followers = 0;
      for (let j = 0; j < texts.length; j++) {
        leaderOf[j] = j;
        for (let i = 0; i < j; i++) {
          if (leaderOf[i] === i && sh.distance(fingerprints[i], fingerprints[j]) <= k) {
            leaderOf[j] = i;
            followers++;
            break;
          }
        }
      }
      assert.deepEqual(uniqueIndices, leaderOf.flatMap((leader, i) => (leader === i ? [i] : [])), `k = ${k}`);
      const expected = new Map();
      leaderOf.forEach((leader, i) => { if (leader !== i) expected.set(leader, [...(expected.get(leader) ?? [leader]), i]); });
      assert.deepEqual(groups, [...expected.values()].sort((x, y) => x[0] - y[0]), `k = ${k}`);
      if (k >= 3) assert.ok(followers > 0, `k = ${k}: some duplicates`);
    }
  });

  test('groupLabels of the widest pairs regroups at every smaller k as dedup groups, both groupings', async () => {
    const next = random64(23);
    const texts = [...SAMPLE];
    for (let i = 0; i < 300; i++) {
      const words = SAMPLE[Number(next() % BigInt(SAMPLE.length))].split(' ');
      words[Number(next() % BigInt(words.length))] = `edit${i % 5}`;
      texts.push(words.join(' '));
    }
    const pairs = sh.findPairs(sh.fingerprintAll(texts), 14);
    const groupsOf = (labels) => {
      const members = new Map();
      labels.forEach((leader, i) => { if (leader !== i) members.set(leader, [...(members.get(leader) ?? [leader]), i]); });
      return [...members.values()].sort((x, y) => x[0] - y[0]);
    };
    for (const grouping of ['leader', 'components']) {
      for (const k of [0, 3, 8, 14]) {
        const labels = sh.groupLabels(texts.length, pairs, { maxDistance: k, grouping });
        assert.ok(labels instanceof Uint32Array && labels.length === texts.length);
        assert.deepEqual(groupsOf(labels), (await sh.dedup(texts, { maxDistance: k, grouping })).groups, `${grouping}, k = ${k}`);
      }
    }
    assert.throws(() => sh.groupLabels(2, { a: [0], b: [1] }), { name: 'TypeError', message: /^pairs must be/ });
    assert.throws(() => sh.groupLabels(2, { a: Uint32Array.of(1), b: Uint32Array.of(0) }), { name: 'RangeError', message: 'pairs[0] must have a < b, got (1, 0)' });
    assert.throws(() => sh.groupLabels(2, { a: Uint32Array.of(0), b: Uint32Array.of(2) }), { name: 'RangeError', message: 'pairs[0] must name items below count (2), got (0, 2)' });
    assert.throws(() => sh.groupLabels(3, { a: Uint32Array.of(1, 0), b: Uint32Array.of(2, 1) }), { name: 'RangeError', message: /must be sorted/ });
    assert.throws(() => sh.groupLabels(2, pairs, { grouping: 'x' }), RangeError);
    assert.throws(() => sh.groupLabels(2, { a: new Uint32Array(0), b: new Uint32Array(0) }, { depth: 1 }), { name: 'TypeError', message: 'options.depth is not an option (known: grouping, maxDistance, similarity, similarities)' });
  });

  test('with a key function', async () => {
    const records = items.map((text, id) => ({ id, text }));
    const result = await sh.dedup(records, { key: (r) => r.text });
    assert.deepEqual(result.unique.map((r) => r.id), [0, 2]);
  });

  test('components chain, leaders do not', async () => {
    // Texts drifting one word at a time; find a, b, c with a~b, b~c within k but a, c apart.
    const words = 'one two three four five six seven eight nine ten eleven twelve'.split(' ');
    const texts = [words.join(' ')];
    for (let i = 0; i < words.length; i++) {
      words[i] = `changed${i}`;
      texts.push(words.join(' '));
    }
    const fps = sh.fingerprintAll(texts);
    let chain;
    for (let j = 0; j + 2 < texts.length && !chain; j++) {
      const [ab, bc, ac] = [sh.distance(fps[j], fps[j + 1]), sh.distance(fps[j + 1], fps[j + 2]), sh.distance(fps[j], fps[j + 2])];
      if (Math.max(ab, bc) < ac) chain = { items: texts.slice(j, j + 3), k: Math.max(ab, bc) };
    }
    assert.ok(chain, 'some drifting triple chains');
    assert.deepEqual((await sh.dedup(chain.items, { maxDistance: chain.k, grouping: 'components' })).groups, [[0, 1, 2]]);
    const leaders = await sh.dedup(chain.items, { maxDistance: chain.k, grouping: 'leader' });
    assert.deepEqual(leaders.groups, [[0, 1]]);
    assert.deepEqual(leaders.uniqueIndices, [0, 2]);
  });
});

describe('dedup by similarity', () => {
  // The sample with edited copies: near-duplicates, chance neighbours and exact copies.
  const next = random64(31);
  const texts = [...SAMPLE, ...SAMPLE.slice(0, 40)];
  for (let i = 0; i < 500; i++) {
    const words = SAMPLE[Number(next() % BigInt(SAMPLE.length))].split(' ');
    words[Number(next() % BigInt(words.length))] = `edit${i % 7}`;
    texts.push(words.join(' '));
  }

  test('the default is similarity 0.8 within the calibrated radius, leader grouping', async () => {
    assert.deepEqual(await sh.dedup(texts), await sh.dedup(texts, { similarity: 0.8 }));
    assert.deepEqual(await sh.dedup(texts), await sh.dedup(texts, { similarity: 0.8, maxDistance: 16 }));
  });

  test('leader and component groups equal the rules applied by brute force (the JS reference of the similarity)', async () => {
    const fps = sh.fingerprintAll(texts);
    const k = 14;
    for (const similarity of [0.5, 0.7, 0.9]) {
      const near = (i, j) => texts[i] === texts[j] || (sh.distance(fps[i], fps[j]) <= k && jaccard(texts[i], texts[j]) >= similarity);
      // Leader: in order, each item joins the earliest kept item near it.
      const leaderOf = [];
      for (let j = 0; j < texts.length; j++) {
        leaderOf[j] = j;
        for (let i = 0; i < j; i++) {
          if (leaderOf[i] === i && near(i, j)) {
            leaderOf[j] = i;
            break;
          }
        }
      }
      const leaderGroups = new Map();
      leaderOf.forEach((leader, i) => { if (leader !== i) leaderGroups.set(leader, [...(leaderGroups.get(leader) ?? [leader]), i]); });
      const leaders = await sh.dedup(texts, { similarity, maxDistance: k });
      assert.deepEqual(leaders.groups, [...leaderGroups.values()].sort((x, y) => x[0] - y[0]), `leader, similarity ${similarity}`);
      assert.ok(leaders.groups.length > 10, 'some groups');
      // Components of the near pairs, by a plain union-find.
      const parent = texts.map((_, i) => i);
      const find = (x) => (parent[x] === x ? x : (parent[x] = find(parent[x])));
      const candidates = sh.findPairs(fps, k);
      for (let p = 0; p < candidates.a.length; p++) {
        if (near(candidates.a[p], candidates.b[p])) {
          const [ra, rb] = [find(candidates.a[p]), find(candidates.b[p])];
          parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
      }
      const componentGroups = new Map();
      texts.forEach((_, i) => { const r = find(i); if (r !== i) componentGroups.set(r, [...(componentGroups.get(r) ?? [r]), i]); });
      const components = await sh.dedup(texts, { similarity, maxDistance: k, grouping: 'components' });
      assert.deepEqual(components.groups, [...componentGroups.values()].sort((x, y) => x[0] - y[0]), `components, similarity ${similarity}`);
    }
  });

  test('exact copies join what their first occurrence joins, under both groupings and both modes', async () => {
    const copies = ['alpha beta gamma delta', 'alpha beta gamma delta', 'something else entirely here', 'alpha beta gamma delta'];
    for (const options of [{}, { maxDistance: 3 }, { grouping: 'components' }, { maxDistance: 3, grouping: 'components' }]) {
      const { groups, uniqueIndices } = await sh.dedup(copies, options);
      assert.deepEqual(groups, [[0, 1, 3]], JSON.stringify(options));
      assert.deepEqual(uniqueIndices, [0, 2]);
    }
  });

  test('10,000 identical texts among 10,000 unique ones cost what the distinct texts cost', async () => {
    const many = [...Array(10000).fill('the same line'), ...Array.from({ length: 10000 }, (_, i) => SAMPLE[i % SAMPLE.length] + ` ${i}`)];
    for (const options of [{}, { maxDistance: 3 }, { grouping: 'components', maxDistance: 3 }]) {
      const { groups } = await sh.dedup(many, options);
      assert.equal(groups[0].length, 10000, JSON.stringify(options));
    }
  });

  test('bad similarity options are rejected before any work', async () => {
    await assert.rejects(sh.dedup([], { similarity: '0.8' }), { name: 'TypeError', message: 'options.similarity must be a number, got string' });
    for (const bad of [0, -0.1, 1.5, NaN]) await assert.rejects(sh.dedup([], { similarity: bad }), { name: 'RangeError', message: /^options.similarity must be above 0 and at most 1/ });
    await assert.rejects(sh.dedup([], { verify: { minJaccard: 0.5 } }), { name: 'TypeError', message: /^options.verify is not an option \(known: key, similarity/ });
    await assert.rejects(sh.dedup([], { simillarity: 0.5 }), { name: 'TypeError', message: /^options.simillarity is not an option \(known: key, similarity, maxDistance/ });
    assert.equal((await sh.dedup(['a', 'a'])).groups.length, 1, 'the instance keeps working');
  });
});

describe('segmenter tokenizer and NFKC', () => {
  test("'segmenter' equals the core's word features on plain English", () => {
    const text = 'The quick brown fox jumps over the lazy dog and keeps running';
    for (const wordNgram of [1, 2, 3]) {
      assert.equal(sh.fingerprint(text, { tokenizer: 'segmenter', wordNgram }), sh.fingerprint(text, { tokenizer: 'words', wordNgram }));
    }
  });

  test("'segmenter' is the 'separated' mode over Intl.Segmenter's word-like segments", () => {
    const text = '你妈妈喊你回家吃饭哦，回家罗回家罗';
    const words = [...new Intl.Segmenter('und', { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
    assert.ok(words.length > 3, 'Chinese is segmented into words');
    assert.equal(sh.fingerprint(text, { tokenizer: 'segmenter' }), sh.fingerprint(words.join('\x1f'), { tokenizer: 'separated' }));
    const [original, edited, unrelated] = sh.fingerprintAll([text, '你妈妈叫你回家吃饭啦，回家罗回家罗', '今天天气很好，我们去公园散步吧'], { tokenizer: 'segmenter' });
    assert.ok(sh.distance(original, edited) < sh.distance(original, unrelated));
  });

  test("'segmenter' handles long texts in pieces and texts without words", () => {
    const long = '我们今天去公园散步，天气很好。'.repeat(8000); // 120,000 characters
    const fp = sh.fingerprint(long, { tokenizer: 'segmenter' });
    assert.equal(sh.distance(fp, sh.fingerprint(long.slice(0, 60000), { tokenizer: 'segmenter' })) <= 3, true);
    assert.notEqual(sh.fingerprint('!!! ???', { tokenizer: 'segmenter' }), 0n);
    assert.equal(sh.fingerprint(' \n ', { tokenizer: 'segmenter' }), sh.fingerprint(''));
  });

  test('nfkc folds full-width forms before tokenizing', () => {
    assert.equal(sh.fingerprint('ＡＢＣ　ｄｅｆ！１２３', { nfkc: true }), sh.fingerprint('ABC def!123'));
    assert.equal(sh.fingerprint('ＡＢＣ　ｄｅｆ！１２３'), sh.fingerprint('ABC def!123'), 'case folding folds full-width letters and digits too');
    assert.notEqual(sh.fingerprint('ＡＢＣ', { caseFold: false }), sh.fingerprint('ABC', { caseFold: false }));
    assert.equal(sh.fingerprint('ＡＢＣ', { caseFold: false, nfkc: true }), sh.fingerprint('ABC', { caseFold: false }));
    assert.deepEqual([...sh.fingerprintAll(['ｶﾀｶﾅ', 'カタカナ'], { nfkc: true })].map(sh.toHex), Array(2).fill(sh.toHex(sh.fingerprint('カタカナ'))));
  });

  test('bad options are rejected', () => {
    assert.throws(() => sh.fingerprint('x', { nfkc: 'yes' }), TypeError);
    assert.throws(() => sh.fingerprint('x', { tokenizer: 'segmenter', locale: 'not a locale!' }), RangeError);
    assert.throws(() => sh.fingerprint('x', { locale: 5 }), /options.locale must be a string/);
    assert.throws(() => sh.fingerprintAll([1], { nfkc: true }), /texts\[0\] must be a string/);
  });
});

describe('IDF weights', () => {
  const corpus = Array.from({ length: 300 }, (_, i) => `please note that the order number is ${i}`);
  const a = 'please note that the order number is zebra quartz';
  const b = 'please note that the order number is violin maple';

  test('rare features weigh more: texts differing only in rare words move apart', () => {
    const idf = sh.learnIdf(corpus);
    try {
      assert.equal(idf.documents, 300);
      assert.equal(idf.features, 7 + 300);
      assert.deepEqual(idf.options, { tokenizer: 'auto', wordNgram: 1, charNgram: 2, caseFold: true, stripPunctuation: true, weighting: 'binary', nfkc: false });
      assert.ok(sh.distance(sh.fingerprint(a, { idf }), sh.fingerprint(b, { idf })) > sh.distance(sh.fingerprint(a), sh.fingerprint(b)));
      assert.deepEqual(sh.fingerprintAll([a, b], { idf }), new BigUint64Array([sh.fingerprint(a, { idf }), sh.fingerprint(b, { idf })]));
    } finally {
      idf.dispose();
    }
  });

  test('the learned options travel with the weights, NFKC and segmenter included', () => {
    const idf = sh.learnIdf(['ＡＢＣ　ｄｅｆ', '你妈妈喊你回家吃饭'], { nfkc: true, tokenizer: 'segmenter', weighting: 'binary' });
    try {
      assert.equal(idf.options.tokenizer, 'segmenter');
      assert.equal(sh.fingerprint('ＡＢＣ　ｄｅｆ', { idf }), sh.fingerprint('ABC def', { idf }));
      const loaded = sh.loadIdf(idf.toBytes());
      assert.deepEqual(loaded.options, idf.options);
      assert.equal(sh.fingerprint('你妈妈叫你回家', { idf: loaded }), sh.fingerprint('你妈妈叫你回家', { idf }));
      loaded.dispose();
    } finally {
      idf.dispose();
    }
  });

  test('every truncation and byte flip of the bytes is a descriptive Error', () => {
    const idf = sh.learnIdf(['a b', 'b c']);
    const bytes = idf.toBytes();
    idf.dispose();
    for (let size = 0; size < bytes.length; size++) {
      assert.throws(() => sh.loadIdf(bytes.slice(0, size)), /^Error: invalid serialized IDF weights: /);
    }
    for (let i = 0; i < bytes.length; i++) {
      const corrupted = bytes.slice();
      corrupted[i] ^= 0x10;
      assert.throws(() => sh.loadIdf(corrupted), /invalid serialized IDF weights/);
    }
    const restored = sh.loadIdf(bytes);
    assert.equal(restored.documents, 2);
    restored.dispose();
  });

  test('misuse is a clear error and the module keeps working', () => {
    const idf = sh.learnIdf(corpus);
    assert.throws(() => sh.fingerprint(a, { idf, weighting: 'tf' }), /options.weighting is tf but the IDF weights were learned with binary/);
    assert.throws(() => sh.fingerprint(a, { idf: {} }), TypeError);
    assert.throws(() => sh.learnIdf(corpus, { idf }), TypeError);
    assert.throws(() => sh.loadIdf([1, 2]), TypeError);
    idf.dispose();
    idf.dispose();
    assert.throws(() => sh.fingerprint(a, { idf }), /options.idf has been disposed/);
    assert.throws(() => idf.toBytes(), /disposed/);
    assert.equal(typeof sh.fingerprint(a), 'bigint');
  });
});
