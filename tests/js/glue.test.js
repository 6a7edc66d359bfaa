// The module's glue, written by .ci/write-glue.js after each link in place of Emscripten's:
// every export the JS layer calls is there under its name, the memory's view follows its
// growth, and a glue the script cannot read is left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createSimhashCore from '../../js/wasm/simhash_core.mjs';
import createSharedCore from '../../js/wasm/shared/simhash_core.mjs';

const JS = new URL('../../js/', import.meta.url);
const GLUE = new URL('wasm/simhash_core.mjs', JS);
const WRITE_GLUE = new URL('../../.ci/write-glue.js', import.meta.url).pathname;

/** The exports the JS layer calls (`core._name`), from its sources: { shared, every }, shared those of the index shared through Redis alone. */
function exportsCalled() {
  const shared = new Set();
  const every = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'wasm') walk(new URL(`${entry.name}/`, dir));
      else if (entry.name.endsWith('.js')) {
        for (const [, name] of readFileSync(new URL(entry.name, dir), 'utf8').matchAll(/\bcore\._(\w+)\(/g)) (entry.name === 'text-index-keys.js' ? shared : every).add(name);
      }
    }
  };
  walk(JS);
  for (const name of every) shared.delete(name);
  return { shared: [...shared], every: [...every] };
}

test('the glue js/ loads: every export the JS layer calls, a view of the memory that follows its growth, none of Emscripten\'s runtime', async () => {
  const core = await createSimhashCore({ wasmBinary: readFileSync(new URL('wasm/simhash_core.wasm', JS)) });
  const { shared, every } = exportsCalled();
  assert.ok(every.length > 50, `${every.length} exports found in js/`);
  for (const name of every) assert.equal(typeof core[`_${name}`], 'function', `core._${name}`);
  // The shared index's calls are in the module simhash-wasm/redis loads, not in the one a browser downloads.
  assert.deepEqual(shared.sort(), ['textIndexKeysOf', 'textIndexReviewFilter']);
  const sharedCore = await createSharedCore({ wasmBinary: readFileSync(new URL('wasm/shared/simhash_core.wasm', JS)) });
  for (const name of [...every, ...shared]) assert.equal(typeof sharedCore[`_${name}`], 'function', `the shared module's core._${name}`);
  for (const name of shared) assert.equal(core[`_${name}`], undefined, `core._${name}`);
  const before = core.HEAPU8.length;
  const address = core._malloc(64 << 20);
  assert.ok(address > 0 && core.HEAPU8.length > before && core.HEAPU8.length >= address + (64 << 20), `${before} → ${core.HEAPU8.length} bytes`);
  core.HEAPU8[address + (64 << 20) - 1] = 7; // the view reaches the allocation's end
  core._free(address);
  const text = readFileSync(GLUE, 'utf8');
  for (const runtime of ['asmLibraryArg', 'runDependencies', 'preloadedImages']) assert.ok(!text.includes(runtime), runtime);
});

test('a glue .ci/write-glue.js cannot read is left as it was, with a warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glue-test-'));
  try {
    for (const text of ['export default 1;\n', readFileSync(GLUE, 'utf8')]) { // another shape; the written glue itself
      const file = join(dir, 'simhash_core.mjs');
      writeFileSync(file, text);
      const run = spawnSync(process.execPath, [WRITE_GLUE, file], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stderr, /left as Emscripten wrote it: no import object/);
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
