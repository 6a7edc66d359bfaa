// The demo's possible duplicates (demo/review.js) in headless Chromium and Firefox ESR, used
// as a person would: a list whose review pairs the package computes in Node, one pair
// merged and one kept apart, the counts and the download following the choices, and the
// "Find near-duplicates of…" box listing review matches apart from duplicates. The pages
// are driven through evaluate() alone, which playwright-core's and puppeteer-core's pages
// share; the download is read from the Blob the page makes.
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

const BROWSERS = [
  { name: 'Chromium', launch: launchChromium, missing: null },
  { name: 'Firefox ESR', launch: launchFirefox, missing: existsSync(FIREFOX) ? null : `${FIREFOX} is not installed (bash .ci/firefox.sh installs it)` },
];

let server;
/** What the package says in Node: dedup's groups and review pairs of LIST at the page's defaults. */
let reference;

before(async () => {
  const sh = await init();
  const { groups, review } = await sh.dedup(LIST, { measure: 'text', review: REVIEW }); // the demo's measure
  const index = sh.createTextIndex({ review: REVIEW });
  index.addAll(LIST);
  reference = { groups, review, lookup: index.query('How can I reset my password') };
  index.dispose();
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
  status: document.getElementById('status').textContent,
  pairs: [...document.querySelectorAll('#review .review-pair')].map((li) => ({
    a: Number(li.dataset.a), b: Number(li.dataset.b), choice: li.dataset.choice, badge: li.querySelectorAll('.badge')[1].textContent,
  })),
}));

for (const { name, launch, missing } of BROWSERS) {
  test(`${name}: possible duplicates listed; one merged, one kept apart; the counts, the download and the lookup box follow`, { skip: missing ?? false, timeout: 180_000 }, async () => {
    assert.ok(reference.review.length >= 2, 'the list has two review pairs');
    const browser = await launch();
    try {
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
      // The list's texts are short enough for 'auto' to compare them as short strings: this test is of the text measure.
      await page.evaluate(() => {
        const measure = document.getElementById('measure');
        measure.value = 'text';
        measure.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await rendered(page, (list) => {
        const input = document.getElementById('input');
        input.value = list.join('\n');
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, LIST);

      const uniqueAtDefault = LIST.length - reference.groups.reduce((sum, g) => sum + g.length - 1, 0);
      let page1 = await shown(page);
      assert.equal(page1.unique, String(uniqueAtDefault));
      assert.deepEqual(page1.pairs.map(({ a, b, choice }) => ({ a, b, choice })), reference.review.map(({ a, b }) => ({ a, b, choice: 'none' })),
        'the review pairs of dedup, most similar first');
      assert.deepEqual(page1.pairs.map((p) => p.badge), reference.review.map((p) => `${Math.round(p.similarity * 100)}% similar`));

      const [merged, kept] = reference.review;
      const choose = ({ a, b, choice }) => document.querySelector(`#review .review-pair[data-a="${a}"][data-b="${b}"] [data-choose="${choice}"]`).click();
      await rendered(page, choose, { ...merged, choice: 'merge' });
      await rendered(page, choose, { ...kept, choice: 'keep' });
      page1 = await shown(page);
      assert.equal(page1.unique, String(uniqueAtDefault - 1), 'one group fewer');
      assert.match(page1.status, /\(1 group merged by you\)\.$/);
      assert.deepEqual(page1.pairs.slice(0, 2).map((p) => p.choice), ['merge', 'keep']);

      // The download: every item but the later group of the merged pair and the groups' other members.
      await page.evaluate(() => document.getElementById('download').click());
      const downloaded = await until(page, () => window.downloads.at(-1)?.text(), null, 'the download');
      const dropped = new Set(reference.groups.flatMap((g) => g.slice(1)));
      const leaderOf = (item) => reference.groups.find((g) => g.includes(item))?.[0] ?? item;
      const later = Math.max(leaderOf(merged.a), leaderOf(merged.b));
      LIST.forEach((_, i) => { if (leaderOf(i) === later) dropped.add(i); });
      assert.equal(downloaded, LIST.filter((_, i) => !dropped.has(i)).map((line) => `${line}\n`).join(''));

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
