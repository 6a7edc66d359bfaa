// simhash-wasm/redis (js/redis.js) against a real redis-server of the tests' own
// (tests/redis/server.js): the same answers as an in-memory TextIndex for any sequence of
// operations, with node-redis and with ioredis; addIfNew atomic across 4 processes; the
// parameters and keys an index is opened on; hostile arguments; the faults a user meets
// (a server killed and restarted, a connection lost mid-call, memory full).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTcp, createServer as createTcpServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient, createCluster } from 'redis';
import Redis, { Cluster } from 'ioredis';
import { init } from '../../js/node.js';
import { createSharedTextIndex } from '../../js/redis.js';
import { loadSharedModule } from '../../js/redis/open.js';
import { keysOf, reviewFilter } from '../../js/bindings/text-index-keys.js';
import { Random } from '../bench/quality/random.js';
import { MISSING, startCluster, startRedis } from './server.js';

const WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'dog', 'ran', 'far', 'away', 'home', 'and', 'then', 'came', 'back',
  '猫', '犬', '東京', '天気', 'ねこ', 'コーヒー', 'password', 'reset', 'printer', 'jammed'];

/** Short texts of a few words, and edits of earlier ones (a word replaced, dropped or added): near-duplicates around 0.8. */
function makeTexts(rng, count) {
  const texts = [];
  for (let i = 0; i < count; i++) {
    if (texts.length > 0 && rng.int(3) > 0) {
      const words = texts[rng.int(texts.length)].split(' ');
      const at = rng.int(words.length);
      const kind = rng.int(3);
      if (kind === 0) words[at] = WORDS[rng.int(WORDS.length)];
      else if (kind === 1 && words.length > 2) words.splice(at, 1);
      else words.splice(at, 0, WORDS[rng.int(WORDS.length)]);
      texts.push(words.join(' '));
    } else {
      texts.push(Array.from({ length: 4 + rng.int(8) }, () => WORDS[rng.int(WORDS.length)]).join(' '));
    }
  }
  return texts;
}

const GIVEN = ['John', 'Jon', 'María', 'Maria', 'Li', 'Wei', 'Anna', 'Emily', 'Łukasz', 'José', 'Bob', 'Robert'];
const FAMILY = ['Smith', 'Smyth', 'Chen', 'Chan', 'García', 'Garcia', 'Anderson', 'Andersen', 'Müller', 'Mueller', 'Kowalski'];
const FIRMS = ['Acme', 'Apex', 'Zeta', 'Northwind', 'Contoso', 'Globex', 'Initech', 'Umbrella', '北京大學', 'Johnson'];
const FORMS = ['Inc', 'Incorporated', 'Corp', 'Corporation', 'Ltd', 'Limited', 'GmbH', 'AG', 'Aktiengesellschaft', 'Co', 'Company'];
const STREETS = ['Main St', 'Main Street', 'Las Vegas Blvd', 'Baker Street', 'Rue de la Paix', 'Hauptstraße'];

/**
 * Names, firms and addresses (the short measure's texts), and variants of earlier ones as
 * people write them: a typo, a word order, a legal form written out or short, `and` for
 * `&`, case and punctuation, a diacritic dropped, a word dropped or added.
 */
function makeNames(rng, count) {
  const pick = (list) => list[rng.int(list.length)];
  const texts = [];
  for (let i = 0; i < count; i++) {
    if (texts.length > 0 && rng.int(3) > 0) {
      const words = texts[rng.int(texts.length)].split(' ');
      const at = rng.int(words.length);
      const kind = rng.int(7);
      if (kind === 0 && words[at].length > 3) { // a typo: two letters swapped
        const w = words[at];
        const k = 1 + rng.int(w.length - 2);
        words[at] = w.slice(0, k) + w[k + 1] + w[k] + w.slice(k + 2);
      } else if (kind === 1) words.reverse();
      else if (kind === 2) words[at] = pick(FORMS);
      else if (kind === 3) words.splice(at, 0, rng.int(2) ? 'and' : '&');
      else if (kind === 4) words[at] = rng.int(2) ? `${words[at].toUpperCase()},` : words[at].normalize('NFD').replace(/\p{M}/gu, '');
      else if (kind === 5 && words.length > 2) words.splice(at, 1);
      else words.splice(at, 0, pick([...GIVEN, ...FAMILY]));
      texts.push(words.join(' '));
    } else {
      const kind = rng.int(3);
      if (kind === 0) texts.push(`${pick(GIVEN)} ${pick(FAMILY)}`);
      else if (kind === 1) texts.push(`${pick(FIRMS)} ${pick(FAMILY)} ${pick(FORMS)}`);
      else texts.push(`${1 + rng.int(3400)} ${pick(STREETS)} ${pick(FAMILY)}`);
    }
  }
  return texts;
}

const CLIENTS = {
  'node-redis': async (url) => {
    const client = await createClient({ url }).connect();
    return { client, close: () => client.quit() };
  },
  ioredis: async (url) => {
    const client = new Redis(url, { lazyConnect: true });
    await client.connect();
    return { client, close: () => client.quit() };
  },
};

let sh;
let server;

before(async () => {
  if (MISSING) return;
  sh = await init();
  server = await startRedis();
});

after(() => server?.stop());

