// The WASM build reproduces every golden fingerprint of the native build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sh } from './helpers.js';
import { optionsOfSpec } from '../vectors/spec.js';

const REGENERATE = 'If the fingerprint definition changed on purpose, bump the format version, regenerate with ' +
  '`npm run vectors` and document it in the README changelog; otherwise this is a regression.';

const file = readFileSync(new URL('../vectors/fingerprints.tsv', import.meta.url), 'utf8');
const lines = file.split('\n').filter((line) => line && !line.startsWith('#'));

test('the vectors, the module, the changelog and the README agree on the format version', () => {
  const version = Number(/fingerprint format version (\d+)\./.exec(file)?.[1]);
  assert.equal(sh.formatVersion, version, REGENERATE);
  const changelog = readFileSync(new URL('../../docs/changelog.md', import.meta.url), 'utf8');
  assert.match(changelog, new RegExp(`fingerprint format ${version}\\b`, 'i'), 'docs/changelog.md documents the current format');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.match(readme, new RegExp(`## Fingerprints are a contract \\(format version ${version}\\)`), 'the README names the current format');
  const spec = readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
  assert.match(spec, new RegExp(`^# Fingerprint specification \\(format version ${version}\\)`), 'docs/spec.md specifies the current format');
  assert.match(readme.slice(readme.indexOf('## Changelog')), new RegExp(`fingerprint format ${version}\\b`, 'i'), 'the README names the current format');
});

test('the golden vector file has the cases it promises', () => {
  assert.ok(lines.length >= 30);
  const notes = lines.map((line) => line.split('\t')[3]);
  for (const kind of ['English', 'Chinese', 'mixed English and Chinese', 'emoji only', 'empty', 'invalid UTF-8 bytes']) {
    assert.ok(notes.includes(kind), kind);
  }
});

for (const line of lines) {
  const [hex, spec, inputHex, note] = line.split('\t');
  test(`golden vector: ${note} (${spec})`, () => {
    // Invalid UTF-8 reaches JS the way TextDecoder reads it: the core decodes the same way.
    const input = new TextDecoder().decode(Buffer.from(inputHex, 'hex'));
    let fingerprint;
    if (spec.startsWith('tokens')) {
      const tokens = input === '' ? [] : input.split('\x1f');
      const weights = spec.length > 7 ? spec.slice(7).split(',').map(Number) : undefined;
      fingerprint = sh.fingerprintTokens(tokens, weights);
    } else {
      fingerprint = sh.fingerprint(input, optionsOfSpec(spec));
    }
    assert.equal(sh.toHex(fingerprint), hex, REGENERATE);
  });
}
