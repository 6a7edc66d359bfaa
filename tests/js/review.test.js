// dedup's review pairs (README "Review"): the same groups as without review; every pair
// listed is right (two groups, an exact similarity of at least review, each two groups
// once, in order); nearly every two groups that some pair joins at review or more are
// listed, by brute force over all pairs; the limit; the pool's answer equals one thread's;
// bad options.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sh, random64 } from './helpers.js';
import { SAMPLE } from '../../js/cli/sample.js';
import { createPool } from '../../js/worker.js';
import { containedPairs } from '../../js/dedup/contained.js';

/**
 * The bundled sample with variants of its lines a word or a few characters apart (one-line
 * texts in English and Chinese, similarities across 0.4-1), some copied verbatim.
 */
function sampleWithVariants(seed) {
  const next = random64(seed);
  const pick = (n) => Number(next() % BigInt(n));
  const texts = [];
  for (const line of SAMPLE) {
    texts.push(line);
    for (let v = pick(4); v > 0; v--) {
      if (/[\u4e00-\u9fff]/.test(line)) {
        const chars = [...line];
        for (let e = 1 + pick(3); e > 0; e--) chars[pick(chars.length)] = '的了是在有'[pick(5)];
        texts.push(chars.join(''));
      } else {
        const words = line.split(' ');
        for (let e = 1 + pick(2); e > 0; e--) words[pick(words.length)] = ['really', 'quite', 'the', 'never', 'always'][pick(5)];
        texts.push(words.join(' '));
      }
    }
    if (pick(8) === 0) texts.push(texts[pick(texts.length)]);
  }
  return texts;
}

/** Each item's group in a dedup result: the first item of its group, or itself. */
function groupOf(result, count) {
  const group = Uint32Array.from({ length: count }, (_, i) => i);
  for (const members of result.groups) for (const i of members) group[i] = members[0];
  return group;
}

/** Every pair of items in two groups with a similarity of at least review: per two groups, the most similar (ties: least (a, b)). */
function bruteForce(texts, group, review) {
  const a = [];
  const b = [];
  for (let j = 1; j < texts.length; j++) for (let i = 0; i < j; i++) if (group[i] !== group[j]) { a.push(i); b.push(j); }
  const s = sh.similarities(texts, { a: Uint32Array.from(a), b: Uint32Array.from(b) });
  const best = new Map();
  for (let p = 0; p < a.length; p++) {
    if (s[p] < review) continue;
    const key = `${Math.min(group[a[p]], group[b[p]])},${Math.max(group[a[p]], group[b[p]])}`;
    const held = best.get(key);
    if (!held || s[p] > held.similarity || (s[p] === held.similarity && (a[p] < held.a || (a[p] === held.a && b[p] < held.b)))) {
      best.set(key, { a: a[p], b: b[p], similarity: s[p] });
    }
  }
  return best;
}

/** The checks every review list passes, and its recall against the brute force. */
function checkReview(texts, result, { review }) {
  const group = groupOf(result, texts.length);
  const seen = new Set();
  result.review.forEach((entry, p) => {
    assert.deepEqual(Object.keys(entry), ['a', 'b', 'similarity']);
    assert.ok(entry.a < entry.b, `entry ${p}: a < b`);
    assert.notEqual(group[entry.a], group[entry.b], `entry ${p}: two groups`);
    assert.equal(entry.similarity, sh.similarity(texts[entry.a], texts[entry.b]), `entry ${p}: the exact similarity`);
    assert.ok(entry.similarity >= review, `entry ${p}: at review or more`);
    const key = `${Math.min(group[entry.a], group[entry.b])},${Math.max(group[entry.a], group[entry.b])}`;
    assert.ok(!seen.has(key), `entry ${p}: its two groups once`);
    seen.add(key);
    const before = result.review[p - 1];
    if (before) {
      assert.ok(before.similarity > entry.similarity || (before.similarity === entry.similarity
        && (before.a < entry.a || (before.a === entry.a && before.b < entry.b))), `entry ${p}: in order`);
    }
  });
  const expected = bruteForce(texts, group, review);
  let held = 0;
  let atBest = 0;
  const listed = new Map(result.review.map((entry) => [`${Math.min(group[entry.a], group[entry.b])},${Math.max(group[entry.a], group[entry.b])}`, entry]));
  for (const [key, best] of expected) {
    const entry = listed.get(key);
    if (!entry) continue;
    held++;
    if (entry.similarity === best.similarity) atBest++;
    if (entry.similarity === best.similarity) assert.deepEqual(entry, best, 'the least of the most similar pairs');
  }
  assert.equal(result.reviewOmitted, 0);
  return { expected: expected.size, held, atBest };
}

