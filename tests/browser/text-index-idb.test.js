// A TextIndex kept in IndexedDB across a reload, in headless Chromium and Firefox ESR under
// the strict CSP: a page of the packed package (installed as package.test.js installs it)
// builds a TextIndex of 3,000 texts, answers a set of queries, removes an id that answers
// some of them, answers again, and stores serialize() in IndexedDB. The page is reloaded:
// finding the bytes in IndexedDB, it loads them with loadTextIndex and answers the same
// queries. The answers must be the stored index's, which must be Node's for the same calls,
// and the removed id must stay absent; the stored bytes come back a Uint8Array that the
// loaded index serializes to again, and a copy with a flipped byte is refused.
//
// Firefox ESR is Debian's (bash .ci/firefox.sh installs it); where it is missing its case is
// skipped with the reason, and under CI=true it fails instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIREFOX, installPackedPackage, launchChromium, launchFirefox, outputOf, serveDirectory, watchProblems } from './browser.js';
import { init } from '../../js/node.js';

const TEXT_COUNT = 3000;
const SIMILARITY = 0.7;

/**
 * `count` one-line texts of made-up words, deterministic: a sixth of them variants of an
 * earlier text (a word replaced, dropped or repeated, or the case and punctuation changed),
 * a fiftieth exact copies. Self-contained: the page gets its source.
 */
function makeTexts(count) {
  let state = 0x9e3779b9;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n) => Math.floor(random() * n);
  const syllables = ['ba', 'ko', 'ri', 'tu', 'me', 'sha', 'lo', 'vi', 'dra', 'pe', 'nu', 'zo', 'ki', 'gal', 'mor'];
  const words = Array.from({ length: 3000 }, () => Array.from({ length: 1 + below(3) }, () => syllables[below(syllables.length)]).join(''));
  const texts = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (i > 10 && roll < 0.02) {
      texts.push(texts[below(i)]);
    } else if (i > 10 && roll < 0.18) {
      const parts = texts[below(i)].split(' ');
      const at = below(parts.length);
      const edit = below(4);
      if (edit === 0) parts[at] = words[below(words.length)];
      else if (edit === 1 && parts.length > 4) parts.splice(at, 1);
      else if (edit === 2) parts.splice(at, 0, parts[at]);
      else parts[0] = parts[0].toUpperCase();
      texts.push(`${parts.join(' ')}${edit === 3 ? '!' : ''}`);
    } else {
      texts.push(Array.from({ length: 8 + below(16) }, () => words[below(words.length)]).join(' '));
    }
  }
  return texts;
}

/**
 * The queries asked before and after the reload: stored texts as they are, stored texts
 * with a word replaced, and texts of words no stored text uses. The id `removed` answers
 * the first of them (it is its own text).
 */
function makeQueries(texts, removed) {
  const queries = [texts[removed]];
  for (let i = 0; i < 40; i++) {
    const text = texts[(i * 977 + 13) % texts.length];
    if (i % 2 === 0) {
      queries.push(text);
    } else {
      const parts = text.split(' ');
      parts[i % parts.length] = 'quux';
      queries.push(parts.join(' '));
    }
  }
  for (let i = 0; i < 5; i++) queries.push(`unrelated words number ${i} about weather, trains and harbour cranes`);
  return queries;
}

/** The id removed after the first answers. */
const REMOVED = 1234;

const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>TextIndex in IndexedDB</title><output id="out"></output><script type="module" src="./idb.js"></script>';
const PAGE_SCRIPT = `import { init } from './node_modules/simhash-wasm/js/index.js';

const makeTexts = ${makeTexts};
const makeQueries = ${makeQueries};
const STORE = 'indexes';

const settle = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

function openDatabase() {
  const request = indexedDB.open('simhash-text-index', 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE);
  return settle(request);
}

async function readStored(db) {
  return settle(db.transaction(STORE, 'readonly').objectStore(STORE).get('list'));
}

async function store(db, bytes) {
  const transaction = db.transaction(STORE, 'readwrite');
  transaction.objectStore(STORE).put(bytes, 'list');
  await new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

async function main() {
  const sh = await init();
  const texts = makeTexts(${TEXT_COUNT});
  const queries = makeQueries(texts, ${REMOVED});
  const answers = (index) => queries.map((query) => index.query(query));
  const db = await openDatabase();
  try {
    const stored = await readStored(db);
    if (stored === undefined) {
      const index = sh.createTextIndex({ similarity: ${SIMILARITY} });
      try {
        index.addAll(texts);
        const before = answers(index);
        const removed = index.remove(${REMOVED});
        const after = answers(index);
        const bytes = index.serialize();
        await store(db, bytes);
        return { phase: 'stored', size: index.size, bytes: bytes.length, removed, before, after };
      } finally {
        index.dispose();
      }
    }
    const index = sh.loadTextIndex(stored);
    try {
      const again = index.serialize();
      const flipped = stored.slice();
      flipped[flipped.length >> 1] ^= 0x10;
      let corrupt = 'loaded';
      try {
        sh.loadTextIndex(flipped).dispose();
      } catch (error) {
        corrupt = \`\${error.name}: \${error.message}\`;
      }
      return {
        phase: 'loaded',
        storedAs: Object.prototype.toString.call(stored),
        size: index.size,
        similarity: index.similarity,
        hasRemoved: index.has(${REMOVED}),
        reserialized: again.length === stored.length && again.every((byte, i) => byte === stored[i]),
        corrupt,
        answers: answers(index),
      };
    } finally {
      index.dispose();
    }
  } finally {
    db.close();
  }
}

main().then(
  (report) => { document.getElementById('out').textContent = JSON.stringify(report); },
  (error) => { document.getElementById('out').textContent = JSON.stringify({ error: String(error?.stack ?? error) }); },
);
`;

