// The demo's "Names" sample and its "Compare as" setting in headless Chromium: the short
// measure chosen by 'auto', the page's groups, similarities and possible duplicates against
// sh.dedup of the same list in Node, the sample check, the words a member changes or moves
// marked, the lookup box by the same measure and weights, a switch to the text measure, and
// a list of names large enough for the worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, openDemo, startDemoServer } from './browser.js';
import { candidateRadius, init } from '../../js/node.js';
import { NAMES_DIFFERENT, NAMES_PLANTED, NAMES_SAMPLE } from '../../js/cli/names-sample.js';
import { REVIEW_OF } from '../../demo/engine.js';

let sh;
let server;
let browser;
/** sh.dedup of the Names sample by the short measure at its default similarity, with the demo's review. */
let reference;

before(async () => {
  sh = await init();
  reference = await sh.dedup(NAMES_SAMPLE, { measure: 'short', review: REVIEW_OF.short });
  server = await startDemoServer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Runs action, then waits until the page has rendered once more and is not busy. */
async function rendered(page, action) {
  const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs) > n && document.body.dataset.state === 'done', runs, { timeout: 60_000 });
}

/** The page's groups: item indices, kept item first, with each member's badge and its title. */
const shownGroups = (page) => page.evaluate(() => [...document.querySelectorAll('#groups .group')].map((group) => [...group.querySelectorAll('.member')].map((m) => ({
  item: Number(m.dataset.item), badge: m.querySelector('.badge').textContent, title: m.querySelector('.badge').title,
}))));

const unique = (page) => page.textContent('#stat-unique');

/** Each group member's similarity to its kept item, as the badge's title gives it, by `options`. */
function memberTitles(texts, groups, options) {
  const pairs = { a: [], b: [] };
  for (const [kept, ...members] of groups) for (const m of members) pairs.a.push(kept), pairs.b.push(m);
  const similarities = sh.similarities(texts, { a: Uint32Array.from(pairs.a), b: Uint32Array.from(pairs.b) }, options);
  let p = 0;
  return groups.map(([kept, ...members]) => [{ item: kept, title: '' }, ...members.map((item) => ({ item, title: `similarity ${similarities[p++].toFixed(4)}` }))]);
}

/** The sample check the page should show for `result` (a dedup result of the Names sample). */
function sampleCheck({ groups, review }) {
  const leader = NAMES_SAMPLE.map((_, i) => i);
  for (const [kept, ...members] of groups) for (const m of members) leader[m] = kept;
  const together = ([a, b]) => leader[a] === leader[b];
  const joined = new Set(review.map(({ a, b }) => [leader[a], leader[b]].sort((x, y) => x - y).join()));
  const found = NAMES_PLANTED.filter(together).length;
  const listed = NAMES_PLANTED.filter(([a, b]) => !together([a, b]) && joined.has([leader[a], leader[b]].sort((x, y) => x - y).join())).length;
  const original = new Map(NAMES_PLANTED.map(([a, b]) => [b, a]));
  const root = (i) => original.get(i) ?? i;
  const wrong = leader.filter((l, i) => l !== i && root(l) !== root(i)).length;
  const grouped = NAMES_DIFFERENT.filter(together);
  return { found, listed, wrong, grouped };
}

