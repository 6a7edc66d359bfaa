// One-line records among look-alikes (README "Look-alikes", docs/lists.md "One-line records"):
// a shared identifier (a date of birth, equal or one typo apart) outweighs typos in names and
// numbers; a list of them is grouped around the record its copies match, with dates both
// hold, swapped dates and the record that may keep the most; the pool answers alike.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { sh } from './helpers.js';
import { createPool } from '../../js/worker.js';
import { identifyingParts, listDifference } from '../../js/core/look-alikes.js';
import { differenceOf } from '../../js/dedup/look-alikes.js';
import { isRecord } from '../../js/core/thresholds.js';

const differs = (x, y) => listDifference(identifyingParts(x), identifyingParts(y));

let pool;
after(() => pool?.terminate());

test('one-line records: a shared identifier (a date of birth, equal or one typo apart) outweighs typos in names and numbers; a family at one address stays apart', () => {
  const original = 'mitchell green, 7 wallaby place, cleveland 2119, 19560409';
  // Typos in the name, the street and the house number; one also in the date of birth; one with words split, no longer a record by its shape.
  assert.equal(differs(original, 'mitchel gren, 17 walaby pl, cleveland 2119, 19560409'), null);
  assert.equal(differs(original, 'green mitchell, 7 wallaby plaec, cleevland 2191, 19560490'), null);
  assert.equal(differs(original, 'mitch ell green, 70 wal la by place, cleveland 2119, 19560409'), null);
  assert.equal(isRecord('mitch ell green, 70 wal la by place, cleveland 2119, 19560409'), false);
  // Another person of the family: another given name and a date of birth that differs outright.
  assert.deepEqual(differs(original, 'jane green, 7 wallaby place, cleveland 2119, 19580612'),
    { numbers: [['19560409'], ['19580612']], words: [['mitchell'], ['jane']] });
  // No identifier: a house number differs as in an address.
  assert.deepEqual(differs('123 Main Street, Springfield, IL', '125 Main Street, Springfield, IL'), { numbers: [['123'], ['125']] });
});

test('a list of one-line records: grouped around the record its copies match (the original); a family member sharing its phone apart and listed', async () => {
  // The copies first: the leader rule in list order would let one copy lead and leave out those that match the original but not it.
  const phone = '0296123456';
  const copies = ['mitchel gren, 7 walaby pl, cleveland 2119, 19560409', 'mitchell greene, 17 wallaby place, clevland 2119, 19560409',
    'green mitchell, 7 wallaby plaec, cleevland 2191, 19560409'].map((line) => `${line}, ${phone}`);
  const original = `mitchell green, 7 wallaby place, cleveland 2119, 19560409, ${phone}`;
  const others = ['harley mccarthy, 177 pridham street, marsden 3165, 19080419, 0395551234', 'madeline mason, 54 hoseason street, granville 4881, 19081128, 0755559876',
    'toby webb, 6 kent street, towradgi 3107, 19940503, 0244443333', `jane green, 7 wallaby place, cleveland 2119, 19580612, ${phone}`];
  const list = [...copies, original, ...others];
  const result = await sh.dedup(list);
  assert.equal(result.measure, 'short');
  assert.equal(result.similarity, 0.6);
  const reach = (x, y) => sh.similarity(list[x], list[y], { measure: 'short', weights: result.weights });
  assert.ok(reach(0, 1) < result.similarity && reach(0, 2) < result.similarity, 'copies below the threshold with each other: the case the original must lead');
  assert.ok(reach(3, 7) >= result.similarity, 'the family member above the threshold: kept apart by what differs');
  assert.deepEqual(result.groups, [[3, 0, 1, 2]]);
  // The shared phone does not make one person of two birth dates that differ outright.
  assert.deepEqual(result.review.map(({ a, b, differs: why }) => [a, b, why]),
    [[3, 7, { numbers: [['19560409'], ['19580612']], words: [['mitchell'], ['jane']] }]]);
  const pooled = await (pool ??= await createPool({ size: 2 })).dedup(list);
  assert.deepEqual(pooled.groups, result.groups);
  assert.deepEqual(pooled.review, result.review);
});

test('a list of one-line records: two groups kept apart are listed once, the kept record coming after members of both', async () => {
  // The household's second member comes first, and one of its copies after the kept record.
  const phone = '0296123456';
  const list = [
    `jane green, 7 wallaby place, cleveland 2119, 19580612, ${phone}`,
    ...['mitchel gren, 7 walaby pl, cleveland 2119, 19560409', 'mitchell greene, 17 wallaby place, clevland 2119, 19560409',
      'green mitchell, 7 wallaby plaec, cleevland 2191, 19560409'].map((line) => `${line}, ${phone}`),
    `mitchell green, 7 wallaby place, cleveland 2119, 19560409, ${phone}`,
    `jane green, 7 wallaby pl, cleveland 2119, 19580612, ${phone}`,
    'harley mccarthy, 177 pridham street, marsden 3165, 19080419, 0395551234',
  ];
  const result = await sh.dedup(list);
  assert.deepEqual(result.groups, [[0, 5], [4, 1, 2, 3]]);
  assert.equal(result.review.length, 1, JSON.stringify(result.review));
  assert.deepEqual(result.review[0].differs?.numbers, [['19580612'], ['19560409']]);
});

