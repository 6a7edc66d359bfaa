// dedup of records on the command line (two or more --field columns; README "Records"): the
// options that apply to them (link's too), and the run, writing kept rows, groups or the review file.
import { UsageError } from './errors.js';
import { count, writeLines } from './streams.js';
import { parseRecords } from './records.js';
import { DEFAULT_PROBABILITY } from '../records/records.js';
import { MAX_REVIEW_LIMIT } from '../core/thresholds.js';

/** Options that mean nothing to records (README "Records"), which are compared field by field. */
const NOT_WITH_RECORDS = ['--similarity', '--measure', '--max-distance', '--pairs', '--index', '--tokenizer', '--word-ngram', '--char-ngram',
  '--weighting', '--keep-punctuation'];

/**
 * Records (two or more --field columns, or link's): their options, and none of those of
 * texts; `what` names them in the messages, `probability` is their default threshold.
 */
export function checkRecordArgs(args, given, what = 'records (two or more columns with --field)', probability = DEFAULT_PROBABILITY) {
  for (const option of NOT_WITH_RECORDS) {
    if (given.has(option)) throw new UsageError(`${option} does not apply to ${what} (compared field by field)`);
  }
  if (args.format === 'lines') throw new UsageError(`${what} need --format csv or jsonl`);
  for (const name of Object.keys(args.kinds)) {
    if (!args.fields.includes(name)) throw new UsageError(`--kind names the column "${name}", which --field does not`);
  }
  if (args.review === undefined) {
    for (const option of ['--review-file', '--review-limit']) if (given.has(option)) throw new UsageError(`${option} needs --review R`);
  } else if (args.reviewFile === undefined) throw new UsageError('--review needs --review-file FILE: the file to write the pairs to');
  if (args.review !== undefined && !(args.review < (args.probability ?? probability))) {
    throw new UsageError(`--review must be below the probability ${args.probability ?? probability}, got ${args.review}`);
  }
}

/** sh.dedup's or sh.link's options for records from the command line, progress shown. */
export const recordOptions = (args, progress) => ({
  fields: Object.fromEntries(args.fields.map((name) => [name, args.kinds[name] ?? 'auto'])),
  ...(args.probability !== undefined && { probability: args.probability }),
  ...(args.review !== undefined && { review: args.review, reviewLimit: args.reviewLimit ?? MAX_REVIEW_LIMIT }),
  onProgress: progress.onProgress,
});

/** call()'s answer; a column no JSON line has is a usage error that names --field. */
export async function compareWith(call) {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RangeError && /options.fields/.test(error.message)) throw new UsageError(error.message.replace('options.fields', '--field'));
    throw error;
  }
}

/**
 * A record as a person reads it in the output: { line, record }, the record whole, every
 * column of its input and not only those --field compares (a CSV row under its header's
 * names, made again from its raw text and `header`; a JSON line's object).
 */
export function recordShown({ line, raw }, header) {
  if (!header) return { line, record: JSON.parse(raw) };
  const [row] = parseRecords(header.raw + raw, 'csv').records;
  return { line, record: Object.fromEntries(header.fields.map((name, k) => [name, row.fields[k]])) };
}

/** dedupCommand for records: `records[i].text` is row i, an object of the --field columns. */
export async function dedupRecordsCommand(sh, args, records, header, out, reviewFile, progress) {
  const rows = records.map((record) => record.text);
  const result = await compareWith(() => sh.dedup(rows, recordOptions(args, progress)));
  if (args.output === 'groups') {
    // Each member after the kept row with why it was merged: the probability and each field's level.
    const why = ({ probability, levels }) => ({ probability, levels: Object.fromEntries(result.fields.map(({ name }, j) => [name, levels[j]])) });
    for (const [g, group] of result.groups.entries()) {
      const shown = group.map((i, m) => ({ ...recordShown(records[i], header), ...(m > 0 && why(result.merged[g][m - 1])) }));
      await out.write(`${JSON.stringify({ group: shown })}\n`);
    }
  } else {
    if (header) await out.write(header.raw);
    for (const i of result.uniqueIndices) await out.write(records[i].raw);
  }
  await out.flush();
  if (reviewFile) {
    const entries = result.review.map(({ a, b, probability, apart, fields }) => ({
      a: recordShown(records[a], header), b: recordShown(records[b], header), probability, ...(apart && { apart }), fields,
    }));
    await writeLines(reviewFile, entries);
  }
  const kinds = result.fields.map(({ name, kind }) => `${name} (${kind})`).join(', ');
  const listed = reviewFile ? '' : result.review.length ? `; ${count(result.review.length + result.reviewOmitted)} uncertain pairs not merged (--review R --review-file FILE lists them)` : '';
  process.stderr.write(`simhash-wasm: compared records by ${kinds}, merged at probability ${args.probability ?? DEFAULT_PROBABILITY}${listed}\n`);
  const reviewed = reviewFile ? `, ${count(result.review.length)} pairs of groups to review in ${args.reviewFile}` : '';
  progress.end(`${count(records.length)} records, ${count(result.unique.length)} unique, ${count(result.groups.length)} groups${reviewed}`);
}
