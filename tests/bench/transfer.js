// `npm run bench:transfer`: what it costs the calling thread to hand the worker pool one chunk
// of texts (2,048 fortunes, English and Chinese), in Node (worker_threads) and in Chromium
// (a Web Worker): posting the strings (structured clone) against encoding them to UTF-8 with
// encodeTexts and transferring the buffers. The pool picks per runtime from these figures
// (js/worker.js, `ENCODE_CHUNKS`). Median and worst of 30 posts after 5 warm-up posts.
//
// Usage: node tests/bench/transfer.js
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import { encodeTexts } from '../../js/core/text.js';
import { loadChinese, loadEnglish } from './quality/corpora.js';
import { launchChromium, serveDirectory } from '../browser/browser.js';

const CHUNK = 2048;
const WARMUP = 5;
const RUNS = 30;
const ROOT = new URL('../..', import.meta.url).pathname;

/** CHUNK records, cycling through the corpus. */
function chunkOf(records) {
  return Array.from({ length: CHUNK }, (_, i) => records[i % records.length]);
}

/** Times each way of posting a chunk to a worker that ignores it; runs in Node and in the page. */
async function measure(chunks, encode, startWorker, { warmup, runs }) {
  const worker = startWorker();
  const ways = {
    strings: (texts) => worker.postMessage({ texts: texts.slice() }),
    encoded: (texts) => {
      const { utf8, bounds } = encode(texts.slice());
      worker.postMessage({ utf8, bounds }, [utf8.buffer, bounds.buffer]);
    },
  };
  const results = {};
  for (const [corpus, texts] of Object.entries(chunks)) {
    for (const [way, post] of Object.entries(ways)) {
      const times = [];
      for (let run = 0; run < warmup + runs; run++) {
        const start = performance.now();
        post(texts);
        if (run >= warmup) times.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 5)); // a task of its own, as in the pool
      }
      times.sort((x, y) => x - y);
      results[`${corpus} ${way}`] = [times[times.length >> 1], times[times.length - 1]];
    }
  }
  worker.terminate();
  return results;
}

const english = loadEnglish().records;
const chinese = loadChinese().records;
const chunks = { english: chunkOf(english), chinese: chunkOf(chinese) };
const chars = Object.fromEntries(Object.entries(chunks).map(([name, texts]) => [name, texts.reduce((n, t) => n + t.length, 0)]));

const node = await measure(chunks, encodeTexts,
  () => new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true }), { warmup: WARMUP, runs: RUNS });

const server = await serveDirectory(ROOT, { csp: "default-src 'self'; worker-src blob:" });
const browser = await launchChromium();
let chromium;
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}package.json`); // any document of the server's origin
  await page.evaluate(`globalThis.measure = ${measure}`); // DevTools evaluation, outside the page's CSP
  chromium = await page.evaluate(async ({ chunks, counts }) => {
    const { encodeTexts } = await import('/js/text.js');
    const url = URL.createObjectURL(new Blob(['onmessage = () => {};'], { type: 'text/javascript' }));
    return globalThis.measure(chunks, encodeTexts, () => new Worker(url), counts);
  }, { chunks, counts: { warmup: WARMUP, runs: RUNS } });
} finally {
  await browser.close();
  await server.close();
}

const ms = (x) => x.toFixed(2).padStart(6);
console.log(`One chunk of ${CHUNK} texts (English ${chars.english} UTF-16 units, Chinese ${chars.chinese}), ms on the calling thread, median / worst of ${RUNS}; load average ${loadavg()[0].toFixed(2)}`);
console.log('runtime   corpus    strings           encoded + transfer   encoded / strings (median)');
for (const [runtime, results] of [['Node', node], ['Chromium', chromium]]) {
  for (const corpus of Object.keys(chunks)) {
    const [strings, encoded] = [results[`${corpus} strings`], results[`${corpus} encoded`]];
    console.log(`${runtime.padEnd(9)} ${corpus.padEnd(9)} ${ms(strings[0])} / ${ms(strings[1])}   ${ms(encoded[0])} / ${ms(encoded[1])}      ${(encoded[0] / strings[0]).toFixed(2)}`);
  }
}
