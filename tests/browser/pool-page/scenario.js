// What the browser pool test runs in a page, with the pool and the single-threaded API
// handed in (imported from the repository's js/ files, or from the installed package in a
// Vite build). Writes a JSON report into #out.

/** Deterministic 32-bit generator (mulberry32) so every run sees the same items. */
function random32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
}

/** count one-line texts of 12-40 words (a tenth in Chinese), a fifth of them edited copies of earlier ones. */
function makeItems(count) {
  const next = random32(5);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words = Array.from({ length: 6000 }, () => {
    let w = '';
    for (let n = 2 + (next() % 8); n > 0; n--) w += letters[next() % 26];
    return w;
  });
  const han = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000)));
  const items = [];
  for (let i = 0; i < count; i++) {
    if (i > 100 && next() % 5 === 0) {
      const parts = items[next() % i].split(' ');
      parts[next() % parts.length] = words[next() % words.length]; // one word replaced
      items.push(parts.join(' '));
    } else if (next() % 10 === 0) {
      let text = '';
      for (let n = 20 + (next() % 30); n > 0; n--) text += han[next() % han.length];
      items.push(text);
    } else {
      const parts = [];
      for (let n = 12 + (next() % 29); n > 0; n--) parts.push(words[next() % words.length]);
      items.push(parts.join(' '));
    }
  }
  return items;
}

function sameArrays(x, y) {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export async function run({ createPool, init, count = 200000 }) {
  const items = makeItems(count);
  const report = { count };
  const pool = await createPool();
  report.size = pool.size;

  // 1. A full dedup while long tasks (> 50 ms on the main thread) are recorded.
  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(Math.round(entry.duration));
  });
  observer.observe({ type: 'longtask', buffered: false });
  const progress = [];
  const started = performance.now();
  const result = await pool.dedup(items, {
    maxDistance: 3,
    onProgress: (p) => progress.push({ ...p, at: performance.now() - started }),
  });
  const elapsed = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100)); // let the observer deliver the last entries
  observer.disconnect();
  report.poolMs = Math.round(elapsed);
  report.longTasks = longTasks;
  report.progressCount = progress.length;
  report.phases = [...new Set(progress.map((p) => p.phase))];
  report.fingerprintReports = progress.filter((p) => p.phase === 'fingerprint' && p.done > 0).length;
  const times = [0, ...progress.map((p) => p.at), elapsed];
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  report.maxProgressGapMs = Math.round(Math.max(...gaps));
  const worst = gaps.indexOf(Math.max(...gaps));
  report.worstGapBetween = [worst > 0 ? progress[worst - 1] : 'start', progress[worst] ?? 'end'];
  report.groups = result.groups.length;

  // 2. The same dedup single-threaded: the same results, bit for bit and in order.
  const sh = await init();
  const reference = await sh.dedup(items, { maxDistance: 3 });
  report.identical = sameArrays(result.fingerprints, reference.fingerprints)
    && sameArrays(result.uniqueIndices, reference.uniqueIndices)
    && sameArrays(result.unique, reference.unique)
    && JSON.stringify(result.groups) === JSON.stringify(reference.groups);

  // 3. Cancellation in the middle of fingerprinting, then the pool is used again.
  const controller = new AbortController();
  let abortedAt = 0;
  const reason = new Error('stop');
  const cancelled = pool.dedup(items, {
    signal: controller.signal,
    onProgress: (p) => {
      if (!abortedAt && p.phase === 'fingerprint' && p.done >= count / 10) {
        abortedAt = performance.now();
        controller.abort(reason);
      }
    },
  });
  try {
    await cancelled;
    report.cancel = 'not rejected';
  } catch (error) {
    report.cancelMs = Math.round((performance.now() - abortedAt) * 10) / 10;
    report.cancel = error === reason ? 'rejected with the reason' : `rejected with ${error}`;
  }
  const again = await pool.dedup(items.slice(0, 5000), { maxDistance: 3 });
  const againReference = await sh.dedup(items.slice(0, 5000), { maxDistance: 3 });
  report.usableAfterCancel = JSON.stringify(again.groups) === JSON.stringify(againReference.groups)
    && sameArrays(again.fingerprints, againReference.fingerprints);

  await pool.terminate();
  report.terminated = await pool.fingerprintAll(['x']).then(() => 'still working', (error) => error.message);
  return report;
}
