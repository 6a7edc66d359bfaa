// `npm run test:browser`: the browser test files, two at a time, except those that time a
// page's main thread while a worker or the pool works (a pause over 75 ms, or over 500 ms in
// the demo, fails them): another file's browser on the second core stretches those pauses
// (to 705 ms in the demo once), so they run afterwards, one at a time. The browsers mostly
// wait on each other and on the page, so two files at once take about 0.75x the time of one
// after another.
//
//   node tests/browser/run.js [node --test options, e.g. --test-name-pattern=...]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TIMES_MAIN_THREAD = new Set(['demo.test.js', 'package.test.js', 'pool.test.js']);

const files = readdirSync(HERE).filter((name) => name.endsWith('.test.js')).sort();
const missing = [...TIMES_MAIN_THREAD].filter((name) => !files.includes(name));
if (missing.length) throw new Error(`tests/browser/run.js names files that do not exist: ${missing.join(', ')}`);

const run = (names, concurrency) => spawnSync(process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, ...process.argv.slice(2), ...names.map((name) => HERE + name)],
  { stdio: 'inherit' }).status;

const together = run(files.filter((name) => !TIMES_MAIN_THREAD.has(name)), 2);
const alone = run(files.filter((name) => TIMES_MAIN_THREAD.has(name)), 1);
process.exitCode = together === 0 && alone === 0 ? 0 : 1;
