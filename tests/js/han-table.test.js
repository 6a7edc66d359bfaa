// The short measure's Han table, which the module does not carry (js/bindings/han-table.js):
// each call that compares texts by the short measure folds 學 to 学 on a core that has not
// installed it yet, reading it at once as Node's entry does; a page's core, which can only
// fetch it, loads it in its asynchronous calls, and refuses a synchronous one until
// sh.loadHanTable(); a list without Han characters never asks for it; bytes of another
// table are refused with an Error that says so, and the instance goes on answering.
// Each case has cores of its own: one that installed the table would hide a call that skips it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import { SimHash } from '../../js/simhash.js';
import { createPool } from '../../js/worker.js';

const WASM = readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url));
const TABLE = readFileSync(new URL('../../js/wasm/han_variants.bin', import.meta.url));

/** A SimHash of a fresh core whose table comes from `bytes`, read at once (`sync`, as Node's entry) or fetched (as a page); `reads` counts the requests. */
async function instance({ sync, bytes = TABLE }) {
  const core = await createSimhashCore({ wasmBinary: WASM });
  const source = { reads: 0 };
  if (sync) core.readHanTable = () => (source.reads++, bytes);
  else core.fetchHanTable = async () => (source.reads++, bytes);
  return { sh: new SimHash(core), source };
}

const SHORT = { measure: 'short' };
const NEEDS_LOADING = /await sh\.loadHanTable\(\)/;

// Each synchronous call by the short measure, answering 1 when it folded 學 to 学.
const SYNCHRONOUS = {
  similarity: (sh) => sh.similarity('北京大學', '北京大学', SHORT),
  similarities: (sh) => sh.similarities(['北京大學', '北京大学'], { a: Uint32Array.of(0), b: Uint32Array.of(1) }, SHORT)[0],
  learnWeights: (sh) => {
    const weights = sh.learnWeights(['北京大學', '北京大学', '上海', '天津']);
    try {
      return Number(weights.words === 3);
    } finally {
      weights.dispose?.();
    }
  },
  'a text index: add': (sh) => {
    const index = sh.createTextIndex(SHORT);
    try {
      index.add('北京大学');
      index.add('北京大學');
      return index.query('北京大学').length / 2;
    } finally {
      index.dispose();
    }
  },
  'a text index: query': (sh) => {
    const index = sh.createTextIndex(SHORT);
    try {
      index.addAll(['北京大学', '上海']);
      return index.query('北京大學')[0]?.similarity ?? 0;
    } finally {
      index.dispose();
    }
  },
};

// Each asynchronous call whose lists the short measure compares, answering 1 when 學 folded.
const ASYNCHRONOUS = {
  'dedup of texts': async (sh) => (await sh.dedup(['北京大學', '北京大学', '上海'])).groups.length,
  'dedup of records': async (sh) => {
    const rows = [
      { name: '北京大學', city: '北京' }, { name: '北京大学', city: '北京' },
      { name: '上海交通大学', city: '上海' }, { name: '复旦大学', city: '上海' }, { name: '南京大学', city: '南京' },
    ];
    return (await sh.dedup(rows, { fields: { name: 'name', city: 'text' }, probability: 0.5 })).groups.length;
  },
  link: async (sh) => {
    const { links } = await sh.link([{ name: '北京大學' }, { name: '复旦大学' }], [{ name: '北京大学' }, { name: '南开大学' }], { fields: { name: 'name' } });
    return Number(links.some(({ a, b }) => a === 0 && b === 0));
  },
};

for (const [name, call] of Object.entries(SYNCHRONOUS)) {
  test(`${name}: read at once where the entry can (Node); refused until loaded where it can only fetch (a page)`, async () => {
    const node = await instance({ sync: true });
    assert.equal(call(node.sh), 1);
    assert.equal(node.source.reads, 1);
    const page = await instance({ sync: false });
    assert.throws(() => call(page.sh), { name: 'Error', message: NEEDS_LOADING });
    await page.sh.loadHanTable();
    assert.equal(call(page.sh), 1);
    assert.equal(page.source.reads, 1);
  });
}

for (const [name, call] of Object.entries(ASYNCHRONOUS)) {
  test(`${name}: loads the table itself, once`, async () => {
    const { sh, source } = await instance({ sync: false });
    assert.equal(await call(sh), 1);
    assert.equal(await call(sh), 1);
    assert.equal(source.reads, 1);
  });
}

test('lists without Han characters never ask for the table, by any call', async () => {
  const { sh, source } = await instance({ sync: false });
  assert.equal(sh.similarity('Deutsche Bank', 'Deutsche Bank AG', SHORT) > 0.5, true);
  assert.equal(sh.similarity('東京', '東京', { measure: 'text' }), 1); // the text measure does not fold
  await sh.dedup(['Siemens AG', 'Siemens Aktiengesellschaft', 'ソニー', 'サムスン', 'ｿﾆｰ']); // kana and Hangul are not in the table's range
  await sh.dedup([{ name: 'Anna Schmidt', email: 'anna@example.com' }, { name: 'Anna Schmid', email: 'anna@example.com' }]);
  const index = sh.createTextIndex(SHORT);
  index.add('한국어 텍스트');
  index.dispose();
  assert.equal(source.reads, 0);
});

test('other bytes than the table are refused, saying so, and the instance goes on', async () => {
  for (const bytes of [TABLE.subarray(1), Uint8Array.from(TABLE, (b, i) => (i === 100 ? b ^ 1 : b)), new Uint8Array(0)]) {
    const { sh } = await instance({ sync: false, bytes });
    await assert.rejects(sh.loadHanTable(), { message: /han_variants\.bin is not the one of this release/ });
    await assert.rejects(sh.dedup(['北京大學', '北京大学']), { message: /han_variants\.bin is not the one of this release/ });
    assert.equal(sh.similarity('Deutsche Bank', 'Deutsche Bank', SHORT), 1);
    assert.deepEqual((await sh.dedup(['Paris', 'paris', 'Rome'])).groups, [[0, 1]]);
  }
  // A page whose table is not served: the glue's URL named, with the reason.
  const sh = new SimHash(await createSimhashCore({ wasmBinary: WASM, locateFile: (file) => `http://127.0.0.1:9/${file}` }));
  await assert.rejects(sh.dedup(['北京大學', '北京大学']), { message: /could not load http:\/\/127\.0\.0\.1:9\/han_variants\.bin \(fetch failed\)/ });
  assert.deepEqual((await sh.dedup(['Paris', 'paris'])).groups, [[0, 1]]);
});

test('the pool\'s workers read the table themselves', async () => {
  const pool = await createPool({ size: 2 });
  try {
    assert.deepEqual((await pool.dedup(['北京大學', '上海', '北京大学'])).groups, [[0, 2]]);
    const rows = [{ name: '北京大學', city: '北京' }, { name: '北京大学', city: '北京' }, { name: '复旦大学', city: '上海' }];
    assert.equal((await pool.dedup(rows, { fields: { name: 'name', city: 'text' }, probability: 0.5 })).groups.length, 1);
  } finally {
    await pool.terminate();
  }
});
