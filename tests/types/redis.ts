// simhash-wasm/redis's types against both clients' own types.
import { createClient, createCluster } from 'redis';
import { Cluster, Redis } from 'ioredis';
import { createSharedTextIndex, type SharedTextIndex } from 'simhash-wasm/redis';
import type { Measure, SimHash, TextIndex, TextMatch, WordWeights } from 'simhash-wasm';

export async function shared(url: string, sh: SimHash): Promise<void> {
  const nodeRedis = await createClient({ url }).connect();
  const ioredis = new Redis(url);
  const nodeRedisCluster = await createCluster({ rootNodes: [{ url }] }).connect();
  const ioredisCluster = new Cluster([url]);
  for (const client of [nodeRedis, ioredis, nodeRedisCluster, ioredisCluster]) {
    const index: SharedTextIndex = await createSharedTextIndex(client, { name: 'posts', similarity: 0.8 });
    const id: number = await index.add('a text');
    const outcome = await index.addIfNew('a text!', 7);
    if (outcome.added) console.log(outcome.id);
    else console.log(outcome.matches?.[0]?.similarity);
    const matches: TextMatch[] = await index.query('a text', { limit: 3 });
    const reviewed = await createSharedTextIndex(client, { name: 'tickets', similarity: 0.8, review: 0.5, options: { wordNgram: 2 } });
    const review: number | undefined = reviewed.review;
    if ((await reviewed.query('a text'))[0]?.kind === 'review') console.log(review);
    await reviewed.close();
    // The short measure, its weights stored beside the index and read back by any open.
    const names = await createSharedTextIndex(client, { name: 'names', measure: 'short', weights: sh.learnWeights(['Acme Inc']), review: 0.3 });
    const measure: Measure = names.measure;
    const weights: WordWeights | null = names.weights;
    const reader = await createSharedTextIndex(client, { name: 'names', measure: 'short', review: 0.3 }); // the stored weights
    const unweighted = await createSharedTextIndex(client, { name: 'names-unweighted', measure: 'short', weights: null });
    void measure, weights?.words, reader.weights?.texts;
    await Promise.all([reader.close(), unweighted.close()]);
    // @ts-expect-error: 'auto' is dedup's measure, not an index's
    void createSharedTextIndex(client, { name: 'x', measure: 'auto' });
    await names.close();
    const removed: boolean = await index.remove(id);
    const stored: boolean = await index.has(id);
    const size: number = await index.size();
    const copy: TextIndex = await index.exportTo();
    await index.importFrom(copy.serialize()).catch(() => undefined);
    copy.dispose();
    void matches, removed, stored, size;
    await index.close();
  }
  await nodeRedis.quit();
  ioredis.disconnect();
}
