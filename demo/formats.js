// The demo's view of its input: the package's record parser (js/cli/records.js, which the CLI
// also uses) run on a whole file or pasted text, plus what a page needs on top of it: the
// fields to offer, a guess of which holds the text, and the download.
import { parseRecords, textPicker } from '../js/cli/records.js';

export { InputError, formatOf } from '../js/cli/records.js';

/**
 * A whole input (a file's bytes, or text) as { format, header, records, fields, blank }:
 * `fields` are the CSV header's columns, or the string fields of JSON objects among the
 * first 1,000 records.
 */
export function parse(input, format) {
  const parsed = parseRecords(input, format);
  let fields = [];
  if (format === 'csv') {
    fields = parsed.header.fields;
  } else if (format === 'jsonl') {
    const seen = new Set();
    for (const { value } of parsed.records.slice(0, 1000)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      for (const [key, v] of Object.entries(value)) if (typeof v === 'string') seen.add(key);
    }
    fields = [...seen];
  }
  return { ...parsed, fields };
}

/** Pasted text: one item per line. */
export function parseLines(text) {
  return parse(text, 'lines');
}

const TEXT_NAMES = ['text', 'body', 'content', 'message', 'title', 'description', 'comment', 'review', 'summary', 'name'];

/** The field to offer first: a usual name for text, else the one with the longest values. */
export function guessField(parsed) {
  const { fields } = parsed;
  if (fields.length === 0) return undefined;
  const byName = TEXT_NAMES.map((name) => fields.find((f) => f.toLowerCase() === name)).find((f) => f !== undefined);
  if (byName !== undefined) return byName;
  const sample = parsed.records.slice(0, 200);
  let best = fields[0];
  let bestLength = -1;
  for (const field of fields) {
    const text = textPicker(parsed.format, field, parsed.header);
    const length = sample.reduce((sum, r) => sum + (text(r) ?? '').length, 0);
    if (length > bestLength) [best, bestLength] = [field, length];
  }
  return best;
}

/**
 * The texts to compare, one per record, and the lines of the records that lack the field
 * (they count as empty texts).
 */
export function textsOf(parsed, field) {
  const text = textPicker(parsed.format, field, parsed.header);
  const missing = [];
  const texts = parsed.records.map((record) => {
    const value = text(record);
    if (value === undefined) {
      missing.push(record.line);
      return '';
    }
    return value;
  });
  return { texts, missing };
}

/** The kept records as the input had them: the CSV header first, each record's raw text. */
export function serialize(parsed, keep) {
  const out = [];
  if (parsed.header) out.push(parsed.header.raw);
  parsed.records.forEach((record, i) => {
    if (keep(i)) out.push(record.raw);
  });
  return out.join('');
}
