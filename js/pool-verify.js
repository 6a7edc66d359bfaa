// dedup's verification across the pool's workers. The pairs of one connected component go
// to one task, so each text is sent, and its shingle set built, once (as on the calling
// thread); components are spread over a few tasks per worker by estimated cost.
import { keptPairs } from './verify.js';

/** Verification tasks per worker (more than one, to balance components of unequal cost). */
const VERIFY_TASKS_PER_WORKER = 4;
/** Estimated cost of comparing one pair, in characters of shingling. */
const VERIFY_PAIR_COST = 64;

/** The pairs whose texts pass verification, checked by `scheduler`'s workers for `job`. */
export async function verifyAcrossWorkers(scheduler, job, pairs, texts, { minJaccard, shingle }) {
  const count = pairs.a.length;
  const total = texts.length;
  job.report('verify', 0, count);
  if (count === 0) return keptPairs(pairs, new Uint8Array(0));
  const pacer = job.pacer();
  // Union-find over the items in pairs (parent -1: not in any pair).
  const parent = new Int32Array(total).fill(-1);
  const involved = [];
  const find = (x) => {
    if (parent[x] < 0) {
      parent[x] = x;
      involved.push(x);
      return x;
    }
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let i = 0; i < count; i++) {
    const ra = find(pairs.a[i]);
    const rb = find(pairs.b[i]);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    if ((i & 1023) === 1023) await pacer.pause();
  }
  // The work of each component, estimated; components are never split (a text in two
  // tasks would be sent and shingled twice), so one giant component (a long chain, common
  // at a large maxDistance) takes about the single-threaded time.
  const cost = new Map(); // root -> estimated work
  for (let i = 0; i < involved.length; i++) {
    const root = find(involved[i]);
    cost.set(root, (cost.get(root) ?? 0) + texts[involved[i]].length);
    if ((i & 1023) === 1023) await pacer.pause();
  }
  for (let i = 0; i < count; i++) {
    const root = find(pairs.a[i]);
    cost.set(root, cost.get(root) + VERIFY_PAIR_COST);
    if ((i & 1023) === 1023) await pacer.pause();
  }
  // Longest processing time first: each component to the least loaded task.
  const roots = [...cost.keys()].sort((x, y) => cost.get(y) - cost.get(x));
  const taskCount = Math.min(roots.length, scheduler.size * VERIFY_TASKS_PER_WORKER);
  const load = new Float64Array(taskCount);
  const taskOf = new Map();
  for (const root of roots) {
    let best = 0;
    for (let t = 1; t < taskCount; t++) if (load[t] < load[best]) best = t;
    load[best] += cost.get(root);
    taskOf.set(root, best);
  }
  // Each task's pairs, in their order.
  const pairTask = new Uint32Array(count);
  const sizes = new Uint32Array(taskCount + 1);
  for (let i = 0; i < count; i++) {
    pairTask[i] = taskOf.get(find(pairs.a[i]));
    sizes[pairTask[i] + 1]++;
    if ((i & 1023) === 1023) await pacer.pause();
  }
  for (let t = 0; t < taskCount; t++) sizes[t + 1] += sizes[t];
  const order = new Uint32Array(count); // pair indices grouped by task
  const fill = sizes.slice(0, taskCount);
  for (let i = 0; i < count; i++) order[fill[pairTask[i]]++] = i;

  const keep = new Uint8Array(count);
  let done = 0;
  const tasks = [];
  const local = new Int32Array(total).fill(-1); // an item's index in its task's texts (one task per item)
  for (let t = 0; t < taskCount; t++) {
    const from = sizes[t];
    const to = sizes[t + 1];
    const localTexts = [];
    const localIndex = (item) => {
      if (local[item] < 0) local[item] = localTexts.push(texts[item]) - 1;
      return local[item];
    };
    const a = new Uint32Array(to - from);
    const b = new Uint32Array(to - from);
    for (let p = from; p < to; p++) {
      a[p - from] = localIndex(pairs.a[order[p]]);
      b[p - from] = localIndex(pairs.b[order[p]]);
      if ((p & 1023) === 1023) await pacer.pause();
    }
    const task = scheduler.task(job, { op: 'verify', texts: localTexts, a, b, minJaccard, shingle }).then((flags) => {
      for (let p = from; p < to; p++) keep[order[p]] = flags[p - from];
      done += to - from;
      job.report('verify', done, count);
    });
    task.catch(() => {}); // handled by Promise.all below, which may be reached only later
    tasks.push(task);
  }
  await job.guard(Promise.all(tasks));
  return keptPairs(pairs, keep);
}
