// Records of the CLI's input formats, read from a stream: each record keeps its raw text
// (written back unchanged when it is kept), the text to fingerprint, and the line it
// starts on (for error messages and --groups/--pairs output).

/** An input error tied to a line of the input; the CLI exits with status 1. */
export class InputError extends Error {
  constructor(line, message) {
    super(`line ${line}: ${message}`);
    this.line = line;
  }
}

/** Lines without their line ending; a final line without one still counts. */
async function* lines(stream) {
  let pending = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) {
    pending += chunk;
    let start = 0;
    for (let end; (end = pending.indexOf('\n', start)) !== -1; start = end + 1) {
      yield pending.slice(start, end > start && pending[end - 1] === '\r' ? end - 1 : end);
    }
    pending = pending.slice(start);
  }
  if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}

async function* lineRecords(stream) {
  let line = 0;
  for await (const text of lines(stream)) yield { line: ++line, raw: text, text };
}

async function* jsonlRecords(stream, field) {
  let line = 0;
  for await (const raw of lines(stream)) {
    line++;
    if (raw.trim() === '') continue; // blank lines are not records in JSON Lines
    let value;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new InputError(line, `not valid JSON (${error.message})`);
    }
    const text = typeof value === 'string' ? value : value?.[field];
    if (typeof text !== 'string') {
      throw new InputError(line, `expected a JSON string or an object whose "${field}" is a string`);
    }
    yield { line, raw, text };
  }
}

/**
 * RFC 4180 CSV: fields separated by commas, optionally quoted; a quoted field may hold
 * commas, newlines and doubled quotes. The first record is the header; `field` names
 * the column to fingerprint. The header record is yielded first with `header: true`.
 */
async function* csvRecords(stream, field) {
  let column = -1;
  let line = 1; // the line the current record starts on
  let cursorLine = 1;
  let fields = [];
  let value = '';
  let raw = '';
  let quoted = false; // inside a quoted field
  let afterQuote = false; // a quoted field just closed
  let fieldStart = true;

  const finish = function* () {
    fields.push(value);
    const record = { line, raw, fields };
    fields = [];
    value = '';
    raw = '';
    fieldStart = true;
    afterQuote = false;
    line = cursorLine;
    if (record.fields.length === 1 && record.fields[0] === '' && record.raw.trim() === '') return; // blank line
    if (column < 0) {
      column = record.fields.indexOf(field);
      if (column < 0) throw new InputError(record.line, `the header has no column "${field}" (columns: ${record.fields.join(', ')}); pick one with --field`);
      yield { line: record.line, raw: record.raw, text: '', header: true };
      return;
    }
    if (column >= record.fields.length) throw new InputError(record.line, `the record has ${record.fields.length} fields, no "${field}"`);
    yield { line: record.line, raw: record.raw, text: record.fields[column] };
  };

  stream.setEncoding('utf8');
  for await (const chunk of stream) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (quoted) {
        raw += c;
        if (c === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (c === '\n') cursorLine++;
          value += c;
        }
        continue;
      }
      if (c === '"') {
        raw += c;
        if (afterQuote) { // a doubled quote inside a quoted field
          value += '"';
          quoted = true;
          afterQuote = false;
        } else if (fieldStart) {
          quoted = true;
        } else {
          throw new InputError(cursorLine, 'a quote inside an unquoted field (quote the whole field and double the quote)');
        }
        fieldStart = false;
      } else if (c === ',') {
        raw += c;
        fields.push(value);
        value = '';
        fieldStart = true;
        afterQuote = false;
      } else if (c === '\n') {
        cursorLine++;
        if (raw.endsWith('\r')) {
          raw = raw.slice(0, -1);
          if (!afterQuote) value = value.slice(0, -1);
        }
        yield* finish();
      } else {
        if (afterQuote && c !== '\r') throw new InputError(cursorLine, 'text after the closing quote of a field');
        raw += c;
        if (!afterQuote) value += c;
        fieldStart = false;
      }
    }
  }
  if (quoted) throw new InputError(line, 'a quoted field is never closed');
  if (raw !== '' || fields.length > 0) yield* finish();
  if (column < 0) throw new InputError(1, 'no header record');
}

export const FORMATS = ['lines', 'jsonl', 'csv'];

/** The format a file name suggests: .jsonl/.ndjson → jsonl, .csv → csv, otherwise lines. */
export function formatOf(file) {
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  if (/\.csv$/i.test(file)) return 'csv';
  return 'lines';
}

/** Async iterator of { line, raw, text } (plus one { header: true } first for CSV). */
export function readRecords(stream, format, field = 'text') {
  if (format === 'jsonl') return jsonlRecords(stream, field);
  if (format === 'csv') return csvRecords(stream, field);
  return lineRecords(stream);
}
