// js/core/thresholds.js (the radius rule) and the core's exact similarity through the WASM
// build (the bound _verifyPairs, _pairSimilarities, _similarityJoin): the same answers as a
// plain JS reference of the definition, no memory kept after a call, and a catchable error
// when the capped build runs out of memory, after which it still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RADIUS_TABLE, candidateRadius, DEFAULT_SIMILARITY, BANDING_FROM, BANDING_MAX_MEAN_LENGTH, usesBanding } from '../../js/core/thresholds.js';
import { checkDedupArguments, searchFor } from '../../js/dedup/dedup.js';
import { jaccard, shingles } from './similarity-reference.js';
import { loadCore, encodeBatch, verifyPairs, pairSimilarities, similarityJoin } from '../bench/quality/exact.js';

test('dedup bands short texts from BANDING_FROM without maxDistance, and takes the radius for long texts, lower thresholds or maxDistance', () => {
  const short = ['a short line', 'another short line'];
  const long = ['x'.repeat(BANDING_MAX_MEAN_LENGTH + 1), 'y'.repeat(BANDING_MAX_MEAN_LENGTH + 1)];
  const atLimit = ['x'.repeat(2 * BANDING_MAX_MEAN_LENGTH), '']; // the mean, not each text, decides
  assert.equal(usesBanding(BANDING_FROM, short), true);
  assert.equal(usesBanding(0.8, atLimit), true);
  assert.equal(usesBanding(0.8, long), false);
  assert.equal(usesBanding(BANDING_FROM - 0.01, short), false);
  const banding = (texts, options) => searchFor(checkDedupArguments(texts, options), texts).banding;
  const text = { measure: 'text' };
  assert.equal(banding(short, text), true, 'the default');
  assert.equal(banding(short, { ...text, similarity: 0.9 }), true);
  assert.equal(banding(long, {}), false);
  assert.equal(banding(short, { ...text, similarity: 0.6 }), true, 'from BANDING_FROM');
  assert.equal(banding(short, { ...text, similarity: BANDING_FROM - 0.01 }), false, 'below BANDING_FROM');
  assert.equal(banding(short, { ...text, similarity: 0.8, maxDistance: 16 }), false, 'maxDistance sets the radius');
  assert.equal(banding(short, { maxDistance: 3 }), false, 'fingerprint-only mode');
  assert.equal(banding(short, {}), true, "'auto' takes the short measure here, which always bands");
  assert.equal(banding(short, { similarity: 0.3 }), true, 'at any threshold');
  assert.equal(banding(short, { similarity: 0.8, maxDistance: 16 }), false, 'but for maxDistance');
});

test('candidateRadius: the table row of the largest similarity not above s, monotone', () => {
  for (const [s, r] of RADIUS_TABLE) assert.equal(candidateRadius(s), r);
  assert.equal(candidateRadius(0.01), 64);
  assert.equal(candidateRadius(0.84), candidateRadius(0.8));
  let previous = 64;
  for (let s = 0.01; s <= 1; s += 0.01) {
    const r = candidateRadius(s);
    assert.ok(r <= previous && r >= 0 && r <= 64, `radius ${r} at ${s}`);
    previous = r;
  }
  assert.ok(DEFAULT_SIMILARITY > 0 && DEFAULT_SIMILARITY <= 1);
});

const TEXTS = [
  '', '  ', '...', 'a', 'ab', 'Hello, World!', 'hello world', 'HELLO   world.', 'ｈｅｌｌｏ　ｗｏｒｌｄ',
  'The quick brown fox jumps over the lazy dog.', 'The quick brown fox jumped over the lazy dog!',
  '天下没有不散的宴席。', '天下没有不散之宴席', '天下\n没有 不散的宴席', '第3章', '第3节', 'abc 你好吗', '你好a',
  'コーヒーを飲みます', 'ｺｰﾋｰを飲みます', 'ガクセイ ｶﾞｸｾｲ', 'ﾊﾟﾝ パン ﾊﾞﾝ', 'カﾞ ｱﾞ ﾞﾟ', 'ー', 'ｰ',
  'x'.repeat(5000), `${'lorem ipsum dolor sit amet '.repeat(300)}end`,
];

