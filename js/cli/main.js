#!/usr/bin/env node
// simhash-wasm command line: near-duplicate removal for Node scripts. The commands here; the
// arguments in cli/args.js, the streams in cli/streams.js, dedup --index in cli/index-option.js,
// records in cli/record-dedup.js and cli/record-link.js, exit statuses in cli/errors.js.
import { init, DEFAULT_MAX_DISTANCE } from '../node.js';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { InputError } from './records.js';
import { NAMES_SAMPLE } from './names-sample.js';
import { differenceText } from '../core/look-alikes.js';
import { MAX_REVIEW_LIMIT } from '../core/thresholds.js';
import { SAMPLE } from './sample.js';
import { IndexFileError, MemoryError, OUT_OF_MEMORY, ReviewFileError, UsageError } from './errors.js';
import { indexCommand } from './index-option.js';
import { isRedisIndex, redisIndexCommand } from './index-redis.js';
import { Output, count, progressReporter, readInput, writeLines } from './streams.js';
import { dedupRecordsCommand } from './record-dedup.js';
import { linkCommand } from './record-link.js';
import { USAGE, parseArgs } from './args.js';

/** The --review-file, opened (and emptied) before any work, so that a path that cannot be written fails first. */
async function openReviewFile(path) {
  const stream = createWriteStream(path);
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new ReviewFileError(`cannot write --review-file ${path}: ${error.message}`);
  }
  return stream;
}

/** Writes dedup's review pairs to the opened --review-file, one JSON object per line, and closes it. */
function writeReview(stream, records, review) {
  return writeLines(stream, review.map(({ a, b, similarity, differs, contained }) => {
    const [x, y] = [records[a], records[b]];
    return { a: { line: x.line, text: x.text }, b: { line: y.line, text: y.text }, similarity, ...(differs && { differs }), ...(contained && { contained }) };
  }));
}

/**
 * The line on stderr that says how dedup compared: the measure and the similarity it chose
 * (or was given), and, when no --review-file lists them, the look-alikes kept apart.
 */
function comparedBy({ measure, similarity, review, reviewOmitted = 0 }, listed) {
  const apart = !listed && review?.length ? `; ${count(review.length + reviewOmitted)} look-alikes kept apart, not merged (--review R --review-file FILE lists them)` : '';
  return `compared by the ${measure} measure at similarity ${similarity}${apart}`;
}

/** Fingerprints in slices, reporting progress between them. */
function fingerprintAll(sh, texts, options, progress) {
  const SLICE = 4096;
  const fingerprints = new BigUint64Array(texts.length);
  for (let start = 0; start < texts.length; start += SLICE) {
    const end = Math.min(texts.length, start + SLICE);
    fingerprints.set(sh.fingerprintAll(texts.slice(start, end), options), start);
    progress.onProgress({ phase: 'fingerprint', done: end, total: texts.length });
  }
  return fingerprints;
}


/** A MemoryError for fingerprinting that ran out of memory; other errors unchanged. */
function outOfMemory(error, records) {
  if (!OUT_OF_MEMORY.test(error.message)) return error;
  const longest = records.reduce((max, r) => Math.max(max, r.text.length), 0);
  return new MemoryError(`fingerprinting ${count(records.length)} records (the longest ${count(longest)} characters) does not fit in memory (${error.message})`);
}

/** link: the review file opened first, as dedup opens it. */
async function runLink(args) {
  const reviewFile = args.review === undefined ? undefined : await openReviewFile(args.reviewFile);
  await linkCommand(await init(), args, new Output(), reviewFile, progressReporter(args.progress));
}

async function dedupCommand(args) {
  const reviewFile = args.review === undefined ? undefined : await openReviewFile(args.reviewFile);
  const progress = progressReporter(args.progress);
  const records = [];
  let header = null;
  await readInput(args, progress, {
    header(record) { header = record; },
    record(record, text) { records.push(args.format === 'lines' ? record : { line: record.line, raw: record.raw, text }); },
    status: () => `${count(records.length)} records`,
  });
  const texts = records.map((record) => record.text);
  const sh = await init();
  const out = new Output();
  if (args.records) {
    await dedupRecordsCommand(sh, args, records, header, out, reviewFile, progress);
    return;
  }

  if (args.output === 'pairs') {
    let fingerprints;
    try {
      fingerprints = fingerprintAll(sh, texts, args.options, progress);
    } catch (error) {
      throw outOfMemory(error, records);
    }
    const maxDistance = args.maxDistance ?? DEFAULT_MAX_DISTANCE;
    progress.show('pairs', `pairs within ${maxDistance} bits of ${count(records.length)} records`);
    let pairs;
    try {
      pairs = sh.findPairs(fingerprints, maxDistance);
    } catch (error) {
      if (!OUT_OF_MEMORY.test(error.message)) throw error;
      throw new MemoryError(`the pairs within ${maxDistance} bits of ${count(records.length)} records do not fit in memory (${error.message}); lower --max-distance, or use --groups, which needs no list of pairs`);
    }
    const { a, b, distance } = pairs;
    for (let i = 0; i < a.length; i++) {
      const [x, y] = [records[a[i]], records[b[i]]];
      await out.write(`${JSON.stringify({ a: { line: x.line, text: x.text }, b: { line: y.line, text: y.text }, distance: distance[i] })}\n`);
    }
    await out.flush();
    progress.end(`${count(records.length)} records, ${count(a.length)} pairs`);
    return;
  }

  let result;
  try {
    result = await sh.dedup(texts, {
      similarity: args.similarity,
      measure: args.measure,
      maxDistance: args.maxDistance,
      options: args.options,
      ...(args.review !== undefined && { review: args.review, reviewLimit: args.reviewLimit ?? MAX_REVIEW_LIMIT }),
      onProgress: progress.onProgress,
    });
  } catch (error) {
    // A review threshold below the least of the measure 'auto' chose.
    if (error instanceof RangeError && /options.review/.test(error.message)) throw new UsageError(error.message.replace('options.review', '--review'));
    throw outOfMemory(error, records);
  }
  if (args.output === 'groups') {
    const closeness = keptCloseness(sh, texts, result);
    for (const group of result.groups) {
      const members = group.map((i) => ({ line: records[i].line, ...closeness(group[0], i), text: records[i].text }));
      await out.write(`${JSON.stringify({ group: members })}\n`);
    }
  } else {
    if (header) await out.write(header.raw);
    for (const i of result.uniqueIndices) await out.write(records[i].raw);
  }
  await out.flush();
  if (reviewFile) await writeReview(reviewFile, records, result.review);
  if (result.measure) process.stderr.write(`simhash-wasm: ${comparedBy(result, reviewFile !== undefined)}\n`);
  const reviewed = reviewFile ? `, ${count(result.review.length)} pairs of groups to review in ${args.reviewFile}` : '';
  progress.end(`${count(records.length)} records, ${count(result.unique.length)} unique, ${count(result.groups.length)} groups${reviewed}`);
}


