// `npm run bench:redis`: the shared text index (simhash-wasm/redis) on loopback against
// Debian's redis-server (started here, on a free port, persistence off: Redis's defaults
// but for the save points), one machine, at the default similarity.
//   - Fill: --stored (200,000) synthetic short lines (fortune-texts.js syntheticCorpus, as
//     bench:text-index stores) through add, --concurrency (64) calls in flight; Redis's
//     used_memory grown against the UTF-8 of the stored texts.
//   - Then 2 processes at once (--processes), each with its own node-redis client: --queries
//     (20,000) queries of the further texts (half edited copies of stored lines, half fresh),
//     then --adds (10,000) addIfNew of other further texts, --in-flight (1) calls at a time; per process
//     the calls per second and the p50 / p99 latency, summed over the processes; and the
//     scripts run per call, from the server's command statistics (one round trip each).
//   - --review=R: an index with review matches from R (layout 3: the review bands' buckets
//     and each text's sketch), its answers counted per kind.
// Prints a table and writes it to tests/bench/results/redis.txt.
// Usage: node tests/bench/redis.js [--stored=N] [--queries=Q] [--adds=A] [--processes=P] [--concurrency=C] [--in-flight=F] [--review=R]
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { createSharedTextIndex } from '../../js/redis.js';
import { startRedis } from '../redis/server.js';
import { makeTexts, syntheticCorpus } from './fortune-texts.js';

const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const STORED = option('stored', 200_000);
const QUERIES = option('queries', 20_000);
const ADDS = option('adds', 10_000);
const PROCESSES = option('processes', 2);
const CONCURRENCY = option('concurrency', 64);
const IN_FLIGHT = option('in-flight', 1);
const REVIEW = args.some((a) => a.startsWith('--review=')) ? option('review') : undefined;
const INIT = REVIEW === undefined ? { name: 'bench' } : { name: 'bench', review: REVIEW };

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
const fmt = (n, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One process's part (run with --part=k): queries, then addIfNew, one at a time. */
async function part(url, k) {
  const { further } = corpus();
  const client = await createClient({ url }).connect();
  const index = await createSharedTextIndex(client, INIT);
  const mine = further.filter((_, i) => i % PROCESSES === k);
  const timed = async (calls, call) => {
    const latencies = new Float64Array(calls.length);
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    let next = 0;
    // IN_FLIGHT callers, each making one call at a time (a server handling concurrent requests).
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < calls.length) {
        const i = next++;
        const t = performance.now();
        await call(calls[i]);
        latencies[i] = performance.now() - t;
      }
    }));
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    latencies.sort();
    return { perSecond: calls.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), cpuMicros: calls.length ? (cpu.user + cpu.system) / calls.length : 0 };
  };
  let reviews = 0;
  const queries = await timed(mine.slice(0, QUERIES), async (text) => {
    for (const match of await index.query(text)) if (match.kind === 'review') reviews++;
  });
  let added = 0;
  const adds = await timed(mine.slice(QUERIES, QUERIES + ADDS), async (text) => {
    const result = await index.addIfNew(text);
    if (result.added) added++;
  });
  await index.close();
  await client.quit();
  process.stdout.write(JSON.stringify({ queries, adds, added, reviews }));
}

function corpus() {
  const { texts, records } = makeTexts(10);
  void texts;
  const all = makeTexts(records).texts;
  return syntheticCorpus(all, STORED, PROCESSES * (QUERIES + ADDS));
}

/** The server's CPU seconds so far (user + system, all its threads). */
async function serverCpu(client) {
  const info = await client.sendCommand(['INFO', 'cpu']);
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]);
}

async function commandCalls(client) {
  const stats = await client.sendCommand(['INFO', 'commandstats']);
  const calls = {};
  for (const [, name, count, usec] of stats.matchAll(/cmdstat_(\w+):calls=(\d+),usec=(\d+)/g)) {
    calls[name] = Number(count);
    calls[`${name}Usec`] = Number(usec);
  }
  return calls;
}