const texts = sampleWithVariants(5);
// Documents of about 3,000 characters: dedup takes the radius path for them.
const documents = Array.from({ length: 120 }, (_, d) => {
  const lines = Array.from({ length: 40 }, (_, l) => texts[(d * 7 + l * 13) % texts.length]);
  if (d % 3 === 1) lines.splice(d % 40, 8, ...texts.slice(d, d + 8));
  return lines.join(' ');
});

for (const grouping of ['leader', 'components']) {
  for (const review of [0.5, 0.65]) {
    test(`review ${review}, ${grouping}: the groups without review, and nearly every two groups in range through their most similar pair`, async (t) => {
      const plain = await sh.dedup(texts, { grouping });
      const result = await sh.dedup(texts, { grouping, review });
      assert.deepEqual(result.groups, plain.groups);
      assert.deepEqual(result.uniqueIndices, plain.uniqueIndices);
      assert.ok(!('review' in plain) && !('reviewOmitted' in plain), 'no review fields unless asked for');
      const { expected, held, atBest } = checkReview(texts, result, { review });
      t.diagnostic(`${texts.length} texts: ${expected} pairs of groups in range, ${held} listed, ${atBest} through their most similar pair`);
      assert.ok(expected > 100, `${expected} pairs of groups in range`);
      assert.ok(held >= 0.99 * expected, `${held} of ${expected} listed`);
      assert.ok(atBest >= 0.98 * expected, `${atBest} of ${expected} through their most similar pair`);
    });
  }
}

test('review on the radius path (long documents, and maxDistance given): the groups without review, nearly every two groups in range', async (t) => {
  for (const [name, items, options] of [['documents', documents, {}], ['maxDistance 20', texts, { maxDistance: 20, similarity: 0.8 }]]) {
    const plain = await sh.dedup(items, options);
    const result = await sh.dedup(items, { ...options, review: 0.5 });
    assert.deepEqual(result.groups, plain.groups, name);
    const { expected, held } = checkReview(items, result, { review: 0.5 });
    t.diagnostic(`${name}: ${expected} pairs of groups in range, ${held} listed`);
    assert.ok(expected > 20, `${name}: ${expected} pairs of groups in range`);
    assert.ok(held >= 0.99 * expected, `${name}: ${held} of ${expected} listed`);
  }
});

test('reviewLimit keeps exactly the most similar pairs; reviewOmitted is a lower bound of the rest, 0 and exact below the limit; progress reports the review phase', async () => {
  const all = await sh.dedup(texts, { review: 0.5, reviewLimit: 1e9 });
  assert.equal(all.reviewOmitted, 0);
  const phases = [];
  const first = await sh.dedup(texts, { review: 0.5, reviewLimit: 7, onProgress: ({ phase }) => { if (phases.at(-1) !== phase) phases.push(phase); } });
  assert.deepEqual(first.review, all.review.slice(0, 7));
  assert.ok(first.reviewOmitted >= 0 && first.reviewOmitted <= all.review.length - 7, `${first.reviewOmitted} of ${all.review.length - 7}`);
  for (const limit of [1, 30, all.review.length - 1, all.review.length, all.review.length + 1]) {
    const limited = await sh.dedup(texts, { review: 0.5, reviewLimit: limit });
    assert.deepEqual(limited.review, all.review.slice(0, limit), `reviewLimit ${limit}`);
    assert.ok(limited.reviewOmitted <= all.review.length - limited.review.length, `reviewLimit ${limit}`);
    if (limit > all.review.length) assert.equal(limited.reviewOmitted, 0, 'fewer entries than the limit: the review is complete');
  }
  assert.deepEqual(phases, ['fingerprint', 'pairs', 'review', 'groups']);
  const heap = sh.heapBytesInUse;
  await sh.dedup(texts, { review: 0.5 });
  assert.equal(sh.heapBytesInUse, heap, 'the review frees what it allocates');
});

