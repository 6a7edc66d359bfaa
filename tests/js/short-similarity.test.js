// The similarity of short strings (README "Similarity of short strings") through the WASM
// build: the definition in plain JS equals the core on names with diacritics, CJK and
// punctuation, weighted by a list's words; the diacritic table equals NFD's base letters;
// dedup's 'auto' measure, its learned weights and its groups against brute force; the pool
// identical; the text index's stream, answers and bytes; bad arguments, and word weights
// data out of its contract, refused when loaded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sh, disposing } from './helpers.js';
import { createPool } from '../../js/worker.js';
import { DEFAULT_SIMILARITY_OF, RECORD_MAX_BYTES, SHORT_MAX_MEAN_BYTES, measureFor } from '../../js/core/thresholds.js';
import { foldHalfwidthKana, isCjk } from './similarity-reference.js';
import { Random } from '../bench/quality/random.js';

// Stroke letters people write without their stroke, which NFD does not decompose (unicode.h withoutDiacritic).
const STROKES = { 'ø': 'o', 'đ': 'd', 'ł': 'l', 'ħ': 'h', 'ŧ': 't', 'ı': 'i', 'ƀ': 'b', 'ƚ': 'l', 'ɇ': 'e', 'ɉ': 'j', 'ɍ': 'r', 'ɏ': 'y', 'ƶ': 'z',
  'Ƶ': 'z', 'ǥ': 'g', 'Ǥ': 'g' };

/** A Latin letter of U+00C0..U+024F or U+1E00..U+1EFF without its diacritics, as the definition says; others unchanged. */
function baseLetter(c) {
  const cp = c.codePointAt(0);
  if (!((cp >= 0xc0 && cp < 0x250) || (cp >= 0x1e00 && cp < 0x1f00))) return c;
  // The core folds the case of Latin-1 and Latin Extended-A only (README "Similarity").
  const lower = STROKES[c] ?? (cp < 0x180 ? STROKES[c.toLowerCase()] : undefined);
  if (lower) return lower;
  const d = c.normalize('NFKD');
  return d.length > 1 && /^[a-z]$/i.test(d[0]) && /^\p{M}+$/u.test(d.slice(1)) ? d[0].toLowerCase() : c;
}

// The traditional Han characters nameList writes, and their simplified forms (Unihan kSimplifiedVariant).
const SIMPLIFIED = { 學: '学', 國: '国', 東: '东', 華: '华' };
// Legal forms written out, and their short forms; conjunctions have none (docs/lists.md "Normalization").
const SHORT_FORMS = { incorporated: 'inc', corporation: 'corp', limited: 'ltd', company: 'co', aktiengesellschaft: 'ag', kommanditgesellschaft: 'kg' };
const CONJUNCTIONS = new Set(['and', 'und', 'et']);
// CJK legal forms, longest first: dropped at either end of a word, again and again, while more is left.
const CJK_LEGAL_FORMS = ['股份有限公司', '有限责任公司', '유한책임회사', '有限公司', '株式会社', '有限会社', '合同会社', '合资会社', '合名会社', '주식회사', '유한회사'];

function withoutCjkLegalForms(word) {
  let rest = word;
  for (let form; (form = CJK_LEGAL_FORMS.find((f) => rest.startsWith(f))) && form.length < rest.length;) rest = rest.slice(form.length);
  for (let form; (form = CJK_LEGAL_FORMS.find((f) => rest.endsWith(f))) && form.length < rest.length;) rest = rest.slice(0, -form.length);
  return rest;
}

/** The list normalization's words of a text (characters whose folding JS and the core agree on). */
function words(text) {
  const unfolded = wordsUnshortened(text);
  return unfolded.map((word) => SHORT_FORMS[word] ?? withoutCjkLegalForms(word))
    .filter((word, i) => !(CONJUNCTIONS.has(word) && i > 0 && i < unfolded.length - 1));
}

