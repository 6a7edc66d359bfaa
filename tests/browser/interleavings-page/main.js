// Served from the repository root: the package's own modules without a bundler, and the
// interleavings of tests/js/interleavings.js; writes a JSON report into #out.
import { init } from '../../../js/index.js';
import { runInterleavings } from '../../js/interleavings.js';

const out = document.getElementById('out');
try {
  const sh = await init();
  await runInterleavings(sh, { seed: 0, count: 1000 }); // warm-up: the module's reusable buffers reach their size
  const runs = [];
  for (const seed of [1, 2, 3]) {
    const before = sh.heapBytesInUse;
    const run = await runInterleavings(sh, { seed, count: 4000 });
    runs.push({ ...run, grown: sh.heapBytesInUse - before });
  }
  out.textContent = JSON.stringify({ runs });
} catch (error) {
  out.textContent = JSON.stringify({ error: String(error?.stack ?? error) });
}