test('the WASM core equals the JS reference: similarities, decisions, join', async () => {
  const { core, sh } = await loadCore();
  const batch = encodeBatch(TEXTS);
  const a = [];
  const b = [];
  for (let i = 0; i < TEXTS.length; i++) for (let j = 0; j < TEXTS.length; j++) a.push(i), b.push(j);
  const A = Uint32Array.from(a);
  const B = Uint32Array.from(b);
  // The first calls allocate what lives as long as the module: the result buffer, at the
  // size of the largest join below, which it keeps for reuse (helpers.h).
  pairSimilarities(core, batch, A.subarray(0, 1), B.subarray(0, 1));
  verifyPairs(core, batch, A.subarray(0, 1), B.subarray(0, 1), 0.5);
  similarityJoin(core, batch, 0.3);
  sh.similarity('a', 'b'); // and the single-call scratch
  const before = sh.heapBytesInUse;
  const got = pairSimilarities(core, batch, A, B);
  got.forEach((s, p) => assert.equal(s, jaccard(TEXTS[a[p]], TEXTS[b[p]]), `${JSON.stringify(TEXTS[a[p]])} vs ${JSON.stringify(TEXTS[b[p]])}`));
  // One pair alone takes the core's similarity() through the single-call scratch, or, past
  // it, the batch path: the same numbers.
  got.forEach((s, p) => assert.equal(sh.similarity(TEXTS[a[p]], TEXTS[b[p]]), s));
  const long = TEXTS.join(' ').repeat(400);
  assert.ok(3 * 2 * long.length > 1 << 16);
  assert.equal(sh.similarity(long, `${long} 尾巴`), sh.similarities([long, `${long} 尾巴`], { a: Uint32Array.of(0), b: Uint32Array.of(1) })[0]);
  for (const threshold of [0.3, 0.5, 0.8, 1]) {
    const ok = verifyPairs(core, batch, A, B, threshold);
    ok.forEach((x, p) => assert.equal(x, got[p] >= threshold ? 1 : 0));
    const join = similarityJoin(core, batch, threshold);
    const expected = [];
    for (let p = 0; p < a.length; p++) if (a[p] < b[p] && got[p] >= threshold) expected.push(`${a[p]},${b[p]}`);
    assert.deepEqual(Array.from(join.a, (x, p) => `${x},${join.b[p]}`), expected);
  }
  assert.equal(sh.heapBytesInUse, before, 'nothing kept after the calls');
});

test('out of memory during verification is a catchable Error; the module still answers', async () => {
  const build = new URL('../../build/wasm/capped/', import.meta.url);
  const { default: create } = await import(new URL('simhash_core.mjs', build));
  const core = await create({ wasmBinary: readFileSync(new URL('simhash_core.wasm', build)) });
  let seed = 13;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 16) % 27).replace('{', ' ');
  const texts = Array.from({ length: 1600 }, () => Array.from({ length: 10000 }, letter).join('')); // 16 MB; sets of about 22 MB
  const big = encodeBatch(texts);
  const all = Uint32Array.from(texts, (_, i) => i);
  verifyPairs(core, encodeBatch(['a']), Uint32Array.of(0), Uint32Array.of(0), 0.5);
  const before = core._heapInUse();
  assert.throws(() => verifyPairs(core, big, all, all, 0.5), /memory/);
  assert.equal(core._heapInUse(), before, 'the failed call released everything (its sets unwound through their destructors)');
  const small = encodeBatch(['hello world', 'hello world!']);
  assert.deepEqual(Array.from(verifyPairs(core, small, Uint32Array.of(0), Uint32Array.of(1), 1)), [1]);
});

