// Calls that overlap on one instance in Chromium: the seeded schedules of
// tests/js/interleavings.js (dedups at once, calls from onProgress and beside, aborts) on
// the repository's modules served without a bundler under the strict CSP; every answer
// as the same call gives alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, serveDirectory, watchProblems } from './browser.js';

const ROOT = new URL('../..', import.meta.url).pathname;

test('Chromium: overlapping calls on one instance answer as they do alone', async () => {
  const server = await serveDirectory(ROOT);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}tests/browser/interleavings-page/`);
    await page.waitForFunction(() => document.getElementById('out').textContent !== '', null, { timeout: 120_000 });
    const { runs, error } = JSON.parse(await page.textContent('#out'));
    assert.equal(error, undefined, error);
    assert.equal(runs.length, 3);
    for (const { seed, compared, overlapped, outcomes, grown } of runs) {
      assert.ok(compared > 20 && overlapped > 5, `seed ${seed}: ${compared} answers compared, ${overlapped} reports while another dedup ran`);
      assert.equal(outcomes.length, 4);
      assert.ok(grown < 4096, `seed ${seed}: ${grown} bytes more in use after the run`);
    }
    console.log(`Chromium interleavings: ${JSON.stringify(runs.map(({ seed, compared, overlapped, outcomes }) => ({ seed, compared, overlapped, outcomes })))}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
