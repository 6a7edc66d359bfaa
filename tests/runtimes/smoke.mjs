// The package's smoke test, one program for every server-side runtime the package supports
// (Node, Bun, Deno). It uses only what all three provide: ES modules, the package by its
// name (resolved through its "exports" map, "node" condition), and node: built-ins.
//
// Usage: <runtime> smoke.mjs FINGERPRINTS_TSV
//   (Deno: deno run --no-lock --allow-read --allow-write --allow-env --allow-run smoke.mjs ...)
// Each check compares the package's answer with one known independently of this runtime:
// the golden vectors of the native build, answers fixed by the texts themselves, or the
// single-threaded answer for the pool. Failures go to stderr; the last line of stdout is
// "<runtime>: N passed, M failed", and the exit code is 1 when M > 0.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { init, DEFAULT_MAX_DISTANCE } from 'simhash-wasm';
import { createPool } from 'simhash-wasm/worker';
import { optionsOfSpec } from './vector-spec.mjs';

const RUNTIME = globalThis.Deno ? 'deno' : globalThis.Bun ? 'bun' : 'node';

let passed = 0;
let failed = 0;

/** Runs one named check; an exception (an assertion or the package's own) fails it. */
async function check(name, body) {
  try {
    await body();
    passed++;
  } catch (error) {
    failed++;
    console.error(`${RUNTIME}: FAILED ${name}: ${error?.stack ?? error}`);
  }
}

function bytesOfHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const vectorsFile = process.argv[2];
if (!vectorsFile) throw new Error('usage: smoke.mjs FINGERPRINTS_TSV');
const VECTORS = readFileSync(vectorsFile, 'utf8').split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [hex, spec, inputHex, note] = line.split('\t');
    // Invalid UTF-8 reaches JS as TextDecoder reads it; the core decodes the same way.
    return { hex, spec, note, text: new TextDecoder().decode(bytesOfHex(inputHex)) };
  });

/**
 * A list with planted near-duplicates: 120 texts of 24 words drawn from 400 (a fixed
 * generator), then for each of the first 40 a copy in upper case with a full stop (the same
 * text after normalization: similarity 1) and a copy with one word replaced.
 */
function plantedTexts() {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
  const word = (n) => `w${n.toString(36)}x${(n * 7919 % 997).toString(36)}`;
  const originals = Array.from({ length: 120 }, () => Array.from({ length: 24 }, () => word(next() % 400)));
  const texts = originals.map((words) => words.join(' '));
  for (let i = 0; i < 40; i++) texts.push(`${texts[i].toUpperCase()}.`);
  for (let i = 0; i < 40; i++) texts.push(originals[i].map((w, j) => (j === 11 ? word(400 + i) : w)).join(' '));
  return texts;
}

const sh = await init();

await check('init returns the same instance and the vectors\' format version', async () => {
  assert.equal(await init(), sh);
  const version = Number(/fingerprint format version (\d+)\./.exec(readFileSync(vectorsFile, 'utf8'))?.[1]);
  assert.equal(sh.formatVersion, version);
});

await check('fingerprint and fingerprintTokens reproduce every golden vector', () => {
  assert.ok(VECTORS.length >= 30, `${VECTORS.length} vectors`);
  const wrong = [];
  for (const { hex, spec, note, text } of VECTORS) {
    let fingerprint;
    if (spec.startsWith('tokens')) {
      const weights = spec.length > 7 ? spec.slice(7).split(',').map(Number) : undefined;
      fingerprint = sh.fingerprintTokens(text === '' ? [] : text.split('\x1f'), weights);
    } else {
      fingerprint = sh.fingerprint(text, optionsOfSpec(spec));
    }
    if (sh.toHex(fingerprint) !== hex) wrong.push(`${note} (${spec}): ${sh.toHex(fingerprint)}, golden ${hex}`);
  }
  assert.deepEqual(wrong, []);
});

await check('fingerprintAll reproduces the golden vectors of the default options in one call', () => {
  const defaults = VECTORS.filter((v) => v.spec === 'mode=auto word=1 char=2 fold=1 punct=strip weight=binary');
  assert.ok(defaults.length >= 20);
  const all = sh.fingerprintAll(defaults.map((v) => v.text));
  assert.ok(all instanceof BigUint64Array);
  assert.deepEqual([...all].map((fp) => sh.toHex(fp)), defaults.map((v) => v.hex));
});