async function main() {
  const server = await startRedis(['--appendonly', 'no']);
  try {
    const client = await createClient({ url: server.url }).connect();
    const index = await createSharedTextIndex(client, INIT);
    const { stored } = corpus();
    const memory = async () => Number(/used_memory:(\d+)/.exec(await client.sendCommand(['INFO', 'memory']))[1]);
    const empty = await memory();
    let start = performance.now();
    for (let i = 0; i < stored.length; i += CONCURRENCY) await Promise.all(stored.slice(i, i + CONCURRENCY).map((text) => index.add(text)));
    const fillSeconds = (performance.now() - start) / 1000;
    const used = (await memory()) - empty;
    const utf8 = stored.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    const before = await commandCalls(client);
    const cpuBefore = await serverCpu(client);
    const self = fileURLToPath(import.meta.url);
    start = performance.now();
    const parts = await Promise.all(Array.from({ length: PROCESSES }, (_, k) => new Promise((resolve, reject) => {
      execFile(process.execPath, [self, ...args, `--part=${k}`, `--url=${server.url}`], { maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      });
    })));
    const after = await commandCalls(client);
    const serverMicros = ((await serverCpu(client)) - cpuBefore) * 1e6;
    const delta = (name) => (after[name] ?? 0) - (before[name] ?? 0);
    const scripts = delta('evalsha') + delta('eval');
    const scriptMicros = (delta('evalshaUsec') + delta('evalUsec')) / scripts;
    const calls = PROCESSES * (QUERIES + ADDS);
    const sum = (pick) => parts.reduce((s, p) => s + pick(p), 0);
    const lines = [
      `shared text index (simhash-wasm/redis), similarity 0.8${REVIEW === undefined ? '' : `, review ${REVIEW}`}, ${IN_FLIGHT} call(s) in flight per process, redis-server ${(await client.sendCommand(['INFO', 'server'])).match(/redis_version:(\S+)/)[1]} on loopback, ${PROCESSES} client processes; load average ${loadavg()[0].toFixed(1)}`,
      '',
      `${fmt(STORED)} synthetic short lines stored by add (${CONCURRENCY} in flight) in ${fmt(fillSeconds, 1)} s (${fmt(STORED / fillSeconds)} per second); Redis memory ${fmt(used / 2 ** 20, 1)} MiB for ${fmt(utf8 / 2 ** 20, 1)} MiB of UTF-8: ${fmt(used / utf8, 2)}×`,
      '',
      '| calls | per second, summed | p50 | p99 |',
      '|---|---|---|---|',
      `| query, ${fmt(PROCESSES * QUERIES)}${REVIEW === undefined ? '' : ` (${fmt(sum((p) => p.reviews))} review matches)`} | ${fmt(sum((p) => p.queries.perSecond))} | ${parts.map((p) => fmt(p.queries.p50, 3)).join(' / ')} ms | ${parts.map((p) => fmt(p.queries.p99, 3)).join(' / ')} ms |`,
      `| addIfNew, ${fmt(PROCESSES * ADDS)} (${fmt(sum((p) => p.added))} added) | ${fmt(sum((p) => p.adds.perSecond))} | ${parts.map((p) => fmt(p.adds.p50, 3)).join(' / ')} ms | ${parts.map((p) => fmt(p.adds.p99, 3)).join(' / ')} ms |`,
      '',
      `Scripts run by the server during those calls: ${fmt(scripts)} for ${fmt(calls)} calls (a query runs one; an uncontended addIfNew two), ${fmt(scriptMicros, 1)} µs each inside the server (INFO commandstats).`,
      '',
      `CPU per call: the clients ${fmt(sum((p) => p.queries.cpuMicros) / PROCESSES)} µs a query, ${fmt(sum((p) => p.adds.cpuMicros) / PROCESSES)} µs an addIfNew (process.cpuUsage, means over the processes); `
        + `the server ${fmt(serverMicros / calls)} µs a call over both kinds (INFO cpu). With ${availableParallelism()} cores shared by the server and the clients, `
        + `calls cannot exceed about ${fmt(Math.round((availableParallelism() * 1e6) / (sum((p) => p.queries.cpuMicros * QUERIES + p.adds.cpuMicros * ADDS) / calls + serverMicros / calls) / 100) * 100)} per second in this mix (--adds=0: queries alone).`,
    ];
    const table = lines.join('\n');
    console.log(table);
    const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} logical cores; Node ${process.versions.node}`;
    writeFileSync(new URL('./results/redis.txt', import.meta.url), `$ node tests/bench/redis.js ${args.join(' ')}\n\n${machine}\n\n${table}\n`);
    await index.close();
    await client.quit();
  } finally {
    await server.stop();
  }
}

const partArg = args.find((a) => a.startsWith('--part='));
if (partArg) await part(args.find((a) => a.startsWith('--url=')).slice(6), Number(partArg.slice(7)));
else await main();