test('sh.similarity and sh.similarities equal the JS reference; bad input is rejected before WASM', async () => {
  const { sh } = await import('./helpers.js');
  const a = [];
  const b = [];
  for (let i = 0; i < TEXTS.length; i++) for (let j = 0; j < TEXTS.length; j++) a.push(i), b.push(j);
  sh.similarities(TEXTS, { a: Uint32Array.of(0), b: Uint32Array.of(1) }); // the module's one ShingleSets
  sh.similarity('a', 'b'); // and the single-call scratch
  const before = sh.heapBytesInUse;
  const got = sh.similarities(TEXTS, { a: Uint32Array.from(a), b: Uint32Array.from(b) });
  assert.ok(got instanceof Float64Array && got.length === a.length);
  got.forEach((s, p) => assert.equal(s, jaccard(TEXTS[a[p]], TEXTS[b[p]]), `${JSON.stringify(TEXTS[a[p]])} vs ${JSON.stringify(TEXTS[b[p]])}`));
  // One pair alone takes the core's similarity() through the single-call scratch, or, past
  // it, the batch path: the same numbers.
  got.forEach((s, p) => assert.equal(sh.similarity(TEXTS[a[p]], TEXTS[b[p]]), s));
  const long = TEXTS.join(' ').repeat(400);
  assert.ok(3 * 2 * long.length > 1 << 16);
  assert.equal(sh.similarity(long, `${long} 尾巴`), sh.similarities([long, `${long} 尾巴`], { a: Uint32Array.of(0), b: Uint32Array.of(1) })[0]);
  assert.equal(sh.similarity('Hello, World!', 'hello world'), 1);
  assert.equal(sh.similarity('天下没有不散的宴席。', '天下没有不散之宴席'), jaccard('天下没有不散的宴席。', '天下没有不散之宴席'));
  assert.deepEqual(sh.similarities(['x'], { a: new Uint32Array(0), b: new Uint32Array(0) }), new Float64Array(0));
  assert.equal(sh.heapBytesInUse, before, 'nothing kept after the calls');

  assert.throws(() => sh.similarity('a', 1), { name: 'TypeError', message: 'b must be a string, got number' });
  assert.throws(() => sh.similarities('ab', { a: Uint32Array.of(0), b: Uint32Array.of(1) }), { name: 'TypeError', message: 'texts must be an array of strings, got string' });
  assert.throws(() => sh.similarities(['a', null], { a: Uint32Array.of(0), b: Uint32Array.of(1) }), { name: 'TypeError', message: 'texts[1] must be a string, got null' });
  assert.throws(() => sh.similarities(['a', 'b'], { a: [0], b: [1] }), { name: 'TypeError', message: /^pairs must be/ });
  assert.throws(() => sh.similarities(['a', 'b'], { a: Uint32Array.of(0), b: Uint32Array.of(0, 1) }), RangeError);
  assert.throws(() => sh.similarities(['a', 'b'], { a: Uint32Array.of(0), b: Uint32Array.of(2) }), { name: 'RangeError', message: 'pairs[0] must name items below texts.length (2), got (0, 2)' });
  assert.equal(sh.heapBytesInUse, before, 'bad input allocated nothing');
  assert.equal(sh.similarity('abc', 'abd'), jaccard('abc', 'abd'), 'still answers');
});