test('the Names sample: auto compares it as names; the groups, similarities and possible duplicates of sh.dedup; the sample check; changed and moved words marked; the lookup box; then as texts', { timeout: 120_000 }, async () => {
  const { page, problems } = await openDemo(browser, server.url);
  await rendered(page, () => page.click('#sample-names'));
  assert.equal(await page.inputValue('#input'), NAMES_SAMPLE.join('\n'));

  // The setting: auto, which takes the short measure for this list, as dedup's 'auto' does.
  assert.equal(reference.measure, 'short', 'dedup\'s auto takes the short measure for the sample');
  assert.equal(await page.inputValue('#measure'), 'auto');
  assert.equal(await page.textContent('#measure option[value="auto"]'), 'auto (names and short lists)');
  assert.equal(await page.getAttribute('#measure-help', 'data-measure'), 'short');
  assert.equal(await page.inputValue('#similarity'), String(reference.similarity), 'the slider at the measure\'s default, 0.6');
  assert.equal(await page.isDisabled('#by-distance'), true, 'no fingerprint distance by the short measure');
  assert.equal(await page.isVisible('#by-help'), true);
  assert.equal(await page.isDisabled('#tokenizer'), true, 'nor fingerprint options');
  assert.equal(await page.isVisible('#histogram'), false, 'nor histogram');
  assert.match(await page.textContent('#histogram-note'), /^No fingerprint histogram for names and short lists/);

  // The groups and each member's similarity to its kept item, as dedup and sh.similarities give them in Node.
  const groups = await shownGroups(page);
  assert.deepEqual(groups.map((g) => g.map((m) => m.item)), reference.groups);
  assert.deepEqual(groups.map((g) => g.map(({ item, title }) => ({ item, title }))),
    memberTitles(NAMES_SAMPLE, reference.groups, { measure: 'short', weights: reference.weights }));
  assert.equal(await unique(page), String(reference.unique.length));
  assert.match(await page.textContent('#status'), /at similarity ≥ 60%, compared as names and short lists\.$/);
  assert.match(await page.textContent('#code'), /sh\.dedup\(texts, \{\n {2}similarity: 0\.6,\n {2}measure: 'short',\n {2}review: 0\.4,\n\}\);/);

  // The possible duplicates: dedup's review pairs.
  const review = await page.evaluate(() => [...document.querySelectorAll('#review .review-pair')].map((li) => ({
    a: Number(li.dataset.a), b: Number(li.dataset.b), badge: li.querySelectorAll('.badge')[1].textContent,
    differs: li.querySelector('.differs')?.textContent ?? null,
    contained: li.querySelector('.contained')?.textContent ?? null,
  })));
  assert.ok(reference.review.length > 0);
  // A look-alike kept apart says what differs (README "Look-alikes").
  // A lone word's side holds none (`Mitchell` / `Mitchell Green`).
  const sides = ([first, other]) => `${first.join(' ') || '(none)'} / ${other.join(' ') || '(none)'}`;
  const differsText = (d) => d && `Kept apart: ${[d.numbers && `numbers ${sides(d.numbers)}`, d.words && `words ${sides(d.words)}`].filter(Boolean).join('; ')} differ.`;
  assert.ok(reference.review.some((entry) => entry.differs?.numbers), 'the sample\'s look-alikes are listed with their numbers');
  assert.ok(reference.review.some((entry) => entry.differs?.words?.some((side) => side.length === 0)), 'and a lone word beside more');
  assert.deepEqual(review, reference.review.map(({ a, b, similarity, differs, contained }) => ({
    a, b, badge: `${Math.round(similarity * 100)}% similar`, differs: differsText(differs) ?? null,
    contained: contained ? 'Listed: one holds every word of the other, or spells out its acronym.' : null,
  })));

  // The sample check counts what dedup's result says.
  const check = sampleCheck(reference);
  const negatives = check.grouped.length
    ? ` \\(${check.grouped.map(([a, b]) => `“${NAMES_SAMPLE[a]}” with “${NAMES_SAMPLE[b]}”`.replace(/[.()]/g, '\\$&')).join(', ')}\\)`
    : '';
  assert.match(await page.textContent('#sample-check'), new RegExp(`^Sample check: ${check.found} of ${NAMES_PLANTED.length} planted near-duplicates found \\(${check.listed} more listed as possible duplicates\\); ${check.wrong} unrelated items? merged; ${check.grouped.length} of ${NAMES_DIFFERENT.length} look-alikes of different entities grouped${negatives}\\.$`));
  console.log(`Names sample at the defaults: ${await page.textContent('#sample-check')}`);

  // A typo is a changed word; reordered words are moved words.
  const member = (text) => page.locator(`#groups .member[data-item="${NAMES_SAMPLE.indexOf(text)}"] .text`);
  const typo = member('Kestrel Dyanmics Ltd');
  assert.deepEqual(await typo.locator('ins').allTextContents(), ['Dyanmics']);
  assert.deepEqual(await typo.locator('del').allTextContents(), ['Dynamics']);
  assert.equal(await typo.locator('.moved').count(), 0);
  const reordered = member('Smith, John');
  assert.equal(await reordered.textContent(), 'John Smith, John', 'the kept item\'s words and the member\'s, in order');
  assert.deepEqual((await reordered.locator('del.moved').allTextContents()).map((s) => s.trim()), ['John']);
  assert.deepEqual((await reordered.locator('ins.moved').allTextContents()).map((s) => s.trim()), ['John']);
  const accents = member('Jose Garcia');
  assert.deepEqual(await accents.locator('ins').allTextContents(), ['Jose', 'Garcia']);

  // The slider regroups by the same measure and weights.
  await rendered(page, async () => {
    await page.focus('#similarity');
    await page.keyboard.press('ArrowRight');
  });
  assert.equal(await page.inputValue('#similarity'), '0.65');
  const at65 = await sh.dedup(NAMES_SAMPLE, { measure: 'short', similarity: 0.65 });
  assert.deepEqual((await shownGroups(page)).map((g) => g.map((m) => m.item)), at65.groups);

  // The lookup box: a text index of the list by the short measure, with the list's weights.
  const typed = 'Smith Jon';
  await page.fill('#lookup-query', typed);
  await page.waitForFunction((t) => {
    const { dataset } = document.getElementById('lookup-panel');
    return dataset.state === 'done' && dataset.query === t && dataset.similarity === '0.65' && dataset.measure === 'short';
  }, typed, { timeout: 30_000 });
  const index = sh.createTextIndex({ similarity: 0.65, review: REVIEW_OF.short, measure: 'short', weights: sh.learnWeights([...new Set(NAMES_SAMPLE)]) });
  index.addAll(NAMES_SAMPLE);
  const matches = index.query(typed);
  index.dispose();
  const shownMatches = await page.evaluate(() => ['lookup-results', 'lookup-review'].map((id) => [...document.querySelectorAll(`#${id} .member`)].map((m) => ({
    id: Number(m.dataset.item), badge: m.querySelector('.badge').textContent,
  }))));
  const rows = (kind) => matches.filter((m) => m.kind === kind).map(({ id, similarity }) => ({ id, badge: `${Math.round(similarity * 100)}% similar` }));
  assert.deepEqual(shownMatches, [rows('duplicate'), rows('review')]);
  assert.ok(rows('duplicate').some((m) => NAMES_SAMPLE[m.id] === 'John Smith'), 'a misspelt, reordered name finds John Smith');
  await page.fill('#lookup-query', '');

  // Compared as texts: the text measure's slider, fingerprint distance and histogram; the
  // groups of its fingerprint candidates within the candidate radius (dedup's own bands
  // find two more pairs of this list; the page's text view takes the radius's candidates).
  await rendered(page, () => page.selectOption('#measure', 'text'));
  assert.equal(await page.inputValue('#similarity'), '0.8');
  assert.equal(await page.isDisabled('#by-distance'), false);
  assert.equal(await page.isVisible('#histogram'), true);
  assert.equal(await page.getAttribute('#measure-help', 'data-measure'), 'text');
  const asTexts = await sh.dedup(NAMES_SAMPLE, { measure: 'text', similarity: 0.8, maxDistance: candidateRadius(0.8) });
  const textGroups = await shownGroups(page);
  assert.deepEqual(textGroups.map((g) => g.map((m) => m.item)), asTexts.groups);
  assert.deepEqual(textGroups.map((g) => g.map(({ item, title }) => ({ item, title: title.replace(/, fingerprint distance \d+$/, '') }))),
    memberTitles(NAMES_SAMPLE, asTexts.groups, { measure: 'text' }));
  assert.ok(asTexts.groups.length < reference.groups.length, `fewer groups as texts (${asTexts.groups.length}) than as names (${reference.groups.length})`);
  assert.match(await page.textContent('#code'), /similarity: 0\.8,\n {2}measure: 'text',\n {2}review: 0\.5,/);

  // Back to auto: as names again, at the similarity chosen for them.
  await rendered(page, () => page.selectOption('#measure', 'auto'));
  assert.equal(await page.inputValue('#similarity'), '0.65');
  assert.deepEqual((await shownGroups(page)).map((g) => g.map((m) => m.item)), at65.groups);
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.close();
});

