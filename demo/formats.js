// The demo's view of its input: the package's record parser (js/cli/records.js, which the CLI
// also uses) run on a whole file or pasted text, plus what a page needs on top of it: the
// fields to offer, the texts of one field, the rows of records for sh.dedup, and the download.
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

/**
 * The records as sh.dedup takes them (README "Records"): per record an object of the
 * `columns` it has (textPicker's texts; a JSON Lines value that is not an object has none),
 * and how many records lack some of them (a missing field is no evidence either way).
 */
export function rowsOf(parsed, columns) {
  const pickers = columns.map((column) => [column, textPicker(parsed.format, column, parsed.header)]);
  let lacking = 0;
  const rows = parsed.records.map((record) => {
    const row = {};
    if (parsed.format === 'jsonl' && (record.value === null || typeof record.value !== 'object')) {
      lacking++;
      return row;
    }
    for (const [column, pick] of pickers) {
      const text = pick(record);
      if (text !== undefined) row[column] = text;
    }
    if (Object.keys(row).length < columns.length) lacking++;
    return row;
  });
  return { rows, lacking };
}

/**
 * A record's text, for the page (the lookup box, copies): the values of `columns` trimmed,
 * joined by ' | ' (a one-line record, as dedup's measure 'auto' reads one).
 */
export function recordText(row, columns) {
  return columns.map((column) => (row[column] ?? '').trim()).join(' | ');
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