test('groupLabels over findPairs at candidateRadius(s) with the pairs\' similarities groups as dedup at that radius and s; dedup by default finds the brute-force groups here, both groupings', async () => {
  const { sh, random64 } = await import('./helpers.js');
  const { SAMPLE } = await import('../../js/cli/sample.js');
  const { candidateRadius: publicRadius, DEFAULT_SIMILARITY: publicDefault } = await import('../../js/node.js');
  assert.equal(publicRadius, candidateRadius, 'the package exports the rule dedup uses');
  assert.equal(publicDefault, DEFAULT_SIMILARITY);
  assert.throws(() => publicRadius(0), { name: 'RangeError', message: 'similarity must be above 0 and at most 1, got 0' });
  assert.throws(() => publicRadius('0.8'), { name: 'TypeError', message: 'similarity must be a number, got string' });
  const next = random64(29);
  const pick = (n) => Number(next() % BigInt(n));
  const texts = [...SAMPLE];
  for (let i = 0; i < 400; i++) {
    const words = SAMPLE[pick(SAMPLE.length)].split(' ');
    for (let e = 1 + pick(3); e > 0; e--) words[pick(words.length)] = `edit${i % 7}`;
    texts.push(words.join(' '));
  }
  texts.push(texts[5], texts[400]); // copies
  const fps = sh.fingerprintAll(texts);
  const widest = sh.findPairs(fps, candidateRadius(0.6));
  const similarities = sh.similarities(texts, widest);
  const groupsOf = (labels) => {
    const members = new Map();
    labels.forEach((leader, i) => { if (leader !== i) members.set(leader, [...(members.get(leader) ?? [leader]), i]); });
    return [...members.values()].sort((x, y) => x[0] - y[0]);
  };
  for (const grouping of ['leader', 'components']) {
    for (const s of [0.6, 0.7, 0.8, 0.9, 1]) {
      const labels = sh.groupLabels(texts.length, widest, { maxDistance: candidateRadius(s), similarity: s, similarities, grouping });
      const { groups } = await sh.dedup(texts, { similarity: s, maxDistance: candidateRadius(s), grouping });
      assert.deepEqual(groupsOf(labels), groups, `${grouping}, s = ${s}`);
      if (s <= 0.9) assert.ok(groups.length > 10, `${grouping}, s = ${s}: near-duplicates found (${groups.length} groups)`);
      // maxDistance 64 makes every pair a candidate: the definition by brute force. The
      // default candidates (banding from BANDING_FROM, the radius below) miss none of its
      // pairs on these texts, where the radius alone misses some at 0.9.
      const exact = await sh.dedup(texts, { similarity: s, maxDistance: 64, grouping });
      assert.deepEqual((await sh.dedup(texts, { similarity: s, grouping })).groups, exact.groups, `${grouping}, s = ${s}: default`);
    }
  }
  assert.throws(() => sh.groupLabels(texts.length, widest, { similarity: 0.8 }), { name: 'TypeError', message: /go together/ });
  assert.throws(() => sh.groupLabels(texts.length, widest, { similarity: 0, similarities }), RangeError);
  assert.throws(() => sh.groupLabels(texts.length, widest, { similarity: 0.8, similarities: Array.from(similarities) }), { name: 'TypeError', message: 'options.similarities must be a Float64Array, got an array' });
  assert.throws(() => sh.groupLabels(texts.length, widest, { similarity: 0.8, similarities: similarities.subarray(1) }), RangeError);
});

test('the shingle sets built over many slices, from strings or from encoded bytes, give the groups of the brute-force rule', async () => {
  const { random64 } = await import('./helpers.js');
  const { searchLabels } = await import('../../js/dedup/dedup.js');
  const { encodeTexts } = await import('../../js/core/text.js');
  const { fingerprintAll } = await import('../../js/bindings/fingerprints.js');
  const { Pacer } = await import('../../js/core/pacing.js');
  const { core } = await loadCore();
  const next = random64(31);
  const word = () => ['alpha', 'beta', 'gamma', 'delta', '天下', '宴席', 'omega', 'kappa'][Number(next() % 8n)] + Number(next() % 50n);
  const texts = [];
  while (texts.length < 3000) {
    const base = Array.from({ length: 60 }, word).join(' '); // about 500 characters: 1.5M in all, several slices
    texts.push(base, base.replace(/\S+$/, 'changed'));
  }
  const fps = fingerprintAll(core, texts);
  const search = async (t) => (await searchLabels(core, t, fps, { k: 16, similarity: 0.8, grouping: 'leader' }, new Pacer({ sliceMs: Infinity }))).labels;
  const fromStrings = await search(texts);
  assert.deepEqual(await search(encodeTexts(texts)), fromStrings);
  // The leader rule by brute force over the candidates within 16 bits.
  const { a, b } = (await import('../../js/bindings/pairs.js')).findPairs(core, fps, 16);
  const expected = Uint32Array.from(texts, (_, i) => i);
  const order = Array.from(a.keys()).sort((p, q) => b[p] - b[q] || a[p] - a[q]);
  for (const p of order) {
    if (expected[b[p]] === b[p] && expected[a[p]] === a[p] && jaccard(texts[a[p]], texts[b[p]]) >= 0.8) expected[b[p]] = a[p];
  }
  assert.deepEqual(fromStrings, expected);
  assert.ok(expected.some((leader, i) => leader !== i), 'near-duplicates found');
});

