// `simhash-wasm link LEFT RIGHT --field A,B,…` (README "Records"): two files of records linked
// one-to-one by sh.link, each link written as one JSON line; the review file as dedup's.
import { UsageError } from './errors.js';
import { InputError, formatOf } from './records.js';
import { count, readInput, writeLines } from './streams.js';
import { checkRecordArgs, compareWith, recordOptions, recordShown } from './record-dedup.js';
import { DEFAULT_LINK_PROBABILITY } from '../records/records.js';

/** Options of dedup that link has no use for: it writes links, not kept rows or groups. */
const NOT_WITH_LINK = ['--groups', '--update'];

/** link's arguments: two inputs, the columns to compare, and the options records take. */
export function checkLinkArgs(args, given, inputs) {
  if (inputs.length !== 2) throw new UsageError(`link takes two inputs, LEFT and RIGHT, got ${inputs.length}`);
  if (inputs[0] === '-' && inputs[1] === '-') throw new UsageError('link reads one input at most from standard input');
  if (!args.fields.length) throw new UsageError('link needs --field: the columns to compare');
  for (const option of NOT_WITH_LINK) if (given.has(option)) throw new UsageError(`${option} does not apply to link, which writes the links`);
  args.inputs = inputs.map((file) => ({ file, format: args.format ?? (file === '-' ? 'jsonl' : formatOf(file)) }));
  if (args.inputs.some(({ format }) => format === 'lines')) throw new UsageError('link reads records: give --format csv or jsonl, or files named .csv or .jsonl');
  checkRecordArgs({ ...args, format: 'csv' }, given, 'link', DEFAULT_LINK_PROBABILITY); // the formats checked above
}

/** One input's records: { line, raw, text } with `text` the row of the --field columns; `header`, a CSV's header record. */
async function readRecords(args, input, progress) {
  const records = [];
  try {
    await readInput({ ...args, ...input, records: true }, progress, {
      header(record) { records.header = record; },
      record(record, text) { records.push({ line: record.line, raw: record.raw, text }); },
      status: () => `${input.file}: ${count(records.length)} records`,
    });
  } catch (error) {
    if (error instanceof InputError) error.message = `${input.file === '-' ? 'standard input' : input.file}, ${error.message}`;
    throw error;
  }
  return records;
}

/** The link command: both inputs read, linked, each link written to stdout as a JSON line. */
export async function linkCommand(sh, args, out, reviewFile, progress) {
  const [left, right] = [await readRecords(args, args.inputs[0], progress), await readRecords(args, args.inputs[1], progress)];
  const result = await compareWith(() => sh.link(left.map((r) => r.text), right.map((r) => r.text), recordOptions(args, progress)));
  const side = (records, i) => recordShown(records[i], records.header);
  const entry = ({ a, b, probability, apart, fields }) => ({ a: side(left, a), b: side(right, b), probability, ...(apart && { apart }), fields });
  for (const link of result.links) await out.write(`${JSON.stringify(entry(link))}\n`);
  await out.flush();
  if (reviewFile) await writeLines(reviewFile, result.review.map(entry));
  const kinds = result.fields.map(({ name, kind }) => `${name} (${kind})`).join(', ');
  process.stderr.write(`simhash-wasm: compared records by ${kinds}, linked at probability ${args.probability ?? DEFAULT_LINK_PROBABILITY}\n`);
  const reviewed = reviewFile ? `, ${count(result.review.length)} pairs to review in ${args.reviewFile}` : '';
  progress.end(`${count(left.length)} and ${count(right.length)} records, ${count(result.links.length)} links${reviewed}`);
}