function wordsUnshortened(text) {
  const folded = foldHalfwidthKana(text).replace(/[學國東華]/g, (c) => SIMPLIFIED[c]).replace(/[\uff21-\uff3a\uff41-\uff5a\uff10-\uff19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toLowerCase().replace(/\p{P}/gu, '').replace(/[\u0300-\u036f]/g, '');
  const chars = Array.from(folded, baseLetter);
  const out = [];
  let word = '';
  for (let i = 0; i < chars.length; i++) {
    if (!/\p{White_Space}/u.test(chars[i])) {
      word += chars[i];
      continue;
    }
    let end = i;
    while (end < chars.length && /\p{White_Space}/u.test(chars[end])) end++;
    // Whitespace between two CJK characters is removed, so their runs are one word.
    if (!(i > 0 && end < chars.length && isCjk(chars[i - 1]) && isCjk(chars[end])) && word) out.push(word), word = '';
    i = end - 1;
  }
  if (word) out.push(word);
  return out;
}

/** The definition: weights by word from `list` (none when null), framed bigrams, Σ min / Σ max. */
function reference(list) {
  const df = new Map();
  for (const text of list ?? []) for (const word of new Set(words(text))) df.set(word, (df.get(word) ?? 0) + 1);
  const weight = (word) => {
    if (!list) return 1;
    const held = (df.get(word) ?? 0) + 1;
    let k = 0;
    while (k < 8 && held * 2 ** (k + 1) <= list.length + 1) k++;
    return Math.max(1, k);
  };
  const bigrams = (text) => {
    const out = new Map();
    for (const word of words(text)) {
      const framed = [' ', ...word, ' '];
      for (let i = 0; i + 1 < framed.length; i++) {
        const g = framed[i] + framed[i + 1];
        out.set(g, Math.max(out.get(g) ?? 0, weight(word)));
      }
    }
    return out;
  };
  return (a, b) => {
    const x = bigrams(a), y = bigrams(b);
    let min = 0, max = 0;
    for (const [g, w] of x) {
      const v = y.get(g);
      min += v === undefined ? 0 : Math.min(w, v);
      max += v === undefined ? w : Math.max(w, v);
    }
    for (const [g, w] of y) if (!x.has(g)) max += w;
    return x.size + y.size ? min / max : 1;
  };
}

/** Name-like lines with common words, diacritics, CJK and punctuation, half of them with a variant planted next. */
function nameList(seed, count) {
  const random = new Random(seed);
  const pieces = ['jo', 'sé', 'Mü', 'ller', 'gar', 'cía', 'an', 'na', 'ber', 'tó', 'ka', 'Ø', 'łó', 'ñ', '北京', '大學', '大学', '國', '国', '東華', '华东', 'ｶﾞ', 'ー', '株式会社', '有限公司', '股份有限公司', '주식회사', '会社'];
  const common = ['Inc.', 'Incorporated', 'Corp', 'Corporation', 'Limited', 'AKTIENGESELLSCHAFT', 'Street', 'GmbH', 'of', 'the', 'and', '&', 'Und', 'et'];
  const vocabulary = Array.from({ length: 200 }, () => Array.from({ length: 1 + random.int(3) }, () => pieces[random.int(pieces.length)]).join(''));
  const list = [];
  while (list.length < count) {
    const line = Array.from({ length: 1 + random.int(4) }, () => (random.int(3) === 0 ? common[random.int(common.length)] : vocabulary[random.int(vocabulary.length)]))
      .join(random.int(4) === 0 ? ', ' : ' ');
    list.push(line);
    if (random.int(2) === 0) list.push(random.int(2) === 0 ? line.slice(0, -1) : `${line.split(' ').reverse().join(' ')} x`);
  }
  return list.slice(0, count);
}

let pool;
before(async () => { pool = await createPool({ size: 2 }); });
after(() => pool.terminate());

test('the examples people call duplicates', () => {
  const short = (a, b) => sh.similarity(a, b, { measure: 'short' });
  assert.equal(short('John Smith', 'Smith, John'), 1);
  assert.equal(short('José García', 'Jose Garcia'), 1);
  assert.equal(short('Müller', 'MULLER'), 1);
  assert.equal(short('John Smith', 'Jon Smith'), 0.75);
  assert.ok(short('Microsoft', 'Mircosoft') > sh.similarity('Microsoft', 'Mircosoft'));
  assert.ok(short('mitchell green', 'mitchel greeen') > 0.9);
  // The weights of a list make its common words count less.
  const list = ['Acme Corporation', 'Apex Corporation', 'Zenith Corporation', 'Acme Corp.', 'Orbit Corporation', 'Nova Corporation', 'Vega Corporation'];
  const weights = sh.learnWeights(list);
  assert.equal(weights.texts, list.length);
  assert.ok(sh.similarity('Acme Corporation', 'Apex Corporation', { measure: 'short', weights }) < short('Acme Corporation', 'Apex Corporation'));
});

test('the core equals the definition in JS, with and without a list\'s weights, one pair and many', () => {
  const list = nameList('short/reference', 500);
  const weights = sh.learnWeights(list);
  const random = new Random('short/pairs');
  const a = Uint32Array.from({ length: 4000 }, () => random.int(list.length));
  const b = Uint32Array.from(a, (i, p) => (p < 500 ? Math.min(i + 1, list.length - 1) : random.int(list.length)));
  for (const [options, expected] of [[{ measure: 'short' }, reference(null)], [{ measure: 'short', weights }, reference(list)]]) {
    const batch = sh.similarities(list, { a, b }, options);
    for (let p = 0; p < a.length; p++) {
      const x = list[a[p]], y = list[b[p]];
      const want = expected(x, y);
      assert.equal(batch[p], want, `${JSON.stringify(x)} / ${JSON.stringify(y)}`);
      if (p < 300) assert.equal(sh.similarity(x, y, options), want);
    }
  }
});

test('every letter of the diacritic table has the base letter NFD gives it', () => {
  const source = readFileSync(new URL('../../cpp/src/text/unicode.cpp', import.meta.url), 'utf8');
  assert.match(source, /kLatinBase\[\]/);
  for (const [first, last] of [[0xc0, 0x24f], [0x1e00, 0x1eff]]) {
    for (let cp = first; cp <= last; cp++) {
      const c = String.fromCodePoint(cp);
      const base = baseLetter(c);
      if (base === c) continue;
      assert.equal(sh.similarity(`x${c}y`, `x${base}y`, { measure: 'short' }), 1, `U+${cp.toString(16)} ${c} -> ${base}`);
    }
  }
  assert.equal(sh.similarity('Jose\u0301', 'José', { measure: 'short' }), 1, 'a combining mark is removed');
});

test("dedup by default compares short lists by the short measure with the list's own weights, and says so", async () => {
  const list = nameList('short/auto', 300);
  assert.equal(measureFor(list), 'short');
  const result = await sh.dedup(list);
  assert.equal(result.measure, 'short');
  assert.equal(result.similarity, DEFAULT_SIMILARITY_OF.short);
  assert.deepEqual(result.weights.toData(), sh.learnWeights([...new Set(list)]).toData(), 'learned from the distinct texts');
  const again = await sh.dedup(list, { measure: 'short', weights: result.weights });
  assert.deepEqual(again.groups, result.groups, 'the learned weights given back give the same groups');
  const text = await sh.dedup(list, { measure: 'text' });
  assert.equal(text.measure, 'text');
  assert.equal(text.weights, undefined);
  // Longer texts: titles up to RECORD_MAX_BYTES take the short measure, sentences and longer texts the text measure.
  const long = list.map((line) => line.padEnd(SHORT_MAX_MEAN_BYTES + 10, ' and more words'));
  assert.equal((await sh.dedup(long)).measure, 'short');
  assert.equal((await sh.dedup(long.map((line) => `${line}.`))).measure, 'text', 'sentences');
  assert.equal((await sh.dedup(long.map((line) => `"${line}!"`))).measure, 'text', 'a quote ends in punctuation too');
  assert.equal(measureFor(long.map((line, i) => (i % 2 ? `${line}.` : line))), 'text', 'half of them sentences');
  assert.equal(measureFor(list.map((line) => line.padEnd(RECORD_MAX_BYTES + 1, ' and more words'))), 'text', 'above RECORD_MAX_BYTES');
  // One-line records go to the short measure however long they are, up to RECORD_MAX_BYTES;
  // sentences with commas do not.
  const records = list.map((line, i) => `${line}, ${i % 97} Hauptstraße, Springfield North, 19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}, +61 2 9${i}`);
  assert.ok(records.every((r) => Buffer.byteLength(r) <= RECORD_MAX_BYTES) && Buffer.byteLength(records.join('')) > 72 * records.length, 'records over 72 bytes on average');
  assert.equal((await sh.dedup(records)).measure, 'short');
  const sentences = records.map((r) => `${r.slice(0, 60)}, which is where we all lived for many years.`);
  assert.equal((await sh.dedup(sentences)).measure, 'text', 'fields of more than four words make a sentence');
  assert.equal(measureFor(records.map((r) => `${r}.`)), 'short', 'records ending in a full stop are records still');
  // Japanese titles of 30 characters (80 bytes of UTF-8) are titles, and their model numbers
  // and words are compared as look-alikes; sentences are not.
  const titles = [
    'ユニクロ メンズ エアリズムコットンオーバーサイズTシャツ ブラック', 'ユニクロ ウィメンズ エアリズムコットンオーバーサイズTシャツ ブラック',
    'ソニー ワイヤレスヘッドホン WH-1000XM5 ブラック', 'ソニー ワイヤレスヘッドホン WH-1000XM4 ブラック',
  ];
  assert.ok(Buffer.byteLength(titles.join('')) > 72 * titles.length, 'titles over 72 bytes of UTF-8 on average');
  assert.deepEqual((await sh.dedup(titles, { measure: 'text' })).groups, [[0, 1], [2, 3]], 'the text measure merges them');
  const byTitles = await sh.dedup(titles);
  assert.equal(byTitles.measure, 'short');
  assert.deepEqual(byTitles.groups, [], 'men / women, XM5 / XM4: no merge');
  assert.deepEqual(byTitles.review.map((e) => e.differs), [{ words: [['メンズ'], ['ウィメンズ']] }, { numbers: [['WH-1000XM5'], ['WH-1000XM4']] }]);
  const japaneseSentences = titles.map((t) => `${t}を昨日の夕方に駅前の店で買いましたが、サイズが合わなかったので返品しました。`);
  assert.equal(measureFor(japaneseSentences), 'text');
  assert.equal(measureFor(['北京大学的图书馆今天下午因为系统维护暂时关闭，请同学们明天再来借书，谢谢大家的理解与配合。']), 'text');
  // Short sentences too (24 characters, 75 bytes).
  assert.equal(measureFor(['这家餐厅的菜很好吃，服务也很周到，下次还会再来。', '这家餐厅的菜非常好吃，服务也很周到，下次还会再来！']), 'text');
  assert.equal((await sh.dedup(list, { maxDistance: 3 })).measure, undefined, 'fingerprint-only mode has no measure');
});

test('a list with many rows per entity is weighed by its words once per provisional entity: patent applicants', async () => {
  // tests/data/lists/patstat-applicants.tsv (SOURCE.md): 2,379 rows of 102 organisations, 676 of them Philips'.
  const rows = readFileSync(new URL('../data/lists/patstat-applicants.tsv', import.meta.url), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const texts = rows.map(([, text]) => text);
  const entity = rows.map(([id]) => id);
  const distinct = [...new Set(texts)];
  const pairs = (groups) => {
    let grouped = 0, same = 0;
    for (const group of groups) {
      for (let x = 0; x < group.length; x++) for (let y = x + 1; y < group.length; y++) grouped++, same += entity[group[x]] === entity[group[y]];
    }
    return { grouped, same };
  };
  let truePairs = 0;
  const sizes = new Map();
  for (const id of entity) sizes.set(id, (sizes.get(id) ?? 0) + 1);
  for (const n of sizes.values()) truePairs += (n * (n - 1)) / 2;
  const result = await sh.dedup(texts);
  assert.equal(result.measure, 'short');
  assert.ok(result.weights.texts < distinct.length / 2, `learned from ${result.weights.texts} provisional entities, not ${distinct.length} rows`);
  const perRow = await sh.dedup(texts, { weights: sh.learnWeights(distinct) });
  const ours = pairs(result.groups);
  const rowWise = pairs(perRow.groups);
  assert.ok(ours.same / ours.grouped >= 0.99 && rowWise.same / rowWise.grouped >= 0.99, 'both precise');
  // Measured: recall 0.619 against 0.429 with per-row weights (both grouped around the rows most
  // others match; a lone word kept apart from more words).
  assert.ok(ours.same / truePairs > 0.6 && rowWise.same / truePairs < 0.45, `recall ${ours.same / truePairs} against ${rowWise.same / truePairs}`);
  const again = await sh.dedup(texts, { weights: result.weights });
  assert.deepEqual(again.groups, result.groups, 'the weights given back give the same groups');
  assert.deepEqual((await pool.dedup(texts)).groups, result.groups, 'the pool groups alike');
});

test('dedup by the short measure: every group verified, at least 0.99 of the brute-force pairs grouped, both groupings; the pool identical', async () => {
  const list = nameList('short/brute', 2000);
  const weights = sh.learnWeights([...new Set(list)]);
  const s = DEFAULT_SIMILARITY_OF.short;
  const a = [], b = [];
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) a.push(i), b.push(j);
  const all = sh.similarities(list, { a: Uint32Array.from(a), b: Uint32Array.from(b) }, { measure: 'short', weights });
  const near = [];
  for (let p = 0; p < all.length; p++) if (all[p] >= s) near.push(p);
  assert.ok(near.length > 500, `${near.length} pairs at ${s}`);
  for (const grouping of ['components', 'leader']) {
    const result = await sh.dedup(list, { grouping });
    const label = new Int32Array(list.length).map((_, i) => i);
    for (const group of result.groups) for (const i of group) label[i] = group[0];
    if (grouping === 'leader') {
      for (const group of result.groups) for (const i of group.slice(1)) assert.ok(sh.similarity(list[group[0]], list[i], { measure: 'short', weights }) >= s);
    } else {
      const together = near.filter((p) => label[a[p]] === label[b[p]]).length;
      assert.ok(together >= 0.99 * near.length, `${together} of ${near.length} pairs grouped`);
    }
    const pooled = await pool.dedup(list, { grouping });
    assert.deepEqual({ ...pooled, weights: pooled.weights.toData() }, { ...result, weights: result.weights.toData() });
  }
  const reviewed = await sh.dedup(list, { review: 0.4 });
  const pooledReview = await pool.dedup(list, { review: 0.4 });
  assert.deepEqual(pooledReview.review, reviewed.review);
  for (const { a: x, b: y, similarity, contained } of reviewed.review) {
    assert.equal(similarity, sh.similarity(list[x], list[y], { measure: 'short', weights }));
    assert.ok(similarity >= 0.4 || contained, 'at the review threshold, or one holds the other\'s words');
  }
});

test('text index by the short measure: the stream keeps dedup\'s leaders at 0.7; answers are exact; bytes keep measure and weights', async (t) => {
  // The contract's condition (README "Text index"): dedup keeps no look-alike apart, so the entries it lists are left out.
  let list = nameList('short/index', 1500);
  for (let round = 0; round < 5; round++) {
    const { review } = await sh.dedup(list, { measure: 'short', weights: sh.learnWeights(list), similarity: 0.7 });
    if (review.length === 0) break;
    const listed = new Set(review.flatMap(({ a, b }) => [list[a], list[b]]));
    list = list.filter((text) => !listed.has(text));
  }
  assert.ok(list.length > 1300, `${list.length} texts left`);
  const weights = sh.learnWeights(list);
  assert.equal(disposing(t, sh.createTextIndex({ measure: 'short' })).similarity, DEFAULT_SIMILARITY_OF.short);
  // The stream contract holds from 0.7 (README "Text index"); below, dedup bands weighted sets with more rows.
  const similarity = 0.7;
  const index = disposing(t, sh.createTextIndex({ measure: 'short', weights, similarity }));
  assert.equal(index.measure, 'short');
  const kept = [];
  list.forEach((text, i) => {
    const matches = index.query(text);
    for (const match of matches) assert.equal(match.similarity, sh.similarity(text, list[match.id], { measure: 'short', weights }));
    if (matches.length === 0) index.add(text, i), kept.push(i);
  });
  return sh.dedup(list, { measure: 'short', weights, similarity }).then((result) => {
    assert.deepEqual(result.review, []);
    assert.ok(kept.length < list.length - 100, `${list.length - kept.length} found`);
    assert.deepEqual(kept, result.uniqueIndices);
    const loaded = disposing(t, sh.loadTextIndex(index.serialize()));
    assert.equal(loaded.measure, 'short');
    assert.deepEqual(loaded.serialize(), index.serialize());
    for (const text of list.slice(0, 200)) assert.deepEqual(loaded.query(text), index.query(text));
  });
});

test('bad measures and weights: TypeError or RangeError naming the argument; the instance works afterwards', async (t) => {
  assert.throws(() => sh.similarity('a', 'b', { measure: 'names' }), { name: 'RangeError', message: /options.measure must be one of 'text', 'short'/ });
  assert.throws(() => sh.similarity('a', 'b', { weights: sh.learnWeights(['a']) }), { name: 'TypeError', message: /options.weights needs the measure 'short', not 'text'/ });
  assert.throws(() => sh.similarity('a', 'b', { measure: 'short', weights: {} }), { name: 'TypeError', message: /options.weights must be WordWeights/ });
  assert.throws(() => sh.similarity('a', 'b', { mesure: 'short' }), { name: 'TypeError', message: /options.mesure is not an option/ });
  assert.throws(() => sh.learnWeights('a b c'), { name: 'TypeError', message: /texts must be an array/ });
  assert.throws(() => sh.learnWeights([1]), { name: 'TypeError', message: /texts\[0\] must be a string/ });
  assert.throws(() => sh.loadWeights({ texts: 1, hashes: new BigUint64Array(2), counts: new Uint32Array(1) }), { name: 'TypeError', message: /weights data must be/ });
  assert.throws(() => sh.createTextIndex({ weights: sh.learnWeights(['a']) }), { name: 'TypeError', message: /init.weights needs the measure 'short', not 'text'/ });
  assert.throws(() => sh.createTextIndex({ measure: 'auto' }), { name: 'RangeError', message: /init.measure/ });
  await assert.rejects(sh.dedup(['a'], { measure: 'text', weights: null }), { name: 'TypeError', message: /options.weights needs the measure 'short'/ });
  await assert.rejects(sh.dedup(['a'], { maxDistance: 3, measure: 'short' }), { name: 'TypeError', message: /options.measure needs dedup by similarity/ });
  const long = ['x'.repeat(200), 'y'.repeat(200)];
  await assert.rejects(sh.dedup(long, { weights: null }), { name: 'TypeError', message: /needs the measure 'short', not 'text'/ });
  const heap = sh.heapBytesInUse;
  assert.equal(sh.similarity('John Smith', 'Smith, John', { measure: 'short', weights: sh.learnWeights(['John Smith']) }), 1);
  assert.equal(sh.heapBytesInUse, heap, 'lent weights are freed');
  const index = disposing(t, sh.createTextIndex({ measure: 'short' }));
  assert.equal(index.add('still works'), 0);
});

test('loadWeights refuses data out of the contract at once, field by field; good data round-trips; the instance works afterwards', async (t) => {
  const list = ['Acme Inc', 'Apex Inc', 'Acme, inc.', 'Zeta GmbH', 'Zeta Corp'];
  const learned = sh.learnWeights(list);
  const data = learned.toData();
  assert.ok(data.hashes.length >= 4 && data.counts.includes(3), 'acme, apex, inc (3), zeta, gmbh, corp');
  /** data with field `key` changed by edit(copy of its array). */
  const with_ = (key, edit) => {
    const copy = { ...data, hashes: data.hashes.slice(), counts: data.counts.slice() };
    if (key === 'texts') copy.texts = edit(copy.texts);
    else edit(copy[key]);
    return copy;
  };
  const invalid = (pattern) => ({ name: 'Error', message: new RegExp(`^invalid word weights data: ${pattern}`) });
  const refused = [
    ['hashes out of order', with_('hashes', (h) => ([h[1], h[2]] = [h[2], h[1]])), invalid('hashes\\[2\\] \\(\\d+\\) is not above hashes\\[1\\]')],
    ['descending hashes', with_('hashes', (h) => h.reverse()), invalid('hashes\\[1\\] .* must ascend strictly')],
    ['a repeated hash', with_('hashes', (h) => (h[3] = h[2])), invalid('hashes\\[3\\] \\(\\d+\\) is not above hashes\\[2\\]')],
    ['a count of 0', with_('counts', (c) => (c[1] = 0)), invalid('counts\\[1\\] is 0, not within 1..texts \\(5\\)')],
    ['a count above texts', with_('counts', (c) => (c[0] = 6)), invalid('counts\\[0\\] is 6, not within 1..texts \\(5\\)')],
    ['texts below a count', with_('texts', () => 2), invalid('counts\\[\\d\\] is 3, not within 1..texts \\(2\\)')],
    ['no texts, some words', with_('texts', () => 0), invalid('counts\\[0\\] is \\d, not within 1..texts \\(0\\)')],
    ['a count of 2^32 - 1', with_('counts', (c) => (c[c.length - 1] = 0xffffffff)), invalid(`counts\\[${data.counts.length - 1}\\] is 4294967295`)],
  ];
  const heap = sh.heapBytesInUse;
  for (const [what, bad, error] of refused) assert.throws(() => sh.loadWeights(bad), error, what);
  assert.equal(sh.heapBytesInUse, heap, 'a refused load leaves WASM memory as it was');
  // Wrong types stay a TypeError: lengths that differ, other arrays, texts not a u32.
  const typeError = { name: 'TypeError', message: /weights data must be/ };
  assert.throws(() => sh.loadWeights({ ...data, counts: data.counts.subarray(1) }), typeError);
  assert.throws(() => sh.loadWeights({ ...data, hashes: data.hashes.subarray(1) }), typeError);
  assert.throws(() => sh.loadWeights({ ...data, hashes: Array.from(data.hashes) }), typeError);
  assert.throws(() => sh.loadWeights({ ...data, counts: Int32Array.from(data.counts) }), typeError);
  assert.throws(() => sh.loadWeights({ ...data, texts: -1 }), typeError);
  assert.throws(() => sh.loadWeights({ ...data, texts: 2 ** 32 }), typeError);
  assert.throws(() => sh.loadWeights(null), typeError);

  // Data at the contract's edges loads: no words, one word, counts of exactly 1 and texts, the extreme hashes.
  const edges = [
    { texts: 0, hashes: new BigUint64Array(0), counts: new Uint32Array(0) },
    { texts: 1, hashes: BigUint64Array.of(7n), counts: Uint32Array.of(1) },
    { texts: 0xffffffff, hashes: BigUint64Array.of(0n, 2n ** 64n - 1n), counts: Uint32Array.of(1, 0xffffffff) },
  ];
  for (const edge of edges) {
    const loaded = sh.loadWeights(edge);
    assert.deepEqual(loaded.toData(), edge);
    assert.equal(typeof sh.similarity('Acme Inc', 'Acme', { measure: 'short', weights: loaded }), 'number');
  }

  // Good data round-trips, weighs as the learned weights, and is the loader's own copy.
  const loaded = sh.loadWeights(data);
  assert.deepEqual(loaded.toData(), data);
  assert.equal(loaded.texts, learned.texts);
  assert.equal(loaded.words, learned.words);
  const before = sh.similarity('Acme Inc', 'Acme Corp', { measure: 'short', weights: learned });
  data.hashes.reverse();
  data.counts.fill(0);
  assert.equal(sh.similarity('Acme Inc', 'Acme Corp', { measure: 'short', weights: loaded }), before, 'later changes to the given arrays change nothing');
  assert.deepEqual(loaded.toData(), learned.toData());

  // After the refusals, the instance answers as before: weights, dedup and the text index.
  assert.equal(sh.similarity('Acme Inc', 'Acme Corp', { measure: 'short', weights: sh.learnWeights(list) }), before);
  const result = await sh.dedup(list, { measure: 'short', weights: loaded });
  assert.deepEqual(result.weights.toData(), learned.toData());
  const index = disposing(t, sh.createTextIndex({ measure: 'short', weights: loaded }));
  assert.equal(index.add('Acme Inc'), 0);
  assert.equal(index.query('ACME, Inc.')[0].similarity, 1);
});

test('text index bytes carrying word weights: every truncation and byte flip is a descriptive Error; the instance keeps working', (t) => {
  // Weights out of the contract under a valid checksum are refused field by field in
  // tests/cpp/word_weights_test.cpp and tests/fuzz/fuzz_short.cpp: JS has no XXH3 of
  // arbitrary bytes to recompute the checksum with.
  const weights = sh.learnWeights(['Acme Inc', 'Apex Inc', 'Zeta GmbH']);
  const index = disposing(t, sh.createTextIndex({ measure: 'short', weights }));
  index.add('Acme Inc');
  const bytes = index.serialize();
  const weightsEnd = 32 + 8 + 12 * weights.words;
  const heap = sh.heapBytesInUse;
  for (let size = 0; size < bytes.length; size++) {
    assert.throws(() => sh.loadTextIndex(bytes.slice(0, size)), { name: 'Error', message: /^invalid serialized text index: / });
  }
  for (let i = 0; i < weightsEnd + 4; i++) {
    const damaged = bytes.slice();
    damaged[i] ^= 0x01;
    assert.throws(() => sh.loadTextIndex(damaged), { name: 'Error', message: /^invalid serialized text index: / }, `byte ${i}`);
  }
  assert.equal(sh.heapBytesInUse, heap);
  const loaded = disposing(t, sh.loadTextIndex(bytes));
  assert.equal(loaded.measure, 'short');
  assert.deepEqual(loaded.serialize(), bytes);
  assert.deepEqual(loaded.query('ACME inc.'), index.query('ACME inc.'));
});