test('encodeTextsPaced and utf8Length encode and count as TextEncoder does, across encodeTextsPaced\'s chunks; banding over its bytes groups as over the strings', async () => {
  const { encodeTextsPaced, utf8Length } = await import('../../js/core/text.js');
  const { SAMPLE } = await import('../../js/cli/sample.js');
  const { searchLabels } = await import('../../js/dedup/dedup.js');
  const { Pacer } = await import('../../js/core/pacing.js');
  const tricky = ['', 'ascii', 'é', '—', '天下', '😀', 'a\ud800b', '\udc00', 'x\ud83d', '\ud83d\ude00\ud83d', 'mixed é 天 😀 end'];
  const encoder = new TextEncoder();
  for (const text of tricky) assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  const texts = [...tricky, ...SAMPLE.slice(0, 300), ...SAMPLE.slice(0, 300).map((t) => `${t} (again)`)];
  const { utf8, bounds } = await encodeTextsPaced(texts, new Pacer({ sliceMs: Infinity }));
  assert.equal(utf8.length, bounds[texts.length]);
  for (let i = 0; i < texts.length; i++) assert.deepEqual(utf8.subarray(bounds[i], bounds[i + 1]), encoder.encode(texts[i]), `text ${i}`);
  // About 12.6 MB: several of encodeTextsPaced's 4 MB chunks, with texts of 3 bytes per UTF-16 unit (its worst case) across their ends.
  const long = Array.from({ length: 3000 }, (_, i) => `${tricky[i % tricky.length]} ${'天'.repeat(1400 + (i % 7))}`);
  const many = await encodeTextsPaced(long, new Pacer({ sliceMs: Infinity }));
  assert.ok(many.utf8.length > 3 * 2 ** 22, 'more than three chunks');
  assert.ok(Buffer.from(many.utf8.buffer, many.utf8.byteOffset, many.utf8.length).equals(encoder.encode(long.join(''))), 'the long texts encode as TextEncoder does');
  for (let i = 0; i < long.length; i++) assert.equal(many.bounds[i + 1] - many.bounds[i], utf8Length(long[i]), `long text ${i}`);
  const { core } = await loadCore();
  const search = async (t, grouping) => (await searchLabels(core, t, null, { similarity: 0.8, banding: true, grouping }, new Pacer({ sliceMs: Infinity }))).labels;
  for (const grouping of ['leader', 'components']) {
    const fromStrings = await search(texts, grouping);
    assert.deepEqual(await search({ utf8, bounds }, grouping), fromStrings, grouping);
    assert.ok(fromStrings.some((label, i) => label !== i), 'near-duplicates found');
  }
});

test('dedup by similarity returns the fingerprints of fingerprintAll, with options the core applies to the encoded texts and options applied in JS', async () => {
  const { init } = await import('../../js/node.js');
  const { SAMPLE } = await import('../../js/cli/sample.js');
  const sh = await init();
  const texts = [...SAMPLE.slice(0, 200), ...SAMPLE.slice(0, 50).map((t) => `${t}!`), 'Ｆｕｌｌ ｗｉｄｔｈ', '天下 大勢'];
  const idf = sh.learnIdf(texts);
  try {
    for (const options of [undefined, { charNgram: 3 }, { idf }, { nfkc: true }, { tokenizer: 'segmenter' }]) {
      const { fingerprints } = await sh.dedup(texts, { options });
      assert.deepEqual(fingerprints, sh.fingerprintAll(texts, options), JSON.stringify(options ?? {}));
    }
  } finally {
    idf.dispose();
  }
});

