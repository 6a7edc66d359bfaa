// Labelled pairs for one corpus. From BASES sampled records it makes:
//   - edit pairs (base, variant) for every edit type that applies (edits.js);
//   - natural pairs (base, one of its NEIGHBOURS nearest corpus records by 3-gram Jaccard):
//     real texts sharing vocabulary, mostly hard negatives, and the corpus's own
//     near-duplicates (the same quote in two files) as positives;
//   - random pairs (base, RANDOM_PER_BASE records drawn at random): easy negatives.
// Every pair's label comes from its exact Jaccard (jaccard.js), not from how it was made.
import { Random } from './random.js';
import { ShingleSets } from './jaccard.js';
import { EDITS, countUnits } from './edits.js';

export const BASES = 600;
export const NEIGHBOURS = 3;
export const RANDOM_PER_BASE = 5;

/**
 * A pair is a near-duplicate when the Jaccard similarity of its canonical character
 * 3-gram sets is at least this. Why 0.5 (the threshold table shows the evidence):
 * edits of at most 10% keep the median J above it in both corpora, unrelated records and
 * nearest natural neighbours fall far below it (95% under 0.35), and distinct sayings that
 * share an attribution line reach 0.47. 20% character edits of Chinese (a 3-gram spans
 * three characters there) straddle it: the hard cases on both sides.
 */
export const DUPLICATE_JACCARD = 0.5;

export const LENGTH_BUCKETS = [
  { name: 'short (<100 chars)', max: 99 },
  { name: 'medium (100-399)', max: 399 },
  { name: 'long (400-2000)', max: Infinity },
];

export function lengthBucket(text) {
  const length = [...text].length;
  return LENGTH_BUCKETS.findIndex((bucket) => length <= bucket.max);
}

/** Distinct texts, each with an index into the array the fingerprints are computed for. */
class TextTable {
  texts = [];
  #index = new Map();
  add(text) {
    let i = this.#index.get(text);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(text);
      this.#index.set(text, i);
    }
    return i;
  }
}

/** Draws replacement words and characters with corpus frequencies. */
function vocabulary(records) {
  const words = [];
  const han = [];
  for (const record of records) {
    for (const word of record.match(/\b[A-Za-z]{2,}\b/g) ?? []) words.push(word.toLowerCase());
    for (const ch of record.match(/\p{Script=Han}/gu) ?? []) han.push(ch);
  }
  return { words, han };
}

/**
 * The NEIGHBOURS records with the highest exact Jaccard to records[b], among the 30 sharing
 * the most rare 3-grams (in at most 1% of records, so "the" does not make everyone a
 * neighbour). Records with identical canonical text are not neighbours but copies.
 */
function nearestNeighbours(records, bases, shingles) {
  const postings = new Map();
  records.forEach((record, r) => {
    for (const gram of shingles.of(record)) {
      let list = postings.get(gram);
      if (!list) postings.set(gram, (list = []));
      list.push(r);
    }
  });
  const maxFrequency = Math.max(20, Math.ceil(records.length / 100));
  const shared = new Int32Array(records.length);
  return bases.map((b) => {
    const touched = [];
    for (const gram of shingles.of(records[b])) {
      const list = postings.get(gram);
      if (list.length > maxFrequency) continue;
      for (const r of list) {
        if (r === b) continue;
        if (shared[r]++ === 0) touched.push(r);
      }
    }
    const candidates = touched.sort((x, y) => shared[y] - shared[x] || x - y).slice(0, 30);
    for (const r of touched) shared[r] = 0;
    return candidates
      .map((r) => ({ r, jaccard: shingles.jaccard(records[b], records[r]) }))
      .filter((c) => c.jaccard < 1)
      .sort((x, y) => y.jaccard - x.jaccard || x.r - y.r)
      .slice(0, NEIGHBOURS)
      .map((c) => c.r);
  });
}

/**
 * { name, texts, pairs, bases }. A pair is
 * { a, b, base, kind: 'edit'|'natural'|'random', edit, fraction, jaccard, duplicate, bucket }
 * with a and b indices into texts and base the index of its base in bases.
 */
export function buildDataset(corpus) {
  const { name, records } = corpus;
  const language = corpus.language ?? name; // how edits work: 'english' (words) or 'chinese' (characters)
  const shingles = new ShingleSets();
  const table = new TextTable();
  const pairs = [];
  const baseRecords = new Random(`${name}/bases`).sampleIndices(records.length, corpus.bases ?? BASES).sort((x, y) => x - y);
  const vocab = vocabulary(records);
  const editRng = new Random(`${name}/edits`);
  const ctx = {
    language,
    rng: editRng,
    randomWord: () => editRng.pick(vocab.words),
    randomHan: () => editRng.pick(vocab.han),
  };

  const addPair = (baseIndex, text, other, kind, edit = null, fraction = null) => {
    const jaccard = shingles.jaccard(text, other);
    pairs.push({
      a: table.add(text), b: table.add(other), base: baseIndex, kind, edit, fraction, jaccard,
      duplicate: jaccard >= DUPLICATE_JACCARD, bucket: lengthBucket(text),
    });
  };

  baseRecords.forEach((r, baseIndex) => {
    const base = records[r];
    for (const [edit, apply] of Object.entries(EDITS)) {
      const variant = apply(base, ctx);
      if (variant && variant.text !== base && countUnits(variant.text, language) > 0) {
        addPair(baseIndex, base, variant.text, 'edit', edit, variant.fraction);
      }
    }
  });

  nearestNeighbours(records, baseRecords, shingles).forEach((neighbours, baseIndex) => {
    for (const r of neighbours) addPair(baseIndex, records[baseRecords[baseIndex]], records[r], 'natural');
  });

  const randomRng = new Random(`${name}/random-pairs`);
  baseRecords.forEach((r, baseIndex) => {
    for (let i = 0; i < RANDOM_PER_BASE; i++) {
      let other = randomRng.int(records.length - 1);
      if (other >= r) other++; // never the base itself
      addPair(baseIndex, records[r], records[other], 'random');
    }
  });

  return { name, texts: table.texts, pairs, bases: baseRecords.map((r) => records[r]) };
}
