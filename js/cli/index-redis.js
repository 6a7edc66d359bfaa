// dedup --index redis://HOST:PORT/DB#NAME: incremental dedup against the text index NAME
// shared through Redis (redis/shared-index.js), with the output rules of the file index (cli/index-option.js).
// With --update each record is kept when addIfNew stores it (atomic, so several runs at
// once keep no two near-duplicates); without it the shared index is only read, and the
// records kept so far are held in memory for this run.
import { IndexFileError, UsageError } from './errors.js';
import { Output, count, progressReporter, readInput } from './streams.js';
import { init } from '../node.js';
import { createSharedTextIndex } from '../redis/open.js';
import { DEFAULT_SIMILARITY } from '../core/thresholds.js';

/** Whether --index names a Redis index rather than a file. */
export const isRedisIndex = (index) => /^rediss?:\/\//.test(index);

/** The server's URL and the index's name of redis://HOST:PORT/DB#NAME. */
function parseIndexUrl(index) {
  let url;
  try {
    url = new URL(index);
  } catch {
    throw new UsageError(`--index ${index}: not a URL (redis://HOST:PORT/DB#NAME)`);
  }
  const name = decodeURIComponent(url.hash.slice(1));
  if (name === '') throw new UsageError(`--index ${index}: the index's name is missing after # (redis://HOST:PORT/DB#NAME)`);
  url.hash = '';
  return { server: url.toString(), name };
}

async function connect(server) {
  let redis;
  try {
    redis = await import('redis');
  } catch {
    throw new UsageError('--index redis://… needs the npm package redis: npm install redis');
  }
  const client = redis.createClient({ url: server, socket: { reconnectStrategy: false } });
  let lost = null;
  client.on('error', (error) => { lost ??= error; });
  try {
    await client.connect();
  } catch (error) {
    throw new IndexFileError(`cannot connect to ${server}: ${error.message}`);
  }
  return { client, lost: () => lost };
}

export async function redisIndexCommand(args) {
  const progress = progressReporter(args.progress);
  const { server, name } = parseIndexUrl(args.index);
  const { client } = await connect(server);
  let shared = null;
  let local = null;
  try {
    const similarity = args.similarity ?? DEFAULT_SIMILARITY;
    try {
      shared = await createSharedTextIndex(client, { name, similarity });
    } catch (error) {
      if (/other parameters/.test(error.message)) throw new UsageError(`${args.index}: ${error.message}; an index keeps the similarity it was made with`);
      throw new IndexFileError(`${args.index}: ${error.message}`);
    }
    const before = await shared.size();
    progress.show('index', `index ${args.index}: ${count(before)} texts, similarity ${similarity}`, true);
    if (!args.update) local = (await init()).createTextIndex({ similarity });
    const out = new Output();
    let records = 0;
    let kept = 0;
    await readInput(args, progress, {
      header: (record) => out.write(record.raw),
      async record(record, text) {
        records++;
        if (args.update) {
          if (!(await shared.addIfNew(text)).added) return undefined;
        } else {
          if (local.query(text, { limit: 1 }).length > 0) return undefined;
          if ((await shared.query(text, { limit: 1 })).length > 0) return undefined;
          local.add(text);
        }
        kept++;
        return out.write(record.raw);
      },
      status: () => `${count(records)} records, ${count(kept)} kept`,
    });
    await out.flush();
    const stored = args.update ? `${count(await shared.size())} texts (${count(kept)} added by this run)` : `${count(before)} texts (not updated)`;
    progress.end(`${count(records)} records, ${count(kept)} kept, ${count(records - kept)} near-duplicates; ${args.index}: ${stored}`);
  } finally {
    local?.dispose();
    await shared?.close();
    await client.quit().catch(() => {});
  }
}