test('the core equals the JS reference on random texts of ASCII, CJK, kana with ー, half-width kana and marks, astral characters, punctuation and whitespace', async () => {
  const { sh, random64 } = await import('./helpers.js');
  const next = random64(47);
  const pieces = ['a', 'b', 'e', 'the', 'Cat', 'é', '你', '好', '世', '界', '中', '𠀀', 'の', 'か', 'カ', 'ガ', 'ー', 'ヴ', 'ア', '한',
    'ｶ', 'ｷ', 'ﾊ', 'ｳ', 'ｱ', 'ｦ', 'ﾜ', 'ｰ', 'ｯ', 'ﾞ', 'ﾟ', '｡', '｢', '･', 'ａ', 'Ｂ', '１', '7',
    ' ', '  ', '\n', '\t', '\u3000', '\u00a0', ',', '.', '!', "'", '-', '，', '。', '「', '」', '・', '$', '+', '€', '😀'];
  const randomText = (count) => Array.from({ length: count }, () => pieces[Number(next() % BigInt(pieces.length))]).join('');
  const texts = [];
  for (let i = 0; i < 150; i++) {
    const base = randomText(Number(next() % 30n));
    const at = Number(next() % BigInt(base.length + 1));
    texts.push(base, base.slice(0, at) + randomText(1) + base.slice(at + 1)); // and a near-duplicate
  }
  const a = Uint32Array.from(texts.keys());
  const b = a.map((i) => (i % 2 ? i - 1 : (i * 7 + 3) % texts.length));
  const batch = sh.similarities(texts, { a, b });
  let nearDuplicates = 0;
  for (let p = 0; p < a.length; p++) {
    const x = texts[a[p]];
    const y = texts[b[p]];
    const expected = jaccard(x, y);
    assert.equal(batch[p], expected, `similarities: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    assert.equal(sh.similarity(x, y), expected, `similarity: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    if (expected >= 0.5 && expected < 1) nearDuplicates++;
  }
  assert.ok(nearDuplicates > 50, `pairs across the range (${nearDuplicates} in [0.5, 1))`);
});

test('the similarity folds half-width katakana as NFKC does, for every code point of U+FF61-U+FF9F and every kana + mark pair; the fingerprint does not fold them', async () => {
  const { sh } = await import('./helpers.js');
  const block = Array.from({ length: 0xff9f - 0xff61 + 1 }, (_, i) => String.fromCodePoint(0xff61 + i));
  const inputs = [...block, ...block.flatMap((c) => [`${c}\uff9e`, `${c}\uff9f`])];
  let composed = 0;
  for (const input of inputs) {
    const nfkc = input.normalize('NFKC');
    // Framed by letters, so that equal shingle sets mean equal normalized texts.
    assert.equal(sh.similarity(`x${input}y`, `x${nfkc}y`), 1, `${JSON.stringify(input)} folds to ${JSON.stringify(nfkc)}`);
    const kept = nfkc.replace(/\p{P}/gu, '');
    if (kept) assert.ok(sh.similarity(`x${input}y`, 'xy') < 1, `${JSON.stringify(input)} is not removed`);
    else assert.equal(sh.similarity(`x${input}y`, 'xy'), 1, `${JSON.stringify(input)} folds to punctuation, removed`);
    assert.deepEqual(shingles(`x${input}y`), shingles(`x${nfkc}y`), `the reference folds ${JSON.stringify(input)} alike`);
    if ([...input].length === 2 && [...nfkc].length === 1) {
      composed++;
      // The composed kana, not the kana and a combining mark, which the core does not compose.
      assert.ok(sh.similarity(`x${input}y`, `x${Array.from(input, (c) => c.normalize('NFKC')).join('')}y`) < 1, `${JSON.stringify(input)} composes`);
    }
  }
  assert.equal(composed, 28, 'NFKC composes 23 voiced and 5 semi-voiced half-width kana');
  assert.equal(sh.similarity('ｶﾞｸｾｲ', 'ガクセイ'), 1);
  assert.equal(sh.similarities(['ｺｰﾋｰ', 'コーヒー'], { a: Uint32Array.of(0), b: Uint32Array.of(1) })[0], 1);
  assert.notEqual(sh.fingerprint('ｶﾀｶﾅ'), sh.fingerprint('カタカナ'), 'fingerprints are unchanged: the tokenizer does not fold half-width kana');
});