test('a list of one-line records: a date both hold (as records.js reads dates) groups a copy below the threshold; a shared phone does not', async () => {
  const list = [
    'zachary hudd, 3 spofforth street, kogarah 2016, 19810305',
    'zachary hude, 3 hallstrom circuit, kogagh 2016, 1981-03-05', // the street changed, typos, the date written otherwise
    'peter brown, 4 elm road, shelbyville 2750, 19650303, 0295559876',
    'anna brown, 4 elm road, shelbyville 2750, 0295559876', // another person of the household: its phone, no date
    'olivia tran, 88 harbour drive, coffs harbour 2450, 19810305', // another person born the same day
    'harley mccarthy, 177 pridham street, marsden 3165, 19080419',
    'madeline mason, 54 hoseason street, granville 4881, 19081128',
  ];
  const result = await sh.dedup(list);
  const reach = (x, y) => sh.similarity(list[x], list[y], { measure: 'short', weights: result.weights });
  assert.ok(reach(0, 1) >= 0.3 && reach(0, 1) < result.similarity, `the copy at ${reach(0, 1)}: between 0.3 and the threshold`);
  assert.ok(reach(2, 3) > reach(0, 1) && reach(2, 3) < result.similarity, `the household at ${reach(2, 3)}: closer than the copy`);
  assert.ok(reach(0, 4) < 0.3, 'the same birthday alone: below 0.3');
  assert.deepEqual(result.groups, [[0, 1]]);
  const pooled = await (pool ??= await createPool({ size: 2 })).dedup(list);
  assert.deepEqual(pooled.groups, result.groups);
});

test('a list of one-line records: a date two of whose digits are swapped groups a copy from 0.45, also where the swap makes no date', async () => {
  const list = [
    'lauren frahn, 5 solomon crescent, leichhardt 2570, 19180701',
    'laurex frahn, 5 solomon crescent, frankston 2570, 19810701', // 1918 / 1981
    'braedon block, mulga street, toorak 7190, 19790281', // no date (month 02, day 81): the next record's date, two digits swapped
    'charlie block, 10 mulga street, toorak 7190, 19790821',
    'olivia tran, 88 harbour drive, coffs harbour 2450, 19180710', // another person, a swap from the first
    'harley mccarthy, 177 pridham street, marsden 3165, 19080419',
    'madeline mason, 54 hoseason street, granville 4881, 19081128',
  ];
  const result = await sh.dedup(list);
  const reach = (x, y) => sh.similarity(list[x], list[y], { measure: 'short', weights: result.weights });
  for (const [x, y] of [[0, 1], [2, 3]]) assert.ok(reach(x, y) >= 0.45 && reach(x, y) < result.similarity, `${x}, ${y} at ${reach(x, y)}`);
  assert.ok(reach(0, 4) < 0.45, 'the other person below 0.45');
  assert.deepEqual(result.groups, [[0, 1], [2, 3]]);
  const pooled = await (pool ??= await createPool({ size: 2 })).dedup(list);
  assert.deepEqual(pooled.groups, result.groups);
});

test('a list of one-line records: led by the record that may keep the most, not by a copy whose house number differs from the others', async () => {
  const list = [
    'jadd dixon, 20 leven street, toronto 3228, 19250415', // a copy: typos in the name and the house number
    'jade dixon, 202 leven street, toronto 3228, 19250415', // the original
    'jade dixon, 202 leven street, toronto 3228', // copies without the date
    'jadd dixn, 202 leven street, toronto 3228',
    'harley mccarthy, 177 pridham street, marsden 3165, 19080419',
    'madeline mason, 54 hoseason street, granville 4881, 19081128',
    'toby webb, 6 kent street, towradgi 3107, 19940503',
  ];
  const result = await sh.dedup(list);
  const reach = (x, y) => sh.similarity(list[x], list[y], { measure: 'short', weights: result.weights });
  // The first copy matches as many at the threshold as the original, and comes first in the list.
  for (const y of [1, 2, 3]) assert.ok(reach(0, y) >= result.similarity && reach(1, y) >= result.similarity, `${y}: ${reach(0, y)}, ${reach(1, y)}`);
  assert.notEqual(differenceOf(list[0], list[2]), null);
  assert.deepEqual(result.groups, [[1, 0, 2, 3]]);
});
