// js/similarity.js (the radius rule) and the core's exact similarity through the WASM
// build (the bound _verifyPairs, _pairSimilarities, _similarityJoin): the same answers as a
// plain JS reference of the definition, no memory kept after a call, and a catchable error
// when the capped build runs out of memory, after which it still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RADIUS_TABLE, candidateRadius, DEFAULT_SIMILARITY } from '../../js/similarity.js';
import { loadCore, encodeBatch, verifyPairs, pairSimilarities, similarityJoin } from '../bench/quality/exact.js';

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

// The definition (README "Similarity") in plain JS, for texts whose characters the core's
// tables and JS's agree on (ASCII, Han, full-width letters, CJK punctuation).
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
function shingles(text) {
  const folded = text.replace(/[\uff21-\uff3a\uff41-\uff5a\uff10-\uff19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toLowerCase().replace(/\p{P}/gu, '');
  const cps = Array.from(folded.replace(/\s+/gu, (gap, at, all) => {
    const before = all.slice(0, at).at(-1);
    const after = all[at + gap.length];
    return before && after && CJK.test(before) && CJK.test(after) ? '' : ' ';
  }).trim());
  const n = (i) => (CJK.test(cps[i]) ? 2 : 3);
  const set = new Set();
  let covered = false;
  for (let i = 0; i < cps.length; i++) {
    if (i + n(i) <= cps.length) {
      set.add(cps.slice(i, i + n(i)).join(''));
      covered ||= i + n(i) === cps.length;
    }
  }
  if (cps.length && !covered) {
    let first = 0;
    while (first + n(first) <= cps.length) first++;
    set.add(cps.slice(first).join(''));
  }
  return set;
}
function jaccard(x, y) {
  const a = shingles(x);
  const b = shingles(y);
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return a.size + b.size ? shared / (a.size + b.size - shared) : 1;
}

const TEXTS = [
  '', '  ', '...', 'a', 'ab', 'Hello, World!', 'hello world', 'HELLO   world.', 'ｈｅｌｌｏ　ｗｏｒｌｄ',
  'The quick brown fox jumps over the lazy dog.', 'The quick brown fox jumped over the lazy dog!',
  '天下没有不散的宴席。', '天下没有不散之宴席', '天下\n没有 不散的宴席', '第3章', '第3节', 'abc 你好吗', '你好a',
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
  // The first calls allocate what lives as long as the module (its one ShingleSets).
  pairSimilarities(core, batch, A.subarray(0, 1), B.subarray(0, 1));
  verifyPairs(core, batch, A.subarray(0, 1), B.subarray(0, 1), 0.5);
  similarityJoin(core, batch, 0.5);
  const before = sh.heapBytesInUse;
  const got = pairSimilarities(core, batch, A, B);
  got.forEach((s, p) => assert.equal(s, jaccard(TEXTS[a[p]], TEXTS[b[p]]), `${JSON.stringify(TEXTS[a[p]])} vs ${JSON.stringify(TEXTS[b[p]])}`));
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
  const build = new URL('../../build/wasm-capped/', import.meta.url);
  const { default: create } = await import(new URL('simhash_core.mjs', build));
  const core = await create({ wasmBinary: readFileSync(new URL('simhash_core.wasm', build)) });
  let seed = 13;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 16) % 27).replace('{', ' ');
  const texts = Array.from({ length: 1600 }, () => Array.from({ length: 10000 }, letter).join('')); // 16 MB; sets of about 22 MB
  const big = encodeBatch(texts);
  const all = Uint32Array.from(texts, (_, i) => i);
  verifyPairs(core, encodeBatch(['a']), Uint32Array.of(0), Uint32Array.of(0), 0.5); // the module's one ShingleSets
  const before = core._heapInUse();
  assert.throws(() => verifyPairs(core, big, all, all, 0.5), /memory/);
  assert.equal(core._heapInUse(), before, 'the failed call released everything (_similarityRelease in a finally block)');
  const small = encodeBatch(['hello world', 'hello world!']);
  assert.deepEqual(Array.from(verifyPairs(core, small, Uint32Array.of(0), Uint32Array.of(1), 1)), [1]);
});
