// One process of the concurrency test (shared-index.test.js): reads a JSON array of texts
// from stdin and calls addIfNew on each, in the order described below, against the
// shared index named by argv; prints { added: [{ id, text }], rejected: [text] }.
import { createClient } from 'redis';
import { createSharedTextIndex } from '../../js/redis.js';
import { Random } from '../bench/quality/random.js';

const [url, name, seed] = process.argv.slice(2);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
// Every process in the same order, so that they race on the same texts at the same moment;
// the seed picks where each starts (a rotation), so that each also meets the others' earlier texts.
const rng = new Random('worker order');
for (let i = texts.length - 1; i > 0; i--) {
  const j = rng.int(i + 1);
  [texts[i], texts[j]] = [texts[j], texts[i]];
}
const start = Number(seed) % 2 === 0 ? 0 : 1;
texts.push(...texts.splice(0, start));
const client = await createClient({ url }).connect();
const index = await createSharedTextIndex(client, { name });
const added = [];
const rejected = [];
for (const text of texts) {
  const result = await index.addIfNew(text);
  if (result.added) added.push({ id: result.id, text });
  else rejected.push(text);
}
await index.close();
await client.quit();
process.stdout.write(JSON.stringify({ added, rejected }));
