// The demo's possible duplicates (demo/review.js) in headless Chromium and Firefox ESR, used
// as a person would: a list whose review pairs the package computes in Node, one pair
// merged and one kept apart, the counts and the download following the choices, and the
// "Find near-duplicates of…" box listing review matches apart from duplicates; in Chromium,
// a member taken out of its group and put back, and why a pair at the similarity is listed
// rather than grouped (the leader rule). The pages are driven through evaluate() alone,
// which playwright-core's and puppeteer-core's pages share; the download is read from the
// Blob the page makes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { FIREFOX, launchChromium, launchFirefox, startDemoServer, watchProblems } from './browser.js';
import { init } from '../../js/node.js';

const LIST = [
  'How do I reset my password?',
  'The printer on the second floor is jammed again, please send someone.',
  'How can I reset my password?',
  'Where do we order lunch on Friday, and who pays this time?',
  '这家餐厅的菜很好吃，服务也很周到，下次还会再来。',
  '这家餐厅的菜非常好吃，服务也很周到，下次还会再来！',
  'The printer on the second floor is jammed again; please send someone!',
];
const REVIEW = 0.5; // demo/engine.js REVIEW_OF.text

// A chain for the leader rule at the page's default similarity, 0.8: B is a near-duplicate of
// A, C of B but not of A, so C is not grouped although 0.85 similar to B; the last item is a
// copy of B.
const A = 'The quarterly report shows that revenue grew in every region except the north, where sales fell slightly.';
const B = 'The quarterly report shows that revenue grew in every region except the west, where sales fell slightly.';
const C = 'The quarterly report shows that profit grew in every region except the west, where sales fell slightly.';
const CHAIN = [A, 'Where do we order lunch on Friday, and who pays this time?', B, C, B];

const BROWSERS = [
  { name: 'Chromium', launch: launchChromium, missing: null },
  { name: 'Firefox ESR', launch: launchFirefox, missing: existsSync(FIREFOX) ? null : `${FIREFOX} is not installed (bash .ci/firefox.sh installs it)` },
];

let server;
/** What the package says in Node: dedup's groups and review pairs of LIST at the page's defaults. */
let reference;

/** The same of CHAIN, with the similarities of its three texts. */
let chain;

before(async () => {
  const sh = await init();
  const { groups, review } = await sh.dedup(LIST, { measure: 'text', review: REVIEW }); // the demo's measure
  const index = sh.createTextIndex({ review: REVIEW });
  index.addAll(LIST);
  reference = { groups, review, lookup: index.query('How can I reset my password') };
  index.dispose();
  const similarity = (x, y) => sh.similarity(x, y, { measure: 'text' });
  chain = { ...await sh.dedup(CHAIN, { measure: 'text', review: REVIEW }), ab: similarity(A, B), bc: similarity(B, C), ac: similarity(A, C) };
  server = await startDemoServer();
});

after(() => server?.close());