const BROWSERS = [
  { name: 'Chromium', launch: launchChromium, missing: null },
  { name: 'Firefox ESR', launch: launchFirefox, missing: existsSync(FIREFOX) ? null : `${FIREFOX} is not installed (bash .ci/firefox.sh installs it)` },
];

let work;
let project;
/** Node's answers for the same calls: before and after the removal. */
let reference;

before(async () => {
  ({ work, project } = installPackedPackage('simhash-idb-'));
  writeFileSync(join(project, 'index.html'), PAGE_HTML);
  writeFileSync(join(project, 'idb.js'), PAGE_SCRIPT);

  const sh = await init();
  const texts = makeTexts(TEXT_COUNT);
  const queries = makeQueries(texts, REMOVED);
  const index = sh.createTextIndex({ similarity: SIMILARITY });
  try {
    index.addAll(texts);
    const beforeRemoval = queries.map((query) => index.query(query));
    assert.equal(index.remove(REMOVED), true);
    reference = { texts, queries, before: beforeRemoval, after: queries.map((query) => index.query(query)) };
  } finally {
    index.dispose();
  }
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the queries test what they should: the removed id answers, others answer several ids or none', () => {
  const { before: answers, after: afterRemoval, queries } = reference;
  assert.ok(answers[0].some((match) => match.id === REMOVED), 'the removed id answers the first query before its removal');
  assert.ok(afterRemoval.every((matches) => matches.every((match) => match.id !== REMOVED)), 'and no query after it');
  assert.ok(answers.some((matches) => matches.length >= 2), 'some query has several answers');
  assert.ok(answers.some((matches) => matches.some((match) => match.similarity < 1)), 'some answer is a near-duplicate, not a copy');
  assert.deepEqual(answers.slice(-5), [[], [], [], [], []], 'unrelated texts have no answers');
  assert.equal(queries.length, answers.length);
});

for (const { name, launch, missing } of BROWSERS) {
  test(`${name}: a TextIndex stored in IndexedDB answers the same after a reload`, async (t) => {
    if (missing && process.env.CI !== 'true') {
      t.skip(missing);
      return;
    }
    assert.ok(!missing, `${name}: ${missing}, and under CI=true every browser must run`);
    const browser = await launch();
    const server = await serveDirectory(project);
    try {
      const page = await browser.newPage();
      const problems = watchProblems(page);
      await page.goto(server.url);
      const stored = JSON.parse(await outputOf(page, 60_000));
      assert.equal(stored.error, undefined, stored.error);
      assert.equal(stored.phase, 'stored', 'a new origin starts with nothing in IndexedDB');
      assert.equal(stored.removed, true);
      assert.equal(stored.size, TEXT_COUNT - 1);
      assert.deepEqual(stored.before, reference.before, 'the page answers as Node before the removal');
      assert.deepEqual(stored.after, reference.after, 'and after it');

      await page.reload();
      const loaded = JSON.parse(await outputOf(page, 60_000));
      assert.equal(loaded.error, undefined, loaded.error);
      assert.equal(loaded.phase, 'loaded', 'the reloaded page finds the bytes in IndexedDB');
      assert.equal(loaded.storedAs, '[object Uint8Array]');
      assert.equal(loaded.size, TEXT_COUNT - 1);
      assert.equal(loaded.similarity, SIMILARITY);
      assert.equal(loaded.hasRemoved, false, 'the removed id is not back');
      assert.equal(loaded.reserialized, true, 'the loaded index serializes to the stored bytes');
      assert.match(loaded.corrupt, /^Error: ./, 'a flipped byte is refused, with a description');
      assert.deepEqual(loaded.answers, stored.after, 'the same answers after the reload');
      assert.deepEqual(problems, []);
      await page.close();
    } finally {
      await browser.close();
      await server.close();
    }
  });
}