/**
 * How close each member i of the groups is to its kept record k, as dedup decided: a map
 * (k, i) -> { similarity } by the result's measure and weights (one sh.similarities call for
 * all members), or { distance } in the fingerprint-only mode.
 */
function keptCloseness(sh, texts, { measure, weights, fingerprints, groups }) {
  if (!measure) return (k, i) => ({ distance: sh.distance(fingerprints[k], fingerprints[i]) });
  const kept = [], members = [];
  for (const group of groups) for (const i of group) kept.push(group[0]), members.push(i);
  const values = sh.similarities(texts, { a: Uint32Array.from(kept), b: Uint32Array.from(members) }, { measure, weights });
  const of = new Map(members.map((i, p) => [i, Number(values[p].toFixed(3))]));
  return (k, i) => ({ similarity: of.get(i) });
}

/** Prints dedup of a bundled sample at the defaults: its groups, then its look-alikes kept apart; returns the time it took. */
async function showSample(sh, texts, what) {
  const started = performance.now();
  const result = await sh.dedup(texts);
  const took = performance.now() - started;
  console.log(`simhash-wasm: ${texts.length} ${what}, compared by the ${result.measure} measure at similarity ${result.similarity} (the defaults)\n`);
  const closeness = keptCloseness(sh, texts, result);
  for (const group of result.groups) {
    console.log(`group of ${group.length}:`);
    for (const i of group) console.log(`  ${i === group[0] ? 'kept ' : closeness(group[0], i).similarity.toFixed(2).padStart(5)}  ${texts[i]}`);
  }
  const apart = (result.review ?? []).filter((entry) => entry.differs);
  if (apart.length) console.log('\nkept apart, for review:');
  for (const { a, b, similarity, differs } of apart) {
    console.log(`  ${similarity.toFixed(2)}  ${texts[a]}  /  ${texts[b]}  (${differenceText(differs)} differ)`);
  }
  console.log(`\n${result.unique.length} unique of ${texts.length}; ${result.groups.length} groups of near-duplicates${apart.length ? `; ${apart.length} look-alikes kept apart` : ''}.\n`);
  return took;
}

/** `npm start`: the names sample, then the quotes. */
async function showSamples() {
  const started = performance.now();
  const sh = await init();
  const loaded = performance.now();
  const took = await showSample(sh, NAMES_SAMPLE, 'names, companies, addresses and products') + await showSample(sh, SAMPLE, 'sample texts');
  console.log(`WASM loaded in ${(loaded - started).toFixed(1)} ms; dedup took ${took.toFixed(2)} ms.`);
}

async function main(argv) {
  if (argv.length === 0) return showSamples();
  if (argv.includes('--help') || argv[0] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  try {
    const args = parseArgs(argv);
    if (args.command === 'link') await runLink(args);
    else if (args.index === undefined) await dedupCommand(args);
    else await (isRedisIndex(args.index) ? redisIndexCommand(args) : indexCommand(args));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`simhash-wasm: ${error.message}\nRun "simhash-wasm --help" for the options.\n`);
      process.exitCode = 2;
    } else if (error instanceof IndexFileError || error instanceof ReviewFileError) {
      process.stderr.write(`simhash-wasm: ${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof InputError || error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'EISDIR') {
      process.stderr.write(`simhash-wasm: ${error instanceof InputError ? '' : 'cannot read input: '}${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof MemoryError) {
      process.stderr.write(`simhash-wasm: ${error.message}\n`);
      process.exitCode = 3;
    } else {
      throw error;
    }
  }
}

// A closed pipe (e.g. `| head`) ends the output; it is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2));