/** Polls fn in the page until it returns a truthy value; an Error after `timeout` ms. */
async function until(page, fn, arg, what, timeout = 30_000) {
  const deadline = performance.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs action in the page and waits for the render it causes (body[data-runs] past the count before). */
async function rendered(page, action, arg) {
  const runs = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await page.evaluate(action, arg);
  await until(page, (n) => Number(document.body.dataset.runs) > n && document.body.dataset.state === 'done', runs, 'a render');
}

const shown = (page) => page.evaluate(() => ({
  unique: document.getElementById('stat-unique').textContent,
  groupCount: document.getElementById('stat-groups').textContent,
  status: document.getElementById('status').textContent,
  groups: [...document.querySelectorAll('#groups .group')].map((group) => [...group.querySelectorAll('.member')].map((m) => Number(m.dataset.item))),
  pairs: [...document.querySelectorAll('#review .review-pair')].map((li) => ({
    a: Number(li.dataset.a), b: Number(li.dataset.b), choice: li.dataset.choice, badge: li.querySelectorAll('.badge')[1].textContent,
    ...(li.dataset.by && { by: li.dataset.by }),
    note: li.querySelector('.differs, .apart, .taken-out')?.textContent ?? null,
  })),
}));

/** Opens the demo with the download's Blobs kept in window.downloads, compares as texts and loads `list`. */
async function openWith(browser, list) {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  await page.goto(server.url);
  await until(page, () => document.body.dataset.ready === 'true', null, 'the page');
  // The download's Blob, kept; the link's click (a file dialog) not followed.
  await page.evaluate(() => {
    window.downloads = [];
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob) => {
      window.downloads.push(blob);
      return create.call(URL, blob);
    };
    HTMLAnchorElement.prototype.click = function noDownload() {};
  });
  // The lists' texts are short enough for 'auto' to compare them as short strings: these tests are of the text measure.
  await page.evaluate(() => {
    const measure = document.getElementById('measure');
    measure.value = 'text';
    measure.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await rendered(page, (texts) => {
    const input = document.getElementById('input');
    input.value = texts.join('\n');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, list);
  return { page, problems };
}

/** The page's download, as text. */
async function downloaded(page) {
  const count = await page.evaluate(() => window.downloads.length);
  await page.evaluate(() => document.getElementById('download').click());
  return until(page, (n) => window.downloads.length > n && window.downloads.at(-1).text(), count, 'the download');
}

for (const { name, launch, missing } of BROWSERS) {
  test(`${name}: possible duplicates listed; one merged, one kept apart; the counts, the download and the lookup box follow`, { skip: missing ?? false, timeout: 180_000 }, async () => {
    assert.ok(reference.review.length >= 2, 'the list has two review pairs');
    const browser = await launch();
    try {
      const { page, problems } = await openWith(browser, LIST);

      const uniqueAtDefault = LIST.length - reference.groups.reduce((sum, g) => sum + g.length - 1, 0);
      let page1 = await shown(page);
      assert.equal(page1.unique, String(uniqueAtDefault));
      assert.deepEqual(page1.pairs.map(({ a, b, choice }) => ({ a, b, choice })), reference.review.map(({ a, b }) => ({ a, b, choice: 'none' })),
        'the review pairs of dedup, most similar first');
      assert.deepEqual(page1.pairs.map((p) => p.badge), reference.review.map((p) => `${Math.round(p.similarity * 100)}% similar`));
      assert.deepEqual(page1.pairs.map((p) => p.note), reference.review.map(() => null), 'each below the similarity: nothing to explain');

      const [merged, kept] = reference.review;
      const choose = ({ a, b, choice }) => document.querySelector(`#review .review-pair[data-a="${a}"][data-b="${b}"] [data-choose="${choice}"]`).click();
      await rendered(page, choose, { ...merged, choice: 'merge' });
      await rendered(page, choose, { ...kept, choice: 'keep' });
      page1 = await shown(page);
      assert.equal(page1.unique, String(uniqueAtDefault - 1), 'one group fewer');
      assert.match(page1.status, /\(1 group merged by you\)\.$/);
      assert.deepEqual(page1.pairs.slice(0, 2).map((p) => p.choice), ['merge', 'keep']);

      // The download: every item but the later group of the merged pair and the groups' other members.
      const download = await downloaded(page);
      const dropped = new Set(reference.groups.flatMap((g) => g.slice(1)));
      const leaderOf = (item) => reference.groups.find((g) => g.includes(item))?.[0] ?? item;
      const later = Math.max(leaderOf(merged.a), leaderOf(merged.b));
      LIST.forEach((_, i) => { if (leaderOf(i) === later) dropped.add(i); });
      assert.equal(download, LIST.filter((_, i) => !dropped.has(i)).map((line) => `${line}\n`).join(''));

      // The lookup box: duplicates apart from possible duplicates.
      await page.evaluate(() => {
        const box = document.getElementById('lookup-query');
        box.value = 'How can I reset my password';
        box.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await until(page, () => document.getElementById('lookup-panel').dataset.state === 'done', null, 'the lookup');
      const lookup = await page.evaluate(() => ({
        duplicates: [...document.querySelectorAll('#lookup-results .member')].map((m) => Number(m.dataset.item)),
        review: [...document.querySelectorAll('#lookup-review .member')].map((m) => Number(m.dataset.item)),
        reviewHeading: !document.getElementById('lookup-review-heading').hidden,
      }));
      assert.deepEqual(lookup, {
        duplicates: reference.lookup.filter((m) => m.kind === 'duplicate').map((m) => m.id),
        review: reference.lookup.filter((m) => m.kind === 'review').map((m) => m.id),
        reviewHeading: true,
      });
      assert.ok(lookup.review.includes(0), '"How do I reset my password?" is a possible duplicate');
      assert.deepEqual(problems, [], 'no errors in the page');
    } finally {
      await browser.close();
    }
  });
}

test('Chromium: a pair at the similarity says why the leader rule did not group it; a member taken out is kept, listed with its kept item, and put back', { timeout: 120_000 }, async () => {
  // The chain as dedup groups it in Node: A with B and B's copy; C listed with B at 0.85, not grouped.
  assert.ok(chain.ab >= 0.8 && chain.bc >= 0.8 && chain.ac < 0.8, `A~B ${chain.ab}, B~C ${chain.bc}, A~C ${chain.ac}`);
  assert.deepEqual(chain.groups, [[0, 2, 4]]);
  assert.deepEqual(chain.review, [{ a: 2, b: 3, similarity: chain.bc }]);
  const percent = (s) => `${Math.round(s * 100)}%`;
  const keptQuote = `“${A.slice(0, 49).trimEnd()}…”`; // demo/wording.js quote: 50 characters at most
  const browser = await launchChromium();
  try {
    const { page, problems } = await openWith(browser, CHAIN);
    let now = await shown(page);
    assert.deepEqual(now.groups, [[0, 2, 4]]);
    assert.equal(now.unique, '3');
    assert.deepEqual(now.pairs, [{
      a: 2, b: 3, choice: 'none', badge: `${percent(chain.bc)} similar`,
      note: `Listed, not grouped: line 4 is similar to line 3 but not to line 3's kept item, line 1 ${keptQuote} (${percent(chain.ac)}, below 80%).`,
    }]);

    // B out of A's group: B is kept, with its copy as its member; A stands alone.
    assert.equal(await page.evaluate(() => document.querySelectorAll('#groups [data-take-out]').length), 2, 'a button on each member');
    await rendered(page, () => document.querySelector('#groups .member[data-item="2"] [data-take-out]').click());
    now = await shown(page);
    assert.deepEqual(now.groups, [[2, 4]]);
    assert.deepEqual([now.unique, now.groupCount], ['4', '1']);
    assert.match(now.status, /: 4 unique, 1 near-duplicate in 1 group at similarity ≥ 80%, compared as texts \(2 items taken out by you\)\.$/);
    const copy = await page.evaluate(() => document.querySelector('#groups .member[data-item="4"]').textContent);
    assert.match(copy, /^100% similar.*\(identical text\)$/, 'the copy is its member, identical');
    assert.equal(await page.evaluate(() => document.querySelectorAll('#groups [data-take-out]').length), 0,
      'no button on a member the person\'s choice put there: it is undone where it was made');
    assert.deepEqual(now.pairs[0], {
      a: 0, b: 2, choice: 'keep', by: 'you', badge: `${percent(chain.ab)} similar`,
      note: 'You took the second out of the group of the first: it is kept on its own. Merge puts it back.',
    }, 'listed first, kept apart by the person');
    assert.deepEqual(now.pairs.slice(1).map(({ a, b }) => [a, b]), [[2, 3]]);
    assert.equal(await downloaded(page), CHAIN.slice(0, 4).map((line) => `${line}\n`).join(''), 'A, B and C kept');

    // Merge puts B back, with its copy; the pair stays listed.
    await rendered(page, () => document.querySelector('#review .review-pair[data-a="0"][data-b="2"] [data-choose="merge"]').click());
    now = await shown(page);
    assert.deepEqual(now.groups, [[0, 2, 4]]);
    assert.equal(now.unique, '3');
    assert.doesNotMatch(now.status, /by you/);
    assert.deepEqual(now.pairs[0], {
      a: 0, b: 2, choice: 'merge', by: 'you', badge: `${percent(chain.ab)} similar`,
      note: 'You took the second out of the group of the first, then put it back.',
    });
    assert.equal(await downloaded(page), [A, CHAIN[1], C].map((line) => `${line}\n`).join(''));

    // Taken out again and put back by pressing Keep apart again (undecided: dedup's grouping).
    await rendered(page, () => document.querySelector('#groups .member[data-item="2"] [data-take-out]').click());
    assert.equal((await shown(page)).unique, '4');
    await rendered(page, () => document.querySelector('#review .review-pair[data-a="0"][data-b="2"] [data-choose="keep"]').click());
    now = await shown(page);
    assert.deepEqual([now.groups, now.unique, now.pairs[0].choice], [[[0, 2, 4]], '3', 'none']);
    assert.deepEqual(problems, [], 'no errors in the page');
  } finally {
    await browser.close();
  }
});
