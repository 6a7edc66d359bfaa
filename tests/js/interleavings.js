// Calls that overlap on one instance, each compared with the same call run alone (README
// "Errors and memory"). Shared by Node (tests/js/interleavings.test.js) and Chromium
// (tests/browser/interleavings.test.js), so it imports nothing of Node's: the caller passes `sh`.
//
// A run first computes every call's answer alone, one after another. Then, in a seeded
// random schedule, several dedups (both modes, both groupings, both candidate paths) run at
// once; their onProgress callbacks, and promises running beside them, make the other calls
// (similarity, similarities, fingerprintAll, findPairs, learnIdf, fingerprint- and
// text-index calls); some dedups are aborted by their signal at a random report. Every
// answer must equal its answer alone, and every aborted dedup must reject with its reason.
import { mulberry32 } from '../bench/quality/random.js';

const WORDS = ('reset password account login email order refund delivery price blue red widget phone case cable '
  + 'charger screen battery fast slow cheap new used broken return ticket support help please today urgent').split(' ');
const HANZI = '这家餐厅的菜很好吃服务也不错价格便宜环境安静适合朋友聚会下次还会再来';

/**
 * `count` texts in families of near-duplicates (English lines, and Chinese lines with
 * characters replaced), shuffled: enough pairs around the thresholds for every path.
 */
export function sampleTexts(count, seed) {
  const random = mulberry32(seed);
  const pick = (n) => Math.floor(random() * n);
  const texts = [];
  while (texts.length < count) {
    if (pick(3) === 0) {
      const base = Array.from({ length: 12 + pick(10) }, () => HANZI[pick(HANZI.length)]);
      for (let v = pick(4); v >= 0 && texts.length < count; v--) {
        const copy = base.slice();
        for (let e = pick(3); e > 0; e--) copy[pick(copy.length)] = HANZI[pick(HANZI.length)];
        texts.push(copy.join(''));
      }
    } else {
      const base = Array.from({ length: 6 + pick(10) }, () => WORDS[pick(WORDS.length)]);
      for (let v = pick(4); v >= 0 && texts.length < count; v--) {
        const copy = base.slice();
        for (let e = pick(3); e > 0; e--) copy[pick(copy.length)] = WORDS[pick(WORDS.length)];
        texts.push(copy.join(' '));
      }
    }
  }
  for (let i = texts.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [texts[i], texts[j]] = [texts[j], texts[i]];
  }
  return texts;
}

/** A dedup result as one string: unique indices, groups and fingerprints. */
export function dedupDigest(result) {
  const review = (result.review ?? []).map((p) => `${p.a},${p.b},${p.similarity}`).join(';');
  return `${result.uniqueIndices.join(',')}|${result.groups.map((g) => g.join(',')).join(';')}|${result.fingerprints.join(',')}|${review}`;
}

/** The dedups of a run: both modes, both groupings, the banded (with sketches below 0.7) and the radius paths, and review pairs. */
const DEDUPS = [
  { name: 'dedup by similarity (banded, leader)', options: {} },
  { name: 'dedup by similarity (banded, components)', options: { grouping: 'components' } },
  { name: 'dedup at 0.6 (banded with sketches, leader)', options: { similarity: 0.6 } },
  { name: 'dedup at 0.8 (radius 16, leader)', options: { similarity: 0.8, maxDistance: 16 } },
  { name: 'dedup at 0.8 (radius 16, components)', options: { similarity: 0.8, maxDistance: 16, grouping: 'components' } },
  { name: 'dedup with review 0.5 (components)', options: { review: 0.5, grouping: 'components' } },
  { name: 'dedup by fingerprints (leader)', options: { maxDistance: 3 } },
  { name: 'dedup by fingerprints (components)', options: { maxDistance: 6, grouping: 'components' } },
];

/**
 * The calls made between a dedup's slices: each returns a string that must not depend on
 * what else runs. `fixture` holds the texts and the indexes built before the run; calls
 * that change an index undo the change before they return.
 */
