// Tests the package as users get it: `npm pack`, install the tarball into a fresh project,
// then use it from Node ESM, Node CommonJS, and a Vite production build in headless
// Chromium under a strict Content-Security-Policy. Also measures what a browser downloads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { installPackedPackage, launchChromium, run, serveDirectory, watchProblems } from './browser.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const OUTPUT = join(ROOT, 'tests/output');
/** Issue 3's budget for what a browser downloads (JS + WASM), gzipped. */
const MAX_GZIP_BYTES = 40 * 1024;

// Golden vectors with default options: what every build must print for these texts.
const DEFAULT_SPEC = 'mode=auto word=1 char=2 fold=1 punct=strip weight=binary';
const VECTORS = readFileSync(join(ROOT, 'tests/vectors/fingerprints.tsv'), 'utf8').split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => line.split('\t'))
  .filter(([, spec, hex]) => spec === DEFAULT_SPEC && hex)
  .map(([fingerprint, , hex]) => ({ fingerprint, text: Buffer.from(hex, 'hex').toString('utf8') }))
  .filter(({ text }) => !text.includes('\uFFFD')) // valid UTF-8 only: these cross as JS strings
  .slice(0, 6);
const EXPECTED = VECTORS.map((v) => v.fingerprint).join(',');

// The same program in every setting: fingerprints of the vectors' texts, then a dedup.
const PROGRAM = `
  const sh = await init();
  const texts = ${JSON.stringify(VECTORS.map((v) => v.text))};
  const hex = [...sh.fingerprintAll(texts)].map((fp) => sh.toHex(fp)).join(',');
  const { groups } = await sh.dedup(['The cat sat.', 'the cat sat!', 'Something else'], { maxDistance: 3 });
  const index = sh.createIndex();
  index.add(sh.fingerprint('hello'), 7);
  const found = index.query(sh.fingerprint('Hello!'))[0].id;
  index.dispose();
  const result = hex + ' ' + JSON.stringify(groups) + ' ' + found;`;
const EXPECTED_RESULT = `${EXPECTED} [[0,1]] 7`;

let work;
let tarball;
let project;

before(() => {
  assert.ok(VECTORS.length >= 3, 'golden vectors with default options exist');
  ({ work, tarball, project } = installPackedPackage('simhash-pack-'));
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds only what users need', () => {
  const files = run('tar', ['-tzf', tarball], work).trim().split('\n').sort();
  assert.deepEqual(files.filter((f) => !/^package\/(js\/[\w.-]+\.(js|cjs|d\.ts)|js\/wasm\/simhash_core\.(mjs|wasm)|package\.json|README\.md|LICENSE)$/.test(f)), []);
  assert.ok(files.includes('package/js/wasm/simhash_core.wasm'));
  assert.ok(files.includes('package/js/index.d.ts'));
});

test('Node ESM', () => {
  writeFileSync(join(project, 'esm.mjs'), `import { init } from 'simhash-wasm';\n${PROGRAM}\nconsole.log(result);`);
  assert.equal(run('node', ['esm.mjs'], project).trim(), EXPECTED_RESULT);
});

test('Node CommonJS', () => {
  writeFileSync(join(project, 'cjs.cjs'), `const { init } = require('simhash-wasm');\n(async () => {${PROGRAM}\nconsole.log(result);})();`);
  assert.equal(run('node', ['cjs.cjs'], project).trim(), EXPECTED_RESULT);
});

test('the npx command', () => {
  writeFileSync(join(project, 'lines.txt'), 'The cat sat.\nthe cat sat!\nSomething else\n');
  assert.equal(run(join(project, 'node_modules/.bin/simhash-wasm'), ['dedup', 'lines.txt'], project), 'The cat sat.\nSomething else\n');
});

test('a Vite production build in Chromium, under a strict CSP, within the size budget', async () => {
  writeFileSync(join(project, 'index.html'), '<!doctype html><title>app</title><output id="out"></output><script type="module" src="./main.js"></script>');
  writeFileSync(join(project, 'main.js'), `import { init } from 'simhash-wasm';\n${PROGRAM}\ndocument.getElementById('out').textContent = result;`);
  run('node', [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], project);
  const dist = join(project, 'dist');

  const assets = readdirSync(join(dist, 'assets')).map((name) => join(dist, 'assets', name));
  const sizes = assets.map((file) => ({ file: file.slice(dist.length + 1), bytes: statSync(file).size, gzip: gzipSync(readFileSync(file), { level: 9 }).length }));
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, 'bundle-size.json'), JSON.stringify({ sizes, totalGzip: total }, null, 2));
  console.log(`browser download (Vite build): ${sizes.map((s) => `${s.file} ${s.bytes} B (${s.gzip} B gz)`).join(', ')}; total ${total} B gzipped`);
  assert.ok(sizes.some((s) => s.file.endsWith('.wasm')), 'the .wasm is emitted as an asset');
  assert.ok(total <= MAX_GZIP_BYTES, `${total} B gzipped exceeds ${MAX_GZIP_BYTES}`);

  const server = await serveDirectory(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('out').textContent !== '', null, { timeout: 20000 });
    assert.equal(await page.textContent('#out'), EXPECTED_RESULT);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