describe('the shared text index', { skip: MISSING }, () => {
  for (const [clientName, connect] of Object.entries(CLIENTS)) {
    test(`${clientName}: any sequence of operations answers as an in-memory TextIndex`, async () => {
      const { client, close } = await connect(server.url);
      try {
        // Review: a second band table, whose candidates of its bands alone pass the sketch test first.
        for (const init of [{ similarity: 0.8 }, { similarity: 0.6 }, { similarity: 0.8, review: 0.5 }, { similarity: 0.9, review: 0.6 }]) {
          const { similarity, review } = init;
          const rng = new Random(`shared ${clientName} ${similarity}${review ? ` ${review}` : ''}`);
          const texts = makeTexts(rng, 400);
          const name = `differential-${clientName}-${similarity}-${review}`;
          const shared = await createSharedTextIndex(client, { name, ...init });
          const local = sh.createTextIndex(init);
          const ids = [];
          let queries = 0;
          let duplicates = 0;
          let reviews = 0;
          try {
            for (let step = 0; step < (review ? 500 : 700); step++) {
              const text = texts[rng.int(texts.length)];
              const op = rng.int(10);
              if (op < 3) { // the stream: addIfNew, which review matches do not stop
                const id = rng.int(4) === 0 ? 100000 + step : undefined;
                const got = await shared.addIfNew(text, id);
                const matches = local.query(text);
                if (matches.some((m) => m.kind === 'duplicate')) {
                  assert.deepEqual(got, { added: false, matches }, `addIfNew ${JSON.stringify(text)}`);
                  duplicates++;
                } else {
                  assert.deepEqual(got, { added: true, id: local.add(text, id) });
                  ids.push(got.id);
                }
              } else if (op < 5) { // add, fresh or chosen (sometimes a stored id)
                const id = rng.int(3) === 0 ? (ids.length > 0 && rng.int(2) === 0 ? ids[rng.int(ids.length)] : 200000 + step) : undefined;
                let expected;
                try {
                  expected = local.add(text, id);
                } catch (error) {
                  await assert.rejects(shared.add(text, id), { message: error.message });
                  continue;
                }
                assert.equal(await shared.add(text, id), expected);
                ids.push(expected);
              } else if (op < 8) { // query, with a limit now and then
                const options = rng.int(3) === 0 ? { limit: 1 + rng.int(3) } : undefined;
                const expected = local.query(text, options);
                assert.deepEqual(await shared.query(text, options), expected, `query ${JSON.stringify(text)}`);
                queries++;
                reviews += expected.filter((m) => m.kind === 'review').length;
              } else if (op < 9 && ids.length > 0) { // remove, sometimes twice
                const id = ids[rng.int(ids.length)];
                assert.equal(await shared.remove(id), local.remove(id), `remove ${id}`);
              } else {
                const id = ids.length > 0 ? ids[rng.int(ids.length)] : 0;
                assert.equal(await shared.has(id), local.has(id));
                assert.equal(await shared.size(), local.size);
              }
            }
            assert.ok(queries > 100 && duplicates > 20, `${queries} queries, ${duplicates} duplicates`);
            if (review) assert.ok(reviews > 50, `${reviews} review matches`);
            for (const text of texts.slice(0, 100)) assert.deepEqual(await shared.query(text), local.query(text));
          } finally {
            await shared.close();
            local.dispose();
          }
        }
      } finally {
        await close();
      }
    });
  }

  test('the short measure, weights stored beside the index: node-redis and ioredis clients on one index answer as createTextIndex({ measure: \'short\', weights })', async (t) => {
    const creating = await CLIENTS['node-redis'](server.url);
    const opening = await CLIENTS.ioredis(server.url);
    try {
      for (const init of [{ similarity: 0.6 }, { similarity: 0.8 }, { similarity: 0.6, review: 0.3 }, { similarity: 0.6, unweighted: true }]) {
        const { similarity, review, unweighted } = init;
        const label = `short ${similarity} ${review} ${unweighted ? 'unweighted' : 'weighted'}`;
        const rng = new Random(label);
        const texts = makeNames(rng, 300);
        const weights = unweighted ? null : sh.learnWeights(texts);
        const parameters = { measure: 'short', similarity, ...(review && { review }) };
        const name = label.replaceAll(' ', '-');
        // One client creates the index with the weights; the other opens it without them and
        // reads them from Redis.
        const shared = [
          await createSharedTextIndex(creating.client, { name, ...parameters, weights }),
          await createSharedTextIndex(opening.client, { name, ...parameters }),
        ];
        assert.equal(shared[1].measure, 'short');
        assert.deepEqual(shared[1].weights?.toData(), weights?.toData());
        const local = sh.createTextIndex({ ...parameters, weights });
        // The same operations unweighted: the weights change answers, so a process that
        // verified without them would fail the comparison.
        const plain = sh.createTextIndex(parameters);
        const ids = [];
        let duplicates = 0;
        let reviews = 0;
        let weighed = 0;
        const started = performance.now();
        try {
          for (let step = 0; step < 400; step++) {
            const text = texts[rng.int(texts.length)];
            const index = shared[rng.int(2)];
            const op = rng.int(10);
            if (op < 3) {
              const id = rng.int(4) === 0 ? 100000 + step : undefined;
              const got = await index.addIfNew(text, id);
              const matches = local.query(text);
              if (matches.some((m) => m.kind === 'duplicate')) {
                assert.deepEqual(got, { added: false, matches }, `addIfNew ${JSON.stringify(text)}`);
                duplicates++;
              } else {
                assert.deepEqual(got, { added: true, id: local.add(text, id) });
                plain.add(text, got.id);
                ids.push(got.id);
              }
            } else if (op < 5) {
              const id = rng.int(3) === 0 ? 200000 + step : undefined;
              const added = local.add(text, id);
              assert.equal(await index.add(text, id), added);
              plain.add(text, added);
              ids.push(added);
            } else if (op < 8) {
              const options = rng.int(3) === 0 ? { limit: 1 + rng.int(3) } : undefined;
              const expected = local.query(text, options);
              assert.deepEqual(await index.query(text, options), expected, `query ${JSON.stringify(text)}`);
              reviews += expected.filter((m) => m.kind === 'review').length;
              if (!isDeepStrictEqual(plain.query(text, options), expected)) weighed++;
            } else if (op < 9 && ids.length > 0) {
              const id = ids[rng.int(ids.length)];
              assert.equal(await index.remove(id), local.remove(id), `remove ${id}`);
              plain.remove(id);
            } else {
              assert.equal(await index.size(), local.size);
            }
          }
          t.diagnostic(`${label}: ${duplicates} duplicates, ${reviews} review matches, ${weighed} queries answered otherwise unweighted, ${Math.round(performance.now() - started)} ms`);
          assert.ok(duplicates > 20, `${duplicates} duplicates`);
          if (review) assert.ok(reviews > 50, `${reviews} review matches`);
          assert.ok(unweighted ? weighed === 0 : weighed > 10, `${weighed} queries answered otherwise without the weights`);
          // More than 16 candidates are verified in one batch: 20 copies of a text, as written.
          for (let i = 0; i < 20; i++) {
            const copy = i % 2 === 0 ? texts[1] : texts[1].toUpperCase();
            assert.equal(await shared[i % 2].add(copy), local.add(copy));
          }
          assert.ok(local.query(texts[1]).length >= 20);
          for (const text of texts.slice(0, 50)) {
            for (const index of shared) assert.deepEqual(await index.query(text), local.query(text), `query ${JSON.stringify(text)}`);
          }
        } finally {
          for (const index of shared) await index.close();
          local.dispose();
          plain.dispose();
        }
      }
    } finally {
      await creating.close();
      await opening.close();
    }
  });

  test('addIfNew is atomic: 4 processes adding near-duplicates at once store no two that reach the threshold', async (t) => {
    const rng = new Random('shared concurrent');
    // Texts and their near-copies, so that processes race on the same buckets. Without the
    // store script's check, this failed in each of 4 runs (2 of 3 with 300 texts).
    const texts = makeTexts(rng, 800);
    const worker = fileURLToPath(new URL('./add-if-new-worker.js', import.meta.url));
    const run = (seed) => new Promise((resolve, reject) => {
      execFile(process.execPath, [worker, server.url, 'concurrent', String(seed)], { maxBuffer: 1 << 24, input: undefined }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      }).stdin.end(JSON.stringify(texts));
    });
    const results = await Promise.all([1, 2, 3, 4].map(run));
    const { client, close } = await CLIENTS['node-redis'](server.url);
    try {
      const shared = await createSharedTextIndex(client, { name: 'concurrent' });
      // What is stored: the added texts; no two of them reach the threshold.
      const added = results.flatMap((r) => r.added);
      assert.equal(await shared.size(), added.length);
      const storedTexts = added.map((a) => a.text);
      const { groups } = await sh.dedup(storedTexts, { measure: 'text' }); // the shared index's measure
      const pairsAtThreshold = storedTexts.flatMap((t, i) => storedTexts.slice(i + 1).filter((u) => sh.similarity(t, u) >= 0.8).map((u) => [t, u]));
      assert.deepEqual(pairsAtThreshold, [], 'no two stored texts reach the threshold');
      assert.deepEqual(groups, []);
      // Every rejected text has a stored match at the threshold.
      const rejected = results.flatMap((r) => r.rejected);
      t.diagnostic(`4 processes × ${texts.length} texts: ${added.length} stored, ${rejected.length} rejected`);
      assert.ok(rejected.length > texts.length, `${rejected.length} rejected`);
      for (const text of rejected) assert.ok((await shared.query(text, { limit: 1 })).length === 1, `a stored match for ${text}`);
      await shared.close();
    } finally {
      await close();
    }
  });

  test('serialized (one process), addIfNew keeps what the stream rule keeps: dedup\'s uniqueIndices', async () => {
    const rng = new Random('shared stream');
    const texts = makeTexts(rng, 500);
    const { client, close } = await CLIENTS.ioredis(server.url);
    try {
      const shared = await createSharedTextIndex(client, { name: 'stream' });
      const kept = [];
      for (let i = 0; i < texts.length; i++) {
        if ((await shared.addIfNew(texts[i], i)).added) kept.push(i);
      }
      assert.deepEqual(kept, (await sh.dedup(texts, { measure: 'text' })).uniqueIndices);
      await shared.close();
    } finally {
      await close();
    }
  });

  test('opening: other parameters and keys that are not an index are refused, naming what differs; bad arguments throw', async () => {
    const { client, close } = await CLIENTS['node-redis'](server.url);
    try {
      (await createSharedTextIndex(client, { name: 'params', similarity: 0.7 })).close();
      await assert.rejects(createSharedTextIndex(client, { name: 'params' }),
        { message: 'the index params was made with other parameters: threshold 0.7 (this call: 0.8), bands 20 (this call: 14)' });
      await client.hSet('simhash:{params}:meta', 'definition', '1');
      await assert.rejects(createSharedTextIndex(client, { name: 'params', similarity: 0.7 }), /definition 1 \(this call: 2\)/);
      await client.set('simhash:{plain}:meta', 'x');
      await assert.rejects(createSharedTextIndex(client, { name: 'plain' }), { message: 'simhash:{plain}:meta is not a simhash-wasm text index: it holds a string' });
      await client.hSet('simhash:{other}:meta', 'magic', 'something else');
      await assert.rejects(createSharedTextIndex(client, { name: 'other' }), /is not a simhash-wasm text index: its magic field is "something else"/);
      await assert.rejects(createSharedTextIndex({}, { name: 'x' }), TypeError);
      await assert.rejects(createSharedTextIndex(client, { name: 'a{b}' }), TypeError);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', similarity: 1.5 }), RangeError);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', limit: 1 }), TypeError);
      (await createSharedTextIndex(client, { name: 'params-text', measure: 'text' })).close();
      // The short measure: accepted, a stored parameter (its definition refuses it to readers
      // of the text measure only), at the short measure's defaults (similarity 0.6).
      const short = await createSharedTextIndex(client, { name: 'params-short', measure: 'short' });
      assert.deepEqual([short.measure, short.similarity, short.weights], ['short', 0.6, null]);
      await short.close();
      assert.deepEqual(await client.hmGet('simhash:{params-short}:meta', ['measure', 'definition', 'weights']), ['short', 'short-4', 'none']);
      assert.deepEqual(await client.hmGet('simhash:{params-text}:meta', ['measure', 'weights']), [null, null], 'the text measure\'s meta hash as before');
      await assert.rejects(createSharedTextIndex(client, { name: 'params-short', similarity: 0.6 }),
        { message: 'the index params-short was made with other parameters: measure short (this call: text), definition short-4 (this call: 2)' });
      await assert.rejects(createSharedTextIndex(client, { name: 'params-text', measure: 'short', similarity: 0.8 }), /measure text \(this call: short\), definition 2 \(this call: short-4\)$/);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', measure: 'auto' }), RangeError);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', weights: sh.learnWeights(['a b']) }), { name: 'TypeError', message: "init.weights needs the measure 'short', not 'text'" });
      await assert.rejects(createSharedTextIndex(client, { name: 'x', measure: 'short', weights: {} }), TypeError);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', measure: 'short', review: 0.2 }), RangeError);
      // Weights are stored when the index is created: an open without them reads them, one
      // with them must give the same (none for null), never other weights.
      const list = ['Acme Inc', 'Apex Inc', 'Zeta GmbH'];
      const weights = sh.learnWeights(list);
      (await createSharedTextIndex(client, { name: 'params-weights', measure: 'short', weights })).close();
      const reader = await createSharedTextIndex(client, { name: 'params-weights', measure: 'short' });
      assert.deepEqual(reader.weights.toData(), weights.toData());
      await reader.close();
      (await createSharedTextIndex(client, { name: 'params-weights', measure: 'short', weights: sh.loadWeights(weights.toData()) })).close();
      const digest = await client.hGet('simhash:{params-weights}:meta', 'weights');
      await assert.rejects(createSharedTextIndex(client, { name: 'params-weights', measure: 'short', weights: null }),
        { message: `the index params-weights was made with other word weights: 3 texts and 5 words, SHA-256 ${digest.slice(0, 16)} (this call: none)` });
      await assert.rejects(createSharedTextIndex(client, { name: 'params-weights', measure: 'short', weights: sh.learnWeights(['Acme Inc']) }),
        /was made with other word weights: 3 texts and 5 words, SHA-256 \w{16} \(this call: 1 texts and 2 words, SHA-256 \w{16}\)$/);
      await assert.rejects(createSharedTextIndex(client, { name: 'params-short', measure: 'short', weights }), /other word weights: none \(this call: 3 texts and 5 words/);
      // Review is a stored parameter: layout 3 with it, layout 2 (as before review) without.
      (await createSharedTextIndex(client, { name: 'params-review', review: 0.5 })).close();
      await assert.rejects(createSharedTextIndex(client, { name: 'params-review', review: 0.6 }), /other parameters: review 0.5 \(this call: 0.6\), review bands \d+ \(this call: \d+\)$/);
      await assert.rejects(createSharedTextIndex(client, { name: 'params-review' }), /other parameters: layout 3 \(this call: 2\), review 0.5 \(this call: none\), review bands \d+ \(this call: none\)$/);
      (await createSharedTextIndex(client, { name: 'params-plain' })).close();
      assert.equal(await client.hGet('simhash:{params-plain}:meta', 'layout'), '2');
      await assert.rejects(createSharedTextIndex(client, { name: 'params-plain', review: 0.5 }), /other parameters: layout 2 \(this call: 3\), review none \(this call: 0.5\)/);
      await assert.rejects(createSharedTextIndex(client, { name: 'x', review: 0.8 }), RangeError);
      (await createSharedTextIndex(client, { name: 'params-options', options: { wordNgram: 2 } })).close();
      await assert.rejects(createSharedTextIndex(client, { name: 'x', options: { wordNgram: 0 } }), RangeError);
      const shared = await createSharedTextIndex(client, { name: 'args' });
      await assert.rejects(shared.add(42), TypeError);
      await assert.rejects(shared.add('text', -1), RangeError);
      await assert.rejects(shared.query('text', { limit: 0 }), RangeError);
      await assert.rejects(shared.remove('1'), TypeError);
      assert.equal(await shared.add('still usable'), 0);
      await shared.close();
      await assert.rejects(shared.query('text'), /closed/);
    } finally {
      await close();
    }
  });

  describe('faults', () => {
    /** Every key of the index and what it holds: a snapshot to compare before and after a fault. */
    async function snapshot(client, name) {
      const keys = (await client.keys(`simhash:{${name}}:*`)).sort();
      const values = [];
      for (const key of keys) values.push([key, (await client.type(key)) === 'hash' ? await client.hGetAll(key) : await client.get(key)]);
      return values;
    }

    test('a server killed with SIGKILL and restarted: the index intact, its answers the same', async () => {
      const own = await startRedis();
      try {
        let { client, close } = await CLIENTS['node-redis'](own.url);
        const texts = makeTexts(new Random('shared restart'), 300);
        let shared = await createSharedTextIndex(client, { name: 'restart' });
        for (const text of texts) await shared.addIfNew(text);
        await shared.remove(3);
        const before = await snapshot(client, 'restart');
        const answers = [];
        for (const text of texts.slice(0, 50)) answers.push(await shared.query(text));
        await shared.close();
        await close().catch(() => {});
        await own.kill();
        await own.restart();
        ({ client, close } = await CLIENTS['node-redis'](own.url));
        try {
          assert.deepEqual(await snapshot(client, 'restart'), before, 'every key as it was');
          shared = await createSharedTextIndex(client, { name: 'restart' });
          for (let i = 0; i < 50; i++) assert.deepEqual(await shared.query(texts[i]), answers[i]);
          await shared.close();
        } finally {
          await close();
        }
      } finally {
        await own.stop();
      }
    });

    test('a connection lost mid-call: the call rejects; addIfNew retried with its id stores the text once', async () => {
      // A proxy that drops the client's connection once the server has answered a command
      // carrying the store script: the text is stored, and the reply never arrives.
      const proxy = createTcpServer((socket) => {
        const upstream = connectTcp(server.port, '127.0.0.1');
        let armed = false;
        socket.on('data', (data) => {
          if (data.includes('EVAL') && data.includes('if-new')) armed = true;
          upstream.write(data);
        });
        upstream.on('data', (data) => {
          if (armed) {
            socket.destroy();
            upstream.destroy();
          } else {
            socket.write(data);
          }
        });
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
        socket.on('close', () => upstream.destroy());
      });
      await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const viaProxy = createClient({ url: `redis://127.0.0.1:${proxy.address().port}`, socket: { reconnectStrategy: false } });
      viaProxy.on('error', () => {});
      await viaProxy.connect();
      const { client, close } = await CLIENTS['node-redis'](server.url);
      try {
        const lossy = await createSharedTextIndex(viaProxy, { name: 'lost' });
        const direct = await createSharedTextIndex(client, { name: 'lost' });
        await direct.add('an earlier text about something else');
        const text = 'The printer on the second floor is jammed again';
        await assert.rejects(lossy.addIfNew(text, 7));
        assert.equal(await direct.has(7), true, 'the store ran; its reply was lost');
        assert.deepEqual(await direct.addIfNew(text, 7), { added: true, id: 7 }, 'the retry finds its own text');
        assert.equal(await direct.size(), 2, 'stored once');
        assert.deepEqual(await direct.addIfNew(text, 8), { added: false, matches: [{ id: 7, similarity: 1, kind: 'duplicate' }] });
        await lossy.close();
        await direct.close();
      } finally {
        await close();
        proxy.close();
      }
    });

    test('word weights missing or damaged: every open rejects, naming the key and the fault; what is open keeps answering', async () => {
      const { client, close } = await CLIENTS.ioredis(server.url);
      try {
        const list = ['Acme Incorporated', 'Acme Inc', 'Apex Inc', 'Zeta GmbH', 'Zeta Ltd'];
        const weights = sh.learnWeights(list);
        const open = () => createSharedTextIndex(client, { name: 'weights', measure: 'short' });
        const shared = await createSharedTextIndex(client, { name: 'weights', measure: 'short', weights });
        const local = sh.createTextIndex({ measure: 'short', weights });
        for (const text of list) assert.equal(await shared.add(text), local.add(text));
        const key = 'simhash:{weights}:w';
        const stored = await client.get(key);
        const bytes = Buffer.from(stored, 'base64');
        const field = await client.hget('simhash:{weights}:meta', 'weights');
        const digest = field.slice(0, 16);
        const flipped = Buffer.from(bytes);
        flipped[bytes.length - 1] ^= 1; // a count of the last word: still weights, not these
        const faults = [
          [() => client.del(key), `the word weights of the index weights are damaged: ${key} is missing (the meta hash names weights of SHA-256 ${digest}); the index cannot be opened`],
          [() => client.set(key, flipped.toString('base64')), new RegExp(`${key.replace(/[{}]/g, '\\$&')} has SHA-256 \\w{16}, where the meta hash names ${digest}`)],
          [() => client.set(key, bytes.subarray(0, bytes.length - 4).toString('base64')), /holds \d+ bytes, not 8 \+ 12 per word of weights/],
          [() => client.set(key, `${stored}!`), /is not base64/],
          [() => client.del(key).then(() => client.hset(key, 'x', '1')), /holds a hash, not a string/],
          [() => client.hdel('simhash:{weights}:meta', 'weights'), /damaged: its meta hash has no weights field/],
        ];
        for (const [damage, message] of faults) {
          await damage();
          await assert.rejects(open(), { name: 'Error', message });
          await assert.rejects(createSharedTextIndex(client, { name: 'weights', measure: 'short', weights }), { name: 'Error', message });
          // The instance opened before answers with the weights it read; the client is usable.
          assert.deepEqual(await shared.query('ACME inc'), local.query('ACME inc'));
          // Restored, the index opens again.
          await client.del(key);
          await client.set(key, stored);
          await client.hset('simhash:{weights}:meta', 'weights', field);
          (await open()).close();
        }
        const again = await open();
        for (const text of list) assert.deepEqual(await again.query(text), local.query(text));
        assert.deepEqual(await again.addIfNew('Zeta Limited'), local.query('Zeta Limited').length > 0
          ? { added: false, matches: local.query('Zeta Limited') } : { added: true, id: local.add('Zeta Limited') });
        await again.close();
        await shared.close();
        local.dispose();
      } finally {
        await close();
      }
    });

    test('memory full (maxmemory, noeviction): addIfNew and add reject, nothing half-written; queries still answer', async () => {
      const { client, close } = await CLIENTS['node-redis'](server.url);
      try {
        const shared = await createSharedTextIndex(client, { name: 'full' });
        await shared.add('the cat sat on the mat');
        const before = await snapshot(client, 'full');
        await client.configSet({ maxmemory: '1', 'maxmemory-policy': 'noeviction' });
        try {
          await assert.rejects(shared.addIfNew('a dog ran far away from home'), /OOM/);
          await assert.rejects(shared.add('a dog ran far away from home'), /OOM/);
          assert.deepEqual(await shared.query('the cat sat on the mat'), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
          assert.deepEqual(await snapshot(client, 'full'), before, 'nothing written');
        } finally {
          await client.configSet('maxmemory', '0');
        }
        assert.deepEqual(await shared.addIfNew('a dog ran far away from home'), { added: true, id: 1 });
        await shared.close();
      } finally {
        await close();
      }
    });
  });

  test('the CLI: dedup --index redis://HOST:PORT/DB#NAME writes what the file index writes, with and without --update', async () => {
    const cli = fileURLToPath(new URL('../../js/cli/main.js', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-redis-'));
    try {
      const rng = new Random('shared cli');
      const texts = makeTexts(rng, 600);
      const first = join(dir, 'first.txt');
      const second = join(dir, 'second.txt');
      writeFileSync(first, `${texts.slice(0, 300).join('\n')}\n`);
      writeFileSync(second, `${texts.slice(300).join('\n')}\n`);
      const run = (...args) => spawnSync(process.execPath, [cli, 'dedup', ...args], { encoding: 'utf8' });
      const redisIndex = `redis://127.0.0.1:${server.port}/0#cli`;
      const fileIndex = join(dir, 'index.shtx');
      // --update: the same kept records, and the index then holds them.
      const viaRedis = run(first, '--index', redisIndex, '--update');
      const viaFile = run(first, '--index', fileIndex, '--update');
      assert.equal(viaRedis.status, 0, viaRedis.stderr);
      assert.equal(viaFile.status, 0, viaFile.stderr);
      assert.equal(viaRedis.stdout, viaFile.stdout);
      const keptFirst = viaRedis.stdout.split('\n').filter((line) => line !== '').length;
      assert.ok(keptFirst > 50 && keptFirst < 300, `${keptFirst} kept`);
      const { client, close } = await CLIENTS['node-redis'](server.url);
      try {
        const shared = await createSharedTextIndex(client, { name: 'cli' });
        assert.equal(await shared.size(), keptFirst);
        // Without --update: compared with the index and the run's earlier records; the index unchanged.
        const readOnlyRedis = run(second, '--index', redisIndex);
        const readOnlyFile = run(second, '--index', fileIndex);
        assert.equal(readOnlyRedis.status, 0, readOnlyRedis.stderr);
        assert.equal(readOnlyRedis.stdout, readOnlyFile.stdout);
        assert.equal(await shared.size(), keptFirst, 'not updated');
        await shared.close();
      } finally {
        await close();
      }
      // Errors: a name missing is a usage error; a server that does not answer, or another similarity, named.
      const noName = run(first, '--index', `redis://127.0.0.1:${server.port}/0`);
      assert.equal(noName.status, 2);
      assert.match(noName.stderr, /the index's name is missing after #/);
      const otherSimilarity = run(first, '--index', redisIndex, '--similarity', '0.7');
      assert.equal(otherSimilarity.status, 2);
      assert.match(otherSimilarity.stderr, /threshold 0\.8 \(this call: 0\.7\)/);
      const probe = await startRedis();
      const closedPort = probe.port;
      await probe.stop();
      const unreachable = run(first, '--index', `redis://127.0.0.1:${closedPort}/0#cli`);
      assert.equal(unreachable.status, 1);
      assert.match(unreachable.stderr, /cannot connect to redis:\/\/127\.0\.0\.1:\d+\/0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A text's id as the keys write it: 6 characters of 6 bits. */
  const code = (id) => Array.from({ length: 6 }, (_, i) => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_'[Math.floor(id / 64 ** (5 - i)) % 64]).join('');

  /** Each text's id -> its distinct shingles (as an id code) and sketch (base64url) in format 3's bytes (text_index.h). */
  function reviewSketches(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(view.getUint16(4, true), 3);
    const out = new Map();
    for (let i = 0, at = 44; i < view.getUint32(24, true); i++) {
      const length = view.getUint32(at + 8, true);
      const sketch = Buffer.from(bytes.subarray(at + 12 + length, at + 12 + length + 64)).toString('base64url');
      out.set(view.getUint32(at, true), code(view.getUint32(at + 4, true)) + sketch);
      at += 12 + length + 64;
    }
    return out;
  }

  test('the review filter: the sketch test TextIndex applies to the review bands\' candidates, as the shared index calls it', async () => {
    const module = await loadSharedModule();
    const index = module.createTextIndex({ similarity: 0.8, review: 0.5 });
    try {
      const { sketch, shingles, reviewKeys } = keysOf(index, 'the cat sat on the mat and then came back home');
      assert.equal(sketch.length, 64);
      assert.ok(shingles > 0 && reviewKeys.length > 0);
      const far = sketch.map((byte) => ~byte & 0xff); // every bin differs
      const sketches = new Uint8Array(64 * 3);
      sketches.set(sketch);
      sketches.set(sketch, 64);
      sketches.set(far, 128);
      assert.deepEqual([...reviewFilter(index, sketches, new Uint32Array([1000, 1000, 1000]))], [1, 0]);
    } finally {
      index.dispose();
    }
    const plain = module.createTextIndex();
    assert.deepEqual(keysOf(plain, 'text').reviewKeys.length, 0);
    plain.dispose();
  });

  test('moving an index: a TextIndex or its bytes imported, exported back: the same answers, ids and fresh ids', async () => {
    const rng = new Random('shared move');
    const texts = makeTexts(rng, 300);
    const { client, close } = await CLIENTS.ioredis(server.url);
    try {
      for (const init of [{ similarity: 0.8 }, { similarity: 0.7 }, { similarity: 0.8, review: 0.5 }]) {
        // An in-memory index with fresh ids, chosen ids above and below the counter, and removals.
        const original = sh.createTextIndex(init);
        texts.slice(0, 200).forEach((text, i) => (i % 7 === 3 ? original.add(text, 5000 + i) : original.add(text)));
        for (let id = 0; id < 150; id += 9) original.remove(id);
        const name = `move-${init.similarity}-${init.review}`;
        const shared = await createSharedTextIndex(client, { name, ...init });
        await shared.importFrom(init.review ? original.serialize() : original); // with review, format 3's bytes
        await assert.rejects(shared.importFrom(original), /not empty/);
        assert.equal(await shared.size(), original.size);
        for (const text of texts) assert.deepEqual(await shared.query(text), original.query(text));
        if (init.review) {
          // Each text's sketch and distinct shingles in Redis are those format 3 stores.
          const sketches = reviewSketches(original.serialize());
          assert.equal(sketches.size, original.size);
          for (const [id, value] of sketches) assert.equal(await client.get(`simhash:{${name}}:s:${code(id)}`), value, `sketch of ${id}`);
        }
        const back = await shared.exportTo();
        assert.equal(back.review, original.review);
        assert.equal(back.size, original.size);
        for (const text of texts) assert.deepEqual(back.query(text), original.query(text));
        for (const id of [0, 3, 9, 150, 5003, 5010]) assert.equal(back.has(id), original.has(id), `has ${id}`);
        // The same fresh ids next, in all three.
        for (const text of texts.slice(200, 220)) {
          const id = original.add(text);
          assert.equal(await shared.add(text), id);
          assert.equal(back.add(text), id);
        }
        back.dispose();
        original.dispose();
        await shared.close();
      }
      // Serialized bytes, of any format loadTextIndex reads: format 1's texts are normalized again.
      const v1 = readFileSync(new URL('../vectors/text-index-v1.bin', import.meta.url));
      const loaded = sh.loadTextIndex(new Uint8Array(v1));
      const shared = await createSharedTextIndex(client, { name: 'move-bytes' });
      await shared.importFrom(new Uint8Array(v1));
      for (const text of ['ガクセイ ノ コーヒー ヲ ノミマス。', 'The cat sat on the mat', '天下没有不散的宴席！']) {
        assert.deepEqual(await shared.query(text), loaded.query(text));
        assert.ok((await shared.query(text)).length > 0);
      }
      await assert.rejects((await createSharedTextIndex(client, { name: 'move-other', similarity: 0.9 })).importFrom(loaded), /similarity 0.8 differs from this index's 0.9/);
      await assert.rejects(shared.importFrom('bytes'), TypeError);
      loaded.dispose();
      await shared.close();
      // An index of the short measure, with word weights (their bytes follow the header) or
      // without, in memory or as bytes, into a shared index of the text measure: refused by
      // name, the shared index left empty and usable.
      const list = ['Acme Inc', 'Apex Inc', 'Zeta GmbH'];
      const empty = await createSharedTextIndex(client, { name: 'move-short' });
      for (const weights of [sh.learnWeights(list), null]) {
        const short = sh.createTextIndex({ measure: 'short', similarity: 0.8, weights });
        list.forEach((text) => short.add(text));
        for (const source of [short, short.serialize()]) {
          await assert.rejects(empty.importFrom(source), { name: 'Error', message: "the text index compares by the 'short' measure; this shared index by 'text'" });
        }
        short.dispose();
      }
      assert.equal(await empty.size(), 0);
      const plain = sh.createTextIndex();
      list.forEach((text) => plain.add(text));
      await empty.importFrom(plain.serialize());
      assert.deepEqual(await empty.query('ACME inc'), plain.query('ACME inc'));
      plain.dispose();
      await empty.close();
    } finally {
      await close();
    }
  });

  test('moving a short-measure index: imported into a shared index of its weights, exported back with them: the same answers, ids and fresh ids', async () => {
    const texts = makeNames(new Random('shared move short'), 240);
    const weights = sh.learnWeights(texts);
    const { client, close } = await CLIENTS['node-redis'](server.url);
    try {
      for (const init of [{ similarity: 0.6, weights }, { similarity: 0.6, weights: null }, { similarity: 0.7, review: 0.4, weights }]) {
        const original = sh.createTextIndex({ measure: 'short', ...init });
        texts.slice(0, 160).forEach((text, i) => (i % 7 === 3 ? original.add(text, 5000 + i) : original.add(text)));
        for (let id = 0; id < 120; id += 9) original.remove(id);
        const name = `move-short-${init.similarity}-${init.review}-${init.weights ? 'weighted' : 'unweighted'}`;
        const shared = await createSharedTextIndex(client, { name, measure: 'short', ...init });
        await shared.importFrom(init.review ? original.serialize() : original);
        assert.equal(await shared.size(), original.size);
        // Another process opens it without the weights: it reads them.
        const reader = await createSharedTextIndex(client, { name, measure: 'short', similarity: init.similarity, review: init.review });
        for (const text of texts) {
          const expected = original.query(text);
          assert.deepEqual(await shared.query(text), expected);
          assert.deepEqual(await reader.query(text), expected);
        }
        const back = await reader.exportTo();
        assert.deepEqual([back.measure, back.similarity, back.review], ['short', init.similarity, init.review]);
        assert.equal(back.size, original.size);
        for (const text of texts) assert.deepEqual(back.query(text), original.query(text));
        for (const text of texts.slice(160, 180)) {
          const id = original.add(text);
          assert.equal(await reader.add(text), id);
          assert.equal(back.add(text), id);
        }
        back.dispose();
        original.dispose();
        await reader.close();
        await shared.close();
      }
      // Other weights, none where the source has some, or the text measure: refused by name,
      // the shared index left empty and usable.
      const source = sh.createTextIndex({ measure: 'short', weights });
      texts.slice(0, 20).forEach((text) => source.add(text));
      const other = await createSharedTextIndex(client, { name: 'move-short-other', measure: 'short', weights: sh.learnWeights(texts.slice(0, 50)) });
      const none = await createSharedTextIndex(client, { name: 'move-short-none', measure: 'short' });
      await assert.rejects(other.importFrom(source), /^Error: the text index's word weights \(240 texts and \d+ words, SHA-256 \w{16}\) differ from this index's \(50 texts and \d+ words, SHA-256 \w{16}\): import into a shared index made with the same weights$/);
      await assert.rejects(none.importFrom(source.serialize()), /word weights \(240 texts and \d+ words, SHA-256 \w{16}\) differ from this index's \(none\)/);
      const text = sh.createTextIndex();
      await assert.rejects(none.importFrom(text), { message: "the text index compares by the 'text' measure; this shared index by 'short'" });
      text.dispose();
      assert.equal(await none.size(), 0);
      const unweighted = sh.createTextIndex({ measure: 'short' });
      texts.slice(0, 20).forEach((t) => unweighted.add(t));
      await none.importFrom(unweighted);
      for (const t of texts.slice(0, 40)) assert.deepEqual(await none.query(t), unweighted.query(t));
      unweighted.dispose();
      source.dispose();
      await other.close();
      await none.close();
    } finally {
      await close();
    }
  });

  test('a Redis Cluster of 3 masters, with each client: the scripts run unchanged; answers as TextIndex, export included, by either measure', async () => {
    const cluster = await startCluster(3);
    const clients = {
      'node-redis': async () => {
        const client = createCluster({ rootNodes: cluster.nodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })) });
        await client.connect();
        return { client, close: () => client.quit() };
      },
      ioredis: async () => {
        const client = new Cluster(cluster.nodes);
        return { client, close: () => client.quit() };
      },
    };
    try {
      for (const [clientName, connect] of Object.entries(clients)) {
        const { client, close } = await connect();
        try {
          const rng = new Random(`cluster ${clientName}`);
          const texts = makeTexts(rng, 200);
          const shared = await createSharedTextIndex(client, { name: `cluster-${clientName}` });
          const local = sh.createTextIndex();
          for (let step = 0; step < 300; step++) {
            const text = texts[rng.int(texts.length)];
            const op = rng.int(4);
            if (op === 0) {
              const matches = local.query(text);
              assert.deepEqual(await shared.addIfNew(text), matches.length > 0 ? { added: false, matches } : { added: true, id: local.add(text) });
            } else if (op === 1 && local.size > 0) {
              const id = rng.int(local.size + 5);
              assert.equal(await shared.remove(id), local.remove(id));
            } else {
              assert.deepEqual(await shared.query(text), local.query(text));
            }
          }
          assert.equal(await shared.size(), local.size);
          const back = await shared.exportTo();
          for (const text of texts) assert.deepEqual(back.query(text), local.query(text));
          assert.equal(back.add('the next text'), local.add('the next text'), 'the same fresh id');
          back.dispose();
          local.dispose();
          await shared.close();
          // The short measure: its weights key in the index's slot, written and read by OPEN.
          const names = makeNames(rng, 100);
          const weights = sh.learnWeights(names);
          await (await createSharedTextIndex(client, { name: `cluster-short-${clientName}`, measure: 'short', weights })).close();
          const short = await createSharedTextIndex(client, { name: `cluster-short-${clientName}`, measure: 'short' });
          const shortLocal = sh.createTextIndex({ measure: 'short', weights });
          for (const text of names) {
            const matches = shortLocal.query(text);
            assert.deepEqual(await short.addIfNew(text), matches.some((m) => m.kind === 'duplicate') ? { added: false, matches } : { added: true, id: shortLocal.add(text) });
          }
          shortLocal.dispose();
          await short.close();
        } finally {
          await close();
        }
      }
    } finally {
      await cluster.stop();
    }
  });
});