test('the look-alikes of different entities in the Names sample stay apart at dedup\'s defaults', () => {
  const grouped = sampleCheck(reference).grouped.map(([a, b]) => `${NAMES_SAMPLE[a]} / ${NAMES_SAMPLE[b]}`);
  assert.deepEqual(grouped, []);
});

/**
 * `count` made-up names, "First Last": 50 first names, surnames of three syllables drawn by a
 * seeded generator; every 40th name is followed by a copy with two letters of its surname swapped.
 */
function manyNames(count) {
  const FIRST = ['Ada', 'Bram', 'Cleo', 'Dario', 'Elin', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kaia', 'Luca', 'Mira', 'Nils', 'Oona', 'Pavel', 'Quinn', 'Rosa', 'Soren', 'Tamsin',
    'Ugo', 'Vera', 'Wim', 'Xenia', 'Yann', 'Zora', 'Amos', 'Bettina', 'Caspar', 'Dagny', 'Emil', 'Freya', 'Gideon', 'Hanne', 'Ivo', 'Jolie', 'Kasper', 'Linnea', 'Matias', 'Nora',
    'Otto', 'Petra', 'Rafael', 'Saskia', 'Tobias', 'Ulla', 'Viggo', 'Wanda', 'Yusuf', 'Zeno'];
  const SYLLABLES = ['ber', 'cal', 'dor', 'fen', 'gar', 'hol', 'kin', 'lam', 'mor', 'nes', 'pil', 'rov', 'sel', 'tam', 'vik',
    'bra', 'cze', 'dun', 'fal', 'gri', 'jas', 'kol', 'lun', 'mek', 'nov', 'pra', 'ros', 'sto', 'tre', 'wal'];
  let state = 12345;
  const random = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const names = [];
  for (let i = 0; names.length < count; i++) {
    const last = Array.from({ length: 3 }, () => SYLLABLES[random(SYLLABLES.length)]).join('');
    const surname = `${last[0].toUpperCase()}${last.slice(1)}`;
    names.push(`${FIRST[random(FIRST.length)]} ${surname}`);
    if (i % 40 === 39 && names.length < count) names.push(`${names.at(-1).split(' ')[0]} ${surname.slice(0, 3)}${surname[4]}${surname[3]}${surname.slice(5)}`);
  }
  return names;
}

test('6,000 names run in the worker by the short measure, as sh.dedup groups them', { timeout: 120_000 }, async () => {
  const names = manyNames(6000);
  const want = await sh.dedup(names, { measure: 'short' });
  assert.equal(want.measure, 'short');
  assert.ok(want.groups.length > 100);
  const { page, problems } = await openDemo(browser, server.url);
  await rendered(page, () => page.setInputFiles('#file', { name: 'names.txt', mimeType: 'text/plain', buffer: Buffer.from(`${names.join('\n')}\n`) }));
  assert.match(await page.textContent('#timing'), /in a Web Worker/);
  assert.equal(await unique(page), want.unique.length.toLocaleString('en'));
  const shown = want.groups.slice(0, 50).map((g) => g.slice(0, 20)); // render.js: 50 groups a page, 20 members a group
  const groups = await shownGroups(page);
  assert.deepEqual(groups.map((g) => g.map((m) => m.item)), shown);
  assert.deepEqual(groups.map((g) => g.map(({ item, title }) => ({ item, title }))),
    memberTitles(names, shown, { measure: 'short', weights: want.weights }));
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.close();
});
