// Calls that overlap on one instance (README "Errors and memory"): two dedups of 30,000
// fortunes each run at once (Promise.all) against the same two run one after the other, in
// alternating rounds in one process; prints the medians, their ratio, and the WASM heap
// each way (the peak bytes in use, sampled at every progress report).
// Usage: node tests/bench/overlap.js [rounds=4]
import { init } from '../../js/node.js';
import { makeTexts } from './fortune-texts.js';

const rounds = Number(process.argv[2] ?? 4);
const sh = await init();
const { texts } = makeTexts(60_000);
const lists = [texts.slice(0, 30_000), texts.slice(30_000)];

let peak = 0;
const onProgress = () => {
  peak = Math.max(peak, sh.heapBytesInUse);
};
const ways = {
  'one after the other': async () => {
    for (const list of lists) await sh.dedup(list, { onProgress });
  },
  'at once': () => Promise.all(lists.map((list) => sh.dedup(list, { onProgress }))),
};
await ways['one after the other'](); // warm-up
const times = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
const peaks = {};
for (let round = 0; round < rounds; round++) {
  for (const [way, run] of Object.entries(ways)) {
    peak = 0;
    const start = performance.now();
    await run();
    times[way].push(performance.now() - start);
    peaks[way] = Math.max(peaks[way] ?? 0, peak);
  }
}
const median = (values) => values.slice().sort((a, b) => a - b)[values.length >> 1];
for (const way of Object.keys(ways)) {
  console.log(`${way}: median ${median(times[way]).toFixed(0)} ms of ${rounds} (${times[way].map((t) => t.toFixed(0)).join(', ')}); peak WASM heap in use ${(peaks[way] / 2 ** 20).toFixed(1)} MiB`);
}
console.log(`at once / one after the other: ${(median(times['at once']) / median(times['one after the other'])).toFixed(3)}`);
