// The README's quick start runs as written and says what it shows; every figure of the README
// that the library fixes (defaults, ranges, the thresholds table, format versions, the blank
// text's fingerprint, the Node.js version) is the library's; every relative link in the README
// and docs/ points to a file that exists (and to a heading of it, when it names one). The
// download size on the Install line is checked by tests/browser/package.test.js, where it is
// measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { init, DEFAULT_SIMILARITY, DEFAULT_MAX_DISTANCE, DEFAULT_OPTIONS, candidateRadius } from '../../js/node.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The captures of `pattern` (global) in the README: at least `least` matches, or the README no longer states it. */
function stated(pattern, least = 1) {
  const found = [...README.matchAll(pattern)].map((match) => match.slice(1).find((group) => group !== undefined));
  assert.ok(found.length >= least, `the README states ${pattern} at least ${least} times; found ${found.length}`);
  return found;
}

test('README quick start', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = section.slice(section.indexOf('```js') + 5, section.indexOf('```', section.indexOf('```js') + 5));
  const entry = pathToFileURL(new URL('../../js/node.js', import.meta.url).pathname).href;
  const dir = mkdtempSync(join(tmpdir(), 'simhash-readme-'));
  try {
    const file = join(dir, 'quickstart.mjs');
    writeFileSync(file, `${code.replace("from 'simhash-wasm'", `from '${entry}'`)}\nexport { sh, a, b, unique, groups, zh, review };\n`);
    const { sh, a, b, unique, groups, zh, review } = await import(pathToFileURL(file).href);
    const claimed = Number(/sh\.distance\(a, b\);\s*\/\/ (\d+)/.exec(code)?.[1]); // the number the README shows
    assert.equal(sh.distance(a, b), claimed);
    assert.deepEqual(unique, ['The cat sat.', 'Something else']);
    assert.deepEqual(groups, [[0, 1]]);
    // The Chinese pair is a review pair, with the similarity the README shows (to 3 places).
    const shown = Number(/\/\/ review: \[\{ a: 0, b: 1, similarity: ([\d.]+) \}\]/.exec(code)?.[1]);
    assert.deepEqual(review, [{ a: 0, b: 1, similarity: sh.similarity(zh[0], zh[1]) }]);
    assert.equal(review[0].similarity.toFixed(3), shown.toFixed(3));
    const below = Number(/below ([\d.]+), listed, not merged/.exec(code)?.[1]);
    assert.equal(below, DEFAULT_SIMILARITY, 'the quick start compares with the default similarity');
    assert.ok(review[0].similarity < DEFAULT_SIMILARITY, 'below the default similarity');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README states the library\'s defaults and candidate radii', () => {
  // The default similarity, wherever the README names it.
  const similarities = [
    ...stated(/\bdefault(?: similarity)? (0\.\d+)/g, 4), // quick start, createTextIndex, dedup, Detection quality
    ...stated(/duplicates at (0\.\d+)/g), // the text index's example
    ...stated(/# one text per line, similarity (0\.\d+)/g), // the CLI's
  ];
  for (const s of similarities) assert.equal(Number(s), DEFAULT_SIMILARITY, `the README states the default similarity ${s}`);
  assert.deepEqual(stated(/maxDistance 0\.\.64 inclusive, default (\d+)/g).map(Number), [DEFAULT_MAX_DISTANCE]);

  // FingerprintOptions: every option with its default, as DEFAULT_OPTIONS has it.
  const block = /interface FingerprintOptions \{\n([\s\S]*?)\n\}/.exec(README)?.[1] ?? '';
  const defaults = Object.fromEntries([...block.matchAll(/^\s*(\w+)\?:.*\/\/.*\bdefault ('[^']*'|\S+)/gm)]
    .map(([, name, value]) => [name, value === 'none' ? null : /^'/.test(value) ? value.slice(1, -1) : JSON.parse(value)]));
  assert.deepEqual(defaults, DEFAULT_OPTIONS);

  // "Choosing thresholds": candidateRadius(s) for every s of the table, the default in bold.
  const row = (name) => /^\|(.*)\|$/m.exec(README.slice(README.indexOf(`| ${name} |`)))[1].split('|').slice(1).map((cell) => cell.trim().replace(/\*\*/g, ''));
  const thresholds = row('s').map(Number);
  const radii = row('`candidateRadius(s)` (of 64 bits)').map(Number);
  assert.equal(thresholds.length, radii.length);
  assert.deepEqual(radii, thresholds.map((s) => candidateRadius(s)));
  assert.deepEqual(stated(/^\| s \|.*\*\*(0\.\d+)\*\*/gm).map(Number), [DEFAULT_SIMILARITY], 'the default is the bold column');
});

test('the README states the module\'s format versions and the blank text\'s fingerprint', async () => {
  const sh = await init();
  const version = (bytes) => [new TextDecoder().decode(bytes.subarray(0, 4)), bytes[4] | (bytes[5] << 8)];
  const [fingerprint] = stated(/## Fingerprints are a contract \(format version (\d+)\)/g).map(Number);
  assert.equal(fingerprint, sh.formatVersion);
  const spec = readFileSync(join(ROOT, 'docs/spec.md'), 'utf8');
  assert.ok(spec.startsWith(`# Fingerprint specification (format version ${fingerprint})\n`), 'docs/spec.md specifies the README\'s format');

  // "Serialized formats", as the module writes them.
  const [, shix, shtx, shtxReview, shtxLoads, shif] = /`"SHIX"`, version (\d+)\), text indexes \(`"SHTX"`, version (\d+), (\d+) with review; version (\d+) loads\) and IDF weights \(`"SHIF"`, version (\d+)\)/.exec(README) ?? [];
  assert.ok(shix, 'the README\'s "Serialized formats" names each format\'s version');
  const index = sh.createIndex();
  const texts = sh.createTextIndex();
  const reviewing = sh.createTextIndex({ review: 0.5 });
  const idf = sh.learnIdf(['a b', 'b c']);
  try {
    texts.add('the cat sat');
    assert.deepEqual(version(index.serialize()), ['SHIX', Number(shix)]);
    assert.deepEqual(version(texts.serialize()), ['SHTX', Number(shtx)]);
    assert.deepEqual(version(reviewing.serialize()), ['SHTX', Number(shtxReview)]);
    assert.deepEqual(version(idf.toBytes()), ['SHIF', Number(shif)]);
    const old = readFileSync(join(ROOT, 'tests/vectors/text-index-v1.bin'));
    assert.deepEqual(version(old), ['SHTX', Number(shtxLoads)]);
    sh.loadTextIndex(old).dispose();
  } finally {
    for (const owner of [index, texts, reviewing, idf]) owner.dispose();
  }
  // The changelog's line of current formats and the headings of docs/formats.md say the same.
  const [current] = stated(/The current formats: (fingerprint format \d+, serialized index and IDF formats \d+, text index formats \d+ and \d+)\./g);
  assert.equal(current, `fingerprint format ${fingerprint}, serialized index and IDF formats ${shix}, text index formats ${shtx} and ${shtxReview}`);
  assert.equal(Number(shix), Number(shif), 'the changelog line names one version for both');
  const formats = readFileSync(join(ROOT, 'docs/formats.md'), 'utf8');
  for (const heading of [`## Serialized index format (version ${shix})`, `## Serialized text index format (versions ${shtx} and ${shtxReview})`, `## Serialized IDF format (version ${shif})`]) {
    assert.ok(formats.includes(`\n${heading}\n`), `docs/formats.md has "${heading}"`);
  }

  // Blank texts: the golden vector the specification quotes, and the module's.
  const [, blank] = /all blank texts share fingerprint `([0-9a-f]{16})`/.exec(spec) ?? [];
  const vectors = readFileSync(join(ROOT, 'tests/vectors/fingerprints.tsv'), 'utf8').split('\n').map((line) => line.split('\t'));
  assert.deepEqual(vectors.filter(([, , hex, note]) => hex === '' && note === 'empty').map(([fp]) => fp), [blank]);
  assert.equal(sh.toHex(sh.fingerprint('')), blank);
  assert.equal(sh.toHex(sh.fingerprint(' \t\n')), blank);
});

test('the README states the options\' ranges and the Node.js versions the package supports', async () => {
  const sh = await init();
  const range = (pattern) => {
    const match = pattern.exec(README);
    assert.ok(match, `the README states ${pattern}`);
    return match.slice(1).map(Number);
  };
  for (const name of ['wordNgram', 'charNgram']) {
    const [low, high] = range(new RegExp(`${name}\\?: number;\\s*// (\\d+)\\.\\.(\\d+)`));
    sh.fingerprint('a b c', { [name]: low });
    sh.fingerprint('a b c', { [name]: high });
    assert.throws(() => sh.fingerprint('a b c', { [name]: low - 1 }), RangeError);
    assert.throws(() => sh.fingerprint('a b c', { [name]: high + 1 }), RangeError);
  }
  const [low, high] = range(/maxDistance (\d+)\.\.(\d+) inclusive/);
  for (const maxDistance of [low, high]) sh.createIndex({ maxDistance }).dispose();
  for (const maxDistance of [low - 1, high + 1]) assert.throws(() => sh.createIndex({ maxDistance }), RangeError);

  const engines = Number(/^>=(\d+)$/.exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node)?.[1]);
  for (const version of [...stated(/Node\.js (\d+) or newer/g), ...stated(/Node (\d+)\+/g)]) assert.equal(Number(version), engines, 'package.json\'s engines');
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(markdown) {
  const anchors = new Set();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line)) anchors.add(anchorOf(line.replace(/^#+ /, '')));
  }
  return anchors;
}

/**
 * The relative links of a Markdown file (at path `file`, text `markdown`) that do not resolve:
 * a target file that does not exist, or an anchor that no heading of the target has.
 * Links in code blocks and inline code are not links; URLs with a scheme are not checked.
 */
function brokenLinks(file, markdown, read = (path) => readFileSync(path, 'utf8')) {
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  const broken = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, anchor] = target.split('#');
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${target}: no file ${relative(ROOT, resolved)}`);
    } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor)) {
      broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, resolved)}`);
    }
  }
  return broken;
}

test('every relative link in the README and docs/ resolves', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, 'docs', name));
  assert.ok(docs.length > 0, 'docs/ holds the README\'s linked pages');
  let links = 0;
  for (const file of [join(ROOT, 'README.md'), ...docs]) {
    const markdown = readFileSync(file, 'utf8');
    links += [...markdown.matchAll(/\]\(/g)].length;
    assert.deepEqual(brokenLinks(file, markdown), [], `broken links in ${relative(ROOT, file)}`);
  }
  assert.ok(links > 0);
});

test('the link check finds a missing file and a missing heading', () => {
  const file = join(ROOT, 'README.md');
  const markdown = [
    '# Title', '', 'See [a](docs/no-such-page.md), [b](README.md#no-such-heading), [c](#title), [d](LICENSE),',
    '[e](https://example.com/x), `[f](not-a-link.md)`', '```', '[g](also-not-a-link.md)', '```',
  ].join('\n');
  const broken = brokenLinks(file, markdown, (path) => (path === file ? markdown : readFileSync(path, 'utf8')));
  assert.deepEqual(broken, [
    'docs/no-such-page.md: no file docs/no-such-page.md',
    'README.md#no-such-heading: no heading #no-such-heading in README.md',
  ]);
});

test('what the README shows of `npm start` is what it prints, line for line', () => {
  const [excerpt] = stated(/`npm start` prints, among others:\n\n```\n([^`]+)```/g);
  const printed = execFileSync(process.execPath, [join(ROOT, 'js/cli/main.js')], { encoding: 'utf8' }).split('\n');
  const lines = excerpt.trimEnd().split('\n');
  const at = printed.indexOf(lines[0]);
  assert.ok(at >= 0, `npm start prints "${lines[0]}"`);
  // The group as printed in one piece; the look-alike line under the heading that lists them.
  assert.deepEqual(printed.slice(printed.indexOf(lines[1]) - 1, printed.indexOf(lines[1]) + 2), lines.slice(0, 3));
  const apart = printed.indexOf(lines[3]);
  assert.ok(apart >= 0 && printed.slice(apart).includes(lines[4]), 'the look-alike is listed as kept apart');
});

test('the README stays a contract: at most 4,500 words (runs and comparisons go to docs/)', () => {
  const words = readFileSync(join(ROOT, 'README.md'), 'utf8').split(/\s+/).filter(Boolean).length;
  assert.ok(words <= 4500, `README.md has ${words} words`);
});

test('the README\'s table of what the defaults find on lists is what tests/bench/lists-kinds.js measures', async () => {
  const { KINDS, pairsByKind, percent, variationKind } = await import('../bench/lists-kinds.js');
  // The classifier names each variation of the README's examples.
  const examples = [
    ['Apple Inc.', 'apple inc', 'case or punctuation'], ['José García', 'Jose Garcia', 'diacritics'],
    ['Mc Donald', 'McDonald', 'spacing in a word'], ['John Smith', 'Smith, John', 'word order'],
    ['Microsoft', 'Mircosoft', 'typos'], ['Acme Corporation', 'ACME Corp.', 'abbreviation'],
    ['Acme Inc', 'Acme', 'word added or dropped'], ['Bob Smith', 'Robert Smith', 'several'],
  ];
  assert.deepEqual(examples.map(([a, b]) => variationKind(a, b)), examples.map(([, , kind]) => kind));
  const [review] = stated(/\| variation \| true pairs \| grouped \| grouped or listed, `review: ([\d.]+)` \|/g).map(Number);
  const rows = (await pairsByKind(await init(), review)).map(({ kind, pairs, grouped, groupedOrListed }) => [kind, pairs.toLocaleString('en'), percent(grouped, pairs), percent(groupedOrListed, pairs)]);
  const table = README.slice(README.indexOf('| variation | true pairs |')).split('\n\n')[0].split('\n').slice(2).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  assert.equal(table.length, KINDS.length);
  assert.deepEqual(table.map(([label, ...figures]) => [KINDS.find((kind) => label.startsWith(kind)), ...figures]), rows);
});
