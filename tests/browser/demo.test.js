// The demo (demo/, `npm run demo`) in headless Chromium: started as `npm run demo` starts it
// (a Vite build served under the strict CSP), then used as a person would: paste, the
// similarity and distance sliders, CSV and JSONL files with a column picker, downloads, a
// 100,000-line input in the worker with progress and cancel, the "Find near-duplicates of…"
// box, a narrow screen. Expected groups and matches come from the package in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { launchChromium, startDemoServer, watchProblems, STRICT_CSP } from './browser.js';
import { init } from '../../js/node.js';
import { diff } from '../../demo/diff.js';
import { generateLines } from '../../demo/generate.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const OUTPUT = join(ROOT, 'tests/output');
const DEFAULT_MAX_DISTANCE = 9; // the distance slider's initial value in demo/index.html
const DEFAULT_VIEW = { similarity: 0.8 }; // the page groups as dedup does by default

const LIST = [
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'Quarterly revenue grew by four percent, driven by strong sales in Europe.',
  'The quick brown fox jumps over the lazy dog near the river bank!',
  'the quick brown fox jumps over the lazy dog near the old river bank.',
  'Quarterly revenue grew by five percent, driven by strong sales in Asia.',
  'Water the tomatoes on the balcony every morning before it gets hot.',
  'Water the tomatoes on the balcony every morning before it gets hot.',
  'Water all the tomatoes on the balcony each morning before the day gets hot.',
  'Our office moves to the new building on Monday; pack your desks.',
  '我们下周一搬到新大楼办公，请提前收拾好桌子。',
  '我们下周一搬到新的大楼办公，请提前收拾好桌子！',
];

let sh;
let server;
let url;
let browser;

