// simhash-wasm/worker in Node (worker_threads) on records: pool.dedup(rows) and pool.link as
// sh.dedup and sh.link give them, field for field; the rows' cells as dedup reads them;
// cancellation that stops the worker; bad arguments rejected before anything is posted.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { sh } from './helpers.js';
import { HAS_PROC, assertAbortStops, startedWhen, threads, waitFor } from './pool-helpers.js';
import { createPool } from '../../js/worker.js';
import { loadRecords } from '../bench/records-data.js';
import { loadLists } from '../bench/lists-data.js';

let pool;

before(async () => {
  pool = await createPool({ size: 2 });
});

after(() => pool.terminate());

describe('records', () => {
  const lists = Object.fromEntries(loadRecords({ names: ['contacts', 'febrl1'] }).map((list) => [list.name, list.rows]));

  /** sh.dedup's result of records, field for field, with `unique` holding the caller's own rows. */
  function assertSameRecords(actual, expected) {
    assert.deepEqual(actual, expected);
    assert.equal(actual.unique.length, expected.unique.length);
    for (let i = 0; i < expected.unique.length; i++) assert.equal(actual.unique[i], expected.unique[i]); // the same objects
  }

  test('the contacts and FEBRL 1 lists as sh.dedup gives them, with options and in one worker', async () => {
    for (const name of ['contacts', 'febrl1']) {
      const rows = lists[name];
      const reports = [];
      const expected = await sh.dedup(rows);
      assert.ok(expected.groups.length > 10 && expected.review.length > 0, `${name}: ${expected.groups.length} groups, ${expected.review.length} review entries`);
      assertSameRecords(await pool.dedup(rows, { onProgress: (p) => reports.push(p) }), expected);
      const phases = reports.map((r) => r.phase).filter((phase, i, all) => phase !== all[i - 1]);
      assert.deepEqual(phases, ['fields', 'candidates', 'groups'], name);
      assert.deepEqual(reports.at(-1), { phase: 'groups', done: 1, total: 1 });
    }
    const contacts = lists.contacts;
    for (const options of [{ fields: ['name', 'email', 'phone'] }, { fields: { phone: 'exact', name: 'name', city: 'auto' }, probability: 0.8, review: 0.01, reviewLimit: 3 }]) {
      assertSameRecords(await pool.dedup(contacts, options), await sh.dedup(contacts, options));
    }
  });

  test('two lists linked as sh.link links them, with options; bad lists rejected before anything is posted', async () => {
    const [fodorsZagat] = loadRecords({ names: ['fodors-zagat'] });
    const n = fodorsZagat.sides[0].rows;
    const [left, right] = [fodorsZagat.rows.slice(0, n), fodorsZagat.rows.slice(n)];
    const expected = await sh.link(left, right);
    assert.ok(expected.links.length > 100, `${expected.links.length} links`);
    assert.deepEqual(await pool.link(left, right), expected);
    const options = { fields: ['name', 'phone'], probability: 0.5, review: 0.01, reviewLimit: 5 };
    assert.deepEqual(await pool.link(left, right, options), await sh.link(left, right, options));
    for (const [bad, other] of [['left', right], [left, [right[0], 7]]]) {
      const want = await sh.link(bad, other).then(() => null, (e) => e);
      await assert.rejects(pool.link(bad, other), { name: 'TypeError', message: want.message });
    }
  });

  test('numbers, dates, integer-like column names and rows of other columns cross as dedup reads them; a cell no text says fails alike', async () => {
    const rows = lists.contacts.map((row, i) => ({ 2: i % 7, ...row, born: new Date(Date.UTC(1980, i % 12, 1 + (i % 3))), [Symbol('id')]: i }));
    // Rows without a column, a column only the last rows have, one that is not enumerable.
    for (let i = 0; i < rows.length; i += 5) delete rows[i].city;
    for (let i = rows.length - 8; i < rows.length; i++) rows[i].branch = `Branch ${i % 3}`;
    Object.defineProperty(rows[0], 'city', { value: 'Nowhere', enumerable: false });
    const expected = await sh.dedup(rows);
    assert.ok(expected.fields.some((field) => field.name === 'born' && field.kind === 'date'));
    assertSameRecords(await pool.dedup(rows), expected);
    assertSameRecords(await pool.dedup(rows, { fields: ['born', '2', 'name'] }), await sh.dedup(rows, { fields: ['born', '2', 'name'] }));
    // A function does not clone, an array is no text: the same TypeError, from the calling thread.
    const noted = rows.map((row, i) => ({ ...row, note: i === 3 ? () => 'a function' : 'text' }));
    const want = await sh.dedup(noted).then(() => null, (e) => e);
    assert.match(want?.message ?? '', /^items\[3\]'s 'note' must be text, a number, a boolean or a date, got function/);
    await assert.rejects(pool.dedup(noted), { name: 'TypeError', message: want.message });
    const tagged = [rows[0], { ...rows[1], 'tag list': ['a'] }];
    await assert.rejects(pool.link(rows.slice(2), tagged), { name: 'TypeError', message: /^right\[1\]'s 'tag list' must be text.*got an array/ });
    assertSameRecords(await pool.dedup(noted, { fields: ['name', 'email'] }), await sh.dedup(noted, { fields: ['name', 'email'] }));
  });

  describe('a search of names in the idle worker', () => {
    /** n contacts, a tenth copies with their name's letters swapped, of as many distinct names (pool-worker.js HELPED_FROM: 20,000). */
    function contacts(n) {
      const [febrl] = loadLists({ names: ['febrl-names'] });
      const parts = febrl.texts.map((text) => text.split(' '));
      const rows = [];
      for (let i = 0; rows.length < n; i++) {
        const name = `${parts[i % parts.length][0]} ${parts[(i * 7 + Math.floor(i / parts.length)) % parts.length].at(-1)} ${i % 3 ? '' : 'jr'}`.trim();
        rows.push({ name, email: `${name.replaceAll(' ', '.')}${i}@example.com`, phone: `555-${String(1000000 + i * 13).slice(1)}`, city: ['Austin', 'Boston', 'Salem'][i % 3] });
        if (i % 10 === 0) rows.push({ ...rows.at(-1), name: name.replace(/(\w)(\w)/, '$2$1'), email: '' });
      }
      return rows;
    }
    const rows = contacts(24000);
    let expected;
    before(async () => {
      expected = await sh.dedup(rows);
    });

    /**
     * Counts the pool's posts of `op` while `run(posted)` runs (`posted`: a promise of the
     * first), each message rewritten by `rewrite(message)` if given.
     */
    async function posting(op, run, rewrite = (message) => message) {
      let posts = 0;
      let first;
      const posted = new Promise((resolve) => { first = resolve; });
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.op !== op) return post.call(this, message, ...rest);
        posts++;
        first();
        return post.call(this, rewrite(message), ...rest);
      };
      try {
        return { result: await run(posted), posts };
      } finally {
        Worker.prototype.postMessage = post;
      }
    }

    test('dedup and link as sh.dedup and sh.link give them, the names searched in the other worker', async () => {
      assert.ok(new Set(rows.map((row) => row.name)).size >= 20000 && expected.groups.length > 1000, `${expected.groups.length} groups`);
      const { result, posts } = await posting('similarPairs', () => pool.dedup(rows));
      assert.equal(posts, 1);
      assertSameRecords(result, expected);
      const [left, right] = [rows.slice(0, 12000), rows.slice(12000)];
      const linked = await posting('similarPairs', () => pool.link(left, right));
      assert.equal(linked.posts, 1);
      assert.deepEqual(linked.result, await sh.link(left, right));
    });

    test('where the keys propose no pairs, the helper\'s answer at 0.7 is set aside and the names searched again at 0.6', async () => {
      // One mailbox for all: an e-mail field, whose key is not selective (candidates.js keyCandidates).
      const shared = rows.map(({ name, city }) => ({ name, email: 'office@example.com', city }));
      const alone = await sh.dedup(shared);
      assert.equal(alone.fields.find((field) => field.name === 'email').kind, 'email');
      const { result, posts } = await posting('similarPairs', () => pool.dedup(shared));
      assert.equal(posts, 1);
      assertSameRecords(result, alone);
      assert.notDeepEqual(alone.groups, expected.groups);
    });

    test('a search that fails in the other worker is run again in the records\' worker', async () => {
      const { result, posts } = await posting('similarPairs', () => pool.dedup(rows), (message) => ({ ...message, texts: null }));
      assert.ok(posts >= 1); // a helper that failed at once is idle for the next search too
      assertSameRecords(result, expected);
    });

    test('an abort while the other worker searches stops both workers; the pool works afterwards', { skip: !HAS_PROC && 'needs /proc' }, async (t) => {
      await pool.dedup(lists.contacts); // both workers started
      const before = threads();
      const controller = new AbortController();
      await posting('similarPairs', async (posted) => {
        const call = pool.dedup(rows, { signal: controller.signal });
        await posted;
        await assertAbortStops(t, call, controller, before);
      });
      assert.ok(await waitFor(() => threads() <= before - 2), `worker threads: ${threads()} before ${before}`);
      assertSameRecords(await pool.dedup(lists.contacts), await sh.dedup(lists.contacts));
    });

    test('with no worker idle, as two calls at once or a pool of one, each worker searches its own', async () => {
      const both = await posting('similarPairs', () => Promise.all([pool.dedup(rows), pool.dedup(rows)]));
      for (const result of both.result) assertSameRecords(result, expected);
      assert.ok(both.posts <= 1, `${both.posts} searches helped`);
      const single = await createPool({ size: 1 });
      try {
        const alone = await posting('similarPairs', () => single.dedup(rows));
        assert.equal(alone.posts, 0);
        assertSameRecords(alone.result, expected);
      } finally {
        await single.terminate();
      }
    });
  });

  test('an abort rejects at once and stops the worker; the pool works afterwards', { skip: !HAS_PROC && 'needs /proc' }, async (t) => {
    const controller = new AbortController();
    const { started, onProgress } = startedWhen((p) => p.phase === 'candidates');
    const call = pool.dedup(lists.febrl1, { signal: controller.signal, onProgress });
    await started;
    await assertAbortStops(t, call, controller, threads());
    assertSameRecords(await pool.dedup(lists.contacts), await sh.dedup(lists.contacts));
  });

  test('bad arguments reject with sh.dedup\'s TypeError or RangeError before anything is posted', async (t) => {
    let posts = 0;
    const post = Worker.prototype.postMessage;
    t.after(() => { Worker.prototype.postMessage = post; });
    Worker.prototype.postMessage = function (...args) {
      posts++;
      return post.apply(this, args);
    };
    const row = { name: 'John Smith', email: 'john@example.com' };
    const cases = [
      ['a row that is not an object', [row, 'John'], undefined],
      ['a row that is null', [row, null], undefined],
      ['fields of the wrong type', [row], { fields: 'name' }],
      ['no fields', [row], { fields: [] }],
      ['a field named twice', [row], { fields: ['name', 'name'] }],
      ['an unknown kind', [row], { fields: { name: 'person' } }],
      ['probability 1', [row], { probability: 1 }],
      ['probability as text', [row], { probability: '0.9' }],
      ['review above the probability', [row], { probability: 0.5, review: 0.6 }],
      ['reviewLimit 0', [row], { reviewLimit: 0 }],
      ['an unknown option', [row], { similarity: 0.8 }],
      ['onProgress', [row], { onProgress: 'no' }],
      ['signal', [row], { signal: {} }],
    ];
    for (const [name, rows, options] of cases) {
      const expected = await sh.dedup(rows, options).then(() => null, (e) => e);
      assert.ok(expected instanceof TypeError || expected instanceof RangeError, `${name}: sh.dedup throws`);
      const actual = await pool.dedup(rows, options).then(() => null, (e) => e);
      assert.ok(actual, `${name}: the pool rejects`);
      assert.equal(actual.constructor, expected.constructor, `${name}: ${actual.message}`);
      assert.equal(actual.message, expected.message, name);
    }
    assert.equal(posts, 0, 'nothing posted');
    // A column no row has is found where the fields are read: in the worker, with the same RangeError.
    Worker.prototype.postMessage = post;
    const unknown = { fields: ['name', 'phone'] };
    const expected = await sh.dedup([row], unknown).then(() => null, (e) => e);
    await assert.rejects(pool.dedup([row], unknown), { name: 'RangeError', message: expected.message });
  });
});
