// The README's quick start runs as written and says what it shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

test('README quick start', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = section.slice(section.indexOf('```js') + 5, section.indexOf('```', section.indexOf('```js') + 5));
  const entry = pathToFileURL(new URL('../../js/node.js', import.meta.url).pathname).href;
  const dir = mkdtempSync(join(tmpdir(), 'simhash-readme-'));
  try {
    const file = join(dir, 'quickstart.mjs');
    writeFileSync(file, `${code.replace("from 'simhash-wasm'", `from '${entry}'`)}\nexport { sh, a, b, unique, groups };\n`);
    const { sh, a, b, unique, groups } = await import(pathToFileURL(file).href);
    const claimed = Number(/sh\.distance\(a, b\);\s*\/\/ (\d+)/.exec(code)?.[1]); // the number the README shows
    assert.equal(sh.distance(a, b), claimed);
    assert.deepEqual(unique, ['The cat sat.', 'Something else']);
    assert.deepEqual(groups, [[0, 1]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
