// The demo's Web Worker for large inputs: the same Engine as on the page, off the main
// thread. Messages in: { id, type: 'analyze', texts, settings } | { id, type: 'records', records }
// | { id, type: 'group', view } (engine.js: views).
// Messages out: { id, type: 'progress', progress } | { id, type: 'done', result } |
// { id, type: 'error', error: { name, message } }. The page cancels by terminating the worker.
import { init } from 'simhash-wasm';
import { Engine } from './engine.js';

const engine = init().then((sh) => new Engine(sh));

/** At most one progress message per PROGRESS_MS (and every phase change) reaches the page. */
const PROGRESS_MS = 50;

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    const e = await engine;
    let result;
    let lastPost = 0;
    let lastPhase = '';
    const onProgress = (progress) => {
      const now = performance.now();
      if (progress.phase === lastPhase && now - lastPost < PROGRESS_MS && progress.done < progress.total) return;
      lastPost = now;
      lastPhase = progress.phase;
      self.postMessage({ id, type: 'progress', progress });
    };
    if (type === 'analyze') {
      result = await e.analyze(data.texts, data.settings, { onProgress });
    } else if (type === 'records') {
      result = await e.analyzeRecords(data.records, { onProgress });
    } else if (type === 'group') {
      result = await e.group(data.view);
    } else {
      throw new Error(`unknown message type ${type}`);
    }
    const transfer = [result.leader.buffer];
    for (const array of [result.distance, result.similarity, result.histogram]) if (array) transfer.push(array.buffer);
    self.postMessage({ id, type: 'done', result }, transfer);
  } catch (error) {
    self.postMessage({ id, type: 'error', error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
  }
};
