// js/bindings/text-index.js through the WASM build: the API and its id contract; answers that are
// exact (each one's similarity is sh.similarity's, none below the threshold) and complete
// (recall >= 0.99 against brute force on English and Chinese fortunes with light edits);
// the stream contract with dedup; serialized bytes that round-trip and reject any damage.
// Hostile arguments and heap checks of a failed call are in hostile.test.js and memory.test.js.
import { test, describe } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sh, disposing } from './helpers.js';
import { DEFAULT_SIMILARITY, usesBanding } from '../../js/core/thresholds.js';
import { FORTUNES_DIR, loadChinese, loadEnglish } from '../bench/quality/corpora.js';
import { lightEditPairs } from '../bench/quality/light-edits.js';
import { Random } from '../bench/quality/random.js';

const NO_CORPORA = !existsSync(`${FORTUNES_DIR}/chinese`) && 'needs fortunes and fortunes-zh (bash tests/bench/fetch-corpora.sh --tests)';

describe('the API', () => {
  test('add, addAll, query, remove, has, size, similarity; ids as SimHashIndex\'s', (t) => {
    const index = disposing(t, sh.createTextIndex());
    assert.equal(index.similarity, DEFAULT_SIMILARITY);
    assert.equal(index.size, 0);
    assert.deepEqual(index.query('anything at all'), []);
    const fox = 'The quick brown fox jumps over the lazy dog.';
    assert.equal(index.add(fox), 0, 'fresh ids start at 0');
    assert.equal(index.add('an unrelated line of text', 10), 10, 'a caller-chosen id');
    assert.equal(index.add('天下没有不散的宴席。'), 1, 'caller-chosen ids do not move the counter');
    assert.deepEqual(index.addAll(['The quick brown fox jumped over the lazy dog!', 'the quick brown fox jumps over the lazy dog']), Uint32Array.of(2, 3));
    assert.deepEqual(index.addAll(['another unrelated line', 'x'], [20, 4]), Uint32Array.of(20, 4));
    assert.equal(index.add('y'), 5, 'a fresh id skips ids that are stored');
    assert.equal(index.size, 8);
    assert.ok(index.has(10) && index.has(20) && !index.has(6));

    const answers = index.query(fox);
    assert.deepEqual(answers.map((m) => m.id), [0, 3, 2], 'by similarity descending, then id ascending');
    assert.equal(answers[0].similarity, 1);
    assert.equal(answers[1].similarity, 1, 'case and punctuation are normalized away');
    assert.equal(answers[2].similarity, sh.similarity(fox, 'The quick brown fox jumped over the lazy dog!'));
    assert.deepEqual(index.query(fox, { limit: 2 }), answers.slice(0, 2));
    assert.deepEqual(index.query(fox, { limit: 1 }), answers.slice(0, 1));
    assert.deepEqual(index.query('天下，没有不散的宴席'), [{ id: 1, similarity: 1, kind: 'duplicate' }], 'punctuation is normalized away');

    assert.equal(index.remove(0), true);
    assert.equal(index.remove(0), false);
    assert.equal(index.has(0), false);
    assert.deepEqual(index.query(fox).map((m) => m.id), [3, 2], 'a removed id is never returned');
    assert.equal(index.size, 7);
    assert.equal(index.add(fox), 6, 'a removed id is not handed out again');
    assert.throws(() => index.add('z', 6), { name: 'Error', message: 'id 6 is already stored in this index' });
    assert.throws(() => index.addAll(['a', 'b'], [30, 6]), { name: 'Error', message: 'ids[1] = 6 is already stored in this index' });
    assert.throws(() => index.addAll(['a', 'b'], [30, 30]), { name: 'Error', message: 'ids[1] = 30 repeats ids[0]' });
    assert.equal(index.size, 8, 'failed adds stored nothing');
    assert.equal(index.has(30), false);
    assert.equal(index.add('w'), 7, 'and moved no counter');
  });

  test('the threshold, and fingerprint options accepted without changing the answers', (t) => {
    const texts = ['the cat sat on the mat', 'the cat sat on a mat', 'the cat sat on the hat', 'a dog sat on the mat'];
    const answers = (init) => {
      const index = disposing(t, sh.createTextIndex(init));
      index.addAll(texts);
      return texts.map((text) => index.query(text));
    };
    for (const similarity of [0.5, 0.7, 0.9, 1]) {
      const got = answers({ similarity });
      texts.forEach((text, i) => {
        const expected = texts.map((other, id) => ({ id, similarity: sh.similarity(text, other), kind: 'duplicate' }))
          .filter((m) => m.similarity >= similarity)
          .sort((a, b) => b.similarity - a.similarity || a.id - b.id);
        assert.deepEqual(got[i], expected, `${text} at ${similarity}`);
      });
      assert.deepEqual(answers({ similarity, options: { tokenizer: 'chars', charNgram: 4, nfkc: true, weighting: 'tf' } }), got);
    }
    assert.equal(disposing(t, sh.createTextIndex({ similarity: 0.75 })).similarity, 0.75);
  });

  test('serialize and loadTextIndex: the same answers, threshold, ids and id counter', (t) => {
    const index = disposing(t, sh.createTextIndex({ similarity: 0.6 }));
    index.addAll(['hello world, how are you', 'Hello world! How are you?', '你好，世界', 'goodbye world']);
    index.add('hello there world, how are you', 100);
    index.remove(3);
    const loaded = disposing(t, sh.loadTextIndex(index.serialize()));
    assert.equal(loaded.similarity, 0.6);
    assert.equal(loaded.size, index.size);
    for (const id of [0, 1, 2, 3, 4, 100]) assert.equal(loaded.has(id), index.has(id));
    for (const text of ['hello world how are you', '你好世界', 'goodbye world']) assert.deepEqual(loaded.query(text), index.query(text));
    assert.equal(loaded.add('next'), 4, 'the id counter survives (3 was handed out and removed)');
    assert.deepEqual(loaded.serialize().subarray(0, 4), new TextEncoder().encode('SHTX'));
  });

  test('review: matches below the threshold marked apart, checked as dedup\'s review, carried by serialize', (t) => {
    const index = disposing(t, sh.createTextIndex({ review: 0.5 }));
    assert.equal(index.review, 0.5);
    assert.equal(disposing(t, sh.createTextIndex()).review, undefined);
    index.addAll(['How do I reset my password?', 'How do I reset my password', '这家餐厅的菜很好吃，服务也很周到。', 'a dog ran far away']);
    const question = 'How can I reset my password?';
    const close = sh.similarity(question, 'How do I reset my password?');
    assert.ok(close >= 0.5 && close < DEFAULT_SIMILARITY, `${close}`);
    assert.deepEqual(index.query(question), [{ id: 0, similarity: close, kind: 'review' }, { id: 1, similarity: close, kind: 'review' }]);
    assert.deepEqual(index.query(question, { limit: 1 }), [{ id: 0, similarity: close, kind: 'review' }]);
    const chinese = '这家餐厅的菜非常好吃，服务也很周到！';
    assert.deepEqual(index.query(chinese), [{ id: 2, similarity: sh.similarity(chinese, '这家餐厅的菜很好吃，服务也很周到。'), kind: 'review' }]);
    assert.deepEqual(index.query('How do I reset my password?'), [{ id: 0, similarity: 1, kind: 'duplicate' }, { id: 1, similarity: 1, kind: 'duplicate' }]);
    const loaded = disposing(t, sh.loadTextIndex(index.serialize()));
    assert.equal(loaded.review, 0.5);
    assert.deepEqual(loaded.query(question), index.query(question));
    assert.deepEqual(loaded.serialize(), index.serialize());
    for (const [init, Type] of [[{ review: '0.5' }, TypeError], [{ review: 0.4 }, RangeError], [{ review: 0.8 }, RangeError],
      [{ similarity: 0.6, review: 0.7 }, RangeError], [{ review: NaN }, RangeError]]) {
      assert.throws(() => sh.createTextIndex(init), (e) => e.constructor === Type && /init\.review/.test(e.message), JSON.stringify(init));
    }
  });

  test('serialize: format version 2 writes these bytes (length and checksum), as natively (text_index_test.cpp)', (t) => {
    const index = disposing(t, sh.createTextIndex());
    index.addAll(['the cat sat on the mat', '我们今天去公园散步吧', 'How do I reset my password?', 'How can I reset my password?', 'a dog ran']);
    index.remove(4);
    const bytes = index.serialize();
    assert.equal(bytes.length, 641);
    assert.equal(bytes[4], 2, 'format version 2');
    assert.equal(Buffer.from(bytes.subarray(-8)).toString('hex'), 'ac6cb4cd47ef8c12');
    const withReview = disposing(t, sh.createTextIndex({ review: 0.5 }));
    withReview.addAll(['the cat sat on the mat', '我们今天去公园散步吧', 'How do I reset my password?', 'How can I reset my password?', 'a dog ran']);
    withReview.remove(4);
    const reviewBytes = withReview.serialize();
    assert.equal(reviewBytes.length, 2197);
    assert.equal(reviewBytes[4], 3, 'format version 3: with review');
    assert.equal(Buffer.from(reviewBytes.subarray(-8)).toString('hex'), 'da355d19e4f7efee');
  });

  test('format version 1 bytes (texts normalized before half-width katakana folded) load: texts normalized again, keys made anew, written back as version 2', () => {
    // tests/vectors/text-index-v1.bin: written by 3cdfcf7 from ids 0, 3, 6, 9, 12 (9 removed):
    // 'ｶﾞｸｾｲ ﾉ ｺｰﾋｰ ｦ ﾉﾐﾏｽ｡', '学生のコーヒーを飲みます', 'The cat sat on the mat.', 'ﾊﾟﾝ ﾄ ｶﾞｲﾄﾞ ﾌﾞｯｸ', '天下没有不散的宴席'.
    const bytes = new Uint8Array(readFileSync(new URL('../vectors/text-index-v1.bin', import.meta.url)));
    assert.equal(bytes[4], 1);
    const loaded = sh.loadTextIndex(bytes);
    try {
      assert.equal(loaded.size, 4);
      assert.deepEqual([0, 3, 6, 9, 12].map((id) => loaded.has(id)), [true, true, true, false, true]);
      assert.deepEqual(loaded.query('ガクセイ ノ コーヒー ヲ ノミマス。'), [{ id: 0, similarity: 1, kind: 'duplicate' }], 'the half-width text, folded, is found by its full-width form');
      assert.deepEqual(loaded.query('The cat sat on the mat'), [{ id: 6, similarity: 1, kind: 'duplicate' }]);
      assert.deepEqual(loaded.query('天下没有不散的宴席！'), [{ id: 12, similarity: 1, kind: 'duplicate' }]);
      const again = loaded.serialize();
      assert.equal(again[4], 2);
      const reloaded = sh.loadTextIndex(again);
      assert.deepEqual(reloaded.query('ｶﾞｸｾｲ ﾉ ｺｰﾋｰ ｦ ﾉﾐﾏｽ'), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
      assert.deepEqual(reloaded.serialize(), again, 'a version 2 index writes back the bytes it was loaded from');
      reloaded.dispose();
      const corrupt = bytes.slice();
      corrupt[4] = 4;
      assert.throws(() => sh.loadTextIndex(corrupt), /invalid serialized text index: format version 4 is not supported \(this build reads version 3\)/);
    } finally {
      loaded.dispose();
    }
  });

  test('short-measure bytes written before legal forms and traditional Han were folded load: texts normalized again, written back with the flag', () => {
    // tests/vectors/text-index-short-before-forms.bin: written by 79f149a with the short measure,
    // review 0.4 and the weights of its texts and 'Acme Inc', 'Apex Inc', 'Zeta Corp', from ids
    // 0-5 (4 removed): 'Apple Incorporated', 'Siemens Aktiengesellschaft', 'Johnson and Johnson',
    // '北京大學', 'Deutsche Bank AG', 'Ford Motor Company'.
    const bytes = new Uint8Array(readFileSync(new URL('../vectors/text-index-short-before-forms.bin', import.meta.url)));
    assert.equal(bytes[6] >> 4, 3, 'the list normalization and weights, without the short forms flag');
    const loaded = sh.loadTextIndex(bytes);
    try {
      assert.equal(loaded.size, 5);
      assert.equal(loaded.review, 0.4);
      assert.deepEqual(loaded.query('Apple Inc.'), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
      assert.deepEqual(loaded.query('Siemens AG'), [{ id: 1, similarity: 1, kind: 'duplicate' }]);
      assert.deepEqual(loaded.query('Johnson & Johnson'), [{ id: 2, similarity: 1, kind: 'duplicate' }]);
      assert.deepEqual(loaded.query('北京大学'), [{ id: 3, similarity: 1, kind: 'duplicate' }]);
      assert.equal(loaded.has(4), false);
      const again = loaded.serialize();
      assert.deepEqual([again[6] >> 4, again[7] >> 4], [3, 1], 'written back with the list normalization, weights and the revision 4 (0 in the flags, 1 in the CJK size\'s high bits)');
      const reloaded = sh.loadTextIndex(again);
      assert.deepEqual(reloaded.serialize(), again, 'an index of the current definition writes back the bytes it was loaded from');
      reloaded.dispose();
      const textMeasure = sh.createTextIndex();
      textMeasure.add('a text');
      const flagged = textMeasure.serialize();
      textMeasure.dispose();
      flagged[6] |= 4 << 4;
      assert.throws(() => sh.loadTextIndex(flagged), /invalid serialized text index/);
    } finally {
      loaded.dispose();
    }
  });

  // Short-measure bytes of an earlier revision of the list normalization, each written with the
  // short measure, review 0.4 and the weights of its texts and two more, from ids 0-5 (4 removed);
  // there each query found nothing at the threshold.
  const EARLIER_REVISIONS = [
    // By f2cb896 (revision 1, before CJK legal forms were dropped), the weights' two more
    // 'トヨタ自動車株式会社' and 'Acme Inc': 'ソニー株式会社', '株式会社日立製作所',
    // '中華電信股份有限公司', '삼성전자주식회사', 'Deutsche Bank AG', '三菱商事株式会社'.
    { file: 'text-index-short-before-cjk-forms.bin', revision: 1, queries: ['ソニー', '日立製作所', '中华电信', '삼성전자', '三菱商事'] },
    // By 96ec17b (revision 2, before legal forms of several words were written short), the two
    // more 'Volvo Aktiebolag' and 'Acme Inc': 'Müller Gesellschaft mit beschränkter Haftung',
    // 'Acme Limited Liability Company', 'Renault Société Anonyme', 'Philips Naamloze
    // Vennootschap', 'Deutsche Bank AG', 'Tesco Public Limited Company' (the last found for review, 0.41).
    { file: 'text-index-short-before-legal-phrases.bin', revision: 2, queries: ['Müller GmbH', 'Acme LLC', 'Renault S.A.', 'Philips N.V.', 'Tesco PLC'] },
    // By 0635fd0 (revision 3, before address counters were dropped), the two more '札幌市中央区2丁目'
    // and 'Acme Inc': '梅田3丁目1番1号', '東京都港区六本木1丁目2番3号', '北京市朝阳区建国路88号',
    // '大阪市北区1番地2', 'Deutsche Bank AG', '名古屋市中区3丁目5番' (the third and fourth found
    // for review, 0.55 and 0.47). A `(株)` is not written out as such bytes load: their texts
    // were stored without its brackets.
    { file: 'text-index-short-before-counters.bin', revision: 3, queries: ['梅田3-1-1', '東京都港区六本木1-2-3', '北京市朝阳区建国路88', '大阪市北区1-2', '名古屋市中区3-5'] },
  ];
  for (const { file, revision, queries } of EARLIER_REVISIONS) {
    test(`short-measure bytes of revision ${revision} (${file}) load: texts normalized again, written back as revision 4`, () => {
      const bytes = new Uint8Array(readFileSync(new URL(`../vectors/${file}`, import.meta.url)));
      assert.equal(bytes[6] >> 4, 3 | revision << 2, `the list normalization, weights, revision ${revision}`);
      const loaded = sh.loadTextIndex(bytes);
      try {
        assert.equal(loaded.size, 5);
        const ids = queries.map((name) => loaded.query(name).map(({ id, similarity }) => [id, similarity]));
        assert.deepEqual(ids, [[[0, 1]], [[1, 1]], [[2, 1]], [[3, 1]], [[5, 1]]]);
        const again = loaded.serialize();
        assert.deepEqual([again[6] >> 4, again[7] >> 4], [3, 1], 'written back as revision 4');
        const reloaded = sh.loadTextIndex(again);
        assert.deepEqual(reloaded.serialize(), again, 'an index of the current revision writes back the bytes it was loaded from');
        reloaded.dispose();
      } finally {
        loaded.dispose();
      }
    });
  }

  test('serialize and loadTextIndex move the bytes a piece at a time: WASM memory does not grow by them', (t) => {
    // Each side in a module of its own, the adds in small batches, so that no freed memory
    // (of earlier tests, of a large batch) could hold the bytes, and enough texts that the
    // module's initial memory counts little: writing the bytes whole grew the memory by
    // their size, and loading them whole needed the index and the bytes at once.
    const node = new URL('../../js/node.js', import.meta.url).href;
    const file = join(mkdtempSync(join(tmpdir(), 'simhash-text-index-')), 'index.bin');
    t.after(() => rmSync(dirname(file), { recursive: true, force: true }));
    const run = (program) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', `
      import { init } from ${JSON.stringify(node)};
      import { readFileSync, writeFileSync } from 'node:fs';
      const sh = await init();
      const file = ${JSON.stringify(file)};
      ${program}`], { encoding: 'utf8' }));
    const written = run(`
      const index = sh.createTextIndex();
      const texts = Array.from({ length: 200000 }, (_, i) => 'text ' + i + ' of the serialized index, ' + ((i * 7919) % 10007));
      for (let i = 0; i < texts.length; i += 1000) index.addAll(texts.slice(i, i + 1000));
      const before = sh.memoryBytes;
      const bytes = index.serialize();
      const grew = sh.memoryBytes - before;
      writeFileSync(file, bytes);
      console.log(JSON.stringify({ length: bytes.length, grew, heap: sh.heapBytesInUse }));`);
    assert.ok(written.length > 30 << 20, `${written.length} bytes: many pieces`);
    assert.ok(written.grew < written.length / 4, `serialize grew WASM memory by ${written.grew} bytes for ${written.length}`);
    const loaded = run(`
      const bytes = new Uint8Array(readFileSync(file));
      const index = sh.loadTextIndex(bytes);
      console.log(JSON.stringify({ memory: sh.memoryBytes, heap: sh.heapBytesInUse, same: Buffer.compare(bytes, index.serialize()) === 0 }));`);
    assert.ok(loaded.memory < loaded.heap + written.length / 2, `WASM memory of ${loaded.memory} bytes after loading an index of ${loaded.heap} from ${written.length}`);
    assert.ok(loaded.same, 'the loaded index writes back the same bytes');
  });

  test('dispose, twice, and Symbol.dispose; a disposed index throws', () => {
    const index = sh.createTextIndex();
    index.add('a text');
    if (Symbol.dispose) {
      // Every class that owns WASM memory serves `using` with its dispose().
      for (const owner of [index, sh.createIndex(), sh.learnIdf(['a text'])]) {
        assert.equal(owner[Symbol.dispose], owner.dispose);
        if (owner !== index) owner.dispose();
      }
    }
    index.dispose();
    for (const use of [() => index.add('a'), () => index.addAll(['a']), () => index.query('a'), () => index.remove(0), () => index.has(0),
      () => index.size, () => index.similarity, () => index.serialize()]) {
      assert.throws(use, { name: 'Error', message: 'this text index has been disposed' });
    }
    index.dispose();
  });

  test('texts beyond the single-call scratch buffer, empty texts and lone surrogates', (t) => {
    const index = disposing(t, sh.createTextIndex());
    const long = Array.from({ length: 20000 }, (_, i) => `w${i}`).join(' '); // 118,889 UTF-16 units
    const longer = `${long} and one more sentence`;
    index.addAll([long, '', '\uD800 text']);
    assert.deepEqual(index.query(longer), [{ id: 0, similarity: sh.similarity(longer, long), kind: 'duplicate' }]);
    assert.equal(index.add(longer), 3);
    assert.deepEqual(index.query(''), [{ id: 1, similarity: 1, kind: 'duplicate' }]);
    assert.deepEqual(index.query('\uFFFD text'), [{ id: 2, similarity: 1, kind: 'duplicate' }], 'a lone surrogate is U+FFFD, as the UTF-8 encoder writes it');
  });
});

/** English and Chinese fortunes of 10-300 code points, as the light-edit protocol takes them. */
function corpora() {
  const fits = (record) => {
    const n = [...record].length;
    return n >= 10 && n <= 300;
  };
  return [loadEnglish(), loadChinese()].map((c) => ({ name: c.name, language: c.name, records: c.records.filter(fits) }));
}

/** Bases drawn from the corpus, each with its light-edit variants (quality/light-edits.js). */
function withLightEdits(corpus, bases) {
  return lightEditPairs({ ...corpus, name: `${corpus.name} text index`, bases }).texts;
}

describe('answers on fortunes with light edits', { skip: NO_CORPORA }, () => {
  for (const corpus of NO_CORPORA ? [] : corpora()) {
    test(`${corpus.name}: every answer exact, recall >= 0.99 against brute force at 0.8 and 0.7`, (t) => {
      const texts = withLightEdits(corpus, 200);
      const n = texts.length;
      // Brute force: the similarity of every pair i < j, in one call.
      const pairs = n * (n - 1) / 2;
      const a = new Uint32Array(pairs);
      const b = new Uint32Array(pairs);
      for (let i = 0, p = 0; i < n; i++) for (let j = i + 1; j < n; j++, p++) a[p] = i, b[p] = j;
      const similarity = sh.similarities(texts, { a, b });
      const pairIndex = (i, j) => (i < j ? i * n - i * (i + 1) / 2 + (j - i - 1) : pairIndex(j, i));
      for (const threshold of [0.8, 0.7]) {
        const index = disposing(t, sh.createTextIndex({ similarity: threshold }));
        index.addAll(texts);
        let expected = 0;
        let found = 0;
        for (let q = 0; q < n; q++) {
          const answers = index.query(texts[q]);
          const ids = new Set();
          for (const { id, similarity: s } of answers) {
            assert.ok(s >= threshold, `answer ${id} to ${q} below the threshold: ${s}`);
            assert.equal(s, id === q ? 1 : similarity[pairIndex(q, id)], `similarity of ${q} and ${id}`);
            ids.add(id);
          }
          for (let j = 0; j < n; j++) {
            if (j === q || similarity[pairIndex(q, j)] < threshold) continue;
            expected++;
            if (ids.has(j)) found++;
          }
        }
        const recall = found / expected;
        t.diagnostic(`${corpus.name} at ${threshold}: ${n} texts, ${expected} ordered pairs at or above it, recall ${recall.toFixed(4)}`);
        assert.ok(expected > n, 'the edits plant pairs above the threshold');
        assert.ok(recall >= 0.99, `recall ${recall}`);
      }
      // With review at 0.5: the same duplicates, and the pairs in [0.5, 0.8) listed, exactly.
      const withReview = disposing(t, sh.createTextIndex({ review: 0.5 }));
      const plain = disposing(t, sh.createTextIndex());
      withReview.addAll(texts);
      plain.addAll(texts);
      let inRange = 0;
      let listed = 0;
      for (let q = 0; q < n; q++) {
        const answers = withReview.query(texts[q]);
        assert.deepEqual(answers.filter((m) => m.kind === 'duplicate'), plain.query(texts[q]));
        const ids = new Set();
        for (const { id, similarity: s } of answers) {
          assert.ok(s >= 0.5);
          assert.equal(s, id === q ? 1 : similarity[pairIndex(q, id)], `similarity of ${q} and ${id}`);
          ids.add(id);
        }
        for (let j = 0; j < n; j++) {
          const s = j === q ? 1 : similarity[pairIndex(q, j)];
          if (s < 0.5 || s >= DEFAULT_SIMILARITY) continue;
          inRange++;
          if (ids.has(j)) listed++;
        }
      }
      t.diagnostic(`${corpus.name} with review 0.5: ${inRange} ordered pairs in [0.5, 0.8), listed ${(listed / inRange).toFixed(4)}`);
      assert.ok(inRange > n / 4, 'the edits plant pairs in the review range');
      assert.ok(listed >= 0.99 * inRange, `listed ${listed} of ${inRange}`);
      // sh.similarity itself, on a sample of the answers.
      const index = disposing(t, sh.createTextIndex());
      index.addAll(texts);
      for (let q = 0; q < n; q += 97) {
        for (const { id, similarity: s } of index.query(texts[q])) assert.equal(s, sh.similarity(texts[q], texts[id]));
      }
    });

    test(`${corpus.name}: querying in order and adding what finds nothing keeps dedup's uniqueIndices`, async (t) => {
      // Random records and variants of other records, shuffled.
      const rng = new Random(`${corpus.name}/text index stream`);
      const texts = [...withLightEdits(corpus, 400), ...rng.sampleIndices(corpus.records.length, 2000).map((r) => corpus.records[r])];
      for (let i = texts.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [texts[i], texts[j]] = [texts[j], texts[i]];
      }
      for (const [similarity, review] of [[0.8, undefined], [0.9, undefined], [0.8, 0.5]]) {
        assert.ok(usesBanding(similarity, [...new Set(texts)]), 'the contract is where dedup bands');
        const index = disposing(t, sh.createTextIndex({ similarity, review }));
        const kept = [];
        texts.forEach((text, i) => {
          // Duplicates come first: the first match says whether there is one.
          if (index.query(text, { limit: 1 })[0]?.kind !== 'duplicate') {
            index.add(text, i);
            kept.push(i);
          }
        });
        const { uniqueIndices } = await sh.dedup(texts, { similarity });
        t.diagnostic(`${corpus.name} at ${similarity}${review ? `, review ${review}` : ''}: ${texts.length} texts, ${kept.length} kept`);
        assert.ok(kept.length < texts.length - 500, 'the variants are found');
        assert.deepEqual(kept, uniqueIndices);
      }
    });

    test(`${corpus.name}: a serialized index answers identically once loaded, removed ids included`, (t) => {
      const texts = withLightEdits(corpus, 150);
      const index = disposing(t, sh.createTextIndex());
      index.addAll(texts);
      for (let id = 0; id < texts.length; id += 7) index.remove(id);
      const loaded = disposing(t, sh.loadTextIndex(index.serialize()));
      assert.deepEqual(loaded.serialize(), index.serialize());
      for (let q = 0; q < texts.length; q++) {
        const answers = loaded.query(texts[q]);
        assert.deepEqual(answers, index.query(texts[q]));
        assert.ok(answers.every(({ id }) => id % 7 !== 0), 'a removed id is never returned');
      }
    });
  }
});

for (const review of [undefined, 0.5]) test(`every flipped byte and every truncation of a serialized index${review ? ' with review' : ''} throws an Error; nothing is kept`, (t) => {
  const index = disposing(t, sh.createTextIndex({ similarity: 0.7, review }));
  index.addAll(['hello world', 'Hello, world!', '你好世界', '']);
  index.remove(1);
  const bytes = index.serialize();
  sh.loadTextIndex(bytes).dispose();
  // Twice: the first pass may grow the module's result buffer, which keeps the longest
  // error message; the second must keep nothing.
  let before;
  for (let pass = 0; pass < 2; pass++) {
    before = sh.heapBytesInUse;
    for (let at = 0; at < bytes.length; at++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const damaged = bytes.slice();
        damaged[at] ^= mask;
        assert.throws(() => sh.loadTextIndex(damaged), (e) => e.constructor === Error && /^invalid serialized text index: /.test(e.message), `byte ${at} ^ ${mask}`);
      }
    }
    for (let length = 0; length < bytes.length; length++) {
      assert.throws(() => sh.loadTextIndex(bytes.subarray(0, length)), (e) => e.constructor === Error && /^invalid serialized text index: /.test(e.message), `${length} bytes`);
    }
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    assert.throws(() => sh.loadTextIndex(longer), /invalid serialized text index/);
  }
  assert.equal(sh.heapBytesInUse, before, 'the rejected loads kept nothing');
  const fingerprints = disposing(t, sh.createIndex());
  fingerprints.addAll([1n, 2n, 3n]);
  assert.throws(() => sh.loadTextIndex(fingerprints.serialize()), /missing the 'SHTX' signature/);
});