test('the README pairs: one word apart in English, two characters in Chinese, listed for review at 0.5 by the text measure', async () => {
  const pairs = [['How do I reset my password?', 'How can I reset my password?'], ['这家餐厅的菜很好吃，服务也很周到。', '这家餐厅的菜非常好吃，服务也很周到！']];
  for (const [x, y] of pairs) {
    const result = await sh.dedup([x, y], { measure: 'text', review: 0.5 });
    assert.deepEqual(result.groups, []);
    assert.deepEqual(result.review, [{ a: 0, b: 1, similarity: sh.similarity(x, y) }]);
  }
});

test('a pair that reaches the similarity across two groups is listed: the leader rule kept them apart', async () => {
  const a = 'Logs are letters to your future self, so write them in plain sentences and keep every one of them short and clear for later readers.';
  const words = a.split(' ');
  words[2] = 'XYZQ';
  const b = words.join(' ');
  words[8] = 'QZYX';
  const c = words.join(' ');
  assert.ok(sh.similarity(a, b) >= 0.8 && sh.similarity(b, c) >= 0.8 && sh.similarity(a, c) < 0.8, 'b joins a; c is near b, not a');
  const result = await sh.dedup([a, b, c], { review: 0.5 });
  assert.deepEqual(result.groups, [[0, 1]]);
  assert.deepEqual(result.review, [{ a: 1, b: 2, similarity: sh.similarity(b, c) }]);
});

test('bad review options: a TypeError or RangeError, and the instance works afterwards', async () => {
  const cases = [
    [{ review: '0.5' }, TypeError, /options.review must be a number/],
    [{ measure: 'text', review: 0.45 }, RangeError, /at least 0.5 and below the similarity 0.8, got 0.45/],
    [{ review: 0.25 }, RangeError, /at least 0.3 and below the similarity 1, got 0.25/], // 'auto': the least of either measure
    [{ measure: 'text', review: 0.8 }, RangeError, /below the similarity 0.8/],
    [{ review: 0.6 }, RangeError, /below the similarity 0.6/],
    [{ similarity: 0.6, review: 0.7 }, RangeError, /below the similarity 0.6/],
    [{ maxDistance: 3, review: 0.5 }, TypeError, /needs dedup by similarity/],
    [{ reviewLimit: 5 }, TypeError, /reviewLimit needs options.review/],
    [{ review: 0.5, reviewLimit: 0 }, RangeError, /reviewLimit/],
    [{ review: 0.5, reviewLimit: 1.5 }, RangeError, /reviewLimit/],
  ];
  for (const [options, Type, message] of cases) {
    await assert.rejects(sh.dedup(['a', 'b'], options), (error) => error instanceof Type && message.test(error.message), JSON.stringify(options));
  }
  assert.equal((await sh.dedup(['same text', 'same text!'], { review: 0.5 })).groups.length, 1);
});

let pool;
before(async () => { pool = await createPool({ size: 2 }); });
after(() => pool.terminate());

