// The README's quick start runs as written and says what it shows; every relative link in the
// README and docs/ points to a file that exists (and to a heading of it, when it names one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
    assert.ok(review[0].similarity < 0.8, 'below the default similarity');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

test('the README stays a contract: at most 4,500 words (runs and comparisons go to docs/)', () => {
  const words = readFileSync(join(ROOT, 'README.md'), 'utf8').split(/\s+/).filter(Boolean).length;
  assert.ok(words <= 4500, `README.md has ${words} words`);
});