await check('distance, toHex and fromHex', () => {
  assert.equal(sh.distance(0n, 0xffn), 8);
  assert.equal(sh.distance(0xffffffffffffffffn, 0n), 64);
  assert.equal(sh.toHex(0xabcn), '0000000000000abc');
  assert.equal(sh.fromHex('ffffffffffffffff'), 0xffffffffffffffffn);
  assert.throws(() => sh.distance(1, 2n), TypeError);
});

await check('dedup by fingerprint distance groups a case and punctuation variant', async () => {
  const result = await sh.dedup(['The cat sat.', 'the cat sat!', 'Something else'], { maxDistance: DEFAULT_MAX_DISTANCE });
  assert.deepEqual(result.groups, [[0, 1]]);
  assert.deepEqual(result.unique, ['The cat sat.', 'Something else']);
  assert.deepEqual(result.uniqueIndices, [0, 2]);
});

await check('dedup by similarity (the default) keeps the first of texts equal after normalization', async () => {
  const items = [
    { id: 'a', text: 'It was the best of times, it was the worst of times.' },
    { id: 'b', text: 'Rain is expected over the northern hills by Thursday evening.' },
    { id: 'c', text: 'IT WAS THE BEST OF TIMES -- IT WAS THE WORST OF TIMES' },
    { id: 'd', text: 'it was the best of times it was the worst of times' },
  ];
  const result = await sh.dedup(items, { key: (item) => item.text });
  assert.deepEqual(result.groups, [[0, 2, 3]]);
  assert.deepEqual(result.unique.map((item) => item.id), ['a', 'b']);
  assert.equal(result.fingerprints[0], result.fingerprints[3]);
});

await check('the index: add, query, remove, serialize and load, dispose', () => {
  const index = sh.createIndex({ maxDistance: 3 });
  const base = sh.fingerprint('the quick brown fox');
  const near = base ^ 0b101n; // 2 bits away
  const far = ~base & 0xffffffffffffffffn; // 64 bits away
  assert.equal(index.add(base, 10), 10);
  assert.deepEqual([...index.addAll([near, far], [11, 12])], [11, 12]);
  assert.equal(index.size, 3);
  assert.deepEqual(index.query(base), [{ id: 10, distance: 0 }, { id: 11, distance: 2 }]);
  const copy = sh.loadIndex(index.serialize());
  assert.equal(index.remove(10), true);
  assert.equal(index.remove(10), false);
  assert.deepEqual(index.query(base), [{ id: 11, distance: 2 }]);
  assert.deepEqual(copy.query(far), [{ id: 12, distance: 0 }]);
  assert.deepEqual(copy.query(base), [{ id: 10, distance: 0 }, { id: 11, distance: 2 }]);
  index.dispose();
  copy.dispose();
  assert.throws(() => index.query(base));
});

await check('the text index: add, query, serialize and load, dispose; answers as sh.similarity and dedup', async () => {
  const lines = [
    'It was the best of times, it was the worst of times.',
    'Rain is expected over the northern hills by Thursday evening.',
    'IT WAS THE BEST OF TIMES -- IT WAS THE WORST OF TIMES',
    'Rain is expected over the northern hills by Friday evening.',
    '天下没有不散的宴席。',
    '天下没有不散的宴席！',
  ];
  const index = sh.createTextIndex();
  assert.equal(index.similarity, 0.8);
  const kept = [];
  lines.forEach((line, i) => {
    const found = index.query(line);
    for (const { id, similarity } of found) assert.equal(similarity, sh.similarity(line, lines[id]));
    if (found.length === 0) kept.push(index.add(line, i));
  });
  // The index measures as dedup's text measure does (the stream contract); by the short measure dedup keeps the two forecasts apart.
  assert.deepEqual(kept, (await sh.dedup(lines, { measure: 'text' })).uniqueIndices);
  const copy = sh.loadTextIndex(index.serialize());
  assert.equal(copy.size, index.size);
  for (const line of lines) assert.deepEqual(copy.query(line), index.query(line));
  assert.equal(copy.remove(0), true);
  assert.deepEqual(copy.query(lines[2]), []);
  assert.deepEqual(index.query(lines[2]), [{ id: 0, similarity: 1, kind: 'duplicate' }]);
  index.dispose();
  copy.dispose();
  assert.throws(() => index.query(lines[0]), /disposed/);
});