test('the pool\'s review equals one thread\'s: banding, the sharded radius path, documents', async () => {
  for (const [items, options] of [
    [texts, { review: 0.5 }],
    [texts, { review: 0.6, grouping: 'components', reviewLimit: 50 }],
    [texts, { review: 0.5, maxDistance: 20, similarity: 0.8, grouping: 'components' }],
    [texts, { review: 0.5, maxDistance: 20, similarity: 0.8 }],
    [documents, { review: 0.5 }],
  ]) {
    const one = await sh.dedup(items, options);
    const phases = [];
    const pooled = await pool.dedup(items, { ...options, onProgress: ({ phase }) => { if (phases.at(-1) !== phase) phases.push(phase); } });
    assert.deepEqual(pooled.groups, one.groups, JSON.stringify(options));
    assert.deepEqual(pooled.review, one.review, JSON.stringify(options));
    assert.equal(pooled.reviewOmitted, one.reviewOmitted, JSON.stringify(options));
    assert.deepEqual(phases, ['fingerprint', 'pairs', 'review', 'groups'], `${JSON.stringify(options)}: the phases in order`);
  }
});

test('by the short measure, a text that holds another\'s words is listed first however low their similarity: one entry per two groups, in order, within the limit, only with review', async () => {
  const restaurants = ['Spago', 'Spago (Los Angeles)', 'Bones', 'Bones Restaurant', 'Chez Panisse', 'Chez Panisse Cafe and Restaurant', 'Cafe Roma', 'Caffe Roma',
    'Palm, The (Los Angeles)', 'The Palm', 'Arnie Morton\'s of Chicago', 'Art\'s Delicatessen', 'Hotel Bel-Air', 'Cassell\'s', 'Campanile', 'Fenix', 'Grill, The', 'Jiraffe'];
  const result = await sh.dedup(restaurants, { review: 0.4 });
  const group = groupOf(result, restaurants.length);
  const words = (text) => new Set(text.toLowerCase().match(/[a-z']+/g).map((w) => w.replace(/'s$|'/g, '')));
  const holds = (x, y) => [...words(x)].every((w) => words(y).has(w)) || [...words(y)].every((w) => words(x).has(w));
  const contained = result.review.filter((entry) => entry.contained);
  const listed = contained.map(({ a, b }) => `${restaurants[a]} / ${restaurants[b]}`);
  for (const pair of ['Spago / Spago (Los Angeles)', 'Bones / Bones Restaurant']) assert.ok(listed.includes(pair), `${pair} in ${listed}`);
  const similar = result.review.find(({ a, b }) => restaurants[a] === 'Chez Panisse' && restaurants[b] === 'Chez Panisse Cafe and Restaurant');
  assert.ok(similar?.contained, 'a pair of words held that also reaches the review threshold: listed once, as held');
  assert.ok(result.review.some((entry) => !entry.contained), 'the pairs at the review threshold follow');
  const seen = new Set();
  result.review.forEach((entry, p) => {
    assert.deepEqual(Object.keys(entry), ['a', 'b', 'similarity', ...(entry.differs ? ['differs'] : []), ...(entry.contained ? ['contained'] : [])]);
    assert.ok(entry.a < entry.b && group[entry.a] !== group[entry.b], `entry ${p}: two groups`);
    assert.equal(entry.similarity, sh.similarity(restaurants[entry.a], restaurants[entry.b], { measure: 'short', weights: result.weights }), `entry ${p}: the exact similarity`);
    if (entry.contained) assert.ok(holds(restaurants[entry.a], restaurants[entry.b]), `entry ${p}: one holds the other's words`);
    else assert.ok(entry.similarity >= 0.4, `entry ${p}: at review or more`);
    const key = `${Math.min(group[entry.a], group[entry.b])},${Math.max(group[entry.a], group[entry.b])}`;
    assert.ok(!seen.has(key), `entry ${p}: its two groups once`);
    seen.add(key);
    const before = result.review[p - 1];
    if (before && !before.contained === !entry.contained) assert.ok(before.similarity > entry.similarity || (before.similarity === entry.similarity && (before.a < entry.a || (before.a === entry.a && before.b < entry.b))), `entry ${p}: in order`);
    else if (before) assert.ok(before.contained && !entry.contained, `entry ${p}: the contained entries first`);
  });
  assert.ok(contained.some((entry) => entry.similarity < 0.4), 'below the review threshold');
  for (const limit of [1, result.review.length - 1]) {
    const limited = await sh.dedup(restaurants, { review: 0.4, reviewLimit: limit });
    assert.deepEqual(limited.review, result.review.slice(0, limit), `reviewLimit ${limit}`);
  }
  const cut = await sh.dedup(restaurants, { review: 0.4, reviewLimit: result.review.length - 1 });
  assert.equal(cut.reviewOmitted, 1, 'the contained entry past the limit is counted');
  assert.equal(result.reviewOmitted, 0);
  const plain = await sh.dedup(restaurants);
  assert.ok(plain.review.every((entry) => !entry.contained), 'without review: the look-alikes kept apart only');
  const byText = await sh.dedup(restaurants, { measure: 'text', review: 0.5 });
  assert.ok(byText.review.every((entry) => !entry.contained), 'the text measure lists by similarity alone');
});

test('by the short measure, pairs whose numbers differ come after the others, and every limit cuts the unlimited answer', async () => {
  // Models one number apart (more similar than the typos of the rest) would fill a limit
  // read by similarity alone; they are rarely one product (docs/lists.md#review).
  const models = Array.from({ length: 40 }, (_, i) => `Acme Stainless Steel Widget Deluxe Model ${100 + 2 * i}`);
  // Pairs of names at 0.31-0.42, words differing.
  const typos = ['Northgate Medical Supplies Warehouse', 'Northgate Medcal Depot', 'Kestrel Dynamics Consulting Group', 'Kestrel Dynamcs Advisory',
    'Brightline Harbour Logistics', 'Brightlne Harbor Freight'];
  const list = [...models, ...typos];
  const all = await sh.dedup(list, { review: 0.3, reviewLimit: 100000 });
  const numbersDiffer = all.review.map((entry) => entry.differs?.numbers !== undefined);
  const firstApart = numbersDiffer.indexOf(true);
  assert.ok(firstApart > 0 && numbersDiffer.slice(firstApart).every(Boolean), 'the pairs whose numbers differ last');
  assert.ok(numbersDiffer.filter(Boolean).length > 100, 'more of them than the limits below');
  const plain = all.review.slice(0, firstApart);
  assert.ok(plain.some((entry) => !entry.contained && entry.similarity < Math.min(...all.review.slice(firstApart).map((e) => e.similarity))),
    'a pair listed before them though less similar');
  for (let p = 1; p < all.review.length; p++) {
    const [before, entry] = [all.review[p - 1], all.review[p]];
    if (!before.contained === !entry.contained && numbersDiffer[p - 1] === numbersDiffer[p]) {
      assert.ok(before.similarity > entry.similarity || (before.similarity === entry.similarity && (before.a < entry.a || (before.a === entry.a && before.b < entry.b))), `entry ${p}: in order`);
    }
  }
  for (const limit of [1, 2, firstApart - 1, firstApart, firstApart + 1, 150, all.review.length - 1]) {
    const limited = await sh.dedup(list, { review: 0.3, reviewLimit: limit });
    assert.deepEqual(limited.review, all.review.slice(0, limit), `reviewLimit ${limit}`);
    assert.ok(limited.reviewOmitted >= 1 && limited.reviewOmitted <= all.review.length - limit, `reviewLimit ${limit}: omitted ${limited.reviewOmitted}`);
  }
  const pooled = await pool.dedup(list, { review: 0.3, reviewLimit: 150 });
  assert.deepEqual([pooled.review, pooled.reviewOmitted], [all.review.slice(0, 150), (await sh.dedup(list, { review: 0.3, reviewLimit: 150 })).reviewOmitted]);
});

test('containedPairs: words folded, one pair per two groups, none whose rarest word over 50 groups hold, nor a word alone a third group holds', () => {
  const pairsOf = (texts, labels = Uint32Array.from(texts.keys())) => {
    const { a, b } = containedPairs(texts.length, (i) => texts[i], labels);
    return Array.from(a, (x, p) => `${texts[x]} / ${texts[b[p]]}`);
  };
  assert.deepEqual(pairsOf(['Café Roma', 'Roma, Cafe (Rome)', 'Roma Café', 'Pizza']), ['Café Roma / Roma, Cafe (Rome)', 'Café Roma / Roma Café', 'Roma, Cafe (Rome) / Roma Café']);
  // Texts 1 and 2 are one group: one pair joins it to text 0.
  assert.deepEqual(pairsOf(['Spago', 'Spago Beverly Hills', 'Spago Los Angeles'], Uint32Array.of(0, 1, 1)), ['Spago / Spago Beverly Hills']);
  const held = (count) => ['Grill House', ...Array.from({ length: count }, (_, i) => `Grill House ${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`)];
  assert.equal(pairsOf(held(49)).length, 49, 'a word 50 texts hold names them');
  assert.equal(pairsOf(held(50)).length, 0, 'one 51 hold does not');
  // Nicknames in full, as records compare names: `Bob` holds `Robert`'s place.
  assert.deepEqual(pairsOf(['Robert Smith', 'Bob Smith', 'Chris Lee', 'Christopher Lee', 'Elizabeth Taylor', 'Liz Taylor Jones']),
    ['Robert Smith / Bob Smith', 'Chris Lee / Christopher Lee', 'Elizabeth Taylor / Liz Taylor Jones']);
  // A word alone: held by its own group and the other's, not by a third.
  assert.deepEqual(pairsOf(['Morrison', 'Grace Morrison']), ['Morrison / Grace Morrison']);
  assert.deepEqual(pairsOf(['Morrison', 'Grace Morrison', 'Dillon Morrison']), []);
  assert.deepEqual(pairsOf(['Morrison', 'Grace Morrison', 'Morrison Grace'], Uint32Array.of(0, 1, 1)), ['Morrison / Grace Morrison']);
  // 51 texts of two groups: the word names them.
  const philips = ['Philips', ...held(50).slice(1).map((text) => text.replace('Grill', 'Philips'))];
  assert.deepEqual(pairsOf(philips, Uint32Array.from(philips, (_, i) => (i === 0 ? 0 : 1))), [`Philips / ${philips[1]}`]);
});

test('containedPairs: an acronym written in capitals is held by a text that spells it out, whatever the third groups holding it; never its rarest word', () => {
  const pairsOf = (texts, labels = Uint32Array.from(texts.keys())) => {
    const { a, b } = containedPairs(texts.length, (i) => texts[i], labels);
    return Array.from(a, (x, p) => `${texts[x]} / ${texts[b[p]]}`).sort();
  };
  // Initials of capitalized words, lowercase ones between them skipped, within one part between commas.
  assert.deepEqual(pairsOf(['CWI', 'Centrum voor Wiskunde en Informatica, Amsterdam', 'CWI Amsterdam', 'FIU', 'Florida International University', 'IBM Research', 'International Business Machines Research Lab']),
    ['CWI / CWI Amsterdam', 'CWI / Centrum voor Wiskunde en Informatica, Amsterdam', 'Centrum voor Wiskunde en Informatica, Amsterdam / CWI Amsterdam',
      'FIU / Florida International University', 'IBM Research / International Business Machines Research Lab']);
  // Not across a comma, nor from lowercase words; the word held is then the acronym's, however written.
  assert.deepEqual(pairsOf(['FIU', 'Florida, International University', 'florida international university', 'fiu', 'Florida International Univ']),
    ['FIU / Florida International Univ', 'FIU / fiu', 'Florida, International University / florida international university', 'fiu / Florida International Univ']);
  // An acronym no text writes in capitals is none (`fiu` may be a word).
  assert.deepEqual(pairsOf(['fiu', 'Florida International University']), []);
  // A text that spells an acronym out has its own rarest word: `Apache Directory Server` and
  // `… (i18n)` share only words over 50 texts hold, and pair no more because both spell `ADS`.
  const apache = ['ADS', ...Array.from({ length: 60 }, (_, i) => `Apache Directory Server ${i}`), 'Apache Directory Server', 'Apache Directory Server (i18n)'];
  assert.equal(pairsOf(apache).filter((pair) => !pair.startsWith('ADS /')).length, 0);
});