before(async () => {
  sh = await init();
  server = await startDemoServer();
  ({ url } = server);
  browser = await launchChromium();
  mkdirSync(OUTPUT, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page on the demo, watched for errors and CSP violations. */
async function openDemo(viewport = { width: 1280, height: 1000 }) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  const problems = watchProblems(page);
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

async function closeDemo({ page, problems }) {
  assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'no CSP violations');
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.close();
}

const runs = (page) => page.evaluate(() => Number(document.body.dataset.runs ?? 0));

/** Waits until the page has shown a result after run number `before`. */
async function settled(page, previous, timeout = 30_000) {
  await page.waitForFunction((n) => Number(document.body.dataset.runs) > n && document.body.dataset.state !== 'busy', previous, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

async function stats(page) {
  return page.evaluate(() => Object.fromEntries(['items', 'unique', 'duplicates', 'groups'].map((name) => [name, document.getElementById(`stat-${name}`).textContent])));
}

/** Groups on the page as item indices, kept item first, with each member's distance badge. */
async function shownGroups(page) {
  return page.evaluate(() => [...document.querySelectorAll('#groups .group')].map((group) => [...group.querySelectorAll('.member')].map((m) => ({
    item: Number(m.dataset.item), badge: m.querySelector('.badge').textContent,
  }))));
}

/**
 * What the package's dedup says for a view ({ similarity } or { maxDistance }) by `measure`
 * (the page's for these texts), as the stats the page shows.
 */
async function expected(texts, view, options, measure = 'text') {
  const { unique, groups } = await sh.dedup(texts, { ...view, ...(view.similarity && { measure }), options });
  const fmt = (n) => n.toLocaleString('en');
  return { stats: { items: fmt(texts.length), unique: fmt(unique.length), duplicates: fmt(texts.length - unique.length), groups: fmt(groups.length) }, groups };
}

test('served under the strict CSP, with no inline script or style', async () => {
  const response = await fetch(url);
  assert.equal(response.headers.get('content-security-policy'), STRICT_CSP);
  const html = await response.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'every script is a file');
  assert.doesNotMatch(html, /<style|\sstyle=/, 'every style is in a file');
  assert.match(html, /<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js">/, 'a Vite production build');
});

test('by similarity (the default): the groups of dedup\'s defaults, each member\'s similarity; the slider regroups live', async () => {
  const demo = await openDemo();
  const { page } = demo;
  assert.equal(await page.isChecked('#by-similarity'), true);
  assert.equal(await page.isVisible('#max-distance'), false, 'the distance slider is for the fingerprint-only view');
  let before = await runs(page);
  await page.fill('#input', LIST.join('\n'));
  assert.equal(await settled(page, before), 'done');
  const atDefault = await expected(LIST, DEFAULT_VIEW);
  assert.deepEqual(await stats(page), atDefault.stats);
  const groups = await shownGroups(page);
  assert.deepEqual(groups.map((g) => g.map((m) => m.item)), atDefault.groups);
  assert.ok(atDefault.groups.length >= 3, 'the list has near-duplicates at 0.8');
  for (const [kept, ...members] of groups) {
    assert.equal(kept.badge, 'kept');
    for (const m of members) assert.equal(m.badge, `${Math.round(sh.similarity(LIST[kept.item], LIST[m.item]) * 100)}% similar`);
  }
  assert.match(await page.textContent('#status'), /at similarity ≥ 80%, compared as texts\.$/);
  assert.match(await page.textContent('#code'), /sh\.dedup\(texts, \{\n {2}similarity: 0\.8,\n {2}measure: 'text',\n {2}review: 0\.5,\n\}\);/);
  assert.match(await page.textContent('#histogram'), /candidate radius 16/);

  // Keyboard on the slider: End (100%) keeps only equal shingle sets, Home (60%) finds more.
  const duplicatesAt = {};
  for (const [key, s] of [['End', 1], ['Home', 0.6], ['ArrowRight', 0.65]]) {
    before = await runs(page);
    await page.focus('#similarity');
    await page.keyboard.press(key);
    await settled(page, before);
    assert.equal(Number(await page.inputValue('#similarity')), s);
    assert.equal(await page.textContent('#similarity-value'), `${Math.round(s * 100)}%`);
    const want = await expected(LIST, { similarity: s });
    assert.deepEqual(await stats(page), want.stats, `counts at similarity ${s}`);
    assert.deepEqual((await shownGroups(page)).map((g) => g.map((m) => m.item)), want.groups, `groups at similarity ${s}`);
    assert.match(await page.textContent('#timing'), new RegExp(`Regrouped for similarity ≥ ${Math.round(s * 100)}% in`));
    duplicatesAt[s] = Number(want.stats.duplicates);
  }
  assert.ok(duplicatesAt[1] < Number(atDefault.stats.duplicates) && Number(atDefault.stats.duplicates) < duplicatesAt[0.6],
    `duplicates fall as the similarity rises: ${duplicatesAt[0.6]}, ${atDefault.stats.duplicates}, ${duplicatesAt[1]}`);

  // A histogram bar switches to the fingerprint-only view at that distance.
  before = await runs(page);
  await page.click('#histogram [data-distance="3"] .hit');
  await settled(page, before);
  assert.equal(await page.isChecked('#by-distance'), true);
  assert.equal(await page.inputValue('#max-distance'), '3');
  assert.deepEqual(await stats(page), (await expected(LIST, { maxDistance: 3 })).stats);
  await closeDemo(demo);
});

test('by fingerprint distance: groups and counts; the slider regroups them live', async () => {
  const demo = await openDemo();
  const { page } = demo;
  await page.check('#by-distance');
  assert.equal(await page.isVisible('#similarity'), false);
  let before = await runs(page);
  await page.fill('#input', LIST.join('\n'));
  assert.equal(await settled(page, before), 'done');

  const atDefault = await expected(LIST, { maxDistance: DEFAULT_MAX_DISTANCE });
  assert.deepEqual(await stats(page), atDefault.stats);
  const groups = await shownGroups(page);
  assert.deepEqual(groups.map((g) => g.map((m) => m.item)), atDefault.groups);
  const fps = sh.fingerprintAll(LIST);
  for (const [kept, ...members] of groups) {
    assert.equal(kept.badge, 'kept');
    for (const m of members) assert.equal(m.badge, `distance ${sh.distance(fps[kept.item], fps[m.item])}`);
  }
  // The kept item first, the differences of a member highlighted against it.
  const first = page.locator('#groups .group').first();
  assert.equal(await first.locator('.member.kept .text').textContent(), LIST[0]);
  const edited = first.locator(`.member[data-item="3"] .text`);
  assert.equal(await edited.textContent(), 'Thethe quick brown fox jumps over the lazy dog near the old river bank.');
  assert.deepEqual(await edited.locator('del').allTextContents(), ['The']);
  assert.deepEqual((await edited.locator('ins').allTextContents()).map((s) => s.trim()), ['the', 'old']);
  assert.match(await page.textContent('#timing'), /Analysed in .* on this page/);
  assert.equal(await page.locator('#histogram .bar').count(), 17, 'a bar per distance 0..16');

  // Keyboard on the slider: Home (0) finds fewer near-duplicates, End (12) more.
  const duplicatesAt = {};
  for (const [key, k] of [['Home', 0], ['End', 12]]) {
    before = await runs(page);
    await page.focus('#max-distance');
    await page.keyboard.press(key);
    await settled(page, before);
    assert.equal(await page.inputValue('#max-distance'), String(k));
    assert.equal(await page.textContent('#max-distance-value'), String(k));
    const want = await expected(LIST, { maxDistance: k });
    assert.deepEqual(await stats(page), want.stats, `counts at max distance ${k}`);
    assert.deepEqual((await shownGroups(page)).map((g) => g.map((m) => m.item)), want.groups);
    assert.match(await page.textContent('#timing'), new RegExp(`Regrouped for max distance ${k} in`));
    duplicatesAt[k] = Number(want.stats.duplicates);
  }
  assert.ok(duplicatesAt[0] < Number(atDefault.stats.duplicates) && Number(atDefault.stats.duplicates) < duplicatesAt[12],
    `duplicates grow with the max distance: ${duplicatesAt[0]}, ${atDefault.stats.duplicates}, ${duplicatesAt[12]}`);
  before = await runs(page);
  for (let i = 0; i < 12 - DEFAULT_MAX_DISTANCE; i++) await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => Number(document.body.dataset.runs) > n && document.body.dataset.state === 'done'
    && document.getElementById('max-distance-value').textContent === '9', before);
  assert.deepEqual(await stats(page), atDefault.stats, 'back to where it started');

  // Clicking a histogram bar sets the max distance.
  before = await runs(page);
  await page.click('#histogram [data-distance="3"] .hit');
  await settled(page, before);
  assert.equal(await page.inputValue('#max-distance'), '3');
  assert.deepEqual(await stats(page), (await expected(LIST, { maxDistance: 3 })).stats);
  before = await runs(page);
  await page.click(`#histogram [data-distance="${DEFAULT_MAX_DISTANCE}"] .hit`);
  await settled(page, before);

  // Settings re-fingerprint: case folding off keeps "The"/"the" apart in words mode.
  // One setting at a time: a run of the first can end while the second's is still pending,
  // and waiting on both at once would then read the first's counts.
  before = await runs(page);
  await page.selectOption('#tokenizer', 'words');
  await settled(page, before);
  before = await runs(page);
  await page.uncheck('#case-fold');
  await page.waitForFunction((n) => Number(document.body.dataset.runs) > n && document.body.dataset.state === 'done'
    && document.getElementById('code').textContent.includes('caseFold: false'), before);
  assert.deepEqual(await stats(page), (await expected(LIST, { maxDistance: DEFAULT_MAX_DISTANCE }, { tokenizer: 'words', caseFold: false })).stats);
  assert.match(await page.textContent('#code'), /sh\.dedup\(texts, \{\n {2}maxDistance: 9,\n {2}options: \{ tokenizer: 'words', caseFold: false \},/);
  before = await runs(page);
  await page.uncheck('#strip-punctuation');
  await page.waitForFunction((n) => Number(document.body.dataset.runs) > n && document.body.dataset.state === 'done'
    && document.getElementById('code').textContent.includes('stripPunctuation: false'), before);
  assert.deepEqual(await stats(page), (await expected(LIST, { maxDistance: DEFAULT_MAX_DISTANCE }, { tokenizer: 'words', caseFold: false, stripPunctuation: false })).stats);
  await closeDemo(demo);
});

test('a CSV file: its columns as records, then one column as texts; download the kept records with the header', async () => {
  const demo = await openDemo();
  const { page } = demo;
  const csv = [
    'id,title,body',
    '1,"Printer, 2nd floor","The printer on the second floor is jammed again, please send someone to fix it."',
    '2,Printer,"the printer on the second floor is jammed again; please send someone to fix it!"',
    '3,VPN,"I cannot connect to the VPN from home since this morning, it says the certificate expired."',
    '4,"VPN ""again""","Multi-line',
    'report: I cannot connect to the VPN from home since this morning, it says the certificate expired."',
    '5,Printer,"Where do we order lunch on Friday, and who pays for it this time?"',
    '',
  ].join('\r\n');
  const titles = ['Printer, 2nd floor', 'Printer', 'VPN', 'VPN "again"', 'Printer'];
  const bodies = [
    'The printer on the second floor is jammed again, please send someone to fix it.',
    'the printer on the second floor is jammed again; please send someone to fix it!',
    'I cannot connect to the VPN from home since this morning, it says the certificate expired.',
    'Multi-line\r\nreport: I cannot connect to the VPN from home since this morning, it says the certificate expired.',
    'Where do we order lunch on Friday, and who pays for it this time?',
  ];
  /** Checks only the columns named, each change a run of its own. */
  const compare = async (...names) => {
    for (const box of await page.locator('#fields input').all()) {
      const checked = names.includes(await box.getAttribute('value'));
      if (checked === await box.isChecked()) continue;
      const before = await runs(page);
      await box.setChecked(checked);
      await settled(page, before);
    }
  };
  let before = await runs(page);
  await page.setInputFiles('#file', { name: 'tickets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await settled(page, before);
  assert.equal(await page.isVisible('#fields'), true, 'the columns to compare');
  const boxes = await page.locator('#fields input').evaluateAll((inputs) => inputs.map((box) => [box.value, box.checked]));
  assert.deepEqual(boxes, [['id', true], ['title', true], ['body', true]], 'every column, checked: the rows are records');
  assert.match(await page.textContent('#source'), /tickets\.csv: CSV, 5 records/);
  const asRecords = await sh.dedup(titles.map((title, i) => ({ id: String(i + 1), title, body: bodies[i] })));
  assert.match(await page.textContent('#status'), new RegExp(`^5 records: ${asRecords.unique.length} unique, .*, compared field by field: `));

  await compare('body');
  assert.deepEqual(await stats(page), (await expected(bodies, DEFAULT_VIEW)).stats);

  assert.equal(await page.getAttribute('#measure-help', 'data-measure'), 'text', 'auto compares the bodies as texts');
  await compare('title');
  assert.equal(await page.getAttribute('#measure-help', 'data-measure'), 'short', 'and the titles as short strings, at their default similarity');
  assert.equal(await page.inputValue('#similarity'), '0.6');
  const byTitle = await expected(titles, { similarity: 0.6 }, undefined, 'short');
  assert.deepEqual(await stats(page), byTitle.stats);
  assert.deepEqual((await shownGroups(page)).map((g) => g.map((m) => m.item)), byTitle.groups);
  assert.ok(byTitle.groups.some((g) => g.includes(1) && g.includes(4)), 'the two records titled "Printer" are together');

  await compare('body');
  const byBody = await expected(bodies, DEFAULT_VIEW);
  assert.deepEqual(await stats(page), byBody.stats);
  assert.ok(byBody.groups.length >= 1, 'the test data has near-duplicates');
  assert.match(await page.textContent('#code'), /key: \(record\) => record\.body,/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.equal(download.suggestedFilename(), 'tickets.dedup.csv');
  const dropped = new Set(byBody.groups.flatMap((g) => g.slice(1)));
  const records = csv.trimEnd().split('\r\n');
  const rawRecords = [records[1], records[2], records[3], `${records[4]}\r\n${records[5]}`, records[6]];
  const want = [records[0], ...rawRecords.filter((_, i) => !dropped.has(i))].join('\r\n') + '\r\n';
  assert.equal(readFileSync(await download.path(), 'utf8'), want, 'the header and the kept records, unchanged, CRLF kept');
  await closeDemo(demo);
});

test('a JSON Lines file dropped on the page: one field of two, download the kept lines', async () => {
  const demo = await openDemo();
  const { page } = demo;
  const objects = LIST.map((text, i) => ({ id: i + 1, lang: /\p{Script=Han}/u.test(text) ? 'zh' : 'en', text }));
  const jsonl = objects.map((o) => JSON.stringify(o)).join('\n') + '\n';
  // Dropped on the input panel this time.
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'posts.jsonl', { type: 'application/x-ndjson' }));
    return transfer;
  }, jsonl);
  let before = await runs(page);
  await page.dispatchEvent('#drop-zone', 'dragenter', { dataTransfer });
  assert.equal(await page.getAttribute('#drop-zone', 'class'), 'drop-zone dragging');
  await page.dispatchEvent('#input', 'drop', { dataTransfer });
  await settled(page, before);
  assert.equal(await page.getAttribute('#drop-zone', 'class'), 'drop-zone');
  assert.match(await page.textContent('#source'), /posts\.jsonl: JSON Lines, 11 records/);
  assert.deepEqual(await page.locator('#fields input').evaluateAll((inputs) => inputs.map((box) => box.value)), ['lang', 'text'], 'its string fields');
  before = await runs(page);
  await page.uncheck('#fields input[value="lang"]');
  await settled(page, before);
  const want = await expected(LIST, DEFAULT_VIEW);
  assert.deepEqual(await stats(page), want.stats);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.equal(download.suggestedFilename(), 'posts.dedup.jsonl');
  const dropped = new Set(want.groups.flatMap((g) => g.slice(1)));
  assert.equal(readFileSync(await download.path(), 'utf8'), jsonl.split('\n').filter((line, i) => line && !dropped.has(i)).join('\n') + '\n');
  await closeDemo(demo);
});

test('100,000 lines run in the worker with progress and cancel; the page keeps responding', async () => {
  const demo = await openDemo();
  const { page } = demo;
  const k = 6; // a smaller max distance keeps findPairs short on a busy machine
  await page.check('#by-distance');
  await page.focus('#max-distance');
  for (let i = 0; i < DEFAULT_MAX_DISTANCE - k; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.inputValue('#max-distance'), String(k));
  const lines = generateLines(100_000, 7);
  const want = await expected(lines, { maxDistance: k });

  // The longest gap between timer ticks on the page while the work goes on.
  await page.evaluate(() => {
    window.longestGap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      window.longestGap = Math.max(window.longestGap, now - last);
      last = now;
    }, 20);
  });
  // A file on disk: Chromium reads it itself (a buffer would be decoded by script in the page).
  const file = join(mkdtempSync(join(tmpdir(), 'simhash-demo-')), 'big.txt');
  writeFileSync(file, lines.join('\n'));
  let before = await runs(page);
  await page.setInputFiles('#file', file);
  await page.waitForFunction(() => {
    const progress = document.getElementById('progress');
    return !document.getElementById('progress-box').hidden && progress.hasAttribute('value') && progress.value > 0 && progress.value < 1;
  }, null, { timeout: 30_000, polling: 10 });
  assert.match(await page.textContent('#progress-label'), /^Fingerprinting: [\d,]+ of [\d,]+ distinct texts$/);
  assert.equal(await settled(page, before, 60_000), 'done');
  assert.deepEqual(await stats(page), want.stats);
  assert.match(await page.textContent('#timing'), /in a Web Worker/);
  assert.equal(await page.locator('#groups .group').count(), 50, 'the first 50 groups are shown');
  const gap = await page.evaluate(() => window.longestGap);
  console.log(`100,000 lines: ${await page.textContent('#timing')} Longest pause of the page: ${gap.toFixed(0)} ms`);
  assert.ok(gap < 500, `the page paused for ${gap.toFixed(0)} ms`);

  // The "Find near-duplicates of…" box indexes the 100,000 lines on the page, in slices
  // (in one call the index takes 2-3 s; the bound is the worker's above, for loaded machines).
  const parts = lines[43_210].split(' ');
  parts[1] = 'zzyzx';
  const typed = parts.join(' ');
  const want100k = lookupRows(lines, typed, DEFAULT_VIEW.similarity);
  assert.ok(want100k.some((row) => row.item === 43_210), 'the edited line finds its original');
  await page.evaluate(() => { window.longestGap = 0; });
  await page.fill('#lookup-query', typed);
  const lookup = await lookedUp(page, typed, DEFAULT_VIEW.similarity, lines.length);
  assert.deepEqual(lookup.rows, want100k.slice(0, 20));
  const indexingGap = await page.evaluate(() => window.longestGap);
  console.log(`100,000 lines in the lookup box: ${lookup.status} Longest pause of the page: ${indexingGap.toFixed(0)} ms`);
  assert.ok(indexingGap < 500, `the page paused for ${indexingGap.toFixed(0)} ms while indexing`);
  await page.fill('#lookup-query', '');

  // A new setting starts a new run in the worker; Cancel stops it at once.
  before = await runs(page);
  await page.selectOption('#tokenizer', 'chars');
  await page.waitForSelector('#progress-box:not([hidden])');
  await page.click('#cancel');
  assert.equal(await settled(page, before), 'cancelled');
  assert.match(await page.textContent('#status'), /^Cancelled/);
  assert.equal(await page.textContent('#stat-items'), '–');
  // and "Run again" starts a fresh worker.
  before = await runs(page);
  await page.click('#run');
  assert.equal(await settled(page, before, 60_000), 'done');
  assert.deepEqual(await stats(page), (await expected(lines, { maxDistance: k }, { tokenizer: 'chars' })).stats);
  rmSync(dirname(file), { recursive: true, force: true });
  await closeDemo(demo);
});

/** What Node's TextIndex of `list` at `similarity` answers for `text`, as the box's rows show it. */
function lookupRows(list, text, similarity) {
  const index = sh.createTextIndex({ similarity });
  try {
    index.addAll(list);
    return index.query(text).map(({ id, similarity: s }) => ({ item: id, badge: `${Math.round(s * 100)}% similar`, line: `line ${(id + 1).toLocaleString('en')}` }));
  } finally {
    index.dispose();
  }
}

/** The items of `list` whose similarity with `text` reaches `similarity`, by brute force (every pair, one call). */
function similarItems(list, text, similarity) {
  const pairs = { a: new Uint32Array(list.length), b: Uint32Array.from(list, (_, i) => i + 1) };
  const similarities = sh.similarities([text, ...list], pairs);
  return list.flatMap((_, i) => (similarities[i] >= similarity ? [i] : []));
}

/** Waits until the box shows its answer for `text` at `similarity` in a list of `items`; returns its rows and status. */
async function lookedUp(page, text, similarity, items) {
  await page.waitForFunction(([t, s, n]) => {
    const { dataset } = document.getElementById('lookup-panel');
    return dataset.state === 'done' && dataset.query === t && dataset.similarity === String(s) && dataset.items === String(n);
  }, [text, similarity, items], { timeout: 60_000 });
  return page.evaluate(() => ({
    rows: [...document.querySelectorAll('#lookup-results .member')].map((m) => ({
      item: Number(m.dataset.item), badge: m.querySelector('.badge').textContent, line: m.querySelector('.meta > span:nth-child(2)').textContent,
    })),
    status: document.getElementById('lookup-status').textContent,
  }));
}

test('"Find near-duplicates of…": a planted near-duplicate of a typed text in a loaded list, none for an unrelated text, the similarity followed', async () => {
  const demo = await openDemo();
  const { page } = demo;
  assert.equal(await page.getAttribute('#lookup-status', 'aria-live'), 'polite', 'the results are announced');
  assert.equal(await page.textContent('label[for="lookup-query"]'), 'A text to look up in the list');

  // 3,000 generated lines with two edits of the typed text planted among them.
  const TYPED = 'water the tomatoes on the balcony every morning, before it gets too hot';
  const UNRELATED = 'The telescope array recorded a faint quasar behind the northern cluster.';
  const list = generateLines(3000, 3);
  list[700] = 'Water the tomatoes on the balcony every morning before it gets hot.';
  list[2100] = 'Water all the tomatoes on the balcony each morning before the day gets hot.';
  const at80 = lookupRows(list, TYPED, 0.8);
  const at60 = lookupRows(list, TYPED, 0.6);
  assert.deepEqual(at80.map((r) => r.item).sort((a, b) => a - b), similarItems(list, TYPED, 0.8), 'the index answers as brute force at 80%');
  assert.deepEqual(at60.map((r) => r.item).sort((a, b) => a - b), similarItems(list, TYPED, 0.6), 'and at 60%');
  assert.ok(at80.some((r) => r.item === 700), 'the close edit is found at 80%');
  assert.ok(at60.length > at80.length && at60.some((r) => r.item === 2100), 'the looser edit only at 60%');
  assert.deepEqual(similarItems(list, UNRELATED, 0.6), [], 'the unrelated text has no near-duplicate in the list');

  // Chosen as a file: Playwright's fill of a textarea slows down with its lines (1,000 take seconds).
  let before = await runs(page);
  await page.setInputFiles('#file', { name: 'list.txt', mimeType: 'text/plain', buffer: Buffer.from(`${list.join('\n')}\n`) });
  await settled(page, before);
  await page.locator('#lookup-query').pressSequentially(TYPED, { delay: 5 });
  let shown = await lookedUp(page, TYPED, 0.8, list.length);
  assert.deepEqual(shown.rows, at80, 'the matches at 80%, most similar first');
  assert.match(shown.status, new RegExp(`^${at80.length} near-duplicates? at similarity ≥ 80%, most similar first \\(looked up in [\\d.]+ m?s among 3,000 texts, indexed in [\\d.]+ m?s\\)\\.$`));
  const planted = page.locator('#lookup-results .member[data-item="700"] .text');
  const marked = (op) => diff(TYPED, list[700]).filter((part) => part.op === op).map((part) => part.text);
  assert.deepEqual(await planted.locator('ins').allTextContents(), marked('+'), 'the words not in the typed text are marked');
  assert.deepEqual(await planted.locator('del').allTextContents(), marked('-'), 'and the words only in it');
  assert.ok(marked('+').length > 0 && marked('-').length > 0);

  // The similarity slider: the box follows it.
  await page.focus('#similarity');
  await page.keyboard.press('Home');
  shown = await lookedUp(page, TYPED, 0.6, list.length);
  assert.deepEqual(shown.rows, at60, 'the matches at 60%');

  await page.fill('#lookup-query', UNRELATED);
  shown = await lookedUp(page, UNRELATED, 0.6, list.length);
  assert.deepEqual(shown.rows, []);
  assert.match(shown.status, /^No near-duplicates at similarity ≥ 60% /);

  // A new list: the box looks its text up in it.
  before = await runs(page);
  await page.fill('#input', LIST.join('\n'));
  await settled(page, before);
  await page.fill('#lookup-query', TYPED);
  shown = await lookedUp(page, TYPED, 0.6, LIST.length);
  const inList = lookupRows(LIST, TYPED, 0.6);
  assert.deepEqual(shown.rows, inList);
  assert.deepEqual(inList.map((r) => r.item).sort((a, b) => a - b), [5, 6, 7], 'the list\'s tomato lines');
  await closeDemo(demo);
});

test('the samples, Intl.Segmenter, a narrow screen, labels and focus; screenshots', async () => {
  const demo = await openDemo({ width: 1280, height: 1000 });
  const { page } = demo;
  let before = await runs(page);
  await page.click('#sample-en');
  await settled(page, before);
  assert.match(await page.textContent('#sample-check'), /^Sample check: \d+ of \d+ planted near-duplicates found \(\d+ more listed as possible duplicates\); \d+ unrelated items? merged\.$/);
  const sample = (await page.inputValue('#input')).split('\n');
  const typed = 'keys are always in the last pocket you check because you stopped looking';
  await page.fill('#lookup-query', typed);
  const { rows } = await lookedUp(page, typed, DEFAULT_VIEW.similarity, sample.length);
  assert.deepEqual(rows, lookupRows(sample, typed, DEFAULT_VIEW.similarity));
  assert.ok(rows.length >= 2, 'the sample\'s planted pair answers the box');
  await page.focus('#sample-en');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(OUTPUT, 'demo.png') });

  before = await runs(page);
  await page.click('#sample-zh');
  await settled(page, before);
  const chinese = await stats(page);
  before = await runs(page);
  await page.selectOption('#tokenizer', 'segmenter');
  await settled(page, before);
  assert.equal((await stats(page)).items, chinese.items);
  assert.ok(Number((await stats(page)).duplicates) > 0, 'Intl.Segmenter words find near-duplicates too');
  assert.match(await page.textContent('#code'), /options: \{ tokenizer: 'segmenter' \},/);

  // Every control has a label; keyboard focus is visible.
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((c) => !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim()))
    .map((c) => c.id || c.outerHTML));
  assert.deepEqual(unlabelled, []);
  await page.focus('#sample-zh');
  await page.keyboard.press('Shift+Tab');
  const focused = await page.evaluate(() => ({ id: document.activeElement.id, outline: getComputedStyle(document.activeElement).outlineStyle }));
  assert.deepEqual(focused, { id: 'sample-en', outline: 'solid' });

  // A phone-sized screen: nothing wider than the viewport.
  await page.setViewportSize({ width: 360, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `the page is ${overflow} px wide on a 360 px screen`);
  await page.screenshot({ path: join(OUTPUT, 'demo-narrow.png'), fullPage: false });
  await closeDemo(demo);
});