const texts = plantedTexts();
const fingerprints = sh.fingerprintAll(texts);

await check('findPairs lists every planted pair of equal texts at distance 0', () => {
  const pairs = sh.findPairs(fingerprints, 3);
  const listed = new Set(Array.from(pairs.a, (a, i) => `${a},${pairs.b[i]},${pairs.distance[i]}`));
  for (let i = 0; i < 40; i++) assert.ok(listed.has(`${i},${120 + i},0`), `pair ${i}, ${120 + i}`);
});

await check('the pool of 2 workers answers as the calling thread does', async () => {
  const pool = await createPool({ size: 2 });
  try {
    assert.equal(pool.size, 2);
    assert.deepEqual(await pool.fingerprintAll(texts), fingerprints);
    const single = sh.findPairs(fingerprints, 12);
    const pooled = await pool.findPairs(fingerprints, 12);
    assert.ok(single.a.length >= 40, `${single.a.length} pairs`);
    assert.deepEqual(pooled, single);
    for (const options of [{}, { maxDistance: 3 }, { grouping: 'components' }]) {
      const expected = await sh.dedup(texts, options);
      for (let i = 0; i < 40; i++) assert.ok(expected.groups.some((g) => g[0] === i && g.includes(120 + i)), `planted group ${i}`);
      assert.deepEqual(await pool.dedup(texts, options), expected, JSON.stringify(options));
    }
  } finally {
    await pool.terminate();
  }
});

await check('traditional Han folds to simplified by the short measure: the table read from the package, here and in a worker', async () => {
  const han = ['北京大學', '上海', '北京大学'];
  assert.equal(sh.similarity(han[0], han[2], { measure: 'short' }), 1);
  assert.deepEqual((await sh.dedup(han)).groups, [[0, 2]]);
  const pool = await createPool({ size: 1 });
  try {
    assert.deepEqual((await pool.dedup(han)).groups, [[0, 2]]);
  } finally {
    await pool.terminate();
  }
});

await check('the calls above, run twice, leave the WASM heap where once did (scratch is reused, nothing leaks)', async () => {
  const round = async () => {
    sh.findPairs(sh.fingerprintAll(texts), 12);
    await sh.dedup(texts);
    const index = sh.createIndex();
    index.addAll(fingerprints);
    sh.loadIndex(index.serialize()).dispose();
    index.dispose();
  };
  await round();
  const after = sh.heapBytesInUse;
  await round();
  assert.equal(sh.heapBytesInUse, after);
});

await check(`the CLI, run by ${RUNTIME}, dedups a file and standard input`, () => {
  const cli = fileURLToPath(new URL('./cli/main.js', import.meta.resolve('simhash-wasm')));
  const command = RUNTIME === 'deno' ? ['run', '--allow-read', cli] : [cli];
  const dir = mkdtempSync(join(tmpdir(), 'simhash-smoke-'));
  try {
    const file = join(dir, 'lines.txt');
    writeFileSync(file, 'The cat sat.\r\nthe cat sat!\r\nSomething else\r\n');
    const fromFile = spawnSync(process.execPath, [...command, 'dedup', file], { encoding: 'utf8', timeout: 30000 });
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.equal(fromFile.stdout, 'The cat sat.\r\nSomething else\r\n');
    const fromStdin = spawnSync(process.execPath, [...command, 'dedup', '-', '--groups'], { encoding: 'utf8', timeout: 30000, input: 'a b c d\nA B C D!\nx y z\n' });
    assert.equal(fromStdin.status, 0, fromStdin.stderr);
    assert.deepEqual(fromStdin.stdout.trim().split('\n').map((line) => JSON.parse(line).group.map((record) => record.line)), [[1, 2]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

console.log(`${RUNTIME}: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
