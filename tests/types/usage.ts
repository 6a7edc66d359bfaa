// A typed use of the package, checked by `tsc --noEmit --strict` in the test suite: the
// declarations in js/index.d.ts must describe how the README uses the API.
import { init, toHex, candidateRadius, DEFAULT_MAX_DISTANCE, DEFAULT_SIMILARITY, type DedupResult, type FieldKind, type FingerprintOptions, type RecordDedupResult, type RecordLinkResult, type RecordReviewPair, type ReviewPair, type LookAlikeDifference, type SimHashIndex, type TextIndex, type TextMatch, type Measure, type WordWeights } from 'simhash-wasm';
import { createPool, type RecordDedupResult as PoolRecordDedupResult, type FieldLevel } from 'simhash-wasm/worker';

interface Ticket {
  id: string;
  body: string;
}

export async function example(tickets: Ticket[]): Promise<string[]> {
  const sh = await init();
  const options: FingerprintOptions = { tokenizer: 'chars', charNgram: 3, weighting: 'binary' };
  const fp: bigint = sh.fingerprint('你妈妈喊你回家吃饭哦', options);
  const all: BigUint64Array = sh.fingerprintAll(tickets.map((t) => t.body));
  const hex: string = toHex(fp) + sh.toHex(sh.fromHex('ff'));

  const index: SimHashIndex = sh.createIndex({ maxDistance: DEFAULT_MAX_DISTANCE });
  try {
    index.addAll(all);
    const id: number = index.add(fp);
    const nearest: number[] = index.query(fp).map((m) => m.id + m.distance);
    const restored = sh.loadIndex(index.serialize());
    restored.dispose();
    index.remove(id);
    void nearest;
  } finally {
    index.dispose();
  }

  // Tickets as they arrive: each one kept unless it is a near-duplicate of one kept before.
  const seen: TextIndex = sh.createTextIndex({ similarity: DEFAULT_SIMILARITY, review: 0.5, options: { nfkc: true } });
  try {
    const kept: Uint32Array = seen.addAll(tickets.slice(0, 1).map((t) => t.body));
    for (const ticket of tickets.slice(1)) {
      const matches: TextMatch[] = seen.query(ticket.body, { limit: 3 });
      const kind: 'duplicate' | 'review' | undefined = matches[0]?.kind;
      if (kind !== 'duplicate') seen.add(ticket.body);
      else console.log(ticket.id, matches[0]?.id, matches[0]?.similarity);
    }
    const reloaded = sh.loadTextIndex(seen.serialize());
    const review: number | undefined = reloaded.review;
    const same: boolean = reloaded.size === seen.size && reloaded.similarity === seen.similarity && review === 0.5 && reloaded.has(kept[0] ?? 0);
    reloaded.remove(0);
    reloaded.dispose();
    void same;
  } finally {
    seen.dispose();
  }

  const idf = sh.learnIdf(tickets.map((t) => t.body), { weighting: 'binary', nfkc: true });
  const weighted: bigint = sh.fingerprint('text', { idf });
  const restored = sh.loadIdf(idf.toBytes());
  const learnedWith: 'tf' | 'binary' = restored.options.weighting;
  restored.dispose();
  idf.dispose();
  void weighted;
  void learnedWith;

  const { a, b, distance } = sh.findPairs(all, 3);
  const firstPair: [number, number, number] = [a[0] ?? 0, b[0] ?? 0, distance[0] ?? 0];
  void firstPair;
  const labels: Uint32Array = sh.groupLabels(all.length, sh.findPairs(all, 6), { maxDistance: 3, grouping: 'leader' });
  void labels;
  const texts = tickets.map((t) => t.body);
  const candidates = sh.findPairs(sh.fingerprintAll(texts), candidateRadius(0.9));
  const similarities: Float64Array = sh.similarities(texts, candidates);
  const bySimilarity: Uint32Array = sh.groupLabels(texts.length, candidates, { similarity: 0.9, similarities, grouping: 'components' });
  const closeness: number = sh.similarity(texts[0] ?? '', texts[1] ?? '') * DEFAULT_SIMILARITY;
  void bySimilarity;
  void closeness;

  const controller = new AbortController();
  const result: DedupResult<Ticket> = await sh.dedup(tickets, {
    key: (t) => t.body,
    maxDistance: 6,
    grouping: 'components',
    onProgress: ({ phase, done, total }) => console.log(phase, done, total),
    signal: controller.signal,
  });
  const strings = await sh.dedup(['a', 'b'], { maxDistance: 3 });
  const reviewed = await sh.dedup(['How do I reset my password?', 'How can I reset my password?'], { review: 0.5, reviewLimit: 100 });
  const mostSimilar: ReviewPair | undefined = reviewed.review?.[0];
  const omitted: number = reviewed.reviewOmitted ?? 0;
  void mostSimilar?.similarity;
  void omitted;

  const names = ['José García', 'Jose Garcia', 'Smith, John', 'John Smith'];
  const weights: WordWeights = sh.learnWeights(names);
  const nameCloseness: number = sh.similarity('Microsoft', 'Mircosoft', { measure: 'short', weights });
  const byNames = await sh.dedup(names, { review: 0.4 });
  const measure: Measure | undefined = byNames.measure;
  const apart = (await sh.dedup(['125 Main Street', '123 Main Street'])).review ?? [];
  const differing: LookAlikeDifference | undefined = apart[0]?.differs;
  const numbers: [string[], string[]] | undefined = differing?.numbers;
  void numbers;
  const learned: WordWeights | null | undefined = byNames.weights;
  const customers = sh.createTextIndex({ measure: 'short', weights: learned ?? weights });
  const sameWeights: WordWeights = sh.loadWeights(weights.toData());
  void [nameCloseness, measure, customers.measure, sameWeights.words, byNames.similarity];
  customers.dispose();

  const contacts = [
    { name: 'John Smith', email: 'john.smith@example.com', phone: '(555) 123-4567' },
    { name: 'Smith, John', email: 'John.Smith@example.com', phone: '555.123.4567' },
  ];
  const people: RecordDedupResult<(typeof contacts)[number]> = await sh.dedup(contacts, {
    fields: { name: 'name', email: 'email', phone: 'auto' },
    probability: 0.99,
    review: 0.2,
    reviewLimit: 50,
  });
  const byColumns = await sh.dedup(contacts, { fields: ['name', 'phone'] });
  const kind: FieldKind | undefined = people.fields[0]?.kind;
  const entry: RecordReviewPair | undefined = byColumns.review[0];
  const why: string | undefined = entry?.fields.map((f) => `${f.name}: ${f.a} / ${f.b} ${f.level} ${f.weight.toFixed(1)} bits`).join('; ');
  const apartBy: string | undefined = entry?.apart?.field;
  const mergedBy: string | undefined = people.merged[0]?.[0]?.levels.map((level, j) => `${people.fields[j]?.name}: ${level}`).join(', ');
  const mergedAt: number | undefined = people.merged[0]?.[0]?.probability;
  void [kind, why, apartBy, mergedBy, mergedAt, people.model.prior, people.groups, people.unique[0]?.email, people.compared];
  const crm = [{ name: 'Jon Smith', mail: 'jon@example.com' }];
  const linked: RecordLinkResult = await sh.link(contacts, crm, { fields: { name: 'name' }, probability: 0.5, review: 0.2 });
  const pairsAcross: [number, number][] = linked.links.map(({ a, b }) => [a, b]);
  void [pairsAcross, linked.review.length, linked.reviewOmitted];
  return [...result.unique.map((t) => t.id), ...strings.unique, hex, String(sh.distance(fp, all[0] ?? 0n))];
}

/** Records through the pool: the same overloads as SimHash#dedup. */
export async function poolRecords(): Promise<string[]> {
  const pool = await createPool({ size: 1 });
  try {
    const rows = [{ name: 'John Smith', email: 'john@example.com' }, { name: 'Smith, John', email: 'JOHN@example.com' }];
    const people: PoolRecordDedupResult<(typeof rows)[number]> = await pool.dedup(rows, { fields: { name: 'name', email: 'auto' }, signal: AbortSignal.timeout(10_000) });
    const texts = await pool.dedup(['a b', 'a b c']);
    const linked = await pool.link(rows, rows.slice(0, 1), { probability: 0.5 });
    void linked.links[0]?.fields;
    const level: FieldLevel | undefined = people.review[0]?.fields[0]?.level;
    void [level, texts.fingerprints];
    return people.unique.map((row) => row.email);
  } finally {
    await pool.terminate();
  }
}