function syncCalls(sh, fixture) {
  const { texts, pairs, index, textIndex, probe } = fixture;
  const slice = (at) => texts.slice(at % (texts.length - 50), (at % (texts.length - 50)) + 50);
  return [
    ['similarity', (at) => String(sh.similarity(texts[at % texts.length], texts[(at * 7 + 1) % texts.length]))],
    ['similarities', () => sh.similarities(texts, pairs).join(',')],
    ['fingerprintAll', (at) => sh.fingerprintAll(slice(at)).join(',')],
    ['fingerprint', (at) => String(sh.fingerprint(texts[at % texts.length]))],
    ['findPairs', (at) => {
      const found = sh.findPairs(sh.fingerprintAll(slice(at)), 8);
      return `${found.a.join(',')}|${found.b.join(',')}|${found.distance.join(',')}`;
    }],
    ['learnIdf', (at) => {
      const idf = sh.learnIdf(slice(at));
      try {
        return `${idf.documents}|${idf.features}|${idf.toBytes().join(',')}|${sh.fingerprint(probe, { idf })}`;
      } finally {
        idf.dispose();
      }
    }],
    ['index.query', (at) => index.query(sh.fingerprint(texts[at % texts.length])).map((m) => `${m.id}:${m.distance}`).join(',')],
    ['index.add+remove', (at) => {
      const id = 1e6 + at;
      index.add(sh.fingerprint(texts[at % texts.length]), id);
      const matches = index.query(sh.fingerprint(texts[at % texts.length])).map((m) => `${m.id}:${m.distance}`).join(',');
      index.remove(id);
      return `${matches}|${index.size}`;
    }],
    ['textIndex.query', (at) => textIndex.query(texts[at % texts.length], { limit: 20 }).map((m) => `${m.id}:${m.similarity}`).join(',')],
    ['textIndex.add+remove', (at) => {
      const id = 1e6 + at;
      textIndex.add(`${texts[at % texts.length]} !`, id);
      const matches = textIndex.query(texts[at % texts.length]).map((m) => `${m.id}:${m.similarity}`).join(',');
      textIndex.remove(id);
      return `${matches}|${textIndex.size}`;
    }],
    ['textIndex.serialize', () => String(textIndex.serialize().length)],
  ];
}

/** A macrotask's pause (no MessageChannel: the same in every runtime). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * One seeded run over `sh` with `count` texts: resolves to a report of what was compared,
 * and throws an Error listing every call whose answer differed from its answer alone.
 */
export async function runInterleavings(sh, { seed, count, dedupsAtOnce = 4 }) {
  const random = mulberry32(seed);
  const pick = (n) => Math.floor(random() * n);
  const texts = sampleTexts(count, seed);
  const pairCount = 200;
  const pairs = { a: new Uint32Array(pairCount), b: new Uint32Array(pairCount) };
  for (let p = 0; p < pairCount; p++) [pairs.a[p], pairs.b[p]] = [pick(count), pick(count)];
  const index = sh.createIndex({ maxDistance: 6 });
  const textIndex = sh.createTextIndex({ similarity: 0.6 });
  try {
    index.addAll(sh.fingerprintAll(texts.slice(0, 2000)));
    textIndex.addAll(texts.slice(0, 2000));
    const fixture = { texts, pairs, index, textIndex, probe: texts[0] };
    const calls = syncCalls(sh, fixture);

    // Alone: every dedup, and every call at every argument the schedule may use.
    const ARGUMENTS = 16;
    const aloneDedups = [];
    for (const spec of DEDUPS) aloneDedups.push(dedupDigest(await sh.dedup(texts, spec.options)));
    const aloneCalls = calls.map(([, call]) => Array.from({ length: ARGUMENTS }, (_, at) => call(at)));

    const mismatches = [];
    let compared = 0;
    const callAt = (where) => {
      const c = pick(calls.length);
      const at = pick(ARGUMENTS);
      const got = calls[c][1](at);
      compared++;
      if (got !== aloneCalls[c][at]) mismatches.push(`${calls[c][0]}(${at}) ${where}`);
    };

    const running = [];
    const outcomes = [];
    let active = 0;
    let overlapped = 0; // reports made while another dedup was under way
    for (let d = 0; d < dedupsAtOnce; d++) {
      const which = pick(DEDUPS.length);
      const spec = DEDUPS[which];
      const controller = new AbortController();
      const abortAt = pick(3) === 0 ? 1 + pick(6) : -1; // a third are aborted at a random report
      let reports = 0;
      let aborted = false;
      const onProgress = ({ phase }) => {
        reports++;
        if (active > 1) overlapped++;
        if (reports === abortAt && phase !== 'groups') { // the last report: the work is done, and the dedup resolves
          controller.abort(new Error(`aborted ${d}`));
          aborted = true;
        }
        for (let c = 1 + pick(3); c > 0; c--) callAt(`in onProgress of ${spec.name}`);
      };
      active++;
      running.push(sh.dedup(texts, { ...spec.options, onProgress, signal: controller.signal }).then((result) => {
        compared++;
        if (aborted) mismatches.push(`${spec.name} resolved though aborted at report ${abortAt}`);
        else if (dedupDigest(result) !== aloneDedups[which]) mismatches.push(`${spec.name}: groups differ from alone`);
        outcomes.push('resolved');
        active--;
      }, (error) => {
        compared++;
        if (!(aborted && error?.message === `aborted ${d}`)) mismatches.push(`${spec.name} rejected: ${error?.message ?? error}`);
        outcomes.push('aborted');
        active--;
      }));
    }
    // Promises beside the dedups: calls between macrotasks until the dedups end.
    let done = false;
    const beside = (async () => {
      while (!done) {
        callAt('from a promise running beside');
        await nextTask();
      }
    })();
    await Promise.all(running);
    done = true;
    await beside;
    if (mismatches.length > 0) throw new Error(`seed ${seed}: ${mismatches.length} answers differ from alone:\n${mismatches.join('\n')}`);
    return { seed, compared, overlapped, outcomes };
  } finally {
    index.dispose();
    textIndex.dispose();
  }
}
